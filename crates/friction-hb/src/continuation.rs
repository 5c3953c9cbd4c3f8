//! Pseudo-arclength continuation (Keller 1977) with a Newton corrector and
//! step control, for any `n` equations in `n + 1` unknowns; and Newton's
//! method on `n` equations with the last unknown held fixed.
//!
//! ```text
//! R(y) = 0, y ∈ R^{n+1} = (u, λ);   tangent t: J(y) t = 0, |t| = 1, t·t_prev > 0
//!   (at an accepted point J is the corrector's last factorised Jacobian, at its last iterate
//!    but one: a Newton step of the tolerance away, and no Jacobian of its own)
//! step       Δs ≤ Δs_max,  Δs |t_λ| ≤ Δλ_max,  Δs |t_u| ≤ ρ |u|      (caps, the last two optional)
//! predictor  y_p = y + Δs t
//! corrector  R(y) = 0,  t·(y - y_p) = 0        (Newton on the bordered system)
//! accepted   |y - y_p| ≤ Δs/2,  |Δu| ≤ 2ρ max(|u|, |u_new|),  y admissible ([`Equations::admissible`])
//! step       Δs ← 1.5 Δs after ≤ 4 iterations, 0.7 Δs after > 10; halved on failure or refusal
//! ```
//! Following the arclength (not the last unknown) carries the branch
//! through turning points, where the frequency response folds back.
//!
//! A corrector that converges is not enough to accept a point: Newton on
//! the bordered system can land on another stretch of the branch, or on
//! another branch, far from the predictor. A step across a sharp resonance
//! once landed on its mirror image at a negative frequency; a step in
//! frequency over a narrow resonance lands on its far side, the peak never
//! traced. A point is accepted only if it lies within half a step of the
//! predictor, the unknowns `u` changed by less than `2ρ` relatively (the
//! fundamental's phase turns by π across a resonance: a step over it
//! changes `u` by about 2 |u|) and the point is admissible (for the
//! frequency response: a positive frequency); otherwise the step is halved
//! and tried again. The caps `Δλ_max` and `ρ` set the resolution of the
//! branch in the parameter and, scale-free, in the unknowns.

use nalgebra::DMatrix;

use super::dense_lu::DenseLu;

use friction_analysis::AnalysisError;

/// A system of `n` equations in `n + 1` unknowns.
pub trait Equations {
    /// Number of equations `n`.
    fn n(&self) -> usize;
    /// The residual `r` (length n) at `y` (length n + 1).
    fn eval(&mut self, y: &[f64], r: &mut [f64]);
    /// The Jacobian `j` (n × (n + 1)) at `y`.
    fn jac(&mut self, y: &[f64], j: &mut DMatrix<f64>);
    /// Whether `y` lies in the domain of the equations (e.g. a positive
    /// frequency); a corrected point outside it is refused and the step
    /// halved. Every point is admissible unless overridden.
    fn admissible(&self, y: &[f64]) -> bool {
        let _ = y;
        true
    }
    /// Whether [`newton_fixed`]'s line search keeps a step by the squared
    /// residual norm (Armijo) rather than by the largest residual: with
    /// gaps, whose opening for part of the period gives Newton directions
    /// that lower the residual as a whole but not every row (measured: the
    /// max-norm search stalled at 2e-2 on an oscillator leaving a floor,
    /// the squared norm converged; on a Jenkins or LuGre joint the max norm
    /// converges where the squared norm stalled). False unless overridden.
    fn squared_norm_search(&self) -> bool {
        false
    }
}

/// Largest distance of an accepted point from its predictor, in steps.
const MAX_CORRECTION: f64 = 0.5;

/// Settings of the corrector and the step control.
#[derive(Debug, Clone, Copy)]
pub struct ContinuationOptions {
    /// First arclength step.
    pub ds: f64,
    /// Smallest step before giving up.
    pub ds_min: f64,
    /// Largest step.
    pub ds_max: f64,
    /// Residual norm (max) below which a point has converged.
    pub tol: f64,
    /// Newton iterations per corrector before the step is halved.
    pub max_newton: usize,
    /// Most points on the branch.
    pub max_points: usize,
    /// Largest change of the last unknown (the parameter) per step; `None`: no cap.
    pub max_parameter_step: Option<f64>,
    /// Largest relative change `ρ` of the other unknowns per step (predicted
    /// `ρ`, accepted up to `2ρ`); `None`: no cap.
    pub max_relative_change: Option<f64>,
}

impl Default for ContinuationOptions {
    fn default() -> Self {
        ContinuationOptions {
            ds: 1e-2,
            ds_min: 1e-9,
            ds_max: 0.1,
            tol: 1e-9,
            max_newton: 20,
            max_points: 5000,
            max_parameter_step: None,
            max_relative_change: None,
        }
    }
}

