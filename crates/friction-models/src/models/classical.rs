//! `classical`: a classical friction model: stiction Fs at rest plus any
//! sliding curve, the latter given as an inner static model.
//!
//! # Equations
//! ```text
//! F = Fv(v)                      for v != 0 (Fv: the sliding curve, the inner model `sliding`)
//! F = Fe                         for v == 0 and |Fe| < Fs (Fe: the external force, set by the system)
//! F = Fs sign(Fe)                for v == 0 and |Fe| >= Fs
//! Fs >= Fv(0+); if absent, Fs = the inner model's maximum static force, else Fv(0+)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fv(v) | `sliding` | N | a model table | "coulomb_viscous" | sliding curve: a static or set-valued model { model = "ID", params = { ... } } |
//! | Fs | `fs` | N | [0, inf) | none | maximum static force (>= the sliding force at v -> 0+) |
//!
//! The sliding curve is any model of family static map or set-valued
//! without a stick band, for example
//! `sliding = { model = "stribeck", params = { fc = 1, fs = 1.4, vs = 0.01 } }`,
//! `{ model = "power_viscous", ... }` or a look-alike of Olsson's Fig. 2.10.
//! Only its force for v != 0 is used. Models with internal state or memory,
//! and Karnopp's model (whose band would hide the sliding curve), are refused.
//!
//! # States
//! None. While stuck the force is not a function of the model's inputs: a
//! simulator finds it from the rest of the system, up to Fs
//! (see [`crate::model::Family::SetValued`]).
//!
//! # Sources
//! Olsson 1996, eqs. 2.5-2.6 and Fig. 2.10; A. Morin, 1833 (stiction);
//! Armstrong-Hélouvry, Dupont, Canudas de Wit, "A survey of models, analysis
//! tools and compensation methods for the control of machines with
//! friction", Automatica 30(7), 1994.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};
use crate::registry::AnyModel;

/// Static description of `classical`.
pub static INFO: ModelInfo = ModelInfo {
    id: "classical",
    summary: "classical model: stiction Fs at rest plus any sliding curve given as an inner static model",
    family: Family::SetValued,
    equations: "F = Fv(v)                      for v != 0 (Fv: the sliding curve, the inner model `sliding`)
F = Fe                         for v == 0 and |Fe| < Fs (Fe: the external force, set by the system)
F = Fs sign(Fe)                for v == 0 and |Fe| >= Fs
Fs >= Fv(0+); if absent, Fs = the inner model's maximum static force, else Fv(0+)",
    params: &[
        ParamSpec {
            name: "sliding",
            symbol: "Fv(v)",
            unit: "N",
            kind: ParamKind::Model { default: "coulomb_viscous" },
            doc: "sliding curve: a static or set-valued model { model = \"ID\", params = { ... } }",
        },
        ParamSpec {
            name: "fs",
            symbol: "Fs",
            unit: "N",
            kind: ParamKind::OptionalReal { range: Range::NON_NEGATIVE },
            doc: "maximum static force (>= the sliding force at v -> 0+)",
        },
    ],
    states: "none",
    sources:
        "Olsson 1996 eqs. 2.5-2.6, Fig. 2.10; Morin 1833; Armstrong-Hélouvry, Dupont, Canudas de Wit 1994",
};

/// Parameters of [`Classical`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClassicalParams {
    /// Id of the inner sliding-curve model.
    pub sliding: String,
    /// Parameters of the inner model.
    pub sliding_params: ParamMap,
    /// Maximum static force `Fs` \[N\]; `None`: the inner model's maximum
    /// static force, or its sliding force at v -> 0+.
    pub fs: Option<f64>,
}

impl Default for ClassicalParams {
    fn default() -> Self {
        ClassicalParams { sliding: "coulomb_viscous".into(), sliding_params: ParamMap::new(), fs: None }
    }
}

impl ClassicalParams {
    /// Build the inner model and check that it is a sliding curve (a static
    /// or set-valued model without state, memory or stick band).
    fn build_inner(&self) -> Result<AnyModel, ModelError> {
        let inner = crate::registry::build(&self.sliding, &self.sliding_params)?;
        let info = inner.info();
        let family_ok = matches!(info.family, Family::StaticMap | Family::SetValued);
        if !family_ok || inner.n_states() > 0 || inner.n_memory() > 0 || inner.stick_band() > 0.0 {
            let what =
                if family_ok { "with a stick band".to_string() } else { info.family.name().to_string() };
            return Err(ModelError::WrongType {
                model: INFO.id,
                name: "sliding".into(),
                expected: "a sliding curve F(v): a static map or set-valued model without stick band".into(),
                found: format!("model `{}` ({what})", info.id),
            });
        }
        Ok(inner)
    }

