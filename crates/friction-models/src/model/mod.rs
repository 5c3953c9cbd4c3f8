//! The one interface every friction model implements, and the floor the
//! model files stand on: the trait, [`Input`], [`ModelInfo`], [`Family`],
//! the [`partials`] and [`sign`] (`src/models/` holds the models themselves).

pub mod partials;

use crate::params::ParamSpec;
use partials::Partials;

/// How a model behaves, which decides how a simulator must treat it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `F = f(v)`: a static map of the sliding velocity, smooth or regularised,
    /// no internal state, no set-valued stick.
    StaticMap,
    /// A static sliding curve plus set-valued stick at rest: while stuck the
    /// force is whatever the rest of the system needs, up to the maximum
    /// static force ([`FrictionModel::max_static`]).
    SetValued,
    /// Continuous internal state: `dz/dt = g(z, v, x)`, `F = h(z, v, x)`.
    ContinuousState,
    /// Discrete memory updated only on accepted steps
    /// ([`FrictionModel::accept`]): rate-independent hysteresis operators
    /// (Jenkins, Iwan, Maxwell slip, ...), and also `hess_soom`, whose memory
    /// is a velocity history: a time delay, which is rate-dependent.
    Hysteresis,
    /// A wrapper that modifies another model.
    Wrapper,
}

impl Family {
    /// Short lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Family::StaticMap => "static map",
            Family::SetValued => "set-valued stick",
            Family::ContinuousState => "continuous state",
            Family::Hysteresis => "hysteresis operator",
            Family::Wrapper => "wrapper",
        }
    }
}

/// The static description of a model: its public contract.
#[derive(Debug)]
pub struct ModelInfo {
    /// The model id used in scenario files (`lugre`, `maxwell_slip`, ...).
    pub id: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Behavioural family.
    pub family: Family,
    /// The equations, as plain text (the same block stands in the model's doc comment).
    pub equations: &'static str,
    /// Parameter table.
    pub params: &'static [ParamSpec],
    /// What the internal states are (continuous `z` and discrete memory).
    pub states: &'static str,
    /// Seeds and original papers.
    pub sources: &'static str,
}

/// The kinematic inputs to a contact at one instant.
///
/// `x` and `v` are the displacement and velocity of the contact's first member
/// relative to its second; the model returns the friction force that the
/// contact exerts *against* that relative motion, i.e. a positive `F` when
/// `v > 0` in sliding. The force acting on the first member is `-F`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Input {
    /// Time \[s\].
    pub t: f64,
    /// Relative displacement \[m\] (or \[rad\]).
    pub x: f64,
    /// Relative velocity [m/s] (or [rad/s]).
    pub v: f64,
}

impl Input {
    /// An input at time `t`, displacement `x`, velocity `v`.
    pub fn new(t: f64, x: f64, v: f64) -> Self {
        Input { t, x, v }
    }
}

/// The physical quantity of an internal state or memory value: what its
/// output column's unit is, for a translational contact (m, N) or a
/// rotational one (rad, N m).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// A displacement (slider position, bristle deflection): m or rad.
    Displacement,
    /// A velocity: m/s or rad/s.
    Velocity,
    /// A force: N or N m.
    Force,
    /// A time: s.
    Time,
    /// A number without unit (a mode flag, a counter, a normalised state).
    Dimensionless,
    /// Not declared by the model (no shipped model returns it; a test checks).
    Unknown,
}

impl Quantity {
    /// The unit for a translational (`rotational = false`) or rotational contact.
    ///
    /// ```
    /// use friction_models::Quantity;
    /// assert_eq!(Quantity::Force.unit(true), "N m");
    /// assert_eq!(Quantity::Displacement.unit(false), "m");
    /// ```
    pub fn unit(self, rotational: bool) -> &'static str {
        match (self, rotational) {
            (Quantity::Displacement, false) => "m",
            (Quantity::Displacement, true) => "rad",
            (Quantity::Velocity, false) => "m/s",
            (Quantity::Velocity, true) => "rad/s",
            (Quantity::Force, false) => "N",
            (Quantity::Force, true) => "N m",
            (Quantity::Time, _) => "s",
            (Quantity::Dimensionless, _) => "1",
            (Quantity::Unknown, _) => "?",
        }
    }
}

/// Sign with `sign(0) = 0` (unlike `f64::signum`, which gives ±1 at ±0).
#[inline]
pub fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// The interface of every friction model.
///
/// A model is immutable validated parameters; everything it remembers lives in
/// two slices the caller owns and a solver sees:
/// - `z`, the continuous states, integrated by the solver from [`FrictionModel::rates`];
/// - `mem`, discrete memory (slider positions, modes), changed only in
///   [`FrictionModel::accept`], which the caller invokes once per *accepted*
///   step, never for trial stages or rejected steps.
///
/// [`FrictionModel::force`] and [`FrictionModel::rates`] are pure functions of
/// their arguments, so calling them any number of times has no effect.
pub trait FrictionModel {
    /// The model's static description.
    fn info(&self) -> &'static ModelInfo;

    /// Number of continuous states `z`.
    fn n_states(&self) -> usize {
        0
    }

    /// Number of discrete memory values `mem`.
    fn n_memory(&self) -> usize {
        0
    }

    /// Initial values of `z` and `mem` for a contact starting at `inp`.
    fn init(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        let _ = (inp, z, mem);
    }

