//! The feasible split of the forces of a loop of stuck rows.
//!
//! A cluster whose rows close a loop (a body held by the ground and a
//! driver at once, a ring of stuck contacts, two blocks stuck together each
//! on its own stop) is statically indeterminate: every `λ = λ0 + N z`
//! balances its bodies, where `λ0 = W⁺ b` is the minimum-norm solution and
//! the columns of `N` span the null space of `W = E^T M^-1 E` (one column
//! per independent loop). Of these the engine takes the one of least norm
//! within every row's limits,
//!
//! ```text
//! min ||λ||²  subject to  W λ = b,  lo_j <= λ_j <= hi_j,
//! ```
//!
//! which, since `λ0` is orthogonal to the null space, is the projection of
//! the origin onto a polyhedron in `z`: `min ||z||²` subject to
//! `lo_j - λ0_j <= n_j^T z <= hi_j - λ0_j`. It is solved exactly by the dual
//! active-set method of Goldfarb and Idnani (1983, "A numerically stable
//! dual method for solving strictly convex quadratic programs", Math.
//! Programming 27), here with the identity as Hessian: a handful of
//! constraints in one to a few unknowns, solved in work arrays (no
//! allocation once grown). No maintained crate solves such small dense
//! problems exactly and allocation-free (interior-point solvers such as
//! Clarabel return an approximation after allocating per call).
//!
//! The solution is continuous in `b` while a feasible split exists, so the
//! contacts' break-away roots (`N Fs - |λ|`) stay continuous. When none
//! exists (past a break-away, within the root finder's tolerance of it) the
//! rows take the split of the smallest overload: the least `μ >= 1` for
//! which the contacts' ranges scaled by `μ` (and the stops allowed to pull
//! by `(μ - 1) F_ref`) admit a split, found by bisection; the contacts that
//! this split puts beyond their capacity are the ones whose roots fire.

use nalgebra::DMatrix;

/// What one row of a loop can carry, in the orientation of the row (a
/// bundle of parallel rows counts as one row with its members' sums).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RowRange {
    /// the contacts' range `[lo, hi]`, `lo <= 0 <= hi` (scaled by `μ`)
    pub lo: f64,
    pub hi: f64,
    /// a resting stop among the row's members pushes without bound in this
    /// direction (+1: any force above `lo`, -1: any below `hi`), 0 for none
    pub stop: f64,
}

impl RowRange {
    /// The row's bounds at overload `μ >= 1`.
    fn bounds(&self, mu: f64, fref: f64) -> (f64, f64) {
        let slack = (mu - 1.0) * fref;
        if self.stop > 0.0 {
            (mu * self.lo - slack, f64::INFINITY)
        } else if self.stop < 0.0 {
            (f64::NEG_INFINITY, mu * self.hi + slack)
        } else {
            (mu * self.lo, mu * self.hi)
        }
    }
}

/// Work arrays of [`split_loop`], kept across evaluations.
#[derive(Debug, Default, Clone)]
pub(crate) struct LoopWork {
    /// constraints `c_i^T z >= d_i`, row-major `ncons x k`
    c: Vec<f64>,
    d: Vec<f64>,
    z: Vec<f64>,
    zd: Vec<f64>,
    act: Vec<usize>,
    u: Vec<f64>,
    r: Vec<f64>,
    gram: Vec<f64>,
    rhs: Vec<f64>,
}

/// Outcome of [`split_loop`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LoopSplit {
    /// 1 when the split is within every range, else the overload `μ > 1`
    /// of the least-overloaded split
    pub overload: f64,
}

/// The least-norm split `λ = λ0 + N z` within `ranges` (or, when there is
/// none, within the least overload), into `out`. `null` is `m x k`; `fref`
/// is the force scale by which stops may pull per unit of overload.
pub(crate) fn split_loop(
    lam0: &[f64],
    null: &DMatrix<f64>,
    ranges: &[RowRange],
    fref: f64,
    w: &mut LoopWork,
    out: &mut [f64],
) -> LoopSplit {
    let mut mu = 1.0;
    if !solve_at(lam0, null, ranges, mu, fref, w) {
        // the smallest overload that admits a split: bracket, then bisect
        // (feasibility grows with μ)
        let mut lo = 1.0;
        let mut hi = 2.0;
        while !solve_at(lam0, null, ranges, hi, fref, w) {
            lo = hi;
            hi *= 4.0;
            if hi > 1e12 {
                // no split at any overload (cannot happen with fref > 0);
                // the minimum-norm forces
                out.copy_from_slice(lam0);
                return LoopSplit { overload: f64::INFINITY };
            }
        }
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if solve_at(lam0, null, ranges, mid, fref, w) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        mu = hi;
        let ok = solve_at(lam0, null, ranges, mu, fref, w);
        debug_assert!(ok);
    }
    let k = null.ncols();
    for (j, o) in out.iter_mut().enumerate() {
        let mut l = lam0[j];
        for i in 0..k {
            l += null[(j, i)] * w.z[i];
        }
        *o = l;
    }
    LoopSplit { overload: mu }
}

