//! The scenario file format (a public contract: extend it, never break it)
//! and its translation into a validated [`System`].
//!
//! ```toml
//! name = "dahl-triangle"
//! [[driver]]            # a point whose position is prescribed
//! name = "slider"
//! kind = "translational"   # or "rotational"
//! motion = { type = "points", points = [0.0, 2e-5, -1e-5], speed = 1e-4 }
//! [[body]]              # a mass (or a rotational inertia)
//! name = "m"
//! kind = "translational"   # or "rotational": angle [rad], torque [N m], inertia [kg m²]
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
//! # any schedule may be an FMU input, set by a co-simulation master (friction fmu);
//! # friction run holds `start`. quantity = "value" (default: for a driver its position)
//! # or "velocity" (the driver's velocity, its position integrated from `offset`):
//! #   motion = { type = "input", name = "v_slip", start = 0.0, quantity = "velocity" }
//! [[gap]]               # a compliant one-sided contact (Modelica's ElastoGap): pushes the
//! name = "floor"        # members apart while x2 - x1 < length, with c p^n plus damping
//! between = ["ground", "m"]   # d (v1 - v2) limited to that spring force (it never pulls);
//! length = 0.0          # p = length - (x2 - x1) is the penetration
//! stiffness = 1e5
//! damping = 10.0
//! exponent = 1.0
//! [[stop]]              # hard end stops of a body
//! body = "m"
//! min = -0.1
//! max = 0.1
//! restitution = 0.0
//! [solver]
//! t_end = 1.0
//! output_dt = 1e-4      # or output = "steps"
//! method = "auto"       # auto | bdf | tr_bdf2 | esdirk34 | tsit45 | radau5 | dop853 (auto: when
//!                       # no contact is stiff dop853, or tsit45 if a contact's hysteresis turns
//!                       # at reversals (Iwan, Jenkins, Maxwell slip, GMS); radau5 for a stiff
//!                       # network of at most 3 states (one body, or driven contacts) without
//!                       # stick, stop or reversal events; bdf otherwise. On the LuGre stick-slip
//!                       # example radau5 takes 0.75 ms at an error of 2e-7 m, bdf 1.2 ms at
//!                       # 4e-5 m, tr_bdf2 1.7, esdirk34 2.0, tsit45 25x the steps; on the
//!                       # Coulomb free decay (rtol 1e-9) dop853 59 steps (it controls its error
//!                       # at a tenth of rtol and atol), tsit45 276 steps and 0.37 ms, bdf 0.45,
//!                       # radau5 0.65; on the Iwan-4 joint's decay tsit45 4.9 ms, dop853 9.6)
//! linear_algebra = "auto"   # auto | dense | sparse (auto: sparse from 12 states)
//! rtol = 1e-6
//! atol = { position = 1e-9, velocity = 1e-8, state = 1e-10 }   # or one number
//! max_step = 0.01
//! max_steps = 1000000  # a run that needs more accepted steps stops with a partial result,
//!                      # saying which parts made the steps small (a hopeless run stops in seconds)
//! max_wall = 60.0       # optional: wall-clock seconds after which a run stops, partial
//! states = "all"        # internal-state columns z.NAME.k: "all" | "none" | ["contact", ...]
//! columns = ["x.m", "F.c"]   # optional: only these output columns (t always first)
//! max_output_bytes = 4294967296   # refuse a run whose output would be larger (default 4 GiB)
//! ```
//!
//! # Names
//!
//! The scenario `name` and the name of every body, driver, contact, spring,
//! damper and force use the character set of [`check_name`]: ASCII letters,
//! digits, `_`, `-` and `.`; not empty, not starting with `.`, at most
//! [`MAX_NAME_LEN`] characters. Names become CSV column names (`x.NAME`,
//! `F.NAME`) and the default output directory `out/NAME`, which therefore
//! can never leave `out/`.
//!
//! # Loads and signals
//!
//! Every signal (a driver's motion, a force's value, a contact's `normal`)
//! must be finite over the whole run; for every schedule type the smallest
//! and largest value over `[0, t_end]` follow from its parameters, and a
//! signal that is NaN, infinite or overflows there is refused at load time.
//!
//! **A contact's `normal` scales the model's force.** `normal` is the factor
//! N(t) that multiplies both the model's friction force and its maximum
//! static force; a model's parameters (`fc`, `fs`, `sigma0`, ...) are those
//! at N = 1. A model with a load parameter of its own (`stribeck_exp.normal`,
//! `rate_state.fn_load`) must not double it: give the load either in the
//! contact's `normal` (recommended: it can vary in time) or in the model's
//! parameter, never both, or N would enter squared. A contact that sets both
//! to values other than 1 is refused.
//!
//! **A negative `normal` means a disengaged contact.** A clutch actuator
//! such as `max(0, sin)` is commonly written as a sine whose negative half
//! lifts the plates apart: where N(t) <= 0 the contact transmits no friction
//! force (it is free), it does not push. Negative values are therefore
//! accepted; only non-finite ones are refused.
//!
//! # Output size
//!
//! Before a run, the output is estimated as rows × columns × 8 bytes (rows
//! from `t_end / output_dt` or `output_times`; columns: `t`, position and
//! velocity of every body and driver, the force, slip and slip velocity of
//! every contact, the
//! internal-state columns chosen by `states`, and the force of every gap). A run whose estimate exceeds
//! `max_output_bytes` ([`DEFAULT_MAX_OUTPUT_BYTES`], 4 GiB, by default) is
//! refused with the estimate; raise `output_dt`, shorten `t_end`, set
//! `states = "none"`, or raise `max_output_bytes`.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use friction_models::{AnyModel, FrictionModel, ParamMap, ParamValue};
use serde::Deserialize;
use toml::Spanned;

