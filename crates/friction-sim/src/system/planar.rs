//! Bodies with two or three coordinates and contacts with a normal
//! stiffness: the checks that turn `dim = 2 | 3`, `direction` and a
//! contact's `normal_stiffness`/`gap` into the one-coordinate elements the
//! engine runs on.
//!
//! A body of `dim = 2` is two [`Body`]s of one name and mass, along x and y
//! ([`Axis`]); `dim = 3` adds z. Springs, dampers, forces, gaps and stops
//! act along one coordinate (`direction`, x by default): small displacements,
//! each coordinate on its own line. A contact between members of dim 2 with
//! `normal_stiffness = KN` and `gap = G0` rubs along x, and its normal load
//! is a unilateral penalty on y, `N = max(0, KN (G0 - y))` with `y` the
//! first member's y relative to the second's: a [`Gap`] named `NAME.normal`
//! between the two y coordinates (pushing the first member out, never
//! pulling), whose force is the contact's normal load (`normal_gap`). While
//! the contact is open (`N = 0`) it carries no tangential force; the
//! friction model's state keeps following the slip (its memory is that of a
//! model at zero load), so it closes again with the state the slip left.

use std::collections::HashSet;

use super::checks::{check_body, positive, Names};
use super::{Body, Contact, Gap, Invalid, Member, System};

/// The coordinate a [`Body`] stands for: a body with `dim = 2` is two
/// bodies of one name and mass, along x and y (`dim = 3`: and z), each
/// moving on its own line; springs, dampers, forces, gaps and stops act
/// along one of them (`direction`), and a contact with `normal_stiffness`
/// takes its normal load from y (dim 2) or z (dim 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Axis {
    /// The one coordinate of a body without `dim` (columns `x.NAME`, `v.NAME`).
    #[default]
    Line,
    /// x of a body of dim 2 or 3 (columns `x.NAME`, `vx.NAME`).
    X,
    /// y (columns `y.NAME`, `vy.NAME`).
    Y,
    /// z (columns `z.NAME`, `vz.NAME`; dim 3 only).
    Z,
}

impl Axis {
    /// The coordinates of a body of `dim` coordinates (1, 2 or 3).
    pub fn of_dim(dim: usize) -> &'static [Axis] {
        match dim {
            1 => &[Axis::Line],
            2 => &[Axis::X, Axis::Y],
            _ => &[Axis::X, Axis::Y, Axis::Z],
        }
    }

    /// `0` for x (and a line), `1` for y, `2` for z.
    pub fn index(self) -> usize {
        match self {
            Axis::Line | Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        }
    }

    /// The position and velocity column prefixes: `x`/`v` on a line,
    /// `x`/`vx`, `y`/`vy`, `z`/`vz` for the coordinates of a body of dim 2 or 3.
    pub fn prefixes(self) -> (&'static str, &'static str) {
        match self {
            Axis::Line => ("x", "v"),
            Axis::X => ("x", "vx"),
            Axis::Y => ("y", "vy"),
            Axis::Z => ("z", "vz"),
        }
    }
}

/// The valid values of a `direction` key.
const DIRECTIONS: &str = "\"x\", \"y\" or \"z\"";

/// A `direction` key (`"x"` when absent): 0, 1 or 2.
pub(crate) fn direction(d: Option<&str>, what: &str) -> Result<usize, Invalid> {
    match d {
        None | Some("x") => Ok(0),
        Some("y") => Ok(1),
        Some("z") => Ok(2),
        Some(o) => Err(Invalid::at(
            "direction",
            format!("{what}: `direction` = \"{o}\" is not valid; valid values {DIRECTIONS}"),
        )),
    }
}

