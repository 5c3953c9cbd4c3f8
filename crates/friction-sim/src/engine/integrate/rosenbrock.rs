//! Rodas5P for small stiff networks: the Rosenbrock-Wanner method of
//! Steinebach (G. Steinebach, "Construction of Rosenbrock-Wanner method
//! Rodas5P and numerical benchmarks within the Julia Differential Equations
//! package", BIT Numerical Mathematics 63:27, 2023; coefficients in
//! [`crate::engine::integrate::rosenbrock_tableau`]): eight linearly
//! implicit stages on one factorisation of `I / (h γ) - J` per step, with
//! the exact Jacobian of the network (column by column from exact
//! products, as [`crate::engine::integrate::radau`] forms it), and no
//! Newton iteration. Order 5, the embedded solution of order 4 as the
//! error estimate (the last stage), the method's own continuous extension
//! of order 4 as dense output (output rows and the events' roots, located
//! as in Radau5 by the modified secant method of SUNDIALS' CVODE), and
//! the predictive (PI) step control of Gustafsson that Hairer's `rodas.f`
//! and `radau5.f` use.
//!
//! Why: Radau5 spends about ten evaluations a step on a 3-state LuGre
//! contact (three stages times three Newton iterations); a Rosenbrock step
//! costs seven evaluations, one factorisation and a Jacobian, always.
//!
//! The time derivative `∂f/∂t` that the stages need for a driven network
//! is a forward difference in `t` (one evaluation a step): the engine has
//! no exact form of it (the drivers' and inputs' schedules are evaluated,
//! not differentiated), and the difference is taken forward because the
//! schedules may kink at their breakpoints, where the loop restarts the
//! method and the step goes on to the right. An autonomous network (no
//! driver, constant forces and normal loads) skips it.
//!
//! The energy quadratures feed back into nothing, so the factorisation is
//! of the states before them only; their rows of the Jacobian (which the
//! engine's products leave at zero) are differenced once per step, since
//! the method keeps its order only with the exact Jacobian (see
//! `Rodas5P::jacobian`). Dense linear algebra
//! ([`crate::engine::linalg::small_lu`]).

use crate::engine::integrate::dense_output::{self, last_step_in_field, DenseOutput, LastStep};
use crate::engine::integrate::root_search::RootSearch;
use crate::engine::integrate::rosenbrock_tableau::{A, C, D, GAMMA, H, NODES, S};
use crate::engine::integrate::stepper::{MethodStats, Stop};
use crate::engine::linalg::small_lu;
use crate::engine::network::Engine;
use crate::system::schedule::Schedule;

/// Step-control parameters: `rodas.f`'s defaults.
const SAFE: f64 = 0.9;
const FACL: f64 = 5.0; // h_new / h >= 1 / FACL
const FACR: f64 = 1.0 / 6.0; // h_new / h <= 1 / FACR
/// The smallest step (s), as diffsol's default `min_timestep`.
const H_MIN: f64 = 1e-13;
/// "Just after" a restart time, relative, as in Radau5.
const T_AFTER: f64 = 1e-13;

/// What Rodas5P integrates: the network, or a plain system of equations
/// (the tests' linear and chemical problems).
pub(crate) trait RosProblem {
    /// The states the equations read (the Jacobian's columns) of `n`.
    fn read(&self, n: usize) -> usize;
    /// `dy = f(t, y)`.
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]);
    /// `jv = J(t, y) v`, exact.
    fn jvp(&self, t: f64, y: &[f64], v: &[f64], jv: &mut [f64]);
    /// Whether `f` depends on `t` itself.
    fn time_dependent(&self) -> bool;
    /// The number of event root functions.
    fn nroots(&self) -> usize;
    /// The root functions at `(t, y)`.
    fn roots(&self, t: f64, y: &[f64], g: &mut [f64]);
    /// The first root in the step from `t_prev` to `t` on `dense`.
    fn first_root(
        &self,
        rs: &mut RootSearch,
        t_prev: f64,
        t: f64,
        y: &[f64],
        dense: impl Fn(f64, &mut [f64]),
    ) -> Option<(f64, usize)>;
}