use crate::builder::{self, Invalid, Names};
use crate::error::SimError;
use crate::schedule::{InputSignal, Schedule};
pub use crate::units::Kind;

/// The longest valid name, in characters.
pub const MAX_NAME_LEN: usize = 64;

/// The default of `[solver] max_steps`: a run that needs more accepted steps
/// is hopeless with these settings (a few seconds of a small system) and stops
/// with a partial result that says which parts made the steps small.
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;

/// The default of `[solver] max_output_bytes`: 4 GiB.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 4 << 30;

/// Above this many internal state and memory columns, `states = "auto"`
/// (the default) writes none of them.
pub const AUTO_STATE_COLUMNS: usize = 64;

/// Check a scenario, body, driver, contact, spring, damper or force name
/// against the documented character set: ASCII letters, digits, `_`, `-`
/// and `.`; not empty; not starting with `.`; at most [`MAX_NAME_LEN`]
/// characters. Such a name is safe as a CSV column and as a single path
/// component (no separator, never `.` or `..`).
///
/// ```
/// use friction_sim::scenario::check_name;
/// assert!(check_name("clutch-1.v2").is_ok());
/// assert!(check_name("../x").is_err());
/// assert!(check_name("a,b").is_err());
/// ```
pub fn check_name(name: &str) -> Result<(), String> {
    const RULE: &str = "names use ASCII letters, digits, '_', '-' and '.', do not start with '.', \
                        and have 1 to 64 characters";
    if name.is_empty() {
        return Err(format!("name \"\" is empty; {RULE}"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))) {
        return Err(format!("name {name:?} contains the character {c:?}; {RULE}"));
    }
    if name.starts_with('.') {
        return Err(format!("name {name:?} starts with '.'; {RULE}"));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(format!("name {name:?} has {} characters; {RULE}", name.chars().count()));
    }
    Ok(())
}

/// Which internal-state columns (`z.NAME.k`) a run writes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StateColumns {
    /// All of them when the system has at most [`AUTO_STATE_COLUMNS`]
    /// internal state and memory columns, else none (the default).
    #[default]
    Auto,
    /// Every contact's states.
    All,
    /// None.
    None,
    /// The states of the named contacts only.
    Names(Vec<String>),
}

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
    /// Translational (the default) or rotational: only the units change.
    pub kind: Kind,
}

/// A point with prescribed motion.
#[derive(Debug, Clone)]
pub struct Driver {
    /// Name.
    pub name: String,
    /// Position schedule.
    pub motion: Schedule,
    /// Translational (the default) or rotational: only the units change.
    pub kind: Kind,
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

/// A compliant one-sided contact between two members: Modelica's
/// `Translational.Components.ElastoGap` (and `Rotational.Components.ElastoBacklash`
/// with one side). With the penetration `p = length - (x2 - x1)` and its
/// rate `ṗ = v1 - v2`, while `p > 0` it pushes the members apart with
///
/// ```text
/// F = c p^n + clamp(d ṗ, -c p^n, c p^n)      (0 while p <= 0)
/// ```
///
/// on the second member along +x and on the first along -x: the damping
/// force is limited by the spring force (MSL's `f_d`), so the contact
/// never pulls and its force is continuous where contact starts. This is
/// MSL's force law with `s_rel = x2 - x1`, `s_rel0 = length`, `f = -F`.
#[derive(Debug, Clone)]
pub struct Gap {
    /// Name.
    pub name: String,
    /// First and second member.
    pub between: [Member; 2],
    /// Relative position `x2 - x1` below which the members are in contact
    /// (MSL's `s_rel0`) \[m\].
    pub length: f64,
    /// Spring constant c [N/m^n] (the force at a penetration of 1 m).
    pub stiffness: f64,
    /// Damping constant d [N s/m].
    pub damping: f64,
    /// Exponent n of the spring force (>= 1; 1.5 for Hertzian contact of spheres).
    pub exponent: f64,
}

/// A gap's contact force and its parts at one penetration and rate.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GapForce {
    /// The contact force F >= 0 pushing the members apart \[N\].
    pub force: f64,
    /// Its elastic part c p^n \[N\].
    pub elastic: f64,
    /// Its damping part, limited to [-c p^n, c p^n] \[N\].
    pub damping: f64,
    /// ∂F/∂(x2 - x1) and ∂F/∂(v2 - v1) on the branch in force.
    pub d_srel: f64,
    /// See `d_srel`.
    pub d_vrel: f64,
}

impl Gap {
    /// The force law at relative position `srel = x2 - x1` and velocity
    /// `vrel = v2 - v1`.
    #[inline]
    pub fn law(&self, srel: f64, vrel: f64) -> GapForce {
        let p = self.length - srel;
        if p <= 0.0 {
            return GapForce::default();
        }
        let n = self.exponent;
        let (pn, dpn) = if n == 1.0 { (p, 1.0) } else { (p.powf(n), n * p.powf(n - 1.0)) };
        let fc = self.stiffness * pn;
        let dfc = -self.stiffness * dpn; // d fc / d srel
        let fd2 = -self.damping * vrel;
        if fd2 > fc {
            // compressing fast: the damping force held at the spring force
            GapForce { force: 2.0 * fc, elastic: fc, damping: fc, d_srel: 2.0 * dfc, d_vrel: 0.0 }
        } else if fd2 < -fc {
            // separating fast: the damping would pull, the force is zero
            GapForce { force: 0.0, elastic: fc, damping: -fc, d_srel: 0.0, d_vrel: 0.0 }
        } else {
            GapForce { force: fc + fd2, elastic: fc, damping: fd2, d_srel: dfc, d_vrel: -self.damping }
        }
    }

