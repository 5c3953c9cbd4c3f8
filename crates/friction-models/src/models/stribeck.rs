//! `stribeck`: the Stribeck curve, set-valued at rest: friction falls
//! continuously from the static level Fs to the Coulomb level Fc as the
//! sliding speed grows, plus viscous friction.
//!
//! # Equations
//! ```text
//! F = (Fc + (Fs - Fc) φ(v)) sign(v) + kv v     for v != 0
//! F in [-Fs, Fs]                               for v == 0 (set by the rest of the system)
//! φ(v) = exp(-(|v|/vs)^i) (shape = "exponential"); other shapes: see friction_models::shape
//! F -> Fs as v -> 0+; F -> Fc + kv v for |v| >> vs
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | Fs | `fs` | N | [0, inf) | 1.5 | maximum static force, the sliding force at v -> 0+ (>= fc) |
//! | vs | `vs` | m/s | (0, inf) | 0.01 | Stribeck velocity |
//! | kv | `kv` | N s/m | [0, inf) | 0 | viscous friction coefficient |
//! | φ | `shape` | - | exponential | tustin | gaussian | lorentzian | two_exponential | "exponential" | Stribeck curve shape (see friction_models::shape) |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | vs2 | `vs2` | m/s | (0, inf) | 0.01 | second Stribeck velocity (two_exponential shape) |
//! | w | `shape_weight` | - | [0, 1] | 0.5 | weight of the first exponential (two_exponential shape) |
//!
//! The shapes (from [`crate::shape`]): `exponential` exp(-|v/vs|^i) with the
//! exponent i of Andersson, Söderberg, Björklund 2007 eq. 10; `tustin` i = 1; `gaussian` i = 2;
//! `lorentzian` 1/(1 + (v/vs)^2); `two_exponential`
//! w exp(-|v/vs|) + (1 - w) exp(-|v/vs2|).
//!
//! # States
//! None. While stuck the force is not a function of the model's inputs: a
//! simulator finds it from the rest of the system, up to Fs
//! (see [`crate::model::Family::SetValued`]).
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eq. 10; Olsson 1996, eqs. 2.6-2.7
//! and the parameterisations after them (Tustin 1947, Bo and Pavelescu 1982,
//! Armstrong-Hélouvry 1991); R. Stribeck, "Die wesentlichen Eigenschaften der
//! Gleit- und Rollenlager", Z. VDI 46, 1902.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};
use crate::shape::{self, StribeckShape};

/// Static description of `stribeck`.
pub static INFO: ModelInfo = ModelInfo {
    id: "stribeck",
    summary: "Stribeck curve (Fc + (Fs - Fc) φ(v)) sign(v) + kv v, set-valued at rest with stiction Fs",
    family: Family::SetValued,
    equations: "F = (Fc + (Fs - Fc) φ(v)) sign(v) + kv v     for v != 0
F in [-Fs, Fs]                               for v == 0 (set by the rest of the system)
φ(v) = exp(-(|v|/vs)^i) (shape = \"exponential\"); other shapes: see friction_models::shape
F -> Fs as v -> 0+; F -> Fc + kv v for |v| >> vs",
    params: &[
        FC,
        FS,
        VS,
        KV,
        shape::SHAPE,
        shape::EXPONENT,
        shape::VS2,
        shape::WEIGHT,
    ],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eq. 10; Olsson 1996 eqs. 2.6-2.7; Stribeck 1902; Armstrong-Hélouvry 1991",
};

/// Spec of `fc` for `stribeck`, `stribeck_sat` and `stribeck_tanh`.
pub const FC: ParamSpec =
    ParamSpec::real("fc", "Fc", "N", 1.0, Range::NON_NEGATIVE, "Coulomb (kinetic) friction force");

/// Spec of `fs` for the Stribeck-type models (the force at v -> 0+).
pub const FS: ParamSpec = ParamSpec::real(
    "fs",
    "Fs",
    "N",
    1.5,
    Range::NON_NEGATIVE,
    "maximum static force, the sliding force at v -> 0+ (>= fc)",
);

/// Spec of `vs`, the Stribeck velocity, for the Stribeck-type models.
pub const VS: ParamSpec = ParamSpec::real("vs", "vs", "m/s", 0.01, Range::POSITIVE, "Stribeck velocity");

/// Spec of `kv` for `stribeck`, `stribeck_sat` and `stribeck_tanh`.
pub const KV: ParamSpec =
    ParamSpec::real("kv", "kv", "N s/m", 0.0, Range::NON_NEGATIVE, "viscous friction coefficient");

/// Check the Stribeck curve parameters shared by `stribeck`, `stribeck_sat`
/// and `stribeck_tanh` (whose tables all declare `fc`, `fs`, `vs` and the
/// shape parameters): ranges and `fs >= fc`.
pub fn validate_curve(
    info: &'static ModelInfo,
    fc: f64,
    fs: f64,
    vs: f64,
    shape: &StribeckShape,
) -> Result<(), ModelError> {
    check(info, "fc", fc)?;
    check(info, "fs", fs)?;
    check(info, "vs", vs)?;
    match *shape {
        StribeckShape::Exponential { exponent } => check(info, "exponent", exponent)?,
        StribeckShape::Lorentzian => {}
        StribeckShape::TwoExponential { vs2, weight } => {
            check(info, "vs2", vs2)?;
            check(info, "shape_weight", weight)?;
        }
    }
    if fs < fc {
        return Err(ModelError::Constraint {
            model: info.id,
            name: "fs",
            value: fs,
            message: format!("must be >= fc = {fc}"),
        });
    }
    Ok(())
}

/// Parameters of [`Stribeck`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Maximum static force `Fs` \[N\] (>= `fc`).
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
    /// Shape φ of the Stribeck curve.
    pub shape: StribeckShape,
}

