//! `bdf5`: the engine's own variable-order (1 to 5), variable-step BDF
//! with CVODE's Newton strategy: `auto`'s choice for stiff networks of
//! more than three states without stick, stop or reversal events.
//!
//! The formulas are the backward differentiation formulas in the form of
//! Shampine and Reichelt (1997, "The MATLAB ODE Suite", SIAM J. Sci.
//! Comput. 18; SciPy's `BDF`): the history as backward differences `D` of
//! the solution at equal steps, rescaled when the step changes, the
//! predictor their sum, the error estimate `y_new - y_pred` times the
//! formula's error constant `1 / (q + 1)`, and the order chosen among
//! `q - 1`, `q`, `q + 1` after `q + 1` steps of one size.
//!
//! The Newton iteration is CVODE's (Hindmarsh et al. 2005, "SUNDIALS",
//! ACM TOMS 31; Byrne and Hindmarsh 1975), which is what this method is for:
//!
//! - the convergence rate `crate` is carried from step to step (reset only
//!   when the matrix is factored anew), so a step whose first correction is
//!   already small enough ends after one evaluation: the test is
//!   `del min(1, crate) ≤ 0.1 / E_q` in the error test's norm (`E_q` the error
//!   constant), i.e. the iteration's error at most a tenth of what the error
//!   test allows;
//! - the matrix `I - c J` (`c = h / γ_q`) is factored again only when `c`
//!   moved by more than 30 % since it was factored, or 20 steps later, or
//!   after a failed iteration; with an older `c` the correction is scaled by
//!   `2 / (1 + c / c_lu)` as CVODE does;
//! - the Jacobian (exact, column by column from the network's exact
//!   products) is evaluated again after 50 steps or when an iteration with
//!   an older one fails; a failure with a fresh one quarters the step;
//! - after a successful step the step grows only by at least 1.5 (else it
//!   is kept), so the factorisation lives long.
//!
//! SciPy's `BDF` and diffsol's restart the rate estimate at every change of
//! step and factor at every change of `c`; there every step costs at least
//! two evaluations (bench/compare/README.md: diffsol iterates 2.4 times per
//! attempt where CVODE iterates 1.4 times).
//!
//! The energy quadratures feed back into nothing: they are left out of the
//! factorisation (their rows of `I - c J` are the identity's) and out of
//! the iteration's convergence test, and their correction at the last
//! iteration is the exact one for the states before them; they are in the
//! error test. Events are located on the dense output (the interpolating
//! polynomial of the differences) as by the other own methods. The Newton
//! matrix is dense for a small network and a band for a larger one
//! ([`crate::engine::integrate::bdf5_matrix`]).

use crate::engine::integrate::bdf5_matrix::NewtonMatrix;
use crate::engine::integrate::dense_output::{self, last_step_in_field, DenseOutput, LastStep};
use crate::engine::integrate::root_search::RootSearch;
use crate::engine::integrate::rosenbrock::{root_in_step, RosProblem};
use crate::engine::integrate::stepper::{MethodStats, Stop};

/// The highest order.
const MAX_ORDER: usize = 5;
/// Rows of the differences: orders up to 5 need `D[q + 2]`.
const ROWS: usize = MAX_ORDER + 3;
/// CVODE's `NLS_MAXCOR`: iterations per attempt.
const NEWTON_MAXITER: usize = 3;
/// CVODE's `CRDOWN`: the rate estimate decays by at most this per iteration.
const CRDOWN: f64 = 0.3;
/// CVODE's `RDIV`: a correction this much larger than the last diverges.
const RDIV: f64 = 2.0;
/// CVODE's `NLSCOEF`: the iteration's error as a fraction of the error test's.
const NLSCOEF: f64 = 0.1;
/// CVODE's `DGMAX_LSETUP`: factor again when `c` moved by more.
const DGMAX: f64 = 0.3;
/// CVODE's `MSBP`: factor again at least this many steps later.
const MSBP: usize = 20;
/// CVODE's `MSBJ`: a new Jacobian at least this many steps later.
const MSBJ: usize = 50;
/// CVODE's `ETACF`: the step's factor after a failed iteration with a fresh
/// Jacobian.
const ETACF: f64 = 0.25;
/// CVODE's `MXNCF`: failed iterations in one step before giving up.
const MXNCF: usize = 10;
/// CVODE's `THRESH`: after a successful step the step grows by at least this, or stays.
const THRESH: f64 = 1.5;
/// Step factors after a rejected and an accepted step: SciPy's.
const MIN_FACTOR: f64 = 0.2;
const MAX_FACTOR: f64 = 10.0;
/// The smallest step (s), as diffsol's default `min_timestep`.
const H_MIN: f64 = 1e-13;
/// "Just after" a restart time, relative, as in Radau5.
const T_AFTER: f64 = 1e-13;

