//! The state and what makes the steps small, as text for the messages of a
//! failed run.

use friction_models::FrictionModel;

use crate::engine::network::Engine;
use crate::engine::outcome::Mode;
use crate::system::Member;

impl Engine<'_> {
    /// What makes the steps small, for the message of a run that ran out of
    /// steps: the spring with the shortest period on its lightest body, the
    /// smallest mass, and the stiff contacts.
    pub(crate) fn stiffness_hint(&self) -> String {
        let sys = &*self.sys;
        let mut parts = Vec::new();
        let mass_of = |m: Member| match m {
            Member::Body(i) => Some(sys.bodies[i].mass),
            _ => None,
        };
        let fastest = sys
            .springs
            .iter()
            .filter_map(|sp| {
                let m = [mass_of(sp.between[0]), mass_of(sp.between[1])]
                    .into_iter()
                    .flatten()
                    .fold(f64::INFINITY, f64::min);
                (m.is_finite() && sp.stiffness > 0.0)
                    .then(|| (2.0 * std::f64::consts::PI * (m / sp.stiffness).sqrt(), sp.name.clone()))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((period, name)) = fastest {
            parts.push(format!("spring `{name}` (period {period:.3e} s on its lightest body)"));
        }
        if let Some(b) = sys.bodies.iter().min_by(|a, b| a.mass.total_cmp(&b.mass)) {
            parts.push(format!("smallest mass `{}` = {:e} kg", b.name, b.mass));
        }
        let stiff: Vec<String> = sys
            .contacts
            .iter()
            .filter(|c| c.model.is_stiff())
            .take(3)
            .map(|c| format!("contact `{}` (`{}`)", c.name, c.model.info().id))
            .collect();
        if !stiff.is_empty() {
            parts.push(format!("stiff {}", stiff.join(", ")));
        }
        if parts.is_empty() {
            "no spring, mass or stiff contact stands out".into()
        } else {
            parts.join("; ")
        }
    }

    /// The state as text for error messages.
    pub(crate) fn state_text(&self, y: &[f64]) -> String {
        let mut parts = Vec::new();
        for (i, b) in self.sys.bodies.iter().enumerate().take(20) {
            let (x, v) = b.columns();
            parts.push(format!("{x} = {:e}", y[i]));
            parts.push(format!("{v} = {:e}", y[self.nb + i]));
        }
        if self.sys.bodies.len() > 20 {
            parts.push(format!("... ({} bodies)", self.sys.bodies.len()));
        }
        for (c, ct) in self.sys.contacts.iter().enumerate().take(20) {
            for k in 0..ct.model.n_states().min(4) {
                parts.push(format!("z.{}.{k} = {:e}", ct.name, y[self.z_off[c] + k]));
            }
        }
        let d = self.disc.borrow();
        for (c, ct) in self.sys.contacts.iter().enumerate().take(20) {
            if d.modes[c] != Mode::Smooth {
                parts.push(format!("mode.{} = {}", ct.name, d.modes[c].name()));
            }
        }
        parts.join(", ")
    }
}
