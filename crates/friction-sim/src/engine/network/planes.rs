//! Contacts that rub in a plane (between bodies of dim 3, [`crate::system::Plane`]):
//! taken out of the one-direction contacts when the engine is prepared
//! ([`lower`]), then their forces and bristle rates, partial derivatives,
//! powers and output columns.
//!
//! Such a contact's friction is the vector law of its model
//! ([`friction_models::plane`]) at the slip velocity `(vx, vy)`, times its
//! normal load `N = N(t) max(0, KN (G0 - z))`, the force of its gap on z.
//! The laws the engine takes in the plane are single-valued (regularised
//! maps, bristle laws, Jenkins' element), so there is no constraint row and
//! no stick/slip decision by forces; opening and closing are the gap's
//! events. Jenkins' element keeps a mode (stuck inside its disk, sliding on
//! its rim): its root ends the mode where the deflection reaches the rim
//! (which is then set on it exactly) or the slip stops loading it, events
//! `stuck` -> `sliding` and back under the contact's name. While open the
//! force is zero and the states keep following the slip.

use friction_models::plane::{PlaneLaw, PlanePartials, PlaneWork};
use friction_models::AnyModel;

use crate::engine::network::{Discrete, Engine, Scratch};
use crate::engine::outcome::Event;
use crate::system::schedule::Schedule;
use crate::system::thermal::Dissipator;
use crate::system::{Member, System};

/// A contact in the plane as the engine runs it.
#[derive(Debug, Clone)]
pub(crate) struct PlaneEl {
    pub name: String,
    /// The members' x and y coordinates (first, second).
    pub x: [Member; 2],
    pub y: [Member; 2],
    pub model: AnyModel,
    pub law: PlaneLaw,
    pub normal: Schedule,
    /// Its gap (index into the gaps), whose force is the load.
    pub gap: usize,
    /// Where its bristles `(zx, zy)` are in the state (set by `Engine::new`).
    pub z_off: usize,
    /// Whether its bristles are output columns.
    pub cols: bool,
    /// A set-valued model's friction disk, `Fs` per unit load
    /// (`plane_stick.rs`); its law is then the radial map it slides by.
    pub disk: Option<f64>,
}

/// What [`lower`] makes of a system with contacts in a plane.
pub(crate) struct Lowered {
    /// The system without them (the thermal indices of the contacts after
    /// them moved down).
    pub sys: System,
    pub planes: Vec<PlaneEl>,
    /// `state_columns` of the line contacts, as the whole system decides it.
    pub state_cols: Vec<bool>,
    /// The kept columns among the lowered system's and the planes' (these last).
    pub keep: Option<Vec<usize>>,
    /// The planes' column names and units (after all others).
    pub names: Vec<String>,
    pub units: Vec<String>,
}

/// Take the contacts in a plane out of `sys`.
pub(crate) fn lower(sys: &System) -> Lowered {
    let on = sys.state_columns();
    let names = sys.plane_column_names();
    let is_plane = |c: usize| sys.planes.iter().any(|p| p.contact == c);
    let planes = sys
        .planes
        .iter()
        .map(|p| {
            let c = &sys.contacts[p.contact];
            PlaneEl {
                name: c.name.clone(),
                x: c.between,
                y: p.lateral,
                model: c.model.clone(),
                law: p.law,
                normal: c.normal.clone(),
                // every contact in a plane has its own gap (`normal_stiffness`)
                gap: c.normal_gap.expect("a contact in a plane has its normal gap"),
                z_off: 0,
                cols: on[p.contact],
                disk: p.disk,
            }
        })
        .collect();
    let mut low = sys.clone();
    low.planes.clear();
    low.contacts =
        (0..sys.contacts.len()).filter(|&c| !is_plane(c)).map(|c| sys.contacts[c].clone()).collect();
    // contact indices of the thermal part: the planes carry no heat nor
    // laws (`check_planes`), the others move down past them
    let moved = |c: usize| c - (0..c).filter(|&k| is_plane(k)).count();
    for (e, _) in &mut low.thermal.heat {
        if let Dissipator::Contact(c) = e {
            *c = moved(*c);
        }
    }
    for (c, _) in &mut low.thermal.laws {
        *c = moved(*c);
    }
    for (c, _) in &mut low.thermal.model_laws {
        *c = moved(*c);
    }
    let state_cols = (0..sys.contacts.len()).filter(|&c| !is_plane(c)).map(|c| on[c]).collect();
    let all: Vec<String> = low.all_column_names().into_iter().chain(names.iter().cloned()).collect();
    let keep = crate::system::keep_of(&all, sys.solver.columns.as_deref());
    let units = crate::system::units::plane_column_units(sys);
    Lowered { sys: low, planes, state_cols, keep, names, units }
}