/// `γ_k = Σ_{j ≤ k} 1/j`, the formula of order `k`'s leading coefficient.
fn gamma() -> [f64; MAX_ORDER + 2] {
    let mut g = [0.0; MAX_ORDER + 2];
    for k in 1..g.len() {
        g[k] = g[k - 1] + 1.0 / k as f64;
    }
    g
}

/// Klopfenstein and Shampine's `κ_k` of the numerical differentiation
/// formulas (Shampine and Reichelt 1997, table 1; SciPy's and diffsol's
/// BDF use them): order 5 is the BDF itself.
const KAPPA: [f64; MAX_ORDER + 2] = [0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0, 0.0];

/// The error constant of the formula of order `k`: `κ_k γ_k + 1 / (k + 1)`.
fn error_const(k: usize) -> f64 {
    KAPPA[k] * gamma()[k] + 1.0 / (k as f64 + 1.0)
}

/// Shampine and Reichelt's `R(q, factor)`: the differences of a step
/// `factor` times longer, `R[i][j] = Π_{k=1..i} (k - 1 - factor j) / k`.
fn r_matrix(q: usize, factor: f64) -> [[f64; MAX_ORDER + 1]; MAX_ORDER + 1] {
    let mut r = [[0.0; MAX_ORDER + 1]; MAX_ORDER + 1];
    r[0][..=q].fill(1.0);
    for i in 1..=q {
        for j in 1..=q {
            r[i][j] = r[i - 1][j] * (i as f64 - 1.0 - factor * j as f64) / i as f64;
        }
    }
    r
}

/// The method's state between steps. Every vector is allocated once.
pub(crate) struct Bdf5<'x, P: RosProblem> {
    p: &'x P,
    n: usize,
    /// the states the equations read (the Jacobian's columns, the LU's size)
    m: usize,
    rtol: f64,
    atol: Vec<f64>,
    h_max: f64,
    gamma: [f64; MAX_ORDER + 2],
    /// the last accepted step, the state at its end (the current time),
    /// the stop time, the event roots' search
    last: LastStep,
    /// the order and the step the differences are of
    order: usize,
    h: f64,
    /// the backward differences, `d[k * n + i]`, `ROWS` rows
    d: Vec<f64>,
    /// accepted steps since the step or the order last changed
    n_equal: usize,
    /// the last accepted step's dense output: its differences (rows
    /// `0..=dense_order`) and order
    dense: Vec<f64>,
    dense_order: usize,
    ypred: Vec<f64>,
    psi: Vec<f64>,
    corr: Vec<f64>,
    ynew: Vec<f64>,
    f: Vec<f64>,
    res: Vec<f64>,
    /// the reciprocal weights of the norms, `1 / (atol + rtol |y|)`
    iscale: Vec<f64>,
    tmp: Vec<f64>,
    u: Vec<f64>,
    du: Vec<f64>,
    /// `I - c J` of the read states: `J`, its factors
    mat: NewtonMatrix,
    /// steps since the Jacobian was evaluated (`usize::MAX`: none), and
    /// whether it was evaluated during the current step
    jac_age: usize,
    jac_new: bool,
    /// the `c` of the factors (NaN: none), and steps since
    c_lu: f64,
    lu_age: usize,
    /// CVODE's convergence rate estimate
    crate_: f64,
    stats: MethodStats,
}

