//! Craig-Bampton reduction (Craig and Bampton 1968, "Coupling of
//! substructures for dynamic analyses", AIAA Journal 6(7)): the kept
//! (interface) DOFs b stay physical, the interior DOFs i follow them
//! statically and add the lowest fixed-interface modes:
//!
//! ```text
//! [x_b]   [ I   0 ] [x_b]      Ψ = -K_ii⁻¹ K_ib               (constraint modes)
//! [x_i] = [ Ψ   Φ ] [ q ],     K_ii Φ = M_ii Φ Ω²,  Φᵀ M_ii Φ = I   (fixed-interface modes)
//! M_r = Tᵀ M T,  K_r = Tᵀ K T
//! ```
//!
//! Sparse throughout: K_ii is factorised once by faer's sparse Cholesky
//! (fill-reducing ordering); Ψ takes one solve per kept DOF. The
//! fixed-interface modes come from a dense eigensolver when the interior has
//! at most [`DENSE_INTERIOR`] DOFs (exact, and every mode is then
//! available), otherwise from subspace iteration (Bathe and Wilson 1972,
//! "Large eigenvalue problems in dynamic analysis", J. Eng. Mech. Div. 98):
//! inverse iteration on a block of q = max(2K, K + 8) vectors with the same
//! factor of K_ii, each sweep closed by a Rayleigh-Ritz projection. It is
//! chosen over shift-invert Lanczos because the wanted modes are the lowest
//! few with the factor already at hand, the block converges all of them at
//! the rate (λ_K / λ_{q+1}) per sweep without the reorthogonalisation and
//! ghost-mode handling Lanczos needs, and its cost (q solves and q sparse
//! products per sweep) is small beside the factorisation for K ≤ 100.
//!
//! With every interior mode kept the transformation is square and
//! invertible: the reduced model has the full model's eigenvalues exactly.
//! With K modes it is a Rayleigh-Ritz approximation: each reduced
//! eigenvalue bounds the full model's from above (Poincaré separation).

use faer::linalg::solvers::Solve;
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};
use nalgebra::DMatrix;

use super::{modal, SymMatrix};

/// Interiors up to this many DOFs get their modes from the dense
/// eigensolver; larger ones from subspace iteration.
pub const DENSE_INTERIOR: usize = 400;

/// A reduced model: `T` maps `[x_b; q]` to the full DOFs.
#[derive(Debug, Clone)]
pub struct Reduced {
    /// Reduced mass, `(keep + modes)` square.
    pub mass: SymMatrix,
    /// Reduced stiffness.
    pub stiffness: SymMatrix,
    /// The fixed-interface eigenvalues ω² of the modes kept.
    pub interior_eigenvalues: Vec<f64>,
    /// The transformation, full DOFs × (keep + modes), column-major.
    pub t: Mat<f64>,
}

/// Reduce `(mass, stiffness)` to the DOFs `keep` plus `modes`
/// fixed-interface modes. `Err` names what is wrong: a kept index out of
/// range or repeated, more modes than interior DOFs, an interior stiffness
/// that is not positive definite (the kept DOFs do not hold the structure).
pub fn craig_bampton(
    mass: &SymMatrix,
    stiffness: &SymMatrix,
    keep: &[usize],
    modes: usize,
) -> Result<Reduced, String> {
    let n = mass.n();
    let mut role = vec![usize::MAX; n];
    for (k, &d) in keep.iter().enumerate() {
        if d >= n {
            return Err(format!(
                "`keep` index {d} is past the {n} DOFs; valid range 0 to {}",
                n.saturating_sub(1)
            ));
        }
        if role[d] != usize::MAX {
            return Err(format!("`keep` names DOF {d} twice"));
        }
        role[d] = k;
    }
    let interior: Vec<usize> = (0..n).filter(|&d| role[d] == usize::MAX).collect();
    let (nb, ni) = (keep.len(), interior.len());
    if modes > ni {
        return Err(format!("`modes` = {modes} is more than the {ni} interior DOFs (those not in `keep`)"));
    }
    let mut pos = vec![0; n];
    for (k, &d) in interior.iter().enumerate() {
        pos[d] = k;
    }
    let is_b = |d: usize| role[d] != usize::MAX;
    // interior blocks (both triangles) and the coupling K_ib as dense columns
    let block = |a: &SymMatrix| -> Result<SparseColMat<usize, f64>, String> {
        let mut t = Vec::new();
        for &(i, j, v) in a.upper() {
            if !is_b(i) && !is_b(j) {
                t.push(Triplet::new(pos[i], pos[j], v));
                if i != j {
                    t.push(Triplet::new(pos[j], pos[i], v));
                }
            }
        }
        SparseColMat::try_new_from_triplets(ni, ni, &t).map_err(|e| format!("cannot assemble: {e:?}"))
    };
    let (kii, mii) = (block(stiffness)?, block(mass)?);
    let mut kib = Mat::<f64>::zeros(ni, nb);
    for &(i, j, v) in stiffness.upper() {
        match (is_b(i), is_b(j)) {
            (false, true) => kib[(pos[i], role[j])] += v,
            (true, false) => kib[(pos[j], role[i])] += v,
            _ => {}
        }
    }
    let mut t = Mat::<f64>::zeros(n, nb + modes);
    let mut lam = Vec::new();
    if ni > 0 {
        let llt = kii.sp_cholesky(Side::Lower).map_err(|_| {
            "the stiffness of the interior DOFs (those not in `keep`) is not positive definite: the kept DOFs \
             must hold every rigid-body motion of the structure"
                .to_string()
        })?;
        // Ψ = -K_ii⁻¹ K_ib
        let mut psi = kib;
        llt.solve_in_place(psi.as_mut());
        let (l, phi) = if modes == 0 {
            (Vec::new(), Mat::<f64>::zeros(ni, 0))
        } else if ni <= DENSE_INTERIOR {
            dense_modes(&kii, &mii, modes)?
        } else {
            subspace(&llt, &mii, modes)?
        };
        lam = l;
        for (k, &d) in interior.iter().enumerate() {
            for c in 0..nb {
                t[(d, c)] = -psi[(k, c)];
            }
            for c in 0..modes {
                t[(d, nb + c)] = phi[(k, c)];
            }
        }
    }
    for (c, &d) in keep.iter().enumerate() {
        t[(d, c)] = 1.0;
    }
    Ok(Reduced { mass: project(mass, &t), stiffness: project(stiffness, &t), interior_eigenvalues: lam, t })
}

