//! `stribeck_sat`: the Stribeck curve with the sign function replaced by a
//! saturation (the "combined Stribeck and viscous" model of Andersson et al.):
//! a continuous static map without stick.
//!
//! # Equations
//! ```text
//! F = (Fc + (Fs - Fc) φ(v)) sat(ksat v) + kv v
//! sat(u) = min(u, 1) for u >= 0, max(u, -1) for u < 0
//! φ(v) = exp(-(|v|/vs)^i) (shape = "exponential"); other shapes: see friction_models::shape
//! |v| >= 1/ksat: F equals the `stribeck` sliding curve; F(0) = 0, slope at rest Fs ksat + kv
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | Fs | `fs` | N | [0, inf) | 1.5 | maximum static force, the sliding force at v -> 0+ (>= fc) |
//! | vs | `vs` | m/s | (0, inf) | 0.01 | Stribeck velocity |
//! | ksat | `ksat` | s/m | (0, inf) | 1000 | inverse of the half-width of the linear band |
//! | kv | `kv` | N s/m | [0, inf) | 0 | viscous friction coefficient |
//! | φ | `shape` | - | exponential | tustin | gaussian | lorentzian | two_exponential | "exponential" | Stribeck curve shape (see friction_models::shape) |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | vs2 | `vs2` | m/s | (0, inf) | 0.01 | second Stribeck velocity (two_exponential shape) |
//! | w | `shape_weight` | - | [0, 1] | 0.5 | weight of the first exponential (two_exponential shape) |
//!
//! The shapes are those of [`crate::shape`], as for `stribeck`.
//!
//! # States
//! None. A continuous static map with F(0) = 0: no stick, a body under a
//! force below Fs creeps. Reports itself stiff when the slope at rest
//! Fs ksat + kv exceeds [`super::coulomb_sat::STIFF_SLOPE`].
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eq. 11 (with eq. 7 for sat) and Table 1
//! (ksat = 1000 s/m).

use super::regularised::{Regularised, Smoothing};
use super::stribeck::{FC, FS, KV, VS};
use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{ParamMap, ParamSpec, Range};
use crate::shape::{self, StribeckShape};

/// Static description of `stribeck_sat`.
pub static INFO: ModelInfo = ModelInfo {
    id: "stribeck_sat",
    summary: "Stribeck curve regularised by a saturation, (Fc + (Fs - Fc) φ(v)) sat(ksat v) + kv v",
    family: Family::StaticMap,
    equations: "F = (Fc + (Fs - Fc) φ(v)) sat(ksat v) + kv v
sat(u) = min(u, 1) for u >= 0, max(u, -1) for u < 0
φ(v) = exp(-(|v|/vs)^i) (shape = \"exponential\"); other shapes: see friction_models::shape
|v| >= 1/ksat: F equals the `stribeck` sliding curve; F(0) = 0, slope at rest Fs ksat + kv",
    params: &[
        FC,
        FS,
        VS,
        ParamSpec::real(
            "ksat",
            "ksat",
            "s/m",
            1000.0,
            Range::POSITIVE,
            "inverse of the half-width of the linear band",
        ),
        KV,
        shape::SHAPE,
        shape::EXPONENT,
        shape::VS2,
        shape::WEIGHT,
    ],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eqs. 7, 11, Table 1",
};

/// Parameters of [`StribeckSat`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckSatParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Static level `Fs` \[N\] (>= `fc`), the force at v -> 0+.
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Saturation gain `ksat` [s/m].
    pub ksat: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
    /// Shape φ of the Stribeck curve.
    pub shape: StribeckShape,
}

impl Default for StribeckSatParams {
    fn default() -> Self {
        StribeckSatParams {
            fc: 1.0,
            fs: 1.5,
            vs: 0.01,
            ksat: 1000.0,
            kv: 0.0,
            shape: StribeckShape::Exponential { exponent: 2.0 },
        }
    }
}

impl StribeckSatParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        self.curve().validate(&INFO)
    }

    /// The curve with the gain `ksat` as `k`.
    fn curve(&self) -> Regularised {
        let (fc, fs, vs, k, kv, shape) = (self.fc, self.fs, self.vs, self.ksat, self.kv, self.shape);
        Regularised { fc, fs, vs, k, kv, shape, smoothing: Smoothing::Sat }
    }
}

