//! What an output row shows of the members held at rest. Between events a
//! stuck contact's slip velocity and a resting body's velocity are held at
//! zero through their accelerations, so the method's state carries them off
//! zero by its error, most inside a step, where the rows come from its dense
//! output (a body stuck to a sine driver showed a slip velocity of 1.0e-8
//! m/s at rtol 1e-6, past the stick band; issue 50). A row takes the state
//! with the held velocities exact: the projection an event applies, on the
//! row's copy only.

use crate::engine::network::constraints::Anchor;
use crate::engine::network::{Engine, RowKind};

impl Engine<'_> {
    /// `y` (a row's copy of the state at `t`) with every group held at rest
    /// moving exactly as its anchor, or with its momentum-weighted velocity,
    /// and every body resting on a stop at its limit ([`Engine::project`]).
    pub(crate) fn hold_exactly(&self, t: f64, y: &mut [f64]) {
        let d = self.disc.borrow();
        if !d.rows.is_empty() {
            self.project_planned(t, y, &d.rows, &d.plan);
        }
    }

    /// The time at which a row at `t` reads the schedules: `t`, or just
    /// before `next_bp` when the row is at that breakpoint (within the
    /// solver's time resolution, 1e-12 relative) and the jump there is not
    /// yet handled. Such a row is written with the modes of the step that
    /// ends there, so it shows the left limit: a driver's speed before its
    /// ramp starts beside a contact still stuck to it, as the row of an
    /// event shows the state before the event's mode change. (Read at the
    /// jump itself, a ramp's new speed beside the old modes put a stuck
    /// contact's force off its sliding curve: issue 50, seeds 843, 1518 and
    /// 9 more of 10,000.)
    pub(crate) fn schedule_time_of_row(t: f64, next_bp: f64) -> f64 {
        if next_bp.is_finite() && (t - next_bp).abs() <= 1e-12 * (1.0 + next_bp.abs()) {
            next_bp.next_down()
        } else {
            t
        }
    }

    /// Whether anything is held at rest now (then the rows are written one
    /// by one, each through [`Engine::hold_exactly`]).
    pub(crate) fn holds_any(&self) -> bool {
        !self.disc.borrow().rows.is_empty()
    }

    /// Whether every group held at rest now hangs from the ground or a
    /// driver, with no stop resting and no structure of consistent mass
    /// among them: a row's projection ([`Engine::hold_exactly`]) then only
    /// sets each held body's velocity to its anchor's, which
    /// [`Engine::hold_rows_written`] does on rows written at once.
    pub(crate) fn holds_only_anchored(&self) -> bool {
        let d = self.disc.borrow();
        d.plan.coupled.is_empty()
            && d.rows.iter().all(|r| !matches!(r.kind, RowKind::Stop(_)))
            && d.plan.clusters.iter().all(|c| !matches!(c.anchor, Anchor::Free))
    }

    /// Rows written at once ([`crate::engine::integrate::stepper::Stepper::dense_rows`]:
    /// `block`, columns `cols`, one row per time of `times`) with every held
    /// body's velocity set to its anchor's at the row's schedule time, the
    /// value [`Engine::hold_exactly`] gives a row's state, so the rows are
    /// those of the row by row path to the bit (only under
    /// [`Engine::holds_only_anchored`]). A Coulomb free decay resting for
    /// 930 of its 2,501 rows interpolated those one by one before.
    pub(crate) fn hold_rows_written(
        &self,
        times: &[f64],
        row_bp: f64,
        cols: &[Option<usize>],
        block: &mut [f64],
    ) {
        let d = self.disc.borrow();
        let nb = self.nb;
        let mut anchor = self.held_work.borrow_mut();
        anchor.clear();
        anchor.resize(nb, None);
        for cl in &d.plan.clusters {
            for &i in d.plan.bodies_of(cl) {
                anchor[i] = Some(cl.anchor);
            }
        }
        let nc = cols.len();
        for (c, col) in cols.iter().enumerate() {
            let Some(a) = col.and_then(|s| s.checked_sub(nb)).filter(|&b| b < nb).and_then(|b| anchor[b])
            else {
                continue;
            };
            for (row, &to) in block.chunks_exact_mut(nc).zip(times) {
                row[c] = match a {
                    Anchor::Driver(k) => {
                        self.sys.drivers[k].motion.eval(Self::schedule_time_of_row(to, row_bp)).1
                    }
                    _ => 0.0,
                };
            }
        }
    }
}
