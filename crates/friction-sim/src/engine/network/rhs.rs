//! One evaluation of the equations of motion under the current modes, the
//! right-hand side handed to diffsol.

use friction_models::FrictionModel;

use crate::engine::linalg::short;
use crate::engine::network::{Discrete, Engine, Scratch};
use crate::engine::outcome::Mode;

impl Engine<'_> {
    /// One evaluation of the equations at (t, y) under discrete state `d`:
    /// fills the scratch (forces, λ, accelerations) and, if given, dy.
    pub(crate) fn eval(&self, t: f64, y: &[f64], d: &Discrete, s: &mut Scratch, dy: Option<&mut [f64]>) {
        self.count.rhs.set(self.count.rhs.get() + 1);
        let sys = &*self.sys;
        let nb = self.nb;
        s.drivers_at(&sys.drivers, t);
        short::fill(&mut s.f, 0.0);
        short::fill(&mut s.fd, 0.0);
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
        for sp in &sys.inclined_springs {
            let tension = sp.stiffness * sp.stretch(|m| self.pos(y, s, m).0);
            for &(m, w) in &sp.legs {
                Self::add_force(s, m, -tension * w);
            }
        }
        for dp in &sys.dampers {
            let (_, va) = self.pos(y, s, dp.between[0]);
            let (_, vb) = self.pos(y, s, dp.between[1]);
            let fdmp = dp.coefficient * (vb - va);
            Self::add_force(s, dp.between[0], fdmp);
            Self::add_force(s, dp.between[1], -fdmp);
        }
        if !sys.gaps.is_empty() {
            self.gap_forces(y, s);
        }
        if !self.blocks.is_empty() {
            self.block_forces(y, &mut s.f);
        }
        let mut dy = dy;
        for (c, ct) in sys.contacts.iter().enumerate() {
            let off = self.z_off[c];
            let dz = dy.as_deref_mut().map(|dy| &mut dy[off..off + ct.model.n_states()]);
            let fc = self.contact(t, y, d, s, c, dz);
            if fc != 0.0 {
                Self::add_force(s, ct.between[0], -fc);
                Self::add_force(s, ct.between[1], fc);
            }
        }
        if !self.planes.is_empty() {
            self.plane_forces(t, y, d, s, dy.as_deref_mut());
        }
        self.constraint_forces(d, s);
        if !self.planes.is_empty() {
            self.disk_stick_forces(d, s);
        }
        if let Some(dy) = dy {
            short::copy(&mut dy[..nb], &y[nb..2 * nb]);
            short::copy(&mut dy[nb..2 * nb], &s.a);
            self.powers_from(t, y, s, &mut dy[self.q_off..]);
            if !self.sys.thermal.is_empty() {
                self.heat_rates(y, dy);
            }
        }
    }

    /// Contact `c` at (t, y) under discrete state `d`: its relative velocity,
    /// normal load and force (the load times the model's force while it
    /// slides, else 0; a held contact's force comes from the constraints)
    /// into the scratch, and with `dz` the rates of its states. Returns the
    /// force. The drivers' motions must be in the scratch.
    pub(crate) fn contact(
        &self,
        t: f64,
        y: &[f64],
        d: &Discrete,
        s: &mut Scratch,
        c: usize,
        dz: Option<&mut [f64]>,
    ) -> f64 {
        let ct = &self.sys.contacts[c];
        let mode = d.modes[c];
        let (inp, v) = self.contact_input(t, y, s, c, mode);
        s.vrel[c] = v;
        // a normal load <= 0 disengages the contact
        let n = self.load(t, y, s, c);
        s.normal[c] = n;
        // a model that follows a temperature: at the temperature of `y`,
        // kept for the stick/slip logic after this evaluation
        if let Some(m) = self.model_at_temp(y, c) {
            s.tmodel[c] = Some(m);
        }
        let model = self.cmodel(s, c);
        let off = self.z_off[c];
        let z = &y[off..off + ct.model.n_states()];
        let sliding = !matches!(mode, Mode::Stuck | Mode::Free) && n != 0.0;
        let f = match dz {
            Some(dz) if !dz.is_empty() => {
                if sliding {
                    // one call: LuGre's force contains its own rate
                    model.force_and_rates(&inp, z, &d.mem[c], dz)
                } else {
                    model.rates(&inp, z, &d.mem[c], dz);
                    0.0
                }
            }
            _ if sliding => model.force(&inp, z, &d.mem[c]),
            _ => 0.0,
        };
        let fc = if sliding { n * f } else { 0.0 };
        s.fc[c] = fc;
        fc
    }

    /// The powers whose integrals are the energy bookkeeping (the
    /// quadrature states' rates), at (t, y) after an evaluation there: per
    /// contact `F v_rel`, per damper `c Δv²`, then the power of the forces
    /// and of the drivers, then per gap its damping's power.
    fn powers_from(&self, t: f64, y: &[f64], s: &Scratch, g: &mut [f64]) {
        let sys = &*self.sys;
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
        if !sys.gaps.is_empty() {
            self.gap_powers(y, s, &mut g[nc + sys.dampers.len() + 2..]);
        }
        let qb = nc + sys.dampers.len() + 2 + sys.gaps.len();
        for (k, b) in self.blocks.iter().enumerate() {
            g[qb + k] = b.damping_power(&y[nb + b.base..nb + b.base + b.n]);
        }
        if !self.planes.is_empty() {
            self.plane_powers(s, &mut g[self.plane_q..self.plane_q + self.planes.len()]);
        }
    }

    /// The right-hand side dy = f(t, y) under the current modes.
    pub(crate) fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, Some(dy));
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::engine::network::Engine;

    /// The energy quadratures feed back into nothing: the methods form
    /// their inner stages for the states before them only (`dop853`) and
    /// the Jacobian has no columns for them (`jacobian`). With every
    /// quadrature NaN, the rates of the motion and the event roots of every
    /// example are bit for bit those with the quadratures at zero.
    #[test]
    fn equations_and_roots_read_no_energy_quadrature() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let sys = crate::scenario::load(&path).unwrap();
            let eng = Engine::new(&sys);
            let mut y = eng.initial_state();
            eng.initial_modes(&mut y).unwrap();
            // a moving state: every velocity and contact state nudged
            for (i, v) in y.iter_mut().enumerate().take(eng.q_off) {
                *v += 1e-3 * (1.0 + i as f64).sin();
            }
            let (mut f0, mut f1) = (vec![0.0; eng.n], vec![0.0; eng.n]);
            let (mut g0, mut g1) = (vec![0.0; eng.nroots], vec![0.0; eng.nroots]);
            let t = 0.3;
            y[eng.q_off..].fill(0.0);
            eng.rhs(t, &y, &mut f0);
            eng.roots(t, &y, &mut g0);
            y[eng.q_off..].fill(f64::NAN);
            eng.rhs(t, &y, &mut f1);
            eng.roots(t, &y, &mut g1);
            let name = path.display();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&f0), bits(&f1), "{name}: rates");
            assert_eq!(bits(&g0), bits(&g1), "{name}: roots");
            seen += 1;
        }
        assert!(seen >= 15, "{seen} examples");
    }
}
