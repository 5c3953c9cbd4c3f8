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
//! **Sign convention.** A model's force `F` opposes the slip `v` (the first
//! member's velocity relative to the second): positive while sliding
//! forward. A simulator's force on the first member is `-F` (the column
//! `F.NAME` of `friction-sim`).
//!
//! A typed model, its force at a velocity, and the per-step update of its
//! state along a motion ([`update`]):
//!
//! ```
//! use friction_models::{AnyModel, FrictionModel, Input, LuGreParams};
//! let m = AnyModel::try_from(LuGreParams::default()).unwrap();
//! let (mut z, mut mem) = (vec![0.0; m.n_states()], vec![0.0; m.n_memory()]);
//! m.init(&Input::new(0.0, 0.0, 0.0), &mut z, &mut mem);
//! // relaxed bristles: no force at rest
//! assert_eq!(m.force(&Input::new(0.0, 0.0, 0.0), &z, &mem), 0.0);
//! // on the steady state at v = 0.1 m/s the force is g(v) + σ2 v, opposing the motion
//! let v = 0.1;
//! let g = 1.0 + 0.5 * (-(v / 0.001f64).powi(2)).exp();
//! let z_ss = [g / 1e5];
//! assert!((m.force(&Input::new(0.0, 0.0, v), &z_ss, &mem) - (g + 0.4 * v)).abs() < 1e-12);
//!
//! // the per-step update: one contact slides 1 mm at 1 cm/s in one step and
//! // ends on its Stribeck curve g(0.01) + σ2 0.01 = 1.004 N
//! use friction_models::update::{init, state_len, update};
//! let mut state = vec![0.0; state_len(&m)];
//! init(&m, &mut state).unwrap();
//! let mut force = [0.0];
//! update(&m, 0.1, &[1e-3], &[1.0], &mut state, &mut force).unwrap();
//! assert!((force[0] - 1.004).abs() < 1e-9);
//! ```
//!
//! By id and a parameter map (the form scenario files use):
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

pub mod catalogue;
pub mod error;
pub mod model;
/// The model floor's [`model::partials`], also at this path: a public path
/// that callers use, kept.
#[doc(no_inline)]
pub use model::partials;
/// The model floor's [`model::sign`], also at this path: a public path that
/// callers use (`friction-sim`), kept.
pub use model::sign;
pub mod models;
pub mod params;
pub mod plane;
pub mod references;
pub mod registry;
pub mod retune;
pub mod shape;
mod sliders;
pub mod suggest;
pub mod testing;
pub mod update;

pub use error::ModelError;
pub use model::partials::{partials_by_differences, Partials};
pub use model::{Family, FrictionModel, Input, ModelInfo, Quantity};
pub use params::{ParamKind, ParamMap, ParamReader, ParamSpec, ParamValue, Range};
pub use registry::{all, build, info, AnyModel};

/// Every model type and its parameter struct, at the crate root
/// (`friction_models::LuGreParams`); each parameter struct converts into
/// [`AnyModel`] with `AnyModel::try_from`, checking the ranges.
pub use models::{
    armstrong::{Armstrong, ArmstrongParams},
    bliman_sorine::{BlimanSorine, BlimanSorineParams},
    bliman_tire::{BlimanTire, BlimanTireParams},
    bouc_wen::{BoucWen, BoucWenParams},
    bristle::{Bristle, BristleParams},
    classical::{Classical, ClassicalParams},
    coulomb::{Coulomb, CoulombParams},
    coulomb_sat::{CoulombSat, CoulombSatParams},
    coulomb_tanh::{CoulombTanh, CoulombTanhParams},
    coulomb_viscous::{CoulombViscous, CoulombViscousParams},
    dahl::{Dahl, DahlParams},
    dankowicz::{Dankowicz, DankowiczParams},
    elasto_plastic::{ElastoPlastic, ElastoPlasticParams},
    friction_lag::{FrictionLag, FrictionLagParams},
    gms::{Gms, GmsParams},
    hess_soom::{HessSoom, HessSoomParams},
    iwan4::{Iwan4, Iwan4Params},
    iwan5::{Iwan5, Iwan5Params},
    jenkins::{Jenkins, JenkinsParams},
    karnopp::{Karnopp, KarnoppParams},
    leuven::{Leuven, LeuvenParams},
    lugre::{LuGre, LuGreParams},
    magic_formula::{MagicFormula, MagicFormulaParams},
    maxwell_slip::{MaxwellSlip, MaxwellSlipParams},
    meta_coulomb::{MetaCoulomb, MetaCoulombParams},
    power_viscous::{PowerViscous, PowerViscousParams},
    rate_state::{RateState, RateStateParams},
    reset_integrator::{ResetIntegrator, ResetIntegratorParams},
    stochastic::{Stochastic, StochasticParams},
    stribeck::{Stribeck, StribeckParams},
    stribeck_dankowicz::{StribeckDankowicz, StribeckDankowiczParams},
    stribeck_exp::{StribeckExp, StribeckExpParams},
    stribeck_sat::{StribeckSat, StribeckSatParams},
    stribeck_tanh::{StribeckTanh, StribeckTanhParams},
    table::{Table, TableParams},
    viscous::{Viscous, ViscousParams},
};

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
