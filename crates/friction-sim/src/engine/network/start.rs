//! The state and modes a run starts from: bodies and drivers at their
//! initial positions and velocities, every contact's states relaxed, and
//! the stick/slip modes from the relative velocities (those at rest decided
//! jointly).

use friction_models::{FrictionModel, Input};

use crate::engine::network::{Engine, RowKind};
use crate::engine::outcome::{Event, Mode};
use crate::error::SimError;

impl Engine<'_> {
    pub(crate) fn initial_state(&self) -> Vec<f64> {
        let sys = &*self.sys;
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
        // first: a model that follows a temperature starts at the initial one
        self.initial_temperatures(&mut y);
        for (c, ct) in sys.contacts.iter().enumerate() {
            let (xa, va) = self.pos(&y, &s, ct.between[0]);
            let (xb, vb) = self.pos(&y, &s, ct.between[1]);
            let nzc = ct.model.n_states();
            let off = self.z_off[c];
            let inp = Input::new(0.0, xa - xb, va - vb);
            let mut z = vec![0.0; nzc];
            let tm = self.model_at_temp(&y, c);
            tm.as_ref().unwrap_or(&ct.model).init(&inp, &mut z, &mut d.mem[c]);
            y[off..off + nzc].copy_from_slice(&z);
            d.dir[c] = friction_models::sign(va - vb);
        }
        // the initial signs of the turning-point functions
        for &(c, k) in &self.root_turn {
            self.accept_turns(0.0, &y, c, k, &mut d, &mut s);
        }
        y
    }

    /// Modes from the sign of each stuckable contact's relative velocity;
    /// contacts exactly at rest are settled jointly; contacts without normal
    /// load are free. A body starting at a stop's limit rests there (with
    /// the contacts at rest, jointly) unless it moves away from it; one
    /// moving into it is an impact at t = 0 (a bounce by its restitution, or
    /// a plastic impact whose kinetic energy is booked under `impacts`). The
    /// mechanical energy as given, before any such impulse, is the run's
    /// starting energy ([`Engine::start_energy`]).
    pub(crate) fn initial_modes(&self, y: &mut [f64]) -> Result<Vec<Event>, SimError> {
        self.start_energy.set(Some(self.mechanical_energy(0.0, y)));
        if !self.planes.is_empty() {
            self.disk_start(y);
        }
        {
            let mut d = self.disc.borrow_mut();
            let mut s = self.scr.borrow_mut();
            self.eval(0.0, y, &d, &mut s, None);
            for c in 0..self.sys.contacts.len() {
                if self.stuckable[c] {
                    let v = s.vrel[c];
                    d.modes[c] = if self.raw_normal(0.0, y, &s, c) <= 0.0 {
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
        let arrived: Vec<RowKind> = (0..self.sys.contacts.len())
            .filter(|&c| self.disc.borrow().modes[c] == Mode::Stuck)
            .map(RowKind::Contact)
            .collect();
        // `resolve` takes the stops at their limits (moving into them or at
        // rest) and decides everything at rest jointly; the contacts on
        // friction disks at rest after it
        let mut ev = self.resolve(0.0, y, arrived, &[], &[])?;
        ev.extend(self.disk_recheck(0.0, y));
        Ok(ev)
    }
}
