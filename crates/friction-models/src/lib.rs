//! # friction-models
//!
//! Every friction model of the project's source documents behind one
//! interface, [`FrictionModel`]: immutable validated parameters plus explicit
//! state that the caller owns (continuous states `z` integrated by a solver,
//! discrete memory `mem` updated only on accepted steps).
//!
//! Models come in families ([`Family`]): static maps `F(v)`, set-valued stick
//! with a maximum static force, continuous internal state `dz/dt = g`,
//! `F = h`, rate-independent hysteresis operators, and wrappers.
//!
//! Every model's force is the force at unit normal load: a simulator's
//! contact load N(t) multiplies it (see [`LOAD_PARAMS`] for the two models
//! that also carry a load parameter of their own, which must not double it).
//!
//! ```
//! use friction_models::{build, FrictionModel, Input, ParamMap, ParamValue};
//! let mut p = ParamMap::new();
//! p.insert("fc".into(), ParamValue::Num(2.0));
//! let m = build("coulomb", &p).unwrap();
//! assert_eq!(m.force(&Input::new(0.0, 0.0, 0.1), &[], &[]), 2.0);
//! assert!(build("no_such_model", &p).is_err());
//! ```
#![warn(missing_docs)]

pub mod error;
pub mod model;
pub mod models;
pub mod params;
pub mod references;
pub mod registry;
pub mod shape;
pub mod testing;
pub mod update;

pub use error::ModelError;
pub use model::{Family, FrictionModel, Input, ModelInfo, Quantity};
pub use params::{ParamKind, ParamMap, ParamReader, ParamSpec, ParamValue, Range};
pub use registry::{all, build, info, AnyModel};

/// Models with a normal-load parameter of their own, as `(model id,
/// parameter)`.
///
/// **The load rule.** A simulator's contact has a normal load N(t) that
/// multiplies the model's force and its maximum static force; every model's
/// forces (`fc`, `fs`, `sigma0 z`, ...) are the values at N = 1. The
/// parameters listed here are the same N written into the model (as in
/// their sources, F = μ N); when a contact sets its own load too, N enters
/// squared. A front end must refuse a contact that sets both to values other
/// than 1 (the scenario loader of `friction-sim` does).
pub const LOAD_PARAMS: &[(&str, &str)] = &[("stribeck_exp", "normal"), ("rate_state", "fn_load")];

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