/// `Tᵀ A T` as a symmetric matrix (its upper triangle, zeros left out).
pub fn project(a: &SymMatrix, t: &Mat<f64>) -> SymMatrix {
    let (n, r) = (t.nrows(), t.ncols());
    let mut at = Mat::<f64>::zeros(n, r);
    for c in 0..r {
        let col: Vec<f64> = (0..n).map(|i| t[(i, c)]).collect();
        for (i, v) in a.mul_vec(&col).into_iter().enumerate() {
            at[(i, c)] = v;
        }
    }
    let p = t.transpose() * &at;
    let mut e = Vec::new();
    for j in 0..r {
        for i in 0..=j {
            let v = 0.5 * (p[(i, j)] + p[(j, i)]);
            if v != 0.0 {
                e.push((i, j, v));
            }
        }
    }
    SymMatrix::from_upper(r, e)
}

fn to_dense(a: &SparseColMat<usize, f64>) -> DMatrix<f64> {
    let n = a.nrows();
    let mut d = DMatrix::zeros(n, n);
    for j in 0..n {
        for (i, v) in a.row_idx_of_col(j).zip(a.val_of_col(j)) {
            d[(i, j)] += *v;
        }
    }
    d
}

/// The lowest `p` modes of `(K, M)` by the dense eigensolver.
fn dense_modes(
    k: &SparseColMat<usize, f64>,
    m: &SparseColMat<usize, f64>,
    p: usize,
) -> Result<(Vec<f64>, Mat<f64>), String> {
    let (lam, phi) = modal::modes(&to_dense(k), &to_dense(m))
        .ok_or("the mass of the interior DOFs is not positive definite")?;
    let n = phi.nrows();
    Ok((lam[..p].to_vec(), Mat::from_fn(n, p, |i, j| phi[(i, j)])))
}

/// `y = A x` for each column of `x` (the compressed columns walked directly).
fn sp_mul(a: &SparseColMat<usize, f64>, x: &Mat<f64>) -> Mat<f64> {
    let (cp, ri, v) = (a.symbolic().col_ptr(), a.symbolic().row_idx(), a.val());
    let mut y = Mat::<f64>::zeros(a.nrows(), x.ncols());
    for c in 0..x.ncols() {
        let (xc, yc) = (x.col_as_slice(c), y.col_as_slice_mut(c));
        for (j, &xj) in xc.iter().enumerate() {
            if xj != 0.0 {
                for p in cp[j]..cp[j + 1] {
                    yc[ri[p]] += v[p] * xj;
                }
            }
        }
    }
    y
}

/// The lowest `p` modes of `(K, M)` by subspace iteration (Bathe and
/// Wilson 1972) with the factor `llt` of K: until every wanted eigenvalue
/// changes by less than 1e-12 relative from one sweep to the next (at most
/// 200 sweeps).
fn subspace(
    llt: &faer::sparse::linalg::solvers::Llt<usize, f64>,
    m: &SparseColMat<usize, f64>,
    p: usize,
) -> Result<(Vec<f64>, Mat<f64>), String> {
    let n = m.nrows();
    let q = (2 * p).max(p + 8).min(n);
    // starting block: a deterministic pseudo-random block (SplitMix64), so
    // that no wanted mode is orthogonal to it by a symmetry of the mesh
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let mut x = Mat::from_fn(n, q, |_, _| next());
    // y = M x, carried from sweep to sweep (M (xb Q) = (M xb) Q)
    let mut y = sp_mul(m, &x);
    let mut old = vec![f64::INFINITY; p];
    for _ in 0..200 {
        let mut xb = y.clone();
        llt.solve_in_place(xb.as_mut());
        // Rayleigh-Ritz on span(xb): Kq = xbᵀ K xb = xbᵀ y, Mq = xbᵀ M xb
        let kq = xb.transpose() * &y;
        let mxb = sp_mul(m, &xb);
        let mq = xb.transpose() * &mxb;
        let nd = |a: &Mat<f64>| DMatrix::from_fn(q, q, |i, j| 0.5 * (a[(i, j)] + a[(j, i)]));
        let (lam, qv) = modal::modes(&nd(&kq), &nd(&mq)).ok_or("subspace iteration lost its rank")?;
        let qf = Mat::from_fn(q, q, |i, j| qv[(i, j)]);
        x = &xb * &qf;
        y = &mxb * &qf;
        let done = (0..p).all(|j| (lam[j] - old[j]).abs() <= 1e-12 * lam[j].abs());
        old.copy_from_slice(&lam[..p]);
        if done {
            return Ok((lam[..p].to_vec(), Mat::from_fn(n, p, |i, j| x[(i, j)])));
        }
    }
    Err(format!("subspace iteration did not converge the lowest {p} interior modes in 200 sweeps"))
}
