//! Root functions (what diffsol's root finder watches) and what each root
//! means: arrivals at rest, break-aways, stop impacts and releases, normal
//! loads crossing zero, and reversals and turning points of hysteresis
//! contacts.

use friction_models::FrictionModel;

use crate::engine::network::{Discrete, Engine, RowKind, StopMode};
use crate::engine::outcome::{Event, Mode};
use crate::error::SimError;

/// Margin on the normal-load roots, so that a contact engaged or released
/// at a crossing starts on the right side of it.
const NORMAL_EPS: f64 = 1e-12;

/// How far a stuck force `f` is inside a one-sided range `[lo, hi]` (a
/// one-way clutch's), widened by the relative margin `rel`, plus an absolute
/// margin so that an unloaded clutch at a zero bound holds: the root of a
/// stuck contact with such a range (`rel` = 1e-9) and its break-away test
/// (at the limit when `<= 0` with `-rel`).
fn one_way_margin(lo: f64, hi: f64, f: f64, rel: f64) -> f64 {
    let e = 1e-12 * (1.0 + f.abs());
    (hi * (1.0 + rel) + e - f).min(f - lo * (1.0 + rel) + e)
}

impl Engine<'_> {
    /// Root functions at (t, y) under the current modes; layout
    /// `[contacts | 2 per stop | normal crossings | reversals | turning
    /// points | 2 per gap | 1 per contact in a plane with a mode]`.
    pub(crate) fn roots(&self, t: f64, y: &[f64], g: &mut [f64]) {
        if g.is_empty() {
            // no event can happen (`nroots` is 0)
            return;
        }
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        // the forces are needed only for contacts stuck and stops at rest;
        // relative velocities come from the state alone (most steps of most
        // systems need no evaluation here)
        let forces = d.modes.contains(&Mode::Stuck)
            || d.stops.iter().any(|m| *m != StopMode::Free)
            || self.disk_held(&d);
        if forces {
            self.eval(t, y, &d, &mut s, None);
        } else if !self.root_rev.is_empty()
            || self.n_turn > 0
            || d.modes.iter().any(|m| matches!(m, Mode::Forward | Mode::Backward))
        {
            s.drivers_at(&self.sys.drivers, t);
            for (c, ct) in self.sys.contacts.iter().enumerate() {
                s.vrel[c] = self.pos(y, &s, ct.between[0]).1 - self.pos(y, &s, ct.between[1]).1;
            }
        }
        g.fill(1.0);
        for c in 0..self.sys.contacts.len() {
            g[c] = match d.modes[c] {
                Mode::Smooth | Mode::Free => 1.0,
                // the least positive margin: a contact that broke away from
                // rest starts exactly at v = 0, and a root starting at zero
                // shows no sign change (a* b < 0) when the contact comes
                // back through zero within the first step (issue 50: slid
                // backward with the forward force for 15 ms)
                Mode::Forward => s.vrel[c] - self.cmodel(&s, c).stick_band() + f64::MIN_POSITIVE,
                Mode::Backward => -s.vrel[c] - self.cmodel(&s, c).stick_band() + f64::MIN_POSITIVE,
                Mode::Stuck => match self.cmodel(&s, c).static_range(&[], &d.mem[c]) {
                    Some((lo, hi)) if lo != -hi => {
                        let n = s.normal[c];
                        one_way_margin(lo * n, hi * n, s.fc[c], 1e-9)
                    }
                    range => {
                        let fs = range.map_or(0.0, |r| r.1) * s.normal[c];
                        // a margin above the settle test, so that a contact
                        // stuck exactly at its limit starts on the positive side
                        fs * (1.0 + 1e-9) - s.fc[c].abs()
                    }
                },
            };
        }
        let nc = self.sys.contacts.len();
        for (k, st) in self.sys.stops.iter().enumerate() {
            let x = y[st.body];
            let (g0, g1) = match d.stops[k] {
                // a body that bounced off a stop starts exactly at its limit,
                // and a root starting at zero shows the root finder no sign
                // change when the body comes back within the step:
                // `interior_crossing` looks for that return (a least positive
                // margin here made diffsol's root finder fail on the
                // bouncing example)
                StopMode::Free => (x - st.min, st.max - x),
                StopMode::AtMax => {
                    let l = self.stop_lambda(&d, &s.lam, k);
                    (l + 1e-12 * (1.0 + l.abs()), 1.0)
                }
                StopMode::AtMin => {
                    let l = -self.stop_lambda(&d, &s.lam, k);
                    (1.0, l + 1e-12 * (1.0 + l.abs()))
                }
            };
            g[nc + 2 * k] = if g0.is_finite() { g0 } else { 1.0 };
            g[nc + 2 * k + 1] = if g1.is_finite() { g1 } else { 1.0 };
        }
        // bundles (parallel rows): they hold while their contacts can carry
        // the total; a stop among them releases only with them
        for (b, &(cap, load)) in d.plan.bundles.iter().zip(&s.bundle_load) {
            let margin = cap * (1.0 + 1e-9) - load;
            for &(j, _) in d.plan.members_of(b) {
                match d.rows[j].kind {
                    RowKind::Contact(c) => g[c] = margin,
                    RowKind::Stop(k) => {
                        g[nc + 2 * k] = 1.0;
                        g[nc + 2 * k + 1] = 1.0;
                    }
                }
            }
        }
        let off = nc + 2 * self.sys.stops.len();
        if self.normal_gaps {
            s.drivers_at(&self.sys.drivers, t);
        }
        for (i, &c) in self.root_normal.iter().enumerate() {
            let raw = self.raw_normal(t, y, &s, c);
            g[off + i] = if d.modes[c] == Mode::Free { raw - NORMAL_EPS } else { raw + NORMAL_EPS };
        }
        let off = off + self.root_normal.len();
        for (i, &c) in self.root_rev.iter().enumerate() {
            g[off + i] = if d.dir[c] == 0.0 { 1.0 } else { d.dir[c] * s.vrel[c] + self.vtol(c) };
        }
        let off = off + self.root_rev.len();
        self.turn_roots(t, y, &d, &s, &mut g[off..self.root_gap]);
        if !self.sys.gaps.is_empty() {
            self.gap_roots(t, y, &mut s, &mut g[self.root_gap..self.root_plane]);
        }
        if !self.plane_roots.is_empty() {
            s.drivers_at(&self.sys.drivers, t);
            self.plane_roots_into(y, &d, &s, &mut g[self.root_plane..]);
        }
    }

    fn stop_lambda(&self, d: &Discrete, lam: &[f64], k: usize) -> f64 {
        d.rows.iter().position(|r| r.kind == RowKind::Stop(k)).map(|j| lam[j]).unwrap_or(0.0)
    }

    /// Engage or release stuckable contacts whose normal load changed sign.
    /// Engaged contacts that are moving slide; those at rest are put stuck
    /// and returned as arrivals for the joint decision, which may make them
    /// slide at once.
    fn engagement(&self, t: f64, y: &[f64], events: &mut Vec<Event>) -> Vec<RowKind> {
        let mut arrived = Vec::new();
        let mut d = self.disc.borrow_mut();
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, None);
        let mut changed = false;
        for c in 0..self.sys.contacts.len() {
            if !self.stuckable[c] {
                continue;
            }
            let raw = self.raw_normal(t, y, &s, c);
            let from = d.modes[c];
            let to = if raw <= 0.0 {
                Mode::Free
            } else if from == Mode::Free {
                let v = s.vrel[c];
                if v > self.vtol(c) {
                    Mode::Forward
                } else if v < -self.vtol(c) {
                    Mode::Backward
                } else {
                    arrived.push(RowKind::Contact(c));
                    Mode::Stuck
                }
            } else {
                from
            };
            if to != from {
                changed = true;
                d.modes[c] = to;
                self.count.engagements.set(self.count.engagements.get() + 1);
                events.push(Event {
                    t,
                    contact: self.sys.contacts[c].name.clone(),
                    from: from.name().into(),
                    to: to.name().into(),
                });
            }
        }
        drop(s);
        if changed {
            self.rebuild_rows(&mut d);
        }
        arrived
    }

    /// Handle a root found at `t` (root index `idx`).
    pub(crate) fn handle_root(&self, t: f64, y: &mut [f64], idx: usize) -> Result<Vec<Event>, SimError> {
        let nc = self.sys.contacts.len();
        let nstop = 2 * self.sys.stops.len();
        let mut events = Vec::new();
        // a normal load may have jumped through zero at this very instant
        // (a root on a schedule's breakpoint): engagement first
        let mut arrived = self.engagement(t, y, &mut events);
        let engaged_sliding =
            events.iter().any(|e| e.from == Mode::Free.name() && e.to != Mode::Stuck.name());
        if idx >= self.root_plane && !self.plane_roots.is_empty() {
            // a Jenkins slider in a plane reaching its rim or unloading, a
            // contact on a friction disk breaking away or arriving
            events.extend(self.plane_event(t, y, idx - self.root_plane));
            if !arrived.is_empty() {
                events.extend(self.resolve(t, y, arrived, &[], &[])?);
            }
            return Ok(events);
        }
        if idx >= self.root_gap && !self.sys.gaps.is_empty() {
            // a gap's contact starting or ending, or its damping limit
            // switching: a kink of a force, no mode changes (a contact on
            // a friction disk losing its load or landing at rest excepted)
            if !arrived.is_empty() {
                events.extend(self.resolve(t, y, arrived, &[], &[])?);
            }
            events.extend(self.disk_recheck(t, y));
            return Ok(events);
        }
        // read in place (a copy cloned every contact's memory); released
        // before the discrete state changes below
        let d = self.disc.borrow();
        let mut must_slide = Vec::new();
        let mut impacts = Vec::new();
        if idx < nc {
            match d.modes[idx] {
                Mode::Forward | Mode::Backward => {
                    // with a stick band (Karnopp) the root also fires when the
                    // contact speeds up out of the band after a break-away:
                    // only entering the band is an arrival
                    let dir = if d.modes[idx] == Mode::Forward { 1.0 } else { -1.0 };
                    let leaving = {
                        let mut s = self.scr.borrow_mut();
                        self.eval(t, y, &d, &mut s, None);
                        self.sys.contacts[idx].model.stick_band() > 0.0
                            && dir * self.rel_acc(&s, &self.contact_row(idx)) > 0.0
                    };
                    if !leaving {
                        arrived.push(RowKind::Contact(idx));
                    }
                }
                // |λ| reached N Fs: the contact cannot stay stuck, nor can any
                // other stuck contact that reached its limit at the same instant
                Mode::Stuck => {
                    must_slide.push(idx);
                    must_slide.extend(self.at_limit(t, y, &d, 1e-9).into_iter().filter(|&c| c != idx));
                }
                Mode::Smooth | Mode::Free => {}
            }
        } else if idx < nc + nstop {
            let k = (idx - nc) / 2;
            if d.stops[k] == StopMode::Free {
                impacts.push(k);
            } else {
                // its force reached zero on the way to a pull: the stop
                // releases (at the root the decision sees no force and no
                // acceleration away, and would keep it; issue 50, seed 9)
                must_slide.push(nc + k);
            }
        } else if idx < nc + nstop + self.root_normal.len() {
            // handled by the engagement check above
        } else if idx >= nc + nstop + self.root_normal.len() + self.root_rev.len() {
            drop(d);
            self.handle_turn(t, y, idx - nc - nstop - self.root_normal.len() - self.root_rev.len());
            return Ok(events);
        } else {
            let c = self.root_rev[idx - nc - nstop - self.root_normal.len()];
            // the memory was updated at this instant (accept); the motion now
            // runs the other way (already seen by accept if the velocity jumped)
            let v = {
                let mut s = self.scr.borrow_mut();
                self.eval(t, y, &d, &mut s, None);
                s.vrel[c]
            };
            let before = d.dir[c];
            drop(d);
            let mut dm = self.disc.borrow_mut();
            dm.dir[c] = if v.abs() > self.vtol(c) { v.signum() } else { -before };
            self.count.reversals.set(self.count.reversals.get() + 1);
            return Ok(events);
        }
        drop(d);
        events.extend(self.resolve(t, y, arrived, &must_slide, &impacts)?);
        if engaged_sliding {
            // a contact that engaged sliding pulls from a zero force: a stop
            // it pulls a body off saw no force and no acceleration away in
            // the decision and was kept, its root then started below zero
            // and never fired (issue 50, seed 1407: a stop pulled for 53
            // ms, up to 0.42 N). A stop whose force came out as a pull lets
            // go.
            let pulling: Vec<usize> = {
                let d = self.disc.borrow();
                let mut s = self.scr.borrow_mut();
                self.eval(t, y, &d, &mut s, None);
                (0..self.sys.stops.len())
                    .filter(|&k| {
                        let l = self.stop_lambda(&d, &s.lam, k);
                        d.stops[k] != StopMode::Free && l + 1e-12 * (1.0 + l.abs()) < 0.0
                    })
                    .map(|k| nc + k)
                    .collect()
            };
            if !pulling.is_empty() {
                events.extend(self.resolve(t, y, Vec::new(), &pulling, &[])?);
            }
        }
        Ok(events)
    }

    /// Re-establish consistent modes at `t` after a jump in the forces,
    /// normal loads or prescribed velocities (a breakpoint of a schedule).
    pub(crate) fn handle_breakpoint(&self, t: f64, y: &mut [f64]) -> Result<Vec<Event>, SimError> {
        let mut ev = Vec::new();
        let arrived = self.engagement(t, y, &mut ev);
        // changed in place: nothing below can fail
        let mut d = self.disc.borrow_mut();
        {
            let mut s = self.scr.borrow_mut();
            self.eval(t, y, &d, &mut s, None);
            // stuck contacts whose relative velocity jumped (a driver's corner) slide
            for c in 0..self.sys.contacts.len() {
                if d.modes[c] == Mode::Stuck && s.vrel[c] != 0.0 {
                    let v = s.vrel[c];
                    if v.abs() > self.vtol(c) {
                        let new = if v > 0.0 { Mode::Forward } else { Mode::Backward };
                        ev.push(Event {
                            t,
                            contact: self.sys.contacts[c].name.clone(),
                            from: "stuck".into(),
                            to: new.name().into(),
                        });
                        d.modes[c] = new;
                    }
                }
            }
        }
        self.rebuild_rows(&mut d);
        drop(d);
        ev.extend(self.resolve(t, y, arrived, &[], &[])?);
        ev.extend(self.disk_recheck(t, y));
        Ok(ev)
    }

    /// Stuck contacts whose force is within `rel` (relative) of, or beyond,
    /// N Fs; in a bundle of parallel rows, every contact of a bundle whose
    /// total is within `rel` of what its contacts can carry.
    pub(crate) fn at_limit(&self, t: f64, y: &[f64], d: &Discrete, rel: f64) -> Vec<usize> {
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, d, &mut s, None);
        let in_bundle =
            |c: usize| d.plan.bundle_rows.iter().any(|&(j, _)| d.rows[j].kind == RowKind::Contact(c));
        let mut over: Vec<usize> = (0..self.sys.contacts.len())
            .filter(|&c| {
                d.modes[c] == Mode::Stuck && !in_bundle(c) && {
                    let (n, f) = (s.normal[c], s.fc[c]);
                    match self.cmodel(&s, c).static_range(&[], &d.mem[c]) {
                        Some((lo, hi)) if lo != -hi => one_way_margin(lo * n, hi * n, f, -rel) <= 0.0,
                        range => f.abs() >= range.map_or(0.0, |r| r.1) * n * (1.0 - rel) - 1e-300,
                    }
                }
            })
            .collect();
        for (b, &(cap, load)) in d.plan.bundles.iter().zip(&s.bundle_load) {
            if load >= cap * (1.0 - rel) - 1e-300 {
                for &(j, _) in d.plan.members_of(b) {
                    if let RowKind::Contact(c) = d.rows[j].kind {
                        over.push(c);
                    }
                }
            }
        }
        over.sort_unstable();
        over
    }

    /// Safety net after an accepted step: a crossing the root finder missed
    /// (a body beyond a stop, a sliding contact moving against its mode, a
    /// normal load on the other side of zero).
    pub(crate) fn missed_event(&self, t: f64, y: &[f64]) -> bool {
        let d = self.disc.borrow();
        for (k, st) in self.sys.stops.iter().enumerate() {
            if d.stops[k] == StopMode::Free {
                let tol = 10.0 * self.sys.solver.atol_position;
                let x = y[st.body];
                if x > st.max + tol || x < st.min - tol {
                    return true;
                }
            }
        }
        {
            let mut s = self.scr.borrow_mut();
            if self.normal_gaps {
                s.drivers_at(&self.sys.drivers, t);
            }
            for &c in &self.root_normal {
                let raw = self.raw_normal(t, y, &s, c);
                if (d.modes[c] == Mode::Free) != (raw <= 0.0) {
                    return true;
                }
            }
        }
        if self.disk_missed(t, y, &d) {
            return true;
        }
        // only contacts sliding in a set-valued mode can have reversed: without
        // them (smooth, state and hysteresis models) no evaluation is needed
        if !d.modes.iter().any(|m| matches!(m, Mode::Forward | Mode::Backward)) {
            return false;
        }
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, None);
        (0..self.sys.contacts.len()).any(|c| match d.modes[c] {
            Mode::Forward => s.vrel[c] < -self.vtol(c),
            Mode::Backward => s.vrel[c] > self.vtol(c),
            _ => false,
        })
    }

    /// After a missed crossing: engagement changes, then the joint decision.
    pub(crate) fn resolve_missed(
        &self,
        t: f64,
        y: &mut [f64],
        over: &[usize],
    ) -> Result<Vec<Event>, SimError> {
        let mut ev = Vec::new();
        let arrived = self.engagement(t, y, &mut ev);
        ev.extend(self.resolve(t, y, arrived, over, &[])?);
        ev.extend(self.disk_recheck(t, y));
        Ok(ev)
    }
}
