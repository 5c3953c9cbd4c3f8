//! faer on the calling thread: the one parallelism policy of harmonic
//! balance, and the dense eigenproblems under it.
//!
//! **Policy.** Every faer call of harmonic balance (the LU of [`super::dense_lu`],
//! the products of [`super::problem`] and [`super::floquet`], the
//! eigenproblems here) runs with [`PAR`], sequential, passed explicitly:
//! faer's global setting (threads by default) is neither read nor changed,
//! so the command line's `frf` and `nnm`, Python, `friction serve` and any
//! other caller of [`super::frf`] and [`super::nnm`] compute alike, and a
//! process's other users of faer keep theirs.
//!
//! **Why sequential.** The dense problems of harmonic balance (a Jacobian of
//! n(2H+1) unknowns, a Floquet eigenproblem of 2n, Hill's of 2n(2H+1)) are
//! too small for faer's threads: on a 10-body chain with 5 Jenkins joints
//! at H = 5 (bench/hb/chain10_jenkins5.toml, 404 points, release build,
//! 2 cores, with Hill's 220-unknown eigenproblem then) the frequency
//! response took 12.9 s with them and 9.0 s without, the same numbers bit
//! for bit.
//!
//! The eigenproblems are faer's `Mat::eigenvalues` and
//! `Eigen::new_from_real` with [`PAR`] in place of the global setting (the
//! same faer routine, `evd_real`, and the same conversion to complex pairs).

use dyn_stack::{MemBuffer, MemStack};
use faer::diag::Diag;
use faer::linalg::evd::{self, ComputeEigenvectors, EvdError};
use faer::{c64, Mat, MatRef, Par};

/// The parallelism of every faer call in harmonic balance: sequential
/// (see the module documentation for the measurement).
pub const PAR: Par = Par::Seq;

/// The eigenvalues and right eigenvectors of a real matrix, as complex
/// numbers (a complex-conjugate pair in adjacent columns).
#[derive(Debug, Clone)]
pub struct Eigen {
    /// The eigenvectors, one a column.
    pub u: Mat<c64>,
    /// The eigenvalues, in the order of the columns of `u`.
    pub s: Vec<c64>,
}

/// Real and imaginary parts of the eigenvalues of the square matrix `a`,
/// and its real-form right eigenvectors when `u` is given.
fn evd_real(a: MatRef<'_, f64>, u: Option<&mut Mat<f64>>) -> Result<(Diag<f64>, Diag<f64>), EvdError> {
    assert!(a.nrows() == a.ncols());
    let n = a.nrows();
    let (mut s_re, mut s_im) = (Diag::<f64>::zeros(n), Diag::<f64>::zeros(n));
    let vectors = if u.is_some() { ComputeEigenvectors::Yes } else { ComputeEigenvectors::No };
    let mut mem =
        MemBuffer::new(evd::evd_scratch::<f64>(n, ComputeEigenvectors::No, vectors, PAR, Default::default()));
    evd::evd_real(
        a,
        s_re.as_mut(),
        s_im.as_mut(),
        None,
        u.map(|u| u.as_mut()),
        PAR,
        MemStack::new(&mut mem),
        Default::default(),
    )?;
    Ok((s_re, s_im))
}

/// The eigenvalues of the square matrix `a` (faer's `Mat::eigenvalues` on
/// [`PAR`]).
pub fn eigenvalues(a: MatRef<'_, f64>) -> Result<Vec<c64>, EvdError> {
    let (s_re, s_im) = evd_real(a, None)?;
    Ok(s_re
        .column_vector()
        .iter()
        .zip(s_im.column_vector().iter())
        .map(|(&re, &im)| c64::new(re, im))
        .collect())
}

/// The eigenvalues and eigenvectors of the square matrix `a` (faer's
/// `Eigen::new_from_real` on [`PAR`]).
pub fn eigen(a: MatRef<'_, f64>) -> Result<Eigen, EvdError> {
    let n = a.nrows();
    let mut u_real = Mat::<f64>::zeros(n, n);
    let (s_re, s_im) = evd_real(a, Some(&mut u_real))?;
    let mut u = Mat::<c64>::zeros(n, n);
    let mut s = vec![c64::new(0.0, 0.0); n];
    let mut j = 0;
    while j < n {
        if s_im[j] == 0.0 {
            s[j] = c64::new(s_re[j], 0.0);
            for i in 0..n {
                u[(i, j)] = c64::new(u_real[(i, j)], 0.0);
            }
            j += 1;
        } else {
            s[j] = c64::new(s_re[j], s_im[j]);
            s[j + 1] = c64::new(s_re[j], -s_im[j]);
            for i in 0..n {
                u[(i, j)] = c64::new(u_real[(i, j)], u_real[(i, j + 1)]);
                u[(i, j + 1)] = c64::new(u_real[(i, j)], -u_real[(i, j + 1)]);
            }
            j += 2;
        }
    }
    Ok(Eigen { u, s })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same numbers, bit for bit, as faer's own `Mat::eigenvalues` and
    /// `Eigen::new_from_real` (under the global setting, threads by
    /// default) on seeded random matrices with real and complex eigenvalues.
    #[test]
    fn matches_faer_bit_for_bit() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in [1, 2, 5, 20, 64, 130] {
            let a = Mat::<f64>::from_fn(n, n, |_, _| next());
            let ours = eigenvalues(a.as_ref()).unwrap();
            let theirs = a.eigenvalues().unwrap();
            assert_eq!(ours.len(), theirs.len());
            for (x, y) in ours.iter().zip(&theirs) {
                assert_eq!((x.re.to_bits(), x.im.to_bits()), (y.re.to_bits(), y.im.to_bits()), "n = {n}");
            }
            let ours = eigen(a.as_ref()).unwrap();
            let theirs = faer::linalg::solvers::Eigen::new_from_real(a.as_ref()).unwrap();
            for j in 0..n {
                let (x, y) = (ours.s[j], theirs.S()[j]);
                assert_eq!((x.re.to_bits(), x.im.to_bits()), (y.re.to_bits(), y.im.to_bits()), "n = {n}");
                for i in 0..n {
                    let (x, y) = (ours.u[(i, j)], theirs.U()[(i, j)]);
                    assert_eq!((x.re.to_bits(), x.im.to_bits()), (y.re.to_bits(), y.im.to_bits()), "n = {n}");
                }
            }
        }
    }
}