impl RosProblem for Engine<'_> {
    fn read(&self, n: usize) -> usize {
        self.q_off.min(n)
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        Engine::rhs(self, t, y, dy)
    }
    fn jvp(&self, t: f64, y: &[f64], v: &[f64], jv: &mut [f64]) {
        Engine::jvp(self, t, y, v, jv)
    }
    fn time_dependent(&self) -> bool {
        let varies = |s: &Schedule| !matches!(s, Schedule::Constant { .. });
        let sys = &*self.sys;
        !sys.drivers.is_empty()
            || sys.forces.iter().any(|f| varies(&f.value))
            || sys.contacts.iter().any(|c| varies(&c.normal))
    }
    fn nroots(&self) -> usize {
        self.nroots
    }
    fn roots(&self, t: f64, y: &[f64], g: &mut [f64]) {
        Engine::roots(self, t, y, g)
    }
    fn first_root(
        &self,
        rs: &mut RootSearch,
        t_prev: f64,
        t: f64,
        y: &[f64],
        dense: impl Fn(f64, &mut [f64]),
    ) -> Option<(f64, usize)> {
        rs.check(self, t_prev, t, y, dense)
    }
}

/// The first root of the events in the last step of `d`, a method on `p`'s
/// equations, on its dense output (see [`RootSearch`]).
pub(crate) fn root_in_step<D: DenseOutput>(p: &impl RosProblem, d: &mut D) -> Option<(f64, usize)> {
    let mut rs = std::mem::take(&mut d.last_mut().roots);
    let last = d.last();
    let found = p.first_root(&mut rs, last.t_prev, last.t, &last.y, |t, out| d.dense_at(t, out));
    d.last_mut().roots = rs;
    found
}

/// The method's state between steps. Every vector is allocated once.
pub(crate) struct Rodas5P<'x, P: RosProblem> {
    p: &'x P,
    n: usize,
    /// the states the equations read (the Jacobian's columns, the LU's size)
    m: usize,
    rtol: f64,
    atol: Vec<f64>,
    h_max: f64,
    time_dependent: bool,
    /// the last accepted step, the state at its end (the current time),
    /// the stop time, the event roots' search
    last: LastStep,
    /// f at the step's start (just after it after a restart) and the time
    /// it was taken at
    fx: Vec<f64>,
    t_fx: f64,
    /// ∂f/∂t at the step's start (forward difference)
    ft: Vec<f64>,
    /// the last accepted step's initial state
    y_prev: Vec<f64>,
    /// the step proposed for the next attempt
    h: f64,
    /// the stages, `k[s * n + i]`
    k: Vec<f64>,
    /// the dense output's three coefficients, `dense[r * n + i]`
    dense: Vec<f64>,
    ynew: Vec<f64>,
    u: Vec<f64>,
    du: Vec<f64>,
    /// the Jacobian's columns of the read states, all rows: `jac[i * m + j]`
    jac: Vec<f64>,
    /// the factored `I / (h γ) - J` of the read states
    lu: Vec<f64>,
    piv: Vec<usize>,
    /// the Jacobian and ∂f/∂t are those at (t, y)
    jac_fresh: bool,
    /// the step size of the factorisation (NaN: none)
    h_lu: f64,
    reject: bool,
    h_acc: f64,
    err_acc: f64,
    stats: MethodStats,
}

