//! Energy bookkeeping: stored energy of the network, and the balance of the
//! work done on it against what it stored and dissipated.
//!
//! The powers of the contacts, dampers, forces, drivers and the gaps'
//! damping are integrated as
//! quadrature states alongside the motion (their Jacobian rows are zero, so
//! Newton's iteration updates them by substitution); impulses (sticking
//! projections, impacts) are booked as they happen.

use crate::engine::network::Engine;
use crate::engine::outcome::Energy;

impl Engine<'_> {
    /// Kinetic and spring energy at (t, y) [J].
    pub(crate) fn mechanical_energy(&self, t: f64, y: &[f64]) -> (f64, f64) {
        let sys = &*self.sys;
        let nb = self.nb;
        // the structures' coordinates are the last bodies (`structures::lower`):
        // their kinetic energy is ½ vᵀ M v over each block, below
        let plain = nb - self.blocks.iter().map(|b| b.n).sum::<usize>();
        let ke: f64 = (0..plain).map(|i| 0.5 * sys.bodies[i].mass * y[nb + i].powi(2)).sum();
        let mut s = self.scr.borrow_mut();
        s.drivers_at(&sys.drivers, t);
        let pe: f64 = sys
            .springs
            .iter()
            .map(|sp| {
                let (xa, _) = self.pos(y, &s, sp.between[0]);
                let (xb, _) = self.pos(y, &s, sp.between[1]);
                0.5 * sp.stiffness * (xb - xa - sp.length).powi(2)
            })
            .sum::<f64>()
            + sys
                .inclined_springs
                .iter()
                .map(|sp| 0.5 * sp.stiffness * sp.stretch(|m| self.pos(y, &s, m).0).powi(2))
                .sum::<f64>();
        // the gaps' elastic energy counts with the springs'
        let pe = if sys.gaps.is_empty() { pe } else { pe + self.gap_energy(y, &s) };
        // a structure's: ½ vᵀ M v and ½ xᵀ K x over its block
        let (mut ke, mut pe) = (ke, pe);
        for b in &self.blocks {
            let (kb, pb) = b.energy(&y[b.base..b.base + b.n], &y[nb + b.base..nb + b.base + b.n]);
            ke += kb;
            pe += pb;
        }
        (ke, pe)
    }

    /// The energy balance of a run from its initial energies, its final
    /// state and the integrals of the powers (the quadrature states).
    pub(crate) fn energy_balance(&self, e0: (f64, f64), t_last: f64, y_end: &[f64], q: &[f64]) -> Energy {
        let sys = &*self.sys;
        let (ke0, pe0) = e0;
        let (ke1, pe1) = self.mechanical_energy(t_last, y_end);
        let nc = sys.contacts.len();
        let nd = sys.dampers.len();
        // the contacts in a plane after the others
        let contacts: Vec<(String, f64)> = sys
            .contacts
            .iter()
            .enumerate()
            .map(|(c, ct)| (ct.name.clone(), q[c]))
            .chain(self.planes.iter().enumerate().map(|(p, pl)| (pl.name.clone(), q[self.plane_q + p])))
            .collect();
        let qb = nc + nd + 2 + sys.gaps.len();
        // a structure's damping counts as a damper of its name
        let dampers: Vec<(String, f64)> = sys
            .dampers
            .iter()
            .enumerate()
            .map(|(k, dp)| (dp.name.clone(), q[nc + k]))
            .chain(
                self.blocks
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.damped())
                    .map(|(k, b)| (b.name.clone(), q[qb + k])),
            )
            .collect();
        let work_forces = q[nc + nd];
        let work_drivers = q[nc + nd + 1];
        let gaps: Vec<(String, f64)> =
            sys.gaps.iter().enumerate().map(|(k, g)| (g.name.clone(), q[nc + nd + 2 + k])).collect();
        let impacts = self.disc.borrow().impacts;
        let stored = (ke1 - ke0) + (pe1 - pe0);
        let dissipated: f64 =
            contacts.iter().map(|c| c.1).sum::<f64>() + dampers.iter().map(|d| d.1).sum::<f64>();
        let dissipated =
            if gaps.is_empty() { dissipated } else { dissipated + gaps.iter().map(|g| g.1).sum::<f64>() };
        let residual = work_forces + work_drivers - stored - dissipated - impacts;
        // heat: the heated elements' dissipation went to the nodes, where
        // it is stored (capacities) or absorbed (fixed nodes)
        let thermal = self.heat_balance(y_end, q);
        let residual = if thermal.is_empty() {
            residual
        } else {
            let heated: f64 = self.heat.feeds.iter().map(|&(at, _)| q[at]).sum();
            residual + heated - thermal.iter().map(|h| h.1).sum::<f64>()
        };
        Energy {
            work_forces,
            work_drivers,
            kinetic: (ke0, ke1),
            spring: (pe0, pe1),
            contacts,
            dampers,
            gaps,
            impacts,
            thermal,
            residual,
        }
    }
}
