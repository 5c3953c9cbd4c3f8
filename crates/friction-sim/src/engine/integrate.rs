//! The integration loop: initial state and modes, diffsol's solver, steps,
//! roots, breakpoints of the schedules, output times, memory updates on
//! accepted steps, and restarts after events.

use std::time::Instant;

use diffsol::{
    FaerSparseMat, FaerVec, NalgebraLU, NalgebraMat, NalgebraVec, OdeBuilder, Vector, VectorCommon,
};
use friction_models::{FrictionModel, Input};

use super::band_lu::BandOrSparseLu;
use super::cosim::{Coupling, Link};
use super::dop853::Dop853;
use super::equations::EngineEquations;
use super::network::{Engine, RowKind};
use super::outcome::{Event, FlatOutcome, Mode, Outcome, Stats};
use super::radau::Radau5;
use super::rows::{Kept, Progress, RowOut, RowSink};
use super::stepper::{Diffsol, Stepper, Stop};
use crate::error::SimError;
use crate::scenario::{LinearAlgebra, Method};

/// Systems with at least this many states use sparse linear algebra (a
/// band LU after a bandwidth-reducing ordering, or faer's sparse LU when
/// the band would be wide, see `band_lu`); smaller ones dense (nalgebra).
/// Measured on chains of LuGre contacts (BDF, 2 s): 2 masses (10 states)
/// dense 0.57 against 0.61 ms, 3 masses (14 states) 1.10 against 1.04 ms,
/// 4 masses 1.53 against 1.31 ms, 8 masses 4.6 against 3.1 ms.
pub(crate) const SPARSE_FROM: usize = 12;

/// `auto` picks Radau5 for stiff networks of at most this many states
/// before the energy quadratures (positions, velocities, contact states),
/// without events of stick, stops or reversals. Measured (radau5 against
/// bdf): the LuGre stick-slip example (3 states) 0.75 / 1.19 ms at a
/// hundredth of the error, the LuGre FMU contact 0.11 / 0.17 ms, frictional
/// lag 1.18 / 1.64 ms, the LuGre sweep 1.25 / 1.38 ms, one mass on tanh
/// Coulomb (2 states) 0.18 / 0.17 ms; but two masses on LuGre (6 states)
/// 0.56 / 0.45 ms and on tanh Coulomb (4 states) 0.37 / 0.24 ms: Radau5 halves
/// the steps, and each costs three evaluations per Newton iteration and a
/// Jacobian of as many products as states. With events or slider kinks bdf
/// stays ahead (Iwan-4 loops 2.4 / 2.6 ms, coupled clutches 2.5 / 4.3 ms,
/// stick-slip with stops 7.3 / 8.7 ms).
pub(crate) const RADAU_UP_TO: usize = 3;

/// DOP853 controls its local error at this fraction of the scenario's
/// tolerances (as Hairer's RADAU5 integrates at an internal tolerance of its
/// own), so that its global error is no larger than that of the method
/// `auto` picked before it at the same setting. Coulomb free decay, rtol
/// 1e-9, largest error of the rows against the piecewise closed form: tsit45
/// 4.0e-11 m (276 steps); DOP853 at the tolerance itself 4.7e-10 m (44
/// steps, 0.050 ms with two rows), at a tenth of it 1.9e-11 m (59 steps,
/// 0.064 ms; see [`super::dop853`]).
pub(crate) const DOP853_TOL_SCALE: f64 = 0.1;

/// Host access to diffsol's vectors (one batch) as slices.
pub(crate) trait Host {
    fn host(&self) -> &[f64];
    fn host_mut(&mut self) -> &mut [f64];
}

impl Host for NalgebraVec<f64> {
    fn host(&self) -> &[f64] {
        self.batch_as_slice(0)
    }
    fn host_mut(&mut self) -> &mut [f64] {
        self.batch_as_mut_slice(0)
    }
}

impl Host for FaerVec<f64> {
    fn host(&self) -> &[f64] {
        self.inner().col_as_slice(0)
    }
    fn host_mut(&mut self) -> &mut [f64] {
        self.inner_mut().col_as_slice_mut(0)
    }
}

/// Where a run reports: its rows, its progress, and the master of a
/// co-simulation.
struct Hooks<'r, 'p, 'c> {
    rows: RowOut<'r>,
    progress: Option<Progress<'p>>,
    coupling: Option<&'c mut dyn Coupling>,
}

