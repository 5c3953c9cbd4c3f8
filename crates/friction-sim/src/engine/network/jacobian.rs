//! The exact Jacobian of the equations of motion, as diffsol asks for it: a
//! Jacobian-vector product built from the springs, dampers and the contact
//! models' own partial derivatives ([`FrictionModel::partials`]), for the
//! modes in force; and its sparsity pattern from the network's structure:
//! the union of the patterns of every mode, so that the pattern given once
//! at the start holds for the whole run.
//!
//! Under fixed modes the accelerations are linear in the body forces: a
//! free body's is `f_i / m_i`, a cluster held to the ground or a driver has
//! none that depends on the state, a free cluster moves with `Σ f / Σ m`. So
//! `J v` costs about one evaluation of the forces, and each column of the
//! Jacobian is exact (no differencing step to choose).
//!
//! The energy quadratures do not feed back into the motion: their rows are
//! left out of the Jacobian (zero), so Newton's iteration updates them by
//! substitution and the linear algebra never sees them (the sparse LU's
//! pattern has only their diagonal).

use friction_models::{FrictionModel, Partials};

use crate::engine::network::grouping::find;
use crate::engine::network::{Discrete, Engine, Scratch};
use crate::engine::outcome::Mode;
use crate::system::Member;

/// The contacts' partial derivatives at one (t, y), reused by the several
/// products diffsol takes to assemble one Jacobian.
#[derive(Debug, Clone, Default)]
pub(crate) struct JacCache {
    valid: bool,
    t: f64,
    y: Vec<f64>,
    parts: Vec<Partials>,
    normal: Vec<f64>,
    /// Net force derivative on each body.
    df: Vec<f64>,
    /// Work space of the products through stuck rows on a structure
    /// ([`crate::engine::network::coupled`]).
    cbuf: Vec<f64>,
    /// Per body: its component of bodies that stuckable contacts can join
    /// (and the DOFs of a structure of consistent mass: `M⁻¹` joins them).
    comp: Vec<usize>,
    /// The rows a force in a component reaches when the rows of structure
    /// velocities are in force form ([`crate::engine::network::scaled_rows`]).
    pub(crate) scaled: crate::engine::network::scaled_rows::ScaledPattern,
    /// Per contact state (offset from the first): its contact.
    z_owner: Vec<usize>,
    /// Per gap: ∂F/∂(x2 - x1), ∂F/∂(v2 - v1) ([`crate::engine::network::gap`]).
    gap: Vec<(f64, f64)>,
    /// Per contact whose load is a gap's force (`normal_gap`): the gap and
    /// the slopes of the contact's force in the gap's `x2 - x1`, `v2 - v1`
    /// (its model's force times the load's slopes); `None` otherwise or
    /// while the load is zero.
    nslope: Vec<Option<(usize, f64, f64)>>,
    /// The heated elements' power partials ([`crate::engine::network::heat`]).
    heat: crate::engine::network::heat::HeatJac,
    /// The temperature partials of models that follow a temperature
    /// ([`crate::engine::network::heat_model`]).
    tj: crate::engine::network::heat_model::ModelTempJac,
    /// The contacts in a plane's partials ([`crate::engine::network::planes`]).
    planes: crate::engine::network::planes::PlaneJac,
}

