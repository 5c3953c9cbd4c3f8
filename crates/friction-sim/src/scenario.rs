//! The scenario file format (a public contract: extend it, never break it)
//! and its translation into a validated [`System`].
//!
//! ```toml
//! name = "dahl-triangle"
//! [[driver]]            # a point whose position is prescribed
//! name = "slider"
//! motion = { type = "points", points = [0.0, 2e-5, -1e-5], speed = 1e-4 }
//! [[body]]              # a mass (or a rotational inertia)
//! name = "m"
//! mass = 1.0
//! x0 = 0.0
//! v0 = 0.0
//! [[spring]]            # force on the first member k (x2 - x1 - length)
//! between = ["m", "slider"]
//! stiffness = 100.0
//! [[damper]]            # force on the first member c (v2 - v1)
//! between = ["m", "ground"]
//! coefficient = 1.0
//! [[force]]             # an external force (schedule, see friction_sim::schedule)
//! on = "m"
//! value = { type = "constant", value = 1.0 }
//! [[contact]]           # a frictional contact between two of: bodies, drivers, "ground"
//! name = "c"
//! between = ["slider", "ground"]
//! model = "dahl"
//! params = { sigma0 = 1e5, fc = 1.0, exponent = 1.0 }
//! normal = 1.0          # or a schedule table; scales the force and the maximum static force
//! [[stop]]              # hard end stops of a body
//! body = "m"
//! min = -0.1
//! max = 0.1
//! restitution = 0.0
//! [solver]
//! t_end = 1.0
//! output_dt = 1e-4      # or output = "steps"
//! method = "auto"       # auto | bdf | tr_bdf2 | esdirk34 | tsit45
//! rtol = 1e-6
//! atol = { position = 1e-9, velocity = 1e-8, state = 1e-10 }   # or one number
//! max_step = 0.01
//! max_steps = 10000000 # a run that needs more accepted steps stops with a partial result
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use friction_models::{AnyModel, FrictionModel, ParamMap, ParamValue};
use serde::Deserialize;
use toml::Spanned;

use crate::error::SimError;
use crate::schedule::Schedule;

/// A member of a connection: the fixed ground, a body or a driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    /// The fixed ground (x = 0).
    Ground,
    /// Body index.
    Body(usize),
    /// Driver index.
    Driver(usize),
}

/// A mass with free motion.
#[derive(Debug, Clone)]
pub struct Body {
    /// Name.
    pub name: String,
    /// Mass \[kg\] or inertia [kg m²].
    pub mass: f64,
    /// Initial position.
    pub x0: f64,
    /// Initial velocity.
    pub v0: f64,
}

/// A point with prescribed motion.
#[derive(Debug, Clone)]
pub struct Driver {
    /// Name.
    pub name: String,
    /// Position schedule.
    pub motion: Schedule,
}

/// A linear spring.
#[derive(Debug, Clone)]
pub struct Spring {
    /// Name.
    pub name: String,
    /// First and second member.
    pub between: [Member; 2],
    /// Stiffness [N/m].
    pub stiffness: f64,
    /// Unstretched length \[m\].
    pub length: f64,
}

/// A linear damper.
#[derive(Debug, Clone)]
pub struct Damper {
    /// Name.
    pub name: String,
    /// First and second member.
    pub between: [Member; 2],
    /// Coefficient [N s/m].
    pub coefficient: f64,
}

/// An external force on a body.
#[derive(Debug, Clone)]
pub struct Force {
    /// Name.
    pub name: String,
    /// Body index.
    pub on: usize,
    /// Force schedule \[N\].
    pub value: Schedule,
}

/// A frictional contact.
#[derive(Debug, Clone)]
pub struct Contact {
    /// Name.
    pub name: String,
    /// First and second member; x, v of the model are first minus second.
    pub between: [Member; 2],
    /// The friction model.
    pub model: AnyModel,
    /// Normal load scale N(t) [-]; multiplies the force and the maximum static force.
    pub normal: Schedule,
}

/// Hard end stops of a body.
#[derive(Debug, Clone)]
pub struct Stop {
    /// Body index.
    pub body: usize,
    /// Lower limit.
    pub min: f64,
    /// Upper limit.
    pub max: f64,
    /// Coefficient of restitution in [0, 1].
    pub restitution: f64,
}

