//! A typed Rust builder of a [`System`], without a scenario file, and the
//! checks it shares with the scenario parser: both go through the same
//! functions of this module, so a bad value gives the same message from
//! Rust as from a TOML file (the file adds its name and line).
//!
//! ```
//! use friction_sim::{Ground, LuGreParams, SolverSettings, System};
//! let sys = System::builder("pulled")
//!     .driver("puller", friction_sim::schedule::Schedule::Ramp { start: 0.0, rate: 0.1, offset: 0.0 })
//!     .body("m", 1.0)
//!     .spring("k", ("m", "puller"), 2.0)
//!     .contact("c", ("m", Ground), LuGreParams::default())
//!     .solver(SolverSettings::with_t_end(1.0))
//!     .build()
//!     .unwrap();
//! assert_eq!(sys.contacts[0].name, "c");
//! // the same checks as a scenario file
//! let err = System::builder("bad").body("m", -1.0).solver(SolverSettings::with_t_end(1.0)).build();
//! assert!(err.unwrap_err().to_string().contains("`mass` = -1 is out of range; valid range (0, inf)"));
//! ```

use std::collections::HashMap;

use friction_models::{AnyModel, FrictionModel, ModelError};

use crate::error::SimError;
use crate::scenario::{
    check_name, Body, Contact, Damper, Driver, Force, Gap, Member, SolverSettings, Spring, StateColumns,
    Stop, System,
};
use crate::schedule::Schedule;

/// The fixed ground as an end of a connection: `("m", Ground)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ground;

/// One end of a connection: a body or driver by name, or the ground.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// The fixed ground (the scenario name `"ground"`).
    Ground,
    /// A body or driver by name.
    Name(String),
}

impl End {
    fn name(&self) -> &str {
        match self {
            End::Ground => "ground",
            End::Name(n) => n,
        }
    }
}

impl From<Ground> for End {
    fn from(_: Ground) -> Self {
        End::Ground
    }
}

impl From<&str> for End {
    fn from(s: &str) -> Self {
        End::Name(s.to_string())
    }
}

impl From<String> for End {
    fn from(s: String) -> Self {
        End::Name(s)
    }
}

/// The two ends of a spring, damper or contact, first then second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Between(pub End, pub End);

impl<A: Into<End>, B: Into<End>> From<(A, B)> for Between {
    fn from((a, b): (A, B)) -> Self {
        Between(a.into(), b.into())
    }
}

/// A failed check: the key it concerns (`None`: the element as a whole)
/// and the message, which names the key, the value and the valid range.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Invalid {
    pub key: Option<&'static str>,
    pub message: String,
}

impl Invalid {
    pub(crate) fn at(key: &'static str, message: String) -> Self {
        Invalid { key: Some(key), message }
    }
}

// ---------------------------------------------------------------- shared checks

/// The names of bodies and drivers (and `ground`), in the order they were added.
#[derive(Debug)]
pub(crate) struct Names(HashMap<String, Member>);

impl Names {
    pub(crate) fn new() -> Self {
        Names(HashMap::from([("ground".to_string(), Member::Ground)]))
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
        self.0.get(name).copied().ok_or_else(|| {
            let mut known: Vec<_> = self.0.keys().cloned().collect();
            known.sort();
            let hint = friction_models::suggest::did_you_mean(name, known.iter().map(String::as_str));
            Invalid::at(key, format!("{what}: unknown member \"{name}\"{hint}; known: {}", known.join(", ")))
        })
    }