impl JacCache {
    pub(crate) fn new(e: &Engine<'_>) -> Self {
        let sys = &*e.sys;
        let nb = e.nb;
        // union-find over body-body contacts that can stick
        let mut p: Vec<usize> = (0..nb).collect();
        for (c, ct) in sys.contacts.iter().enumerate() {
            if let (true, Member::Body(a), Member::Body(b)) = (e.stuckable[c], ct.between[0], ct.between[1]) {
                let (ra, rb) = (find(&mut p, a), find(&mut p, b));
                p[ra] = rb;
            }
        }
        // the members of a contact held on its friction disk, along x and y
        for pl in e.planes.iter().filter(|p| p.disk.is_some()) {
            for [a, b] in [pl.x, pl.y] {
                if let (Member::Body(a), Member::Body(b)) = (a, b) {
                    let (ra, rb) = (find(&mut p, a), find(&mut p, b));
                    if ra != rb {
                        p[ra] = rb;
                    }
                }
            }
        }
        // a structure's coordinates accelerate together (`M⁻¹` couples them;
        // a diagonal mass does not)
        for b in e.blocks.iter().filter(|b| b.coupled()) {
            for i in b.base + 1..b.base + b.n {
                let (ra, rb) = (find(&mut p, b.base), find(&mut p, i));
                if ra != rb {
                    p[ra] = rb;
                }
            }
        }
        let comp: Vec<usize> = (0..nb).map(|i| find(&mut p, i)).collect();
        let scaled = crate::engine::network::scaled_rows::ScaledPattern::new(e, &comp);
        let z_owner = sys
            .contacts
            .iter()
            .enumerate()
            .flat_map(|(c, ct)| std::iter::repeat_n(c, ct.model.n_states()))
            .collect();
        JacCache {
            valid: false,
            t: f64::NAN,
            y: vec![0.0; e.n],
            parts: sys.contacts.iter().map(|c| Partials::new(c.model.n_states())).collect(),
            normal: vec![0.0; sys.contacts.len()],
            df: vec![0.0; nb],
            cbuf: Vec::new(),
            comp,
            scaled,
            z_owner,
            gap: vec![(0.0, 0.0); sys.gaps.len()],
            nslope: vec![None; sys.contacts.len()],
            heat: crate::engine::network::heat::HeatJac::new(sys.contacts.len(), sys.gaps.len()),
            tj: crate::engine::network::heat_model::ModelTempJac::new(e),
            planes: crate::engine::network::planes::PlaneJac::new(&e.planes),
        }
    }

    /// Probing: any body may stick to the others of its component, which
    /// then moves as one with all their forces; a NaN force on one body
    /// makes the accelerations `acc` of its whole component NaN.
    fn spread_over_components(&self, acc: &mut [f64], scaled: bool) {
        if scaled {
            self.scaled.spread(&self.df, &self.comp, acc);
            return;
        }
        for i in 0..self.df.len() {
            if self.df[i].is_nan() {
                let ci = self.comp[i];
                for (k, a) in acc.iter_mut().enumerate() {
                    if self.comp[k] == ci {
                        *a = f64::NAN;
                    }
                }
            }
        }
    }

    /// Forget the partials (the modes or the memory changed).
    pub(crate) fn invalidate(&mut self) {
        self.valid = false;
    }
}

