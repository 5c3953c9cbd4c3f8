//! `stribeck_tanh`: the Stribeck curve with the sign function replaced by a
//! hyperbolic tangent (the "combined Stribeck and tanh" model of Andersson et
//! al.): a smooth static map without stick.
//!
//! # Equations
//! ```text
//! F = (Fc + (Fs - Fc) φ(v)) tanh(ktanh v) + kv v
//! φ(v) = exp(-(|v|/vs)^i) (shape = "exponential"); other shapes: see friction_models::shape
//! tends to the `stribeck` sliding curve as ktanh -> inf (v != 0); F(0) = 0, slope at rest Fs ktanh + kv
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | Fs | `fs` | N | [0, inf) | 1.5 | maximum static force, the sliding force at v -> 0+ (>= fc) |
//! | vs | `vs` | m/s | (0, inf) | 0.01 | Stribeck velocity |
//! | ktanh | `ktanh` | s/m | (0, inf) | 1000 | steepness of the tanh at v = 0 |
//! | kv | `kv` | N s/m | [0, inf) | 0 | viscous friction coefficient |
//! | φ | `shape` | - | exponential | tustin | gaussian | lorentzian | two_exponential | "exponential" | Stribeck curve shape (see friction_models::shape) |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | vs2 | `vs2` | m/s | (0, inf) | 0.01 | second Stribeck velocity (two_exponential shape) |
//! | w | `shape_weight` | - | [0, 1] | 0.5 | weight of the first exponential (two_exponential shape) |
//!
//! The shapes are those of [`crate::shape`], as for `stribeck`.
//!
//! # States
//! None. A smooth static map with F(0) = 0: no stick, a body under a force
//! below Fs creeps. Reports itself stiff when the slope at rest
//! Fs ktanh + kv exceeds [`super::coulomb_sat::STIFF_SLOPE`].
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eq. 12 and Table 1 (ktanh = 1000 s/m).

use super::regularised::{Regularised, Smoothing};
use super::stribeck::{FC, FS, KV, VS};
use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{ParamMap, ParamSpec, Range};
use crate::shape::{self, StribeckShape};

/// Static description of `stribeck_tanh`.
pub static INFO: ModelInfo = ModelInfo {
    id: "stribeck_tanh",
    summary: "Stribeck curve regularised by a tanh, (Fc + (Fs - Fc) φ(v)) tanh(ktanh v) + kv v",
    family: Family::StaticMap,
    equations: "F = (Fc + (Fs - Fc) φ(v)) tanh(ktanh v) + kv v
φ(v) = exp(-(|v|/vs)^i) (shape = \"exponential\"); other shapes: see friction_models::shape
tends to the `stribeck` sliding curve as ktanh -> inf (v != 0); F(0) = 0, slope at rest Fs ktanh + kv",
    params: &[
        FC,
        FS,
        VS,
        ParamSpec::real("ktanh", "ktanh", "s/m", 1000.0, Range::POSITIVE, "steepness of the tanh at v = 0"),
        KV,
        shape::SHAPE,
        shape::EXPONENT,
        shape::VS2,
        shape::WEIGHT,
    ],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eq. 12, Table 1",
};

/// Parameters of [`StribeckTanh`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckTanhParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Static level `Fs` \[N\] (>= `fc`), the force at v -> 0+ in the limit ktanh -> inf.
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Steepness `ktanh` [s/m].
    pub ktanh: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
    /// Shape φ of the Stribeck curve.
    pub shape: StribeckShape,
}

impl Default for StribeckTanhParams {
    fn default() -> Self {
        StribeckTanhParams {
            fc: 1.0,
            fs: 1.5,
            vs: 0.01,
            ktanh: 1000.0,
            kv: 0.0,
            shape: StribeckShape::Exponential { exponent: 2.0 },
        }
    }
}

impl StribeckTanhParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        self.curve().validate(&INFO)
    }

    /// The curve with the gain `ktanh` as `k`.
    fn curve(&self) -> Regularised {
        let (fc, fs, vs, k, kv, shape) = (self.fc, self.fs, self.vs, self.ktanh, self.kv, self.shape);
        Regularised { fc, fs, vs, k, kv, shape, smoothing: Smoothing::Tanh }
    }
}

