//! The validated system: the types a simulation runs on ([`System`] and
//! its elements), the checks every element passes, the typed builder, the
//! schedules (signals in time) and the units of the output columns.
//!
//! A system comes from a scenario file (`crate::scenario`) or from
//! [`System::builder`]; both go through the same checks (`checks.rs`), so a
//! bad value gives the same message either way.
//! - `mod.rs`: the types and what a system says of itself (inputs, names);
//! - `columns.rs`: its output columns, which `[solver]` keeps, the output's size;
//! - `checks.rs`: the checks shared by the scenario parser and the builder;
//! - `force.rs`: an external force (a body's, or a load on a structure's DOF);
//! - `planar.rs`: bodies of dim 2 and 3, `direction`, a contact's normal stiffness;
//! - `inclined.rs`: springs along a fixed direction (coupling a body's coordinates);
//! - `builder.rs`: the typed builder;
//! - `schedule.rs`: schedules and input signals;
//! - `units.rs`: rotational or translational members and column units;
//! - `thermal.rs`, `thermal_law.rs`: thermal nodes, conductions, heat
//!   sources, and parameters as functions of temperature.

use friction_models::{AnyModel, FrictionModel};

pub mod builder;
pub(crate) mod checks;
mod columns;
pub(crate) mod force;
mod human;
pub(crate) mod inclined;
pub(crate) mod planar;
pub mod schedule;
pub mod thermal;
mod thermal_law;
pub mod units;

pub(crate) use columns::keep_of;
pub use columns::CONTACT_STATES;
pub use force::Force;
pub use human::{duration_text, human_bytes};
pub use inclined::InclinedSpring;
pub use planar::{Axis, Plane};
use schedule::{InputSignal, Schedule};
pub use units::Kind;

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
    /// A degree of freedom of a structure (`"NAME:INDEX"` in a scenario):
    /// the structure's index and the DOF's position in its matrices.
    Dof {
        /// Index into [`System::structures`].
        structure: usize,
        /// Position in the structure's matrices.
        index: usize,
    },
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
    /// Which coordinate of its body this is: [`Axis::Line`] for a body of
    /// one coordinate (the default), x, y or z for the coordinates of a body
    /// of `dim = 2 | 3` (one `Body` per coordinate, with the same name).
    pub axis: Axis,
}

impl Body {
    /// The body's position and velocity columns, e.g. `x.m` and `v.m` (a
    /// body of one coordinate) or `y.m` and `vy.m` (the y of a 2-D body).
    pub fn columns(&self) -> (String, String) {
        let (x, v) = self.axis.prefixes();
        (format!("{x}.{}", self.name), format!("{v}.{}", self.name))
    }
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
    /// The gap (index into [`System::gaps`]) whose contact force is this
    /// contact's normal load, times `normal` (scenario key `normal_gap`):
    /// the load then follows the state (a body pressed onto a compliant
    /// floor, lifting off it). `None`: the load is `normal` alone.
    pub normal_gap: Option<usize>,
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

