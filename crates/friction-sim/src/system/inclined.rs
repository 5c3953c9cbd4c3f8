//! Inclined springs: a linear spring along a fixed direction between two
//! bodies of dim 2 or 3 (or one of them and the ground), the element that
//! couples a body's coordinates (a joint's tangential and normal motion).
//!
//! With `e` the unit vector of `direction = [ex, ey]` (or `[ex, ey, ez]`)
//! and `u = x_b - x_a` the second member's position relative to the
//! first's, the spring's stretch is `s = e·u - L` and it pulls the first
//! member by `k s e` and the second by `-k s e`; its energy is `k s² / 2`
//! and its stiffness matrix on `(x_a, x_b)` is
//! `k [e eᵀ, -e eᵀ; -e eᵀ, e eᵀ]`. The direction does not turn with the
//! bodies (small displacements, as the other elements along one coordinate).
//! A spring along `[1, 0]` is the spring with `direction = "x"`.
//!
//! In a scenario: `[[spring]] ... direction = [0.6, 0.8]`; in the builder
//! [`crate::system::builder::SystemBuilder::inclined_spring`].

use super::checks::{positive, Names};
use super::{check_name, Invalid, Member};

/// A linear spring along a fixed direction (see the module doc): its
/// stretch is `Σ w x - length` over its legs (each a coordinate of one of
/// its members and that coordinate's weight: `-e_d` for the first member's,
/// `+e_d` for the second's), and it pushes each leg by `-k (Σ w x - L) w`.
#[derive(Debug, Clone, PartialEq)]
pub struct InclinedSpring {
    /// Name.
    pub name: String,
    /// The coordinates it joins, each with its weight in the stretch (the
    /// ground's coordinates are left out).
    pub legs: Vec<(Member, f64)>,
    /// The unit vector along which it acts (x, y[, z]).
    pub unit: Vec<f64>,
    /// Stiffness [N/m].
    pub stiffness: f64,
    /// Unstretched length \[m\]: the stretch is `e·(x_b - x_a) - length`.
    pub length: f64,
}

impl InclinedSpring {
    /// The stretch `Σ w x - length` for the coordinates' positions `x`.
    pub fn stretch(&self, x: impl Fn(Member) -> f64) -> f64 {
        self.legs.iter().map(|&(m, w)| w * x(m)).sum::<f64>() - self.length
    }
}

/// A spring's `direction`: one coordinate or a vector.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SpringDirection {
    /// Along coordinate 0, 1 or 2 (`"x"`, `"y"`, `"z"`).
    Axis(usize),
    /// Along a vector (not yet normalised) of 2 or 3 components.
    Vector(Vec<f64>),
}

/// The valid values of a spring's `direction`.
const VALID: &str = "\"x\", \"y\", \"z\" or a vector of 2 or 3 finite numbers, not all zero";

/// A spring's `direction` key as written in a scenario: a coordinate's
/// name or a vector.
pub(crate) fn spring_direction(v: Option<&toml::Value>, what: &str) -> Result<SpringDirection, Invalid> {
    let bad = |shown: String| {
        Invalid::at("direction", format!("{what}: `direction` = {shown} is not valid; valid values {VALID}"))
    };
    match v {
        None => Ok(SpringDirection::Axis(0)),
        Some(toml::Value::String(s)) => super::planar::direction(Some(s), what).map(SpringDirection::Axis),
        Some(toml::Value::Array(a)) => {
            let mut e = Vec::with_capacity(a.len());
            for x in a {
                match x {
                    toml::Value::Float(f) => e.push(*f),
                    toml::Value::Integer(i) => e.push(*i as f64),
                    _ => return Err(bad(v.map(ToString::to_string).unwrap_or_default())),
                }
            }
            check_vector(&e, what)?;
            Ok(SpringDirection::Vector(e))
        }
        Some(o) => Err(bad(o.to_string())),
    }
}

/// A direction vector: 2 or 3 finite components, not all zero.
fn check_vector(e: &[f64], what: &str) -> Result<(), Invalid> {
    let norm = e.iter().map(|x| x * x).sum::<f64>().sqrt();
    if !(2..=3).contains(&e.len()) || e.iter().any(|x| !x.is_finite()) || norm == 0.0 || !norm.is_finite() {
        return Err(Invalid::at(
            "direction",
            format!("{what}: `direction` = {e:?} is not valid; valid values {VALID}"),
        ));
    }
    Ok(())
}

/// An inclined spring's name, ends, stiffness, length and direction `e`
/// (normalised here): both ends the ground or bodies with as many
/// coordinates as `e` has components.
pub(crate) fn check_inclined(
    names: &Names,
    name: &str,
    between: &[impl AsRef<str>],
    stiffness: Option<f64>,
    length: Option<f64>,
    e: &[f64],
) -> Result<InclinedSpring, Invalid> {
    let what = format!("spring \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("spring: `name`: {m}")))?;
    check_vector(e, &what)?;
    let dim = e.len();
    // resolve the ends along x first (unknown names, the same member twice)
    names.pair_along(between, 0, &what)?;
    let stiffness = positive(stiffness, "stiffness", &what, true)?;
    let length = length.unwrap_or(0.0);
    if !length.is_finite() {
        return Err(Invalid::at("length", format!("{what}: `length` = {length} is not finite")));
    }
    let norm = e.iter().map(|x| x * x).sum::<f64>().sqrt();
    let unit: Vec<f64> = e.iter().map(|x| x / norm).collect();
    let mut legs = Vec::with_capacity(2 * dim);
    for (end, sign) in [(between[0].as_ref(), -1.0), (between[1].as_ref(), 1.0)] {
        if names.member(end, "between", &what)? == Member::Ground {
            continue;
        }
        if names.dim(end) != dim || !names.is_body(end) {
            return Err(Invalid::at(
                "direction",
                format!(
                    "{what}: `direction` = {e:?} has {dim} components, but \"{end}\" {}; an inclined spring \
                     joins the ground or bodies of dim = {dim}",
                    match names.is_body(end) {
                        true => format!("has dim = {}", names.dim(end)),
                        false =>
                            "is not a body (a driver or a structure's DOF moves along x only)".to_string(),
                    }
                ),
            ));
        }
        for (axis, &u) in unit.iter().enumerate() {
            if u != 0.0 {
                legs.push((names.along(end, axis, "between", &what)?, sign * u));
            }
        }
    }
    Ok(InclinedSpring { name: name.to_string(), legs, unit, stiffness, length })
}