/// Set up diffsol's problem on matrix type `$m` with linear solver `$ls`
/// and integrate with `$method` (a macro: diffsol's solver constructors
/// carry bounds that a generic function would have to restate).
macro_rules! solve_with {
    ($e:expr, $m:ty, $ls:ty, $method:expr, $y0:expr, $atol:expr, $ev0:expr, $hooks:expr, $start:expr) => {{
        let (this, method, y0, atol, ev0, hooks, start): (&Engine<'_>, Method, &[f64], Vec<f64>, Vec<Event>, Hooks<'_, '_, '_>, Instant) =
            ($e, $method, $y0, $atol, $ev0, $hooks, $start);
        let st = &this.sys.solver;
        let h0 = (st.max_step.min(st.t_end) * 1e-3).max(1e-12);
        let setup = |e: String| SimError::Solver {
            t: 0.0,
            cause: format!("cannot set up the problem: {e}"),
            state: String::new(),
        };
        // explicit methods need no Jacobian
        let eqn = EngineEquations::<$m>::new(this, y0, method.is_implicit()).map_err(setup)?;
        let mut problem = OdeBuilder::<$m>::new()
            .t0(0.0)
            .h0(h0)
            .rtol(st.rtol)
            .atol(atol)
            .build_from_eqn(eqn)
            .map_err(|e| setup(e.to_string()))?;
        // diffsol counts Newton failures over the whole run; every mode change
        // costs a few, so only the step-size floor (min_timestep) ends a run
        problem.ode_options.max_nonlinear_solver_failures = usize::MAX / 4;
        match method {
            Method::Bdf => this.integrate(Diffsol::new(problem.bdf::<$ls>().map_err(setup_err)?), y0, ev0, hooks, start),
            Method::TrBdf2 => this.integrate(Diffsol::new(problem.tr_bdf2::<$ls>().map_err(setup_err)?), y0, ev0, hooks, start),
            Method::Esdirk34 => {
                this.integrate(Diffsol::new(problem.esdirk34::<$ls>().map_err(setup_err)?), y0, ev0, hooks, start)
            }
            _ => this.integrate(Diffsol::new(problem.tsit45().map_err(setup_err)?), y0, ev0, hooks, start),
        }
    }};
}

