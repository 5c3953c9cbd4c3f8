//! Radau IIA of order 5 (three stages) for small stiff networks: the method
//! of Hairer and Wanner's RADAU5 (E. Hairer, G. Wanner, *Solving Ordinary
//! Differential Equations II: Stiff and Differential-Algebraic Problems*,
//! 2nd ed., Springer 1996, section IV.8), with its simplified Newton
//! iteration on one real and one complex system, its embedded error
//! estimate, Gustafsson's predictive step control, the reuse of Jacobian and
//! factorisations, and the collocation polynomial as dense output; root
//! finding of the events on that polynomial as diffsol does it (the
//! modified secant method of SUNDIALS' CVODE).
//!
//! Why our own: on the LuGre stick-slip set-up of Canudas de Wit et al.
//! (1995), diffsol's BDF needs 1,485 steps where Radau5 needs about 550 at
//! a tenth of the error, and diffsol has no Radau method; the Radau5 of the
//! `differential-equations` crate works on fixed-size states only. After
//! every event a one-step method restarts at full order, where BDF starts
//! again at order one.
//!
//! Dense linear algebra ([`crate::engine::linalg::small_lu`]): the engine uses this method
//! below `SPARSE_FROM` states only. `newton.rs`: the simplified Newton
//! iteration of a step's stages and the step's error estimate.

mod newton;

use nalgebra::Complex;

use crate::engine::integrate::dense_output::{self, last_step_in_field, DenseOutput, LastStep};
use crate::engine::integrate::radau_tableau::{
    collocation, eigen, C1, C1M1, C1MC2, C2, C2M1, DD1, DD2, DD3, T11, T12, T13, T21, T22, T23, T31, TI11,
    TI12, TI13, TI21, TI22, TI23, TI31, TI32, TI33,
};
use crate::engine::integrate::root_search::RootSearch;
use crate::engine::integrate::rosenbrock::root_in_step;
use crate::engine::integrate::stepper::{MethodStats, Stop};
use crate::engine::linalg::small_lu;
use crate::engine::network::Engine;

/// Step-control parameters: RADAU5's defaults.
const NIT: usize = 7; // Newton iterations at most
const SAFE: f64 = 0.9;
const FACL: f64 = 5.0; // h_new / h >= 1 / FACL
const FACR: f64 = 0.125; // h_new / h <= 1 / FACR
const THET: f64 = 0.001; // Jacobian reused when the Newton contraction is below this (0.03 and 0.3 measured: no faster)
const QUOT1: f64 = 1.0; // step kept (no new factorisation) when h_new / h is in [QUOT1, QUOT2]
const QUOT2: f64 = 1.2;
/// The smallest step (s), as diffsol's default `min_timestep`.
const H_MIN: f64 = 1e-13;
/// "Just after" a restart time, relative (see `Radau5::reset`): below the
/// smallest step, above the rounding of the breakpoints (1e-14).
const T_AFTER: f64 = 1e-13;

/// The method's state between steps. Every vector has `n` entries and is
/// allocated once.
pub(crate) struct Radau5<'x, 'e> {
    eng: &'x Engine<'e>,
    n: usize,
    /// the states before the energy quadratures: the Jacobian's only
    /// non-zero block (nothing depends on the quadratures, and their rows
    /// are left out of the Newton matrix as in the other methods)
    m: usize,
    rtol: f64,
    atol: Vec<f64>,
    /// Newton's stopping tolerance (in units of the error tolerance)
    fnewt: f64,
    u1: f64,
    alph: f64,
    beta: f64,
    /// the last accepted step, the state at its end (the current time),
    /// the stop time, the event roots' search; its spare state is also the
    /// Newton iteration's scratch
    last: LastStep,
    /// f(t, y)
    fx: Vec<f64>,
    /// the step proposed for the next attempt
    h: f64,
    z: [Vec<f64>; 3],
    f: [Vec<f64>; 3],
    /// collocation polynomial of the last step: y and three differences
    cont: [Vec<f64>; 4],
    scal: Vec<f64>,
    tmp: Vec<f64>,
    tmp2: Vec<f64>,
    jac: Vec<f64>,
    e1: Vec<f64>,
    e2: Vec<Complex<f64>>,
    w2: Vec<Complex<f64>>,
    piv1: Vec<usize>,
    piv2: Vec<usize>,
    /// the Jacobian is out of date (new state after a restart, or slow Newton)
    jac_stale: bool,
    /// the step size of the factorisations (NaN: none)
    h_lu: f64,
    reject: bool,
    theta: f64,
    faccon: f64,
    h_acc: f64,
    err_acc: f64,
    /// accepted steps since the (re)start (none: Newton starts from zero)
    accepted_since_start: usize,
    stats: MethodStats,
}