    /// Check `fs`, build and check the inner model, and check `Fs >= Fv(0+)`.
    pub fn validate(&self) -> Result<(), ModelError> {
        self.resolve().map(|_| ())
    }

    /// The validated inner model and the resolved maximum static force.
    fn resolve(&self) -> Result<(AnyModel, f64), ModelError> {
        if let Some(fs) = self.fs {
            check(&INFO, "fs", fs)?;
        }
        let inner = self.build_inner()?;
        let at = |v: f64| inner.force(&Input::new(0.0, 0.0, v), &[], &[]);
        // the sliding force at v -> 0+ (and its mirror at 0-): smallest positive velocity
        let f0 = at(f64::MIN_POSITIVE).max(-at(-f64::MIN_POSITIVE));
        let fs = match self.fs {
            Some(fs) if fs < f0 => {
                return Err(ModelError::Constraint {
                    model: INFO.id,
                    name: "fs",
                    value: fs,
                    message: format!(
                        "must be >= the sliding force at v -> 0+ of the inner model `{}`, {f0}",
                        self.sliding
                    ),
                })
            }
            Some(fs) => fs,
            None => inner.max_static(&[], &[]).unwrap_or(f0),
        };
        Ok((inner, fs))
    }
}

/// A classical friction model with an arbitrary sliding curve (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, ParamMap, ParamValue};
/// use friction_models::models::classical::Classical;
/// let mut inner = ParamMap::new();
/// inner.insert("model".into(), ParamValue::Str("power_viscous".into()));
/// let mut p = ParamMap::new();
/// p.insert("sliding".into(), ParamValue::Table(inner));
/// p.insert("fs".into(), ParamValue::Num(0.3));
/// let m = Classical::from_params(&p).unwrap();
/// // sliding: the inner curve (kv |v|, defaults); at rest: up to Fs
/// assert_eq!(m.force(&Input::new(0.0, 0.0, -2.0), &[], &[]), -2.0);
/// assert_eq!(m.max_static(&[], &[]), Some(0.3));
/// ```
#[derive(Debug, Clone)]
pub struct Classical {
    p: ClassicalParams,
    inner: Box<AnyModel>,
    fs: f64,
}

