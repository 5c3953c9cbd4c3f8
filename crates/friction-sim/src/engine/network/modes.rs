//! The joint stick/slip decision at an event, as a linear complementarity
//! problem.
//!
//! At an event every contact at rest (stuck, or sliding contacts whose
//! relative velocity just reached zero) and every resting end stop is an
//! unknown force λ_j with a relative acceleration `a = b - W λ`, where `b`
//! is the relative acceleration with all of them free and
//! `W = E^T M^-1 E`. With `w = -a = W λ - b`, each contact must be
//! - stuck: `a = 0` and `|λ| <= N Fs` (the maximum static force), or
//! - sliding forward: `λ = N Fk(0+)` and `a >= 0`, or backward:
//!   `λ = -N Fk(0-)` and `a <= 0` (the sliding force at zero speed);
//!
//! and each stop resting at its upper limit must push (`λ >= 0`, `a <= 0`)
//! or release with `λ = 0`, `a >= 0` (mirrored at the lower limit). This is
//! the box-constrained LCP of Pfeiffer and Glocker (Multibody Dynamics with
//! Unilateral Contacts, Wiley 1996, ch. 7, reduced to one tangential
//! direction), solved exactly by pivoting ([`crate::engine::network::lcp`]).
//!
//! `W` couples two rows only when they share a body, so the problem splits
//! into independent groups (a chain of masses each on its own contact with
//! the ground is n problems of size one, whatever the springs between them:
//! they enter `b`, which is fixed at the event).
//!
//! Stiction above the sliding level (Fs > Fk) makes the choice
//! non-convex. The rule, deterministic and documented: solve with the
//! static bounds N Fs; every contact that the solution puts at its bound
//! breaks away and from then on carries its sliding force N Fk (its bounds
//! shrink to it); re-solve until no further contact breaks away (at most
//! one round per contact). Contacts that reached N Fs while stuck (the event
//! that fired) start broken. Contacts stick whenever sticking is consistent,
//! and every final choice satisfies the conditions above. A group without a
//! solution (a stop pushed through with no force able to hold it) or a
//! pivoting cycle stops the run with an error that names the time and the
//! contacts; the engine never guesses.

use friction_models::{FrictionModel, Input};

use crate::engine::network::grouping::{bucket, find};
use crate::engine::network::lcp::{solve_box_lcp_in, LcpWork};
use crate::engine::network::{Discrete, Engine, Indeterminate, Row, RowKind, StopMode};
use crate::engine::outcome::{Event, Mode};
use crate::error::SimError;

/// The work arrays of [`Engine::settle`], kept by the engine across events
/// so that a stick/slip decision allocates only where a problem is larger
/// than any before it (a chain of 256 masses stuck one by one allocated
/// thousands of small vectors per event: one set per coupled group).
#[derive(Default)]
pub(crate) struct SettleWork {
    lcp: LcpWork,
    /// the groups' rows, group after group, and where each group starts
    members: Vec<usize>,
    starts: Vec<usize>,
    parent: Vec<usize>,
    first_row_of_body: Vec<usize>,
    group_of: Vec<usize>,
    /// one group's problem: W's storage, -b, bounds, static and kinetic
    /// bounds, broken contacts
    w: Vec<f64>,
    q: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    stat: Vec<(f64, f64)>,
    kin: Vec<(f64, f64)>,
    broken: Vec<bool>,
    /// the items at rest, their rows, the rows' free relative
    /// accelerations, the normal loads, the modes before the decision
    is_rest: Vec<bool>,
    rest: Vec<RowKind>,
    rows: Vec<Row>,
    b: Vec<f64>,
    normal: Vec<f64>,
    old_modes: Vec<Mode>,
    old_stops: Vec<StopMode>,
}

