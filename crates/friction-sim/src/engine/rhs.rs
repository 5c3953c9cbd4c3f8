//! One evaluation of the equations of motion under the current modes, the
//! right-hand side handed to diffsol.

use friction_models::{FrictionModel, Input};

use super::network::{Discrete, Engine, Scratch};
use super::outcome::Mode;

impl Engine<'_> {
    /// One evaluation of the equations at (t, y) under discrete state `d`:
    /// fills the scratch (forces, λ, accelerations) and, if given, dy.
    pub(crate) fn eval(&self, t: f64, y: &[f64], d: &Discrete, s: &mut Scratch, dy: Option<&mut [f64]>) {
        self.count.rhs.set(self.count.rhs.get() + 1);
        let sys = self.sys;
        let nb = self.nb;
        s.drivers_at(&sys.drivers, t);
        s.f.fill(0.0);
        s.fd.fill(0.0);
        for f in &sys.forces {
            s.f[f.on] += f.value.value(t);
        }
        for sp in &sys.springs {
            let (xa, _) = self.pos(y, s, sp.between[0]);
            let (xb, _) = self.pos(y, s, sp.between[1]);
            let fs = sp.stiffness * (xb - xa - sp.length);
            Self::add_force(s, sp.between[0], fs);
            Self::add_force(s, sp.between[1], -fs);
        }
        for dp in &sys.dampers {
            let (_, va) = self.pos(y, s, dp.between[0]);
            let (_, vb) = self.pos(y, s, dp.between[1]);
            let fdmp = dp.coefficient * (vb - va);
            Self::add_force(s, dp.between[0], fdmp);
            Self::add_force(s, dp.between[1], -fdmp);
        }
        let mut dy = dy;
        for (c, ct) in sys.contacts.iter().enumerate() {
            let (xa, va) = self.pos(y, s, ct.between[0]);
            let (xb, vb) = self.pos(y, s, ct.between[1]);
            let v = va - vb;
            s.vrel[c] = v;
            // a normal load <= 0 disengages the contact
            let n = ct.normal.value(t).max(0.0);
            s.normal[c] = n;
            let mode = d.modes[c];
            let veff = match mode {
                Mode::Forward => v.max(f64::MIN_POSITIVE),
                Mode::Backward => v.min(-f64::MIN_POSITIVE),
                _ => v,
            };
            let inp = Input::new(t, xa - xb, veff);
            let nzc = ct.model.n_states();
            let z = &y[self.z_off[c]..self.z_off[c] + nzc];
            let sliding = !matches!(mode, Mode::Stuck | Mode::Free) && n != 0.0;
            let off = self.z_off[c];
            let f = match dy.as_deref_mut() {
                Some(dy) if nzc > 0 => {
                    let dz = &mut dy[off..off + nzc];
                    if sliding {
                        // one call: LuGre's force contains its own rate
                        ct.model.force_and_rates(&inp, z, &d.mem[c], dz)
                    } else {
                        ct.model.rates(&inp, z, &d.mem[c], dz);
                        0.0
                    }
                }
                _ if sliding => ct.model.force(&inp, z, &d.mem[c]),
                _ => 0.0,
            };
            if sliding {
                let fc = n * f;
                s.fc[c] = fc;
                Self::add_force(s, ct.between[0], -fc);
                Self::add_force(s, ct.between[1], fc);
            } else {
                s.fc[c] = 0.0;
            }
        }
        self.constraint_forces(&d.rows, &d.plan, s);
        if let Some(dy) = dy {
            dy[..nb].copy_from_slice(&y[nb..2 * nb]);
            dy[nb..2 * nb].copy_from_slice(&s.a);
            self.powers_from(t, y, s, &mut dy[self.q_off..]);
        }
    }

    /// The powers whose integrals are the energy bookkeeping (the
    /// quadrature states' rates), at (t, y) after an evaluation there: per
    /// contact `F v_rel`, per damper `c Δv²`, then the power of the forces
    /// and of the drivers.
    fn powers_from(&self, t: f64, y: &[f64], s: &Scratch, g: &mut [f64]) {
        let sys = self.sys;
        let nb = self.nb;
        let nc = sys.contacts.len();
        for c in 0..nc {
            g[c] = s.fc[c] * s.vrel[c];
        }
        for (k, dp) in sys.dampers.iter().enumerate() {
            let (_, va) = self.pos(y, s, dp.between[0]);
            let (_, vb) = self.pos(y, s, dp.between[1]);
            g[nc + k] = dp.coefficient * (vb - va).powi(2);
        }
        let mut pf = 0.0;
        for f in &sys.forces {
            pf += f.value.value(t) * y[nb + f.on];
        }
        let mut pd = 0.0;
        for (k, dr) in s.drv.iter().enumerate() {
            pd -= s.fd[k] * dr.1;
        }
        g[nc + sys.dampers.len()] = pf;
        g[nc + sys.dampers.len() + 1] = pd;
    }

    /// The right-hand side dy = f(t, y) under the current modes.
    pub(crate) fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, Some(dy));
    }
}