/// A body of `dim` coordinates (1, 2 or 3) with initial positions `x0` and
/// velocities `v0` (one value each per coordinate): one [`Body`] per
/// coordinate.
pub(crate) fn check_body_dim(
    name: &str,
    mass: f64,
    dim: i64,
    x0: &[f64],
    v0: &[f64],
) -> Result<Vec<Body>, Invalid> {
    let what = format!("body \"{name}\"");
    if !(1..=3).contains(&dim) {
        return Err(Invalid::at(
            "dim",
            format!("{what}: `dim` = {dim} is out of range; valid values 1, 2, 3"),
        ));
    }
    let dim = dim as usize;
    for (k, x) in [("x0", x0), ("v0", v0)] {
        if x.len() != dim {
            let want = if dim == 1 { "a number".to_string() } else { format!("a list of {dim} numbers") };
            return Err(Invalid::at(
                k,
                format!("{what}: `{k}` has {} values; with dim = {dim} give {want}", x.len()),
            ));
        }
    }
    let mut out = Vec::with_capacity(dim);
    for (i, &axis) in Axis::of_dim(dim).iter().enumerate() {
        let mut b = check_body(name, mass, x0[i], v0[i])?;
        b.axis = axis;
        out.push(b);
    }
    Ok(out)
}

/// A contact's normal gap, and between members of dim 3 its members along y.
pub(crate) type NormalGap = (Gap, Option<[Member; 2]>);

/// A contact's `normal_stiffness` and `gap`: the gap `NAME.normal` between
/// the y coordinates (z for dim 3) of the contact's members `between`
/// (first member, second member), registered in `seen` (the names of
/// contacts and gaps, which share the columns `F.NAME`); for members of
/// dim 3 also the pair along y, the contact's second tangential direction
/// ([`Plane`]).
pub(crate) fn check_contact_normal<S: AsRef<str>>(
    names: &Names,
    seen: &mut HashSet<String>,
    contact: &str,
    between: &[S],
    normal_stiffness: f64,
    gap: f64,
) -> Result<NormalGap, Invalid> {
    let what = format!("contact \"{contact}\"");
    let kn = positive(Some(normal_stiffness), "normal_stiffness", &what, false)?;
    if !gap.is_finite() {
        return Err(Invalid::at("gap", format!("{what}: `gap` = {gap} is not finite")));
    }
    let dims: Vec<usize> = between.iter().map(|b| names.dim(b.as_ref())).collect();
    let dim = dims.iter().copied().max().unwrap_or(1);
    if dim == 1 {
        return Err(Invalid::at(
            "normal_stiffness",
            format!(
                "{what}: `normal_stiffness` needs a member with a normal coordinate: a body of `dim = 2` \
                 (normal y); its members move along x only (give the load of a 1-D contact with `normal`, \
                 or `normal_gap`)"
            ),
        ));
    }
    // dim 3: the normal is z, and the contact rubs along x and y
    let normal_axis = if dim == 3 { 2 } else { 1 };
    let pair = names.pair_along(between, normal_axis, &what)?;
    let lateral = if dim == 3 { Some(names.pair_along(between, 1, &what)?) } else { None };
    let name = format!("{contact}.normal");
    if !seen.insert(name.clone()) {
        return Err(Invalid::at(
            "normal_stiffness",
            format!("{what}: its normal gap is named \"{name}\", which another gap or contact already uses"),
        ));
    }
    // the gap's x2 - x1 is the first member's y relative to the second's
    let between: [Member; 2] = [pair[1], pair[0]];
    Ok((Gap { name, between, length: gap, stiffness: kn, damping: 0.0, exponent: 1.0 }, lateral))
}

/// A body's `x0` or `v0` for `dim` coordinates: absent (all 0), a number
/// (dim 1), or a list of `dim` numbers. A `dim` out of range is left to
/// [`check_body_dim`], which names it.
pub(crate) fn coordinates(
    v: Option<&toml::Value>,
    dim: usize,
    key: &'static str,
    what: &str,
) -> Result<Vec<f64>, Invalid> {
    let n = dim.clamp(1, 3);
    let num = |x: &toml::Value| match x {
        toml::Value::Float(f) => Some(*f),
        toml::Value::Integer(i) => Some(*i as f64),
        _ => None,
    };
    let want = if n == 1 { "a number".to_string() } else { format!("a list of {n} numbers") };
    let bad =
        |found: String| Invalid::at(key, format!("{what}: `{key}` = {found}; with dim = {n} give {want}"));
    match v {
        None => Ok(vec![0.0; n]),
        Some(toml::Value::Array(a)) => {
            a.iter().map(|x| num(x).ok_or_else(|| bad(format!("a list holding {x}")))).collect()
        }
        Some(x) if n == 1 => num(x).map(|f| vec![f]).ok_or_else(|| bad(x.to_string())),
        Some(x) => Err(bad(x.to_string())),
    }
}

