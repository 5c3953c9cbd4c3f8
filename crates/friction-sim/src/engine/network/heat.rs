//! The thermal network in the engine ([`crate::system::thermal`]): the
//! temperatures of the nodes with a capacity as states of the ODE, their
//! rates, their rows and columns of the exact Jacobian, the heat that
//! reaches fixed nodes as energy quadratures, and the heat in the energy
//! balance.
//!
//! The state vector is `[x | v | z | T | quadratures]`: the temperatures
//! follow the contacts' states and precede the energy quadratures, whose
//! layout grows by one quadrature per fixed node at its end. Per node with
//! capacity `C` (Modelica Standard Library, `Thermal.HeatTransfer.
//! Components.HeatCapacitor` and `ThermalConductor`):
//!
//! ```text
//! C dT/dt = Σ_(e heating it) P_e + Σ_(conductions into it) G (T_a - T_b) - Σ_(out of it) G (T_a - T_b)
//! ```
//!
//! `P_e` is what the energy bookkeeping integrates for element `e` (`F v_rel`
//! for a contact, `c Δv²` for a damper, the damping force times the
//! penetration rate for a gap): the rates read those powers from the
//! quadratures' rates, computed just before, so nothing is evaluated twice.
//! A fixed node's quadrature integrates the same sum (the heat it absorbs).
//! Nothing here allocates during a run.

use crate::engine::network::{Engine, Scratch};
use crate::system::thermal::{Dissipator, NodeKind, Thermal};
use crate::system::Member;

/// Where the thermal network lives in the engine's state, fixed at the start.
#[derive(Debug, Clone, Default)]
pub(crate) struct HeatLayout {
    /// The first temperature state.
    pub t_off: usize,
    /// Per node: its state index (a capacity) or `None` (fixed).
    pub state: Vec<Option<usize>>,
    /// Per node: `1 / C` (0 for a fixed node).
    pub inv_cap: Vec<f64>,
    /// Per node: the index of its quadrature among all quadratures (fixed
    /// nodes only), else `usize::MAX`.
    pub quad: Vec<usize>,
    /// Per element heating a node: where its power is among the
    /// quadratures' rates, and the node.
    pub feeds: Vec<(usize, usize)>,
    /// The Jacobian rows (temperature states) each contact, damper and gap
    /// reaches through its power (`None`: none, or a fixed node).
    pub contact_row: Vec<Option<usize>>,
    pub damper_row: Vec<Option<usize>>,
    pub gap_row: Vec<Option<usize>>,
    /// Per temperature state (from `t_off`): the temperature rows its
    /// column reaches through conductions.
    pub t_col: Vec<Vec<usize>>,
    /// Per contact: its temperature law's index in [`Thermal::laws`] and the
    /// node whose temperature it follows (empty without thermal nodes).
    pub law: Vec<Option<(usize, usize)>>,
    /// Per contact: its model laws' index in [`Thermal::model_laws`] and
    /// the node whose temperature they follow (empty without model laws).
    pub model_law: Vec<Option<(usize, usize)>>,
    /// Per temperature state (from `t_off`): the contacts whose friction
    /// coefficient or model parameters follow it.
    pub t_contacts: Vec<Vec<usize>>,
    /// The number of temperature states and of fixed nodes.
    pub n_states: usize,
    pub n_fixed: usize,
}

