//! The checks shared by the scenario parser and the builder: each returns
//! an [`Invalid`] naming the key, the value and the valid range, to which
//! the parser adds the file and line.

use std::collections::HashMap;

use friction_models::{AnyModel, FrictionModel, ModelError};

use super::schedule::Schedule;
use super::{
    check_name, Body, Damper, Gap, Invalid, Member, SolverSettings, Spring, StateColumns, Stop, System,
};

/// The names of bodies and drivers (and `ground`), in the order they were
/// added, of structures with the file index of each of their physical
/// DOFs (their members are `NAME:INDEX`), and of bodies of dim 2 or 3 with
/// the body index of each of their coordinates (the name itself resolves
/// to x).
#[derive(Debug)]
pub(crate) struct Names(
    HashMap<String, Member>,
    HashMap<String, (usize, Vec<usize>)>,
    HashMap<String, Vec<usize>>,
);

impl Names {
    pub(crate) fn new() -> Self {
        Names(HashMap::from([("ground".to_string(), Member::Ground)]), HashMap::new(), HashMap::new())
    }

    /// Register a body of dim 2 or 3 named `name` whose coordinates are the
    /// bodies `coords` (x, y, z); its name resolves to x.
    pub(crate) fn add_body(&mut self, name: &str, coords: Vec<usize>) -> Result<(), Invalid> {
        self.add(name, Member::Body(coords[0]))?;
        if coords.len() > 1 {
            self.2.insert(name.to_string(), coords);
        }
        Ok(())
    }

    /// Whether `name` is a body (of any dim).
    pub(crate) fn is_body(&self, name: &str) -> bool {
        matches!(self.0.get(name), Some(Member::Body(_)))
    }

    /// The number of coordinates of body `name` (1 unless it has `dim`).
    pub(crate) fn dim(&self, name: &str) -> usize {
        self.2.get(name).map_or(1, Vec::len)
    }

    /// Resolve a member name along coordinate `axis` (0: x, 1: y, 2: z):
    /// the ground has every coordinate; a body of dim 2 or 3 those it has;
    /// every other member only x.
    pub(crate) fn along(
        &self,
        name: &str,
        axis: usize,
        key: &'static str,
        what: &str,
    ) -> Result<Member, Invalid> {
        let m = self.member(name, key, what)?;
        if axis == 0 || m == Member::Ground {
            return Ok(m);
        }
        let xyz = ["x", "y", "z"][axis.min(2)];
        match self.2.get(name) {
            Some(c) if axis < c.len() => Ok(Member::Body(c[axis])),
            Some(c) => Err(Invalid::at(
                "direction",
                format!(
                    "{what}: `direction` = \"{xyz}\" but body \"{name}\" has dim = {}; valid values \"x\"{}",
                    c.len(),
                    if c.len() == 3 { ", \"y\" or \"z\"" } else { " or \"y\"" }
                ),
            )),
            None => Err(Invalid::at(
                "direction",
                format!(
                    "{what}: `direction` = \"{xyz}\" but \"{name}\" moves along x only (a body without                      `dim`, a driver or a structure's DOF); give the body `dim = 2` or `dim = 3`"
                ),
            )),
        }
    }

    /// Register structure `index` named `name` whose physical DOFs are the
    /// file's DOFs `dofs` (in the order of its matrices).
    pub(crate) fn add_structure(
        &mut self,
        name: &str,
        index: usize,
        dofs: Vec<usize>,
    ) -> Result<(), Invalid> {
        check_name(name).map_err(|msg| Invalid::at("name", format!("`name`: {msg}")))?;
        if self.0.contains_key(name) || self.1.insert(name.to_string(), (index, dofs)).is_some() {
            return Err(Invalid::at(
                "name",
                format!("name \"{name}\" is used twice (\"ground\" is reserved)"),
            ));
        }
        Ok(())
    }