/// Integration method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Stiff (`bdf`) if any contact is stiff, else `tsit45`.
    Auto,
    /// Variable-order BDF (diffsol).
    Bdf,
    /// TR-BDF2 (diffsol).
    TrBdf2,
    /// ESDIRK34 (diffsol).
    Esdirk34,
    /// Tsitouras 5(4) explicit Runge-Kutta (diffsol).
    Tsit45,
}

impl Method {
    /// The id used in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Bdf => "bdf",
            Method::TrBdf2 => "tr_bdf2",
            Method::Esdirk34 => "esdirk34",
            Method::Tsit45 => "tsit45",
        }
    }
}

/// Solver settings.
#[derive(Debug, Clone)]
pub struct SolverSettings {
    /// Method.
    pub method: Method,
    /// End time \[s\].
    pub t_end: f64,
    /// Output interval; `None` means every accepted step.
    pub output_dt: Option<f64>,
    /// Explicit output times (increasing, within `[0, t_end]`); overrides
    /// `output_dt` when given (used to simulate at measured sample times).
    pub output_times: Option<Vec<f64>>,
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance of positions.
    pub atol_position: f64,
    /// Absolute tolerance of velocities.
    pub atol_velocity: f64,
    /// Absolute tolerance of the contacts' internal states.
    pub atol_state: f64,
    /// Largest step \[s\].
    pub max_step: f64,
    /// Largest number of accepted steps before the run is stopped as failed.
    pub max_steps: usize,
}

/// A validated mechanical system with its solver settings.
#[derive(Debug, Clone)]
pub struct System {
    /// Scenario name.
    pub name: String,
    /// Bodies.
    pub bodies: Vec<Body>,
    /// Drivers.
    pub drivers: Vec<Driver>,
    /// Springs.
    pub springs: Vec<Spring>,
    /// Dampers.
    pub dampers: Vec<Damper>,
    /// External forces.
    pub forces: Vec<Force>,
    /// Frictional contacts.
    pub contacts: Vec<Contact>,
    /// End stops.
    pub stops: Vec<Stop>,
    /// Solver settings.
    pub solver: SolverSettings,
}

// ---------------------------------------------------------------- raw file

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Option<String>,
    description: Option<String>,
    #[serde(default)]
    driver: Vec<Spanned<RawDriver>>,
    #[serde(default)]
    body: Vec<Spanned<RawBody>>,
    #[serde(default)]
    spring: Vec<Spanned<RawLink>>,
    #[serde(default)]
    damper: Vec<Spanned<RawLink>>,
    #[serde(default)]
    force: Vec<Spanned<RawForce>>,
    #[serde(default)]
    contact: Vec<Spanned<RawContact>>,
    #[serde(default)]
    stop: Vec<Spanned<RawStop>>,
    solver: Option<Spanned<RawSolver>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDriver {
    name: String,
    motion: toml::Table,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBody {
    name: String,
    mass: f64,
    #[serde(default)]
    x0: f64,
    #[serde(default)]
    v0: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    name: Option<String>,
    between: Vec<String>,
    stiffness: Option<f64>,
    length: Option<f64>,
    coefficient: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawForce {
    name: Option<String>,
    on: String,
    value: toml::Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContact {
    name: Option<String>,
    between: Vec<String>,
    model: String,
    #[serde(default)]
    params: toml::Table,
    normal: Option<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStop {
    body: String,
    min: Option<f64>,
    max: Option<f64>,
    #[serde(default)]
    restitution: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSolver {
    t_end: f64,
    output_dt: Option<f64>,
    output: Option<String>,
    method: Option<String>,
    rtol: Option<f64>,
    atol: Option<toml::Value>,
    max_step: Option<f64>,
    max_steps: Option<i64>,
}

// ---------------------------------------------------------------- reading

/// Where a scenario came from, for error messages and relative paths.
struct Src<'a> {
    file: String,
    text: &'a str,
    dir: PathBuf,
}

impl Src<'_> {
    fn line_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())].matches('\n').count() + 1
    }

    /// Line of `key` inside the text span `span` (first occurrence as `key =`), else the span's first line.
    fn key_line(&self, span: std::ops::Range<usize>, key: &str) -> usize {
        // a table of an array of tables may be spanned by its header only:
        // search on to the next header line
        let from_line_end = self.text[span.start.min(self.text.len())..].find('\n').map(|i| span.start + i);
        let next_header = from_line_end.and_then(|e| {
            let mut off = e;
            for line in self.text[e..].split_inclusive('\n') {
                if line.trim_start().starts_with('[') && off > e {
                    return Some(off);
                }
                off += line.len();
            }
            None
        });
        let end = span.end.max(next_header.unwrap_or(self.text.len())).min(self.text.len());
        let chunk = &self.text[span.start..end];
        let mut pos = 0;
        while let Some(i) = chunk[pos..].find(key) {
            let at = pos + i;
            let before_ok = at == 0
                || !chunk.as_bytes()[at - 1].is_ascii_alphanumeric() && chunk.as_bytes()[at - 1] != b'_';
            let rest = chunk[at + key.len()..].trim_start();
            if before_ok && rest.starts_with('=') {
                return self.line_of(span.start + at);
            }
            pos = at + key.len();
        }
        self.line_of(span.start)
    }

    fn err(&self, line: usize, message: String) -> SimError {
        SimError::Input { file: self.file.clone(), line: Some(line), message }
    }
}