impl HeatLayout {
    /// The layout of `th` with temperatures from `t_off`, and the
    /// quadratures of fixed nodes from `q_fixed` (among the quadratures),
    /// for a system of `nc` contacts, `nd` dampers and `ng` gaps.
    pub(crate) fn new(th: &Thermal, t_off: usize, q_fixed: usize, counts: [usize; 3]) -> Self {
        let [nc, nd, ng] = counts;
        let mut l = HeatLayout { t_off, ..Default::default() };
        for n in &th.nodes {
            match n.kind {
                NodeKind::Capacity { capacity, .. } => {
                    l.state.push(Some(t_off + l.n_states));
                    l.inv_cap.push(1.0 / capacity);
                    l.quad.push(usize::MAX);
                    l.n_states += 1;
                }
                NodeKind::Fixed { .. } => {
                    l.state.push(None);
                    l.inv_cap.push(0.0);
                    l.quad.push(q_fixed + l.n_fixed);
                    l.n_fixed += 1;
                }
            }
        }
        l.contact_row = vec![None; nc];
        l.damper_row = vec![None; nd];
        l.gap_row = vec![None; ng];
        for &(e, k) in &th.heat {
            let (at, row) = match e {
                Dissipator::Contact(c) => (c, &mut l.contact_row[c]),
                Dissipator::Damper(d) => (nc + d, &mut l.damper_row[d]),
                Dissipator::Gap(g) => (nc + nd + 2 + g, &mut l.gap_row[g]),
            };
            *row = l.state[k];
            l.feeds.push((at, k));
        }
        l.t_col = vec![Vec::new(); l.n_states];
        for c in &th.conductions {
            let [a, b] = c.between;
            for (from, to) in [(a, b), (b, a)] {
                if let Some(sf) = l.state[from] {
                    let col = &mut l.t_col[sf - t_off];
                    for r in [l.state[from], l.state[to]].into_iter().flatten() {
                        if !col.contains(&r) {
                            col.push(r);
                        }
                    }
                }
            }
        }
        for col in &mut l.t_col {
            col.sort_unstable();
        }
        l.t_contacts = vec![Vec::new(); l.n_states];
        if !th.laws.is_empty() {
            l.law = vec![None; nc];
            for (li, (c, _)) in th.laws.iter().enumerate() {
                let Some(k) = th.node_of(Dissipator::Contact(*c)) else { continue };
                l.law[*c] = Some((li, k));
                if let Some(i) = l.state[k] {
                    l.t_contacts[i - t_off].push(*c);
                }
            }
        }
        if !th.model_laws.is_empty() {
            l.model_law = vec![None; nc];
            for (li, (c, laws)) in th.model_laws.iter().enumerate() {
                let Some(k) = th.node_of(Dissipator::Contact(*c)) else { continue };
                l.model_law[*c] = Some((li, k));
                // constant laws: no entries in the temperature's column
                let varies = laws.iter().any(|(_, law)| !law.is_constant());
                if let (true, Some(i)) = (varies, l.state[k]) {
                    l.t_contacts[i - t_off].push(*c);
                }
            }
        }
        l
    }
}

/// The partial derivatives of the elements' powers at one (t, y), kept
/// with the contacts' partials ([`crate::engine::network::jacobian::JacCache`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct HeatJac {
    /// Per contact: its force `fc` (model force times load, 0 unless
    /// sliding) and relative velocity at the point.
    pub fv: Vec<(f64, f64)>,
    /// Per contact: the product's change of `fc` (set by the contacts' loop
    /// of the product).
    pub dfc: Vec<f64>,
    /// Per gap: ∂P/∂(x2 - x1), ∂P/∂(v2 - v1).
    pub gap: Vec<(f64, f64)>,
    /// Per contact whose coefficient follows a temperature state, while it
    /// slides: `∂fc/∂T` and the state.
    pub law_slope: Vec<Option<(f64, usize)>>,
}

impl HeatJac {
    pub(crate) fn new(nc: usize, ng: usize) -> Self {
        HeatJac {
            fv: vec![(0.0, 0.0); nc],
            dfc: vec![0.0; nc],
            gap: vec![(0.0, 0.0); ng],
            law_slope: vec![None; nc],
        }
    }
}

