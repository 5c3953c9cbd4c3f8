//! Turning points that are not reversals of the relative velocity: the
//! roots of the models' turning-point functions (`FrictionModel::turns`:
//! the reversals of `leuven`'s state z, a `gms` element reaching its slip
//! force), the sign each had at the last accepted instant, and what a root
//! of one means. Like a reversal, such a root changes no mode: the memory
//! is updated there (`accept`) and the function is watched the other way.

use friction_models::{FrictionModel, Input};

use crate::engine::network::{Discrete, Engine, Scratch};

impl Engine<'_> {
    /// Contact `c`'s turning-point functions at (t, y) with memory `mem`
    /// into `g`; the drivers' motions must be in `s`.
    fn turns_into(&self, t: f64, y: &[f64], s: &Scratch, c: usize, mem: &[f64], g: &mut [f64]) {
        let ct = &self.sys.contacts[c];
        let (xa, va) = self.pos(y, s, ct.between[0]);
        let (xb, vb) = self.pos(y, s, ct.between[1]);
        let off = self.z_off[c];
        let inp = Input::new(t, xa - xb, va - vb);
        let tm = self.model_at_temp(y, c);
        tm.as_ref().unwrap_or(&ct.model).turns(&inp, &y[off..off + ct.model.n_states()], mem, g);
    }

    /// The turning-point roots into `g` (`n_turn` values, the last block of
    /// `Engine::roots`): each function times its sign at the last
    /// accepted instant, plus the contact's velocity tolerance, so that a
    /// root is a change of sign beyond the tolerance (as the reversal roots
    /// of the relative velocity); 1 while it has none yet. The drivers'
    /// motions must be in `s`.
    pub(crate) fn turn_roots(&self, t: f64, y: &[f64], d: &Discrete, s: &Scratch, g: &mut [f64]) {
        for &(c, k) in &self.root_turn {
            let n = self.sys.contacts[c].model.n_turns();
            let gk = &mut g[k..k + n];
            self.turns_into(t, y, s, c, &d.mem[c], gk);
            let tol = self.vtol(c);
            for (gi, &si) in gk.iter_mut().zip(&d.turn[k..k + n]) {
                *gi = if si == 0.0 { 1.0 } else { si * *gi + tol };
            }
        }
    }

    /// After contact `c`'s memory was updated at (t, y): the signs of its
    /// turning-point functions (the first of which is number `k`), kept
    /// where a function is within twice the velocity tolerance of zero
    /// (as the directions of the reversal roots). Returns whether one changed sign: the
    /// memory made it jump, so the roots must be re-armed (a restart).
    /// The drivers' motions must be in `s`.
    pub(crate) fn accept_turns(
        &self,
        t: f64,
        y: &[f64],
        c: usize,
        k: usize,
        d: &mut Discrete,
        s: &mut Scratch,
    ) -> bool {
        let n = self.sys.contacts[c].model.n_turns();
        let mut tb = std::mem::take(&mut s.tbuf);
        self.turns_into(t, y, s, c, &d.mem[c], &mut tb[..n]);
        let mut flipped = false;
        let tol = 2.0 * self.vtol(c);
        for (si, &gi) in d.turn[k..k + n].iter_mut().zip(&tb[..n]) {
            if gi.abs() > tol {
                let new = gi.signum();
                flipped |= *si != 0.0 && new != *si;
                *si = new;
            }
        }
        s.tbuf = tb;
        flipped
    }

    /// A root of turning-point function `k` at (t, y), after `accept` moved
    /// the memory at this instant: the function now runs the other way (its
    /// sign is flipped if it is within the velocity tolerance of zero).
    pub(crate) fn handle_turn(&self, t: f64, y: &[f64], k: usize) {
        let Some(&(c, first)) = self.root_turn.iter().rev().find(|&&(_, f)| f <= k) else {
            return;
        };
        let mut d = self.disc.borrow_mut();
        let mut s = self.scr.borrow_mut();
        s.drivers_at(&self.sys.drivers, t);
        let before = d.turn[k];
        let mut tb = std::mem::take(&mut s.tbuf);
        let n = self.sys.contacts[c].model.n_turns();
        self.turns_into(t, y, &s, c, &d.mem[c], &mut tb[..n]);
        let g = tb[k - first];
        s.tbuf = tb;
        d.turn[k] = if g.abs() > self.vtol(c) { g.signum() } else { -before };
        self.count.reversals.set(self.count.reversals.get() + 1);
    }
}