/// Read a scenario file.
pub fn load(path: &Path) -> Result<System, SimError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| SimError::Io { path: path.display().to_string(), source: e })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&text, &path.display().to_string(), &dir)
}

/// Parse scenario text; `file` names it in errors, `dir` resolves relative table files.
pub fn parse(text: &str, file: &str, dir: &Path) -> Result<System, SimError> {
    let src = Src { file: file.to_string(), text, dir: dir.to_path_buf() };
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| src.line_of(s.start));
        SimError::Input { file: file.to_string(), line, message: e.message().trim().to_string() }
    })?;
    let _ = &raw.description;

    let mut names: HashMap<String, Member> = HashMap::new();
    names.insert("ground".into(), Member::Ground);
    let mut check_name = |name: &str, m: Member, line: usize| -> Result<(), SimError> {
        if name.is_empty() || name.contains(',') || name.contains('"') {
            return Err(src.err(line, format!("name \"{name}\" must be non-empty without commas or quotes")));
        }
        if names.insert(name.to_string(), m).is_some() {
            return Err(src.err(line, format!("name \"{name}\" is used twice (\"ground\" is reserved)")));
        }
        Ok(())
    };

    let mut drivers = Vec::new();
    for (i, d) in raw.driver.iter().enumerate() {
        let span = d.span();
        let d = d.get_ref();
        check_name(&d.name, Member::Driver(i), src.key_line(span.clone(), "name"))?;
        let what = format!("driver \"{}\" motion", d.name);
        let motion = Schedule::from_toml(&d.motion, &what, &src.dir)
            .map_err(|m| src.err(src.key_line(span.clone(), "motion"), m))?;
        drivers.push(Driver { name: d.name.clone(), motion });
    }
    let mut bodies = Vec::new();
    for (i, b) in raw.body.iter().enumerate() {
        let span = b.span();
        let b = b.get_ref();
        check_name(&b.name, Member::Body(i), src.key_line(span.clone(), "name"))?;
        if !(b.mass.is_finite() && b.mass > 0.0) {
            return Err(src.err(
                src.key_line(span, "mass"),
                format!("body \"{}\": `mass` = {} is out of range; valid range (0, inf)", b.name, b.mass),
            ));
        }
        for (k, x) in [("x0", b.x0), ("v0", b.v0)] {
            if !x.is_finite() {
                return Err(src.err(
                    src.key_line(span.clone(), k),
                    format!("body \"{}\": `{k}` = {x} is not finite", b.name),
                ));
            }
        }
        bodies.push(Body { name: b.name.clone(), mass: b.mass, x0: b.x0, v0: b.v0 });
    }

    let member = |name: &str, line: usize, what: &str| -> Result<Member, SimError> {
        names.get(name).copied().ok_or_else(|| {
            let mut known: Vec<_> = names.keys().cloned().collect();
            known.sort();
            src.err(line, format!("{what}: unknown member \"{name}\"; known: {}", known.join(", ")))
        })
    };
    let pair =
        |between: &[String], span: std::ops::Range<usize>, what: &str| -> Result<[Member; 2], SimError> {
            let line = src.key_line(span, "between");
            if between.len() != 2 {
                return Err(src
                    .err(line, format!("{what}: `between` needs exactly 2 names, found {}", between.len())));
            }
            let a = member(&between[0], line, what)?;
            let b = member(&between[1], line, what)?;
            if a == b {
                return Err(src.err(line, format!("{what}: `between` names the same member twice")));
            }
            Ok([a, b])
        };

    let positive = |x: Option<f64>, key: &str, span: std::ops::Range<usize>, what: &str, allow_zero: bool| {
        let line = src.key_line(span, key);
        let x = x.ok_or_else(|| src.err(line, format!("{what}: missing key `{key}`")))?;
        let ok = x.is_finite() && if allow_zero { x >= 0.0 } else { x > 0.0 };
        if ok {
            Ok(x)
        } else {
            let r = if allow_zero { "[0, inf)" } else { "(0, inf)" };
            Err(src.err(line, format!("{what}: `{key}` = {x} is out of range; valid range {r}")))
        }
    };

    let mut springs = Vec::new();
    for (i, s) in raw.spring.iter().enumerate() {
        let span = s.span();
        let s = s.get_ref();
        let name = s.name.clone().unwrap_or_else(|| format!("spring{i}"));
        let what = format!("spring \"{name}\"");
        if s.coefficient.is_some() {
            return Err(src.err(
                src.key_line(span, "coefficient"),
                format!("{what}: unknown key `coefficient` (springs have `stiffness`, `length`)"),
            ));
        }
        let between = pair(&s.between, span.clone(), &what)?;
        let stiffness = positive(s.stiffness, "stiffness", span.clone(), &what, true)?;
        let length = s.length.unwrap_or(0.0);
        if !length.is_finite() {
            return Err(
                src.err(src.key_line(span, "length"), format!("{what}: `length` = {length} is not finite"))
            );
        }
        springs.push(Spring { name, between, stiffness, length });
    }
    let mut dampers = Vec::new();
    for (i, s) in raw.damper.iter().enumerate() {
        let span = s.span();
        let s = s.get_ref();
        let name = s.name.clone().unwrap_or_else(|| format!("damper{i}"));
        let what = format!("damper \"{name}\"");
        if s.stiffness.is_some() || s.length.is_some() {
            return Err(src.err(
                src.line_of(span.start),
                format!("{what}: dampers take `between` and `coefficient` only"),
            ));
        }
        let between = pair(&s.between, span.clone(), &what)?;
        let coefficient = positive(s.coefficient, "coefficient", span.clone(), &what, true)?;
        dampers.push(Damper { name, between, coefficient });
    }
    let mut forces = Vec::new();
    for (i, f) in raw.force.iter().enumerate() {
        let span = f.span();
        let f = f.get_ref();
        let name = f.name.clone().unwrap_or_else(|| format!("force{i}"));
        let what = format!("force \"{name}\"");
        let on = match member(&f.on, src.key_line(span.clone(), "on"), &what)? {
            Member::Body(b) => b,
            _ => {
                return Err(src.err(
                    src.key_line(span, "on"),
                    format!("{what}: `on` must name a body, found \"{}\"", f.on),
                ))
            }
        };
        let value = schedule_value(&f.value, &format!("{what} value"), &src)
            .map_err(|m| src.err(src.key_line(span.clone(), "value"), m))?;
        forces.push(Force { name, on, value });
    }
    let mut contacts = Vec::new();
    let mut contact_names = std::collections::HashSet::new();
    for (i, c) in raw.contact.iter().enumerate() {
        let span = c.span();
        let c = c.get_ref();
        let name = c.name.clone().unwrap_or_else(|| format!("c{i}"));
        if !contact_names.insert(name.clone()) {
            return Err(src.err(src.key_line(span, "name"), format!("contact name \"{name}\" is used twice")));
        }
        let what = format!("contact \"{name}\"");
        let between = pair(&c.between, span.clone(), &what)?;
        let params = toml_to_params(&c.params);
        let model = friction_models::build(&c.model, &params).map_err(|e| {
            let line = match e.param() {
                Some(p) => src.key_line(span.clone(), p.split(['.', '[']).next().unwrap_or(p)),
                None => src.key_line(span.clone(), "model"),
            };
            src.err(line, format!("{what}: {e}"))
        })?;
        let normal = match &c.normal {
            None => Schedule::Constant { value: 1.0 },
            Some(v) => schedule_value(v, &format!("{what} normal"), &src)
                .map_err(|m| src.err(src.key_line(span.clone(), "normal"), m))?,
        };
        if let Schedule::Constant { value } = normal {
            if value < 0.0 {
                return Err(src.err(
                    src.key_line(span, "normal"),
                    format!("{what}: `normal` = {value} is out of range; valid range [0, inf)"),
                ));
            }
        }
        contacts.push(Contact { name, between, model, normal });
    }
    let mut stops = Vec::new();
    for s in &raw.stop {
        let span = s.span();
        let s = s.get_ref();
        let what = format!("stop on \"{}\"", s.body);
        let body = match member(&s.body, src.key_line(span.clone(), "body"), &what)? {
            Member::Body(b) => b,
            _ => return Err(src.err(src.key_line(span, "body"), format!("{what}: `body` must name a body"))),
        };
        let min = s.min.unwrap_or(f64::NEG_INFINITY);
        let max = s.max.unwrap_or(f64::INFINITY);
        if min >= max || min.is_nan() || max.is_nan() {
            return Err(src.err(
                src.key_line(span, "max"),
                format!("{what}: `max` = {max} must be greater than `min` = {min}"),
            ));
        }
        if !(0.0..=1.0).contains(&s.restitution) {
            return Err(src.err(
                src.key_line(span, "restitution"),
                format!("{what}: `restitution` = {} is out of range; valid range [0, 1]", s.restitution),
            ));
        }
        let x0 = bodies[body].x0;
        if x0 < min || x0 > max {
            return Err(src.err(
                src.line_of(span.start),
                format!("{what}: the body's x0 = {x0} is outside [{min}, {max}]"),
            ));
        }
        stops.push(Stop { body, min, max, restitution: s.restitution });
    }

    let solver = match &raw.solver {
        None => {
            return Err(SimError::Input {
                file: file.into(),
                line: None,
                message: "missing table [solver] with at least `t_end`".into(),
            })
        }
        Some(s) => solver_settings(s, &src)?,
    };
    Ok(System {
        name: raw.name.clone().unwrap_or_else(|| "scenario".into()),
        bodies,
        drivers,
        springs,
        dampers,
        forces,
        contacts,
        stops,
        solver,
    })
}

