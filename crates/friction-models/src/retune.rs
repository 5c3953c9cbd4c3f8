//! One real parameter of a built model changed in place, without a
//! parameter map: what a simulator needs to follow a parameter that varies
//! during a run (a friction coefficient that falls as the lining heats).
//!
//! [`AnyModel::with_real`] copies the model's parameter struct, sets one
//! field and validates the result with the model's own constructor (the
//! same checks as [`crate::build`]); it allocates nothing, so it may run
//! inside a right-hand side. [`settable`] lists, per model, the parameters
//! it can change: the plain real numbers of the models whose parameters
//! are plain numbers (not the shape parameters of a Stribeck curve, not
//! integers, choices, rows or inner models).
//!
//! ```
//! use friction_models::{build, FrictionModel, Input, ParamMap};
//! let m = build("stribeck", &ParamMap::new()).unwrap();
//! let hot = m.with_real("fc", 0.8).unwrap().unwrap();
//! // far above the Stribeck velocity the force is fc
//! assert!((hot.force(&Input::new(0.0, 0.0, 10.0), &[], &[]) - 0.8).abs() < 1e-12);
//! // out of the valid range: refused by the model's own check
//! assert!(m.with_real("fc", -1.0).unwrap().is_err());
//! // not a parameter it can change
//! assert!(m.with_real("shape", 1.0).is_none());
//! ```

use crate::error::ModelError;
use crate::models::*;
use crate::registry::AnyModel;

macro_rules! settable_models {
    ($($variant:ident($module:ident::$ty:ident) { $($field:ident),* } opt { $($ofield:ident),* }),* $(,)?) => {
        /// The parameters of model `id` that [`AnyModel::with_real`] can
        /// change (empty for a model it cannot change).
        pub fn settable(id: &str) -> &'static [&'static str] {
            $(
                if id == $module::INFO.id {
                    return &[$(stringify!($field),)* $(stringify!($ofield),)*];
                }
            )*
            &[]
        }

        impl AnyModel {
            /// This model with its real parameter `name` set to `value`:
            /// `None` when `name` is not one of [`settable`] for this
            /// model, else the model checked by its constructor. Allocates
            /// nothing.
            pub fn with_real(&self, name: &str, value: f64) -> Option<Result<AnyModel, ModelError>> {
                self.with_reals([(name, value)])
            }

            /// This model with several of its real parameters set at once
            /// (then checked together, so that `fs >= fc` may hold only
            /// after both changed): `None` when one of the names is not
            /// one of [`settable`] for this model. Allocates nothing.
            pub fn with_reals<'a>(
                &self,
                set: impl IntoIterator<Item = (&'a str, f64)>,
            ) -> Option<Result<AnyModel, ModelError>> {
                match self {
                    $(
                        AnyModel::$variant(m) => {
                            let mut p = *m.params();
                            for (name, value) in set {
                                match name {
                                    $(stringify!($field) => p.$field = value,)*
                                    $(stringify!($ofield) => p.$ofield = Some(value),)*
                                    _ => return None,
                                }
                            }
                            Some($module::$ty::new(p).map(AnyModel::$variant))
                        }
                    )*
                    _ => None,
                }
            }
        }
    };
}