    /// Friction force `F` (opposing the relative motion, see [`Input`]).
    ///
    /// Set-valued models return the sliding force for `v != 0` and `0` at
    /// `v == 0`, where the force is set by the system ([`FrictionModel::max_static`]).
    fn force(&self, inp: &Input, z: &[f64], mem: &[f64]) -> f64;

    /// Time derivatives of the continuous states, `dz/dt = g(z, v, x)`.
    fn rates(&self, inp: &Input, z: &[f64], mem: &[f64], dz: &mut [f64]) {
        let _ = (inp, z, mem, dz);
    }

    /// [`FrictionModel::rates`] into `dz` and the [`FrictionModel::force`]
    /// at the same point, in one call: models whose force contains their
    /// own rates (LuGre's `σ1 dz/dt`) compute them once. The default calls
    /// the two.
    fn force_and_rates(&self, inp: &Input, z: &[f64], mem: &[f64], dz: &mut [f64]) -> f64 {
        self.rates(inp, z, mem, dz);
        self.force(inp, z, mem)
    }

    /// The quantity of internal value `k`, counting the continuous states
    /// `z` first, then the memory `mem` (the order of the `z.NAME.k` output
    /// columns). Every model with states or memory declares it.
    fn state_quantity(&self, k: usize) -> Quantity {
        let _ = k;
        Quantity::Unknown
    }

    /// The partial derivatives of [`FrictionModel::force`] and
    /// [`FrictionModel::rates`] with respect to `z`, `x` and `v` at `inp`
    /// (memory held fixed), written into `p` (sized by [`Partials::new`]
    /// for [`FrictionModel::n_states`] states). A stiff solver builds its
    /// Jacobian from them.
    ///
    /// The default takes central differences
    /// ([`partials::partials_by_differences`], floor `1e-6`); every
    /// model of the library overrides it with its exact derivatives, checked
    /// against those differences by the contract tests. At a kink (`|v|` at
    /// rest, a slider's limit) either one-sided derivative will do.
    fn partials(&self, inp: &Input, z: &[f64], mem: &[f64], p: &mut Partials) {
        partials::partials_by_differences(self, inp, z, mem, 1e-6, p);
    }

    /// Update discrete memory after an accepted step ending at `inp` (and
    /// project `z` if the model needs it). Called once per accepted step.
    fn accept(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        let _ = (inp, z, mem);
    }

    /// For set-valued models: the maximum static force magnitude `Fs` that the
    /// contact can transmit while stuck. `None` for models that are single-valued.
    fn max_static(&self, z: &[f64], mem: &[f64]) -> Option<f64> {
        let _ = (z, mem);
        None
    }

    /// For set-valued models: the range `[lo, hi]` of the force `F` (in the
    /// sign convention of [`FrictionModel::force`]: positive opposes positive
    /// slip) that the contact can transmit while stuck, `lo <= 0 <= hi`.
    /// The default is the symmetric `[-Fs, Fs]` of
    /// [`FrictionModel::max_static`]; a one-way clutch overrides it.
    ///
    /// ```
    /// use friction_models::{build, FrictionModel, ParamMap};
    /// let m = build("coulomb", &ParamMap::new()).unwrap();
    /// assert_eq!(m.static_range(&[], &[]), Some((-1.0, 1.0)));
    /// ```
    fn static_range(&self, z: &[f64], mem: &[f64]) -> Option<(f64, f64)> {
        self.max_static(z, mem).map(|f| (-f, f))
    }

    /// Half-width of the velocity band in which a set-valued model counts as
    /// stuck (Karnopp's `DV`); `0` means exactly at rest.
    fn stick_band(&self) -> f64 {
        0.0
    }

    /// Whether the discrete memory records the turning points of the relative
    /// displacement (Masing-type hysteresis: Jenkins, Maxwell-slip, Iwan).
    ///
    /// A simulator must then call [`FrictionModel::accept`] exactly at every
    /// reversal of the relative velocity, not only at the ends of its steps:
    /// a reversal inside a step would otherwise be lost together with the
    /// loop it opens. The engine locates every reversal as an event (a root
    /// of the relative velocity) for models that return `true`.
    fn turns_at_reversals(&self) -> bool {
        false
    }

    /// Number of turning-point functions ([`FrictionModel::turns`]): none by
    /// default.
    fn n_turns(&self) -> usize {
        0
    }

    /// The turning-point functions at `inp`, written into `g`
    /// ([`FrictionModel::n_turns`] values): continuous functions of
    /// `(inp, z, mem)` along a motion whose changes of sign are the instants
    /// at which the memory must change, when these are not the reversals of
    /// the relative velocity ([`FrictionModel::turns_at_reversals`]): the
    /// reversals of an internal state whose memory turns with it (`leuven`),
    /// an element reaching its slip force (`gms`).
    ///
    /// Each is a rate in the units of the relative velocity (m/s or rad/s).
    /// A simulator must call [`FrictionModel::accept`] exactly at every
    /// change of sign of each: the engine locates them as events (roots of
    /// each function times its sign at the last accepted instant, plus its
    /// velocity tolerance, as for the reversals of the relative velocity).
    /// At such an instant `accept` may change the memory so that a function
    /// jumps (it must then not be within that tolerance of zero). Pure, like
    /// [`FrictionModel::force`].
    fn turns(&self, inp: &Input, z: &[f64], mem: &[f64], g: &mut [f64]) {
        let _ = (inp, z, mem, g);
    }

    /// Whether the model makes the equations stiff (stiff bristles, steep
    /// regularisation), so that `method = "auto"` picks an implicit solver.
    fn is_stiff(&self) -> bool {
        self.n_states() > 0
    }
}
