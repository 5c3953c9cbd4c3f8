//! DOP853 for non-stiff networks: the explicit Runge-Kutta pair of order
//! 8(5,3) of Dormand and Prince with Hairer's dense output of order 7, as
//! in Hairer's `dop853.f` (E. Hairer, S. P. Nørsett, G. Wanner, *Solving
//! Ordinary Differential Equations I: Nonstiff Problems*, 2nd ed., Springer
//! 1993, sections II.5 and II.6): its error estimate (the fifth-order
//! estimate corrected by the third-order one), its step-size control
//! (safety 0.9, the step grows at most sixfold and shrinks at most
//! threefold, no step-size stabilisation: beta 0), its initial step guess
//! (HINIT); its stiffness detection is left out. Events are located on the
//! dense output as diffsol does it (the modified secant method of SUNDIALS'
//! CVODE), as in [`crate::engine::integrate::radau`].
//!
//! Why our own: on the Coulomb free decay (`examples/coulomb_free_decay.toml`,
//! rtol 1e-9), diffsol's Tsitouras 5(4) takes 276 steps and 2,090
//! evaluations (0.38 ms with an output every millisecond, 0.16 ms with two
//! rows), and half of that run is diffsol's dense output, which allocates
//! on every interpolation. An eighth-order pair needs far fewer steps at
//! such tolerances, and here the dense output's coefficients are computed
//! once per interpolated step, into vectors allocated once: the three
//! extra stages only when a step is actually interpolated (an output time
//! or a root search in it), so a run with few rows does not pay for them.
//! Nothing in the step loop allocates. Measured on that run at the
//! tolerance itself: 44 steps, 635 evaluations and 0.050 ms with two rows
//! (the dense output computed on every step: 752 and 0.065 ms), 0.17 ms
//! with a row every millisecond (0.12 ms with the columns x and v only,
//! tsit45 0.33 ms), rows within 4.7e-10 m of the closed form, where
//! tsit45's were within 4e-11 m. The engine therefore runs it at a tenth
//! of the scenario's tolerances (`DOP853_TOL_SCALE` in `method`): 59
//! steps, 0.064 ms with two rows, 0.12 ms with x and v every millisecond,
//! rows within 2e-11 m. The energy quadratures (three of the five states
//! there) are read by no equation, so the inner stages and the dense
//! output's extra stages are formed for the motion's states only, the
//! dense output's coefficients for as many states as asked (the rows ask
//! for the motion's), and the solution and both error estimates in one
//! pass: 0.121 -> 0.106 ms, the same rows and energies bit for bit.

use std::cell::{Cell, Ref, RefCell};

use crate::engine::integrate::dense_output::{self, last_step_in_field, DenseOutput, LastStep};
use crate::engine::integrate::dop853_tableau::{A, A_DENSE, B, BHH, C, D, D_STAGES, ER};
use crate::engine::integrate::root_search::RootSearch;
use crate::engine::integrate::rosenbrock::root_in_step;
use crate::engine::integrate::stepper::{MethodStats, Stop};
use crate::engine::network::Engine;

/// Step-control parameters: dop853.f's defaults.
const SAFE: f64 = 0.9;
const FAC1: f64 = 0.333; // h_new / h >= FAC1
const FAC2: f64 = 6.0; // h_new / h <= FAC2
const BETA: f64 = 0.0; // step-size stabilisation (Lund): off
/// The smallest step (s), as diffsol's default `min_timestep`.
const H_MIN: f64 = 1e-13;
/// "Just after" a restart time, relative: the derivative a step starts from
/// is taken there (a prescribed velocity may jump at a breakpoint), as in
/// [`crate::engine::integrate::radau`].
const T_AFTER: f64 = 1e-13;

/// The dense output of the last step, computed on demand.
pub(crate) struct Dense {
    /// `cont[8 * i + j]`: coefficient j of state i
    cont: Vec<f64>,
    /// the three extra stages, `k[s * n + i]`
    k: Vec<f64>,
    ytmp: Vec<f64>,
}

