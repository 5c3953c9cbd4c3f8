//! The registry: every model id, its description and its constructor, and
//! [`AnyModel`], an enum over all models that implements [`FrictionModel`]
//! by static dispatch (no boxed trait objects in the hot loop).

use crate::error::ModelError;
use crate::model::{FrictionModel, Input, ModelInfo};
use crate::models::*;
use crate::params::ParamMap;

macro_rules! registry {
    ($($variant:ident($module:ident::$ty:ident, $pty:ident),)*) => {
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
            #[inline]
            fn force_and_rates(&self, inp: &Input, z: &[f64], mem: &[f64], dz: &mut [f64]) -> f64 {
                match self { $(AnyModel::$variant(m) => m.force_and_rates(inp, z, mem, dz),)* }
            }
            #[inline]
            fn partials(&self, inp: &Input, z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
                match self { $(AnyModel::$variant(m) => m.partials(inp, z, mem, p),)* }
            }
            fn accept(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
                match self { $(AnyModel::$variant(m) => m.accept(inp, z, mem),)* }
            }
            #[inline]
            fn max_static(&self, z: &[f64], mem: &[f64]) -> Option<f64> {
                match self { $(AnyModel::$variant(m) => m.max_static(z, mem),)* }
            }
            #[inline]
            fn static_range(&self, z: &[f64], mem: &[f64]) -> Option<(f64, f64)> {
                match self { $(AnyModel::$variant(m) => m.static_range(z, mem),)* }
            }
            fn stick_band(&self) -> f64 {
                match self { $(AnyModel::$variant(m) => m.stick_band(),)* }
            }
            fn turns_at_reversals(&self) -> bool {
                match self { $(AnyModel::$variant(m) => m.turns_at_reversals(),)* }
            }
            #[inline]
            fn n_turns(&self) -> usize {
                match self { $(AnyModel::$variant(m) => m.n_turns(),)* }
            }
            fn turns(&self, inp: &Input, z: &[f64], mem: &[f64], g: &mut [f64]) {
                match self { $(AnyModel::$variant(m) => m.turns(inp, z, mem, g),)* }
            }
            fn state_quantity(&self, k: usize) -> crate::model::Quantity {
                match self { $(AnyModel::$variant(m) => m.state_quantity(k),)* }
            }
            fn is_stiff(&self) -> bool {
                match self { $(AnyModel::$variant(m) => m.is_stiff(),)* }
            }
        }

        $(
            impl From<$module::$ty> for AnyModel {
                fn from(m: $module::$ty) -> Self {
                    AnyModel::$variant(m)
                }
            }

            impl TryFrom<$module::$pty> for AnyModel {
                type Error = ModelError;
                /// Validate the parameters (the same checks as [`build`]) and wrap the model.
                fn try_from(p: $module::$pty) -> Result<Self, ModelError> {
                    Ok(AnyModel::$variant($module::$ty::new(p)?))
                }
            }
        )*

        /// For every model: its id, the model from its parameter struct's
        /// `Default`, and the model built from an empty parameter map (the
        /// defaults of its `INFO` table).
        #[cfg(test)]
        pub(crate) fn both_defaults() -> Vec<(&'static str, Result<AnyModel, ModelError>, Result<AnyModel, ModelError>)> {
            vec![$(
                (
                    $module::INFO.id,
                    {
                        // one of the two is used, depending on the type
                        #[allow(unused_imports)]
                        use crate::registry::default_probe::{NoDefault, ViaDefault};
                        match (&default_probe::Probe::<$module::$pty>(std::marker::PhantomData)).make() {
                            Some(p) => AnyModel::try_from(p),
                            None => Err(ModelError::Constraint {
                                model: $module::INFO.id,
                                name: "-",
                                value: f64::NAN,
                                message: "the parameter struct has no Default (required rows)".into(),
                            }),
                        }
                    },
                    build($module::INFO.id, &ParamMap::new()),
                ),
            )*]
        }
    };
}

// One line per model, in the order `friction models` lists them.
registry! {
    Coulomb(coulomb::Coulomb, CoulombParams),
    Viscous(viscous::Viscous, ViscousParams),
    CoulombViscous(coulomb_viscous::CoulombViscous, CoulombViscousParams),
    PowerViscous(power_viscous::PowerViscous, PowerViscousParams),
    CoulombSat(coulomb_sat::CoulombSat, CoulombSatParams),
    CoulombTanh(coulomb_tanh::CoulombTanh, CoulombTanhParams),
    Stribeck(stribeck::Stribeck, StribeckParams),
    StribeckSat(stribeck_sat::StribeckSat, StribeckSatParams),
    StribeckTanh(stribeck_tanh::StribeckTanh, StribeckTanhParams),
    StribeckExp(stribeck_exp::StribeckExp, StribeckExpParams),
    Table(table::Table, TableParams),
    Classical(classical::Classical, ClassicalParams),
    Karnopp(karnopp::Karnopp, KarnoppParams),
    Freewheel(freewheel::Freewheel, FreewheelParams),
    Dankowicz(dankowicz::Dankowicz, DankowiczParams),
    Dahl(dahl::Dahl, DahlParams),
    LuGre(lugre::LuGre, LuGreParams),
    StribeckDankowicz(stribeck_dankowicz::StribeckDankowicz, StribeckDankowiczParams),
    ElastoPlastic(elasto_plastic::ElastoPlastic, ElastoPlasticParams),
    BoucWen(bouc_wen::BoucWen, BoucWenParams),
    BlimanSorine(bliman_sorine::BlimanSorine, BlimanSorineParams),
    FrictionLag(friction_lag::FrictionLag, FrictionLagParams),
    RateState(rate_state::RateState, RateStateParams),
    Leuven(leuven::Leuven, LeuvenParams),
    Gms(gms::Gms, GmsParams),
    Armstrong(armstrong::Armstrong, ArmstrongParams),
    MaxwellSlip(maxwell_slip::MaxwellSlip, MaxwellSlipParams),
    Jenkins(jenkins::Jenkins, JenkinsParams),
    Iwan4(iwan4::Iwan4, Iwan4Params),
    Iwan5(iwan5::Iwan5, Iwan5Params),
    ResetIntegrator(reset_integrator::ResetIntegrator, ResetIntegratorParams),
    Bristle(bristle::Bristle, BristleParams),
    HessSoom(hess_soom::HessSoom, HessSoomParams),
    MagicFormula(magic_formula::MagicFormula, MagicFormulaParams),
    BlimanTire(bliman_tire::BlimanTire, BlimanTireParams),
    Stochastic(stochastic::Stochastic, StochasticParams),
    MetaCoulomb(meta_coulomb::MetaCoulomb, MetaCoulombParams),
}