impl<'x, 'e> Radau5<'x, 'e> {
    /// Start at `t0` from `y0` with a first step `h0`, relative tolerance
    /// `rtol` and absolute tolerances `atol` (one per state).
    pub(crate) fn new(eng: &'x Engine<'e>, t0: f64, y0: &[f64], h0: f64, rtol: f64, atol: Vec<f64>) -> Self {
        let n = y0.len();
        let (u1, alph, beta) = eigen();
        let v = || vec![0.0; n];
        let nr = eng.nroots;
        // Newton stops at 3 % of the tolerance, RADAU5's largest setting
        // (its default min(0.03, sqrt(rtol)) is 1e-3 at rtol 1e-6). On the
        // LuGre stick-slip example: 0.45 against 0.55 ms without output,
        // error 2e-7 against 1e-7 m; the viscous closed form's errors at
        // rtol 1e-6 and 1e-9 unchanged (7.5e-9 and 1.2e-11 m).
        let fnewt = (10.0 * f64::EPSILON / rtol).max(0.03);
        let m = eng.q_off.min(n);
        let mut r = Radau5 {
            eng,
            n,
            m,
            rtol,
            atol,
            fnewt,
            u1,
            alph,
            beta,
            last: LastStep::new(t0, y0, RootSearch::new(nr, m)),
            fx: v(),
            h: h0,
            z: [v(), v(), v()],
            f: [v(), v(), v()],
            cont: [y0.to_vec(), v(), v(), v()],
            scal: v(),
            tmp: v(),
            tmp2: v(),
            jac: vec![0.0; m * m],
            e1: vec![0.0; m * m],
            e2: vec![Complex::new(0.0, 0.0); m * m],
            w2: vec![Complex::new(0.0, 0.0); n],
            piv1: vec![0; n],
            piv2: vec![0; n],
            jac_stale: true,
            h_lu: f64::NAN,
            reject: false,
            theta: 0.0,
            faccon: 1.0,
            h_acc: 0.0,
            err_acc: 1e-2,
            accepted_since_start: 0,
            stats: MethodStats::default(),
        };
        r.reset(t0);
        r
    }

    fn set_scal(&mut self) {
        for ((s, &a), &y) in self.scal.iter_mut().zip(&self.atol).zip(&self.last.y) {
            *s = a + self.rtol * y.abs();
        }
    }

    /// The Jacobian's block of the first `m` states at (t, y), column by
    /// column from exact products.
    fn jacobian(&mut self) {
        let m = self.m;
        self.tmp.fill(0.0);
        for j in 0..m {
            self.tmp[j] = 1.0;
            self.eng.jvp(self.last.t, &self.last.y, &self.tmp, &mut self.tmp2);
            self.tmp[j] = 0.0;
            for i in 0..m {
                self.jac[i * m + j] = self.tmp2[i];
            }
        }
        self.jac_stale = false;
        // the factorisations hold the old Jacobian
        self.h_lu = f64::NAN;
    }

    /// Factor E1 = u1/h I - J and E2 = (alph + i beta)/h I - J.
    fn decompose(&mut self, h: f64) -> Result<(), usize> {
        let n = self.m;
        let fac1 = self.u1 / h;
        let alphn = self.alph / h;
        let betan = self.beta / h;
        for i in 0..n {
            for j in 0..n {
                let d = if i == j { 1.0 } else { 0.0 };
                let jij = self.jac[i * n + j];
                self.e1[i * n + j] = d * fac1 - jij;
                self.e2[i * n + j] = Complex::new(d * alphn - jij, d * betan);
            }
        }
        self.stats.factorisations += 1;
        self.h_lu = f64::NAN;
        small_lu::factor(&mut self.e1, n, &mut self.piv1)?;
        small_lu::factor(&mut self.e2, n, &mut self.piv2)?;
        self.h_lu = h;
        Ok(())
    }

