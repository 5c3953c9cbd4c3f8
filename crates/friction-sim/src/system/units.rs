//! Units of the output columns, and the two kinds of moving parts: a
//! translational body (position in m, force in N) and a rotational one
//! (`kind = "rotational"`: angle in rad, torque in N m, inertia in kg m²).
//!
//! The equations are the same for both; only the units (and the words)
//! change. A spring, damper, contact or gap joins members of one kind (the ground
//! joins either); its force column is then a force or a torque.
//!
//! | column | translational | rotational |
//! |---|---|---|
//! | `t` | s | s |
//! | `x.NAME` (body, driver) | m | rad |
//! | `v.NAME` | m/s | rad/s |
//! | `x.NAME`, `y.NAME`, `z.NAME` (the coordinates of a body of dim 2 or 3) | m | - |
//! | `vx.NAME`, `vy.NAME`, `vz.NAME` | m/s | - |
//! | `N.NAME` (normal load of a contact with `normal_stiffness` or `normal_gap`) | N | N m |
//! | `F.NAME` (contact force on its first member) | N | N m |
//! | `s.NAME` (contact slip: first member minus second) | m | rad |
//! | `sv.NAME` (slip velocity) | m/s | rad/s |
//! | `z.NAME.k` (internal state k) | the model's [`friction_models::Quantity`] | the same, rotational |
//! | `F.NAME` (gap: its contact force, >= 0) | N | N m |
//!
//! ```
//! let text = "[[body]]\nname = \"w\"\nkind = \"rotational\"\nmass = 0.1\nv0 = 10.0\n\
//!             [[contact]]\nname = \"c\"\nbetween = [\"w\", \"ground\"]\nmodel = \"lugre\"\n\
//!             [solver]\nt_end = 0.01\n";
//! let sys = friction_sim::scenario::parse(text, "doc.toml", std::path::Path::new(".")).unwrap();
//! let cols = friction_sim::engine::columns(&sys);
//! let units = friction_sim::units::column_units(&sys);
//! let unit = |c: &str| units[cols.iter().position(|x| x == c).unwrap()].clone();
//! assert_eq!(unit("x.w"), "rad");
//! assert_eq!(unit("F.c"), "N m");
//! assert_eq!(unit("sv.c"), "rad/s");
//! assert_eq!(unit("z.c.0"), "rad");
//! ```

use friction_models::{FrictionModel, Quantity};
use serde::Deserialize;

use crate::system::Invalid;
use crate::system::{Member, System};

/// Whether a body or driver translates or rotates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Moves along a line: position \[m\], force \[N\], mass \[kg\] (the default).
    #[default]
    Translational,
    /// Turns about an axis: angle \[rad\], torque [N m], inertia [kg m²].
    Rotational,
}

impl Kind {
    /// `translational` or `rotational`, as in the scenario file.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Translational => "translational",
            Kind::Rotational => "rotational",
        }
    }

    /// Whether rotational.
    pub fn rotational(self) -> bool {
        self == Kind::Rotational
    }

    /// The unit of a quantity for this kind.
    pub fn unit(self, q: Quantity) -> &'static str {
        q.unit(self.rotational())
    }
}

impl System {
    /// The kind of a member; `None` for the ground, which joins either kind.
    pub fn member_kind(&self, m: Member) -> Option<Kind> {
        match m {
            Member::Ground => None,
            Member::Body(i) => Some(self.bodies[i].kind),
            Member::Driver(i) => Some(self.drivers[i].kind),
            // an FE code's DOF may be a translation or a rotation: its units
            // are those of the matrices, unknown here, so it joins either kind
            Member::Dof { .. } => None,
        }
    }

    /// The kind of a connection between two members (checked at load time
    /// to be one kind): translational between the ground and the ground.
    pub fn link_kind(&self, between: [Member; 2]) -> Kind {
        self.member_kind(between[0]).or(self.member_kind(between[1])).unwrap_or_default()
    }
}

/// The unit of every output column of `sys`, in the order of
/// [`crate::engine::columns`] (the columns `[solver] columns` keeps).
pub fn column_units(sys: &System) -> Vec<String> {
    kept_column_units(sys, sys.column_keep().as_deref())
}

/// [`column_units`] of the columns `keep` (positions among every column;
/// `None`: all), as the engine has them already.
pub(crate) fn kept_column_units(sys: &System, keep: Option<&[usize]>) -> Vec<String> {
    kept_units_with(sys, &[], keep)
}

