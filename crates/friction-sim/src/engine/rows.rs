//! Output columns and rows: time, positions and velocities of bodies and
//! drivers, contact forces, and the contacts' internal states.

use friction_models::FrictionModel;

use super::network::Engine;

impl Engine<'_> {
    /// Column names of the time series.
    pub(crate) fn columns(&self) -> Vec<String> {
        let sys = self.sys;
        let mut cols = vec!["t".to_string()];
        for b in &sys.bodies {
            cols.push(format!("x.{}", b.name));
            cols.push(format!("v.{}", b.name));
        }
        for dr in &sys.drivers {
            cols.push(format!("x.{}", dr.name));
            cols.push(format!("v.{}", dr.name));
        }
        for c in &sys.contacts {
            cols.push(format!("F.{}", c.name));
        }
        for c in &sys.contacts {
            for k in 0..c.model.n_states() + c.model.n_memory() {
                cols.push(format!("z.{}.{k}", c.name));
            }
        }
        cols
    }

    /// One output row at (t, y) under the current modes and memory.
    pub(crate) fn row(&self, t: f64, y: &[f64]) -> Vec<f64> {
        let sys = self.sys;
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, None);
        let nb = self.nb;
        let mut r = Vec::with_capacity(1 + 2 * (nb + sys.drivers.len()) + sys.contacts.len() + self.nz);
        r.push(t);
        for i in 0..nb {
            r.push(y[i]);
            r.push(y[nb + i]);
        }
        for k in 0..sys.drivers.len() {
            r.push(s.drv[k].0);
            r.push(s.drv[k].1);
        }
        // F.NAME: the force the contact exerts on its first member (-F of the model)
        r.extend(s.fc.iter().map(|f| -f));
        for (c, ct) in sys.contacts.iter().enumerate() {
            let off = self.z_off[c];
            r.extend_from_slice(&y[off..off + ct.model.n_states()]);
            r.extend_from_slice(&d.mem[c]);
        }
        r
    }
}
