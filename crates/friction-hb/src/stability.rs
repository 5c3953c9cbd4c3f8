//! Stability of a periodic solution by Hill's method (von Groll and Ewins
//! 2001, "The harmonic balance method with arc-length continuation in
//! rotor/stator contact problems", J. Sound Vib. 241; selection of the
//! Floquet exponents by the eigenvectors' weight, Lazarus and Thomas 2010,
//! "A harmonic-based method for computing the stability of periodic
//! solutions of dynamical systems", C. R. Mécanique 338).
//!
//! A perturbation `e^{λt} q(t)`, `q` periodic with the coefficients `Q` of
//! the harmonic balance, of the solution `X` of `R(X, ω) = 0` obeys
//!
//! ```text
//! (Δ2 λ² + Δ1 λ + J) Q = 0,   J = ∂R/∂X,  Δ2 = M ⊗ I,  Δ1 = C ⊗ I + 2 M ⊗ ∇
//! ∇: the time derivative on the coefficients, (a_k, b_k) -> (kω b_k, -kω a_k)
//! first-order form  λ z = [0 I; -Δ2⁻¹ J, -Δ2⁻¹ Δ1] z,  z = [Q; λ Q]
//! ```
//!
//! Of its `2n(2H + 1)` eigenvalues, copies `λ + i k ω` of the `2n` Floquet
//! exponents, the exponents are the `2n` whose eigenvectors `Q` are most
//! concentrated on the low harmonics (smallest mean harmonic index of the
//! weights `|Q_k|²`); the solution is stable when every exponent has a
//! negative real part. The contact forces enter through `J` only (their
//! dependence on the perturbation's growth rate is not represented).
//!
//! The frequency response does not use it: [`super::floquet`] is cheaper
//! (`O(N n³)` against `O((nH)³)` per point) and right where this is not.
//! On a Jenkins joint forced through slip, this method returned the
//! dashpot's own rate, -c/2m, at every point, where the engine's motions
//! converge at -0.42 to -14 1/s and the monodromy gives the same to 3 %
//! (`tests/hb_floquet_engine.rs`): the Jacobian's differences re-settle the
//! joint's memory at every perturbed coefficient, so they describe a
//! perturbation held for many periods, not one that grows or decays. It
//! stays as the cross-check of linear structures (`tests/hb_stability.rs`).

use faer::Mat;
use nalgebra::DMatrix;

use super::problem::Problem;
use friction_analysis::AnalysisError;

/// The `2n` Floquet exponents `(re, im)` \[1/s\] of the solution `x` at
/// angular frequency `omega` (`n` bodies), real part descending.
pub fn floquet_exponents(p: &mut Problem, x: &[f64], omega: f64) -> Result<Vec<(f64, f64)>, AnalysisError> {
    let (nd, l, h) = (p.s.dofs(), p.grid.len(), p.grid.h);
    let n = p.n();
    let mut jac = DMatrix::zeros(n, n + 1);
    p.jacobian(x, omega, &mut jac);
    let minv: Vec<f64> = (0..nd).map(|d| 1.0 / p.s.m[(d, d)]).collect();
    let mut a = Mat::<f64>::zeros(2 * n, 2 * n);
    for i in 0..n {
        a[(i, n + i)] = 1.0;
    }
    for d in 0..nd {
        for j in 0..l {
            let row = d * l + j;
            for col in 0..n {
                a[(n + row, col)] = -minv[d] * jac[(row, col)];
            }
            for e in 0..nd {
                let (m, c) = (p.s.m[(d, e)], p.s.c[(d, e)]);
                // Δ1 = C ⊗ I + 2 M ⊗ ∇
                a[(n + row, n + e * l + j)] -= minv[d] * c;
                if j > 0 {
                    let k = j.div_ceil(2);
                    let kw = k as f64 * omega;
                    if j % 2 == 1 {
                        // cosine row: 2 M kω b_k
                        a[(n + row, n + e * l + j + 1)] -= minv[d] * 2.0 * m * kw;
                    } else {
                        a[(n + row, n + e * l + j - 1)] += minv[d] * 2.0 * m * kw;
                    }
                }
            }
        }
    }
    let eig = super::linalg::eigen(a.as_ref()).map_err(|e| {
        AnalysisError::Model(format!("Hill's method: the eigenvalue problem failed ({e:?}) at ω = {omega}"))
    })?;
    let (u, s) = (&eig.u, &eig.s);
    let mut scored: Vec<(f64, f64, f64)> = (0..2 * n)
        .map(|col| {
            let (mut w, mut wk) = (0.0, 0.0);
            for d in 0..nd {
                for j in 0..l {
                    let v = u[(d * l + j, col)];
                    let m2 = v.re * v.re + v.im * v.im;
                    w += m2;
                    wk += m2 * (j.div_ceil(2)) as f64;
                }
            }
            let lam = s[col];
            (if w > 0.0 { wk / w } else { h as f64 }, lam.re, lam.im)
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = scored.iter().take(2 * nd).map(|t| (t.1, t.2)).collect();
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(out)
}

/// Whether the Floquet exponents `exps` of a solution at angular frequency
/// `omega` are all in the left half-plane (real part below `1e-6 ω`, the
/// finite-difference noise of the Jacobian).
pub fn is_stable(exps: &[(f64, f64)], omega: f64) -> bool {
    exps.iter().all(|e| e.0 < 1e-6 * omega)
}