/// One contact in a plane at one instant: its slip velocity, its normal load
/// factor `N(t)` (0 where negative), its load and its force per unit load.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PlaneAt {
    pub v: [f64; 2],
    pub factor: f64,
    pub n: f64,
    pub f: [f64; 2],
}

impl Engine<'_> {
    /// The slip (position, velocity) of plane `p` along x and y.
    #[inline]
    pub(crate) fn plane_slip(&self, y: &[f64], s: &Scratch, p: &PlaneEl) -> ([f64; 2], [f64; 2]) {
        let (xa, va) = self.pos(y, s, p.x[0]);
        let (xb, vb) = self.pos(y, s, p.x[1]);
        let (ya, wa) = self.pos(y, s, p.y[0]);
        let (yb, wb) = self.pos(y, s, p.y[1]);
        ([xa - xb, ya - yb], [va - vb, wa - wb])
    }

    /// Plane `p` at (t, y) under `d` (its slider's mode), with `dz` its
    /// states' rates.
    #[inline]
    pub(crate) fn plane_at(
        &self,
        t: f64,
        y: &[f64],
        d: &Discrete,
        s: &Scratch,
        p: usize,
        dz: Option<&mut [f64]>,
    ) -> PlaneAt {
        let pl = &self.planes[p];
        let (_, v) = self.plane_slip(y, s, pl);
        let factor = pl.normal.value(t).max(0.0);
        let n = factor * self.gap_force(y, s, pl.gap).force;
        let f = match pl.disk {
            // held: the constraint's force (`Engine::disk_stick_forces`)
            Some(_) if !d.plane_slide[p] => [0.0; 2],
            Some(_) => super::plane_stick::slide_force(&pl.model, t, v, d.plane_dir[p]).0,
            None => {
                let z = &y[pl.z_off..pl.z_off + pl.law.n_states()];
                pl.law.eval_in(&pl.model, t, v, z, dz, d.plane_slide[p])
            }
        };
        PlaneAt { v, factor, n, f }
    }

    /// Add every plane's force to its members (`-N F` on the first, `+N F`
    /// on the second, along x and y) and, with `dy`, its bristles' rates;
    /// keeps each one's slip velocity and force for the powers. A plane
    /// held on its friction disk adds nothing here: its force is the
    /// constraint's, found after all others (`Engine::disk_stick_forces`).
    pub(crate) fn plane_forces(
        &self,
        t: f64,
        y: &[f64],
        d: &Discrete,
        s: &mut Scratch,
        mut dy: Option<&mut [f64]>,
    ) {
        for (p, pl) in self.planes.iter().enumerate() {
            let nz = pl.law.n_states();
            let dz = dy.as_deref_mut().map(|dy| &mut dy[pl.z_off..pl.z_off + nz]);
            let at = self.plane_at(t, y, d, s, p, dz);
            let fx = at.n * at.f[0];
            let fy = at.n * at.f[1];
            Self::add_force(s, pl.x[0], -fx);
            Self::add_force(s, pl.x[1], fx);
            Self::add_force(s, pl.y[0], -fy);
            Self::add_force(s, pl.y[1], fy);
            s.plane[p] = (at.v, [fx, fy], at.n);
        }
    }

    /// Each plane's power `N F·v` (the rate of its work quadrature), from
    /// the last evaluation.
    pub(crate) fn plane_powers(&self, s: &Scratch, g: &mut [f64]) {
        for (gp, (v, f, _)) in g.iter_mut().zip(&s.plane) {
            *gp = f[0] * v[0] + f[1] * v[1];
        }
    }

    /// Plane `p`'s output columns at (t, y): `Fx`, `Fy` (on its first
    /// member), `sx`, `sy`, `svx`, `svy`, `N` and its state (open, stuck:
    /// a Jenkins slider inside its disk, or sliding).
    pub(crate) fn plane_row(&self, t: f64, y: &[f64], d: &Discrete, s: &Scratch, p: usize) -> [f64; 8] {
        let pl = &self.planes[p];
        let (x, _) = self.plane_slip(y, s, pl);
        let mut at = self.plane_at(t, y, d, s, p, None);
        let held = !d.plane_slide[p] && (pl.law.has_mode() || pl.disk.is_some());
        if held && pl.disk.is_some() && at.n > 0.0 {
            // the constraint's force from the evaluation at (t, y), per unit load
            at.f = [s.plane[p].1[0] / at.n, s.plane[p].1[1] / at.n];
        }
        let state = match (at.n > 0.0, held) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => 2,
        };
        [
            -at.n * at.f[0],
            -at.n * at.f[1],
            x[0],
            x[1],
            at.v[0],
            at.v[1],
            at.n,
            crate::system::CONTACT_STATES[state].0,
        ]
    }
}

