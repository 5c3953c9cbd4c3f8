//! A stick shorter than a step: a sliding contact whose relative speed dips
//! through zero and back inside one step shows no sign change of its root
//! at the step's ends, so no root finder sees it (a freewheel overrunning
//! its crank, caught up for a few microseconds, was slid through with the
//! one-way lock violated by 2.4e-10 rad/s). After every accepted step
//! without a root, each contact sliding in a set-valued mode is checked on
//! the step's dense output: if its root `±v_rel - band` (positive at both
//! ends) falls at the start and rises at the end, the interior minimum is
//! located by golden sections, and if it is at or below zero the first
//! crossing before it by bisection: that is the step's event.
//!
//! The ends' slopes are finite differences over a thousandth of the step
//! (three evaluations of the dense output per step while a contact slides);
//! a step holding more than one extremum of a relative speed is not
//! searched (the methods' steps are far shorter than such oscillations).

use friction_models::FrictionModel;

use crate::engine::integrate::stepper::Stepper;
use crate::engine::network::Engine;
use crate::engine::outcome::Mode;

/// Golden-section ratio `(sqrt 5 - 1) / 2`.
const GOLDEN: f64 = 0.618_033_988_749_894_8;

impl Engine<'_> {
    /// The root `±v_rel - band` of sliding contact `c` at (t, y), as
    /// [`Engine::roots`] computes it.
    fn slide_root(&self, t: f64, y: &[f64], c: usize, mode: Mode) -> f64 {
        let ct = &self.sys.contacts[c];
        let v = {
            let mut s = self.scr.borrow_mut();
            s.drivers_at(&self.sys.drivers, t);
            self.pos(y, &s, ct.between[0]).1 - self.pos(y, &s, ct.between[1]).1
        };
        let dir = if mode == Mode::Forward { 1.0 } else { -1.0 };
        // a model that follows a temperature: its band at the temperature of `y`
        dir * v - self.model_at_temp(y, c).as_ref().unwrap_or(&ct.model).stick_band()
    }

    /// A sliding contact's arrival at rest inside the last step `[t0, t1]`
    /// that its ends do not show (see the module): `(time, contact)`, the
    /// earliest over the contacts. `buf` holds a state (any length `n`).
    pub(crate) fn interior_arrival<S: Stepper>(
        &self,
        solver: &S,
        t0: f64,
        t1: f64,
        buf: &mut [f64],
    ) -> Option<(f64, usize)> {
        if self.nroots == 0 || t1.partial_cmp(&t0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        // the engine's work arrays: nothing allocated per step once grown
        let mut work = self.arrival_work.borrow_mut();
        let (sliding, g) = &mut *work;
        sliding.clear();
        {
            let d = self.disc.borrow();
            sliding.extend(
                (0..self.sys.contacts.len())
                    .filter(|&c| matches!(d.modes[c], Mode::Forward | Mode::Backward))
                    .map(|c| (c, d.modes[c])),
            );
        }
        if sliding.is_empty() {
            return None;
        }
        let m = self.q_off;
        let h = t1 - t0;
        let eps = 1e-3 * h;
        // the state at `t` on the dense output (the step's end exactly; `t1`
        // may be a root inside the step)
        let t_end = solver.t();
        let at = |t: f64, buf: &mut [f64]| -> bool {
            if t == t_end {
                buf.copy_from_slice(solver.y());
                true
            } else {
                solver.interpolate_states(t, buf, m).is_ok()
            }
        };
        // the root of every sliding contact at the four points
        g.clear();
        g.resize(sliding.len(), [0.0; 4]);
        for (k, &tq) in [t0, t0 + eps, t1 - eps, t1].iter().enumerate() {
            if !at(tq, buf) {
                return None;
            }
            for (j, &(c, mode)) in sliding.iter().enumerate() {
                g[j][k] = self.slide_root(tq, buf, c, mode);
            }
        }
        let mut best: Option<(f64, usize)> = None;
        for (j, &(c, mode)) in sliding.iter().enumerate() {
            let [ga, ga2, gb2, gb] = g[j];
            // positive at both ends, falling at the start and rising at the end
            if !(ga > 0.0 && gb > 0.0 && ga2 < ga && gb2 < gb) {
                continue;
            }
            let mut f = |t: f64| -> Option<f64> {
                if !at(t, buf) {
                    return None;
                }
                Some(self.slide_root(t, buf, c, mode))
            };
            // golden sections for the minimum, stopped at the first value at
            // or below zero, or once the minimum is resolved above zero
            let (mut a, mut b) = (t0, t1);
            let (mut fa, mut fb) = (ga, gb);
            let mut x1 = b - GOLDEN * (b - a);
            let mut x2 = a + GOLDEN * (b - a);
            let (mut f1, mut f2) = (f(x1)?, f(x2)?);
            let mut below = None;
            for _ in 0..200 {
                if f1 <= 0.0 {
                    below = Some(x1);
                    break;
                }
                if f2 <= 0.0 {
                    below = Some(x2);
                    break;
                }
                let low = f1.min(f2);
                // resolved above zero: the inner values below the ends and
                // within a thousandth of them (inner values above an end
                // only say the dip lies between that end and them: seed 8985
                // of issue 50, a root of 3.4e-4 at the start of an 80 ms
                // step, 4.0e-4 at the first inner point and -1.5e-4 between,
                // was left, and the contact slid on against its slip)
                let ends = fa.min(fb);
                if (low < ends && ends - low < 1e-3 * low) || b - a <= 1e-15 * (1.0 + t1.abs()) {
                    break;
                }
                if f1 < f2 {
                    (b, fb) = (x2, f2);
                    (x2, f2) = (x1, f1);
                    x1 = b - GOLDEN * (b - a);
                    f1 = f(x1)?;
                } else {
                    (a, fa) = (x1, f1);
                    (x1, f1) = (x2, f2);
                    x2 = a + GOLDEN * (b - a);
                    f2 = f(x2)?;
                }
            }
            let Some(tm) = below else { continue };
            // the first crossing in (t0, tm]: bisection (g > 0 at `lo`)
            let (mut lo, mut hi) = (t0, tm);
            while hi - lo > 4.0 * f64::EPSILON * (1.0 + hi.abs()) {
                let mid = 0.5 * (lo + hi);
                if f(mid)? > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            if best.is_none_or(|(tb, _)| hi < tb) {
                best = Some((hi, c));
            }
        }
        best
    }
}
