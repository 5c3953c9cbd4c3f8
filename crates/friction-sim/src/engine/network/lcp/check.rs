//! Checks of a box LCP (see the parent module): its input before a solve,
//! and a solution after it.

use nalgebra::DMatrix;

use super::{LcpError, EPS_NOT_PSD, EPS_SYMMETRY};

/// Checks dimensions, finiteness, signs of the bounds and symmetry.
/// Returns `max |A_ij|`.
pub(super) fn validate(a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64]) -> Result<f64, LcpError> {
    let bad = |m: String| Err(LcpError::BadInput(m));
    let n = a.nrows();
    if a.ncols() != n {
        return bad(format!("matrix A is {}x{}, not square", n, a.ncols()));
    }
    if q.len() != n {
        return bad(format!("q has length {}, but A is {n}x{n}", q.len()));
    }
    if lo.len() != n {
        return bad(format!("lo has length {}, but A is {n}x{n}", lo.len()));
    }
    if hi.len() != n {
        return bad(format!("hi has length {}, but A is {n}x{n}", hi.len()));
    }
    let s = a.as_slice();
    let mut a_max = 0.0_f64;
    for j in 0..n {
        for i in 0..n {
            let v = s[j * n + i];
            if !v.is_finite() {
                return bad(format!("A[({i}, {j})] is {v}, not a finite number"));
            }
            a_max = a_max.max(v.abs());
        }
    }
    for i in 0..n {
        if !q[i].is_finite() {
            return bad(format!("q[{i}] is {}, not a finite number", q[i]));
        }
        if lo[i].is_nan() || lo[i] > 0.0 {
            return bad(format!("lo[{i}] is {}, it must lie in [-inf, 0]", lo[i]));
        }
        if hi[i].is_nan() || hi[i] < 0.0 {
            return bad(format!("hi[{i}] is {}, it must lie in [0, +inf]", hi[i]));
        }
    }
    let sym_tol = EPS_SYMMETRY * a_max;
    for j in 0..n {
        if s[j * n + j] < -EPS_NOT_PSD * a_max {
            return bad(format!(
                "A is not positive semi-definite: diagonal entry A[({j}, {j})] = {} is negative",
                s[j * n + j]
            ));
        }
        for i in (j + 1)..n {
            let (x, y) = (s[j * n + i], s[i * n + j]);
            if (x - y).abs() > sym_tol {
                return bad(format!("A is not symmetric: A[({i}, {j})] = {x} but A[({j}, {i})] = {y}"));
            }
        }
    }
    Ok(a_max)
}

#[cfg(test)]
/// Verifies that `lambda` solves the box LCP `(A, q, lo, hi)`.
///
/// `tol` is relative: `w = Aλ + q` is compared with
/// `tol · (max|q| + max|A| · max|λ|)` and `λ` with `tol · max|λ|` (distance
/// to a bound, or outside the box). Each index must be at `lo` with
/// `w >= 0`, at `hi` with `w <= 0`, or have `w = 0` inside the box. Returns
/// a message naming the first offending index.
pub fn check_solution(
    a: &DMatrix<f64>,
    q: &[f64],
    lo: &[f64],
    hi: &[f64],
    lambda: &[f64],
    tol: f64,
) -> Result<(), String> {
    let n = a.nrows();
    if a.ncols() != n || q.len() != n || lo.len() != n || hi.len() != n || lambda.len() != n {
        return Err(format!(
            "dimension mismatch: A {}x{}, q {}, lo {}, hi {}, lambda {}",
            n,
            a.ncols(),
            q.len(),
            lo.len(),
            hi.len(),
            lambda.len()
        ));
    }
    if let Some(i) = lambda.iter().position(|v| !v.is_finite()) {
        return Err(format!("lambda[{i}] = {} is not finite", lambda[i]));
    }
    let w = a * nalgebra::DVector::from_column_slice(lambda) + nalgebra::DVector::from_column_slice(q);
    let a_max = a.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let q_max = q.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let l_max = lambda.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let w_tol = tol * (q_max + a_max * l_max);
    let l_tol = tol * l_max;
    for i in 0..n {
        let (l, wi) = (lambda[i], w[i]);
        if !wi.is_finite() {
            return Err(format!("w[{i}] = {wi} is not finite"));
        }
        if l < lo[i] - l_tol || l > hi[i] + l_tol {
            return Err(format!("index {i}: lambda = {l} is outside its box [{}, {}]", lo[i], hi[i]));
        }
        let at_lo = (l - lo[i]).abs() <= l_tol;
        let at_hi = (l - hi[i]).abs() <= l_tol;
        let ok = (at_lo && wi >= -w_tol) || (at_hi && wi <= w_tol) || wi.abs() <= w_tol;
        if !ok {
            return Err(format!(
                "index {i}: lambda = {l} in [{}, {}] but w = {wi} (tolerance {w_tol:e})",
                lo[i], hi[i]
            ));
        }
    }
    Ok(())
}