impl<'x, P: RosProblem> Rodas5P<'x, P> {
    /// Start at `t0` from `y0` with a first step `h0`, steps of at most
    /// `h_max`, relative tolerance `rtol` and absolute tolerances `atol`
    /// (one per state).
    pub(crate) fn new(p: &'x P, t0: f64, y0: &[f64], h0: f64, h_max: f64, rtol: f64, atol: Vec<f64>) -> Self {
        let n = y0.len();
        let m = p.read(n);
        let v = || vec![0.0; n];
        let mut r = Rodas5P {
            p,
            n,
            m,
            rtol,
            atol,
            h_max,
            time_dependent: p.time_dependent(),
            last: LastStep::new(t0, y0, RootSearch::new(p.nroots(), m)),
            fx: v(),
            t_fx: t0,
            ft: v(),
            y_prev: y0.to_vec(),
            h: h0.min(h_max),
            k: vec![0.0; S * n],
            dense: vec![0.0; 3 * n],
            ynew: v(),
            u: v(),
            du: v(),
            jac: vec![0.0; n * m],
            lu: vec![0.0; m * m],
            piv: vec![0; m],
            jac_fresh: false,
            h_lu: f64::NAN,
            reject: false,
            h_acc: 0.0,
            err_acc: 1e-2,
            stats: MethodStats::default(),
        };
        r.reset(t0);
        r
    }

    /// The Jacobian's columns of the read states at (t, y) and, for a
    /// time-dependent problem, ∂f/∂t.
    fn jacobian(&mut self) {
        let (n, m) = (self.n, self.m);
        self.u.fill(0.0);
        for j in 0..m {
            self.u[j] = 1.0;
            self.p.jvp(self.last.t, &self.last.y, &self.u, &mut self.du);
            self.u[j] = 0.0;
            for i in 0..n {
                self.jac[i * m + j] = self.du[i];
            }
        }
        if n > m {
            // the quadratures' rows: their products are zero (the engine
            // leaves them out of every Newton matrix), but a Rosenbrock
            // method is of its order only with the exact Jacobian; with
            // these rows zero the energies were of low order, and at their
            // absolute tolerance of a picojoule they set the step (the
            // overdamped closed form of `tests/rosenbrock.rs`: 1,097 steps
            // at rtol 1e-6). Differenced column by column (m evaluations),
            // as the engine has no exact form of them.
            self.u[..n].copy_from_slice(&self.last.y);
            for j in 0..m {
                let yj = self.last.y[j];
                let dy = f64::EPSILON.sqrt() * (yj.abs() + self.atol[j] / self.rtol.max(f64::EPSILON));
                self.u[j] = yj + dy;
                let inv = 1.0 / (self.u[j] - yj);
                self.p.rhs(self.t_fx, &self.u, &mut self.du);
                self.u[j] = yj;
                for i in m..n {
                    self.jac[i * m + j] = (self.du[i] - self.fx[i]) * inv;
                }
            }
        }
        if self.time_dependent {
            let tf = self.t_fx;
            // the increment scaled by the run's time scale (the largest
            // step, at most the end time): at t = 0 a floor of the current
            // step left a rounding error of 1e-3 of f in the difference
            let scale = if self.h_max.is_finite() { self.h_max } else { 1.0 };
            let dt = f64::EPSILON.sqrt() * tf.abs().max(scale).max(self.h.abs());
            self.p.rhs(tf + dt, &self.last.y, &mut self.du);
            let inv = 1.0 / ((tf + dt) - tf);
            for ((ft, &d), &f) in self.ft.iter_mut().zip(&self.du).zip(&self.fx) {
                *ft = (d - f) * inv;
            }
        }
        self.jac_fresh = true;
        self.h_lu = f64::NAN;
    }

    /// Factor `I / (h γ) - J` of the read states.
    fn decompose(&mut self, h: f64) -> Result<(), usize> {
        let m = self.m;
        let d = 1.0 / (h * GAMMA);
        for i in 0..m {
            for j in 0..m {
                let e = if i == j { d } else { 0.0 };
                self.lu[i * m + j] = e - self.jac[i * m + j];
            }
        }
        self.stats.factorisations += 1;
        self.h_lu = f64::NAN;
        small_lu::factor(&mut self.lu, m, &mut self.piv)?;
        self.h_lu = h;
        Ok(())
    }