/// Tanh-regularised Stribeck friction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::stribeck_tanh::{StribeckTanh, StribeckTanhParams};
/// let m = StribeckTanh::new(StribeckTanhParams::default()).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 0.0), &[], &[]), 0.0);
/// // well above vs the force is the Coulomb level
/// assert!((m.force(&Input::new(0.0, 0.0, 1.0), &[], &[]) - 1.0).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckTanh {
    p: StribeckTanhParams,
}

impl StribeckTanh {
    /// A validated model.
    pub fn new(p: StribeckTanhParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(StribeckTanh { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let c = Regularised::read(&INFO, values, Smoothing::Tanh)?;
        Self::new(StribeckTanhParams { fc: c.fc, fs: c.fs, vs: c.vs, ktanh: c.k, kv: c.kv, shape: c.shape })
    }

    /// The parameters.
    pub fn params(&self) -> &StribeckTanhParams {
        &self.p
    }

    /// Slope dF/dv at rest, `Fs ktanh + kv` [N s/m].
    pub fn slope_at_rest(&self) -> f64 {
        self.p.curve().slope_at_rest()
    }
}

impl FrictionModel for StribeckTanh {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        self.p.curve().force(inp.v)
    }

    /// F = g(v) tanh(ktanh v) + kv v with g = Fc + (Fs - Fc) φ:
    /// ∂F/∂v = g' tanh(ktanh v) + g ktanh (1 - tanh²(ktanh v)) + kv; ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = self.p.curve().df_dv(inp.v);
    }

    fn is_stiff(&self) -> bool {
        self.p.curve().is_stiff()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::stribeck::{Stribeck, StribeckParams};

    fn f(m: &dyn FrictionModel, v: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, v), &[], &[])
    }

    /// As ktanh grows the map tends to the set-valued `stribeck` sliding
    /// curve at every v != 0, monotonically in ktanh.
    #[test]
    fn tends_to_the_stribeck_curve_as_ktanh_grows() {
        let (fc, fs, vs, kv) = (1.0, 2.0, 0.01, 0.2);
        let shape = StribeckShape::Lorentzian;
        let s = Stribeck::new(StribeckParams { fc, fs, vs, kv, shape }).unwrap();
        let mut last = f64::INFINITY;
        for ktanh in [1e2, 1e3, 1e4, 1e5, 1e6] {
            let m = StribeckTanh::new(StribeckTanhParams { fc, fs, vs, ktanh, kv, shape }).unwrap();
            let mut worst: f64 = 0.0;
            for v in [2e-4, -2e-4, 1e-3, 5e-3, -0.01, 0.1, -1.0] {
                worst = worst.max((f(&m, v) - f(&s, v)).abs());
            }
            assert!(worst < last || worst == 0.0, "ktanh {ktanh}: {worst} not below {last}");
            last = worst;
        }
        assert!(last < 1e-12, "{last}");
    }

    /// Odd in v and with slope Fs ktanh + kv at rest (the static level, not Fc).
    #[test]
    fn odd_with_static_slope_at_rest() {
        let m = StribeckTanh::new(StribeckTanhParams { ktanh: 30.0, kv: 0.5, ..Default::default() }).unwrap();
        for v in [1e-5, 3e-3, 0.05, 4.0] {
            assert_eq!(f(&m, -v), -f(&m, v));
        }
        let h = 1e-8;
        let num = (f(&m, h) - f(&m, -h)) / (2.0 * h);
        assert!((num - (1.5 * 30.0 + 0.5)).abs() < 1e-5, "{num}");
        assert!(!m.is_stiff());
        assert!(StribeckTanh::new(StribeckTanhParams::default()).unwrap().is_stiff());
    }

    #[test]
    fn stiction_below_kinetic_is_refused() {
        let e = StribeckTanh::new(StribeckTanhParams { fc: 2.0, fs: 1.0, ..Default::default() }).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
    }
}