impl Engine<'_> {
    /// The temperature of node `k` in state `y` \[K\].
    #[inline]
    pub(crate) fn temperature(&self, y: &[f64], k: usize) -> f64 {
        match (self.heat.state[k], self.sys.thermal.nodes[k].kind) {
            (Some(i), _) => y[i],
            (None, NodeKind::Fixed { temperature }) => temperature,
            (None, NodeKind::Capacity { t0, .. }) => t0,
        }
    }

    /// The heat flow of conduction `k` from its first node to its second \[W\].
    #[inline]
    pub(crate) fn heat_flow(&self, y: &[f64], k: usize) -> f64 {
        let c = &self.sys.thermal.conductions[k];
        c.conductance * (self.temperature(y, c.between[0]) - self.temperature(y, c.between[1]))
    }

    /// Contact `c`'s load at (t, y): its normal-load factor `N(t)` (0 where
    /// negative: disengaged) times, for a friction coefficient that follows
    /// a temperature ([`crate::system::thermal::TempLaw`]), its value at the
    /// temperature of the contact's heat node.
    #[inline]
    pub(crate) fn load(&self, t: f64, y: &[f64], s: &Scratch, c: usize) -> f64 {
        let n = self.normal_factor(t, y, s, c);
        match self.heat.law.get(c).copied().flatten() {
            None => n,
            Some((li, k)) => n * self.sys.thermal.laws[li].1.eval(self.temperature(y, k)).0,
        }
    }

    /// `∂(load)/∂T` of contact `c` and the temperature state it follows
    /// (`None`: no law, or a fixed node's constant temperature).
    #[inline]
    fn load_slope(&self, t: f64, y: &[f64], s: &Scratch, c: usize) -> Option<(f64, usize)> {
        let (li, k) = self.heat.law.get(c).copied().flatten()?;
        let i = self.heat.state[k]?;
        let n = self.normal_factor(t, y, s, c);
        Some((n * self.sys.thermal.laws[li].1.eval(y[i]).1, i))
    }

    /// The change of contact `c`'s force `dfc` (from its slip and states)
    /// plus its change with the temperature its coefficient follows, in
    /// direction `v` of a Jacobian-vector product.
    #[inline]
    pub(crate) fn with_law_slope(&self, c: usize, hj: &HeatJac, v: &[f64], dfc: f64) -> f64 {
        match hj.law_slope[c] {
            Some((s, i)) => dfc + s * v[i],
            None => dfc,
        }
    }

    /// The initial temperatures into `y`.
    pub(crate) fn initial_temperatures(&self, y: &mut [f64]) {
        for (n, s) in self.sys.thermal.nodes.iter().zip(&self.heat.state) {
            if let (Some(i), NodeKind::Capacity { t0, .. }) = (s, n.kind) {
                y[*i] = t0;
            }
        }
    }

    /// The temperatures' rates into `dy` and the fixed nodes' heat into
    /// their quadratures' rates, from the elements' powers already in
    /// `dy[q_off..]` ([`Engine::eval`]).
    pub(crate) fn heat_rates(&self, y: &[f64], dy: &mut [f64]) {
        let h = &self.heat;
        let q = self.q_off;
        dy[h.t_off..q].fill(0.0);
        for &qi in h.quad.iter().filter(|&&i| i != usize::MAX) {
            dy[q + qi] = 0.0;
        }
        let into = |k: usize| match h.state[k] {
            Some(i) => i,
            None => q + h.quad[k],
        };
        for &(at, k) in &h.feeds {
            let p = dy[q + at];
            dy[into(k)] += p;
        }
        for (j, c) in self.sys.thermal.conductions.iter().enumerate() {
            let flow = self.heat_flow(y, j);
            dy[into(c.between[0])] -= flow;
            dy[into(c.between[1])] += flow;
        }
        for (s, &ic) in h.state.iter().zip(&h.inv_cap) {
            if let Some(i) = *s {
                dy[i] *= ic;
            }
        }
    }

    /// The partial derivatives of the heated elements' powers at (t, y)
    /// into `hj` (the drivers' motions must be in the scratch): a sliding
    /// contact's force and relative velocity, a gap's power slopes.
    pub(crate) fn heat_partials(
        &self,
        t: f64,
        y: &[f64],
        d: &crate::engine::network::Discrete,
        s: &mut crate::engine::network::Scratch,
        hj: &mut HeatJac,
    ) {
        use friction_models::FrictionModel;
        for &(e, _) in &self.sys.thermal.heat {
            match e {
                Dissipator::Contact(c) => {
                    let ct = &self.sys.contacts[c];
                    let mode = d.modes[c];
                    let (inp, v) = self.contact_input(t, y, s, c, mode);
                    let n = self.load(t, y, s, c);
                    let sliding = !matches!(
                        mode,
                        crate::engine::outcome::Mode::Stuck | crate::engine::outcome::Mode::Free
                    ) && n != 0.0;
                    let off = self.z_off[c];
                    let tm = self.model_at_temp(y, c);
                    let m = tm.as_ref().unwrap_or(&ct.model);
                    let fc = if sliding {
                        n * m.force(&inp, &y[off..off + ct.model.n_states()], &d.mem[c])
                    } else {
                        0.0
                    };
                    hj.fv[c] = (fc, v);
                    // the force n f, n = N(t) fc(T): its slope in T is N fc'(T) f
                    hj.law_slope[c] = self.load_slope(t, y, s, c).map(|(dn, i)| {
                        let f = if fc == 0.0 { 0.0 } else { fc / n };
                        (dn * f, i)
                    });
                }
                Dissipator::Gap(k) => {
                    let g = &self.sys.gaps[k];
                    let (srel, vrel) = self.gap_rel(y, s, g);
                    hj.gap[k] = gap_power_slopes(g, srel, vrel);
                }
                Dissipator::Damper(_) => {}
            }
        }
    }

    /// The temperature rows of `J v` (after the contacts' loop of the
    /// product has left each contact's `dfc` in `hj`): the heated elements'
    /// power changes and the conductions', divided by the capacities.
    pub(crate) fn heat_jvp(&self, y: &[f64], hj: &HeatJac, v: &[f64], jv: &mut [f64]) {
        let h = &self.heat;
        let sys = &*self.sys;
        jv[h.t_off..self.q_off].fill(0.0);
        let dvel = |m: Member, v: &[f64]| match m {
            Member::Body(i) => (v[i], v[self.nb + i]),
            _ => (0.0, 0.0),
        };
        for &(e, k) in &sys.thermal.heat {
            let Some(row) = h.state[k] else { continue };
            let dp = match e {
                Dissipator::Contact(c) => {
                    let [a, b] = sys.contacts[c].between;
                    let dv = dvel(a, v).1 - dvel(b, v).1;
                    let (fc, vrel) = hj.fv[c];
                    hj.dfc[c] * vrel + fc * dv
                }
                Dissipator::Damper(k) => {
                    let dp = &sys.dampers[k];
                    let dvr = dvel(dp.between[1], v).1 - dvel(dp.between[0], v).1;
                    let vr = dvel(dp.between[1], y).1 - dvel(dp.between[0], y).1;
                    2.0 * dp.coefficient * vr * dvr
                }
                Dissipator::Gap(k) => {
                    let g = &sys.gaps[k];
                    let (dxa, dva) = dvel(g.between[0], v);
                    let (dxb, dvb) = dvel(g.between[1], v);
                    let (ps, pv) = hj.gap[k];
                    ps * (dxb - dxa) + pv * (dvb - dva)
                }
            };
            jv[row] += dp;
        }
        for c in &sys.thermal.conductions {
            let [a, b] = c.between;
            let dt = |k: usize| h.state[k].map_or(0.0, |i| v[i]);
            let dq = c.conductance * (dt(a) - dt(b));
            if let Some(i) = h.state[a] {
                jv[i] -= dq;
            }
            if let Some(i) = h.state[b] {
                jv[i] += dq;
            }
        }
        for (s, &ic) in h.state.iter().zip(&h.inv_cap) {
            if let Some(i) = *s {
                jv[i] *= ic;
            }
        }
    }

    /// Heat per node over the run from the final state and the quadratures
    /// `q`: stored `C (T_end - T0)` in a capacity, absorbed by a fixed node
    /// \[J\].
    pub(crate) fn heat_balance(&self, y_end: &[f64], q: &[f64]) -> Vec<(String, f64)> {
        let h = &self.heat;
        self.sys
            .thermal
            .nodes
            .iter()
            .enumerate()
            .map(|(k, n)| {
                let e = match (h.state[k], n.kind) {
                    (Some(i), NodeKind::Capacity { capacity, t0 }) => capacity * (y_end[i] - t0),
                    _ => q[h.quad[k]],
                };
                (n.name.clone(), e)
            })
            .collect()
    }
}

/// A gap's damping power `P = -f_d (v2 - v1)` ([`crate::system::Gap::law`])
/// and its slopes `∂P/∂(x2 - x1)`, `∂P/∂(v2 - v1)` on the branch in force:
/// free damping `f_d = -d vrel` gives `P = d vrel²`; held at the spring
/// force `f_d = c p^n` gives `P = -c p^n vrel`; released, `f_d = -c p^n`
/// gives `P = c p^n vrel` (with `p = length - srel`, `dp/dsrel = -1`).
pub(crate) fn gap_power_slopes(g: &crate::system::Gap, srel: f64, vrel: f64) -> (f64, f64) {
    let f = g.law(srel, vrel);
    let p = g.length - srel;
    if p <= 0.0 {
        return (0.0, 0.0);
    }
    let n = g.exponent;
    let dfc = -g.stiffness * if n == 1.0 { 1.0 } else { n * p.powf(n - 1.0) };
    let fd2 = -g.damping * vrel;
    if fd2 > f.elastic {
        (-dfc * vrel, -f.elastic)
    } else if fd2 < -f.elastic {
        (dfc * vrel, f.elastic)
    } else {
        (0.0, 2.0 * g.damping * vrel)
    }
}