    /// The elastic energy stored at `srel = x2 - x1`: c p^(n+1) / (n + 1) \[J\].
    pub fn energy(&self, srel: f64) -> f64 {
        let p = self.length - srel;
        if p <= 0.0 {
            0.0
        } else {
            self.stiffness * p.powf(self.exponent + 1.0) / (self.exponent + 1.0)
        }
    }
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
    /// If no contact is stiff `dop853`, or `tsit45` when a contact's
    /// hysteresis turns at reversals (Iwan, Jenkins, Maxwell slip, GMS);
    /// `radau5` for a stiff network of at most 3 states besides the energy
    /// quadratures (one body, or driven contacts) without stick, stop or
    /// reversal events; else `bdf`.
    Auto,
    /// Variable-order BDF (diffsol).
    Bdf,
    /// TR-BDF2 (diffsol).
    TrBdf2,
    /// ESDIRK34 (diffsol).
    Esdirk34,
    /// Tsitouras 5(4) explicit Runge-Kutta (diffsol).
    Tsit45,
    /// Radau IIA of order 5 (Hairer and Wanner's RADAU5, the engine's
    /// own), dense linear algebra.
    Radau5,
    /// Dormand and Prince's explicit Runge-Kutta pair of order 8(5,3) with
    /// a dense output of order 7 (Hairer's DOP853, the engine's own).
    Dop853,
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
            Method::Radau5 => "radau5",
            Method::Dop853 => "dop853",
        }
    }

    /// Whether the method solves linear systems with the Jacobian.
    pub fn is_implicit(self) -> bool {
        matches!(self, Method::Bdf | Method::TrBdf2 | Method::Esdirk34 | Method::Radau5)
    }
}

/// The linear algebra of implicit methods (`[solver] linear_algebra`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinearAlgebra {
    /// Dense below 12 states, sparse from there (measured on chains of
    /// contacts: the band LU wins from 3 masses, 14 states).
    Auto,
    /// Dense LU (nalgebra).
    Dense,
    /// Band LU after a reverse Cuthill-McKee ordering when the band is
    /// narrow, else sparse LU with a fill-reducing ordering (faer).
    Sparse,
}

impl LinearAlgebra {
    /// The id used in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            LinearAlgebra::Auto => "auto",
            LinearAlgebra::Dense => "dense",
            LinearAlgebra::Sparse => "sparse",
        }
    }
}

/// Solver settings.
#[derive(Debug, Clone)]
pub struct SolverSettings {
    /// Method.
    pub method: Method,
    /// Dense or sparse linear algebra in implicit methods.
    pub linear_algebra: LinearAlgebra,
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
    /// Wall-clock limit \[s\] after which a run stops with a partial result
    /// (`[solver] max_wall`, or `friction run --max-wall`); `None`: no limit.
    pub max_wall: Option<f64>,
    /// Which internal-state columns are written (`[solver] states`).
    pub states: StateColumns,
    /// Only these output columns (`[solver] columns`), in the standard
    /// order, `t` always first; `None`: every column. Names are those of
    /// [`crate::Outcome::columns`] (state columns as `states` chooses them).
    /// A row without force or slip-velocity columns skips the contact
    /// models: the cheapest output.
    pub columns: Option<Vec<String>>,
    /// Largest estimated output size \[bytes\] a run may have
    /// (`[solver] max_output_bytes`, default [`DEFAULT_MAX_OUTPUT_BYTES`]).
    pub max_output_bytes: u64,
}

