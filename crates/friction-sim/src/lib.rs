//! # friction-sim
//!
//! Scenario files, the simulation engine (true stick and slip, events,
//! diffsol's stiff and non-stiff solvers) and result output for the
//! `friction` toolkit.
#![warn(missing_docs)]

pub mod builder;
pub mod drive;
pub mod engine;
pub mod error;
pub mod output;
pub mod scenario;
pub mod schedule;
pub mod sweep;

pub use builder::{Between, End, Ground, SystemBuilder};
pub use engine::{simulate, Event, Mode, Outcome};
pub use error::SimError;
pub use scenario::{Member, Method, SolverSettings, StateColumns, System};
pub use schedule::Schedule;

/// The model interface, the registry and every model with its parameter
/// struct, re-exported from `friction_models` so that a simulation needs
/// this crate only.
pub use friction_models::{
    build as build_model, shape::StribeckShape, AnyModel, FrictionModel, Input, ModelError, ParamMap,
    ParamValue,
};
pub use friction_models::{
    Armstrong, ArmstrongParams, BlimanSorine, BlimanSorineParams, BlimanTire, BlimanTireParams, BoucWen,
    BoucWenParams, Bristle, BristleParams, Classical, ClassicalParams, Coulomb, CoulombParams, CoulombSat,
    CoulombSatParams, CoulombTanh, CoulombTanhParams, CoulombViscous, CoulombViscousParams, Dahl, DahlParams,
    Dankowicz, DankowiczParams, ElastoPlastic, ElastoPlasticParams, FrictionLag, FrictionLagParams, Gms,
    GmsParams, HessSoom, HessSoomParams, Iwan4, Iwan4Params, Iwan5, Iwan5Params, Jenkins, JenkinsParams,
    Karnopp, KarnoppParams, Leuven, LeuvenParams, LuGre, LuGreParams, MagicFormula, MagicFormulaParams,
    MaxwellSlip, MaxwellSlipParams, MetaCoulomb, MetaCoulombParams, PowerViscous, PowerViscousParams,
    RateState, RateStateParams, ResetIntegrator, ResetIntegratorParams, Stochastic, StochasticParams,
    Stribeck, StribeckDankowicz, StribeckDankowiczParams, StribeckExp, StribeckExpParams, StribeckParams,
    StribeckSat, StribeckSatParams, StribeckTanh, StribeckTanhParams, Viscous, ViscousParams,
};

/// Sign with `sign(0) = 0`.
#[inline]
pub fn sign(x: f64) -> f64 {
    friction_models::sign(x)
}