settable_models! {
    Coulomb(coulomb::Coulomb) { fc } opt { fs },
    Viscous(viscous::Viscous) { kv } opt {},
    CoulombViscous(coulomb_viscous::CoulombViscous) { fc, kv } opt { fs },
    PowerViscous(power_viscous::PowerViscous) { kv, delta_v } opt {},
    CoulombSat(coulomb_sat::CoulombSat) { fc, ksat, kv } opt {},
    CoulombTanh(coulomb_tanh::CoulombTanh) { fc, ktanh, kv } opt {},
    Stribeck(stribeck::Stribeck) { fc, fs, vs, kv } opt {},
    StribeckSat(stribeck_sat::StribeckSat) { fc, fs, vs, ksat, kv } opt {},
    StribeckTanh(stribeck_tanh::StribeckTanh) { fc, fs, vs, ktanh, kv } opt {},
    StribeckExp(stribeck_exp::StribeckExp) { mu_c, gamma, beta, alpha, normal } opt {},
    Karnopp(karnopp::Karnopp) { fc, kv, dv } opt { fs },
    Dankowicz(dankowicz::Dankowicz) { fc, delta } opt {},
    Dahl(dahl::Dahl) { sigma0, fc, exponent } opt {},
    LuGre(lugre::LuGre) { sigma0, sigma1, sigma2, fc, fs, vs } opt {},
    StribeckDankowicz(stribeck_dankowicz::StribeckDankowicz) { fc, fs, vs, exponent, delta, kv } opt {},
    ElastoPlastic(elasto_plastic::ElastoPlastic) { sigma0, sigma1, sigma2, fc, fs, vs, zba } opt {},
    BoucWen(bouc_wen::BoucWen) { a, beta, gamma, n, k } opt {},
    BlimanSorine(bliman_sorine::BlimanSorine) { fc, sigma0, df, eta } opt {},
    FrictionLag(friction_lag::FrictionLag) { fc, fs, vs, kv, c } opt {},
    RateState(rate_state::RateState) { mu0, a, b, v0, dc, fn_load } opt {},
    Armstrong(armstrong::Armstrong) { sigma0, fc, fs, kv, vs, tau_l, gamma } opt {},
    Jenkins(jenkins::Jenkins) { kt, fs, theta } opt {},
    ResetIntegrator(reset_integrator::ResetIntegrator) { sigma0, z0, a, sigma1 } opt {},
    HessSoom(hess_soom::HessSoom) { fc, fs, vs, kv, tau } opt {},
    MagicFormula(magic_formula::MagicFormula) { b, c, d, e } opt {},
    BlimanTire(bliman_tire::BlimanTire) { fc, delta_f, sigma0, eta, length } opt {},
}

#[cfg(test)]
mod tests {
    use crate::{all, build, info, FrictionModel, Input, ParamMap, ParamValue};

    /// Every settable parameter is a parameter of its model, and setting
    /// it in place gives the model `build` makes from the same value: the
    /// same force and rates at a few inputs, bit for bit.
    #[test]
    fn with_real_equals_build_with_the_value() {
        let mut count = 0;
        for mi in all() {
            for &name in super::settable(mi.id) {
                let spec = mi.params.iter().find(|p| p.name == name);
                assert!(spec.is_some(), "{}: `{name}` is not a parameter", mi.id);
                let base = build(mi.id, &ParamMap::new()).unwrap();
                // a value near the default that is in range for every model
                let x0 = match spec.unwrap().kind {
                    crate::ParamKind::Real { default: Some(x), .. } => x,
                    _ => 1.0,
                };
                let x = if x0 == 0.0 { 0.01 } else { x0 * 0.97 };
                let mut p = ParamMap::new();
                p.insert(name.into(), ParamValue::Num(x));
                let Ok(want) = build(mi.id, &p) else { continue };
                let got = base.with_real(name, x).unwrap().unwrap();
                let n = want.n_states();
                let z = vec![1e-6; n];
                let mem = vec![0.0; want.n_memory()];
                let (mut dz1, mut dz2) = (vec![0.0; n], vec![0.0; n]);
                for v in [-0.3, -1e-3, 2e-4, 0.05, 2.0] {
                    let inp = Input::new(0.1, 1e-4, v);
                    let f1 = want.force_and_rates(&inp, &z, &mem, &mut dz1);
                    let f2 = got.force_and_rates(&inp, &z, &mem, &mut dz2);
                    assert_eq!(f1.to_bits(), f2.to_bits(), "{} `{name}` at v = {v}", mi.id);
                    assert_eq!(dz1, dz2, "{} `{name}` at v = {v}", mi.id);
                }
                count += 1;
            }
        }
        assert!(count > 80, "{count} parameters checked");
        assert!(info("lugre").is_some());
    }

    /// A value out of the model's range is refused with the parameter named.
    #[test]
    fn with_real_refuses_out_of_range_naming_the_parameter() {
        let m = build("lugre", &ParamMap::new()).unwrap();
        let e = m.with_real("vs", 0.0).unwrap().unwrap_err().to_string();
        assert!(e.contains("vs"), "{e}");
        let e = m.with_real("fs", -0.5).unwrap().unwrap_err().to_string();
        assert!(e.contains("fs"), "{e}");
        assert!(m.with_real("no_such", 1.0).is_none());
        // set together, fs >= fc holds only after both changed
        let s = build("stribeck", &ParamMap::new()).unwrap();
        assert!(s.with_real("fc", 2.0).unwrap().is_err());
        assert!(s.with_reals([("fc", 2.0), ("fs", 2.5)]).unwrap().is_ok());
    }
}
