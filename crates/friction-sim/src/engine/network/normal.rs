//! A contact's normal load: its schedule `N(t)` and, with `normal_gap`, the
//! force of a gap (`[[gap]]`) at the state, so that the load follows the
//! motion: a body pressed onto a compliant floor carries a friction
//! capacity `Fs N` with `N` the floor's force at every instant, and lifts
//! off (no load, no friction) where the floor's gap opens.
//!
//! The signed load that engages a contact (its sign decides `Free` against
//! the others, [`Engine::raw_normal`]) is the schedule's value, times the
//! gap's force law without its limits (`c p^n + d ṗ` in contact, `c p` out
//! of it, `p` the penetration), so that its root is where the gap's force
//! reaches zero: at its opening, or before it where the damping's limit
//! takes the force to zero while the members still overlap.

use crate::engine::network::{Engine, Scratch};

impl Engine<'_> {
    /// Contact `c`'s normal load factor at (t, y): `N(t)` (0 where negative:
    /// disengaged), times its `normal_gap`'s force (>= 0). The drivers'
    /// motions must be in the scratch when the gap has a driver.
    #[inline]
    pub(crate) fn normal_factor(&self, t: f64, y: &[f64], s: &Scratch, c: usize) -> f64 {
        let ct = &self.sys.contacts[c];
        let n = ct.normal.value(t).max(0.0);
        match ct.normal_gap {
            None => n,
            Some(k) => n * self.gap_force(y, s, k).force,
        }
    }

    /// The signed normal load whose sign engages contact `c` (`<= 0`:
    /// disengaged): `N(t)`, and with a `normal_gap` where `N(t) > 0` the
    /// gap's force law without its limits (negative while open).
    #[inline]
    pub(crate) fn raw_normal(&self, t: f64, y: &[f64], s: &Scratch, c: usize) -> f64 {
        let ct = &self.sys.contacts[c];
        let raw = ct.normal.value(t);
        match ct.normal_gap {
            Some(k) if raw > 0.0 => {
                let g = &self.sys.gaps[k];
                let (srel, vrel) = self.gap_rel(y, s, g);
                raw * g.signed_force(srel, vrel)
            }
            _ => raw,
        }
    }

    /// `∂N/∂(x2 - x1)`, `∂N/∂(v2 - v1)` of contact `c`'s normal load factor
    /// through its `normal_gap` (members of the gap), from the gap's slopes
    /// `gap_slopes`: `N(t)` times them; `None` without a gap.
    #[inline]
    pub(crate) fn normal_slopes(
        &self,
        t: f64,
        c: usize,
        gap_slopes: &[(f64, f64)],
    ) -> Option<(usize, f64, f64)> {
        let ct = &self.sys.contacts[c];
        let k = ct.normal_gap?;
        let n = ct.normal.value(t).max(0.0);
        let (ks, kv) = gap_slopes[k];
        Some((k, n * ks, n * kv))
    }
}