    /// The force law without its limits, signed: `c p^n + d ṗ` in contact
    /// (negative exactly where the damping's limit takes [`Gap::law`]'s
    /// force to zero), `c p` out of it (negative): its sign says whether
    /// the gap carries a force, and its zero is where that starts or ends.
    ///
    /// ```
    /// use friction_sim::system::Gap;
    /// use friction_sim::Member;
    /// let g = Gap { name: "floor".into(), between: [Member::Ground, Member::Body(0)],
    ///               length: 0.0, stiffness: 100.0, damping: 10.0, exponent: 1.0 };
    /// // 1 cm in, still: c p; leaving at 0.2 m/s the law's force is zero
    /// // (its damping limit) and the signed one negative; open: c p < 0
    /// assert_eq!(g.signed_force(-0.01, 0.0), 1.0);
    /// assert_eq!(g.law(-0.01, 0.2).force, 0.0);
    /// assert!(g.signed_force(-0.01, 0.2) < 0.0);
    /// assert!(g.signed_force(0.01, 0.0) < 0.0);
    /// ```
    #[inline]
    pub fn signed_force(&self, srel: f64, vrel: f64) -> f64 {
        let p = self.length - srel;
        if p > 0.0 {
            self.stiffness * p.powf(self.exponent) - self.damping * vrel
        } else {
            self.stiffness * p
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
    /// `radau5` where a contact in a plane is held on its friction disk
    /// (only `radau5`, `rodas5p` and `dop853` are taken there). Else if no
    /// contact is stiff `dop853`, or `tsit45` when a contact's
    /// hysteresis turns at reversals (Iwan, Jenkins, Maxwell slip, GMS);
    /// `radau5` for a stiff network of at most 3 states besides the energy
    /// quadratures (one body, or driven contacts) without stick, stop or
    /// reversal events; `bdf5` for a larger one without such events (but
    /// `bdf` with a `[[structure]]` or a Jacobian too wide for a band);
    /// else `bdf`.
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
    /// Rosenbrock-Wanner method Rodas5P of order 5 (Steinebach 2023, the
    /// engine's own): one factorisation and no Newton iteration per step,
    /// the exact Jacobian, a dense output of order 4; dense linear algebra.
    Rodas5p,
    /// Variable-order (1 to 5) BDF with CVODE's Newton strategy (the
    /// engine's own): the convergence rate carried across steps, the
    /// factorisation and the exact Jacobian reused by age and by the change
    /// of `h γ`; its Newton matrix dense or a band (`linear_algebra`).
    Bdf5,
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
            Method::Rodas5p => "rodas5p",
            Method::Bdf5 => "bdf5",
        }
    }

    /// Whether the method solves linear systems with the Jacobian.
    pub fn is_implicit(self) -> bool {
        matches!(
            self,
            Method::Bdf | Method::TrBdf2 | Method::Esdirk34 | Method::Radau5 | Method::Rodas5p | Method::Bdf5
        )
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
    /// Thermal nodes, conductions and the elements that heat them
    /// (empty: no thermal part).
    pub thermal: thermal::Thermal,
    /// Linear structures from finite-element matrices (`[[structure]]`).
    pub structures: Vec<crate::structure::Structure>,
    /// Springs along a fixed direction between bodies of dim 2 or 3
    /// (`[[spring]]` with a vector `direction`).
    pub inclined_springs: Vec<InclinedSpring>,
    /// The contacts that rub in a plane (between bodies of dim 3 with
    /// `normal_stiffness`): each names its contact, whose `between` are the
    /// x coordinates, and the members' y coordinates.
    pub planes: Vec<Plane>,
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

impl System {
    /// The scenario's inputs (`type = "input"` schedules): driver motions in
    /// file order, then forces (those on bodies, then those on structures'
    /// DOFs, as the engine orders them), then contacts' normal loads. Each
    /// is a clone that shares its held value with the system's schedule.
    pub fn inputs(&self) -> Vec<InputSignal> {
        let d = self.drivers.iter().map(|d| &d.motion);
        let loads = self.structures.iter().flat_map(|s| s.loads.iter());
        let f = self.forces.iter().chain(loads).map(|f| &f.value);
        let n = self.contacts.iter().map(|c| &c.normal);
        d.chain(f).chain(n).filter_map(|s| s.input().cloned()).collect()
    }

    /// Names of bodies and drivers, in the order of the output columns;
    /// `NAME:INDEX` for a structure's DOF.
    pub fn member_name(&self, m: Member) -> std::borrow::Cow<'_, str> {
        match m {
            Member::Ground => "ground".into(),
            Member::Body(i) => match self.bodies[i].axis {
                Axis::Line => self.bodies[i].name.as_str().into(),
                a => format!("{} ({})", self.bodies[i].name, ["x", "y", "z"][a.index()]).into(),
            },
            Member::Driver(i) => self.drivers[i].name.as_str().into(),
            Member::Dof { structure, index } => match self.structures.get(structure) {
                Some(s) => s.coordinate_name(index).into(),
                None => format!("structure{structure}:{index}").into(),
            },
        }
    }

    /// Whether any contact makes the equations stiff.
    pub fn is_stiff(&self) -> bool {
        self.contacts.iter().any(|c| c.model.is_stiff())
    }
}
