//! The dense Cholesky factor of the clamped block `A_CC` of the box LCP
//! (see the parent module): solves with it, an index joining (a new row) or
//! leaving (row deletion and Givens rotations), and the re-solve of the
//! clamped multipliers after each processed index.

use super::{Ctx, LcpError, LcpWork, State, EPS_NOT_PSD};

/// Solves `L Lᵀ x = b` in place (`x` holds `b` on entry) with the first `m`
/// rows of the row-major factor `fac` (stride `n`).
pub(super) fn fac_solve(fac: &[f64], n: usize, m: usize, x: &mut [f64]) {
    for k in 0..m {
        let row = &fac[k * n..k * n + k];
        let mut v = x[k];
        for j in 0..k {
            v -= row[j] * x[j];
        }
        x[k] = v / fac[k * n + k];
    }
    for k in (0..m).rev() {
        x[k] /= fac[k * n + k];
        let xk = x[k];
        let row = &fac[k * n..k * n + k];
        for j in 0..k {
            x[j] -= row[j] * xk;
        }
    }
}

/// Tries to append index `i` to the factor. Returns `Ok(true)` if it was
/// added (state `Clamped`), `Ok(false)` if its column is dependent on the
/// factor's (caller decides), or an error if `A` is shown to be indefinite.
fn try_factor_add(ctx: &Ctx, work: &mut LcpWork, i: usize) -> Result<bool, LcpError> {
    let n = ctx.n;
    let m = work.cf.len();
    let (done, rest) = work.fac.split_at_mut(m * n);
    let row = &mut rest[..n];
    let mut yy = 0.0;
    for k in 0..m {
        let mut v = ctx.a[i * n + work.cf[k]];
        let lk = &done[k * n..k * n + k];
        for j in 0..k {
            v -= lk[j] * row[j];
        }
        v /= done[k * n + k];
        row[k] = v;
        yy += v * v;
    }
    let piv = ctx.a[i * n + i] - yy;
    if piv > ctx.tol_piv {
        row[m] = piv.sqrt();
        work.cf.push(i);
        work.state[i] = State::Clamped;
        Ok(true)
    } else if piv < -EPS_NOT_PSD * (ctx.a_max + yy) {
        Err(LcpError::BadInput(format!(
            "A is not positive semi-definite (negative pivot {piv:e} when clamping index {i})"
        )))
    } else {
        Ok(false)
    }
}

/// Makes `i` clamped: in the factor if independent, else dependent.
pub(super) fn clamp_index(ctx: &Ctx, work: &mut LcpWork, i: usize) -> Result<(), LcpError> {
    if !try_factor_add(ctx, work, i)? {
        work.state[i] = State::Dependent;
        work.cz.push(i);
    }
    Ok(())
}

/// Removes the factor entry at position `pos` (row deletion plus Givens
/// rotations restoring the triangle), then moves dependent indices that have
/// become independent back into the factor.
pub(super) fn factor_remove(ctx: &Ctx, work: &mut LcpWork, pos: usize) -> Result<(), LcpError> {
    let n = ctx.n;
    let m = work.cf.len();
    let fac = &mut work.fac;
    for r in (pos + 1)..m {
        for c in 0..=r {
            fac[(r - 1) * n + c] = fac[r * n + c];
        }
    }
    for j in pos..(m - 1) {
        let a = fac[j * n + j];
        let b = fac[j * n + j + 1];
        let r = a.hypot(b);
        if r > 0.0 {
            let (c, s) = (a / r, b / r);
            for p in j..(m - 1) {
                let x = fac[p * n + j];
                let y = fac[p * n + j + 1];
                fac[p * n + j] = c * x + s * y;
                fac[p * n + j + 1] = -s * x + c * y;
            }
        }
        fac[j * n + j] = r;
        fac[j * n + j + 1] = 0.0;
    }
    work.cf.remove(pos);
    let mut k = 0;
    while k < work.cz.len() {
        let z = work.cz[k];
        if try_factor_add(ctx, work, z)? {
            work.cz.remove(k);
        } else {
            k += 1;
        }
    }
    Ok(())
}

/// Re-solves the clamped multipliers from the factor so that `w_C = 0`
/// holds to rounding, keeps them in their boxes, and recomputes `w = Aλ + q`.
pub(super) fn polish(ctx: &Ctx, work: &mut LcpWork) {
    let n = ctx.n;
    let m = work.cf.len();
    if m > 0 {
        // dl := λ with the factor's entries zeroed.
        work.dl.copy_from_slice(&work.lambda);
        for &c in &work.cf {
            work.dl[c] = 0.0;
        }
        for k in 0..m {
            let i = work.cf[k];
            let col = &ctx.a[i * n..(i + 1) * n];
            let mut s = ctx.q[i];
            for j in 0..n {
                s += col[j] * work.dl[j];
            }
            work.rhs[k] = -s;
        }
        fac_solve(&work.fac, n, m, &mut work.rhs);
        for k in 0..m {
            let i = work.cf[k];
            work.lambda[i] = work.rhs[k].clamp(ctx.lo[i], ctx.hi[i]);
        }
    }
    work.w.copy_from_slice(ctx.q);
    for j in 0..n {
        let l = work.lambda[j];
        if l != 0.0 {
            let col = &ctx.a[j * n..(j + 1) * n];
            for i in 0..n {
                work.w[i] += col[i] * l;
            }
        }
    }
}