impl Classical {
    /// A validated model.
    pub fn new(p: ClassicalParams) -> Result<Self, ModelError> {
        let (inner, fs) = p.resolve()?;
        Ok(Classical { p, inner: Box::new(inner), fs })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let (sliding, sliding_params) = r.model_table("sliding")?;
        let p = ClassicalParams { sliding, sliding_params, fs: r.optional_real("fs")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &ClassicalParams {
        &self.p
    }

    /// The inner sliding-curve model.
    pub fn sliding(&self) -> &AnyModel {
        &self.inner
    }
}

impl FrictionModel for Classical {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        if inp.v == 0.0 {
            0.0
        } else {
            self.inner.force(inp, &[], &[])
        }
    }

    /// F = Fv(v), the inner sliding curve, for v ≠ 0: its partials; at v = 0
    /// (the set-valued stick) ∂F/∂v = 0. ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        if inp.v == 0.0 {
            p.df_dx = 0.0;
            p.df_dv = 0.0;
        } else {
            // the inner model has no states either: `p` is sized for it
            self.inner.partials(inp, &[], &[], p);
        }
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.fs)
    }

    fn is_stiff(&self) -> bool {
        self.inner.is_stiff()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValue;

    fn table(id: &str, params: &[(&str, f64)]) -> ParamValue {
        let mut t = ParamMap::new();
        t.insert("model".into(), ParamValue::Str(id.into()));
        let p: ParamMap = params.iter().map(|(k, v)| (k.to_string(), ParamValue::Num(*v))).collect();
        t.insert("params".into(), ParamValue::Table(p));
        ParamValue::Table(t)
    }

    fn build(sliding: Option<ParamValue>, fs: Option<f64>) -> Result<Classical, ModelError> {
        let mut p = ParamMap::new();
        if let Some(s) = sliding {
            p.insert("sliding".into(), s);
        }
        if let Some(fs) = fs {
            p.insert("fs".into(), ParamValue::Num(fs));
        }
        Classical::from_params(&p)
    }

    fn f(m: &dyn FrictionModel, v: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, v), &[], &[])
    }

    /// The default is Coulomb plus viscous (fc = 1, kv = 1) with Fs = Fc.
    #[test]
    fn default_is_coulomb_viscous() {
        let m = build(None, None).unwrap();
        assert_eq!(m.sliding().info().id, "coulomb_viscous");
        for v in [1e-9, 0.5, 3.0] {
            assert!((f(&m, v) - (1.0 + v)).abs() < 1e-15);
            assert_eq!(f(&m, -v), -f(&m, v));
        }
        assert_eq!(f(&m, 0.0), 0.0);
        assert_eq!(m.max_static(&[], &[]), Some(1.0));
    }

    /// With a Stribeck sliding curve the force for v != 0 is exactly the
    /// inner curve (Olsson 2.6), the stiction level is the given Fs, and an
    /// absent Fs falls back to the curve's own static level.
    #[test]
    fn stribeck_sliding_curve_with_larger_stiction() {
        let curve = table("stribeck", &[("fc", 1.0), ("fs", 1.4), ("vs", 0.01), ("kv", 0.2)]);
        let m = build(Some(curve.clone()), Some(2.0)).unwrap();
        let s = crate::registry::build("stribeck", &{
            let ParamValue::Table(t) = &curve else { unreachable!() };
            let Some(ParamValue::Table(p)) = t.get("params") else { unreachable!() };
            p.clone()
        })
        .unwrap();
        for v in [1e-6, 0.005, 0.01, 0.1, 5.0] {
            assert_eq!(f(&m, v), f(&s, v));
            assert_eq!(f(&m, -v), -f(&m, v));
        }
        assert!((f(&m, 1e-12) - 1.4).abs() < 1e-9, "continuous sliding from 0+: {}", f(&m, 1e-12));
        assert_eq!(m.max_static(&[], &[]), Some(2.0));
        assert_eq!(build(Some(curve.clone()), None).unwrap().max_static(&[], &[]), Some(1.4));
        // a smooth map as sliding curve: F(0+) = 0, so any Fs >= 0 is valid
        let smooth = build(Some(table("coulomb_tanh", &[("ktanh", 50.0)])), Some(0.5)).unwrap();
        assert!((f(&smooth, 0.01) - (0.5f64).tanh()).abs() < 1e-15);
        assert_eq!(f(&smooth, 0.0), 0.0);
        assert_eq!(smooth.max_static(&[], &[]), Some(0.5));
    }

    /// Fs below the sliding force at 0+ is refused (it would make the contact
    /// stick at a force it cannot hold while sliding slowly).
    #[test]
    fn stiction_below_the_sliding_curve_at_rest_is_refused() {
        let curve = table("stribeck", &[("fc", 1.0), ("fs", 1.4)]);
        let e = build(Some(curve), Some(1.2)).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
        let e = build(None, Some(0.5)).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
    }

    /// Inner models that are not sliding curves, unknown ids and bad inner
    /// parameters are refused.
    #[test]
    fn inner_models_that_are_not_sliding_curves_are_refused() {
        for id in ["dahl", "maxwell_slip", "karnopp"] {
            let e = build(Some(ParamValue::Str(id.into())), None).unwrap_err();
            if id == "maxwell_slip" {
                // it needs elements; with them it is still refused for its family
                let mut t = ParamMap::new();
                t.insert("model".into(), ParamValue::Str(id.into()));
                let row = ParamValue::List(vec![ParamValue::Num(1e4), ParamValue::Num(1.0)]);
                let mut p = ParamMap::new();
                p.insert("elements".into(), ParamValue::List(vec![row]));
                t.insert("params".into(), ParamValue::Table(p));
                let e = build(Some(ParamValue::Table(t)), None).unwrap_err();
                assert!(matches!(e, ModelError::WrongType { ref name, .. } if name == "sliding"), "{e}");
            } else {
                assert!(
                    matches!(e, ModelError::WrongType { ref name, .. } if name == "sliding"),
                    "{id}: {e}"
                );
                assert!(e.to_string().contains(id), "{e}");
            }
        }
        let e = build(Some(ParamValue::Str("no_such_model".into())), None).unwrap_err();
        assert!(matches!(e, ModelError::UnknownModel { .. }), "{e}");
        let e = build(Some(table("stribeck", &[("fc", -1.0)])), None).unwrap_err();
        assert!(e.to_string().contains("fc"), "{e}");
    }
}