/// The method's state between steps; every vector is allocated once.
pub(crate) struct Dop853<'x, 'e> {
    eng: &'x Engine<'e>,
    n: usize,
    /// the states the equations read: those before the energy quadratures,
    /// which feed back into nothing. The inner stages and the dense
    /// output's extra stages are formed for these only (the quadratures'
    /// values there would never be read); the solution and the error
    /// estimate cover all `n`.
    m: usize,
    rtol: f64,
    atol: Vec<f64>,
    /// the largest step (for the initial guess)
    h_max: f64,
    /// the last accepted step, the state at its end (the current time),
    /// the stop time, the event roots' search
    last: LastStep,
    /// the last accepted step's initial state
    y_prev: Vec<f64>,
    /// the step proposed for the next attempt (NaN: guess it)
    h: f64,
    /// stages 0 to 12 of the step, `k[s * n + i]` (stage 12: f at its end)
    k: Vec<f64>,
    /// the next step starts from a new state: its f and roots are due
    fresh: bool,
    /// the last step was rejected
    reject: bool,
    facold: f64,
    ynew: Vec<f64>,
    ytmp: Vec<f64>,
    dense: RefCell<Dense>,
    /// how many states' coefficients (dop853.f's `CONT`) of the last step
    /// `dense` holds: 0 (none, nor its extra stages), up to `n` (the rows
    /// and root searches ask for the first `m`, a move back for all)
    dense_ready: Cell<usize>,
    stats: MethodStats,
}

/// `sum(a_j k_j)` over the row's stages for state `i`.
#[inline(always)]
fn weigh(row: &[(usize, f64)], k: &[f64], n: usize, i: usize) -> f64 {
    let mut acc = 0.0;
    for &(j, a) in row {
        acc += a * k[j * n + i];
    }
    acc
}

/// One state's dense output: its eight coefficients `c` by the weights `b`
/// of [`DenseOutput::point`].
#[inline(always)]
fn dense_value(b: &[f64; 8], c: &[f64]) -> f64 {
    let lo = b[0] * c[0] + b[1] * c[1] + b[2] * c[2] + b[3] * c[3];
    let hi = b[4] * c[4] + b[5] * c[5] + b[6] * c[6] + b[7] * c[7];
    lo + hi
}

/// `out = y + h * sum(a_j k_j)` over the row's stages.
fn combine(out: &mut [f64], y: &[f64], h: f64, row: &[(usize, f64)], k: &[f64], n: usize) {
    for (i, (o, y)) in out.iter_mut().zip(y).enumerate() {
        let mut acc = 0.0;
        for &(j, a) in row {
            acc += a * k[j * n + i];
        }
        *o = y + h * acc;
    }
}

impl<'x, 'e> Dop853<'x, 'e> {
    /// Start at `t0` from `y0` with relative tolerance `rtol`, absolute
    /// tolerances `atol` (one per state) and steps of at most `h_max` (the
    /// first step guessed as dop853.f's HINIT does).
    pub(crate) fn new(
        eng: &'x Engine<'e>,
        t0: f64,
        y0: &[f64],
        h_max: f64,
        rtol: f64,
        atol: Vec<f64>,
    ) -> Self {
        let n = y0.len();
        let m = eng.q_off.min(n);
        let nr = eng.nroots;
        Dop853 {
            eng,
            n,
            m,
            rtol,
            atol,
            h_max,
            last: LastStep::new(t0, y0, RootSearch::new(nr, m)),
            y_prev: y0.to_vec(),
            h: f64::NAN,
            k: vec![0.0; 13 * n],
            fresh: true,
            reject: false,
            facold: 1e-4,
            ynew: vec![0.0; n],
            ytmp: vec![0.0; n],
            dense: RefCell::new(Dense { cont: vec![0.0; 8 * n], k: vec![0.0; 3 * n], ytmp: vec![0.0; n] }),
            dense_ready: Cell::new(0),
            stats: MethodStats::default(),
        }
    }

    /// Stage 0 (f just after `t`) and the roots at the step's start.
    fn start(&mut self) {
        let n = self.n;
        let t = self.last.t;
        self.eng.rhs(t + T_AFTER * (1.0 + t.abs()), &self.last.y, &mut self.k[..n]);
        self.eng.roots(t, &self.last.y, &mut self.last.roots.g0);
        self.fresh = false;
        if self.h.is_nan() {
            self.h = self.hinit();
        }
    }

    /// dop853.f's HINIT: a step such that h^8 max(|f|, |f'|) = 0.01 in the
    /// tolerances' norm, from one explicit Euler step.
    fn hinit(&mut self) -> f64 {
        let n = self.n;
        let (mut dnf, mut dny) = (0.0, 0.0);
        for i in 0..n {
            let sk = self.atol[i] + self.rtol * self.last.y[i].abs();
            dnf += (self.k[i] / sk).powi(2);
            dny += (self.last.y[i] / sk).powi(2);
        }
        let mut h = if dnf <= 1e-10 || dny <= 1e-10 { 1e-6 } else { (dny / dnf).sqrt() * 0.01 };
        h = h.min(self.h_max);
        for i in 0..n {
            self.ytmp[i] = self.last.y[i] + h * self.k[i];
        }
        // stage 1's slot as scratch
        let (k0, rest) = self.k.split_at_mut(n);
        self.eng.rhs(self.last.t + h, &self.ytmp, &mut rest[..n]);
        let mut der2 = 0.0;
        for i in 0..n {
            let sk = self.atol[i] + self.rtol * self.last.y[i].abs();
            der2 += ((rest[i] - k0[i]) / sk).powi(2);
        }
        let der2 = der2.sqrt() / h;
        let der12 = der2.abs().max(dnf.sqrt());
        let h1 = if der12 <= 1e-15 { (h * 1e-3).max(1e-6) } else { (0.01 / der12).powf(1.0 / 8.0) };
        (100.0 * h).min(h1).min(self.h_max)
    }

