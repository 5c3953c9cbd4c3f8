//! Dense modes of the undamped structure and modal damping.
//!
//! The generalised eigenproblem `K φ = ω² M φ` with M symmetric positive
//! definite is brought to standard form by the Cholesky factor `M = L Lᵀ`:
//! `(L⁻¹ K L⁻ᵀ) y = ω² y`, `φ = L⁻ᵀ y` (Golub and Van Loan 2013, "Matrix
//! computations", §8.7.2), whose eigenvectors, orthonormal, give
//! mass-normalised modes `Φᵀ M Φ = I`.

use nalgebra::{DMatrix, DVector, SymmetricEigen};

/// The modes of `(K, M)`: the eigenvalues `ω²` ascending (negative ones,
/// from round-off or an indefinite K, kept as they are) and the
/// mass-normalised shapes as columns; `None` when M is not positive definite.
pub fn modes(k: &DMatrix<f64>, m: &DMatrix<f64>) -> Option<(Vec<f64>, DMatrix<f64>)> {
    let n = k.nrows();
    let l = m.clone().cholesky()?.l();
    // A = L⁻¹ K L⁻ᵀ
    let y = l.solve_lower_triangular(k)?;
    let a = l.solve_lower_triangular(&y.transpose())?;
    let a = (&a + a.transpose()) * 0.5;
    let e = SymmetricEigen::new(a);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| e.eigenvalues[i].total_cmp(&e.eigenvalues[j]));
    let lam = order.iter().map(|&i| e.eigenvalues[i]).collect();
    let ys = DMatrix::from_fn(n, n, |i, j| e.eigenvectors[(i, order[j])]);
    let phi = l.transpose().solve_upper_triangular(&ys)?;
    Some((lam, phi))
}

/// The modal damping matrix `C = Σ_r 2 ζ_r ω_r (M φ_r)(M φ_r)ᵀ` for the
/// ratios `zeta` (one number: every mode; a list: the first modes, higher
/// ones undamped). Zero when M is not positive definite (refused earlier).
pub fn modal_damping(k: &DMatrix<f64>, m: &DMatrix<f64>, zeta: &[f64]) -> DMatrix<f64> {
    let n = k.nrows();
    let mut c = DMatrix::zeros(n, n);
    let Some((lam, phi)) = modes(k, m) else { return c };
    for (r, l) in lam.iter().enumerate() {
        let z = match zeta {
            [one] => *one,
            list => match list.get(r) {
                Some(z) => *z,
                None => break,
            },
        };
        let w = l.max(0.0).sqrt();
        let mp: DVector<f64> = m * phi.column(r);
        c += (&mp * mp.transpose()) * (2.0 * z * w);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two masses, consistent mass matrix of one bar element (ρAL/6 [2 1; 1 2])
    /// and its stiffness EA/L [1 -1; -1 1]: ω² = 0 and 12 EA/(ρ A L²).
    #[test]
    fn bar_element_has_a_rigid_mode_and_sqrt12_frequency() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]) / 6.0;
        let k = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 1.0]);
        let (lam, phi) = modes(&k, &m).unwrap();
        assert!(lam[0].abs() < 1e-14 && (lam[1] - 12.0).abs() < 1e-12, "{lam:?}");
        let g = phi.transpose() * &m * &phi;
        assert!((g - DMatrix::identity(2, 2)).norm() < 1e-13);
    }

    #[test]
    fn modal_damping_gives_each_mode_its_ratio() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, 0.5, 0.5, 1.0]);
        let k = DMatrix::from_row_slice(2, 2, &[3.0, -1.0, -1.0, 1.0]);
        let c = modal_damping(&k, &m, &[0.02, 0.05]);
        let (lam, phi) = modes(&k, &m).unwrap();
        let cm = phi.transpose() * c * &phi;
        for (r, z) in [0.02, 0.05].iter().enumerate() {
            assert!((cm[(r, r)] - 2.0 * z * lam[r].sqrt()).abs() < 1e-12);
        }
        assert!(cm[(0, 1)].abs() < 1e-12);
    }
}
