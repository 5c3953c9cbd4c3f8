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

mod build;

use friction_models::{AnyModel, ModelError};

use super::checks::*;
use super::planar;
use super::schedule::Schedule;
use super::{check_name, Contact, Driver, Force, Invalid, Member, SolverSettings, StateColumns, System};
use crate::error::SimError;

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
    /// name, mass, x0 and v0 per coordinate
    bodies: Vec<(String, f64, Vec<f64>, Vec<f64>)>,
    springs: Vec<(String, Between, f64, f64)>,
    /// name, ends, stiffness, length, direction
    inclined: Vec<(String, Between, f64, f64, Vec<f64>)>,
    dampers: Vec<(String, Between, f64)>,
    forces: Vec<(String, String, Schedule)>,
    contacts: Vec<PendingContact>,
    gaps: Vec<(String, Between, GapSpec)>,
    stops: Vec<(String, f64, f64, f64)>,
    solver: Option<SolverSettings>,
    rotational: Vec<String>,
    thermal: crate::system::thermal::PendingThermal,
    structures: Vec<StructureSpec>,
    /// (contact, gap) of `normal_gap`
    normal_gaps: Vec<(String, String)>,
    /// (spring, damper, gap or force name, `direction`)
    directions: Vec<(String, String)>,
    /// (contact, `normal_stiffness`, `gap`)
    normal_stiffness: Vec<(String, f64, f64)>,
}

/// A linear structure from matrices for [`SystemBuilder::structure`]
/// (`[[structure]]` of a scenario, see [`crate::structure`]); its DOFs are
/// the members `"NAME:INDEX"`.
#[derive(Debug, Clone)]
pub struct StructureSpec {
    /// Name.
    pub name: String,
    /// Mass matrix, symmetric positive definite.
    pub mass: crate::structure::SymMatrix,
    /// Stiffness matrix, symmetric.
    pub stiffness: crate::structure::SymMatrix,
    /// Damping ([`crate::structure::Damping::None`] for none).
    pub damping: crate::structure::Damping,
    /// DOFs whose columns are written besides those something names.
    pub watch: Vec<usize>,
    /// A Craig-Bampton reduction, applied after the checks.
    pub reduce: Option<crate::structure::Reduce>,
}