/// The least-norm `z` at overload `mu` into `w.z`; false when there is none.
fn solve_at(
    lam0: &[f64],
    null: &DMatrix<f64>,
    ranges: &[RowRange],
    mu: f64,
    fref: f64,
    w: &mut LoopWork,
) -> bool {
    let (m, k) = (null.nrows(), null.ncols());
    let scale = fref.max(f64::MIN_POSITIVE);
    let tol = 1e-12 * scale;
    w.c.clear();
    w.d.clear();
    for j in 0..m {
        let (lo, hi) = ranges[j].bounds(mu, fref);
        let norm2: f64 = (0..k).map(|i| null[(j, i)] * null[(j, i)]).sum();
        if norm2 <= 1e-24 {
            // a row outside every loop: its force is fixed by the statics
            if lam0[j] < lo - tol || lam0[j] > hi + tol {
                return false;
            }
            continue;
        }
        if lo.is_finite() {
            w.c.extend((0..k).map(|i| null[(j, i)]));
            w.d.push(lo - lam0[j]);
        }
        if hi.is_finite() {
            w.c.extend((0..k).map(|i| -null[(j, i)]));
            w.d.push(lam0[j] - hi);
        }
    }
    goldfarb_idnani(k, tol, w)
}

/// `min ||z||²` subject to `c_i^T z >= d_i` (the rows of `w.c`, `w.d`) by the
/// dual active-set method of Goldfarb and Idnani with the identity as
/// Hessian; the solution in `w.z`, false when the constraints admit none.
fn goldfarb_idnani(k: usize, tol: f64, w: &mut LoopWork) -> bool {
    let ncons = w.d.len();
    let LoopWork { c, d, z, zd, act, u, r, gram, rhs } = w;
    z.clear();
    z.resize(k, 0.0);
    zd.clear();
    zd.resize(k, 0.0);
    act.clear();
    u.clear();
    let row = |i: usize| i * k..(i + 1) * k;
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    // each constraint enters the active set at most once per pass; a bound
    // on the work against cycling under rounding
    let max_iter = 10 * (ncons + k) + 20;
    let mut iter = 0;
    loop {
        // the most violated constraint (relative to its normal's length)
        let mut p = usize::MAX;
        let mut worst = 0.0;
        for i in 0..ncons {
            if act.contains(&i) {
                continue;
            }
            let ci = &c[row(i)];
            let s = dot(ci, z) - d[i];
            if s < -tol {
                let rel = s / dot(ci, ci).sqrt();
                if rel < worst {
                    worst = rel;
                    p = i;
                }
            }
        }
        if p == usize::MAX {
            return true;
        }
        let cp = row(p);
        let mut up = 0.0;
        loop {
            iter += 1;
            if iter > max_iter {
                return false;
            }
            let q = act.len();
            // r = (Nᵀ N)⁻¹ Nᵀ c_p over the active normals, zd = c_p - N r
            gram.clear();
            gram.resize(q * q, 0.0);
            rhs.clear();
            rhs.resize(q, 0.0);
            for a in 0..q {
                let ca = &c[row(act[a])];
                rhs[a] = dot(ca, &c[cp.clone()]);
                for b in 0..q {
                    gram[a * q + b] = dot(ca, &c[row(act[b])]);
                }
            }
            r.clear();
            r.extend_from_slice(rhs);
            cholesky_solve(gram, q, r);
            zd.copy_from_slice(&c[cp.clone()]);
            for a in 0..q {
                let ca = row(act[a]);
                for i in 0..k {
                    zd[i] -= r[a] * c[ca.start + i];
                }
            }
            // the dual step that drops an active constraint, and the full step
            let mut t1 = f64::INFINITY;
            let mut drop = usize::MAX;
            for a in 0..q {
                if r[a] > 1e-14 {
                    let v = u[a] / r[a];
                    if v < t1 {
                        t1 = v;
                        drop = a;
                    }
                }
            }
            let cpn = dot(&c[cp.clone()], &c[cp.clone()]);
            let zn = dot(zd, &c[cp.clone()]);
            let sp = dot(&c[cp.clone()], z) - d[p];
            let t2 = if zn > 1e-14 * cpn { -sp / zn } else { f64::INFINITY };
            if t1.is_infinite() && t2.is_infinite() {
                return false;
            }
            let t = t1.min(t2);
            if t2.is_finite() {
                for i in 0..k {
                    z[i] += t * zd[i];
                }
            }
            for a in 0..q {
                u[a] -= t * r[a];
            }
            up += t;
            if t2 <= t1 {
                act.push(p);
                u.push(up);
                break;
            }
            act.remove(drop);
            u.remove(drop);
        }
    }
}

