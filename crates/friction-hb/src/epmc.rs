//! The equations of the extended periodic motion at a prescribed amplitude
//! (`super::nnm`, Krack 2015 eq. 5 to 9) in the unknowns Newton's method
//! solves, and the steps of a backbone from one amplitude to the next:
//! halved where Newton's method fails, predicted by a secant with a
//! `coulomb` contact, and polished after convergence.

use nalgebra::DMatrix;

use super::continuation::{newton_fixed, Equations};
use super::dense_lu::DenseLu;
use super::problem::Problem;
use friction_analysis::AnalysisError;

/// The smallest step [`advance`] takes between two amplitudes, as a fraction of the whole (in the logarithm).
const MAX_SPLIT: f64 = 128.0;

/// The equations of the periodic motion in `y`: the coefficients over `A`
/// with the fundamental's cosine and sine of body `b` replaced by `ω/ω0`
/// and `ξ/ω0`, and last the amplitude over `A`.
pub(super) struct Epmc<'a> {
    /// The balance (its `xi` set from `y` at every evaluation).
    pub(super) p: &'a mut Problem,
    /// The prescribed body (of the balance's DOFs).
    pub(super) b: usize,
    /// The prescribed amplitude A \[m\].
    pub(super) a: f64,
    /// The stuck linear mode's angular frequency, the scale of ω and ξ.
    pub(super) w0: f64,
    /// The residual's scale (the largest diagonal stiffness times A).
    pub(super) rs: f64,
    /// The coefficients of the last [`Epmc::unscale`] \[m\].
    pub(super) x: Vec<f64>,
    /// Work: the balance's Jacobian.
    pub(super) full: DMatrix<f64>,
    /// Work: the column `∂r/∂ξ`.
    pub(super) col: Vec<f64>,
}

impl Epmc<'_> {
    /// Unscale `y` into `self.x`, set the damping `C - ξ M`; returns ω and ξ.
    pub(super) fn unscale(&mut self, y: &[f64]) -> (f64, f64) {
        let l = self.p.grid.len();
        let n = self.x.len();
        for i in 0..n {
            self.x[i] = y[i] * self.a;
        }
        let (w, xi) = (y[self.b * l + 1] * self.w0, y[self.b * l + 2] * self.w0);
        self.x[self.b * l + 1] = y[n] * self.a;
        self.x[self.b * l + 2] = 0.0;
        self.p.xi = xi;
        (w, xi)
    }
}

impl Epmc<'_> {
    /// `y` at amplitude `a` as absolute coefficients (ω/ω0 and ξ/ω0 in
    /// their places as they are, the amplitude last).
    fn absolute(&self, y: &[f64], a: f64) -> Vec<f64> {
        y.iter().enumerate().map(|(i, v)| if self.scaled(i) { v * a } else { *v }).collect()
    }

    /// The inverse of [`Epmc::absolute`] at amplitude `a`, into `y`.
    fn relative(&self, z: &[f64], a: f64, y: &mut [f64]) {
        for (i, (y, v)) in y.iter_mut().zip(z).enumerate() {
            *y = if self.scaled(i) { v / a } else { *v };
        }
    }

    /// Whether unknown `i` of `y` is a coefficient over the amplitude (not
    /// the prescribed body's ω/ω0 or ξ/ω0, nor the amplitude itself, last).
    fn scaled(&self, i: usize) -> bool {
        let c = self.p.grid.len() * self.b;
        i != c + 1 && i != c + 2 && i != self.x.len()
    }
}

impl Equations for Epmc<'_> {
    fn n(&self) -> usize {
        self.x.len()
    }
    fn eval(&mut self, y: &[f64], r: &mut [f64]) {
        let (w, _) = self.unscale(y);
        self.p.residual(&self.x, w, r);
        r.iter_mut().for_each(|v| *v /= self.rs);
    }
    fn jac(&mut self, y: &[f64], j: &mut DMatrix<f64>) {
        let (w, _) = self.unscale(y);
        self.p.jacobian(&self.x, w, &mut self.full);
        let (n, l, b) = (self.x.len(), self.p.grid.len(), self.b);
        let (ca, cb) = (b * l + 1, b * l + 2);
        for r in 0..n {
            for c in 0..n {
                j[(r, c)] = self.full[(r, c)] * self.a / self.rs;
            }
            // ∂/∂A through the prescribed cosine, ∂/∂ω
            j[(r, n)] = self.full[(r, ca)] * self.a / self.rs;
            j[(r, ca)] = self.full[(r, n)] * self.w0 / self.rs;
        }
        // ∂/∂ξ
        self.col.fill(0.0);
        self.p.add_xi_column(&self.x, w, &mut self.col);
        for r in 0..n {
            j[(r, cb)] = self.col[r] * self.w0 / self.rs;
        }
    }
    fn squared_norm_search(&self) -> bool {
        !self.p.s.gaps.is_empty() || self.p.has_dlft()
    }
}