impl Default for StribeckParams {
    fn default() -> Self {
        StribeckParams {
            fc: 1.0,
            fs: 1.5,
            vs: 0.01,
            kv: 0.0,
            shape: StribeckShape::Exponential { exponent: 2.0 },
        }
    }
}

impl StribeckParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        validate_curve(&INFO, self.fc, self.fs, self.vs, &self.shape)?;
        check(&INFO, "kv", self.kv)
    }

    /// The magnitude of the dry part of the sliding force,
    /// `Fc + (Fs - Fc) φ(v)` \[N\] (no viscous part, no sign).
    #[inline]
    pub fn level(&self, v: f64) -> f64 {
        self.shape.level(self.fc, self.fs, self.vs, v)
    }

    /// d/dv of [`StribeckParams::level`], `(Fs - Fc) φ'(v)` [N s/m].
    #[inline]
    pub fn dlevel(&self, v: f64) -> f64 {
        self.shape.dlevel(self.fc, self.fs, self.vs, v)
    }
}

/// The Stribeck model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, shape::StribeckShape};
/// use friction_models::models::stribeck::{Stribeck, StribeckParams};
/// let p = StribeckParams { fc: 1.0, fs: 2.0, vs: 0.1, kv: 0.0, shape: StribeckShape::Lorentzian };
/// let m = Stribeck::new(p).unwrap();
/// // at v = vs the Lorentzian shape is 1/2: F = Fc + (Fs - Fc)/2
/// assert!((m.force(&Input::new(0.0, 0.0, 0.1), &[], &[]) - 1.5).abs() < 1e-12);
/// assert_eq!(m.max_static(&[], &[]), Some(2.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stribeck {
    p: StribeckParams,
}

impl Stribeck {
    /// A validated model.
    pub fn new(p: StribeckParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Stribeck { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = StribeckParams {
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            vs: r.real("vs")?,
            kv: r.real("kv")?,
            shape: StribeckShape::read(&r)?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &StribeckParams {
        &self.p
    }
}

impl FrictionModel for Stribeck {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        if inp.v == 0.0 {
            return 0.0;
        }
        self.p.level(inp.v) * sign(inp.v) + self.p.kv * inp.v
    }

    /// F = (Fc + (Fs - Fc) φ(v)) sign(v) + kv v: ∂F/∂v = (Fs - Fc) φ'(v) sign(v) + kv
    /// for v ≠ 0, 0 at v = 0 (the set-valued stick); ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let v = inp.v;
        p.df_dx = 0.0;
        p.df_dv = if v == 0.0 { 0.0 } else { self.p.dlevel(v) * sign(v) + self.p.kv };
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.p.fs)
    }

    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValue;
    use std::f64::consts::E;

    fn build(pairs: &[(&str, ParamValue)]) -> Result<Stribeck, ModelError> {
        let p: ParamMap = pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        Stribeck::from_params(&p)
    }