/// [`kept_column_units`] with the units `extra` after all of `sys`'s (the
/// engine's contacts in a plane, which its lowered system no longer has).
pub(crate) fn kept_units_with(sys: &System, extra: &[String], keep: Option<&[usize]>) -> Vec<String> {
    let mut all = all_column_units(sys);
    all.extend(extra.iter().cloned());
    match keep {
        None => all,
        Some(k) => k.iter().map(|&i| std::mem::take(&mut all[i])).collect(),
    }
}

/// [`column_units`] of every column before `[solver] columns` selects.
fn all_column_units(sys: &System) -> Vec<String> {
    let mut u = vec!["s".to_string()];
    let pv = |k: Kind, u: &mut Vec<String>| {
        u.push(k.unit(Quantity::Displacement).into());
        u.push(k.unit(Quantity::Velocity).into());
    };
    for b in &sys.bodies {
        pv(b.kind, &mut u);
    }
    for _ in sys.structure_columns() {
        pv(Kind::Translational, &mut u);
    }
    for d in &sys.drivers {
        pv(d.kind, &mut u);
    }
    let line: Vec<usize> = sys.line_contacts().collect();
    for &c in &line {
        u.push(sys.link_kind(sys.contacts[c].between).unit(Quantity::Force).into());
    }
    for &c in &line {
        pv(sys.link_kind(sys.contacts[c].between), &mut u);
    }
    let on = sys.state_columns();
    for &c in line.iter().filter(|&&c| on[c]) {
        let c = &sys.contacts[c];
        let k = sys.link_kind(c.between);
        for i in 0..c.model.n_states() + c.model.n_memory() {
            u.push(k.unit(c.model.state_quantity(i)).into());
        }
    }
    for g in &sys.gaps {
        u.push(sys.link_kind(g.between).unit(Quantity::Force).into());
    }
    for &c in &line {
        if let Some(k) = sys.contacts[c].normal_gap {
            u.push(sys.link_kind(sys.gaps[k].between).unit(Quantity::Force).into());
        }
    }
    for &c in &line {
        if sys.contacts[c].normal_gap.is_some() {
            u.push("1".into());
        }
    }
    u.extend(sys.thermal.column_units());
    u.extend(plane_column_units(sys));
    u
}

/// The units of the columns of the contacts in a plane
/// ([`System::plane_column_names`]): Fx, Fy, sx, sy, svx, svy, N, state, z.
pub(crate) fn plane_column_units(sys: &System) -> Vec<String> {
    let on = sys.state_columns();
    let mut u = Vec::new();
    for p in &sys.planes {
        let c = &sys.contacts[p.contact];
        let k = Kind::Translational;
        let q = [Quantity::Force, Quantity::Force, Quantity::Displacement, Quantity::Displacement];
        u.extend(q.map(|q| k.unit(q).to_string()));
        u.extend([Quantity::Velocity, Quantity::Velocity, Quantity::Force].map(|q| k.unit(q).to_string()));
        u.push("1".into());
        if on[p.contact] {
            u.extend((0..p.law.n_states()).map(|_| k.unit(c.model.state_quantity(0)).to_string()));
        }
    }
    u
}

/// Which kind of connection [`check_kinds`] refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Link {
    Spring,
    Damper,
    Contact,
    Gap,
}

/// Every spring, damper, contact and gap joins members of one kind (the ground
/// joins either); the first that does not, with its index.
pub(crate) fn check_kinds(sys: &System) -> Result<(), (Link, usize, Invalid)> {
    let check = |link: Link, i: usize, name: &str, between: [Member; 2]| {
        if let (Some(ka), Some(kb)) = (sys.member_kind(between[0]), sys.member_kind(between[1])) {
            if ka != kb {
                let what = match link {
                    Link::Spring => "spring",
                    Link::Damper => "damper",
                    Link::Contact => "contact",
                    Link::Gap => "gap",
                };
                return Err((
                    link,
                    i,
                    Invalid::at(
                        "between",
                        format!(
                            "{what} \"{name}\": `between` joins \"{}\" ({}) and \"{}\" ({}); a spring, damper, \
                             contact or gap joins members of one kind (the ground joins either): set `kind` on both",
                            sys.member_name(between[0]),
                            ka.name(),
                            sys.member_name(between[1]),
                            kb.name()
                        ),
                    ),
                ));
            }
        }
        Ok(())
    };
    for (i, s) in sys.springs.iter().enumerate() {
        check(Link::Spring, i, &s.name, s.between)?;
    }
    for (i, d) in sys.dampers.iter().enumerate() {
        check(Link::Damper, i, &d.name, d.between)?;
    }
    for (i, c) in sys.contacts.iter().enumerate() {
        check(Link::Contact, i, &c.name, c.between)?;
    }
    for (i, g) in sys.gaps.iter().enumerate() {
        check(Link::Gap, i, &g.name, g.between)?;
    }
    Ok(())
}