impl Engine<'_> {
    /// Relative displacement and velocity of a member in direction `v`.
    fn dpos(&self, v: &[f64], m: Member) -> (f64, f64) {
        match m {
            Member::Body(i) => (v[i], v[self.nb + i]),
            _ => (0.0, 0.0),
        }
    }

    fn fill_partials(&self, t: f64, y: &[f64], d: &Discrete, s: &mut Scratch, jc: &mut JacCache) {
        let sys = &*self.sys;
        s.drivers_at(&sys.drivers, t);
        for (c, ct) in sys.contacts.iter().enumerate() {
            // the same input as the right-hand side's
            let (inp, _) = self.contact_input(t, y, s, c, d.modes[c]);
            let nzc = ct.model.n_states();
            let off = self.z_off[c];
            // a model that follows a temperature: at the temperature of `y`
            let tm = self.model_at_temp(y, c);
            let m = tm.as_ref().unwrap_or(&ct.model);
            m.partials(&inp, &y[off..off + nzc], &d.mem[c], &mut jc.parts[c]);
            if tm.is_some() {
                self.model_temp_partials(y, c, m, &inp, &d.mem[c], &mut jc.tj);
            } else if let Some(x) = jc.tj.df_dt.get_mut(c) {
                *x = None;
            }
            jc.normal[c] = self.load(t, y, s, c);
        }
        self.gap_partials(y, s, &mut jc.gap);
        if self.normal_gaps {
            for (c, ct) in sys.contacts.iter().enumerate() {
                let nf = self.normal_factor(t, y, s, c);
                jc.nslope[c] = match self.normal_slopes(t, c, &jc.gap) {
                    Some((k, ns, nv)) if nf != 0.0 => {
                        // force = load F_model, load = nf law(T): its slope
                        // in the gap's motion is law(T) F_model dnf
                        let (inp, _) = self.contact_input(t, y, s, c, d.modes[c]);
                        let off = self.z_off[c];
                        let tm = self.model_at_temp(y, c);
                        let m = tm.as_ref().unwrap_or(&ct.model);
                        let f = m.force(&inp, &y[off..off + m.n_states()], &d.mem[c]);
                        let scale = f * jc.normal[c] / nf;
                        Some((k, scale * ns, scale * nv))
                    }
                    _ => None,
                };
            }
        }
        if !sys.thermal.is_empty() {
            self.heat_partials(t, y, d, s, &mut jc.heat);
        }
        if !self.planes.is_empty() {
            self.plane_partials(t, y, d, s, &mut jc.planes);
        }
        jc.t = t;
        jc.y.copy_from_slice(y);
        jc.valid = true;
    }

    /// The Jacobian's non-zero entries `(row, column)`, column by column:
    /// the union over every mode (a stuck cluster moves with the forces of
    /// all its bodies; a disengaged contact may engage), from the network's
    /// structure alone, in time proportional to the entries. diffsol takes
    /// it instead of probing every column (which cost n products and about
    /// 24 n² bytes: 7.6 GB at 18,000 states), so the pattern found at the
    /// start holds for the whole run. The energy quadratures have none.
    pub(crate) fn jacobian_pattern(&self) -> Vec<(usize, usize)> {
        self.pattern(false)
    }

    /// The pattern of [`Engine::jvp_scaled`] and of the mass rows its
    /// solver adds ([`crate::engine::network::scaled_rows`]).
    pub(crate) fn jacobian_pattern_scaled(&self) -> Vec<(usize, usize)> {
        self.pattern(true)
    }

    fn pattern(&self, scaled: bool) -> Vec<(usize, usize)> {
        let sys = &*self.sys;
        let nb = self.nb;
        let jc = self.jac.borrow();
        // what touches each body: springs (by position), dampers (by
        // velocity), contacts (by both)
        let mut springs = vec![Vec::new(); nb];
        let mut dampers = vec![Vec::new(); nb];
        let mut contacts = vec![Vec::new(); nb];
        let push = |lists: &mut Vec<Vec<usize>>, between: [Member; 2], k: usize| {
            for m in between {
                if let Member::Body(i) = m {
                    if lists[i].last() != Some(&k) {
                        lists[i].push(k);
                    }
                }
            }
        };
        for (k, sp) in sys.springs.iter().enumerate() {
            push(&mut springs, sp.between, k);
        }
        for (k, dp) in sys.dampers.iter().enumerate() {
            push(&mut dampers, dp.between, k);
        }
        // inclined springs: by the positions of all their legs
        let mut inclined = vec![Vec::new(); nb];
        for (k, sp) in sys.inclined_springs.iter().enumerate() {
            for &(m, _) in &sp.legs {
                push(&mut inclined, [m, Member::Ground], k);
            }
        }
        for (k, ct) in sys.contacts.iter().enumerate() {
            push(&mut contacts, ct.between, k);
        }
        // gaps: by position and velocity, like a spring and a damper
        let mut gaps = vec![Vec::new(); nb];
        for (k, g) in sys.gaps.iter().enumerate() {
            push(&mut gaps, g.between, k);
        }
        // per gap: the contacts whose load is its force
        let mut loaded = vec![Vec::new(); sys.gaps.len()];
        for (c, ct) in sys.contacts.iter().enumerate() {
            if let Some(k) = ct.normal_gap {
                loaded[k].push(c);
            }
        }
        // per body: the contacts in a plane it slides in, and those whose
        // normal load its motion changes (their gap's members)
        let mut plane_slide = vec![Vec::new(); nb];
        let mut plane_gap = vec![Vec::new(); nb];
        for (k, pl) in self.planes.iter().enumerate() {
            push(&mut plane_slide, pl.x, k);
            push(&mut plane_slide, pl.y, k);
            push(&mut plane_gap, sys.gaps[pl.gap].between, k);
        }
        let mut members = vec![Vec::new(); nb];
        for i in 0..nb {
            members[jc.comp[i]].push(i);
        }
        // rows of the current column `j`, each once (`seen[r] == j`)
        let mut seen = vec![usize::MAX; self.n];
        let mut col: Vec<usize> = Vec::new();
        let mark = |r: usize, j: usize, seen: &mut [usize], col: &mut Vec<usize>| {
            if seen[r] != j {
                seen[r] = j;
                col.push(r);
            }
        };
        // a force between `between` accelerates both members' components
        let hit_bodies = |between: [Member; 2], j: usize, seen: &mut [usize], col: &mut Vec<usize>| {
            for m in between {
                if let Member::Body(b) = m {
                    if scaled {
                        // force rows: the body's own, and what a constraint spreads
                        if jc.scaled.coupled[b] {
                            mark(nb + b, j, seen, col);
                        }
                        for &k in jc.scaled.rows_of(jc.comp[b]) {
                            mark(nb + k, j, seen, col);
                        }
                    } else {
                        for &k in &members[jc.comp[b]] {
                            mark(nb + k, j, seen, col);
                        }
                    }
                }
            }
        };
        // a contact's force and its own state rates
        let hit_contact = |c: usize, j: usize, seen: &mut [usize], col: &mut Vec<usize>| {
            hit_bodies(sys.contacts[c].between, j, seen, col);
            // its power heats a node
            if let Some(r) = self.heat.contact_row[c] {
                mark(r, j, seen, col);
            }
            let off = self.z_off[c];
            for r in off..off + sys.contacts[c].model.n_states() {
                mark(r, j, seen, col);
            }
        };
        // a contact's force through its load (not its states' rates)
        let hit_load = |k: usize, j: usize, seen: &mut [usize], col: &mut Vec<usize>| {
            for &c in &loaded[k] {
                hit_bodies(sys.contacts[c].between, j, seen, col);
                if let Some(r) = self.heat.contact_row[c] {
                    mark(r, j, seen, col);
                }
            }
        };
        // a contact in a plane's forces, and with `states` its bristles' rates
        let hit_plane = |k: usize, states: bool, j: usize, seen: &mut [usize], col: &mut Vec<usize>| {
            let pl = &self.planes[k];
            hit_bodies(pl.x, j, seen, col);
            hit_bodies(pl.y, j, seen, col);
            if states {
                for r in pl.z_off..pl.z_off + pl.law.n_states() {
                    mark(r, j, seen, col);
                }
            }
        };
        let plane_z0 = self.planes.first().map_or(usize::MAX, |p| p.z_off);
        let mut out = Vec::new();
        for j in 0..self.q_off {
            col.clear();
            if j < nb {
                for &k in &springs[j] {
                    hit_bodies(sys.springs[k].between, j, &mut seen, &mut col);
                }
                for &k in &inclined[j] {
                    for &(m, _) in &sys.inclined_springs[k].legs {
                        hit_bodies([m, Member::Ground], j, &mut seen, &mut col);
                    }
                }
                for &c in &contacts[j] {
                    hit_contact(c, j, &mut seen, &mut col);
                }
                for &k in &gaps[j] {
                    hit_bodies(sys.gaps[k].between, j, &mut seen, &mut col);
                    if let Some(r) = self.heat.gap_row[k] {
                        mark(r, j, &mut seen, &mut col);
                    }
                    hit_load(k, j, &mut seen, &mut col);
                }
                // a structure's stiffness: a force on the DOFs `K` joins to
                // this one (through `M⁻¹`, its whole block when the mass
                // couples)
                for &q in jc.scaled.stiffness_of(j) {
                    hit_bodies([Member::Body(q), Member::Ground], j, &mut seen, &mut col);
                }
                for &k in &plane_gap[j] {
                    hit_plane(k, false, j, &mut seen, &mut col);
                }
            } else if j < 2 * nb {
                let i = j - nb;
                mark(i, j, &mut seen, &mut col);
                for &q in jc.scaled.damping_of(i) {
                    hit_bodies([Member::Body(q), Member::Ground], j, &mut seen, &mut col);
                }
                if scaled {
                    // the mass rows the solver adds (`M - I`)
                    for &q in jc.scaled.mass_of(i) {
                        mark(nb + q, j, &mut seen, &mut col);
                    }
                }
                for &k in &dampers[i] {
                    hit_bodies(sys.dampers[k].between, j, &mut seen, &mut col);
                    if let Some(r) = self.heat.damper_row[k] {
                        mark(r, j, &mut seen, &mut col);
                    }
                }
                for &c in &contacts[i] {
                    hit_contact(c, j, &mut seen, &mut col);
                }
                for &k in &plane_slide[i] {
                    hit_plane(k, true, j, &mut seen, &mut col);
                }
                for &k in &plane_gap[i] {
                    hit_plane(k, false, j, &mut seen, &mut col);
                }
                for &k in &gaps[i] {
                    hit_bodies(sys.gaps[k].between, j, &mut seen, &mut col);
                    if let Some(r) = self.heat.gap_row[k] {
                        mark(r, j, &mut seen, &mut col);
                    }
                    hit_load(k, j, &mut seen, &mut col);
                }
            } else if j >= plane_z0 && j < self.heat.t_off {
                // a bristle of a contact in a plane
                let k = self.planes.iter().rposition(|p| p.z_off <= j).unwrap_or(0);
                hit_plane(k, true, j, &mut seen, &mut col);
            } else if j < self.heat.t_off {
                hit_contact(jc.z_owner[j - 2 * nb], j, &mut seen, &mut col);
            } else {
                // a temperature: the nodes it conducts to
                for &r in &self.heat.t_col[j - self.heat.t_off] {
                    mark(r, j, &mut seen, &mut col);
                }
                // and the contacts whose coefficient follows it
                // (their forces, powers, and the rates of their states)
                for &c in &self.heat.t_contacts[j - self.heat.t_off] {
                    hit_contact(c, j, &mut seen, &mut col);
                }
            }
            col.sort_unstable();
            out.extend(col.iter().map(|&r| (r, j)));
        }
        out
    }

    /// `jv = J(t, y) v`, exact for the current modes.
    pub(crate) fn jvp(&self, t: f64, y: &[f64], v: &[f64], jv: &mut [f64]) {
        self.count.jvp.set(self.count.jvp.get() + 1);
        self.jvp_arith(t, y, v, jv, false, false);
    }

    /// [`Engine::jvp`] with the rows of the velocities of structures of
    /// consistent mass in force form, `M J` instead of `J` there
    /// ([`crate::engine::network::scaled_rows`]).
    pub(crate) fn jvp_scaled(&self, t: f64, y: &[f64], v: &[f64], jv: &mut [f64]) {
        self.count.jvp.set(self.count.jvp.get() + 1);
        self.jvp_arith(t, y, v, jv, false, true);
    }

    /// [`Engine::jvp`] by arithmetic on the partial derivatives. With
    /// `probing` (NaN in `v`) the NaN reach every entry that any mode could
    /// make non-zero: the tests' independent account of
    /// [`Engine::jacobian_pattern`].
    pub(crate) fn jvp_arith(
        &self,
        t: f64,
        y: &[f64],
        v: &[f64],
        jv: &mut [f64],
        probing: bool,
        scaled: bool,
    ) {
        let sys = &*self.sys;
        let nb = self.nb;
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        let mut jc = self.jac.borrow_mut();
        let jc = &mut *jc;
        if !jc.valid || jc.t != t || jc.y[..] != y[..] {
            self.fill_partials(t, y, &d, &mut s, jc);
        }
        jc.df.fill(0.0);
        let add = |df: &mut [f64], m: Member, f: f64| {
            if let Member::Body(i) = m {
                df[i] += f;
            }
        };
        for sp in &sys.springs {
            let (dxa, _) = self.dpos(v, sp.between[0]);
            let (dxb, _) = self.dpos(v, sp.between[1]);
            let dfs = sp.stiffness * (dxb - dxa);
            add(&mut jc.df, sp.between[0], dfs);
            add(&mut jc.df, sp.between[1], -dfs);
        }
        for sp in &sys.inclined_springs {
            let ds: f64 = sp.legs.iter().map(|&(m, w)| w * self.dpos(v, m).0).sum();
            for &(m, w) in &sp.legs {
                add(&mut jc.df, m, -sp.stiffness * ds * w);
            }
        }
        for dp in &sys.dampers {
            let (_, dva) = self.dpos(v, dp.between[0]);
            let (_, dvb) = self.dpos(v, dp.between[1]);
            let dfd = dp.coefficient * (dvb - dva);
            add(&mut jc.df, dp.between[0], dfd);
            add(&mut jc.df, dp.between[1], -dfd);
        }
        for (g, &(ks, kv)) in sys.gaps.iter().zip(&jc.gap) {
            let (dxa, dva) = self.dpos(v, g.between[0]);
            let (dxb, dvb) = self.dpos(v, g.between[1]);
            // probing: a gap may come into contact later (NaN even where the slopes are 0)
            let dfg = ks * (dxb - dxa) + kv * (dvb - dva);
            add(&mut jc.df, g.between[0], -dfg);
            add(&mut jc.df, g.between[1], dfg);
        }
        for b in &self.blocks {
            let r = b.base..b.base + b.n;
            b.add_forces(&v[r.clone()], &v[nb + b.base..nb + b.base + b.n], &mut jc.df[r]);
        }
        for (c, ct) in sys.contacts.iter().enumerate() {
            let (dxa, dva) = self.dpos(v, ct.between[0]);
            let (dxb, dvb) = self.dpos(v, ct.between[1]);
            let (dx, dv) = (dxa - dxb, dva - dvb);
            let nzc = ct.model.n_states();
            let off = self.z_off[c];
            let dz = &v[off..off + nzc];
            let p = &jc.parts[c];
            let n = jc.normal[c];
            let sliding = !matches!(d.modes[c], Mode::Stuck | Mode::Free) && n != 0.0;
            jc.heat.dfc[c] = 0.0;
            if sliding || probing {
                let mut dfc = p.df_dx * dx + p.df_dv * dv;
                for j in 0..nzc {
                    dfc += p.df_dz[j] * dz[j];
                }
                // probing: a disengaged contact may engage later
                let mut dfc = if probing { dfc * n.max(1.0) } else { dfc * n };
                // a load that follows a gap's motion (probing: whatever the
                // gap's state now)
                if let Some(k) = ct.normal_gap {
                    let (a_s, a_v) = match (probing, jc.nslope[c]) {
                        (true, _) => (1.0, 1.0),
                        (false, Some((_, a_s, a_v))) => (a_s, a_v),
                        (false, None) => (0.0, 0.0),
                    };
                    let g = &sys.gaps[k];
                    let (dxa, dva) = self.dpos(v, g.between[0]);
                    let (dxb, dvb) = self.dpos(v, g.between[1]);
                    dfc += a_s * (dxb - dxa) + a_v * (dvb - dva);
                }
                let dfc = self.with_law_slope(c, &jc.heat, v, dfc);
                // a model that follows a temperature: its force's change with it
                let dfc = match jc.tj.df_dt.get(c).copied().flatten() {
                    Some((dft, i)) => dfc + dft * v[i] * if probing { n.max(1.0) } else { n },
                    None => dfc,
                };
                jc.heat.dfc[c] = dfc;
                add(&mut jc.df, ct.between[0], -dfc);
                add(&mut jc.df, ct.between[1], dfc);
            }
            for i in 0..nzc {
                let mut g = p.dg_dx[i] * dx + p.dg_dv[i] * dv;
                for j in 0..nzc {
                    g += p.dg_dz[i * nzc + j] * dz[j];
                }
                jv[off + i] = g;
            }
            if let Some((_, ti)) = jc.tj.df_dt.get(c).copied().flatten() {
                for (i, dgt) in jc.tj.dg_dt[c].iter().enumerate() {
                    jv[off + i] += dgt * v[ti];
                }
            }
        }
        if !self.planes.is_empty() {
            self.plane_jvp(&jc.planes, &jc.gap, v, &mut jc.df, jv, probing);
        }
        jv[..nb].copy_from_slice(&v[nb..2 * nb]);
        for i in 0..nb {
            jv[nb + i] = jc.df[i] / sys.bodies[i].mass;
        }
        if !self.blocks.is_empty() {
            // in force form a structure of consistent mass's rows are the
            // forces (stuck rows on it through the stored columns of `M⁻¹`):
            // no solve with its mass
            let skip_coupled = scaled && !probing;
            self.block_accelerations_of(&jc.df, &mut jv[nb..2 * nb], !skip_coupled);
        }
        if probing {
            if scaled {
                self.force_rows(&jc.df, &mut jv[nb..2 * nb]);
            }
            jc.spread_over_components(&mut jv[nb..2 * nb], scaled);
        } else {
            for cl in &d.plan.clusters {
                let a = match cl.anchor {
                    crate::engine::network::constraints::Anchor::Free => {
                        let fsum: f64 = d.plan.bodies_of(cl).iter().map(|&i| jc.df[i]).sum();
                        let msum: f64 = d.plan.bodies_of(cl).iter().map(|&i| sys.bodies[i].mass).sum();
                        fsum / msum
                    }
                    _ => 0.0,
                };
                for &i in d.plan.bodies_of(cl) {
                    jv[nb + i] = a;
                }
            }
            if !self.planes.is_empty() {
                self.disk_jvp(&d, &jc.df, &mut jv[nb..2 * nb]);
            }
            for blk in &d.plan.coupled {
                let bodies = &d.plan.bodies[blk.bodies.clone()];
                self.coupled_jvp(&d.rows, bodies, blk, &mut jc.cbuf, &mut jc.df, &mut jv[nb..2 * nb], scaled);
            }
            if scaled {
                self.force_rows(&jc.df, &mut jv[nb..2 * nb]);
            }
        }
        if !sys.thermal.is_empty() {
            self.heat_jvp(y, &jc.heat, v, jv);
        }
        jv[self.q_off..].fill(0.0);
    }
}

#[cfg(test)]
#[path = "jacobian_tests.rs"]
pub(crate) mod tests;