    fn f(m: &Stribeck, v: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, v), &[], &[])
    }

    /// The sliding force starts at Fs at v -> 0+ (the stiction level, equal
    /// to max_static) and tends to Fc + kv v once v >> vs.
    #[test]
    fn starts_at_fs_and_tends_to_coulomb_plus_viscous() {
        let (fc, fs, vs, kv) = (1.0, 1.8, 0.02, 0.5);
        for shape in ["exponential", "tustin", "gaussian", "lorentzian", "two_exponential"] {
            let m = build(&[
                ("fc", fc.into()),
                ("fs", fs.into()),
                ("vs", vs.into()),
                ("kv", kv.into()),
                ("shape", shape.into()),
                ("vs2", 0.05.into()),
            ])
            .unwrap();
            assert!((f(&m, 1e-12) - fs).abs() < 1e-9, "{shape}: F(0+) = {}", f(&m, 1e-12));
            assert_eq!(m.max_static(&[], &[]), Some(fs));
            // far beyond both Stribeck velocities the dry part is Fc (Lorentzian decays
            // slowest: (Fs - Fc) (vs/v)^2 = 0.8 * 4e-8 at v = 100)
            let v = 100.0;
            assert!((f(&m, v) - (fc + kv * v)).abs() < 1e-7, "{shape}: F({v}) = {}", f(&m, v));
            assert_eq!(f(&m, 0.0), 0.0);
        }
    }

    /// The value of each shape at v = vs (and at 2 vs for the exponential,
    /// where the exponent matters) against the closed form of its definition:
    /// exp(-1) for every exponent at vs, exp(-2^i) at 2 vs, 1/2 for the
    /// Lorentzian, w/e + (1 - w) exp(-vs/vs2) for two exponentials.
    #[test]
    fn each_shape_at_the_stribeck_velocity_matches_its_definition() {
        let (fc, fs, vs) = (1.0, 3.0, 0.01);
        let dry = |phi: f64| fc + (fs - fc) * phi;
        // (extra parameters, velocity, φ at that velocity from the definition)
        type Case<'a> = (Vec<(&'a str, ParamValue)>, f64, f64);
        let cases: Vec<Case> = vec![
            (vec![("shape", "tustin".into())], vs, 1.0 / E),
            (vec![("shape", "tustin".into())], 2.0 * vs, (-2.0f64).exp()),
            (vec![("shape", "gaussian".into())], vs, 1.0 / E),
            (vec![("shape", "gaussian".into())], 2.0 * vs, (-4.0f64).exp()),
            (vec![("shape", "exponential".into()), ("exponent", 0.5.into())], vs, 1.0 / E),
            (
                vec![("shape", "exponential".into()), ("exponent", 0.5.into())],
                2.0 * vs,
                (-(2f64.sqrt())).exp(),
            ),
            (vec![("shape", "exponential".into()), ("exponent", 3.0.into())], 2.0 * vs, (-8.0f64).exp()),
            (vec![("shape", "lorentzian".into())], vs, 0.5),
            (vec![("shape", "lorentzian".into())], 3.0 * vs, 0.1),
            (
                vec![("shape", "two_exponential".into()), ("vs2", 0.04.into()), ("shape_weight", 0.3.into())],
                vs,
                0.3 / E + 0.7 * (-0.25f64).exp(),
            ),
        ];
        for (extra, v, phi) in cases {
            let mut pairs = vec![("fc", fc.into()), ("fs", fs.into()), ("vs", vs.into())];
            pairs.extend(extra.iter().cloned());
            let m = build(&pairs).unwrap();
            assert!(
                (f(&m, v) - dry(phi)).abs() < 1e-12,
                "{extra:?} at v = {v}: {} vs {}",
                f(&m, v),
                dry(phi)
            );
            assert!((f(&m, -v) + dry(phi)).abs() < 1e-12, "{extra:?} at v = -{v}");
        }
    }

    /// Without viscous friction the sliding force falls monotonically from Fs to Fc.
    #[test]
    fn falls_monotonically_between_fs_and_fc() {
        let m = Stribeck::new(StribeckParams { kv: 0.0, ..Default::default() }).unwrap();
        let mut last = f64::INFINITY;
        for k in 0..400 {
            let v = 1e-6 * 1.05f64.powi(k);
            let x = f(&m, v);
            assert!(x <= last && (1.0..=1.5).contains(&x), "v = {v}: {x}");
            last = x;
        }
    }

    #[test]
    fn stiction_below_kinetic_is_refused() {
        let e = build(&[("fc", 2.0.into()), ("fs", 1.0.into())]).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
        let e = build(&[("shape", "cubic".into())]).unwrap_err();
        assert!(e.to_string().contains("shape"), "{e}");
    }
}