/// Saturation-regularised Stribeck friction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::stribeck_sat::{StribeckSat, StribeckSatParams};
/// let m = StribeckSat::new(StribeckSatParams::default()).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 0.0), &[], &[]), 0.0);
/// // half-way through the linear band (1/ksat = 1 mm/s) the force is about Fs/2
/// assert!((m.force(&Input::new(0.0, 0.0, 5e-4), &[], &[]) - 0.75).abs() < 1e-3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckSat {
    p: StribeckSatParams,
}

impl StribeckSat {
    /// A validated model.
    pub fn new(p: StribeckSatParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(StribeckSat { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let c = Regularised::read(&INFO, values, Smoothing::Sat)?;
        Self::new(StribeckSatParams { fc: c.fc, fs: c.fs, vs: c.vs, ksat: c.k, kv: c.kv, shape: c.shape })
    }

    /// The parameters.
    pub fn params(&self) -> &StribeckSatParams {
        &self.p
    }

    /// Slope dF/dv at rest, `Fs ksat + kv` [N s/m].
    pub fn slope_at_rest(&self) -> f64 {
        self.p.curve().slope_at_rest()
    }
}

impl FrictionModel for StribeckSat {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        self.p.curve().force(inp.v)
    }

    /// F = g(v) sat(ksat v) + kv v with g = Fc + (Fs - Fc) φ:
    /// ∂F/∂v = g' sat(ksat v) + g ksat sat'(ksat v) + kv (sat' = 1 on |ksat v| <= 1, else 0); ∂F/∂x = 0.
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

    /// Outside the band |v| >= 1/ksat the map is exactly the set-valued
    /// `stribeck` sliding curve, for every shape; inside it is continuous
    /// through 0 and odd.
    #[test]
    fn equals_the_stribeck_curve_outside_the_band() {
        let shapes = [
            StribeckShape::Exponential { exponent: 0.7 },
            StribeckShape::Exponential { exponent: 2.0 },
            StribeckShape::Lorentzian,
            StribeckShape::TwoExponential { vs2: 0.1, weight: 0.4 },
        ];
        for shape in shapes {
            let (fc, fs, vs, kv, ksat) = (0.9, 1.6, 0.02, 0.3, 200.0);
            let m = StribeckSat::new(StribeckSatParams { fc, fs, vs, ksat, kv, shape }).unwrap();
            let s = Stribeck::new(StribeckParams { fc, fs, vs, kv, shape }).unwrap();
            for v in [1.0 / ksat, 0.01, 0.02, 0.1, 2.0] {
                assert!((f(&m, v) - f(&s, v)).abs() < 1e-12, "{shape:?} v = {v}");
                assert!((f(&m, -v) - f(&s, -v)).abs() < 1e-12, "{shape:?} v = -{v}");
            }
            for v in [1e-6, 1e-3, 4.9e-3] {
                assert_eq!(f(&m, -v), -f(&m, v));
                assert!(f(&m, v) > 0.0 && f(&m, v) < fs + kv * v);
            }
            assert_eq!(f(&m, 0.0), 0.0);
        }
    }

    /// Near rest the map is a straight line of slope Fs ksat + kv; the
    /// Table-1 default is therefore stiff.
    #[test]
    fn slope_at_rest_and_stiffness() {
        let m = StribeckSat::new(StribeckSatParams { ksat: 20.0, kv: 0.5, ..Default::default() }).unwrap();
        let h = 1e-7;
        let num = (f(&m, h) - f(&m, -h)) / (2.0 * h);
        assert!((num - (1.5 * 20.0 + 0.5)).abs() < 1e-5, "{num}");
        assert!(!m.is_stiff());
        assert!(StribeckSat::new(StribeckSatParams::default()).unwrap().is_stiff());
    }

    #[test]
    fn stiction_below_kinetic_is_refused() {
        let e = StribeckSat::new(StribeckSatParams { fc: 2.0, fs: 1.0, ..Default::default() }).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
    }
}