/// A contact's `normal_stiffness` and `gap` keys: its normal gap (and
/// between members of dim 3 its pair along y, [`check_contact_normal`])
/// when `normal_stiffness` is given, `None`
/// without either key; `gap` alone, or beside `normal_gap`, is refused.
pub(crate) fn contact_normal<S: AsRef<str>>(
    names: &Names,
    seen: &mut HashSet<String>,
    contact: &str,
    between: &[S],
    normal_stiffness: Option<f64>,
    gap: Option<f64>,
    has_normal_gap: bool,
) -> Result<Option<NormalGap>, Invalid> {
    let what = format!("contact \"{contact}\"");
    match (normal_stiffness, gap) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(Invalid::at(
            "gap",
            format!("{what}: `gap` is the normal clearance of a contact with `normal_stiffness`; give both"),
        )),
        (Some(_), _) if has_normal_gap => Err(Invalid::at(
            "normal_stiffness",
            format!(
                "{what}: give its normal load either by `normal_stiffness` (and `gap`) or by `normal_gap`, not both"
            ),
        )),
        (Some(kn), g) => check_contact_normal(names, seen, contact, between, kn, g.unwrap_or(0.0)).map(Some),
    }
}

/// A contact that rubs in a plane: between members of dim 3 with
/// `normal_stiffness`, it slides along x and y at once, and its friction
/// is the vector law of its model ([`friction_models::plane`]): the force
/// `N F(v)` with `v = (vx, vy)` the first member's slip velocity relative
/// to the second's, `F` along the slip for the radial maps, from the
/// bristle deflections `(zx, zy)` for LuGre, Dahl and Dankowicz. Its normal
/// load `N = max(0, KN (G0 - z))` is the force of its gap on z (its
/// contact's `normal_gap`). While the contact is open its force is zero and
/// the bristles keep following the slip, as along one direction. A
/// set-valued model (`coulomb`, `coulomb_viscous`, `stribeck`,
/// `stribeck_exp`) sticks exactly: held in both directions while its force
/// stays in the friction disk `|F| <= Fs N` ([`Plane::disk`]), sliding by
/// its radial map otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Plane {
    /// The contact (index into [`System::contacts`]): its `between` are the
    /// members' x coordinates, its `normal_gap` its normal load.
    pub contact: usize,
    /// The members' y coordinates (first, second).
    pub lateral: [Member; 2],
    /// The model's law in the plane (while it slides, for a set-valued model).
    pub law: friction_models::plane::PlaneLaw,
    /// A set-valued model's friction disk: `Fs` per unit load
    /// ([`friction_models::plane::friction_disk`]); `None` for the laws.
    pub disk: Option<f64>,
}

/// Mark contact `c` (between members of dim 3) as rubbing in the plane:
/// its model must have a continuous law there.
pub(crate) fn plane(contact: &Contact, c: usize, lateral: [Member; 2]) -> Result<Plane, Invalid> {
    use friction_models::plane::{friction_disk, plane_law, PlaneLaw};
    let m = &contact.model;
    let set_valued = friction_models::FrictionModel::max_static(
        m,
        &vec![0.0; friction_models::FrictionModel::n_states(m)],
        &vec![0.0; friction_models::FrictionModel::n_memory(m)],
    )
    .is_some();
    let found = if set_valued {
        friction_disk(m).map(|fs| (PlaneLaw::Radial, Some(fs)))
    } else {
        plane_law(m).map(|law| (law, None))
    };
    let (law, disk) = found.map_err(|why| {
        Invalid::at(
            "model",
            format!(
                "contact \"{}\": between members of dim 3 it rubs in two tangential directions (x and y), \
                 and model `{}` cannot: {why}",
                contact.name,
                friction_models::FrictionModel::info(&contact.model).id
            ),
        )
    })?;
    Ok(Plane { contact: c, lateral, law, disk })
}