impl SolverSettings {
    /// Settings with the scenario file's defaults for everything but `t_end`.
    pub fn with_t_end(t_end: f64) -> Self {
        SolverSettings {
            method: Method::Auto,
            linear_algebra: LinearAlgebra::Auto,
            t_end,
            output_dt: Some(t_end / 1000.0),
            output_times: None,
            rtol: 1e-6,
            atol_position: 1e-9,
            atol_velocity: 1e-9,
            atol_state: 1e-10,
            max_step: t_end / 10.0,
            max_steps: DEFAULT_MAX_STEPS,
            max_wall: None,
            states: StateColumns::Auto,
            columns: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }

    /// Number of output rows, when known before the run (`None` for
    /// `output = "steps"`).
    pub fn output_rows(&self) -> Option<f64> {
        match (&self.output_times, self.output_dt) {
            (Some(ts), _) => Some(ts.len() as f64 + 1.0),
            (None, Some(dt)) => Some((self.t_end / dt).ceil() + 1.0),
            (None, None) => None,
        }
    }
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
    /// Compliant one-sided contacts (`[[gap]]`).
    pub gaps: Vec<Gap>,
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
    spring: Vec<Spanned<RawSpring>>,
    #[serde(default)]
    damper: Vec<Spanned<RawDamper>>,
    #[serde(default)]
    force: Vec<Spanned<RawForce>>,
    #[serde(default)]
    contact: Vec<Spanned<RawContact>>,
    #[serde(default)]
    stop: Vec<Spanned<RawStop>>,
    #[serde(default)]
    gap: Vec<Spanned<RawGap>>,
    solver: Option<Spanned<RawSolver>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDriver {
    name: String,
    #[serde(default)]
    kind: Kind,
    motion: toml::Table,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBody {
    name: String,
    #[serde(default)]
    kind: Kind,
    mass: f64,
    #[serde(default)]
    x0: f64,
    #[serde(default)]
    v0: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpring {
    name: Option<String>,
    between: Vec<String>,
    stiffness: Option<f64>,
    length: Option<f64>,
}

// springs and dampers have separate structs, so that an unknown key lists
// the keys of its own kind (a shared one listed `coefficient` for a spring)
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDamper {
    name: Option<String>,
    between: Vec<String>,
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
struct RawGap {
    name: Option<String>,
    between: Vec<String>,
    length: Option<f64>,
    stiffness: Option<f64>,
    damping: Option<f64>,
    exponent: Option<f64>,
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
    linear_algebra: Option<String>,
    rtol: Option<f64>,
    atol: Option<toml::Value>,
    max_step: Option<f64>,
    max_steps: Option<i64>,
    max_wall: Option<f64>,
    states: Option<toml::Value>,
    columns: Option<toml::Value>,
    max_output_bytes: Option<f64>,
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

    /// Line of a top-level `key =` (before the first table header).
    fn top_key_line(&self, key: &str) -> usize {
        let end = self
            .text
            .lines()
            .scan(0usize, |off, l| {
                let start = *off;
                *off += l.len() + 1;
                Some((start, l))
            })
            .find(|(_, l)| l.trim_start().starts_with('['))
            .map(|(start, _)| start)
            .unwrap_or(self.text.len());
        self.key_line(0..end, key)
    }

    /// The dotted key path (`contact[2].params.fc`) of the value at byte `offset`.
    fn key_path_at(&self, offset: usize) -> String {
        let offset = offset.min(self.text.len());
        let mut header = String::new();
        let mut counts: HashMap<String, usize> = HashMap::new();
        let mut section_start = 0;
        let mut pos = 0;
        for line in self.text.split_inclusive('\n') {
            if pos + line.len() > offset {
                break;
            }
            let t = line.trim();
            if let Some(inner) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
                let k = inner.trim().to_string();
                let n = counts.entry(k.clone()).or_insert(0);
                header = format!("{k}[{n}]");
                *n += 1;
                section_start = pos + line.len();
            } else if let Some(inner) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
                header = inner.trim().to_string();
                section_start = pos + line.len();
            }
            pos += line.len();
        }
        // walk the section up to the offset, tracking inline tables and arrays
        enum Open {
            Table(String),
            Array(String, usize),
        }
        let mut stack: Vec<Open> = vec![];
        let mut word = String::new();
        let mut key: Option<String> = None;
        let chunk = &self.text[section_start..offset];
        let mut chars = chunk.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' | '\'' => {
                    let mut w = String::new();
                    let mut esc = false;
                    for d in chars.by_ref() {
                        if c == '"' && d == '\\' && !esc {
                            esc = true;
                            continue;
                        }
                        if d == c && !esc {
                            break;
                        }
                        esc = false;
                        w.push(d);
                    }
                    word = w;
                }
                '#' => {
                    for d in chars.by_ref() {
                        if d == '\n' {
                            break;
                        }
                    }
                    if stack.is_empty() {
                        key = None;
                    }
                }
                '=' => key = Some(std::mem::take(&mut word)),
                '{' => stack.push(Open::Table(key.take().unwrap_or_default())),
                '[' => stack.push(Open::Array(key.take().unwrap_or_default(), 0)),
                '}' | ']' => {
                    stack.pop();
                    key = None;
                }
                ',' => {
                    if let Some(Open::Array(_, i)) = stack.last_mut() {
                        *i += 1;
                    } else {
                        key = None;
                    }
                }
                '\n' if stack.is_empty() => key = None,
                c if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') => {
                    word.clear();
                    word.push(c);
                    while let Some(&d) = chars.peek() {
                        if d.is_ascii_alphanumeric() || matches!(d, '_' | '-' | '.') {
                            word.push(d);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        let mut parts: Vec<String> = if header.is_empty() { vec![] } else { vec![header] };
        for o in &stack {
            match o {
                Open::Table(k) => parts.push(k.clone()),
                Open::Array(k, i) => parts.push(format!("{k}[{i}]")),
            }
        }
        if let Some(k) = key {
            parts.push(k);
        }
        parts.retain(|p| !p.is_empty());
        parts.join(".").replace(".[", "[")
    }

    /// A TOML or type error, with the key path, the expected and found types,
    /// and for a duplicated key both lines.
    fn toml_error(&self, e: &toml::de::Error) -> SimError {
        let msg = e.message().trim();
        let Some(span) = e.span() else {
            return SimError::Input { file: self.file.clone(), line: None, message: msg.to_string() };
        };
        let line = self.line_of(span.start);
        let path = self.key_path_at(span.start);
        let message = if let Some(rest) =
            msg.strip_prefix("invalid type: ").or_else(|| msg.strip_prefix("invalid value: "))
        {
            let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, "?"));
            let expected = match expected.trim() {
                "f64" | "f32" => "a number".to_string(),
                "i64" | "u64" | "usize" | "i32" | "u32" => "an integer".to_string(),
                "a sequence" => "an array".to_string(),
                "a boolean" => "true or false".to_string(),
                e if e.starts_with("struct ") || e == "a map" => "a table".to_string(),
                e => e.to_string(),
            };
            let found = found.replace('`', "");
            if path.is_empty() {
                format!("expected {expected}, found {found}")
            } else {
                format!("{path}: expected {expected}, found {found}")
            }
        } else if msg.starts_with("duplicate key") {
            let key = self.text[span.clone()].trim().trim_matches('"').to_string();
            let first = self.first_definition(&key, span.start);
            match first {
                Some(l) if l != line => {
                    format!("duplicate key `{key}`: first defined on line {l}, again on line {line}")
                }
                _ => format!("duplicate key `{key}` (defined twice on line {line})"),
            }
        } else if let Some(rest) = msg.strip_prefix("unknown field `") {
            // serde's "unknown field `x`, expected one of `a`, `b`": add the nearest key
            let (word, expected) = rest.split_once('`').unwrap_or((rest, ""));
            let keys = expected.split('`').skip(1).step_by(2);
            let hint = friction_models::suggest::did_you_mean(word, keys);
            let msg = format!("{msg}{hint}");
            if path.is_empty() {
                msg
            } else {
                format!("{path}: {msg}")
            }
        } else if path.is_empty() || msg.contains('`') {
            msg.to_string()
        } else {
            format!("{path}: {msg}")
        };
        SimError::Input { file: self.file.clone(), line: Some(line), message }
    }

    /// The line of the first `key =` in the table section that holds `offset`.
    fn first_definition(&self, key: &str, offset: usize) -> Option<usize> {
        let before = &self.text[..offset];
        let section = before
            .rmatch_indices('\n')
            .map(|(i, _)| i + 1)
            .find(|&i| self.text[i..].trim_start().starts_with('[') && i < offset)
            .unwrap_or(0);
        let chunk = &self.text[section..offset];
        let mut at = 0;
        while let Some(i) = chunk[at..].find(key) {
            let k = at + i;
            let prev = chunk[..k].chars().next_back();
            let ok_before = prev.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
            if ok_before && chunk[k + key.len()..].trim_start().starts_with('=') {
                return Some(self.line_of(section + k));
            }
            at = k + key.len();
        }
        None
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
    let raw: RawFile = toml::from_str(text).map_err(|e| src.toml_error(&e))?;
    let _ = &raw.description;

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
    let t_end = solver.t_end;
    let name = match &raw.name {
        None => "scenario".to_string(),
        Some(n) => {
            check_name(n).map_err(|m| src.err(src.top_key_line("name"), format!("`name`: {m}")))?;
            n.clone()
        }
    };

    // every check below is shared with the builder (crate::builder), which
    // gives the same messages; here they gain the file and line
    let at = |span: &std::ops::Range<usize>, e: Invalid| match e.key {
        Some(k) => src.err(src.key_line(span.clone(), k), e.message),
        None => src.err(src.line_of(span.start), e.message),
    };
    let mut names = Names::new();

    let mut input_names = std::collections::HashSet::new();
    let mut drivers = Vec::new();
    for (i, d) in raw.driver.iter().enumerate() {
        let span = d.span();
        let d = d.get_ref();
        names.add(&d.name, Member::Driver(i)).map_err(|e| at(&span, e))?;
        let what = format!("driver \"{}\" motion", d.name);
        let motion = Schedule::from_toml(&d.motion, &what, &src.dir)
            .and_then(|m| m.check_finite(&what, t_end).map(|()| m))
            .and_then(|m| unique_input(&mut input_names, &m, &what).map(|()| m))
            .map_err(|m| src.err(src.key_line(span.clone(), "motion"), m))?;
        drivers.push(Driver { name: d.name.clone(), motion, kind: d.kind });
    }
    let mut bodies = Vec::new();
    for (i, b) in raw.body.iter().enumerate() {
        let span = b.span();
        let b = b.get_ref();
        names.add(&b.name, Member::Body(i)).map_err(|e| at(&span, e))?;
        let mut body = builder::check_body(&b.name, b.mass, b.x0, b.v0).map_err(|e| at(&span, e))?;
        body.kind = b.kind;
        bodies.push(body);
    }

    let mut springs = Vec::new();
    for (i, s) in raw.spring.iter().enumerate() {
        let span = s.span();
        let s = s.get_ref();
        let name = s.name.clone().unwrap_or_else(|| format!("spring{i}"));
        springs.push(
            builder::check_spring(&names, &name, &s.between, s.stiffness, s.length)
                .map_err(|e| at(&span, e))?,
        );
    }
    let mut dampers = Vec::new();
    for (i, s) in raw.damper.iter().enumerate() {
        let span = s.span();
        let s = s.get_ref();
        let name = s.name.clone().unwrap_or_else(|| format!("damper{i}"));
        dampers
            .push(builder::check_damper(&names, &name, &s.between, s.coefficient).map_err(|e| at(&span, e))?);
    }
    let mut forces = Vec::new();
    for (i, f) in raw.force.iter().enumerate() {
        let span = f.span();
        let f = f.get_ref();
        let name = f.name.clone().unwrap_or_else(|| format!("force{i}"));
        let on = builder::check_force_on(&names, &name, &f.on).map_err(|e| at(&span, e))?;
        let what = format!("force \"{name}\" value");
        let value = schedule_value(&f.value, &what, &src, t_end)
            .and_then(|m| unique_input(&mut input_names, &m, &what).map(|()| m))
            .map_err(|m| src.err(src.key_line(span.clone(), "value"), m))?;
        forces.push(Force { name, on, value });
    }
    let mut contacts = Vec::new();
    let mut contact_names = std::collections::HashSet::new();
    for (i, c) in raw.contact.iter().enumerate() {
        let span = c.span();
        let c = c.get_ref();
        let name = c.name.clone().unwrap_or_else(|| format!("c{i}"));
        builder::check_contact_name(&mut contact_names, &name).map_err(|e| at(&span, e))?;
        let what = format!("contact \"{name}\"");
        let between = names.pair(&c.between, &what).map_err(|e| at(&span, e))?;
        let params = toml_to_params(&c.params);
        let model = friction_models::build(&c.model, &params).map_err(|e| {
            let (param, message) = builder::model_invalid(i, &what, &e);
            let line = match &param {
                Some(p) => src.key_line(span.clone(), p.split(['.', '[']).next().unwrap_or(p)),
                None => src.key_line(span.clone(), "model"),
            };
            src.err(line, message)
        })?;
        let normal = match &c.normal {
            None => Schedule::Constant { value: 1.0 },
            Some(v) => schedule_value(v, &format!("{what} `normal`"), &src, t_end)
                .and_then(|m| unique_input(&mut input_names, &m, &format!("{what} `normal`")).map(|()| m))
                .map_err(|m| src.err(src.key_line(span.clone(), "normal"), m))?,
        };
        builder::check_load(&model, &normal, &what).map_err(|e| at(&span, e))?;
        contacts.push(Contact { name, between, model, normal });
    }
    let mut stops = Vec::new();
    for s in &raw.stop {
        let span = s.span();
        let s = s.get_ref();
        let min = s.min.unwrap_or(f64::NEG_INFINITY);
        let max = s.max.unwrap_or(f64::INFINITY);
        stops.push(
            builder::check_stop(&names, &bodies, &s.body, min, max, s.restitution)
                .map_err(|e| at(&span, e))?,
        );
    }
    let mut gaps = Vec::new();
    for (i, g) in raw.gap.iter().enumerate() {
        let span = g.span();
        let g = g.get_ref();
        let name = g.name.clone().unwrap_or_else(|| format!("g{i}"));
        let raw_gap = builder::RawGap {
            name: &name,
            between: &g.between,
            length: g.length,
            stiffness: g.stiffness,
            damping: g.damping,
            exponent: g.exponent,
        };
        gaps.push(builder::check_gap(&names, &mut contact_names, raw_gap).map_err(|e| at(&span, e))?);
    }

    let sys = System { name, bodies, drivers, springs, dampers, forces, contacts, gaps, stops, solver };
    crate::units::check_kinds(&sys).map_err(|(link, i, e)| {
        let span = match link {
            crate::units::Link::Spring => raw.spring[i].span(),
            crate::units::Link::Damper => raw.damper[i].span(),
            crate::units::Link::Contact => raw.contact[i].span(),
            crate::units::Link::Gap => raw.gap[i].span(),
        };
        at(&span, e)
    })?;
    if let Some(s) = &raw.solver {
        let span = s.span();
        builder::check_states(&sys).map_err(|e| at(&span, e))?;
        builder::check_columns(&sys).map_err(|e| at(&span, e))?;
        sys.check_output_size().map_err(|m| src.err(src.key_line(span.clone(), "t_end"), m))?;
    }
    Ok(sys)
}

/// Refuse a second input of the same name.
fn unique_input(
    names: &mut std::collections::HashSet<String>,
    s: &Schedule,
    what: &str,
) -> Result<(), String> {
    if let Some(u) = s.input() {
        if !names.insert(u.name.clone()) {
            return Err(format!(
                "{what}: input name \"{}\" is used twice; every input of a scenario needs its own name",
                u.name
            ));
        }
    }
    Ok(())
}

/// A number or a schedule table, checked to be finite over `[0, t_end]`.
fn schedule_value(v: &toml::Value, what: &str, src: &Src<'_>, t_end: f64) -> Result<Schedule, String> {
    let s = match v {
        toml::Value::Float(x) => Schedule::Constant { value: *x },
        toml::Value::Integer(i) => Schedule::Constant { value: *i as f64 },
        toml::Value::Table(t) => Schedule::from_toml(t, what, &src.dir)?,
        other => return Err(format!("{what}: expected a number or a schedule table, found {other}")),
    };
    builder::check_signal(&s, what, t_end)?;
    Ok(s)
}

fn solver_settings(s: &Spanned<RawSolver>, src: &Src<'_>) -> Result<SolverSettings, SimError> {
    let span = s.span();
    let s = s.get_ref();
    let bad = |key: &str, msg: String| src.err(src.key_line(span.clone(), key), format!("[solver] {msg}"));
    // the ranges are checked by builder::check_solver, shared with the builder;
    // here: what only a file can get wrong, and the defaults that follow from t_end
    if !(s.t_end.is_finite() && s.t_end > 0.0) {
        return Err(bad("t_end", format!("`t_end` = {} is out of range; valid range (0, inf)", s.t_end)));
    }
    let output_dt = match (&s.output_dt, &s.output) {
        (Some(_), Some(_)) => {
            return Err(bad("output", "give either `output_dt` or `output = \"steps\"`, not both".into()))
        }
        (Some(dt), None) => Some(*dt),
        (None, Some(o)) if o == "steps" => None,
        (None, Some(o)) => {
            return Err(bad(
                "output",
                format!("`output` = \"{o}\" is not valid; the only value is \"steps\""),
            ))
        }
        (None, None) => Some(s.t_end / 1000.0),
    };
    const METHODS: [&str; 7] = ["auto", "bdf", "tr_bdf2", "esdirk34", "tsit45", "radau5", "dop853"];
    let method = match s.method.as_deref().unwrap_or("auto") {
        "auto" => Method::Auto,
        "bdf" => Method::Bdf,
        "tr_bdf2" => Method::TrBdf2,
        "esdirk34" => Method::Esdirk34,
        "tsit45" => Method::Tsit45,
        "radau5" => Method::Radau5,
        "dop853" => Method::Dop853,
        other => {
            return Err(bad(
                "method",
                format!(
                    "`method` = \"{other}\" is not valid{}; valid: {}",
                    friction_models::suggest::did_you_mean(other, METHODS),
                    METHODS.join(", ")
                ),
            ))
        }
    };
    const ALGEBRAS: [&str; 3] = ["auto", "dense", "sparse"];
    let linear_algebra = match s.linear_algebra.as_deref().unwrap_or("auto") {
        "auto" => LinearAlgebra::Auto,
        "dense" => LinearAlgebra::Dense,
        "sparse" => LinearAlgebra::Sparse,
        other => {
            return Err(bad(
                "linear_algebra",
                format!(
                    "`linear_algebra` = \"{other}\" is not valid{}; valid: {}",
                    friction_models::suggest::did_you_mean(other, ALGEBRAS),
                    ALGEBRAS.join(", ")
                ),
            ))
        }
    };
    if method == Method::Radau5 && linear_algebra == LinearAlgebra::Sparse {
        return Err(bad(
            "linear_algebra",
            "`linear_algebra` = \"sparse\" is not available with `method` = \"radau5\" (dense LU only, meant \
             for small networks); use \"auto\" or \"dense\", or `method` = \"bdf\" for large networks"
                .to_string(),
        ));
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
    let max_steps = s.max_steps.unwrap_or(DEFAULT_MAX_STEPS as i64);
    if max_steps < 1 {
        return Err(bad(
            "max_steps",
            format!("`max_steps` = {max_steps} is out of range; valid range integer >= 1"),
        ));
    }
    let states = match &s.states {
        None => StateColumns::Auto,
        Some(toml::Value::String(x)) if x == "auto" => StateColumns::Auto,
        Some(toml::Value::String(x)) if x == "all" => StateColumns::All,
        Some(toml::Value::String(x)) if x == "none" => StateColumns::None,
        Some(toml::Value::Array(a)) => StateColumns::Names(
            a.iter()
                .map(|v| match v {
                    toml::Value::String(n) => Ok(n.clone()),
                    other => Err(bad("states", format!("`states` entries must be contact names (strings), found {other}"))),
                })
                .collect::<Result<_, _>>()?,
        ),
        Some(other) => {
            return Err(bad(
                "states",
                format!("`states` = {other} is not valid; valid: \"auto\", \"all\", \"none\" or a list of contact names"),
            ))
        }
    };
    let columns = match &s.columns {
        None => None,
        Some(toml::Value::Array(a)) => Some(
            a.iter()
                .map(|v| match v {
                    toml::Value::String(n) => Ok(n.clone()),
                    other => Err(bad(
                        "columns",
                        format!("`columns` entries must be column names (strings), found {other}"),
                    )),
                })
                .collect::<Result<_, _>>()?,
        ),
        Some(other) => {
            return Err(bad(
                "columns",
                format!(
                    "`columns` = {other} is not valid; give a list of column names, e.g. [\"x.m\", \"F.c\"]"
                ),
            ))
        }
    };
    let max_output_bytes = match s.max_output_bytes {
        None => DEFAULT_MAX_OUTPUT_BYTES,
        Some(b) if b.is_finite() && b >= 1.0 && b <= u64::MAX as f64 => b as u64,
        Some(b) => {
            return Err(bad(
                "max_output_bytes",
                format!("`max_output_bytes` = {b} is out of range; valid range [1, 1.8e19] bytes"),
            ))
        }
    };
    let settings = SolverSettings {
        method,
        linear_algebra,
        t_end: s.t_end,
        output_dt,
        output_times: None,
        rtol: s.rtol.unwrap_or(1e-6),
        atol_position: ap,
        atol_velocity: av,
        atol_state: az,
        max_step: s.max_step.unwrap_or(s.t_end / 10.0),
        max_steps: max_steps as usize,
        max_wall: s.max_wall,
        states,
        columns,
        max_output_bytes,
    };
    builder::check_solver(&settings).map_err(|e| match e.key {
        Some(k) => src.err(src.key_line(span.clone(), k), e.message),
        None => src.err(src.line_of(span.start), e.message),
    })?;
    Ok(settings)
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
    /// The scenario's inputs (`type = "input"` schedules): driver motions in
    /// file order, then forces, then contacts' normal loads. Each is a clone
    /// that shares its held value with the system's schedule.
    pub fn inputs(&self) -> Vec<InputSignal> {
        let d = self.drivers.iter().map(|d| &d.motion);
        let f = self.forces.iter().map(|f| &f.value);
        let n = self.contacts.iter().map(|c| &c.normal);
        d.chain(f).chain(n).filter_map(|s| s.input().cloned()).collect()
    }

    /// Names of bodies and drivers, in the order of the output columns.
    pub fn member_name(&self, m: Member) -> &str {
        match m {
            Member::Ground => "ground",
            Member::Body(i) => &self.bodies[i].name,
            Member::Driver(i) => &self.drivers[i].name,
        }
    }

    /// Per contact, whether its internal state and memory columns
    /// (`z.NAME.k`) are written, resolving [`StateColumns::Auto`].
    pub fn state_columns(&self) -> Vec<bool> {
        let n = |c: &Contact| c.model.n_states() + c.model.n_memory();
        match &self.solver.states {
            StateColumns::All => vec![true; self.contacts.len()],
            StateColumns::None => vec![false; self.contacts.len()],
            StateColumns::Names(list) => self.contacts.iter().map(|c| list.contains(&c.name)).collect(),
            StateColumns::Auto => {
                let total: usize = self.contacts.iter().map(n).sum();
                vec![total <= AUTO_STATE_COLUMNS; self.contacts.len()]
            }
        }
    }

    /// Number of output columns: `t`, x and v of every body and driver, the
    /// force, slip and slip velocity of every contact, the state columns chosen by
    /// [`SolverSettings::states`], and the force of every gap; of those, the ones [`SolverSettings::columns`] keeps.
    pub fn output_columns(&self) -> usize {
        match self.column_keep() {
            Some(k) => k.len(),
            None => self.all_columns(),
        }
    }

    /// Number of columns before [`SolverSettings::columns`] selects.
    pub(crate) fn all_columns(&self) -> usize {
        let states: usize = self
            .contacts
            .iter()
            .zip(self.state_columns())
            .filter(|(_, on)| *on)
            .map(|(c, _)| c.model.n_states() + c.model.n_memory())
            .sum();
        1 + 2 * (self.bodies.len() + self.drivers.len()) + 3 * self.contacts.len() + states + self.gaps.len()
    }

    /// The names of the columns before [`SolverSettings::columns`] selects:
    /// `t`, `x.NAME`/`v.NAME` of bodies then drivers, `F.NAME` of contacts,
    /// `s.NAME`/`sv.NAME` of contacts, `z.NAME.k` as `states` chooses,
    /// `F.NAME` of gaps (their contact force, >= 0).
    pub(crate) fn all_column_names(&self) -> Vec<String> {
        let mut cols = Vec::with_capacity(self.all_columns());
        cols.push("t".to_string());
        for b in &self.bodies {
            cols.push(format!("x.{}", b.name));
            cols.push(format!("v.{}", b.name));
        }
        for dr in &self.drivers {
            cols.push(format!("x.{}", dr.name));
            cols.push(format!("v.{}", dr.name));
        }
        for c in &self.contacts {
            cols.push(format!("F.{}", c.name));
        }
        for c in &self.contacts {
            cols.push(format!("s.{}", c.name));
            cols.push(format!("sv.{}", c.name));
        }
        for (c, on) in self.contacts.iter().zip(self.state_columns()) {
            if on {
                for k in 0..c.model.n_states() + c.model.n_memory() {
                    cols.push(format!("z.{}.{k}", c.name));
                }
            }
        }
        for g in &self.gaps {
            cols.push(format!("F.{}", g.name));
        }
        cols
    }

    /// The positions (in [`System::all_column_names`]) of the columns
    /// [`SolverSettings::columns`] keeps, `t` first; `None` for all. Names
    /// that are not columns are skipped here (refused at load time).
    pub(crate) fn column_keep(&self) -> Option<Vec<usize>> {
        let want = self.solver.columns.as_ref()?;
        // a set: a chain of 256 masses asking for its 512 positions and
        // velocities spent 1.6 ms of a 17 ms run comparing names
        let want: HashSet<&str> = want.iter().map(String::as_str).collect();
        let all = self.all_column_names();
        Some(
            all.iter()
                .enumerate()
                .filter(|(i, c)| *i == 0 || want.contains(c.as_str()))
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// Refuse a run whose output (rows × columns × 8 bytes) would exceed
    /// `max_output_bytes`, with the estimate and what to change.
    pub fn check_output_size(&self) -> Result<(), String> {
        let Some(rows) = self.solver.output_rows() else { return Ok(()) };
        let cols = self.output_columns() as f64;
        let bytes = rows * cols * 8.0;
        let limit = self.solver.max_output_bytes;
        if bytes > limit as f64 {
            return Err(format!(
                "[solver] the output would take about {} ({rows:.0} rows × {cols:.0} columns × 8 bytes), \
                 more than `max_output_bytes` = {}; raise `output_dt`, shorten `t_end`, set \
                 `states = \"none\"`, or raise `[solver] max_output_bytes`",
                human_bytes(bytes),
                human_bytes(limit as f64)
            ));
        }
        Ok(())
    }

    /// Whether any contact makes the equations stiff.
    pub fn is_stiff(&self) -> bool {
        self.contacts.iter().any(|c| c.model.is_stiff())
    }
}

/// `1.5 GiB`, `12.0 MiB`, `800 bytes`.
pub fn human_bytes(b: f64) -> String {
    const UNITS: [(&str, f64); 4] = [
        ("TiB", 1024.0 * 1024.0 * 1024.0 * 1024.0),
        ("GiB", 1024.0 * 1024.0 * 1024.0),
        ("MiB", 1024.0 * 1024.0),
        ("KiB", 1024.0),
    ];
    for (u, f) in UNITS {
        if b >= f {
            return format!("{:.1} {u}", b / f);
        }
    }
    format!("{b:.0} bytes")
}