    /// Resolve `NAME:INDEX`, a DOF of a structure.
    fn dof(&self, name: &str, key: &'static str, what: &str) -> Result<Member, Invalid> {
        let (s, i) = name.rsplit_once(':').unwrap_or((name, ""));
        let Some((structure, dofs)) = self.1.get(s) else {
            let mut known: Vec<_> = self.1.keys().cloned().collect();
            known.sort();
            let hint = friction_models::suggest::did_you_mean(s, known.iter().map(String::as_str));
            return Err(Invalid::at(
                key,
                format!(
                    "{what}: unknown structure \"{s}\" in \"{name}\"{hint}; structures: {}",
                    if known.is_empty() { "(none)".to_string() } else { known.join(", ") }
                ),
            ));
        };
        let index: usize = i.parse().map_err(|_| {
            Invalid::at(
                key,
                format!("{what}: \"{name}\": a DOF is `NAME:INDEX` with a 0-based index, found {i:?}"),
            )
        })?;
        let identity = dofs.get(index) == Some(&index);
        let pos = if identity { Some(index) } else { dofs.iter().position(|&d| d == index) };
        match pos {
            Some(index) => Ok(Member::Dof { structure: *structure, index }),
            None if dofs.iter().enumerate().all(|(k, &d)| k == d) => Err(Invalid::at(
                key,
                format!(
                    "{what}: \"{name}\": index {index} is past the {} DOFs of structure \"{s}\"; valid range 0 to {}",
                    dofs.len(),
                    dofs.len().saturating_sub(1)
                ),
            )),
            None => Err(Invalid::at(
                key,
                format!(
                    "{what}: \"{name}\": DOF {index} is not kept by the reduction of structure \"{s}\"; its \
                     physical DOFs are those of `reduce.keep`: {}",
                    dofs.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
                ),
            )),
        }
    }

    /// Register a body or driver name: valid and not used before.
    pub(crate) fn add(&mut self, name: &str, m: Member) -> Result<(), Invalid> {
        check_name(name).map_err(|msg| Invalid::at("name", format!("`name`: {msg}")))?;
        if self.0.insert(name.to_string(), m).is_some() {
            return Err(Invalid::at(
                "name",
                format!("name \"{name}\" is used twice (\"ground\" is reserved)"),
            ));
        }
        Ok(())
    }

    /// Resolve a member name.
    pub(crate) fn member(&self, name: &str, key: &'static str, what: &str) -> Result<Member, Invalid> {
        if name.contains(':') {
            return self.dof(name, key, what);
        }
        if self.1.contains_key(name) {
            return Err(Invalid::at(
                key,
                format!(
                    "{what}: \"{name}\" is a structure; name one of its DOFs as \"{name}:INDEX\" (0-based)"
                ),
            ));
        }
        self.0.get(name).copied().ok_or_else(|| {
            let mut known: Vec<_> = self.0.keys().cloned().collect();
            known.sort();
            let hint = friction_models::suggest::did_you_mean(name, known.iter().map(String::as_str));
            Invalid::at(key, format!("{what}: unknown member \"{name}\"{hint}; known: {}", known.join(", ")))
        })
    }

    /// Resolve `between`: exactly two different members.
    pub(crate) fn pair<S: AsRef<str>>(&self, between: &[S], what: &str) -> Result<[Member; 2], Invalid> {
        self.pair_along(between, 0, what)
    }

    /// Resolve `between` along coordinate `axis` ([`Names::along`]).
    pub(crate) fn pair_along<S: AsRef<str>>(
        &self,
        between: &[S],
        axis: usize,
        what: &str,
    ) -> Result<[Member; 2], Invalid> {
        if between.len() != 2 {
            return Err(Invalid::at(
                "between",
                format!("{what}: `between` needs exactly 2 names, found {}", between.len()),
            ));
        }
        let a = self.along(between[0].as_ref(), axis, "between", what)?;
        let b = self.along(between[1].as_ref(), axis, "between", what)?;
        if a == b {
            return Err(Invalid::at("between", format!("{what}: `between` names the same member twice")));
        }
        Ok([a, b])
    }
}

/// A required non-negative (or positive) finite number.
pub(crate) fn positive(
    x: Option<f64>,
    key: &'static str,
    what: &str,
    allow_zero: bool,
) -> Result<f64, Invalid> {
    let x = x.ok_or_else(|| Invalid::at(key, format!("{what}: missing key `{key}`")))?;
    let ok = x.is_finite() && if allow_zero { x >= 0.0 } else { x > 0.0 };
    if ok {
        Ok(x)
    } else {
        let r = if allow_zero { "[0, inf)" } else { "(0, inf)" };
        Err(Invalid::at(key, format!("{what}: `{key}` = {x} is out of range; valid range {r}")))
    }
}

/// A body's mass and initial state.
pub(crate) fn check_body(name: &str, mass: f64, x0: f64, v0: f64) -> Result<Body, Invalid> {
    if !(mass.is_finite() && mass > 0.0) {
        return Err(Invalid::at(
            "mass",
            format!("body \"{name}\": `mass` = {mass} is out of range; valid range (0, inf)"),
        ));
    }
    for (k, x) in [("x0", x0), ("v0", v0)] {
        if !x.is_finite() {
            return Err(Invalid::at(k, format!("body \"{name}\": `{k}` = {x} is not finite")));
        }
    }
    Ok(Body { name: name.to_string(), mass, x0, v0, kind: Default::default(), axis: Default::default() })
}