/// A set-valued contact in a plane whose stick the engine cannot hold by
/// itself: the contact's index and the reason. Its stuck force is found
/// from the forces on its members' x and y alone, so no other constraint
/// may act on those coordinates: a set-valued contact along one direction
/// (which may stick), an end stop, another such contact in a plane, or a
/// structure's DOF.
pub(crate) fn disk_conflict(sys: &System) -> Option<(usize, String)> {
    let coords = |p: &Plane| -> [Member; 4] {
        let b = sys.contacts[p.contact].between;
        [b[0], b[1], p.lateral[0], p.lateral[1]]
    };
    let set_valued = |m: &friction_models::AnyModel| {
        use friction_models::FrictionModel;
        m.max_static(&vec![0.0; m.n_states()], &vec![0.0; m.n_memory()]).is_some()
    };
    for p in sys.planes.iter().filter(|p| p.disk.is_some()) {
        let c = &sys.contacts[p.contact];
        let held = |what: String| {
            Some((
                p.contact,
                format!(
                    "contact \"{}\": a set-valued model in a plane (`{}`) is held stuck by the engine from \
                     the forces on its members' x and y alone, and {what}; use a regularised map \
                     (`coulomb_tanh`, `stribeck_tanh`) or a bristle law (`lugre`) for one of them",
                    c.name,
                    friction_models::FrictionModel::info(&c.model).id
                ),
            ))
        };
        for m in coords(p) {
            let i = match m {
                Member::Body(i) => i,
                Member::Dof { .. } => return held("a DOF of a structure is held by its matrices".into()),
                _ => continue,
            };
            let body = &sys.bodies[i].name;
            let in_plane = |k: usize| sys.planes.iter().any(|q| q.contact == k);
            for (k, o) in sys.contacts.iter().enumerate() {
                if k != p.contact && !in_plane(k) && set_valued(&o.model) && o.between.contains(&m) {
                    return held(format!(
                        "coordinate \"{body}\" is also held by contact \"{}\" when it sticks",
                        o.name
                    ));
                }
            }
            if sys.stops.iter().any(|st| st.body == i) {
                return held(format!("coordinate \"{body}\" also has an end stop"));
            }
            for q in sys.planes.iter().filter(|q| q.disk.is_some() && q.contact != p.contact) {
                if coords(q).contains(&m) {
                    let other = &sys.contacts[q.contact].name;
                    return held(format!(
                        "coordinate \"{body}\" is also held by contact \"{other}\" in a plane"
                    ));
                }
            }
        }
    }
    None
}

/// Refuse what a contact in the plane does not carry yet: heat (its power
/// to a thermal node) and temperature laws, and a set-valued one whose
/// members another constraint holds ([`disk_conflict`]); the error names
/// the contact's index.
pub(crate) fn check_planes(sys: &System) -> Result<(), (usize, Invalid)> {
    if let Some((c, why)) = disk_conflict(sys) {
        return Err((c, Invalid::at("model", why)));
    }
    for p in &sys.planes {
        let name = &sys.contacts[p.contact].name;
        let heated = sys.thermal.node_of(super::thermal::Dissipator::Contact(p.contact)).is_some();
        let laws = sys.thermal.laws.iter().any(|(c, _)| *c == p.contact)
            || sys.thermal.model_laws.iter().any(|(c, _)| *c == p.contact);
        if heated || laws {
            return Err((
                p.contact,
                Invalid::at(
                    "heat",
                    format!(
                        "contact \"{name}\": a contact between members of dim 3 (two tangential directions) \
                     does not heat a thermal node nor follow a temperature yet; remove its `heat` key and \
                     temperature laws, or use bodies of dim 2"
                    ),
                ),
            ));
        }
    }
    Ok(())
}