    /// Solve E1 x = b in place (the quadratures' rows are diagonal).
    fn solve1(&self, b: &mut [f64]) {
        small_lu::solve(&self.e1, self.m, &self.piv1, &mut b[..self.m]);
        let fac1 = self.u1 / self.h_lu;
        for v in &mut b[self.m..] {
            *v /= fac1;
        }
    }

    /// Solve E2 x = b in place.
    fn solve2(&self, b: &mut [Complex<f64>]) {
        small_lu::solve(&self.e2, self.m, &self.piv2, &mut b[..self.m]);
        let d = Complex::new(self.alph / self.h_lu, self.beta / self.h_lu);
        for v in &mut b[self.m..] {
            *v /= d;
        }
    }

    fn rms(&self, v: &[f64]) -> f64 {
        let s: f64 = v.iter().zip(&self.scal).map(|(e, s)| (e / s) * (e / s)).sum();
        (s / self.n as f64).sqrt().max(1e-10)
    }
}

impl DenseOutput for Radau5<'_, '_> {
    /// `s`, `s - (c2 - 1)`, `s - (c1 - 1)`
    type Point = (f64, f64, f64);
    type Coeffs<'a>
        = &'a [Vec<f64>; 4]
    where
        Self: 'a;

    last_step_in_field!();
    /// Where `tq` lies on the last step's collocation polynomial, as
    /// [`collocation`] takes it: `s = (tq - t) / h` (0 at the step's end),
    /// `s - (c2 - 1)`, `s - (c1 - 1)`.
    fn point(&self, tq: f64) -> (f64, f64, f64) {
        let s = (tq - self.last.t) / self.last.h_prev;
        (s, s - C2M1, s - C1M1)
    }
    fn coeffs(&self, _upto: usize) -> &[Vec<f64>; 4] {
        &self.cont
    }
    #[inline(always)]
    fn value([c0, c1, c2, c3]: &&[Vec<f64>; 4], &p: &(f64, f64, f64), i: usize) -> f64 {
        collocation(p, [c0[i], c1[i], c2[i], c3[i]])
    }
    fn values([c0, c1, c2, c3]: &&[Vec<f64>; 4], &p: &(f64, f64, f64), out: &mut [f64]) {
        // zipped: no bounds checks, the loop vectorises
        for ((((o, &c0), &c1), &c2), &c3) in out.iter_mut().zip(c0).zip(c1).zip(c2).zip(c3) {
            *o = collocation(p, [c0, c1, c2, c3]);
        }
    }
    /// After a new state at `t`: its derivative, scales and roots; no
    /// history.
    fn reset(&mut self, t: f64) {
        self.last.restart_at(t);
        // The derivative the step starts from, just after `t`: restarts
        // happen at breakpoints of the schedules, where a prescribed
        // velocity may jump (a measured motion's samples), and the error
        // estimate takes this derivative as the step's initial slope. With
        // the value before the jump the estimate stayed proportional to h
        // and the step size fell below its minimum at the very first step
        // (a LuGre contact driven by sampled constant speeds).
        self.eng.rhs(t + T_AFTER * (1.0 + t.abs()), &self.last.y, &mut self.fx);
        self.cont[0].copy_from_slice(&self.last.y);
        for c in &mut self.cont[1..] {
            c.fill(0.0);
        }
        self.set_scal();
        self.eng.roots(t, &self.last.y, &mut self.last.roots.g0);
        self.jac_stale = true;
        self.h_lu = f64::NAN;
        self.accepted_since_start = 0;
        self.faccon = 1.0;
    }
}

impl dense_output::OwnMethod for Radau5<'_, '_> {
    // output rows two at a time (a step holds a few)
    const ROWS_AT_ONCE: usize = 2;
    // the output rows interpolate the whole state, as they always did here
    const STATES_ONLY: bool = false;