/// A signal (a force's value, a contact's normal load) finite over `[0, t_end]`.
pub(crate) fn check_signal(s: &Schedule, what: &str, t_end: f64) -> Result<(), String> {
    if let Schedule::Constant { value } = s {
        if !value.is_finite() {
            return Err(format!("{what} = {value} is not finite; valid range (-inf, inf)"));
        }
    }
    s.check_finite(what, t_end)
}

/// A spring's name, ends, stiffness and length.
pub(crate) fn check_spring(
    names: &Names,
    name: &str,
    between: &[impl AsRef<str>],
    stiffness: Option<f64>,
    length: Option<f64>,
    axis: usize,
) -> Result<Spring, Invalid> {
    let what = format!("spring \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("spring: `name`: {m}")))?;
    let between = names.pair_along(between, axis, &what)?;
    let stiffness = positive(stiffness, "stiffness", &what, true)?;
    let length = length.unwrap_or(0.0);
    if !length.is_finite() {
        return Err(Invalid::at("length", format!("{what}: `length` = {length} is not finite")));
    }
    Ok(Spring { name: name.to_string(), between, stiffness, length })
}

/// A damper's name, ends and coefficient.
pub(crate) fn check_damper(
    names: &Names,
    name: &str,
    between: &[impl AsRef<str>],
    coefficient: Option<f64>,
    axis: usize,
) -> Result<Damper, Invalid> {
    let what = format!("damper \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("damper: `name`: {m}")))?;
    let between = names.pair_along(between, axis, &what)?;
    let coefficient = positive(coefficient, "coefficient", &what, true)?;
    Ok(Damper { name: name.to_string(), between, coefficient })
}

/// A force's name and what it acts on (its value is checked by
/// [`check_signal`]): a body, or a structure's DOF `(structure, position)`.
pub(crate) fn check_force_target(
    names: &Names,
    name: &str,
    on: &str,
    axis: usize,
) -> Result<Result<usize, (usize, usize)>, Invalid> {
    let what = format!("force \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("force: `name`: {m}")))?;
    match names.along(on, axis, "on", &what)? {
        Member::Body(b) => Ok(Ok(b)),
        Member::Dof { structure, index } => Ok(Err((structure, index))),
        _ => Err(Invalid::at(
            "on",
            format!("{what}: `on` must name a body or a structure's DOF, found \"{on}\""),
        )),
    }
}

/// A contact's name (unique among contacts).
pub(crate) fn check_contact_name(
    seen: &mut std::collections::HashSet<String>,
    name: &str,
) -> Result<(), Invalid> {
    check_name(name).map_err(|m| Invalid::at("name", format!("contact: `name`: {m}")))?;
    if !seen.insert(name.to_string()) {
        return Err(Invalid::at("name", format!("contact name \"{name}\" is used twice")));
    }
    Ok(())
}

/// A gap as given in a file or to the builder (optional keys `None`).
pub(crate) struct RawGap<'a, S: AsRef<str>> {
    pub name: &'a str,
    pub between: &'a [S],
    pub length: Option<f64>,
    pub stiffness: Option<f64>,
    pub damping: Option<f64>,
    pub exponent: Option<f64>,
    /// The coordinate it acts along (0: x, 1: y, 2: z).
    pub axis: usize,
}

/// A gap's name (unique among contacts and gaps: both have an `F.NAME`
/// column), ends, length, stiffness, damping and exponent.
pub(crate) fn check_gap<S: AsRef<str>>(
    names: &Names,
    seen: &mut std::collections::HashSet<String>,
    g: RawGap<'_, S>,
) -> Result<Gap, Invalid> {
    let name = g.name;
    let what = format!("gap \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("gap: `name`: {m}")))?;
    if !seen.insert(name.to_string()) {
        return Err(Invalid::at(
            "name",
            format!("gap name \"{name}\" is used twice (contacts and gaps share the column names F.NAME)"),
        ));
    }
    let between = names.pair_along(g.between, g.axis, &what)?;
    let stiffness = positive(g.stiffness, "stiffness", &what, false)?;
    let damping = g.damping.unwrap_or(0.0);
    if !(damping.is_finite() && damping >= 0.0) {
        return Err(Invalid::at(
            "damping",
            format!("{what}: `damping` = {damping} is out of range; valid range [0, inf)"),
        ));
    }
    let exponent = g.exponent.unwrap_or(1.0);
    if !(exponent.is_finite() && exponent >= 1.0) {
        return Err(Invalid::at(
            "exponent",
            format!("{what}: `exponent` = {exponent} is out of range; valid range [1, inf)"),
        ));
    }
    let length = g.length.unwrap_or(0.0);
    if !length.is_finite() {
        return Err(Invalid::at("length", format!("{what}: `length` = {length} is not finite")));
    }
    Ok(Gap { name: name.to_string(), between, length, stiffness, damping, exponent })
}

/// A contact's `normal_gap`: the index of the gap named `gap` among `gaps`
/// (the message names the contact and the gaps there are).
pub(crate) fn check_normal_gap(c: &crate::system::Contact, gaps: &[Gap], gap: &str) -> Result<usize, String> {
    gaps.iter().position(|g| g.name == gap).ok_or_else(|| {
        let known: Vec<&str> = gaps.iter().map(|g| g.name.as_str()).collect();
        format!(
            "contact \"{}\": `normal_gap` = \"{gap}\" names no gap ({})",
            c.name,
            if known.is_empty() {
                "the scenario has no [[gap]]".to_string()
            } else {
                format!("gaps: {}", known.join(", "))
            }
        )
    })
}

/// A model error of contact `i`, with the key path of the parameter.
pub(crate) fn model_invalid(i: usize, what: &str, e: &ModelError) -> (Option<String>, String) {
    let key = match e.param() {
        Some(p) => format!("contact[{i}].params.{p}: "),
        None => format!("contact[{i}].model: "),
    };
    (e.param().map(str::to_string), format!("{key}{what}: {e}"))
}

/// The model's own load parameter, when it has one and it is set to a
/// value other than 1: `(key path, value)`; inner models of wrappers are
/// searched too (`params.inner.params.fn_load`).
fn own_load(model: &AnyModel, prefix: &str) -> Option<(String, f64)> {
    let (key, x) = match model {
        AnyModel::StribeckExp(m) => ("normal", m.params().normal),
        AnyModel::RateState(m) => ("fn_load", m.params().fn_load),
        AnyModel::Stochastic(m) => return own_load(&m.params().inner, &format!("{prefix}.inner.params")),
        AnyModel::MetaCoulomb(m) => return own_load(&m.params().inner, &format!("{prefix}.inner.params")),
        _ => return None,
    };
    debug_assert!(friction_models::LOAD_PARAMS.contains(&(model.info().id, key)));
    (x != 1.0).then(|| (format!("{prefix}.{key}"), x))
}

/// Refuse a contact whose `normal` and its model's own load parameter are
/// both set (N would enter squared).
pub(crate) fn check_load(model: &AnyModel, normal: &Schedule, what: &str) -> Result<(), Invalid> {
    if *normal == (Schedule::Constant { value: 1.0 }) {
        return Ok(());
    }
    if let Some((path, value)) = own_load(model, "params") {
        let key: &'static str = if path.ends_with("fn_load") { "fn_load" } else { "normal" };
        return Err(Invalid::at(
            key,
            format!(
                "{what}: both the contact's `normal` and the model's load parameter `{path}` = {value} \
                 are set; the contact's `normal` already scales the force, so N would enter squared. \
                 Keep one: the contact's `normal` (recommended, it can vary in time) with `{path}` = 1 \
                 (or absent), or `{path}` with `normal` = 1 (or absent)"
            ),
        ));
    }
    Ok(())
}

/// A stop's body and limits.
pub(crate) fn check_stop(
    names: &Names,
    bodies: &[Body],
    body: &str,
    min: f64,
    max: f64,
    restitution: f64,
    axis: usize,
) -> Result<Stop, Invalid> {
    let what = format!("stop on \"{body}\"");
    let b = match names.along(body, axis, "body", &what)? {
        Member::Body(b) => b,
        Member::Dof { .. } => {
            return Err(Invalid::at(
                "body",
                format!(
                    "{what}: stops on a structure's DOF are not supported (only `friction run` treats stops, and it \
                     does not accept `[[structure]]` yet); name a body"
                ),
            ))
        }
        _ => return Err(Invalid::at("body", format!("{what}: `body` must name a body"))),
    };
    if min >= max || min.is_nan() || max.is_nan() {
        return Err(Invalid::at("max", format!("{what}: `max` = {max} must be greater than `min` = {min}")));
    }
    if !(0.0..=1.0).contains(&restitution) {
        return Err(Invalid::at(
            "restitution",
            format!("{what}: `restitution` = {restitution} is out of range; valid range [0, 1]"),
        ));
    }
    let x0 = bodies[b].x0;
    if x0 < min || x0 > max {
        return Err(Invalid {
            key: None,
            message: format!("{what}: the body's x0 = {x0} is outside [{min}, {max}]"),
        });
    }
    Ok(Stop { body: b, min, max, restitution })
}

/// The numeric solver settings: ranges of `t_end`, `output_dt`, `rtol`,
/// `atol`, `max_steps`, `max_wall`, `max_step`, and `output_times`.
pub(crate) fn check_solver(s: &SolverSettings) -> Result<(), Invalid> {
    let bad = |key: &'static str, msg: String| Invalid::at(key, format!("[solver] {msg}"));
    if !(s.t_end.is_finite() && s.t_end > 0.0) {
        return Err(bad("t_end", format!("`t_end` = {} is out of range; valid range (0, inf)", s.t_end)));
    }
    if let Some(dt) = s.output_dt {
        if !(dt.is_finite() && dt > 0.0 && dt <= s.t_end) {
            return Err(bad(
                "output_dt",
                format!("`output_dt` = {dt} is out of range; valid range (0, t_end = {}]", s.t_end),
            ));
        }
        if s.t_end / dt > 5e6 {
            return Err(bad(
                "output_dt",
                format!("`output_dt` = {dt} gives more than 5e6 output rows; use a larger value"),
            ));
        }
    }
    if let Some(ts) = &s.output_times {
        let ok = ts.iter().all(|t| t.is_finite() && *t >= 0.0 && *t <= s.t_end)
            && ts.windows(2).all(|w| w[0] < w[1]);
        if !ok {
            return Err(bad(
                "output_times",
                format!("`output_times` must be increasing and within [0, t_end = {}]", s.t_end),
            ));
        }
    }
    let rtol = s.rtol;
    if !(rtol > 1e-14 && rtol < 1.0) {
        return Err(bad("rtol", format!("`rtol` = {rtol} is out of range; valid range (1e-14, 1)")));
    }
    for (k, x) in [("position", s.atol_position), ("velocity", s.atol_velocity), ("state", s.atol_state)] {
        if !(x.is_finite() && x > 0.0) {
            return Err(bad("atol", format!("`atol` ({k}) = {x} is out of range; valid range (0, inf)")));
        }
    }
    if s.max_steps < 1 {
        return Err(bad(
            "max_steps",
            format!("`max_steps` = {} is out of range; valid range integer >= 1", s.max_steps),
        ));
    }
    if let Some(w) = s.max_wall {
        if !(w.is_finite() && w > 0.0) {
            return Err(bad(
                "max_wall",
                format!("`max_wall` = {w} is out of range; valid range (0, inf) seconds"),
            ));
        }
    }
    if s.max_output_bytes < 1 {
        return Err(bad(
            "max_output_bytes",
            format!(
                "`max_output_bytes` = {} is out of range; valid range [1, 1.8e19] bytes",
                s.max_output_bytes
            ),
        ));
    }
    let max_step = s.max_step;
    if !(max_step.is_finite() && max_step > 0.0) {
        return Err(bad(
            "max_step",
            format!("`max_step` = {max_step} is out of range; valid range (0, inf)"),
        ));
    }
    Ok(())
}

/// `states = [names]` must name contacts.
pub(crate) fn check_states(sys: &System) -> Result<(), Invalid> {
    if let StateColumns::Names(list) = &sys.solver.states {
        for n in list {
            if !sys.contacts.iter().any(|c| &c.name == n) {
                let known: Vec<&str> = sys.contacts.iter().map(|c| c.name.as_str()).collect();
                let hint = friction_models::suggest::did_you_mean(n, known.iter().copied());
                return Err(Invalid::at(
                    "states",
                    format!(
                        "[solver] `states`: unknown contact \"{n}\"{hint}; known contacts: {}",
                        if known.is_empty() { "(none)".to_string() } else { known.join(", ") }
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `columns = [names]` must name output columns of the system.
pub(crate) fn check_columns(sys: &System) -> Result<(), Invalid> {
    if let Some(list) = &sys.solver.columns {
        let all = sys.all_column_names();
        let known: std::collections::HashSet<&str> = all.iter().map(String::as_str).collect();
        for n in list {
            if !known.contains(n.as_str()) {
                let hint = friction_models::suggest::did_you_mean(n, all.iter().map(String::as_str));
                let shown: Vec<&str> = all.iter().take(40).map(String::as_str).collect();
                let more =
                    if all.len() > 40 { format!(", ... ({} in all)", all.len()) } else { String::new() };
                return Err(Invalid::at(
                    "columns",
                    format!(
                        "[solver] `columns`: no column \"{n}\"{hint}; the columns of this scenario: {}{more} \
                         (state columns z.NAME.k as `states` chooses them)",
                        shown.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(())
}