impl<'x, P: RosProblem> Bdf5<'x, P> {
    /// Start at `t0` from `y0` with a first step `h0`, steps of at most
    /// `h_max`, relative tolerance `rtol` and absolute tolerances `atol`
    /// (one per state); `pattern`: the Jacobian's entries for a sparse
    /// Newton matrix ([`NewtonMatrix::new`]), `None` for a dense one.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        p: &'x P,
        t0: f64,
        y0: &[f64],
        h0: f64,
        h_max: f64,
        rtol: f64,
        atol: Vec<f64>,
        pattern: Option<Vec<(usize, usize)>>,
    ) -> Self {
        let n = y0.len();
        let m = p.read(n);
        let v = || vec![0.0; n];
        let mut b = Bdf5 {
            p,
            n,
            m,
            rtol,
            atol,
            h_max,
            gamma: gamma(),
            last: LastStep::new(t0, y0, RootSearch::new(p.nroots(), m)),
            order: 1,
            h: h0.min(h_max),
            d: vec![0.0; ROWS * n],
            n_equal: 0,
            dense: vec![0.0; (MAX_ORDER + 1) * n],
            dense_order: 0,
            ypred: v(),
            psi: v(),
            corr: v(),
            ynew: v(),
            f: v(),
            res: v(),
            iscale: v(),
            tmp: vec![0.0; (MAX_ORDER + 1) * n],
            u: v(),
            du: v(),
            mat: NewtonMatrix::new(m, n, pattern),
            jac_age: usize::MAX,
            jac_new: false,
            c_lu: f64::NAN,
            lu_age: 0,
            crate_: 1.0,
            stats: MethodStats::default(),
        };
        b.reset(t0);
        b
    }

    /// The differences of a step `factor` times the current one (order
    /// unchanged): `D[0..=q] ← (R U)ᵀ D[0..=q]`.
    fn rescale(&mut self, factor: f64) {
        self.h *= factor;
        self.n_equal = 0;
        if factor == 1.0 {
            return;
        }
        let (n, q) = (self.n, self.order);
        let r = r_matrix(q, factor);
        let u = r_matrix(q, 1.0);
        let mut ru = [[0.0; MAX_ORDER + 1]; MAX_ORDER + 1];
        for i in 0..=q {
            for j in 0..=q {
                ru[i][j] = (0..=q).map(|k| r[i][k] * u[k][j]).sum();
            }
        }
        self.tmp[..(q + 1) * n].copy_from_slice(&self.d[..(q + 1) * n]);
        for j in 0..=q {
            let row = &mut self.d[j * n..(j + 1) * n];
            row.fill(0.0);
            for (k, ruk) in ru.iter().enumerate().take(q + 1) {
                let w = ruk[j];
                for (o, &x) in row.iter_mut().zip(&self.tmp[k * n..(k + 1) * n]) {
                    *o += w * x;
                }
            }
        }
    }

    /// The Jacobian of the read states at `(t, ypred)`.
    fn jacobian(&mut self, t: f64) {
        self.mat.jacobian(self.p, t, &self.ypred, &mut self.u, &mut self.du);
        self.jac_age = 0;
        self.jac_new = true;
        self.c_lu = f64::NAN;
    }

    /// Factor `I - c J`.
    fn factor(&mut self, c: f64) -> Result<(), ()> {
        self.stats.factorisations += 1;
        self.c_lu = f64::NAN;
        self.mat.factor(c)?;
        self.c_lu = c;
        self.lu_age = 0;
        self.crate_ = 1.0;
        Ok(())
    }

    /// Weighted RMS of `v` over the first `k` states.
    fn norm(&self, v: &[f64], k: usize) -> f64 {
        let s: f64 = v[..k].iter().zip(&self.iscale[..k]).map(|(a, w)| (a * w) * (a * w)).sum();
        (s / k.max(1) as f64).sqrt()
    }

    /// CVODE's modified Newton iteration for `y = ypred + corr` at `t_new`
    /// with `c = h / γ_q`: `Ok(iterations)` when converged, `Err(())` when
    /// not (diverging, too slow, or a non-finite evaluation).
    fn newton(&mut self, t_new: f64, c: f64) -> Result<usize, ()> {
        let m = self.m;
        let q = self.order;
        self.ynew.copy_from_slice(&self.ypred);
        self.corr.fill(0.0);
        let scale_c = if self.c_lu == c { 1.0 } else { 2.0 / (1.0 + c / self.c_lu) };
        let test = NLSCOEF / error_const(q);
        let mut delp = 0.0;
        for k in 0..NEWTON_MAXITER {
            self.p.rhs(t_new, &self.ynew, &mut self.f);
            self.stats.newton_iterations += 1;
            for (((r, &f), &ps), &co) in self.res.iter_mut().zip(&self.f).zip(&self.psi).zip(&self.corr) {
                *r = c * f - ps - co;
            }
            if !self.res.iter().all(|x| x.is_finite()) {
                return Err(());
            }
            self.mat.solve(&mut self.res[..m])?;
            if scale_c != 1.0 {
                for x in &mut self.res[..m] {
                    *x *= scale_c;
                }
            }
            let del = self.norm(&self.res, m);
            if k > 0 {
                self.crate_ = (CRDOWN * self.crate_).max(del / delp);
            }
            for ((y, co), &r) in self.ynew.iter_mut().zip(self.corr.iter_mut()).zip(&self.res) {
                *y += r;
                *co += r;
            }
            if del * self.crate_.min(1.0) <= test {
                return Ok(k + 1);
            }
            if k > 0 && del > RDIV * delp {
                return Err(());
            }
            delp = del;
        }
        Err(())
    }

    /// After an accepted step with correction `corr`: the differences of
    /// the new point, its dense output, and the order and step of the next
    /// one (`err` the error test's norm, `safety` its factor).
    fn complete(&mut self, t_new: f64, h: f64, err: f64, safety: f64) {
        let (n, q) = (self.n, self.order);
        // D[q+2] = corr - D[q+1]; D[q+1] = corr; D[i] += D[i+1] downwards
        {
            let (low, high) = self.d.split_at_mut((q + 2) * n);
            let (d1, d2) = (&mut low[(q + 1) * n..], &mut high[..n]);
            for ((a, b), &co) in d1.iter_mut().zip(d2.iter_mut()).zip(&self.corr) {
                *b = co - *a;
                *a = co;
            }
        }
        for k in (0..=q).rev() {
            let (low, high) = self.d.split_at_mut((k + 1) * n);
            for (a, &b) in low[k * n..].iter_mut().zip(&high[..n]) {
                *a += b;
            }
        }
        self.dense[..(q + 1) * n].copy_from_slice(&self.d[..(q + 1) * n]);
        self.dense_order = q;
        self.last.t_prev = self.last.t;
        self.last.h_prev = h;
        self.last.t = t_new;
        self.last.y.copy_from_slice(&self.ynew);
        self.n_equal += 1;
        if self.n_equal < q + 1 {
            return;
        }
        // the order of the next steps: the one allowing the longest step
        let norm_of = |s: &Self, row: usize, k: usize| {
            let e = error_const(k);
            let v: f64 = s.d[row * n..(row + 1) * n]
                .iter()
                .zip(&s.iscale)
                .map(|(&d, &w)| {
                    let x = e * d * w;
                    x * x
                })
                .sum();
            (v / n as f64).sqrt()
        };
        let err_m = if q > 1 { norm_of(self, q, q - 1) } else { f64::INFINITY };
        let err_p = if q < MAX_ORDER { norm_of(self, q + 2, q + 1) } else { f64::INFINITY };
        let mut best = 1;
        let mut fbest = 0.0;
        for (j, e) in [err_m, err, err_p].into_iter().enumerate() {
            // orders q - 1, q, q + 1: their steps scale as err^(-1/(order + 1));
            // no error at all (a network at rest): as long as allowed
            let f = if e == 0.0 { f64::INFINITY } else { e.powf(-1.0 / (q + j) as f64) };
            if f > fbest {
                fbest = f;
                best = j;
            }
        }
        self.order = q + best - 1;
        let mut factor = (safety * fbest).min(MAX_FACTOR);
        if factor < THRESH {
            factor = 1.0;
        }
        factor = factor.min(self.h_max / self.h);
        self.rescale(factor);
    }
}