    /// The stages of a step of length `h` from (t, y), its solution of
    /// order 8 into `ynew`, and its error (1: the tolerance).
    fn attempt(&mut self, h: f64) -> f64 {
        let (n, m) = (self.n, self.m);
        for s in 1..12 {
            combine(&mut self.ytmp[..m], &self.last.y[..m], h, A[s], &self.k, n);
            let (_, rest) = self.k.split_at_mut(s * n);
            self.eng.rhs(self.last.t + C[s] * h, &self.ytmp, &mut rest[..n]);
        }
        // the order-8 increment and the two error estimates, state by state
        // (one pass over the stages)
        let (mut err5, mut err3) = (0.0, 0.0);
        for i in 0..n {
            let b = weigh(&B, &self.k, n, i);
            let e3 = weigh(&BHH, &self.k, n, i);
            let e5 = weigh(&ER, &self.k, n, i);
            self.ynew[i] = self.last.y[i] + h * b;
            let sk = self.atol[i] + self.rtol * self.last.y[i].abs().max(self.ynew[i].abs());
            err3 += ((b - e3) / sk).powi(2);
            err5 += (e5 / sk).powi(2);
        }
        let mut deno = err5 + 0.01 * err3;
        if deno <= 0.0 {
            deno = 1.0;
        }
        h.abs() * err5 * (1.0 / (n as f64 * deno)).sqrt()
    }

    /// Stage `j` of the last step (0 to 12), or of its dense output (13 to
    /// 15, in `kd`).
    fn stage<'a>(&'a self, kd: &'a [f64], j: usize) -> &'a [f64] {
        let n = self.n;
        if j < 13 {
            &self.k[j * n..(j + 1) * n]
        } else {
            &kd[(j - 13) * n..(j - 12) * n]
        }
    }

    /// The dense output's coefficients of the last step for states `from`
    /// to `upto` (the three extra stages evaluated here when `from` is 0),
    /// once per step and state.
    fn dense_coefficients(&self, d: &mut Dense, from: usize, upto: usize) {
        let (n, m) = (self.n, self.m);
        let h = self.last.h_prev;
        let Dense { cont, k: kd, ytmp, .. } = d;
        if from == 0 {
            for (e, row) in A_DENSE.iter().enumerate() {
                // state by state, the sum kept in a register (stage by
                // stage, each term went through memory: a quarter of this
                // function); the same operations in the same order
                for i in 0..m {
                    let mut v = self.y_prev[i];
                    for &(j, a) in row.iter() {
                        v += (h * a) * self.stage(kd, j)[i];
                    }
                    ytmp[i] = v;
                }
                self.eng.rhs(self.last.t_prev + C[13 + e] * h, ytmp, &mut kd[e * n..(e + 1) * n]);
            }
        }
        for (i, c) in cont.chunks_exact_mut(8).enumerate().take(upto).skip(from) {
            // the state's sixteen stages, then fixed-size sums (unrolled)
            let mut ks = [0.0; 16];
            for (st, v) in ks.iter_mut().enumerate() {
                *v = if st < 13 { self.k[st * n + i] } else { kd[(st - 13) * n + i] };
            }
            let (y0, y1) = (self.y_prev[i], self.last.y[i]);
            let ydiff = y1 - y0;
            let bspl = h * ks[0] - ydiff;
            c[0] = y0;
            c[1] = ydiff;
            c[2] = bspl;
            c[3] = ydiff - h * ks[12] - bspl;
            for (r, drow) in D.iter().enumerate() {
                let mut acc = 0.0;
                for (&st, &w) in D_STAGES.iter().zip(drow) {
                    acc += w * ks[st];
                }
                c[4 + r] = h * acc;
            }
        }
    }

    /// The dense output's coefficients of the last step's first `upto`
    /// states, computed if not yet (a step with one: `h_prev` > 0).
    fn ensure_dense(&self, upto: usize) {
        let ready = self.dense_ready.get();
        if ready < upto {
            self.dense_coefficients(&mut self.dense.borrow_mut(), ready, upto);
            self.dense_ready.set(upto);
        }
    }
}