    /// Solve `(I / (h γ) - J) x = b` in place: the read states by the LU,
    /// the rest (the quadratures, whose columns are not in `J`) by their
    /// rows `x_q (1 / (h γ)) - J_q x_m = b_q`.
    fn solve(&self, b: &mut [f64]) {
        let m = self.m;
        let (bm, bq) = b.split_at_mut(m);
        small_lu::solve(&self.lu, m, &self.piv, bm);
        let hg = self.h_lu * GAMMA;
        for (r, x) in bq.iter_mut().enumerate() {
            let row = &self.jac[(m + r) * m..(m + r + 1) * m];
            let jx: f64 = row.iter().zip(bm.iter()).map(|(a, b)| a * b).sum();
            *x = hg * (*x + jx);
        }
    }

    /// The stages of a step of length `h` into `k`, the new state into
    /// `ynew`; the weighted RMS of the error estimate.
    fn attempt(&mut self, h: f64) -> f64 {
        let (n, m) = (self.n, self.m);
        for s in 0..S {
            if s > 0 {
                let row = &A[s][..s];
                for i in 0..m {
                    let mut acc = self.last.y[i];
                    for (j, &a) in row.iter().enumerate() {
                        acc += a * self.k[j * n + i];
                    }
                    self.u[i] = acc;
                }
                self.p.rhs(self.last.t + NODES[s] * h, &self.u, &mut self.du);
            } else {
                self.du.copy_from_slice(&self.fx);
            }
            // the coupling's weights over h once per stage, no time term
            // for an autonomous problem
            let hd = if self.time_dependent { h * D[s] } else { 0.0 };
            let mut ch = [0.0; S];
            for (w, &c) in ch.iter_mut().zip(&C[s][..s]) {
                *w = c / h;
            }
            let (done, rest) = self.k.split_at_mut(s * n);
            let ks = &mut rest[..n];
            for i in 0..n {
                let mut acc = self.du[i] + hd * self.ft[i];
                for (j, &w) in ch[..s].iter().enumerate() {
                    acc += w * done[j * n + i];
                }
                ks[i] = acc;
            }
            let mut kv = std::mem::take(&mut self.u);
            kv.copy_from_slice(ks);
            self.solve(&mut kv);
            self.k[s * n..(s + 1) * n].copy_from_slice(&kv);
            self.u = kv;
        }
        // y1 = y + Σ A_8j k_j + k_8; the error estimate is k_8
        let last = &A[S - 1];
        let mut sum = 0.0;
        for i in 0..n {
            let mut acc = self.last.y[i];
            for (j, &a) in last.iter().enumerate().take(S - 1) {
                acc += a * self.k[j * n + i];
            }
            let e = self.k[(S - 1) * n + i];
            let y1 = acc + e;
            self.ynew[i] = y1;
            let sk = self.atol[i] + self.rtol * self.last.y[i].abs().max(y1.abs());
            sum += (e / sk) * (e / sk);
        }
        let err = (sum / n as f64).sqrt();
        if err.is_finite() {
            err.max(1e-10)
        } else {
            f64::INFINITY
        }
    }

    /// The dense output's coefficients of the step just accepted.
    fn dense_coefficients(&mut self) {
        let n = self.n;
        for (r, hrow) in H.iter().enumerate() {
            let out = &mut self.dense[r * n..(r + 1) * n];
            for (i, o) in out.iter_mut().enumerate() {
                let mut acc = 0.0;
                for (s, &w) in hrow.iter().enumerate() {
                    acc += w * self.k[s * n + i];
                }
                *o = acc;
            }
        }
    }
}

