//! Making every mode consistent at an event: impacts on end stops (a
//! bounce, or coming to rest), the plastic projection of groups held
//! together onto one velocity, stuck contacts jolted into sliding by an
//! impulse, and the loop around the joint stick/slip decision
//! ([`Engine::settle`] in `modes.rs`) until no contact newly arrives at rest.

use crate::engine::network::constraints::Plan;
use crate::engine::network::{Discrete, Engine, Row, RowKind, StopMode};
use crate::engine::outcome::{Event, Mode};
use crate::error::SimError;

impl Engine<'_> {
    /// Project velocities so every row has zero relative velocity: a group
    /// of bodies held together takes its common momentum-weighted velocity, a
    /// group held to the ground or a driver takes its velocity (a plastic
    /// impulse). Returns the kinetic energy lost.
    pub(crate) fn project(&self, t: f64, y: &mut [f64], rows: &[Row]) -> f64 {
        // the engine's spare plan (no allocation once grown)
        let mut plan = std::mem::take(&mut self.plan_work.borrow_mut().spare);
        self.plan_into(rows, &mut plan);
        let lost = self.project_planned(t, y, rows, &plan);
        self.plan_work.borrow_mut().spare = plan;
        lost
    }

    /// [`Engine::project`] with the force plan of `rows` already made (the
    /// current modes' rows and plan: an output row's projection, which
    /// grouped the bodies anew for every row before and took 28 % of a
    /// Coulomb free decay's run, resting for most of its rows).
    pub(crate) fn project_planned(&self, t: f64, y: &mut [f64], rows: &[Row], plan: &Plan) -> f64 {
        use crate::engine::network::constraints::Anchor;
        let nb = self.nb;
        let mut lost = 0.0;
        for cl in &plan.clusters {
            let bodies = plan.bodies_of(cl);
            let m = |i: usize| self.sys.bodies[i].mass;
            let v = match cl.anchor {
                Anchor::Ground => 0.0,
                Anchor::Driver(k) => self.sys.drivers[k].motion.eval(t).1,
                Anchor::Free => {
                    bodies.iter().map(|&i| m(i) * y[nb + i]).sum::<f64>()
                        / bodies.iter().map(|&i| m(i)).sum::<f64>()
                }
            };
            for &i in bodies {
                lost += 0.5 * m(i) * (y[nb + i].powi(2) - v * v);
                y[nb + i] = v;
            }
        }
        // rows on a structure of consistent mass: the impulse through its
        // `M⁻¹` (`coupled.rs`)
        for blk in &plan.coupled {
            let bodies = &plan.bodies[blk.bodies.clone()];
            lost += self.project_coupled(t, rows, bodies, blk, &mut y[nb..2 * nb]);
        }
        // a body resting on a stop lies on it: exactly at its limit, at
        // rest (a cluster held by a stop and by a driver at once took the
        // driver's velocity at its turning point, 2e-13 m/s, and crept off
        // its stop while the stop held it; issue 50)
        for r in rows {
            if let RowKind::Stop(k) = r.kind {
                let st = &self.sys.stops[k];
                let i = st.body;
                y[i] = if self.stop_side(k, y) > 0.0 { st.max } else { st.min };
                lost += 0.5 * self.sys.bodies[i].mass * y[nb + i].powi(2);
                y[nb + i] = 0.0;
            }
        }
        lost
    }

    /// After impacts on stops: the stuck contacts that the impulses left
    /// with a relative velocity slide (a contact carries a bounded force,
    /// so no impulse crosses it). Rebuilds the rows when a mode changed.
    pub(super) fn slide_jolted(&self, t: f64, y: &[f64], d: &mut Discrete, events: &mut Vec<Event>) {
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, d, &mut s, None);
        let mut changed = false;
        for c in 0..self.sys.contacts.len() {
            let v = s.vrel[c];
            if d.modes[c] != Mode::Stuck || v.abs() <= self.vtol(c) {
                continue;
            }
            let want = if v > 0.0 { Mode::Forward } else { Mode::Backward };
            events.push(Event {
                t,
                contact: self.sys.contacts[c].name.clone(),
                from: d.modes[c].name().into(),
                to: want.name().into(),
            });
            d.modes[c] = want;
            changed = true;
        }
        drop(s);
        if changed {
            self.rebuild_rows(d);
        }
    }

    /// +1 if stop `k`'s body is at (nearer) its upper limit, -1 at the lower.
    pub(super) fn stop_side(&self, k: usize, y: &[f64]) -> f64 {
        let st = &self.sys.stops[k];
        let x = y[st.body];
        if (x - st.max).abs() <= (x - st.min).abs() {
            1.0
        } else {
            -1.0
        }
    }

    /// Make every mode consistent at (t, y): impacts on stops (bounce or
    /// rest), sliding contacts brought to rest or reversed by impulses, and a
    /// joint stick/slip decision over everything at rest. Iterates until no
    /// contact newly arrives at rest.
    pub(crate) fn resolve(
        &self,
        t: f64,
        y: &mut [f64],
        mut arrived: Vec<RowKind>,
        must_slide: &[usize],
        impacts: &[usize],
    ) -> Result<Vec<Event>, SimError> {
        let nb = self.nb;
        let nc = self.sys.contacts.len();
        // a copy (in the engine's spare, whose vectors it reuses): on an
        // error the discrete state stays as it was
        let mut d = std::mem::take(&mut *self.disc_spare.borrow_mut());
        d.clone_from(&self.disc.borrow());
        let mut events = Vec::new();
        // stops hit at speed without a bounce (restitution 0)
        let mut plastic = Vec::new();
        // an impact changed a velocity
        let mut jolted = false;
        // the stops bounced on, with the side (+1 at max)
        let mut bounced: Vec<(usize, f64)> = Vec::new();
        // stops: the one that fired, and any other free stop at its limit moving outwards
        let ptol = 10.0 * self.sys.solver.atol_position;
        let vtol_stop = 10.0 * self.sys.solver.atol_velocity;
        for (k, st) in self.sys.stops.iter().enumerate() {
            if d.stops[k] != StopMode::Free {
                continue;
            }
            let (x, v) = (y[st.body], y[nb + st.body]);
            let at_max = x >= st.max - ptol && (v >= 0.0 || x > st.max);
            let at_min = x <= st.min + ptol && (v <= 0.0 || x < st.min);
            if !(impacts.contains(&k) || at_max || at_min) {
                continue;
            }
            let hit_max = (x - st.max).abs() < (x - st.min).abs();
            y[st.body] = if hit_max { st.max } else { st.min };
            let name = self.item_name(RowKind::Stop(k));
            let m = self.sys.bodies[st.body].mass;
            if st.restitution > 0.0 && v.abs() > vtol_stop {
                // the body alone: a contact carries a bounded force, so no
                // impulse, and the bodies stuck to it keep their velocities
                // (their contacts slide from here, below)
                let v1 = -st.restitution * v;
                d.impacts += 0.5 * m * (v * v - v1 * v1);
                y[nb + st.body] = v1;
                jolted = true;
                bounced.push((k, if hit_max { 1.0 } else { -1.0 }));
                events.push(Event { t, contact: name, from: "free".into(), to: "bounce".into() });
            } else {
                if v.abs() > vtol_stop {
                    // a plastic impact stops the body alone, for the same
                    // reason (issue 50: a body stuck to one dragged by a
                    // driver went through its stop with the driver's speed)
                    d.impacts += 0.5 * m * v * v;
                    y[nb + st.body] = 0.0;
                    jolted = true;
                    plastic.push(k);
                }
                arrived.push(RowKind::Stop(k));
            }
        }
        if jolted {
            self.slide_jolted(t, y, &mut d, &mut events);
            // a bounce whose flight would not leave the stop by more than
            // the position tolerance (v1² / 2a, a the body's acceleration
            // towards the stop after it) is the end of a Zeno sequence of
            // ever shorter bounces: the body rests, and the kinetic energy
            // the sequence would take is booked under `impacts` at once
            // (issue 50: a body pressed onto a stop by a stuck neighbour
            // bounced 300 times in 1e-6 s)
            let mut rested = false;
            let mut s = self.scr.borrow_mut();
            self.eval(t, y, &d, &mut s, None);
            for &(k, side) in &bounced {
                let i = self.sys.stops[k].body;
                let (v1, a_in) = (y[nb + i], side * s.a[i]);
                if a_in > 0.0 && v1 * v1 <= 2.0 * a_in * ptol {
                    d.impacts += 0.5 * self.sys.bodies[i].mass * v1 * v1;
                    y[nb + i] = 0.0;
                    let name = self.item_name(RowKind::Stop(k));
                    events.retain(|e| !(e.contact == name && e.to == "bounce"));
                    plastic.push(k);
                    arrived.push(RowKind::Stop(k));
                    rested = true;
                }
            }
            drop(s);
            if rested {
                self.slide_jolted(t, y, &mut d, &mut events);
            }
        }
        let mut is_arrived = vec![false; nc];
        for k in &arrived {
            if let RowKind::Contact(c) = *k {
                is_arrived[c] = true;
            }
        }
        for _round in 0..=nc {
            // sliding contacts: at rest, or reversed by an impulse
            {
                let mut s = self.scr.borrow_mut();
                self.eval(t, y, &d, &mut s, None);
                for c in 0..nc {
                    if !self.stuckable[c] || !matches!(d.modes[c], Mode::Forward | Mode::Backward) {
                        continue;
                    }
                    let v = s.vrel[c];
                    if v.abs() <= self.vtol(c) {
                        if !is_arrived[c] {
                            is_arrived[c] = true;
                            arrived.push(RowKind::Contact(c));
                        }
                    } else {
                        let want = if v > 0.0 { Mode::Forward } else { Mode::Backward };
                        if want != d.modes[c] && !is_arrived[c] {
                            events.push(Event {
                                t,
                                contact: self.sys.contacts[c].name.clone(),
                                from: d.modes[c].name().into(),
                                to: want.name().into(),
                            });
                            d.modes[c] = want;
                        }
                    }
                }
            }
            events.extend(self.settle(t, y, &mut d, &arrived, must_slide)?);
            // the projection may have brought further sliding contacts to rest
            let mut s = self.scr.borrow_mut();
            self.eval(t, y, &d, &mut s, None);
            let mut new = false;
            for c in 0..nc {
                if !self.stuckable[c]
                    || !matches!(d.modes[c], Mode::Forward | Mode::Backward)
                    || is_arrived[c]
                {
                    continue;
                }
                let v = s.vrel[c];
                if v.abs() <= self.vtol(c) {
                    is_arrived[c] = true;
                    arrived.push(RowKind::Contact(c));
                    new = true;
                } else {
                    // reversed by the impulse of the projection (a group it
                    // slides on stopped by an impact: issue 50, seed 96)
                    let want = if v > 0.0 { Mode::Forward } else { Mode::Backward };
                    if want != d.modes[c] {
                        events.push(Event {
                            t,
                            contact: self.sys.contacts[c].name.clone(),
                            from: d.modes[c].name().into(),
                            to: want.name().into(),
                        });
                        d.modes[c] = want;
                    }
                }
            }
            if !new {
                break;
            }
        }
        // a plastic impact is an event even when the body leaves the stop at
        // once (its rest is then no transition): the kinetic energy it took
        // is in `energy.impacts`
        for &k in &plastic {
            if d.stops[k] == StopMode::Free {
                events.push(Event {
                    t,
                    contact: self.item_name(RowKind::Stop(k)),
                    from: "free".into(),
                    to: "impact".into(),
                });
            }
        }
        let old = std::mem::replace(&mut *self.disc.borrow_mut(), d);
        *self.disc_spare.borrow_mut() = old;
        Ok(events)
    }
}