impl DenseOutput for Dop853<'_, '_> {
    /// the weights of the eight coefficients
    type Point = [f64; 8];
    type Coeffs<'a>
        = Ref<'a, Dense>
    where
        Self: 'a;

    last_step_in_field!();
    /// The weights of the coefficients at `tq`: dop853.f's CONTD8, y = c0 +
    /// s (c1 + s1 (c2 + s (c3 + s1 (c4 + s (c5 + s1 (c6 + s c7)))))),
    /// expanded into its eight products of powers of s and s1 = 1 - s: one
    /// dot product per state ([`dense_value`]) instead of a chain of eight
    /// dependent multiply-adds.
    fn point(&self, tq: f64) -> [f64; 8] {
        let s = (tq - self.last.t_prev) / self.last.h_prev;
        let s1 = 1.0 - s;
        let ss1 = s * s1;
        let (b2, b4, b6) = (ss1, ss1 * ss1, ss1 * ss1 * ss1);
        [1.0, s, b2, s * b2, b4, s * b4, b6, s * b6]
    }
    /// The coefficients of the first `upto` states, computed if not yet.
    fn coeffs(&self, upto: usize) -> Ref<'_, Dense> {
        self.ensure_dense(upto);
        self.dense.borrow()
    }
    #[inline(always)]
    fn value(d: &Ref<'_, Dense>, b: &[f64; 8], i: usize) -> f64 {
        dense_value(b, &d.cont[8 * i..8 * i + 8])
    }
    fn values(d: &Ref<'_, Dense>, b: &[f64; 8], out: &mut [f64]) {
        for (o, c) in out.iter_mut().zip(d.cont.chunks_exact(8)) {
            *o = dense_value(b, c);
        }
    }
    /// A new state at `t`: no history; its derivative and roots are
    /// evaluated when the next step starts (after the loop has set the
    /// modes).
    fn reset(&mut self, t: f64) {
        self.last.restart_at(t);
        self.fresh = true;
        self.reject = false;
        self.dense_ready.set(0);
    }
}

impl dense_output::OwnMethod for Dop853<'_, '_> {
    // output rows four at a time (a step holds dozens)
    const ROWS_AT_ONCE: usize = 4;
    const STATES_ONLY: bool = true;