/// The description of model `id`, if it exists.
pub fn info(id: &str) -> Option<&'static ModelInfo> {
    all().into_iter().find(|m| m.id == id)
}

impl AnyModel {
    /// The Stribeck peak `Fs` and Coulomb level `Fc` of a model that has
    /// both (for wrappers, those of the inner model).
    pub fn peak_and_level(&self) -> Option<(f64, f64)> {
        let p = match self {
            AnyModel::Armstrong(m) => (m.params().fs, m.params().fc),
            AnyModel::Coulomb(m) => (m.params().fs?, m.params().fc),
            AnyModel::CoulombViscous(m) => (m.params().fs?, m.params().fc),
            AnyModel::ElastoPlastic(m) => (m.params().fs, m.params().fc),
            AnyModel::FrictionLag(m) => (m.params().fs, m.params().fc),
            AnyModel::Gms(m) => (m.params().fs, m.params().fc),
            AnyModel::HessSoom(m) => (m.params().fs, m.params().fc),
            AnyModel::Karnopp(m) => (m.params().fs?, m.params().fc),
            AnyModel::Leuven(m) => (m.params().fs, m.params().fc),
            AnyModel::LuGre(m) => (m.params().fs, m.params().fc),
            AnyModel::Stribeck(m) => (m.params().fs, m.params().fc),
            AnyModel::StribeckDankowicz(m) => (m.params().fs, m.params().fc),
            AnyModel::StribeckSat(m) => (m.params().fs, m.params().fc),
            AnyModel::StribeckTanh(m) => (m.params().fs, m.params().fc),
            AnyModel::MetaCoulomb(m) => return m.params().inner.peak_and_level(),
            AnyModel::Stochastic(m) => return m.params().inner.peak_and_level(),
            _ => return None,
        };
        Some(p)
    }

    /// Warnings about valid but suspicious parameters (not errors): a
    /// Stribeck peak `fs` below the Coulomb level `fc`, which turns the
    /// Stribeck dip into a rise (allowed, but usually a swapped pair).
    ///
    /// ```
    /// use friction_models::models::lugre::LuGreParams;
    /// use friction_models::AnyModel;
    /// let m = AnyModel::try_from(LuGreParams { fs: 0.5, ..Default::default() }).unwrap();
    /// assert_eq!(m.warnings().len(), 1);
    /// assert!(AnyModel::try_from(LuGreParams::default()).unwrap().warnings().is_empty());
    /// ```
    pub fn warnings(&self) -> Vec<String> {
        match self.peak_and_level() {
            Some((fs, fc)) if fs < fc => vec![format!(
                "model `{}`: the Stribeck peak `fs` = {fs} is below the Coulomb level `fc` = {fc}, so the \
                 friction rises with speed instead of dipping; swap them if that was not intended",
                self.info().id
            )],
            _ => vec![],
        }
    }
}

/// `Default` where the parameter struct has one (autoref specialisation:
/// `Probe`'s impl is found before `&Probe`'s when `T: Default`), for the test below.
#[cfg(test)]
pub(crate) mod default_probe {
    pub struct Probe<T>(pub std::marker::PhantomData<T>);
    pub trait ViaDefault<T> {
        fn make(&self) -> Option<T>;
    }
    impl<T: Default> ViaDefault<T> for Probe<T> {
        fn make(&self) -> Option<T> {
            Some(T::default())
        }
    }
    pub trait NoDefault<T> {
        fn make(&self) -> Option<T>;
    }
    impl<T> NoDefault<T> for &Probe<T> {
        fn make(&self) -> Option<T> {
            None
        }
    }
}

#[cfg(test)]
mod default_tests {
    /// A parameter struct's `Default` is the model's parameter table: the
    /// defaults are written in two places (the `INFO` table users read and
    /// the struct Rust users build from), and a model whose two disagree
    /// would run differently from Rust than from a scenario file.
    #[test]
    fn struct_defaults_equal_the_parameter_tables() {
        let mut compared = 0;
        for (id, from_struct, from_table) in super::both_defaults() {
            match (from_struct, from_table) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        format!("{a:?}"),
                        format!("{b:?}"),
                        "{id}: Default differs from INFO's defaults"
                    );
                    compared += 1;
                }
                // models whose table needs rows (elements, points) have no
                // default parameter set in a scenario
                (Err(_), Err(e)) => {
                    assert!(
                        e.to_string().contains("required") || e.to_string().contains("missing"),
                        "{id}: {e}"
                    )
                }
                (Ok(_), Err(e)) => panic!("{id}: the struct has a Default but the table does not build: {e}"),
                (Err(e), Ok(_)) => panic!("{id}: the struct's Default does not validate: {e}"),
            }
        }
        assert!(compared >= 30, "only {compared} models compared");
    }
}