/// The planes' partial derivatives at one (t, y) for the Jacobian.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlaneJac {
    pub parts: Vec<(PlanePartials, PlaneAt)>,
    work: Vec<PlaneWork>,
}

impl PlaneJac {
    pub(crate) fn new(planes: &[PlaneEl]) -> Self {
        PlaneJac {
            parts: vec![Default::default(); planes.len()],
            work: planes.iter().map(|p| PlaneWork::new(&p.law)).collect(),
        }
    }
}

impl Engine<'_> {
    /// Fill the planes' partials at (t, y).
    pub(crate) fn plane_partials(&self, t: f64, y: &[f64], d: &Discrete, s: &Scratch, pj: &mut PlaneJac) {
        for (p, pl) in self.planes.iter().enumerate() {
            let at = self.plane_at(t, y, d, s, p, None);
            let z = &y[pl.z_off..pl.z_off + pl.law.n_states()];
            let (parts, w) = (&mut pj.parts[p], &mut pj.work[p]);
            match pl.disk {
                // held: its force follows the others (`Engine::disk_jvp`)
                Some(_) if !d.plane_slide[p] => parts.0 = PlanePartials::default(),
                Some(_) => {
                    // at `sgn(v·e) v` (`delta e` at rest, `slide_velocity`): past the arrival the direction held
                    let (u, sgn) =
                        super::plane_stick::slide_velocity(at.v, d.plane_dir[p], self.disk_delta());
                    pl.law.partials_in(&pl.model, t, u, z, w, &mut parts.0, true);
                    if sgn < 0.0 {
                        for r in &mut parts.0.df_dv {
                            r[0] = -r[0];
                            r[1] = -r[1];
                        }
                    }
                }
                None => pl.law.partials_in(&pl.model, t, at.v, z, w, &mut parts.0, d.plane_slide[p]),
            }
            parts.1 = at;
        }
    }

    /// The planes' part of `J v`: the change of their forces into `df` (per
    /// body) and their bristles' rates into `jv`. `gap` holds the gaps'
    /// slopes. With `probing` every entry any state could make non-zero.
    pub(crate) fn plane_jvp(
        &self,
        pj: &PlaneJac,
        gap: &[(f64, f64)],
        v: &[f64],
        df: &mut [f64],
        jv: &mut [f64],
        probing: bool,
    ) {
        let add = |df: &mut [f64], m: Member, f: f64| {
            if let Member::Body(i) = m {
                df[i] += f;
            }
        };
        let vel = |m: Member| if let Member::Body(i) = m { v[self.nb + i] } else { 0.0 };
        let pos = |m: Member| if let Member::Body(i) = m { v[i] } else { 0.0 };
        for (pl, (pp, at)) in self.planes.iter().zip(&pj.parts) {
            let dv = [vel(pl.x[0]) - vel(pl.x[1]), vel(pl.y[0]) - vel(pl.y[1])];
            let nz = pl.law.n_states();
            let dz = &v[pl.z_off..pl.z_off + nz];
            let g = &self.sys.gaps[pl.gap];
            let (ks, kv) = if probing { (1.0, 1.0) } else { gap[pl.gap] };
            let factor = if probing { 1.0 } else { at.factor };
            let dn = factor
                * (ks * (pos(g.between[1]) - pos(g.between[0]))
                    + kv * (vel(g.between[1]) - vel(g.between[0])));
            // a disengaged contact may engage later
            let n = if probing { at.n.max(1.0) } else { at.n };
            let mut dfp = [0.0; 2];
            for (i, d) in dfp.iter_mut().enumerate() {
                let mut a = pp.df_dv[i][0] * dv[0] + pp.df_dv[i][1] * dv[1];
                for (j, dzj) in dz.iter().enumerate() {
                    a += pp.df_dz[i][j] * dzj;
                }
                let f = if probing { 1.0 } else { at.f[i] };
                *d = n * a + f * dn;
            }
            add(df, pl.x[0], -dfp[0]);
            add(df, pl.x[1], dfp[0]);
            add(df, pl.y[0], -dfp[1]);
            add(df, pl.y[1], dfp[1]);
            for i in 0..nz {
                let mut r = pp.dg_dv[i][0] * dv[0] + pp.dg_dv[i][1] * dv[1];
                for (j, dzj) in dz.iter().enumerate() {
                    r += pp.dg_dz[i][j] * dzj;
                }
                jv[pl.z_off + i] = r;
            }
        }
    }
}