    fn step(&mut self) -> Result<Stop, String> {
        let n = self.n;
        if self.fresh {
            self.start();
        } else {
            // first same as last: f at the last step's end
            self.k.copy_within(12 * n..13 * n, 0);
        }
        loop {
            let room = self.last.tstop - self.last.t;
            // dop853.f's rule: a step within 1 % of the stop time ends on it
            let cut = self.h * 1.01 >= room;
            let h = if cut { room } else { self.h };
            if h.abs() < H_MIN || !h.is_finite() {
                return Err(format!(
                    "step size {h:.3e} s below the minimum {H_MIN:.0e} s at t = {} (DOP853)",
                    self.last.t
                ));
            }
            let err = self.attempt(h);
            // err^(1/8 - 0.2 beta): with beta 0 three square roots, not a pow
            let fac11 = if BETA == 0.0 { err.sqrt().sqrt().sqrt() } else { err.powf(1.0 / 8.0 - BETA * 0.2) };
            if err > 1.0 || err.is_nan() {
                // rejected (also a non-finite error: the step shrinks threefold)
                self.stats.rejected += 1;
                self.reject = true;
                self.h = h / (1.0 / FAC1).min(fac11 / SAFE);
                continue;
            }
            // accepted
            let stab = if BETA == 0.0 { 1.0 } else { self.facold.powf(BETA) };
            let fac = (fac11 / stab / SAFE).clamp(1.0 / FAC2, 1.0 / FAC1);
            let mut hnew = h / fac;
            self.facold = err.max(1e-4);
            self.stats.steps += 1;
            let t_new = if cut { self.last.tstop } else { self.last.t + h };
            // stage 12: f at the step's end (the next step's stage 0)
            self.eng.rhs(t_new, &self.ynew, &mut self.k[12 * n..13 * n]);
            std::mem::swap(&mut self.y_prev, &mut self.last.y);
            std::mem::swap(&mut self.last.y, &mut self.ynew);
            self.last.t_prev = self.last.t;
            self.last.h_prev = t_new - self.last.t;
            self.last.t = t_new;
            self.dense_ready.set(0);
            hnew = hnew.min(self.h_max);
            if self.reject {
                hnew = hnew.min(h);
            }
            if cut && hnew >= h {
                // the step was cut short to the stop time and may grow: at
                // least to the size proposed before the cut
                hnew = hnew.max(self.h);
            }
            self.reject = false;
            self.h = hnew;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::integrate::stepper::Stepper;
    use crate::scenario::{parse, System};

    /// 1 kg on 100 N/m from x = 0.1 m: x = 0.1 cos(10 t).
    fn oscillator() -> System {
        let text =
            "[[body]]\nname = \"m\"\nmass = 1.0\nx0 = 0.1\n[[spring]]\nbetween = [\"m\", \"ground\"]\n\
                    stiffness = 100.0\n[solver]\nt_end = 2.0\nrtol = 1e-10\natol = 1e-12\n";
        parse(text, "oscillator.toml", std::path::Path::new(".")).unwrap()
    }

    fn stepper<'x, 'e>(eng: &'x Engine<'e>) -> Dop853<'x, 'e> {
        let y0 = eng.initial_state();
        Dop853::new(eng, 0.0, &y0, 1.0, 1e-10, vec![1e-12; y0.len()])
    }

    fn run_to(s: &mut Dop853<'_, '_>, t: f64) {
        s.set_stop_time(t).unwrap();
        while s.step().unwrap() != Stop::AtStopTime {}
    }

    #[test]
    fn tableau_rows_sum_to_their_nodes_and_weights_to_one() {
        let sum = |row: &[(usize, f64)]| row.iter().map(|&(_, a)| a).sum::<f64>();
        for (s, row) in A.iter().enumerate().skip(1) {
            assert!((sum(row) - C[s]).abs() < 1e-14, "stage {s}: {} vs {}", sum(row), C[s]);
        }
        for (e, row) in A_DENSE.iter().enumerate() {
            assert!((sum(row) - C[13 + e]).abs() < 1e-14, "dense stage {}", 13 + e);
        }
        assert!((sum(&B) - 1.0).abs() < 1e-14);
        assert!((sum(&BHH) - 1.0).abs() < 1e-14);
        assert!(sum(&ER).abs() < 1e-14);
    }

    /// A step that reaches the stop time ends on it exactly, and a stop
    /// time not ahead is refused.
    #[test]
    fn stop_time_is_hit_exactly_and_one_in_the_past_is_refused() {
        let sys = oscillator();
        let eng = Engine::new(&sys);
        let mut s = stepper(&eng);
        for t in [0.37, 0.370_000_1, 1.1] {
            run_to(&mut s, t);
            assert_eq!(s.t(), t);
            let x = s.y()[0];
            assert!((x - 0.1 * (10.0 * t).cos()).abs() < 1e-10, "x({t}) = {x}");
        }
        assert!(s.set_stop_time(1.1).is_err());
        assert!(s.set_stop_time(0.5).is_err());
    }

    /// After a restart from a new state the method starts from that state's
    /// derivative (not the last step's), and the dense output of the steps
    /// before is gone.
    #[test]
    fn restart_from_a_new_state_follows_it_not_the_old_derivative() {
        let sys = oscillator();
        let eng = Engine::new(&sys);
        let mut s = stepper(&eng);
        run_to(&mut s, 0.5);
        let mut y = s.y().to_vec();
        // at rest at 0.2 m: x = 0.2 cos(10 (t - 0.5))
        y[0] = 0.2;
        y[1] = 0.0;
        s.restart(&eng, 0.5, &y);
        let mut yi = vec![0.0; y.len()];
        s.interpolate(0.5, &mut yi).unwrap();
        assert_eq!(yi[0], 0.2);
        assert!(s.interpolate(0.4, &mut yi).is_err(), "the steps before the restart are gone");
        run_to(&mut s, 0.9);
        let x = s.y()[0];
        assert!((x - 0.2 * (10.0f64 * 0.4).cos()).abs() < 1e-10, "x(0.9) = {x}");
        // between the last step's ends, and not outside them
        let (t0, t1) = (s.last.t_prev, s.last.t);
        let tm = 0.5 * (t0 + t1);
        s.interpolate(tm, &mut yi).unwrap();
        assert!((yi[0] - 0.2 * (10.0 * (tm - 0.5)).cos()).abs() < 1e-10, "x({tm}) = {}", yi[0]);
        // the positions and velocities only, as the rows ask: the same values
        let mut yp = vec![f64::NAN; yi.len()];
        s.interpolate_states(tm, &mut yp, 2).unwrap();
        assert_eq!(yp[..2], yi[..2]);
        assert!(yp[2..].iter().all(|v| v.is_nan()));
        assert!(s.interpolate(t1 + 1e-3, &mut yi).is_err());
    }
}