/// Solve `G x = b` in place (`b` becomes `x`) for a symmetric positive
/// definite `q x q` matrix `G` (row-major, overwritten by its factor).
fn cholesky_solve(g: &mut [f64], q: usize, b: &mut [f64]) {
    for j in 0..q {
        let mut s = g[j * q + j];
        for l in 0..j {
            s -= g[j * q + l] * g[j * q + l];
        }
        let djj = s.max(f64::MIN_POSITIVE).sqrt();
        g[j * q + j] = djj;
        for i in j + 1..q {
            let mut s = g[i * q + j];
            for l in 0..j {
                s -= g[i * q + l] * g[j * q + l];
            }
            g[i * q + j] = s / djj;
        }
    }
    for i in 0..q {
        let mut s = b[i];
        for l in 0..i {
            s -= g[i * q + l] * b[l];
        }
        b[i] = s / g[i * q + i];
    }
    for i in (0..q).rev() {
        let mut s = b[i];
        for l in i + 1..q {
            s -= g[l * q + i] * b[l];
        }
        b[i] = s / g[i * q + i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contact(cap: f64) -> RowRange {
        RowRange { lo: -cap, hi: cap, stop: 0.0 }
    }

    /// A body held by the ground (capacity 1.0) and a driver (0.3), pushed
    /// by 0.8 N: one loop, λ0 = (0.4, -0.4) for rows (m, ground) and (m, d)
    /// oriented so that both carry the push; the least-norm feasible split
    /// by hand: the weak row at its capacity 0.3, the other 0.5.
    #[test]
    fn ground_and_driver_loop_splits_within_capacities() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        // rows: λ_a - λ_b = 0.8 balances the body: λ0 = (0.4, -0.4), null (1, 1)/√2
        let null = DMatrix::from_row_slice(2, 1, &[s, s]);
        let mut w = LoopWork::default();
        let mut out = [0.0; 2];
        let r = split_loop(&[0.4, -0.4], &null, &[contact(1.0), contact(0.3)], 2.6, &mut w, &mut out);
        assert_eq!(r.overload, 1.0);
        assert!((out[0] - 0.5).abs() < 1e-12 && (out[1] + 0.3).abs() < 1e-12, "{out:?}");
        assert!((out[0] - out[1] - 0.8).abs() < 1e-12);
    }

    /// Beyond both capacities (1.0 + 0.3 < 1.5) no split exists: the split
    /// of least overload is both at μ = 1.5 / 1.3 times their capacity.
    #[test]
    fn overloaded_loop_takes_the_least_overload() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let null = DMatrix::from_row_slice(2, 1, &[s, s]);
        let mut w = LoopWork::default();
        let mut out = [0.0; 2];
        let r = split_loop(&[0.75, -0.75], &null, &[contact(1.0), contact(0.3)], 2.6, &mut w, &mut out);
        let mu = 1.5 / 1.3;
        // to the feasibility tolerance 1e-12 F_ref of the constraints
        assert!((r.overload - mu).abs() < 1e-11, "{}", r.overload);
        assert!((out[0] - mu).abs() < 1e-9 && (out[1] + 0.3 * mu).abs() < 1e-9, "{out:?}");
    }

    /// Two loops (k = 2) against a brute-force search over a fine grid of z.
    #[test]
    fn two_loops_match_a_grid_search() {
        // three rows, one balance: λ1 + λ2 + λ3 = 3 -> λ0 = (1, 1, 1)
        let null = {
            let a = nalgebra::DVector::from_vec(vec![1.0, 1.0, 1.0]).normalize();
            let mut m = DMatrix::from_column_slice(3, 3, &[a[0], a[1], a[2], 1.0, -1.0, 0.0, 1.0, 1.0, -2.0]);
            m = m.qr().q();
            m.columns(1, 2).into_owned()
        };
        let ranges = [contact(0.5), contact(1.2), contact(2.0)];
        let mut w = LoopWork::default();
        let mut out = [0.0; 3];
        let r = split_loop(&[1.0, 1.0, 1.0], &null, &ranges, 10.0, &mut w, &mut out);
        assert_eq!(r.overload, 1.0);
        // brute force: λ = λ0 + N z on a grid, the feasible one of least norm
        let mut best = (f64::INFINITY, [0.0; 3]);
        let n = 800;
        for a in 0..=n {
            for b in 0..=n {
                let z = [-3.0 + 6.0 * a as f64 / n as f64, -3.0 + 6.0 * b as f64 / n as f64];
                let l: Vec<f64> = (0..3).map(|j| 1.0 + null[(j, 0)] * z[0] + null[(j, 1)] * z[1]).collect();
                if l.iter().zip(&ranges).all(|(l, r)| *l >= r.lo - 1e-12 && *l <= r.hi + 1e-12) {
                    let nn: f64 = l.iter().map(|x| x * x).sum();
                    if nn < best.0 {
                        best = (nn, [l[0], l[1], l[2]]);
                    }
                }
            }
        }
        // by hand: the weakest at its capacity, the others share the rest equally
        assert!((out[0] - 0.5).abs() < 1e-12 && (out[1] - 1.2).abs() < 1e-12 && (out[2] - 1.3).abs() < 1e-12);
        for j in 0..3 {
            assert!((out[j] - best.1[j]).abs() < 2e-2, "{out:?} vs {:?}", best.1);
        }
    }
}