/// Move the converged `y` at amplitude `from` to amplitude `to` and solve
/// it there by Newton's method: in one step where it converges, else in
/// steps halved (in the logarithm of the amplitude) after each failure and
/// doubled after each success, down to [`MAX_SPLIT`] of the whole. With a
/// `coulomb` contact each step starts from a secant through the last two
/// solutions (`last`, updated here), not from the last one scaled: its
/// force turns at every stick and slip, and Newton's method on the dynamic
/// Lagrangian balance has a short reach. Measured on
/// `tests/hb_nnm_coulomb.rs`'s slider at H = 31: from the last solution
/// scaled, the step from 1.9e-5 to 3.2e-5 m failed even in eighths; with
/// the secant every amplitude converged in one step.
pub(super) fn advance(
    eq: &mut Epmc,
    y: &mut [f64],
    last: &mut Option<(f64, Vec<f64>)>,
    from: f64,
    to: f64,
    kmax: f64,
) -> Result<(), AnalysisError> {
    let total = (to / from).ln();
    let mut step = total;
    let mut at = from;
    let mut saved = y.to_vec();
    let mut first = None;
    let secant = eq.p.has_dlft();
    // at least one solve: the first amplitude is solved from the stuck mode (`from == to`)
    loop {
        let next = if (to / at).ln().abs() <= step.abs() * (1.0 + 1e-12) { to } else { at * step.exp() };
        saved.copy_from_slice(y);
        let here = eq.absolute(y, at);
        match last.as_ref().filter(|_| secant) {
            Some((a0, z0)) if *a0 != at => {
                let t = (next / at).ln() / (at / a0).ln();
                let z: Vec<f64> = here.iter().zip(z0).map(|(h, p)| h + t * (h - p)).collect();
                eq.relative(&z, next, y);
                scale_to(eq, y, next, next, kmax);
            }
            _ => scale_to(eq, y, at, next, kmax),
        }
        match newton_fixed(eq, y, 1e-10, 60) {
            Ok(_) => {
                *last = Some((at, here));
                at = next;
                if at == to {
                    return Ok(());
                }
                step = (2.0 * step).clamp(-total.abs(), total.abs());
            }
            Err(e) => {
                first.get_or_insert(e);
                y.copy_from_slice(&saved);
                eq.a = at;
                step *= 0.5;
                if total == 0.0 || step.abs() < total.abs() / MAX_SPLIT {
                    return Err(
                        first.unwrap_or_else(|| AnalysisError::Model("harmonic balance: no step".into()))
                    );
                }
            }
        }
    }
}

/// Rescale `y` from amplitude `from` to `to` (the shape scales with the
/// amplitude; ω and ξ carry over) and set the equations' scales for `to`.
fn scale_to(eq: &mut Epmc, y: &mut [f64], from: f64, to: f64, kmax: f64) {
    let (nn, l, b) = (eq.x.len(), eq.p.grid.len(), eq.b);
    let ratio = from / to;
    for (i, v) in y[..nn].iter_mut().enumerate() {
        if i != b * l + 1 && i != b * l + 2 {
            *v *= ratio;
        }
    }
    eq.a = to;
    eq.rs = kmax * to;
    eq.p.xscale = 1e-3 * to;
}

/// Up to `steps` more Newton steps from a converged `y`, each kept only
/// where it lowers the residual: the tolerance of Newton's method is
/// relative to the structure's largest diagonal stiffness, which on a
/// finite-element model is far above the mode's, and left ζ with a
/// relative error of a few 1e-6 on a 149-DOF bar (one more step, from
/// the quadratic convergence, takes it to about 1e-9).
pub(super) fn polish(eq: &mut Epmc, y: &mut [f64], steps: usize) {
    let n = eq.n();
    let (mut r, mut rt, mut dx) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut j = DMatrix::zeros(n, n + 1);
    let mut lu = DenseLu::new(n);
    let max_abs = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    eq.eval(y, &mut r);
    let mut norm = max_abs(&r);
    let mut trial = y.to_vec();
    for _ in 0..steps {
        eq.jac(y, &mut j);
        dx.copy_from_slice(&r);
        if !(lu.factor(&j) && lu.solve(&mut dx)) {
            return;
        }
        for i in 0..n {
            trial[i] = y[i] - dx[i];
        }
        eq.eval(&trial, &mut rt);
        let nt = max_abs(&rt);
        if nt.is_nan() || nt >= norm {
            // the last evaluation set the problem's ξ: back to y's
            eq.unscale(y);
            return;
        }
        y.copy_from_slice(&trial);
        std::mem::swap(&mut r, &mut rt);
        norm = nt;
    }
}
