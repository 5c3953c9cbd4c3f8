//! The registry: every model id, its description and its constructor, and
//! [`AnyModel`], an enum over all models that implements [`FrictionModel`]
//! by static dispatch (no boxed trait objects in the hot loop).

use crate::error::ModelError;
use crate::model::{FrictionModel, Input, ModelInfo};
use crate::models::*;
use crate::params::ParamMap;

macro_rules! registry {
    ($($variant:ident($module:ident::$ty:ident),)*) => {
        /// Any model of the library, dispatched statically.
        #[derive(Debug, Clone)]
        pub enum AnyModel {
            $(
                #[doc = concat!("See [`", stringify!($module), "::", stringify!($ty), "`].")]
                $variant($module::$ty),
            )*
        }

        /// The descriptions of every model, in registry order.
        pub fn all() -> Vec<&'static ModelInfo> {
            vec![$(&$module::INFO,)*]
        }

        /// Build the model `id` from user parameters (defaults filled in,
        /// ranges checked, unknown names refused).
        pub fn build(id: &str, params: &ParamMap) -> Result<AnyModel, ModelError> {
            $(
                if id == $module::INFO.id {
                    return Ok(AnyModel::$variant($module::$ty::from_params(params)?));
                }
            )*
            Err(ModelError::UnknownModel {
                id: id.to_string(),
                known: all().iter().map(|m| m.id).collect::<Vec<_>>().join(", "),
            })
        }

        impl FrictionModel for AnyModel {
            fn info(&self) -> &'static ModelInfo {
                match self { $(AnyModel::$variant(m) => m.info(),)* }
            }
            #[inline]
            fn n_states(&self) -> usize {
                match self { $(AnyModel::$variant(m) => m.n_states(),)* }
            }
            #[inline]
            fn n_memory(&self) -> usize {
                match self { $(AnyModel::$variant(m) => m.n_memory(),)* }
            }
            fn init(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
                match self { $(AnyModel::$variant(m) => m.init(inp, z, mem),)* }
            }
            #[inline]
            fn force(&self, inp: &Input, z: &[f64], mem: &[f64]) -> f64 {
                match self { $(AnyModel::$variant(m) => m.force(inp, z, mem),)* }
            }
            #[inline]
            fn rates(&self, inp: &Input, z: &[f64], mem: &[f64], dz: &mut [f64]) {
                match self { $(AnyModel::$variant(m) => m.rates(inp, z, mem, dz),)* }
            }
            fn accept(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
                match self { $(AnyModel::$variant(m) => m.accept(inp, z, mem),)* }
            }
            #[inline]
            fn max_static(&self, z: &[f64], mem: &[f64]) -> Option<f64> {
                match self { $(AnyModel::$variant(m) => m.max_static(z, mem),)* }
            }
            fn stick_band(&self) -> f64 {
                match self { $(AnyModel::$variant(m) => m.stick_band(),)* }
            }
            fn turns_at_reversals(&self) -> bool {
                match self { $(AnyModel::$variant(m) => m.turns_at_reversals(),)* }
            }
            fn state_quantity(&self, k: usize) -> crate::model::Quantity {
                match self { $(AnyModel::$variant(m) => m.state_quantity(k),)* }
            }
            fn is_stiff(&self) -> bool {
                match self { $(AnyModel::$variant(m) => m.is_stiff(),)* }
            }
        }
    };
}

// One line per model, in the order `friction models` lists them.
registry! {
    Coulomb(coulomb::Coulomb),
    Viscous(viscous::Viscous),
    CoulombViscous(coulomb_viscous::CoulombViscous),
    PowerViscous(power_viscous::PowerViscous),
    CoulombSat(coulomb_sat::CoulombSat),
    CoulombTanh(coulomb_tanh::CoulombTanh),
    Stribeck(stribeck::Stribeck),
    StribeckSat(stribeck_sat::StribeckSat),
    StribeckTanh(stribeck_tanh::StribeckTanh),
    StribeckExp(stribeck_exp::StribeckExp),
    Table(table::Table),
    Classical(classical::Classical),
    Karnopp(karnopp::Karnopp),
    Dankowicz(dankowicz::Dankowicz),
    Dahl(dahl::Dahl),
    LuGre(lugre::LuGre),
    StribeckDankowicz(stribeck_dankowicz::StribeckDankowicz),
    ElastoPlastic(elasto_plastic::ElastoPlastic),
    BoucWen(bouc_wen::BoucWen),
    BlimanSorine(bliman_sorine::BlimanSorine),
    FrictionLag(friction_lag::FrictionLag),
    RateState(rate_state::RateState),
    Leuven(leuven::Leuven),
    Gms(gms::Gms),
    Armstrong(armstrong::Armstrong),
    MaxwellSlip(maxwell_slip::MaxwellSlip),
    Jenkins(jenkins::Jenkins),
    Iwan4(iwan4::Iwan4),
    Iwan5(iwan5::Iwan5),
    ResetIntegrator(reset_integrator::ResetIntegrator),
    Bristle(bristle::Bristle),
    HessSoom(hess_soom::HessSoom),
    MagicFormula(magic_formula::MagicFormula),
    BlimanTire(bliman_tire::BlimanTire),
    Stochastic(stochastic::Stochastic),
    MetaCoulomb(meta_coulomb::MetaCoulomb),
}

/// The description of model `id`, if it exists.
pub fn info(id: &str) -> Option<&'static ModelInfo> {
    all().into_iter().find(|m| m.id == id)
}