impl<P: RosProblem> DenseOutput for Bdf5<'_, P> {
    /// the cumulative products of `(tq - (t - j h)) / ((j + 1) h)`
    type Point = [f64; MAX_ORDER];
    type Coeffs<'a>
        = &'a Self
    where
        Self: 'a;

    last_step_in_field!();
    /// The dense output's point `tq`: the cumulative products of
    /// `(tq - (t - j h)) / ((j + 1) h)`.
    fn point(&self, tq: f64) -> [f64; MAX_ORDER] {
        let mut p = [0.0; MAX_ORDER];
        let mut acc = 1.0;
        for (j, pj) in p.iter_mut().enumerate().take(self.dense_order) {
            let jf = j as f64;
            acc *= (tq - (self.last.t - jf * self.last.h_prev)) / ((jf + 1.0) * self.last.h_prev);
            *pj = acc;
        }
        p
    }
    fn coeffs(&self, _upto: usize) -> &Self {
        self
    }
    /// The interpolating polynomial of the step's differences.
    #[inline(always)]
    fn value(b: &&Self, p: &[f64; MAX_ORDER], i: usize) -> f64 {
        let n = b.n;
        let mut v = b.dense[i];
        for (j, &pj) in p.iter().enumerate().take(b.dense_order) {
            v += b.dense[(j + 1) * n + i] * pj;
        }
        v
    }
    /// After a new state at `t`: order 1, the differences from its
    /// derivative (just after `t`: a prescribed velocity may jump at a
    /// breakpoint), its roots; no history, a Jacobian due.
    fn reset(&mut self, t: f64) {
        let n = self.n;
        self.last.restart_at(t);
        self.order = 1;
        self.n_equal = 0;
        self.h = self.h.min(self.h_max);
        let t_after = t + T_AFTER * (1.0 + t.abs());
        self.p.rhs(t_after, &self.last.y, &mut self.f);
        self.d.fill(0.0);
        self.d[..n].copy_from_slice(&self.last.y);
        for i in 0..n {
            self.d[n + i] = self.h * self.f[i];
        }
        self.p.roots(t, &self.last.y, &mut self.last.roots.g0);
        self.jac_age = usize::MAX;
        self.c_lu = f64::NAN;
        self.crate_ = 1.0;
    }
}