impl<P: RosProblem> DenseOutput for Rodas5P<'_, P> {
    /// θ and 1 - θ
    type Point = (f64, f64);
    type Coeffs<'a>
        = &'a Self
    where
        Self: 'a;

    last_step_in_field!();
    /// θ and 1 - θ of `tq` in the last step.
    fn point(&self, tq: f64) -> (f64, f64) {
        let th = (tq - self.last.t_prev) / self.last.h_prev;
        (th, 1.0 - th)
    }
    fn coeffs(&self, _upto: usize) -> &Self {
        self
    }
    /// The order-4 continuous extension from the step's ends and the three
    /// coefficients of `dense`.
    #[inline(always)]
    fn value(r: &&Self, &(th, th1): &(f64, f64), i: usize) -> f64 {
        let n = r.n;
        let (d1, d2, d3) = (r.dense[i], r.dense[n + i], r.dense[2 * n + i]);
        th1 * r.y_prev[i] + th * (r.last.y[i] + th1 * (d1 + th * (d2 + th * d3)))
    }
    /// After a new state at `t`: its derivative (just after `t`: a
    /// prescribed velocity may jump at a breakpoint) and roots; no history.
    fn reset(&mut self, t: f64) {
        self.last.restart_at(t);
        self.t_fx = t + T_AFTER * (1.0 + t.abs());
        self.p.rhs(self.t_fx, &self.last.y, &mut self.fx);
        self.p.roots(t, &self.last.y, &mut self.last.roots.g0);
        self.jac_fresh = false;
        self.h_lu = f64::NAN;
        self.err_acc = 1e-2;
        self.h_acc = 0.0;
    }
}

impl<P: RosProblem> dense_output::OwnMethod for Rodas5P<'_, P> {
    // output rows two at a time (a step holds a few)
    const ROWS_AT_ONCE: usize = 2;
    const STATES_ONLY: bool = true;

    fn step(&mut self) -> Result<Stop, String> {
        let mut singular = 0;
        loop {
            let room = self.last.tstop - self.last.t;
            let cut = self.h * 1.0001 >= room;
            let h = if cut { room } else { self.h };
            if h.abs() < H_MIN || !h.is_finite() {
                return Err(format!(
                    "step size {h:.3e} s below the minimum {H_MIN:.0e} s at t = {} (Rodas5P)",
                    self.last.t
                ));
            }
            if !self.jac_fresh {
                self.jacobian();
            }
            if self.h_lu != h {
                if let Err(col) = self.decompose(h) {
                    singular += 1;
                    if singular > 5 {
                        return Err(format!(
                            "singular matrix I/(h γ) - J (column {col}) at t = {}, h = {h:.3e} s (Rodas5P)",
                            self.last.t
                        ));
                    }
                    self.h = 0.5 * h;
                    self.reject = true;
                    continue;
                }
            }
            let err = self.attempt(h);
            let mut quot = FACR.max(FACL.min(err.powf(0.2) / SAFE));
            if err > 1.0 {
                self.stats.rejected += 1;
                self.reject = true;
                // the run's very first step: its size was a guess
                self.h = if self.stats.steps == 0 || !err.is_finite() { 0.1 * h } else { h / quot };
                continue;
            }
            // accepted
            self.stats.steps += 1;
            if self.h_acc > 0.0 {
                let facgus = (self.h_acc / h) * (err * err / self.err_acc).powf(0.2) / SAFE;
                quot = quot.max(facgus.clamp(FACR, FACL));
            }
            let mut hnew = (h / quot).min(self.h_max);
            self.h_acc = h;
            self.err_acc = err.max(1e-2);
            self.dense_coefficients();
            std::mem::swap(&mut self.y_prev, &mut self.last.y);
            std::mem::swap(&mut self.last.y, &mut self.ynew);
            self.last.t_prev = self.last.t;
            self.last.h_prev = h;
            self.last.t = if cut { self.last.tstop } else { self.last.t + h };
            self.t_fx = self.last.t;
            self.p.rhs(self.last.t, &self.last.y, &mut self.fx);
            self.jac_fresh = false;
            if self.reject {
                hnew = hnew.min(h);
            }
            if cut && hnew >= h {
                // cut short to the stop time and may grow: at least to the
                // size proposed before the cut
                hnew = hnew.max(self.h);
            }
            self.reject = false;
            self.h = hnew;
            if let Some((tr, idx)) = root_in_step(self.p, self) {
                return Ok(Stop::Root(tr, idx));
            }
            return Ok(if cut { Stop::AtStopTime } else { Stop::Step });
        }
    }

    fn stats(&self) -> MethodStats {
        self.stats
    }
}

#[cfg(test)]
#[path = "rosenbrock_tests.rs"]
pub(crate) mod tests;