    fn step(&mut self) -> Result<Stop, String> {
        let mut singular = 0;
        loop {
            let room = self.last.tstop - self.last.t;
            let cut = self.h * 1.0001 >= room;
            let h = if cut { room } else { self.h };
            if h.abs() < H_MIN {
                return Err(format!(
                    "step size {h:.3e} s below the minimum {H_MIN:.0e} s at t = {} (Radau5)",
                    self.last.t
                ));
            }
            let caljac = self.jac_stale;
            if self.jac_stale {
                self.jacobian();
            }
            // a step cut to a stop time a maximum step ahead differs from
            // the factored one by rounding only: the factorisations stand
            if (self.h_lu - h).abs() > 1e-10 * h || self.h_lu.is_nan() {
                if let Err(col) = self.decompose(h) {
                    singular += 1;
                    if singular > 5 {
                        return Err(format!(
                            "singular Newton matrix (column {col}) at t = {}, h = {h:.3e} s (Radau5)",
                            self.last.t
                        ));
                    }
                    self.h = 0.5 * h;
                    self.reject = true;
                    continue;
                }
            }
            let newt = match self.newton(h) {
                Ok(k) => k,
                Err(shrink) => {
                    self.stats.newton_failures += 1;
                    self.h = shrink * h;
                    self.reject = true;
                    if !caljac {
                        self.jac_stale = true;
                    }
                    continue;
                }
            };
            let err = self.error(h);
            let fac = SAFE.min(SAFE * (1 + 2 * NIT) as f64 / (newt + 2 * NIT) as f64);
            let mut quot = FACR.max(FACL.min(err.sqrt().sqrt() / fac));
            let mut hnew = h / quot;
            if err >= 1.0 {
                self.stats.rejected += 1;
                self.reject = true;
                // the run's very first step: its size was a guess
                self.h = if self.stats.steps == 0 { 0.1 * h } else { hnew };
                if !caljac {
                    self.jac_stale = true;
                }
                continue;
            }
            // accepted
            self.stats.steps += 1;
            self.accepted_since_start += 1;
            if self.accepted_since_start > 1 {
                let facgus = (self.h_acc / h) * (err * err / self.err_acc).sqrt().sqrt() / SAFE;
                quot = quot.max(facgus.clamp(FACR, FACL));
                hnew = h / quot;
            }
            self.h_acc = h;
            self.err_acc = err.max(1e-2);
            self.last.t_prev = self.last.t;
            self.last.h_prev = h;
            self.last.t = if cut { self.last.tstop } else { self.last.t + h };
            {
                let n = self.n;
                let [z0, z1, z2] = &self.z;
                let (z0, z1, z2) = (&z0[..n], &z1[..n], &z2[..n]);
                let [k0, k1, k2, k3] = &mut self.cont;
                let (k0, k1, k2, k3) = (&mut k0[..n], &mut k1[..n], &mut k2[..n], &mut k3[..n]);
                let y = &mut self.last.y[..n];
                for i in 0..n {
                    y[i] += z2[i];
                    let (z1, z2, z3) = (z0[i], z1[i], z2[i]);
                    let c1 = (z2 - z3) / C2M1;
                    let ak = (z1 - z2) / C1MC2;
                    let acont3 = (ak - z1 / C1) / C2;
                    let c2 = (ak - c1) / C1M1;
                    k0[i] = y[i];
                    k1[i] = c1;
                    k2[i] = c2;
                    k3[i] = c2 - acont3;
                }
            }
            self.set_scal();
            self.eng.rhs(self.last.t, &self.last.y, &mut self.fx);
            if self.reject {
                hnew = hnew.min(h);
            }
            if cut && hnew >= h {
                // the step was cut short to the stop time and may grow: at
                // least to the size proposed before the cut
                hnew = hnew.max(self.h);
            }
            self.reject = false;
            let qt = hnew / h;
            if self.theta <= THET && (QUOT1..=QUOT2).contains(&qt) {
                // same step, same factorisations
                self.h = h;
            } else {
                self.h = hnew;
            }
            // the Jacobian is reused while Newton converges fast
            self.jac_stale = self.theta > THET;
            if let Some((tr, idx)) = root_in_step(self.eng, self) {
                return Ok(Stop::Root(tr, idx));
            }
            return Ok(if cut { Stop::AtStopTime } else { Stop::Step });
        }
    }

    fn stats(&self) -> MethodStats {
        self.stats
    }
}
