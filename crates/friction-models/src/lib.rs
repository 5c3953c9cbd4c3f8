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
pub mod registry;
pub mod shape;
pub mod testing;
pub mod update;

pub use error::ModelError;
pub use model::{Family, FrictionModel, Input, ModelInfo};
pub use params::{ParamKind, ParamMap, ParamReader, ParamSpec, ParamValue, Range};
pub use registry::{all, build, info, AnyModel};

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
