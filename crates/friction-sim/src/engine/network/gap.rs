//! Compliant one-sided contacts (`[[gap]]`, Modelica's ElastoGap): their
//! forces in the equations, their partial derivatives for the Jacobian,
//! their event roots, their stored energy and dissipated power. The force
//! law itself is [`crate::system::Gap::law`].
//!
//! A gap's force has kinks: where contact starts or ends (`p = 0`, where
//! the force's slope in the penetration jumps from 0 to c for n = 1, and
//! the damping force's from 0 to the limit), and where its damping force
//! meets the limit `|d ṗ| = c p^n`. Each is a root, so that no step
//! straddles one: per gap `[x2 - x1 - length, c p^n - d |ṗ|]`, at the end of
//! the root layout. The second is -1 out of contact (where it would be
//! `-d |ṗ|`, zero for a body at rest, and an exact zero is a root at every
//! step) and 1 without damping.
//!
//! Contact starting and ending are logged as events of `gap:NAME`, from
//! `open` to `closed` and back ([`Engine::gap_event`]); the damping limit's
//! switch is a kink only, not logged.

use crate::engine::network::{Engine, Scratch};
use crate::engine::outcome::Event;
use crate::system::{Gap, GapForce};

impl Engine<'_> {
    /// Relative position and velocity `x2 - x1`, `v2 - v1` of gap `k`'s
    /// members. The drivers' motions must be in the scratch.
    #[inline]
    pub(crate) fn gap_rel(&self, y: &[f64], s: &Scratch, g: &Gap) -> (f64, f64) {
        let (xa, va) = self.pos(y, s, g.between[0]);
        let (xb, vb) = self.pos(y, s, g.between[1]);
        (xb - xa, vb - va)
    }

    /// Gap `k`'s force and parts at (t, y) (drivers in the scratch).
    #[inline]
    pub(crate) fn gap_force(&self, y: &[f64], s: &Scratch, k: usize) -> GapForce {
        let g = &self.sys.gaps[k];
        let (srel, vrel) = self.gap_rel(y, s, g);
        g.law(srel, vrel)
    }

    /// Add every gap's force to its members: -F on the first, +F on the second.
    pub(crate) fn gap_forces(&self, y: &[f64], s: &mut Scratch) {
        for (k, g) in self.sys.gaps.iter().enumerate() {
            let f = self.gap_force(y, s, k).force;
            if f != 0.0 {
                Self::add_force(s, g.between[0], -f);
                Self::add_force(s, g.between[1], f);
            }
        }
    }

    /// The power each gap's damping dissipates, `F_d ṗ >= 0` (MSL's
    /// `lossPower`), into `g` (one per gap).
    pub(crate) fn gap_powers(&self, y: &[f64], s: &Scratch, g: &mut [f64]) {
        for (k, gp) in self.sys.gaps.iter().enumerate() {
            let (srel, vrel) = self.gap_rel(y, s, gp);
            g[k] = -gp.law(srel, vrel).damping * vrel;
        }
    }

    /// The elastic energy stored in the gaps at (t, y) (drivers in the scratch).
    pub(crate) fn gap_energy(&self, y: &[f64], s: &Scratch) -> f64 {
        self.sys.gaps.iter().map(|g| g.energy(self.gap_rel(y, s, g).0)).sum()
    }

    /// The gaps' roots at (t, y) into `g` (two per gap, see the module).
    pub(crate) fn gap_roots(&self, t: f64, y: &[f64], s: &mut Scratch, g: &mut [f64]) {
        if !self.sys.drivers.is_empty() {
            s.drivers_at(&self.sys.drivers, t);
        }
        for (k, gp) in self.sys.gaps.iter().enumerate() {
            let (srel, vrel) = self.gap_rel(y, s, gp);
            let open = srel - gp.length;
            // an exact zero is a root at every step: the boundary counts as contact
            g[2 * k] = if open == 0.0 { -f64::MIN_POSITIVE } else { open };
            g[2 * k + 1] = if gp.damping == 0.0 {
                1.0
            } else if open >= 0.0 {
                -1.0
            } else {
                gp.law(srel, vrel).elastic - gp.damping * vrel.abs()
            };
        }
    }

    /// Every gap's `(∂F/∂(x2 - x1), ∂F/∂(v2 - v1))` at (t, y) into `out`
    /// (drivers in the scratch).
    pub(crate) fn gap_partials(&self, y: &[f64], s: &Scratch, out: &mut [(f64, f64)]) {
        for (k, o) in out.iter_mut().enumerate() {
            let f = self.gap_force(y, s, k);
            *o = (f.d_srel, f.d_vrel);
        }
    }

    /// The event of root `idx` (one of the gaps' roots) reached at (t, y):
    /// gap `k`'s contact starting (`open` to `closed`, the members
    /// approaching) or ending (`closed` to `open`), named `gap:NAME`.
    /// `None` for the damping limit's switch, or at rest on the boundary.
    pub(crate) fn gap_event(&self, t: f64, y: &[f64], idx: usize) -> Option<Event> {
        if self.sys.gaps.is_empty() || idx < self.root_gap || (idx - self.root_gap) % 2 == 1 {
            return None;
        }
        let k = (idx - self.root_gap) / 2;
        let g = self.sys.gaps.get(k)?;
        let mut s = self.scr.borrow_mut();
        s.drivers_at(&self.sys.drivers, t);
        // the gap opens (x2 - x1 - length grows) while v2 - v1 > 0
        let (_, vrel) = self.gap_rel(y, &s, g);
        let (from, to) = if vrel < 0.0 {
            ("open", "closed")
        } else if vrel > 0.0 {
            ("closed", "open")
        } else {
            return None;
        };
        Some(Event { t, contact: format!("gap:{}", g.name), from: from.into(), to: to.into() })
    }
}