fn max_abs(r: &[f64]) -> f64 {
    r.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// Newton's method on the first `n` unknowns of `y` (the last held fixed),
/// with a backtracking line search: a step is kept when it lowers the
/// largest residual, or with [`Equations::squared_norm_search`] when it
/// lowers `|r|²` by `1e-4 λ` of itself (Armijo). Returns the iterations
/// taken.
pub fn newton_fixed<E: Equations>(
    eq: &mut E,
    y: &mut [f64],
    tol: f64,
    max_iter: usize,
) -> Result<usize, AnalysisError> {
    let n = eq.n();
    let mut r = vec![0.0; n];
    let mut j = DMatrix::zeros(n, n + 1);
    let mut trial = y.to_vec();
    let mut rt = vec![0.0; n];
    let mut dx = vec![0.0; n];
    let mut lu = DenseLu::new(n);
    eq.eval(y, &mut r);
    let mut norm = max_abs(&r);
    let mut n2 = norm2(&r);
    let squared = eq.squared_norm_search();
    for it in 0..max_iter {
        if norm <= tol {
            return Ok(it);
        }
        eq.jac(y, &mut j);
        dx.copy_from_slice(&r);
        if !(lu.factor(&j) && lu.solve(&mut dx)) {
            return Err(AnalysisError::Model(
                "harmonic balance: singular Jacobian in Newton's method".into(),
            ));
        }
        let mut lambda = 1.0;
        loop {
            trial.copy_from_slice(y);
            for i in 0..n {
                trial[i] -= lambda * dx[i];
            }
            eq.eval(&trial, &mut rt);
            let nt = max_abs(&rt);
            let nt2 = norm2(&rt);
            let lower = if squared { nt2 < (1.0 - 1e-4 * lambda) * n2 } else { nt < norm };
            if lower || lambda < 1e-4 {
                y.copy_from_slice(&trial);
                r.copy_from_slice(&rt);
                norm = nt;
                n2 = nt2;
                break;
            }
            lambda *= 0.5;
        }
    }
    if norm <= tol {
        Ok(max_iter)
    } else {
        Err(AnalysisError::Model(format!(
            "harmonic balance: Newton's method did not converge in {max_iter} iterations (residual {norm:.3e}, \
             tolerance {tol:.1e})"
        )))
    }
}

fn norm2(a: &[f64]) -> f64 {
    a.iter().map(|v| v * v).sum::<f64>()
}

fn norm(a: &[f64]) -> f64 {
    a.iter().map(|v| v * v).sum::<f64>().sqrt()
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt()
}

/// The largest step from `y` along the unit tangent `t` under the caps of `opts`.
fn step_cap(y: &[f64], t: &[f64], opts: &ContinuationOptions) -> f64 {
    let n = y.len() - 1;
    let mut cap = opts.ds_max;
    if let Some(dl) = opts.max_parameter_step {
        if t[n] != 0.0 {
            cap = cap.min(dl / t[n].abs());
        }
    }
    if let Some(rho) = opts.max_relative_change {
        let tu = norm(&t[..n]);
        if tu > 0.0 {
            cap = cap.min(rho * norm(&y[..n]) / tu);
        }
    }
    cap
}

/// The bordered system of pseudo-arclength continuation, `[J; tᵀ]`, and
/// its factors, in work arrays allocated once per branch.
struct Bordered {
    j: DMatrix<f64>,
    a: DMatrix<f64>,
    lu: DenseLu,
}

impl Bordered {
    fn new(n: usize) -> Self {
        Bordered { j: DMatrix::zeros(n, n + 1), a: DMatrix::zeros(n + 1, n + 1), lu: DenseLu::new(n + 1) }
    }

    /// Evaluate the Jacobian at `y` and factorise `[J(y); tᵀ]`; false when singular.
    fn factor<E: Equations>(&mut self, eq: &mut E, y: &[f64], t: &[f64]) -> bool {
        let n = self.j.nrows();
        eq.jac(y, &mut self.j);
        self.a.view_mut((0, 0), (n, n + 1)).copy_from(&self.j);
        for (i, ti) in t.iter().enumerate() {
            self.a[(n, i)] = *ti;
        }
        self.lu.factor(&self.a)
    }

    /// The unit tangent at `y`, oriented along `prev`.
    fn tangent<E: Equations>(&mut self, eq: &mut E, y: &[f64], prev: &[f64]) -> Option<Vec<f64>> {
        if !self.factor(eq, y, prev) {
            return None;
        }
        self.last_tangent(prev)
    }

    /// The unit tangent from the factors last made (the kernel of their
    /// Jacobian rows), oriented along `prev`.
    fn last_tangent(&mut self, prev: &[f64]) -> Option<Vec<f64>> {
        let n = self.j.nrows();
        let mut t = vec![0.0; n + 1];
        t[n] = 1.0;
        if !self.lu.solve(&mut t) {
            return None;
        }
        let norm = norm(&t);
        t.iter_mut().for_each(|v| *v /= norm);
        if t.iter().zip(prev).map(|(a, b)| a * b).sum::<f64>() < 0.0 {
            t.iter_mut().for_each(|v| *v = -*v);
        }
        Some(t)
    }
}

/// Trace the branch from the converged point `y0`, first along
/// `direction` (a vector in R^{n+1}, e.g. `+e_n` for an increasing last
/// unknown), calling `visit` on every converged point (`y0` first) until
/// it returns `false` or `max_points` is reached.
pub fn trace<E: Equations>(
    eq: &mut E,
    y0: &[f64],
    direction: &[f64],
    opts: &ContinuationOptions,
    mut visit: impl FnMut(&[f64]) -> bool,
) -> Result<usize, AnalysisError> {
    let n = eq.n();
    let mut y = y0.to_vec();
    let mut bo = Bordered::new(n);
    let mut r = vec![0.0; n];
    let mut d = vec![0.0; n + 1];
    let mut ds = opts.ds;
    let mut count = 1;
    if !visit(&y) {
        return Ok(count);
    }
    let mut t = bo.tangent(eq, &y, direction).ok_or_else(|| {
        AnalysisError::Model("continuation: singular bordered Jacobian at the start".into())
    })?;
    while count < opts.max_points {
        ds = ds.min(step_cap(&y, &t, opts));
        let yp: Vec<f64> = y.iter().zip(&t).map(|(a, b)| a + ds * b).collect();
        let mut yc = yp.clone();
        let mut ok = None;
        for it in 0..opts.max_newton {
            eq.eval(&yc, &mut r);
            let norm = max_abs(&r);
            if norm <= opts.tol && it > 0 {
                ok = Some(it);
                break;
            }
            d[..n].copy_from_slice(&r);
            d[n] = t.iter().zip(yc.iter().zip(&yp)).map(|(ti, (a, b))| ti * (a - b)).sum();
            if !(bo.factor(eq, &yc, &t) && bo.lu.solve(&mut d)) {
                break;
            }
            for i in 0..=n {
                yc[i] -= d[i];
            }
            if !yc.iter().all(|v| v.is_finite()) {
                break;
            }
        }
        // a converged corrector is accepted only near its predictor, on a
        // branch that turned little, inside the equations' domain
        let accepted = ok.and_then(|it| {
            let off = dist(&yc, &yp);
            if off > MAX_CORRECTION * ds || !eq.admissible(&yc) {
                return None;
            }
            if let Some(rho) = opts.max_relative_change {
                let (du, u0, u1) = (dist(&yc[..n], &y[..n]), norm(&y[..n]), norm(&yc[..n]));
                if du > 2.0 * rho * u0.max(u1) {
                    return None;
                }
            }
            // the tangent from the corrector's last factors, the Jacobian
            // at its last iterate but one, which differs from `yc` by the
            // last (converged) Newton step: on the 10-body chain a tangent
            // of its own was a third of the Jacobians of a point
            Some((it, bo.last_tangent(&t).unwrap_or_else(|| t.clone())))
        });
        match accepted {
            Some((it, tn)) => {
                y = yc;
                count += 1;
                if !visit(&y) {
                    return Ok(count);
                }
                t = tn;
                if it <= 4 {
                    ds *= 1.5;
                } else if it > 10 {
                    ds *= 0.7;
                }
            }
            None => {
                ds *= 0.5;
                if ds < opts.ds_min {
                    return Err(AnalysisError::Model(format!(
                        "continuation: the corrector failed (or left the branch) with the step down to {ds:.2e} after \
                         {count} points"
                    )));
                }
            }
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unit circle x² + y² = 1 traced from (1, 0) upwards passes both
    /// turning points in x (at y = ±1) and comes back round: every point on
    /// the circle, and the arclength covered is 2π within a step.
    struct Circle;
    impl Equations for Circle {
        fn n(&self) -> usize {
            1
        }
        fn eval(&mut self, y: &[f64], r: &mut [f64]) {
            r[0] = y[0] * y[0] + y[1] * y[1] - 1.0;
        }
        fn jac(&mut self, y: &[f64], j: &mut DMatrix<f64>) {
            j[(0, 0)] = 2.0 * y[0];
            j[(0, 1)] = 2.0 * y[1];
        }
    }

    #[test]
    fn continuation_follows_a_circle_through_its_turning_points() {
        let opts = ContinuationOptions { ds: 0.05, ds_max: 0.05, ..Default::default() };
        let mut angle = 0.0;
        let mut last: [f64; 2] = [1.0, 0.0];
        trace(&mut Circle, &[1.0, 0.0], &[0.0, 1.0], &opts, |y| {
            assert!((y[0].hypot(y[1]) - 1.0).abs() < 1e-9, "{y:?}");
            let d = (y[1].atan2(y[0]) - last[1].atan2(last[0])).rem_euclid(2.0 * std::f64::consts::PI);
            angle += d;
            last = [y[0], y[1]];
            angle < 2.0 * std::f64::consts::PI - 0.1
        })
        .unwrap();
        assert!(angle > 2.0 * std::f64::consts::PI - 0.15, "{angle}");
    }
}