impl<P: RosProblem> dense_output::OwnMethod for Bdf5<'_, P> {
    // output rows two at a time (a step holds a few)
    const ROWS_AT_ONCE: usize = 2;
    const STATES_ONLY: bool = true;

    fn step(&mut self) -> Result<Stop, String> {
        let n = self.n;
        if self.h > self.h_max {
            self.rescale(self.h_max / self.h);
        }
        let mut failures = 0;
        loop {
            let room = self.last.tstop - self.last.t;
            let cut = self.h * 1.0001 >= room;
            if cut && self.h != room {
                self.rescale(room / self.h);
            }
            let h = self.h;
            if h.abs() < H_MIN || !h.is_finite() {
                return Err(format!(
                    "step size {h:.3e} s below the minimum {H_MIN:.0e} s at t = {} (bdf5)",
                    self.last.t
                ));
            }
            let t_new = if cut { self.last.tstop } else { self.last.t + h };
            let q = self.order;
            let alpha = (1.0 - KAPPA[q]) * self.gamma[q];
            // row by row (the differences are rows of n): ypred = Σ D_k,
            // psi = Σ_{k ≥ 1} γ_k D_k / α
            self.ypred.copy_from_slice(&self.d[..n]);
            self.psi.fill(0.0);
            for k in 1..=q {
                let g = self.gamma[k];
                let dk = &self.d[k * n..(k + 1) * n];
                for ((yp, ps), &x) in self.ypred.iter_mut().zip(self.psi.iter_mut()).zip(dk) {
                    *yp += x;
                    *ps += g * x;
                }
            }
            let rtol = self.rtol;
            for (((ps, w), &yp), &a) in
                self.psi.iter_mut().zip(self.iscale.iter_mut()).zip(&self.ypred).zip(&self.atol)
            {
                *ps /= alpha;
                *w = 1.0 / (a + rtol * yp.abs());
            }
            let c = h / alpha;
            if self.jac_age >= MSBJ {
                self.jacobian(t_new);
            }
            let stale =
                !(self.c_lu.is_finite() && (c / self.c_lu - 1.0).abs() <= DGMAX && self.lu_age < MSBP);
            let converged = if stale && self.factor(c).is_err() { Err(()) } else { self.newton(t_new, c) };
            let iterations = match converged {
                Ok(k) => k,
                Err(()) => {
                    self.stats.newton_failures += 1;
                    if !self.jac_new {
                        // an older Jacobian: a fresh one, the same step
                        self.jacobian(t_new);
                        continue;
                    }
                    failures += 1;
                    if failures >= MXNCF {
                        return Err(format!(
                            "the Newton iteration failed {failures} times at t = {}, h = {h:.3e} s (bdf5)",
                            self.last.t
                        ));
                    }
                    self.c_lu = f64::NAN;
                    self.rescale(ETACF);
                    continue;
                }
            };
            let rtol = self.rtol;
            for ((w, &y), &a) in self.iscale.iter_mut().zip(&self.ynew).zip(&self.atol) {
                *w = 1.0 / (a + rtol * y.abs());
            }
            let e = error_const(q);
            let mut err = 0.0;
            for (&co, &w) in self.corr.iter().zip(&self.iscale) {
                let x = e * co * w;
                err += x * x;
            }
            let err = (err / n as f64).sqrt();
            let safety = 0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + iterations) as f64;
            if err > 1.0 || err.is_nan() {
                self.stats.rejected += 1;
                let factor = if err.is_finite() {
                    (safety * err.powf(-1.0 / (q as f64 + 1.0))).max(MIN_FACTOR)
                } else {
                    MIN_FACTOR
                };
                self.rescale(factor);
                continue;
            }
            self.stats.steps += 1;
            self.jac_new = false;
            self.jac_age = self.jac_age.saturating_add(1);
            self.lu_age += 1;
            self.complete(t_new, h, err, safety);
            if let Some((tr, idx)) = root_in_step(self.p, self) {
                return Ok(Stop::Root(tr, idx));
            }
            return Ok(if cut { Stop::AtStopTime } else { Stop::Step });
        }
    }

    fn stats(&self) -> MethodStats {
        MethodStats { sparse: self.mat.is_band(), ..self.stats }
    }
}

#[cfg(test)]
#[path = "bdf5_tests.rs"]
mod tests;
