//! # friction-sim
//!
//! Scenario files, the simulation engine (true stick and slip, events,
//! diffsol's stiff and non-stiff solvers) and result output for the
//! `friction` toolkit.
//!
//! A system is read from a scenario file ([`scenario::load`]) or built in
//! Rust with [`System::builder`]; both go through the same checks and give
//! the same messages. [`simulate`] runs it; [`sweep`] runs it over a grid of
//! parameter values.
//!
//! ```
//! use friction_sim::{simulate, Ground, LuGreParams, Schedule, SolverSettings, System};
//! // a 1 kg mass pulled through a 2 N/m spring whose far end moves at 0.1 m/s,
//! // on a LuGre contact (Canudas de Wit et al. 1995): stick-slip
//! let sys = System::builder("stick-slip")
//!     .driver("puller", Schedule::Ramp { rate: 0.1, offset: 0.0, start: 0.0 })
//!     .body("m", 1.0)
//!     .spring("k", ("m", "puller"), 2.0)
//!     .contact("c", ("m", Ground), LuGreParams::default())
//!     .solver(SolverSettings { output_dt: Some(0.01), ..SolverSettings::with_t_end(10.0) })
//!     .build()?;
//! let out = simulate(&sys)?;
//! let f = out.col("F.c").unwrap();
//! // the contact holds the mass back: the force on it reaches -Fs = -1.5 N
//! // at break-away (within the bristles' overshoot)
//! let min = out.rows.iter().map(|r| r[f]).fold(f64::INFINITY, f64::min);
//! assert!(min < -1.4 && min > -1.6, "{min}");
//! assert!(out.last("x.m") > 0.0);
//! # Ok::<(), friction_sim::SimError>(())
//! ```
//!
//! # Sign convention
//!
//! A friction force `F` is the model's ([`FrictionModel::force`]): it
//! opposes the slip of a contact's first member relative to its second and
//! is positive while the first member slides forward. [`drive::drive`], the
//! fit and tune paths of `friction-analysis` and the Python package's
//! `Model`, `fit` and `analyze` all return this `F`. The time-series column
//! `F.NAME` of a simulation (CSV, [`Outcome`], Python's `Result`) is the
//! force the contact exerts on its first member, which is `-F` (negative
//! while the first member slides forward); `friction analyze` negates it
//! back (`--force-sign auto`).
#![warn(missing_docs)]

pub mod drive;
pub mod engine;
pub mod error;
pub mod output;
pub mod run;
pub mod scenario;
pub mod structure;
pub mod sweep;
pub mod system;

// The modules at the paths they have always had.
#[doc(no_inline)]
pub use scenario::schema as scenario_schema;
#[doc(no_inline)]
pub use system::{builder, schedule, units};

pub use engine::{simulate, simulate_flat, Event, FlatOutcome, Mode, Outcome};
pub use error::SimError;
pub use system::builder::{Between, End, GapSpec, Ground, StructureSpec, SystemBuilder};
pub use system::schedule::Schedule;
pub use system::{Member, Method, SolverSettings, StateColumns, System};

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
    StribeckSat, StribeckSatParams, StribeckTanh, StribeckTanhParams, Table, TableParams, Viscous,
    ViscousParams,
};

/// Sign with `sign(0) = 0`.
#[inline]
pub fn sign(x: f64) -> f64 {
    friction_models::sign(x)
}
