//! The integration loop: steps, roots, breakpoints of the schedules, output
//! times, memory updates on accepted steps, and restarts after events.

use std::time::Instant;

use friction_models::{FrictionModel, Input};

use crate::engine::integrate::budget::{Budget, Verdict};
use crate::engine::integrate::cosim::{Coupling, Link};
use crate::engine::integrate::stepper::{Stepper, Stop};
use crate::engine::network::rows::{Kept, Progress, RowOut};
use crate::engine::network::Engine;
use crate::engine::outcome::{Energy, Event, Outcome, Stats};
use crate::error::SimError;

/// Where a run reports: its rows, its progress, and the master of a
/// co-simulation.
pub(crate) struct Hooks<'r, 'p, 'c> {
    pub rows: RowOut<'r>,
    pub progress: Option<Progress<'p>>,
    pub coupling: Option<&'c mut dyn Coupling>,
}

impl Engine<'_> {
    /// Update hysteresis memory (and any state projection) after an accepted
    /// step ending at (t, y), and the direction of motion of contacts that
    /// turn at reversals. Returns true if the state or the force jumped, so
    /// the integrator must restart.
    fn accept(&self, t: f64, y: &mut [f64]) -> bool {
        let sys = &*self.sys;
        let mut jumped = false;
        let mut d = self.disc.borrow_mut();
        let mut s = self.scr.borrow_mut();
        s.drivers_at(&sys.drivers, t);
        // the index of the contact's first turning-point function
        let mut k_turn = 0;
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
            // a model that follows a temperature: at the temperature of `y`
            let tm = self.model_at_temp(y, c);
            let model = tm.as_ref().unwrap_or(&ct.model);
            let f0 = if memory { model.force(&inp, &y[off..off + nzc], &d.mem[c]) } else { 0.0 };
            s.zbuf.clear();
            s.zbuf.extend_from_slice(&y[off..off + nzc]);
            model.accept(&inp, &mut y[off..off + nzc], &mut d.mem[c]);
            if y[off..off + nzc] != s.zbuf[..] {
                jumped = true;
            } else if memory {
                let f1 = model.force(&inp, &y[off..off + nzc], &d.mem[c]);
                if (f1 - f0).abs() > 1e-9 * (1.0 + f0.abs()) {
                    jumped = true;
                }
            }
            // the signs of the turning-point functions under the new memory
            let n_turns = ct.model.n_turns();
            if n_turns > 0 {
                jumped |= self.accept_turns(t, y, c, k_turn, &mut d, &mut s);
                k_turn += n_turns;
            }
            // the direction of motion, for the reversal roots; a reversal
            // itself flips it at its event
            if v.abs() > 2.0 * self.vtol(c) {
                d.dir[c] = v.signum();
            }
        }
        if !self.planes.is_empty() {
            self.disk_accept(y, &mut d, &s);
        }
        self.jac.borrow_mut().invalidate();
        jumped
    }

    fn fail(&self, t: f64, cause: String, y: &[f64]) -> String {
        SimError::Solver { t, cause, state: self.state_text(y) }.to_string()
    }

    pub(crate) fn integrate<S: Stepper>(
        &self,
        mut solver: S,
        y0: &[f64],
        ev0: Vec<Event>,
        hooks: Hooks<'_, '_, '_>,
        start: Instant,
    ) -> (Outcome, Kept) {
        let Hooks { mut rows, mut progress, mut coupling } = hooks;
        let sys = &*self.sys;
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
        // whether a schedule jumps at t_end itself (else the row there reads
        // the schedules at t_end, not at its left limit)
        let jump_at_end = bps.iter().any(|&b| (b - t_end).abs() <= 1e-14 * (1.0 + t_end.abs()));
        bps.push(t_end);
        bps.sort_by(|a, b| a.total_cmp(b));
        bps.dedup_by(|a, b| (*a - *b).abs() <= 1e-14 * (1.0 + b.abs()));
        let mut bp_i = 0;

        let mut events = ev0;
        let mut last_report = 0.0;
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
        // as given, before the impulses of t = 0 (booked under impacts)
        let e0 = self.start_energy.take().unwrap_or_else(|| self.mechanical_energy(0.0, y0));
        let mut failure: Option<String> = None;
        let mut last_event_t = f64::NEG_INFINITY;
        let mut same_instant = 0usize;
        let mut tstop_set = f64::NAN;
        let mut y = vec![0.0; self.n];
        // a state on the last step's dense output (`interior_arrival`)
        let mut y_in = vec![0.0; self.n];
        // the next communication point of a co-simulation (none: infinity)
        let mut next_comm = if coupling.is_some() { 0.0 } else { f64::INFINITY };
        // max_wall and its pilot's estimate (see `budget`); the clock is read
        // every few passes, not every step
        let mut budget = Budget::new(start, st.max_wall, solver.t(), t_end);

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
            // the jump a row may sit on (none past the last breakpoint)
            let row_bp = match bps.get(bp_i) {
                Some(&b) if b < t_end || jump_at_end => b,
                _ => f64::INFINITY,
            };
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
            if budget.tick() {
                let elapsed = budget.elapsed();
                if let Some(p) = progress.as_mut() {
                    if elapsed - last_report >= 0.1 {
                        p(t_now, events.len());
                        last_report = elapsed;
                    }
                }
                let cause = match budget.check(elapsed, t_now, solver.stats().steps) {
                    Verdict::Go => None,
                    Verdict::Refuse(why) => Some(why),
                    Verdict::Spent(w) => Some(format!(
                        "stopped after max_wall = {w} s of wall-clock time (raise `[solver] max_wall` or `--max-wall`)"
                    )),
                };
                if let Some(cause) = cause {
                    y.copy_from_slice(solver.y());
                    failure = Some(self.fail(t_now, cause, &y));
                    break;
                }
            }
            if solver.stats().steps >= st.max_steps {
                y.copy_from_slice(solver.y());
                let h = t_now / st.max_steps.max(1) as f64;
                failure = Some(self.fail(
                    t_now,
                    format!(
                        "more than max_steps = {} accepted steps (mean step {h:.3e} s); the fastest \
                         parts: {}; raise `[solver] max_steps`, choose an implicit `method` (bdf, radau5) \
                         for a stiff network, or soften what makes the steps small (a lower regularisation \
                         steepness or bristle stiffness, a heavier body, a softer spring or gap)",
                        st.max_steps,
                        self.fastest_parts()
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
            // a step that ends on a non-finite time or state (an implicit
            // method's Newton iteration that diverged on a stiff kink) ends
            // the run here, before any row of it is written
            if let Some(cause) = self.non_finite(t_now, t_step, solver.y()) {
                y.copy_from_slice(solver.y());
                failure = Some(self.fail(t_now, cause, &y));
                break;
            }
            // crossings inside the step that its ends do not show: a stick
            // shorter than the step (`interior_arrival`), a stuck contact's
            // capacity dipping under its force or a stop's force turning to
            // a pull (`interior_crossing`, issue 50); the earlier cuts the
            // step like a root
            // (up to a root the solver found, which they may precede: a
            // contact's capacity dipping under its force in a long step that
            // ends where another contact's normal load reaches zero)
            let reason = {
                let (end, found) = match reason {
                    Stop::Root(tr, _) => (tr, true),
                    _ => (t_step, false),
                };
                let arrival = self.interior_arrival(&solver, t_now, end, &mut y_in);
                let q_off = self.q_off;
                let mut interp = |t: f64, y: &mut [f64]| {
                    if t == t_step {
                        y.copy_from_slice(solver.y());
                        true
                    } else {
                        solver.interpolate_states(t, y, q_off).is_ok()
                    }
                };
                let crossing = self.interior_crossing(t_now, end, &mut interp);
                let first = match (arrival, crossing) {
                    (Some(a), Some(c)) => Some(if c.0 < a.0 { c } else { a }),
                    (a, c) => a.or(c),
                };
                match first {
                    // strictly before the solver's root: it comes first
                    Some((tr, idx)) if !found || tr < end => {
                        // diffsol forgets a stop time it reached: set it again
                        tstop_set = f64::NAN;
                        Stop::Root(tr, idx)
                    }
                    _ => reason,
                }
            };
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
                let ts = Self::schedule_time_of_row(t_acc, row_bp);
                self.hold_exactly(ts, &mut y);
                rows.push_with(|r| self.row_into_at(t_acc, ts, &y, r));
            } else {
                // the output times within the step
                row_times.clear();
                let mut lim = (t_acc * (1.0 + 1e-13)).min(t_end * (1.0 + 1e-12));
                // a step that ends at a breakpoint, or stops short of it by
                // rounding (the loop then handles the jump at once), writes
                // the rows at the breakpoint too: every row there shows the
                // left limit, not only those the rounding happens to put
                // before the jump (else a sample of a tabulated motion
                // showed the next segment's speed in a few rows, and a fit's
                // difference quotients jumped with the rounding)
                if (t_acc - row_bp).abs() <= tol_t {
                    lim = lim.max(row_bp * (1.0 + 1e-13)).min(t_end * (1.0 + 1e-12));
                }
                match (st.output_times.is_some(), out_dt) {
                    (false, Some(dt)) => {
                        // a uniform grid: its times up to `lim` counted at
                        // once, then written in one pass (one test and push
                        // per row were 2.7 ns of a row's 10)
                        let k_end = crate::engine::network::rows::grid_end(next_out_k, dt, lim);
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
                // (with bodies held at rest to the ground or a driver, their
                // velocities then set to the anchors': `held.rs`)
                let at_once = match &self.row_cols {
                    Some(cols) if rows.is_block() && !row_times.is_empty() && self.holds_only_anchored() => {
                        let start = rows.block().len();
                        let written = solver.dense_rows(&row_times, cols, rows.block());
                        if written && self.holds_any() {
                            self.hold_rows_written(&row_times, row_bp, cols, &mut rows.block()[start..]);
                        }
                        written
                    }
                    _ => false,
                };
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
                        let ts = Self::schedule_time_of_row(to, row_bp);
                        self.hold_exactly(ts, &mut y);
                        rows.push_with(|r| self.row_into_at(to, ts, &y, r));
                    }
                }
            }

            if let Stop::Root(tr, idx) = reason {
                if let Err(e) = solver.move_back(tr) {
                    failure = Some(format!("t = {tr}: cannot move to the event: {e}"));
                    break;
                }
                y.copy_from_slice(solver.y());
                if let Some(cause) = self.non_finite(t_now, tr, &y) {
                    failure = Some(self.fail(t_now, cause, &y));
                    break;
                }
                self.accept(tr, &mut y);
                // a gap's contact starting or ending (logged, no mode change)
                let gap_ev = self.gap_event(tr, &y, idx);
                // a root on a breakpoint: the loop handles the jump next
                let res = self.handle_root(tr, &mut y, idx);
                let evs = match res {
                    Ok(mut evs) => {
                        evs.extend(gap_ev);
                        evs
                    }
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
        if failure.is_none() {
            // no run reports success short of its end or on a figure that is
            // not a number (a co-simulation's master may end it early)
            let tol_end = 1e-9 * (1.0 + t_end.abs());
            let short = t_last.is_nan() || (coupling.is_none() && t_last < t_end - tol_end);
            if let Some(cause) = self.non_finite(t_last, t_last, &y_end) {
                failure = Some(self.fail(t_last, cause, &y_end));
            } else if short {
                failure = Some(self.fail(
                    t_last,
                    format!("the method stopped at t = {t_last} before t_end = {t_end} without an error"),
                    &y_end,
                ));
            } else if let Some(what) = non_finite_energy(&energy) {
                failure =
                    Some(self.fail(t_last, format!("the energy balance's {what} is not finite"), &y_end));
            }
        }
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
            units: crate::system::units::kept_units_with(&self.sys, &self.plane_units, self.keep.as_deref()),
            rows: Vec::new(),
            events,
            stats: Stats {
                steps: ms.steps,
                rejected: ms.rejected,
                rows: n_rows,
                newton_iterations: ms.newton_iterations,
                newton_failures: ms.newton_failures,
                factorisations: ms.factorisations,
                linear_algebra: if ms.sparse { "sparse".into() } else { String::new() },
                ..Default::default()
            },
            energy,
            failure,
            warnings: self.indeterminate_warnings(),
        };
        (out, kept)
    }
}

impl Engine<'_> {
    /// Why a step from `t0` ending at `t` in state `y` cannot be kept: a
    /// non-finite time or state component, named (`x.BODY`, `v.BODY`,
    /// `z.CONTACT.k`, an energy quadrature). `None`: all finite.
    pub(crate) fn non_finite(&self, t0: f64, t: f64, y: &[f64]) -> Option<String> {
        if !t.is_finite() {
            return Some(format!("the step from t = {t0} ended at the non-finite time {t}"));
        }
        let k = y.iter().position(|v| !v.is_finite())?;
        Some(format!(
            "the step from t = {t0} to {t} gave the non-finite value {} of {} (the method diverged: \
             try a smaller `max_step`, tighter tolerances or another `method`)",
            y[k],
            self.state_name(k)
        ))
    }

    /// The name of state component `k` for messages.
    pub(crate) fn state_name(&self, k: usize) -> String {
        let sys = &*self.sys;
        if k < self.nb {
            return sys.bodies[k].columns().0;
        }
        if k < 2 * self.nb {
            return sys.bodies[k - self.nb].columns().1;
        }
        if k >= self.heat.t_off && k < self.q_off {
            if let Some(n) = self.heat.state.iter().position(|&s| s == Some(k)) {
                return format!("T.{}", self.sys.thermal.nodes[n].name);
            }
        }
        if let Some(p) = self.planes.iter().rev().find(|p| p.z_off <= k && k < p.z_off + p.law.n_states()) {
            return format!("z.{}.{}", p.name, k - p.z_off);
        }
        if k < self.q_off {
            if let Some(c) = (0..sys.contacts.len()).rev().find(|&c| self.z_off[c] <= k) {
                return format!("z.{}.{}", sys.contacts[c].name, k - self.z_off[c]);
            }
        }
        format!("energy quadrature {}", k.saturating_sub(self.q_off))
    }
}

/// The first figure of the energy balance that is not finite, named.
fn non_finite_energy(e: &Energy) -> Option<String> {
    let mut figures: Vec<(String, f64)> = vec![
        ("work_forces".into(), e.work_forces),
        ("work_drivers".into(), e.work_drivers),
        ("kinetic_start".into(), e.kinetic.0),
        ("kinetic_end".into(), e.kinetic.1),
        ("spring_start".into(), e.spring.0),
        ("spring_end".into(), e.spring.1),
        ("impacts".into(), e.impacts),
        ("residual".into(), e.residual),
        ("dissipated_total".into(), e.dissipated_total()),
    ];
    for (kind, list) in [("contacts", &e.contacts), ("dampers", &e.dampers), ("gaps", &e.gaps)] {
        figures.extend(list.iter().map(|(n, w)| (format!("{kind}.{n}"), *w)));
    }
    figures.into_iter().find(|f| !f.1.is_finite()).map(|f| format!("{} = {}", f.0, f.1))
}