impl Engine<'_> {
    /// Rebuild the active rows and their force plan from the modes in `d`.
    pub(crate) fn rebuild_rows(&self, d: &mut Discrete) {
        d.rows.clear();
        for (c, m) in d.modes.iter().enumerate() {
            if *m == Mode::Stuck {
                d.rows.push(self.contact_row(c));
            }
        }
        for (s, m) in d.stops.iter().enumerate() {
            if *m != StopMode::Free {
                d.rows.push(self.stop_row(s));
            }
        }
        self.plan_into(&d.rows, &mut d.plan);
        self.note_indeterminate(d);
    }

    /// Remember (once) every set of rows whose forces are statically
    /// indeterminate under the plan in `d`, for the run's warnings.
    fn note_indeterminate(&self, d: &Discrete) {
        let plan = &d.plan;
        if plan.bundles.is_empty() && plan.dense.is_empty() && plan.coupled.is_empty() {
            return;
        }
        let mut seen = self.indeterminate.borrow_mut();
        let mut note = |kind: Indeterminate, rows: &mut dyn Iterator<Item = usize>| {
            let items: Vec<RowKind> = rows.map(|j| d.rows[j].kind).collect();
            if !seen.iter().any(|(k, v)| *k == kind && *v == items) {
                seen.push((kind, items));
            }
        };
        for b in &plan.bundles {
            note(Indeterminate::Parallel, &mut plan.members_of(b).iter().map(|&(j, _)| j));
        }
        for blk in &plan.dense {
            note(Indeterminate::Loop, &mut blk.rows.iter().copied());
        }
        for blk in plan.coupled.iter().filter(|b| b.null.ncols() > 0) {
            note(Indeterminate::Loop, &mut blk.rows.iter().copied());
        }
    }

    /// The run's warnings on statically indeterminate forces, one per set of
    /// rows met (see [`crate::engine::network::bundles::split_bundle`]).
    pub(crate) fn indeterminate_warnings(&self) -> Vec<String> {
        self.indeterminate
            .borrow()
            .iter()
            .map(|(kind, items)| {
                let names: Vec<String> = items.iter().map(|&k| self.item_name(k)).collect();
                match kind {
                    Indeterminate::Parallel => format!(
                        "statically indeterminate: {} hold the same members at once, so how they share \
                         the load is not unique; while they stick, a resting stop pushes first and the \
                         contacts share the rest by the minimum-norm forces within their capacities \
                         N Fs (docs/scenario.md, \"Redundant contacts\")",
                        names.join(", ")
                    ),
                    Indeterminate::Loop => format!(
                        "statically indeterminate: the stuck rows {} close a loop, so how they share \
                         the load is not unique; while they stick, their forces are the least-norm split \
                         within every contact's capacity N Fs and every stop's side, and the loop breaks \
                         away when no such split remains (docs/scenario.md, \"Redundant contacts\")",
                        names.join(", ")
                    ),
                }
            })
            .collect()
    }

    /// Choose the modes of every contact and stop that is at rest at (t, y),
    /// jointly. `arrived` lists contacts/stops that just reached rest;
    /// `must_slide` the stuck contacts whose force reached N Fs and, as
    /// `nc + k`, the resting stops `k` whose force reached zero. Updates `d`
    /// and projects `y`; returns the transitions.
    pub(crate) fn settle(
        &self,
        t: f64,
        y: &mut [f64],
        d: &mut Discrete,
        arrived: &[RowKind],
        must_slide: &[usize],
    ) -> Result<Vec<Event>, SimError> {
        let sys = &*self.sys;
        let nc = sys.contacts.len();
        let nb = self.nb;
        let mut guard = self.settle_work.borrow_mut();
        let SettleWork {
            lcp: work,
            members,
            starts,
            parent,
            first_row_of_body,
            group_of,
            w: w_store,
            q,
            lo,
            hi,
            stat,
            kin,
            broken,
            is_rest,
            rest,
            rows,
            b,
            normal,
            old_modes,
            old_stops,
        } = &mut *guard;
        is_rest.clear();
        is_rest.resize(nc + sys.stops.len(), false);
        for k in arrived {
            match *k {
                RowKind::Contact(c) => is_rest[c] = true,
                RowKind::Stop(s) => is_rest[nc + s] = true,
            }
        }
        for c in 0..nc {
            is_rest[c] |= d.modes[c] == Mode::Stuck;
        }
        for (k, sm) in d.stops.iter().enumerate() {
            is_rest[nc + k] |= *sm != StopMode::Free;
        }
        rest.clear();
        rest.extend(
            (0..nc)
                .filter(|&c| is_rest[c] && d.modes[c] != Mode::Free)
                .map(RowKind::Contact)
                .chain((0..sys.stops.len()).filter(|&k| is_rest[nc + k]).map(RowKind::Stop)),
        );
        rows.clear();
        rows.extend(rest.iter().map(|&k| self.row_of(k)));
        d.impacts += self.project(t, y, rows);
        old_modes.clone_from(&d.modes);
        old_stops.clone_from(&d.stops);

        // free relative accelerations: every rest item unconstrained, no
        // force (the trial modes set in `d` itself, without its rows and
        // plan, then put back: a copy of the discrete state cloned every
        // contact's memory)
        for k in rest.iter() {
            match *k {
                RowKind::Contact(c) => d.modes[c] = Mode::Stuck,
                RowKind::Stop(s) => d.stops[s] = StopMode::Free,
            }
        }
        let (d_rows, d_plan) = (std::mem::take(&mut d.rows), std::mem::take(&mut d.plan));
        {
            let mut s = self.scr.borrow_mut();
            self.eval(t, y, d, &mut s, None);
            b.clear();
            b.extend(rows.iter().map(|r| self.rel_acc(&s, r)));
            normal.clone_from(&s.normal);
        }
        (d.rows, d.plan) = (d_rows, d_plan);
        d.modes.clone_from(old_modes);
        d.stops.clone_from(old_stops);

        // groups of rows coupled through shared bodies
        let nr = rows.len();
        parent.clear();
        parent.extend(0..nr);
        first_row_of_body.clear();
        first_row_of_body.resize(nb, usize::MAX);
        for (j, r) in rows.iter().enumerate() {
            for i in [r.ia, r.ib].into_iter().flatten() {
                // the rows on one structure of consistent mass are coupled
                // through its `M⁻¹` (`coupled.rs`): keyed by its first DOF
                let i = match self.coupled_block(i) {
                    Some(k) => self.blocks[k].base,
                    None => i,
                };
                if first_row_of_body[i] == usize::MAX {
                    first_row_of_body[i] = j;
                } else {
                    let (a, b) = (find(parent, first_row_of_body[i]), find(parent, j));
                    if a != b {
                        parent[a.max(b)] = a.min(b);
                    }
                }
            }
        }
        // groups numbered by their first row, members in row order
        group_of.clear();
        group_of.resize(nr, usize::MAX);
        let mut ng = 0;
        for j in 0..nr {
            let r = find(parent, j);
            if group_of[r] == usize::MAX {
                group_of[r] = ng;
                ng += 1;
            }
            // r <= j: the root's group is known
            group_of[j] = group_of[r];
        }
        bucket(group_of, ng, starts, members);

        for g in 0..ng {
            let sel = &members[starts[g]..starts[g + 1]];
            let m = sel.len();
            let a = self.w_block(rows, sel, std::mem::take(w_store));
            q.clear();
            q.extend(sel.iter().map(|&j| -b[j]));
            lo.clear();
            lo.resize(m, 0.0);
            hi.clear();
            hi.resize(m, 0.0);
            // static and kinetic bounds of contacts; stops push one way only
            stat.clear();
            stat.resize(m, (0.0, 0.0));
            kin.clear();
            kin.resize(m, (0.0, 0.0));
            broken.clear();
            broken.resize(m, false);
            for (jj, &j) in sel.iter().enumerate() {
                match rest[j] {
                    RowKind::Contact(c) => {
                        let ct = &sys.contacts[c];
                        let n = normal[c];
                        let mem = &d.mem[c];
                        // a model that follows a temperature: at the temperature of `y`
                        let tm = self.model_at_temp(y, c);
                        let model = tm.as_ref().unwrap_or(&ct.model);
                        let (slo, shi) = model.static_range(&[], mem).unwrap_or((0.0, 0.0));
                        let (xa, _) = self.pos(y, &self.scr.borrow(), ct.between[0]);
                        let (xb, _) = self.pos(y, &self.scr.borrow(), ct.between[1]);
                        let fp = n * model.force(&Input::new(t, xa - xb, f64::MIN_POSITIVE), &[], mem).abs();
                        let fm = n * model.force(&Input::new(t, xa - xb, -f64::MIN_POSITIVE), &[], mem).abs();
                        stat[jj] = (slo * n, shi * n);
                        kin[jj] = (-fm, fp);
                        broken[jj] = must_slide.contains(&c);
                        (lo[jj], hi[jj]) = if broken[jj] { kin[jj] } else { stat[jj] };
                    }
                    RowKind::Stop(s) => {
                        if must_slide.contains(&(nc + s)) {
                            // a stop whose force root fired: released
                            (lo[jj], hi[jj]) = (0.0, 0.0);
                        } else if self.stop_side(s, y) > 0.0 {
                            (lo[jj], hi[jj]) = (0.0, f64::INFINITY);
                        } else {
                            (lo[jj], hi[jj]) = (f64::NEG_INFINITY, 0.0);
                        }
                    }
                }
            }
            let qscale = q.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let wtol = 1e-10 * (1.0 + qscale);
            let at_hi = |l: f64, h: f64| h.is_finite() && l >= h - 1e-12 * (1.0 + h.abs());
            let at_lo = |l: f64, lo: f64| lo.is_finite() && l <= lo + 1e-12 * (1.0 + lo.abs());
            let mut rounds = 0;
            loop {
                let pivots = solve_box_lcp_in(&a, q, lo, hi, work).map_err(|e| {
                    let names: Vec<String> = sel.iter().map(|&j| self.item_name(rest[j])).collect();
                    SimError::Solver {
                        t,
                        cause: format!(
                            "no consistent stick/slip choice for the contacts and stops at rest ({}): {e}",
                            names.join(", ")
                        ),
                        state: self.state_text(y),
                    }
                })?;
                self.count.lcp_solves.set(self.count.lcp_solves.get() + 1);
                self.count.lcp_pivots.set(self.count.lcp_pivots.get() + pivots);
                self.count.lcp_max.set(self.count.lcp_max.get().max(m));
                rounds += 1;
                let mut changed = false;
                for jj in 0..m {
                    if broken[jj] || !matches!(rest[sel[jj]], RowKind::Contact(_)) {
                        continue;
                    }
                    let (l, w) = (work.lambda()[jj], work.w()[jj]);
                    if (at_hi(l, hi[jj]) && w < -wtol) || (at_lo(l, lo[jj]) && w > wtol) {
                        broken[jj] = true;
                        if kin[jj] != stat[jj] {
                            (lo[jj], hi[jj]) = kin[jj];
                            changed = true;
                        }
                    }
                }
                if !changed || rounds > m + 1 {
                    break;
                }
            }
            // a contact forced to slide (its force reached its capacity)
            // starts a motion whose accelerations are still of the order of
            // the root's tolerance: a stop of the same group that carries no
            // force and is not pressed on lets it go, rather than hold a body
            // the sliding contact pulls off it (issue 50: a stop pulled
            // 3.7e-3 N for 20 ms)
            let forced_slide = sel.iter().enumerate().any(|(jj, &j)| match rest[j] {
                RowKind::Contact(c) => {
                    let l = work.lambda()[jj];
                    must_slide.contains(&c) && (at_hi(l, hi[jj]) || at_lo(l, lo[jj]))
                }
                RowKind::Stop(_) => false,
            });
            // likewise a stop whose force root fired lets go of its group:
            // another stop of it that carries no force and is not pressed on
            // lets go with it (issue 50, seed 1559: two bodies stuck
            // together, each on its lower stop; the one stop released as
            // the load turned, the other was kept at a force of -1e-12 N
            // and an acceleration away of 5e-13 m/s², within the
            // tolerances, and its root started below zero: it pulled for
            // 4.4 ms until the next event)
            let stop_let_go =
                sel.iter().any(|&j| matches!(rest[j], RowKind::Stop(s) if must_slide.contains(&(nc + s))));
            for (jj, &j) in sel.iter().enumerate() {
                let (l, w) = (work.lambda()[jj], work.w()[jj]);
                match rest[j] {
                    RowKind::Contact(c) => {
                        let forced = must_slide.contains(&c);
                        d.modes[c] = if at_hi(l, hi[jj]) && (w < -wtol || forced) {
                            Mode::Forward
                        } else if at_lo(l, lo[jj]) && (w > wtol || forced) {
                            Mode::Backward
                        } else {
                            Mode::Stuck
                        };
                    }
                    RowKind::Stop(s) => {
                        let side = self.stop_side(s, y);
                        // released: no force and accelerating away from the wall
                        let free_of_force = l.abs() <= 1e-12 * (1.0 + qscale);
                        let forced = (must_slide.contains(&(nc + s))
                            || ((forced_slide || stop_let_go) && free_of_force))
                            && side * w >= -wtol;
                        let release = (l.abs() <= 1e-12 * (1.0 + qscale) && side * w > wtol) || forced;
                        d.stops[s] = if release {
                            StopMode::Free
                        } else if side > 0.0 {
                            StopMode::AtMax
                        } else {
                            StopMode::AtMin
                        };
                    }
                }
            }
            *w_store = a.data.into();
        }
        self.rebuild_rows(d);
        let mut ev = Vec::new();
        for c in 0..nc {
            if d.modes[c] != old_modes[c] {
                ev.push(Event {
                    t,
                    contact: sys.contacts[c].name.clone(),
                    from: old_modes[c].name().into(),
                    to: d.modes[c].name().into(),
                });
            }
        }
        for k in 0..d.stops.len() {
            if d.stops[k] != old_stops[k] {
                ev.push(Event {
                    t,
                    contact: self.item_name(RowKind::Stop(k)),
                    from: old_stops[k].name().into(),
                    to: d.stops[k].name().into(),
                });
            }
        }
        Ok(ev)
    }
}