    /// Resolve `between`: exactly two different members.
    pub(crate) fn pair<S: AsRef<str>>(&self, between: &[S], what: &str) -> Result<[Member; 2], Invalid> {
        if between.len() != 2 {
            return Err(Invalid::at(
                "between",
                format!("{what}: `between` needs exactly 2 names, found {}", between.len()),
            ));
        }
        let a = self.member(between[0].as_ref(), "between", what)?;
        let b = self.member(between[1].as_ref(), "between", what)?;
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
    Ok(Body { name: name.to_string(), mass, x0, v0, kind: Default::default() })
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
) -> Result<Spring, Invalid> {
    let what = format!("spring \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("spring: `name`: {m}")))?;
    let between = names.pair(between, &what)?;
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
) -> Result<Damper, Invalid> {
    let what = format!("damper \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("damper: `name`: {m}")))?;
    let between = names.pair(between, &what)?;
    let coefficient = positive(coefficient, "coefficient", &what, true)?;
    Ok(Damper { name: name.to_string(), between, coefficient })
}

/// A force's name and body (its value is checked by [`check_signal`]).
pub(crate) fn check_force_on(names: &Names, name: &str, on: &str) -> Result<usize, Invalid> {
    let what = format!("force \"{name}\"");
    check_name(name).map_err(|m| Invalid::at("name", format!("force: `name`: {m}")))?;
    match names.member(on, "on", &what)? {
        Member::Body(b) => Ok(b),
        _ => Err(Invalid::at("on", format!("{what}: `on` must name a body, found \"{on}\""))),
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
    let between = names.pair(g.between, &what)?;
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
) -> Result<Stop, Invalid> {
    let what = format!("stop on \"{body}\"");
    let b = match names.member(body, "body", &what)? {
        Member::Body(b) => b,
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

// ---------------------------------------------------------------- the builder

/// A contact as given to the builder, checked in [`SystemBuilder::build`].
#[derive(Debug)]
struct PendingContact {
    name: String,
    between: Between,
    model: Result<AnyModel, ModelError>,
    normal: Schedule,
}

/// Builds a [`System`] in Rust, with the checks and messages of the
/// scenario format; start with [`System::builder`]. Every method takes
/// and returns the builder; [`SystemBuilder::build`] checks everything and
/// reports the first problem, in the order of a scenario file (solver,
/// name, drivers, bodies, springs, dampers, forces, contacts, gaps, stops).
#[derive(Debug)]
pub struct SystemBuilder {
    name: String,
    drivers: Vec<(String, Schedule)>,
    bodies: Vec<(String, f64, f64, f64)>,
    springs: Vec<(String, Between, f64, f64)>,
    dampers: Vec<(String, Between, f64)>,
    forces: Vec<(String, String, Schedule)>,
    contacts: Vec<PendingContact>,
    gaps: Vec<(String, Between, GapSpec)>,
    stops: Vec<(String, f64, f64, f64)>,
    solver: Option<SolverSettings>,
    rotational: Vec<String>,
}

/// The parameters of a gap for [`SystemBuilder::gap`] (see
/// [`crate::scenario::Gap`]); `GapSpec::new(stiffness)` is an undamped
/// linear gap closing at x2 - x1 = 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GapSpec {
    /// Relative position x2 - x1 below which the members are in contact \[m\].
    pub length: f64,
    /// Spring constant c [N/m^n].
    pub stiffness: f64,
    /// Damping constant d [N s/m], limited by the spring force.
    pub damping: f64,
    /// Exponent n >= 1 of the spring force.
    pub exponent: f64,
}

impl GapSpec {
    /// A linear undamped gap of stiffness `stiffness`, contact below x2 - x1 = 0.
    pub fn new(stiffness: f64) -> Self {
        GapSpec { length: 0.0, stiffness, damping: 0.0, exponent: 1.0 }
    }

    /// With contact below x2 - x1 = `length`.
    pub fn length(self, length: f64) -> Self {
        GapSpec { length, ..self }
    }

    /// With damping constant `damping`.
    pub fn damping(self, damping: f64) -> Self {
        GapSpec { damping, ..self }
    }

    /// With spring exponent `exponent`.
    pub fn exponent(self, exponent: f64) -> Self {
        GapSpec { exponent, ..self }
    }
}

impl System {
    /// Start building a system named `name` (the scenario `name`).
    pub fn builder(name: &str) -> SystemBuilder {
        SystemBuilder {
            name: name.to_string(),
            drivers: vec![],
            bodies: vec![],
            springs: vec![],
            dampers: vec![],
            forces: vec![],
            contacts: vec![],
            gaps: vec![],
            stops: vec![],
            solver: None,
            rotational: vec![],
        }
    }

    /// Warnings about valid but suspicious input (not errors), one line
    /// each: a contact whose model's Stribeck peak `fs` sits below its
    /// Coulomb level `fc`.
    pub fn warnings(&self) -> Vec<String> {
        self.contacts
            .iter()
            .flat_map(|c| c.model.warnings().into_iter().map(move |w| format!("contact \"{}\": {w}", c.name)))
            .collect()
    }
}

impl SystemBuilder {
    /// A body of mass (or inertia) `mass` at rest at x = 0.
    pub fn body(self, name: &str, mass: f64) -> Self {
        self.body_at(name, mass, 0.0, 0.0)
    }

    /// A body of mass `mass` starting at position `x0` with velocity `v0`.
    pub fn body_at(mut self, name: &str, mass: f64, x0: f64, v0: f64) -> Self {
        self.bodies.push((name.to_string(), mass, x0, v0));
        self
    }

    /// Make the body or driver `name` rotational (`kind = "rotational"` in a
    /// scenario file): its mass is an inertia [kg m²], its position an
    /// angle \[rad\], forces on it torques [N m] (see [`crate::units`]).
    pub fn rotational(mut self, name: &str) -> Self {
        self.rotational.push(name.to_string());
        self
    }

    /// A driver: a point whose position follows `motion` (a plain `f64` is a constant).
    pub fn driver(mut self, name: &str, motion: impl Into<Schedule>) -> Self {
        self.drivers.push((name.to_string(), motion.into()));
        self
    }

    /// A linear spring of unstretched length 0; its force on the first
    /// member is `stiffness (x2 - x1)`.
    pub fn spring(self, name: &str, between: impl Into<Between>, stiffness: f64) -> Self {
        self.spring_with_length(name, between, stiffness, 0.0)
    }

    /// A linear spring of unstretched length `length`: force on the first
    /// member `stiffness (x2 - x1 - length)`.
    pub fn spring_with_length(
        mut self,
        name: &str,
        between: impl Into<Between>,
        stiffness: f64,
        length: f64,
    ) -> Self {
        self.springs.push((name.to_string(), between.into(), stiffness, length));
        self
    }

    /// A linear damper: force on the first member `coefficient (v2 - v1)`.
    pub fn damper(mut self, name: &str, between: impl Into<Between>, coefficient: f64) -> Self {
        self.dampers.push((name.to_string(), between.into(), coefficient));
        self
    }

    /// An external force on body `on` (a plain `f64` is a constant).
    pub fn force(mut self, name: &str, on: &str, value: impl Into<Schedule>) -> Self {
        self.forces.push((name.to_string(), on.to_string(), value.into()));
        self
    }

    /// A frictional contact with unit normal load. `model` is an
    /// [`AnyModel`], a model (`LuGre::new(..)?`) or a parameter struct
    /// (`LuGreParams { .. }`), checked in [`SystemBuilder::build`].
    pub fn contact<M>(self, name: &str, between: impl Into<Between>, model: M) -> Self
    where
        M: TryInto<AnyModel>,
        M::Error: Into<ModelError>,
    {
        self.contact_with_normal(name, between, model, 1.0)
    }

    /// A frictional contact with normal load N(t) = `normal`, which scales
    /// the model's force and maximum static force (a plain `f64` is a constant).
    pub fn contact_with_normal<M>(
        mut self,
        name: &str,
        between: impl Into<Between>,
        model: M,
        normal: impl Into<Schedule>,
    ) -> Self
    where
        M: TryInto<AnyModel>,
        M::Error: Into<ModelError>,
    {
        self.contacts.push(PendingContact {
            name: name.to_string(),
            between: between.into(),
            model: model.try_into().map_err(Into::into),
            normal: normal.into(),
        });
        self
    }

    /// A compliant one-sided contact (`[[gap]]`, Modelica's ElastoGap)
    /// between two members: it pushes them apart while x2 - x1 <
    /// `spec.length` (see [`crate::scenario::Gap`]).
    pub fn gap(mut self, name: &str, between: impl Into<Between>, spec: GapSpec) -> Self {
        self.gaps.push((name.to_string(), between.into(), spec));
        self
    }

    /// Hard end stops of body `body` at `min` and `max` (either may be
    /// infinite) with a coefficient of restitution in \[0, 1\].
    pub fn stop(mut self, body: &str, min: f64, max: f64, restitution: f64) -> Self {
        self.stops.push((body.to_string(), min, max, restitution));
        self
    }

    /// The solver settings (required; start from [`SolverSettings::with_t_end`]).
    pub fn solver(mut self, s: SolverSettings) -> Self {
        self.solver = Some(s);
        self
    }

    /// Which internal-state columns are written (sets the solver's `states`;
    /// call after [`SystemBuilder::solver`]).
    pub fn states(mut self, states: StateColumns) -> Self {
        if let Some(s) = &mut self.solver {
            s.states = states;
        }
        self
    }

    /// Check everything and build the system. The error is
    /// [`SimError::Input`] with `file` = `"<builder NAME>"`, no line, and the
    /// scenario parser's message for the same mistake.
    pub fn build(self) -> Result<System, SimError> {
        let file = format!("<builder {}>", self.name);
        let err = |message: String| SimError::Input { file: file.clone(), line: None, message };
        let inv = |e: Invalid| err(e.message);
        let solver = self.solver.ok_or_else(|| {
            err("missing solver settings (SystemBuilder::solver, e.g. SolverSettings::with_t_end)".into())
        })?;
        check_solver(&solver).map_err(inv)?;
        let t_end = solver.t_end;
        check_name(&self.name).map_err(|m| err(format!("`name`: {m}")))?;

        let mut names = Names::new();
        let mut drivers = Vec::new();
        for (i, (name, motion)) in self.drivers.into_iter().enumerate() {
            names.add(&name, Member::Driver(i)).map_err(inv)?;
            let what = format!("driver \"{name}\" motion");
            motion.check_finite(&what, t_end).map_err(err)?;
            drivers.push(Driver { name, motion, kind: Default::default() });
        }
        let mut bodies = Vec::new();
        for (i, (name, mass, x0, v0)) in self.bodies.into_iter().enumerate() {
            names.add(&name, Member::Body(i)).map_err(inv)?;
            bodies.push(check_body(&name, mass, x0, v0).map_err(inv)?);
        }
        let ends = |b: &Between| [b.0.name().to_string(), b.1.name().to_string()];
        let mut springs = Vec::new();
        for (name, between, k, l) in &self.springs {
            springs.push(check_spring(&names, name, &ends(between), Some(*k), Some(*l)).map_err(inv)?);
        }
        let mut dampers = Vec::new();
        for (name, between, c) in &self.dampers {
            dampers.push(check_damper(&names, name, &ends(between), Some(*c)).map_err(inv)?);
        }
        let mut forces = Vec::new();
        for (name, on, value) in self.forces {
            let on = check_force_on(&names, &name, &on).map_err(inv)?;
            check_signal(&value, &format!("force \"{name}\" value"), t_end).map_err(err)?;
            forces.push(Force { name, on, value });
        }
        let mut contacts = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, c) in self.contacts.into_iter().enumerate() {
            check_contact_name(&mut seen, &c.name).map_err(inv)?;
            let what = format!("contact \"{}\"", c.name);
            let between = names.pair(&ends(&c.between), &what).map_err(inv)?;
            let model = c.model.map_err(|e| err(model_invalid(i, &what, &e).1))?;
            check_signal(&c.normal, &format!("{what} `normal`"), t_end).map_err(err)?;
            check_load(&model, &c.normal, &what).map_err(inv)?;
            contacts.push(Contact { name: c.name, between, model, normal: c.normal });
        }
        let mut gaps = Vec::new();
        for (name, between, g) in &self.gaps {
            let raw = RawGap {
                name,
                between: &ends(between),
                length: Some(g.length),
                stiffness: Some(g.stiffness),
                damping: Some(g.damping),
                exponent: Some(g.exponent),
            };
            gaps.push(check_gap(&names, &mut seen, raw).map_err(inv)?);
        }
        let mut stops = Vec::new();
        for (body, min, max, e) in &self.stops {
            stops.push(check_stop(&names, &bodies, body, *min, *max, *e).map_err(inv)?);
        }
        for r in &self.rotational {
            match names.member(r, "kind", "rotational").map_err(inv)? {
                Member::Body(i) => bodies[i].kind = crate::units::Kind::Rotational,
                Member::Driver(i) => drivers[i].kind = crate::units::Kind::Rotational,
                Member::Ground => return Err(err("rotational: the ground has no kind".into())),
            }
        }
        let sys = System {
            name: self.name,
            bodies,
            drivers,
            springs,
            dampers,
            forces,
            contacts,
            gaps,
            stops,
            solver,
        };
        crate::units::check_kinds(&sys).map_err(|(_, _, e)| inv(e))?;
        check_states(&sys).map_err(inv)?;
        check_columns(&sys).map_err(inv)?;
        sys.check_output_size().map_err(err)?;
        Ok(sys)
    }
}