fn schedule_value(v: &toml::Value, what: &str, src: &Src<'_>) -> Result<Schedule, String> {
    match v {
        toml::Value::Float(x) => Ok(Schedule::Constant { value: *x }),
        toml::Value::Integer(i) => Ok(Schedule::Constant { value: *i as f64 }),
        toml::Value::Table(t) => Schedule::from_toml(t, what, &src.dir),
        other => Err(format!("{what}: expected a number or a schedule table, found {other}")),
    }
}

fn solver_settings(s: &Spanned<RawSolver>, src: &Src<'_>) -> Result<SolverSettings, SimError> {
    let span = s.span();
    let s = s.get_ref();
    let bad = |key: &str, msg: String| src.err(src.key_line(span.clone(), key), format!("[solver] {msg}"));
    if !(s.t_end.is_finite() && s.t_end > 0.0) {
        return Err(bad("t_end", format!("`t_end` = {} is out of range; valid range (0, inf)", s.t_end)));
    }
    let output_dt = match (&s.output_dt, &s.output) {
        (Some(_), Some(_)) => {
            return Err(bad("output", "give either `output_dt` or `output = \"steps\"`, not both".into()))
        }
        (Some(dt), None) => {
            if !(dt.is_finite() && *dt > 0.0 && *dt <= s.t_end) {
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
            Some(*dt)
        }
        (None, Some(o)) if o == "steps" => None,
        (None, Some(o)) => {
            return Err(bad(
                "output",
                format!("`output` = \"{o}\" is not valid; the only value is \"steps\""),
            ))
        }
        (None, None) => Some(s.t_end / 1000.0),
    };
    let method = match s.method.as_deref().unwrap_or("auto") {
        "auto" => Method::Auto,
        "bdf" => Method::Bdf,
        "tr_bdf2" => Method::TrBdf2,
        "esdirk34" => Method::Esdirk34,
        "tsit45" => Method::Tsit45,
        other => {
            return Err(bad(
                "method",
                format!("`method` = \"{other}\" is not valid; valid: auto, bdf, tr_bdf2, esdirk34, tsit45"),
            ))
        }
    };
    let rtol = s.rtol.unwrap_or(1e-6);
    if !(rtol > 1e-14 && rtol < 1.0) {
        return Err(bad("rtol", format!("`rtol` = {rtol} is out of range; valid range (1e-14, 1)")));
    }
    let (mut ap, mut av, mut az) = (1e-9, 1e-9, 1e-10);
    match &s.atol {
        None => {}
        Some(toml::Value::Float(x)) => (ap, av, az) = (*x, *x, *x),
        Some(toml::Value::Table(t)) => {
            for (k, v) in t {
                let x = match v {
                    toml::Value::Float(x) => *x,
                    toml::Value::Integer(i) => *i as f64,
                    other => return Err(bad("atol", format!("`atol.{k}` must be a number, found {other}"))),
                };
                match k.as_str() {
                    "position" => ap = x,
                    "velocity" => av = x,
                    "state" => az = x,
                    _ => {
                        return Err(bad(
                            "atol",
                            format!("unknown key `atol.{k}`; valid: position, velocity, state"),
                        ))
                    }
                }
            }
        }
        Some(other) => return Err(bad("atol", format!("`atol` must be a number or a table, found {other}"))),
    }
    for (k, x) in [("position", ap), ("velocity", av), ("state", az)] {
        if !(x.is_finite() && x > 0.0) {
            return Err(bad("atol", format!("`atol` ({k}) = {x} is out of range; valid range (0, inf)")));
        }
    }
    let max_steps = s.max_steps.unwrap_or(10_000_000);
    if max_steps < 1 {
        return Err(bad(
            "max_steps",
            format!("`max_steps` = {max_steps} is out of range; valid range integer >= 1"),
        ));
    }
    let max_steps = max_steps as usize;
    let max_step = s.max_step.unwrap_or(s.t_end / 10.0);
    if !(max_step.is_finite() && max_step > 0.0) {
        return Err(bad(
            "max_step",
            format!("`max_step` = {max_step} is out of range; valid range (0, inf)"),
        ));
    }
    Ok(SolverSettings {
        method,
        t_end: s.t_end,
        output_dt,
        output_times: None,
        rtol,
        atol_position: ap,
        atol_velocity: av,
        atol_state: az,
        max_step,
        max_steps,
    })
}

/// Convert a TOML table to model parameters.
pub fn toml_to_params(t: &toml::Table) -> ParamMap {
    t.iter().map(|(k, v)| (k.clone(), toml_to_param(v))).collect()
}

fn toml_to_param(v: &toml::Value) -> ParamValue {
    match v {
        toml::Value::Float(x) => ParamValue::Num(*x),
        toml::Value::Integer(i) => ParamValue::Num(*i as f64),
        toml::Value::Boolean(b) => ParamValue::Bool(*b),
        toml::Value::String(s) => ParamValue::Str(s.clone()),
        toml::Value::Array(a) => ParamValue::List(a.iter().map(toml_to_param).collect()),
        toml::Value::Table(t) => ParamValue::Table(toml_to_params(t)),
        toml::Value::Datetime(d) => ParamValue::Str(d.to_string()),
    }
}

impl System {
    /// Names of bodies and drivers, in the order of the output columns.
    pub fn member_name(&self, m: Member) -> &str {
        match m {
            Member::Ground => "ground",
            Member::Body(i) => &self.bodies[i].name,
            Member::Driver(i) => &self.drivers[i].name,
        }
    }

    /// Whether any contact makes the equations stiff.
    pub fn is_stiff(&self) -> bool {
        self.contacts.iter().any(|c| c.model.is_stiff())
    }
}