impl Engine<'_> {
    /// The roots of the contacts in a plane with a mode ([`friction_models::plane::PlaneLaw::switch`]),
    /// one each, into `g` (the drivers' motions in the scratch).
    pub(crate) fn plane_roots_into(&self, y: &[f64], d: &Discrete, s: &Scratch, g: &mut [f64]) {
        for (gk, &p) in g.iter_mut().zip(&self.plane_roots) {
            let pl = &self.planes[p];
            let (_, v) = self.plane_slip(y, s, pl);
            if let Some(fs) = pl.disk {
                *gk = Self::disk_root(fs, v, d, s, p);
                continue;
            }
            let z = &y[pl.z_off..pl.z_off + pl.law.n_states()];
            *gk = pl.law.switch(v, z, d.plane_slide[p]).unwrap_or(1.0);
        }
    }

    /// The event of root `k` of the contacts in a plane at (t, y): a slider
    /// stuck inside its disk that reached its rim while loading starts
    /// sliding, its deflection set on the rim exactly (`|kt d| = Fs`); one
    /// sliding that stops loading it (`e·v <= 0`) sticks. A root the motion
    /// only touches changes nothing (`None`).
    pub(crate) fn plane_event(&self, t: f64, y: &mut [f64], k: usize) -> Option<Event> {
        let p = *self.plane_roots.get(k)?;
        let pl = &self.planes[p];
        if pl.disk.is_some() {
            return self.disk_event(t, y, p);
        }
        let r = pl.law.radius()?;
        let mut d = self.disc.borrow_mut();
        let v = {
            let mut s = self.scr.borrow_mut();
            s.drivers_at(&self.sys.drivers, t);
            self.plane_slip(y, &s, pl).1
        };
        let z = &mut y[pl.z_off..pl.z_off + 2];
        let len = z[0].hypot(z[1]);
        let loading = len > 0.0 && (z[0] * v[0] + z[1] * v[1]) > 0.0;
        let (from, to) = match (d.plane_slide[p], loading) {
            (false, true) if len >= r * (1.0 - 1e-9) => {
                z[0] *= r / len;
                z[1] *= r / len;
                ("stuck", "sliding")
            }
            (true, false) => ("sliding", "stuck"),
            _ => return None,
        };
        d.plane_slide[p] = to == "sliding";
        self.jac.borrow_mut().invalidate();
        Some(Event { t, contact: pl.name.clone(), from: from.into(), to: to.into() })
    }
}