/// The parameters of a gap for [`SystemBuilder::gap`] (see
/// [`crate::system::Gap`]); `GapSpec::new(stiffness)` is an undamped
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
            inclined: vec![],
            dampers: vec![],
            forces: vec![],
            contacts: vec![],
            gaps: vec![],
            stops: vec![],
            solver: None,
            rotational: vec![],
            thermal: Default::default(),
            normal_gaps: Vec::new(),
            structures: vec![],
            directions: vec![],
            normal_stiffness: vec![],
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
        self.bodies.push((name.to_string(), mass, vec![x0], vec![v0]));
        self
    }

    /// A body with `x0.len()` coordinates (`dim = 2 | 3` of a scenario: x,
    /// y and z), starting at `x0` with velocities `v0` (one per
    /// coordinate). Its columns are `x.NAME`, `y.NAME`, `vx.NAME`, ...;
    /// connections and forces act along x unless given a
    /// [`direction`](SystemBuilder::direction).
    ///
    /// ```
    /// use friction_sim::{SolverSettings, System};
    /// let sys = System::builder("puck")
    ///     .body_dim("m", 1.0, &[0.0, 0.01], &[1.0, -1.0])
    ///     .contact("c", ("m", "ground"), friction_models::build("coulomb", &Default::default()).unwrap())
    ///     .normal_stiffness("c", 1e4, 0.0) // N = max(0, 1e4 (0 - y))
    ///     .solver(SolverSettings::with_t_end(0.05))
    ///     .build()
    ///     .unwrap();
    /// let out = friction_sim::simulate(&sys).unwrap();
    /// assert!(out.last("y.m") > 0.0); // it bounced off the floor
    /// assert!(out.last("vx.m") < 1.0); // and lost speed rubbing on it
    /// ```
    pub fn body_dim(mut self, name: &str, mass: f64, x0: &[f64], v0: &[f64]) -> Self {
        self.bodies.push((name.to_string(), mass, x0.to_vec(), v0.to_vec()));
        self
    }

    /// The coordinate (`"x"`, `"y"` or `"z"`, the `direction` key of a
    /// scenario) along which the spring, damper, gap or force named
    /// `element` acts (every one of that name); x when not given.
    pub fn direction(mut self, element: &str, direction: &str) -> Self {
        self.directions.push((element.to_string(), direction.to_string()));
        self
    }

    /// The normal load of contact `contact` between members of dim 2 is
    /// `N = max(0, normal_stiffness (gap - y))`, `y` its first member's y
    /// relative to the second's (`normal_stiffness` and `gap` of a scenario;
    /// see the scenario format's contacts with a normal).
    pub fn normal_stiffness(mut self, contact: &str, normal_stiffness: f64, gap: f64) -> Self {
        self.normal_stiffness.push((contact.to_string(), normal_stiffness, gap));
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

    /// A linear spring along the fixed direction `direction` (2 or 3
    /// components, normalised) between bodies of that dim or one of them
    /// and the ground: stretch `s = e·(x2 - x1) - length`, force on the
    /// first member `stiffness s e` (`[[spring]]` with a vector `direction`;
    /// see [`crate::system::InclinedSpring`]).
    ///
    /// ```
    /// use friction_sim::{SolverSettings, System};
    /// let sys = System::builder("tilted")
    ///     .solver(SolverSettings::with_t_end(1.0))
    ///     .body_dim("m", 1.0, &[0.0, 0.0], &[0.0, 0.0])
    ///     .inclined_spring("k", ("m", "ground"), 100.0, 0.0, &[3.0, 4.0])
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(sys.inclined_springs[0].unit, vec![0.6, 0.8]);
    /// ```
    pub fn inclined_spring(
        mut self,
        name: &str,
        between: impl Into<Between>,
        stiffness: f64,
        length: f64,
        direction: &[f64],
    ) -> Self {
        self.inclined.push((name.to_string(), between.into(), stiffness, length, direction.to_vec()));
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
    /// `spec.length` (see [`crate::system::Gap`]).
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

    /// A linear structure from matrices (`[[structure]]`); name its DOFs
    /// `"NAME:INDEX"` in connections and forces.
    pub fn structure(mut self, spec: StructureSpec) -> Self {
        self.structures.push(spec);
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

    /// A thermal node with heat capacity `capacity` [J/K] starting at
    /// `t0` \[K\] (`[[thermal]]` with `capacity` and `T0`).
    pub fn thermal(mut self, name: &str, capacity: f64, t0: f64) -> Self {
        self.thermal.nodes.push((name.to_string(), Some(capacity), Some(t0), None));
        self
    }

    /// A thermal node at the fixed temperature `temperature` \[K\], an
    /// ambient (`[[thermal]]` with `fixed`).
    pub fn ambient(mut self, name: &str, temperature: f64) -> Self {
        self.thermal.nodes.push((name.to_string(), None, None, Some(temperature)));
        self
    }

    /// A thermal conduction of conductance `conductance` [W/K] from node
    /// `a` to node `b` (`[[conduction]]`).
    pub fn conduction(mut self, name: &str, a: &str, b: &str, conductance: f64) -> Self {
        self.thermal.conductions.push((name.to_string(), a.to_string(), b.to_string(), conductance));
        self
    }

    /// Send the loss power of the contact, gap or damper `element` to the
    /// thermal node `node` (`heat = "NODE"`).
    pub fn heat(mut self, element: &str, node: &str) -> Self {
        self.thermal.heat.push((element.to_string(), node.to_string()));
        self
    }

    /// Parameter `param` of contact `contact`'s model as a function of the
    /// temperature of its heat node (`params = { fc = { at = ... } }`): any
    /// of [`crate::system::thermal::temperature_params`], several of one
    /// contact by several calls, checked at build time as the scenario
    /// parser checks them ([`crate::system::thermal::check_laws`]; see
    /// [`crate::system::thermal::TempLaw`] for how they are followed).
    pub fn temperature_law(
        mut self,
        contact: &str,
        param: &str,
        law: crate::system::thermal::TempLaw,
    ) -> Self {
        self.thermal.laws.push((contact.to_string(), param.to_string(), law));
        self
    }

    /// The normal load of contact `contact` is the force of gap `gap`
    /// (times its `normal` factor): `normal_gap = "GAP"` of a scenario.
    pub fn normal_gap(mut self, contact: &str, gap: &str) -> Self {
        self.normal_gaps.push((contact.to_string(), gap.to_string()));
        self
    }
}