impl Engine<'_> {
    pub(crate) fn initial_state(&self) -> Vec<f64> {
        let sys = self.sys;
        let nb = self.nb;
        let mut y = vec![0.0; self.n];
        for (i, b) in sys.bodies.iter().enumerate() {
            y[i] = b.x0;
            y[nb + i] = b.v0;
        }
        let mut s = self.scr.borrow_mut();
        for (k, dr) in sys.drivers.iter().enumerate() {
            s.drv[k] = dr.motion.eval(0.0);
        }
        let mut d = self.disc.borrow_mut();
        for (c, ct) in sys.contacts.iter().enumerate() {
            let (xa, va) = self.pos(&y, &s, ct.between[0]);
            let (xb, vb) = self.pos(&y, &s, ct.between[1]);
            let nzc = ct.model.n_states();
            let off = self.z_off[c];
            let inp = Input::new(0.0, xa - xb, va - vb);
            let mut z = vec![0.0; nzc];
            ct.model.init(&inp, &mut z, &mut d.mem[c]);
            y[off..off + nzc].copy_from_slice(&z);
            d.dir[c] = friction_models::sign(va - vb);
        }
        y
    }

    /// Modes from the sign of each stuckable contact's relative velocity;
    /// contacts exactly at rest are settled jointly; contacts without normal
    /// load are free.
    pub(crate) fn initial_modes(&self, y: &mut [f64]) -> Result<Vec<Event>, SimError> {
        let mut d = self.disc.borrow().clone();
        {
            let mut s = self.scr.borrow_mut();
            self.eval(0.0, y, &d, &mut s, None);
            for c in 0..self.sys.contacts.len() {
                if self.stuckable[c] {
                    let v = s.vrel[c];
                    d.modes[c] = if self.sys.contacts[c].normal.value(0.0) <= 0.0 {
                        Mode::Free
                    } else if v > 0.0 {
                        Mode::Forward
                    } else if v < 0.0 {
                        Mode::Backward
                    } else {
                        Mode::Stuck
                    };
                }
            }
        }
        let mut arrived: Vec<RowKind> = (0..self.sys.contacts.len())
            .filter(|&c| d.modes[c] == Mode::Stuck)
            .map(RowKind::Contact)
            .collect();
        for (k, st) in self.sys.stops.iter().enumerate() {
            let x = y[st.body];
            if x == st.max || x == st.min {
                arrived.push(RowKind::Stop(k));
            }
        }
        let ev = self.settle(0.0, y, &mut d, &arrived, &[])?;
        *self.disc.borrow_mut() = d;
        Ok(ev)
    }

    /// Update hysteresis memory (and any state projection) after an accepted
    /// step ending at (t, y), and the direction of motion of contacts that
    /// turn at reversals. Returns true if the state or the force jumped, so
    /// the integrator must restart.
    fn accept(&self, t: f64, y: &mut [f64]) -> bool {
        let sys = self.sys;
        let mut jumped = false;
        let mut d = self.disc.borrow_mut();
        let mut s = self.scr.borrow_mut();
        s.drivers_at(&sys.drivers, t);
        for (c, ct) in sys.contacts.iter().enumerate() {
            let nzc = ct.model.n_states();
            if ct.model.n_memory() == 0 && nzc == 0 {
                continue;
            }
            let (xa, va) = self.pos(y, &s, ct.between[0]);
            let (xb, vb) = self.pos(y, &s, ct.between[1]);
            let v = va - vb;
            let inp = Input::new(t, xa - xb, v);
            let off = self.z_off[c];
            // the force is a function of (input, states, memory): without
            // memory, unchanged states mean an unchanged force
            let memory = ct.model.n_memory() > 0;
            let f0 = if memory { ct.model.force(&inp, &y[off..off + nzc], &d.mem[c]) } else { 0.0 };
            s.zbuf.clear();
            s.zbuf.extend_from_slice(&y[off..off + nzc]);
            ct.model.accept(&inp, &mut y[off..off + nzc], &mut d.mem[c]);
            if y[off..off + nzc] != s.zbuf[..] {
                jumped = true;
            } else if memory {
                let f1 = ct.model.force(&inp, &y[off..off + nzc], &d.mem[c]);
                if (f1 - f0).abs() > 1e-9 * (1.0 + f0.abs()) {
                    jumped = true;
                }
            }
            // the direction of motion, for the reversal roots; a reversal
            // itself flips it at its event
            if v.abs() > 2.0 * self.vtol(c) {
                d.dir[c] = v.signum();
            }
        }
        self.jac.borrow_mut().invalidate();
        jumped
    }

    /// The explicit method `auto` picks for a network without stiff
    /// contacts: DOP853, or Tsitouras 5(4) when a contact has hysteresis
    /// that turns at reversals (Iwan, Jenkins, Maxwell slip, GMS: their slip
    /// elements kink the equations between events, and DOP853's steps of
    /// order 8 are then rejected as often as accepted). Measured (dop853
    /// against tsit45, best of 50, two rows, at the examples' rtol): Coulomb
    /// free decay (1e-9) 44 / 276 steps, 0.050 / 0.160 ms (2501 rows 0.17 /
    /// 0.37 ms, columns x, v only 0.12 / 0.33 ms), clutch (1e-9) 0.055 /
    /// 0.130 ms, three-mass chain (1e-9) 0.059 / 0.099 ms, Olsson's two
    /// interfaces (1e-9) 0.073 / 0.082 ms, coupled clutches (1e-8) 0.46 /
    /// 0.64 ms, stick-slip with stops (1e-9) 3.25 / 3.50 ms (7001 rows 4.78 /
    /// 4.65 ms); at rtol 1e-6 too (free decay 0.040 / 0.087 ms, clutch 0.039
    /// / 0.067, coupled clutches 0.28 / 0.37). But the Iwan-4 joint's decay
    /// (1e-8) 7.2 / 3.0 ms (2,128 rejected steps for 1,754 accepted) and the
    /// Iwan-4 loops (1e-6) 2.0 / 1.8 ms. These figures are DOP853 at the
    /// scenario's tolerance itself; it now runs at a tenth of it
    /// (`DOP853_TOL_SCALE`): the free decay then takes 59 steps and 0.064 ms
    /// with two rows (0.12 ms with x and v at 2,501 rows); the other
    /// examples were not measured again.
    fn explicit_method(&self) -> Method {
        if self.root_rev.is_empty() {
            Method::Dop853
        } else {
            Method::Tsit45
        }
    }

    /// Run the simulation to the end (or to a failure, with a partial result).
    pub fn run(&self) -> Result<Outcome, SimError> {
        self.run_with(None, None)
    }

    /// [`Engine::run`] with the rows in one block (see [`FlatOutcome`]).
    pub fn run_flat(&self) -> Result<FlatOutcome, SimError> {
        let (o, kept) = self.run_full(None, None, None, true)?;
        Ok(FlatOutcome {
            columns: o.columns,
            units: o.units,
            data: kept.into_flat(),
            events: o.events,
            stats: o.stats,
            energy: o.energy,
            failure: o.failure,
        })
    }

    /// Run, streaming rows to `sink` (see [`super::simulate_streaming`]) and
    /// reporting progress (simulated time, events) at most every 0.1 s.
    pub fn run_with(
        &self,
        sink: Option<RowSink<'_>>,
        progress: Option<Progress<'_>>,
    ) -> Result<Outcome, SimError> {
        let (mut o, kept) = self.run_full(sink, progress, None, false)?;
        o.rows = kept.into_rows(o.columns.len());
        Ok(o)
    }

    /// [`Engine::run_with`], optionally as the slave of a co-simulation
    /// (see [`super::cosim`]); the outcome's rows are in [`Kept`] (in one
    /// block if `flat` or streamed).
    pub(crate) fn run_full(
        &self,
        sink: Option<RowSink<'_>>,
        progress: Option<Progress<'_>>,
        mut coupling: Option<&mut dyn Coupling>,
        flat: bool,
    ) -> Result<(Outcome, Kept), SimError> {
        let start = Instant::now();
        let sys = self.sys;
        let st = &sys.solver;
        let method = match st.method {
            Method::Auto => {
                if !sys.is_stiff() {
                    self.explicit_method()
                } else if self.q_off <= RADAU_UP_TO
                    && self.root_rev.is_empty()
                    && !self.stuckable.iter().any(|&s| s)
                    && sys.stops.is_empty()
                {
                    // one body or a driven contact, smooth, without events
                    // of stick, stops or reversals (see `RADAU_UP_TO`)
                    Method::Radau5
                } else {
                    Method::Bdf
                }
            }
            m => m,
        };
        let mut y0 = self.initial_state();
        let ev0 = self.initial_modes(&mut y0)?;
        let nb = self.nb;
        let mut atol = vec![st.atol_state; self.n];
        atol[..nb].fill(st.atol_position);
        atol[nb..2 * nb].fill(st.atol_velocity);
        // energy quadratures: they do not feed back into the motion (their
        // Jacobian rows are zero, see `jacobian`), but the energy per cycle
        // of a micro-slip loop is micro-joules, so their absolute tolerance is
        // a picojoule (1e-8 J gave 1 % on such loops). Integrating them as
        // diffsol outputs instead (outside the Newton iteration) made the
        // step sequence jumpy enough to upset the identifiability checks of
        // `friction fit` (finite-difference sensitivities), so they stay states.
        for a in atol.iter_mut().skip(self.q_off) {
            *a = 1e-12;
        }
        let hooks = Hooks {
            rows: RowOut::new(sink, self.keep.as_ref().map_or_else(|| sys.all_columns(), Vec::len), flat),
            progress,
            coupling: coupling.take(),
        };
        let sparse = method.is_implicit()
            && method != Method::Radau5
            && match st.linear_algebra {
                LinearAlgebra::Auto => self.n >= SPARSE_FROM,
                LinearAlgebra::Dense => false,
                LinearAlgebra::Sparse => true,
            };
        let (mut out, kept) = if method == Method::Radau5 {
            let h0 = (st.max_step.min(st.t_end) * 1e-3).max(1e-12);
            self.integrate(Radau5::new(self, 0.0, &y0, h0, st.rtol, atol), &y0, ev0, hooks, start)
        } else if method == Method::Dop853 {
            let h_max = st.max_step.min(st.t_end);
            let atol = atol.into_iter().map(|a| a * DOP853_TOL_SCALE).collect();
            let rtol = st.rtol * DOP853_TOL_SCALE;
            self.integrate(Dop853::new(self, 0.0, &y0, h_max, rtol, atol), &y0, ev0, hooks, start)
        } else if sparse {
            solve_with!(self, FaerSparseMat<f64>, BandOrSparseLu, method, &y0, atol, ev0, hooks, start)
        } else {
            solve_with!(self, NalgebraMat<f64>, NalgebraLU<f64>, method, &y0, atol, ev0, hooks, start)
        };
        out.stats.linear_algebra = if !method.is_implicit() {
            "none"
        } else if sparse {
            "sparse"
        } else {
            "dense"
        }
        .into();
        out.stats.wall_time = start.elapsed().as_secs_f64();
        out.stats.method = method.name().into();
        out.stats.rhs_evals = self.count.rhs.get();
        out.stats.jacobian_products = self.count.jvp.get();
        out.stats.lcp_solves = self.count.lcp_solves.get();
        out.stats.lcp_pivots = self.count.lcp_pivots.get();
        out.stats.lcp_max_size = self.count.lcp_max.get();
        out.stats.events_reversals = self.count.reversals.get();
        out.stats.events_engagement = self.count.engagements.get();
        out.stats.events_stops = out.events.iter().filter(|e| e.contact.starts_with("stop:")).count();
        out.stats.events_stick_slip = out
            .events
            .iter()
            .filter(|e| !e.contact.starts_with("stop:") && e.from != "free" && e.to != "free")
            .count();
        Ok((out, kept))
    }

    fn fail(&self, t: f64, cause: String, y: &[f64]) -> String {
        SimError::Solver { t, cause, state: self.state_text(y) }.to_string()
    }

    fn integrate<S: Stepper>(
        &self,
        mut solver: S,
        y0: &[f64],
        ev0: Vec<Event>,
        hooks: Hooks<'_, '_, '_>,
        start: Instant,
    ) -> (Outcome, Kept) {
        let Hooks { mut rows, mut progress, mut coupling } = hooks;
        let sys = self.sys;
        let st = &sys.solver;
        let t_end = st.t_end;
        let mut bps: Vec<f64> = Vec::new();
        for d in &sys.drivers {
            bps.extend(d.motion.breakpoints(t_end));
        }
        for f in &sys.forces {
            bps.extend(f.value.breakpoints(t_end));
        }
        for c in &sys.contacts {
            bps.extend(c.normal.breakpoints(t_end));
        }
        bps.push(t_end);
        bps.sort_by(|a, b| a.total_cmp(b));
        bps.dedup_by(|a, b| (*a - *b).abs() <= 1e-14 * (1.0 + b.abs()));
        let mut bp_i = 0;

        let mut events = ev0;
        let mut last_report = start;
        let out_dt = st.output_dt;
        let times: Vec<f64> = st.output_times.iter().flatten().copied().filter(|&t| t > 0.0).collect();
        // k-th output time after t = 0 (None: past the last or every step)
        let out_at = |k: usize| -> Option<f64> {
            if st.output_times.is_some() {
                times.get(k).copied()
            } else {
                out_dt.map(|dt| (k + 1) as f64 * dt)
            }
        };
        let every_step = st.output_times.is_none() && out_dt.is_none();
        let mut next_out_k: usize = 0;
        // the output times within a step (grown to the most a step holds)
        let mut row_times: Vec<f64> = Vec::with_capacity(64);
        // the output times the run will pass (`reserve` caps them; the cast saturates)
        if st.output_times.is_some() {
            rows.reserve(times.len() + 1);
        } else if let Some(dt) = out_dt {
            rows.reserve((t_end / dt).ceil() as usize + 2);
        }
        rows.push_with(|r| self.row_into(0.0, y0, r));
        let e0 = self.mechanical_energy(0.0, y0);
        let mut failure: Option<String> = None;
        let mut last_event_t = f64::NEG_INFINITY;
        let mut same_instant = 0usize;
        let mut tstop_set = f64::NAN;
        let mut y = vec![0.0; self.n];
        // the next communication point of a co-simulation (none: infinity)
        let mut next_comm = if coupling.is_some() { 0.0 } else { f64::INFINITY };

        loop {
            let t_now = solver.t();
            // the solver cannot take a step shorter than its minimum (1e-13 s):
            // times closer than this are the same instant
            let tol_t = 1e-12 * (1.0 + t_now.abs());
            if let Some(c) = coupling.as_mut() {
                if t_now >= next_comm - tol_t {
                    // a communication point: outputs read, inputs set (a breakpoint)
                    y.copy_from_slice(solver.y());
                    let mut link = Link::new(self, t_now, &mut y, &mut events);
                    let next = c.communicate(&mut link);
                    let (restart, err) = link.finish();
                    if let Some(e) = err {
                        failure = Some(e);
                        break;
                    }
                    if restart {
                        solver.restart(self, t_now, &y);
                    }
                    match next {
                        Some(tn) if tn > t_now + tol_t && tn <= t_end + tol_t => next_comm = tn.min(t_end),
                        Some(tn) => {
                            failure = Some(format!(
                                "t = {t_now}: the next communication point {tn} is not in (t, t_end = {t_end}]"
                            ));
                            break;
                        }
                        None => break,
                    }
                    continue;
                }
            }
            if t_now >= t_end - tol_t {
                break;
            }
            while bp_i < bps.len() && bps[bp_i] < t_now - tol_t {
                bp_i += 1;
            }
            if bp_i < bps.len() && bps[bp_i] <= t_now + tol_t {
                // a breakpoint reached (or stopped short of by rounding) and not
                // yet handled: the schedules jump here, at the breakpoint itself
                let t_b = bps[bp_i];
                bp_i += 1;
                y.copy_from_slice(solver.y());
                match self.handle_breakpoint(t_b, &mut y) {
                    Ok(evs) => events.extend(evs),
                    Err(e) => {
                        failure = Some(e.to_string());
                        break;
                    }
                }
                solver.restart(self, t_b, &y);
                continue;
            }
            let next_bp = if bp_i < bps.len() { bps[bp_i] } else { t_end };
            let tstop = next_bp.min(t_now + st.max_step).min(next_comm);
            if tstop != tstop_set || solver.t() >= tstop_set {
                if let Err(e) = solver.set_stop_time(tstop) {
                    failure = Some(format!("t = {t_now}: cannot set stop time {tstop}: {e}"));
                    break;
                }
                tstop_set = tstop;
            }
            if let Some(e) = rows.error.take() {
                failure = Some(format!("t = {t_now}: cannot write the output: {e}"));
                break;
            }
            if let Some(p) = progress.as_mut() {
                if last_report.elapsed().as_secs_f64() >= 0.1 {
                    p(t_now, events.len());
                    last_report = Instant::now();
                }
            }
            if let Some(w) = st.max_wall {
                if start.elapsed().as_secs_f64() > w {
                    y.copy_from_slice(solver.y());
                    failure = Some(self.fail(
                        t_now,
                        format!(
                            "stopped after max_wall = {w} s of wall-clock time (raise `[solver] max_wall` or `--max-wall`)"
                        ),
                        &y,
                    ));
                    break;
                }
            }
            if solver.stats().steps >= st.max_steps {
                y.copy_from_slice(solver.y());
                let h = t_now / st.max_steps.max(1) as f64;
                failure = Some(self.fail(
                    t_now,
                    format!(
                        "more than max_steps = {} accepted steps (mean step {h:.3e} s); the fastest parts: {}; \
                         raise `[solver] max_steps`, or soften what makes the steps small (a lower \
                         regularisation steepness or bristle stiffness, a heavier body, a softer spring)",
                        st.max_steps,
                        self.stiffness_hint()
                    ),
                    &y,
                ));
                break;
            }
            let reason = match solver.step() {
                Ok(r) => r,
                Err(e) => {
                    y.copy_from_slice(solver.y());
                    failure = Some(self.fail(solver.t(), e.to_string(), &y));
                    break;
                }
            };
            let t_step = solver.t();
            let t_acc = match reason {
                Stop::Root(tr, _) => tr,
                _ => t_step,
            };
            // outputs up to t_acc with the memory of the step's start
            if every_step {
                match reason {
                    Stop::Root(tr, _) => {
                        if solver.interpolate(tr, &mut y).is_err() {
                            y.copy_from_slice(solver.y());
                        }
                    }
                    _ => y.copy_from_slice(solver.y()),
                }
                rows.push_with(|r| self.row_into(t_acc, &y, r));
            } else {
                // the output times within the step
                row_times.clear();
                let lim = (t_acc * (1.0 + 1e-13)).min(t_end * (1.0 + 1e-12));
                match (st.output_times.is_some(), out_dt) {
                    (false, Some(dt)) => {
                        // a uniform grid: its times up to `lim` counted at
                        // once, then written in one pass (one test and push
                        // per row were 2.7 ns of a row's 10)
                        let k_end = super::rows::grid_end(next_out_k, dt, lim);
                        row_times.extend((next_out_k..k_end).map(|k| ((k + 1) as f64 * dt).min(t_end)));
                        next_out_k = k_end;
                    }
                    _ => {
                        while let Some(to) = out_at(next_out_k) {
                            if to > lim {
                                break;
                            }
                            row_times.push(to.min(t_end));
                            next_out_k += 1;
                        }
                    }
                }
                // rows of states only, kept in one block: written there by
                // the method at once, its dense output evaluated for the
                // columns only (free decay with x, v every millisecond,
                // 2,501 rows: 113 -> 94 µs; LuGre example with x, v, z,
                // 4,001 rows, rtol 1e-4: 480 -> 452 µs; alternating runs)
                let at_once = self.row_states_only
                    && rows.is_block()
                    && !row_times.is_empty()
                    && solver.dense_rows(&row_times, &self.row_cols, rows.block());
                if !at_once {
                    for &to in &row_times {
                        if (to - t_step).abs() <= 1e-15 * (1.0 + t_step.abs()) {
                            y.copy_from_slice(solver.y());
                        } else {
                            // the rows read no energy quadrature
                            if solver.interpolate_states(to, &mut y, self.q_off).is_err() {
                                y.copy_from_slice(solver.y());
                            }
                        }
                        rows.push_with(|r| self.row_into(to, &y, r));
                    }
                }
            }

            if let Stop::Root(tr, idx) = reason {
                if let Err(e) = solver.move_back(tr) {
                    failure = Some(format!("t = {tr}: cannot move to the event: {e}"));
                    break;
                }
                y.copy_from_slice(solver.y());
                self.accept(tr, &mut y);
                // a root on a breakpoint: the loop handles the jump next
                let res = self.handle_root(tr, &mut y, idx);
                let evs = match res {
                    Ok(evs) => evs,
                    Err(e) => {
                        failure = Some(e.to_string());
                        break;
                    }
                };
                // reversals of hysteresis contacts are not mode changes
                if !evs.is_empty() {
                    if (tr - last_event_t).abs() <= 1e-12 * (1.0 + tr.abs()) {
                        same_instant += 1;
                    } else {
                        same_instant = 0;
                    }
                    last_event_t = tr;
                }
                events.extend(evs);
                if same_instant > 50 {
                    failure =
                        Some(self.fail(tr, "chattering: more than 50 events at the same instant".into(), &y));
                    break;
                }
                solver.restart(self, tr, &y);
                continue;
            }

            // accepted step (internal or at a stop time)
            y.copy_from_slice(solver.y());
            if let Some(bad) = y.iter().position(|v| !v.is_finite()) {
                failure = Some(self.fail(t_step, format!("non-finite state component {bad}"), &y));
                break;
            }
            let mut restart = self.accept(t_step, &mut y);
            let over = {
                let d = self.disc.borrow();
                if d.rows.is_empty() {
                    Vec::new()
                } else {
                    self.at_limit(t_step, &y, &d, -1e-9)
                }
            };
            if !over.is_empty() || self.missed_event(t_step, &y) {
                // a crossing the root finder could not see (it started on the
                // wrong side of zero): handle it now
                match self.resolve_missed(t_step, &mut y, &over) {
                    Ok(evs) => events.extend(evs),
                    Err(e) => {
                        failure = Some(e.to_string());
                        break;
                    }
                }
                restart = true;
            }
            if restart {
                solver.restart(self, t_step, &y);
            }
        }

        let y_end = solver.y().to_vec();
        let t_last = solver.t();
        let energy = self.energy_balance(e0, t_last, &y_end, &y_end[self.q_off..]);
        let ms = solver.stats();
        if let Some(p) = progress.as_mut() {
            p(t_last, events.len());
        }
        let (kept, n_rows, row_err) = rows.finish();
        if let (Some(e), None) = (row_err, &failure) {
            failure = Some(format!("cannot write the output: {e}"));
        }
        let out = Outcome {
            columns: self.columns(),
            units: crate::units::kept_column_units(self.sys, self.keep.as_deref()),
            rows: Vec::new(),
            events,
            stats: Stats {
                steps: ms.steps,
                rejected: ms.rejected,
                rows: n_rows,
                newton_iterations: ms.newton_iterations,
                newton_failures: ms.newton_failures,
                factorisations: ms.factorisations,
                ..Default::default()
            },
            energy,
            failure,
        };
        (out, kept)
    }
}

fn setup_err(e: diffsol::DiffsolError) -> SimError {
    SimError::Solver { t: 0.0, cause: format!("cannot start the solver: {e}"), state: String::new() }
}
