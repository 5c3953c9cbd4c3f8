//! `coulomb_tanh`: Coulomb friction regularised by a hyperbolic tangent
//! (the "combined Coulomb and tanh" model of Andersson et al.), plus an
//! optional viscous term.
//!
//! # Equations
//! ```text
//! F = Fc tanh(ktanh v) + kv v
//! |F - Fc sign(v) - kv v| <= 2 Fc exp(-2 ktanh |v|): Coulomb as ktanh -> inf, v != 0
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | ktanh | `ktanh` | s/m | (0, inf) | 1000 | steepness of the tanh at v = 0 |
//! | kv | `kv` | N s/m | [0, inf) | 0 | viscous friction coefficient |
//!
//! # States
//! None. A smooth static map with F(0) = 0 and no stick (a body under a force
//! below Fc creeps). The slope at rest is Fc ktanh + kv; the model reports
//! itself stiff when that exceeds [`super::coulomb_sat::STIFF_SLOPE`].
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eq. 9 and Table 1 (ktanh = 1000 s/m).

use super::coulomb_sat::STIFF_SLOPE;
use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `coulomb_tanh`.
pub static INFO: ModelInfo = ModelInfo {
    id: "coulomb_tanh",
    summary: "Coulomb friction regularised by a tanh, Fc tanh(ktanh v), plus optional viscous kv v",
    family: Family::StaticMap,
    equations: "F = Fc tanh(ktanh v) + kv v
|F - Fc sign(v) - kv v| <= 2 Fc exp(-2 ktanh |v|): Coulomb as ktanh -> inf, v != 0",
    params: &[
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::NON_NEGATIVE, "Coulomb (kinetic) friction force"),
        ParamSpec::real("ktanh", "ktanh", "s/m", 1000.0, Range::POSITIVE, "steepness of the tanh at v = 0"),
        ParamSpec::real("kv", "kv", "N s/m", 0.0, Range::NON_NEGATIVE, "viscous friction coefficient"),
    ],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eq. 9, Table 1",
};

/// Parameters of [`CoulombTanh`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoulombTanhParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Steepness `ktanh` [s/m].
    pub ktanh: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
}

impl Default for CoulombTanhParams {
    fn default() -> Self {
        CoulombTanhParams { fc: 1.0, ktanh: 1000.0, kv: 0.0 }
    }
}

impl CoulombTanhParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "ktanh", self.ktanh)?;
        check(&INFO, "kv", self.kv)
    }
}

/// Tanh-regularised Coulomb friction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::coulomb_tanh::{CoulombTanh, CoulombTanhParams};
/// let m = CoulombTanh::new(CoulombTanhParams { fc: 2.0, ktanh: 1000.0, kv: 0.0 }).unwrap();
/// assert!((m.force(&Input::new(0.0, 0.0, 0.1), &[], &[]) - 2.0).abs() < 1e-12);
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 0.0), &[], &[]), 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoulombTanh {
    p: CoulombTanhParams,
}

impl CoulombTanh {
    /// A validated model.
    pub fn new(p: CoulombTanhParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(CoulombTanh { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = CoulombTanhParams { fc: r.real("fc")?, ktanh: r.real("ktanh")?, kv: r.real("kv")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &CoulombTanhParams {
        &self.p
    }

    /// Slope dF/dv at rest, `Fc ktanh + kv` [N s/m].
    pub fn slope_at_rest(&self) -> f64 {
        self.p.fc * self.p.ktanh + self.p.kv
    }
}

impl FrictionModel for CoulombTanh {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        self.p.fc * (self.p.ktanh * inp.v).tanh() + self.p.kv * inp.v
    }

    /// F = Fc tanh(ktanh v) + kv v: ∂F/∂v = Fc ktanh (1 - tanh²(ktanh v)) + kv, ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let t = (self.p.ktanh * inp.v).tanh();
        p.df_dx = 0.0;
        p.df_dv = self.p.fc * self.p.ktanh * (1.0 - t * t) + self.p.kv;
    }

    fn is_stiff(&self) -> bool {
        self.slope_at_rest() > STIFF_SLOPE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::coulomb_viscous::{CoulombViscous, CoulombViscousParams};

    /// As ktanh grows the map tends to Coulomb (here Coulomb + viscous, the
    /// sliding curve of `coulomb_viscous`) at every fixed v != 0, and the
    /// error at v = 1 mm/s shrinks from order Fc to nothing.
    #[test]
    fn tends_to_coulomb_as_ktanh_grows() {
        let (fc, kv) = (1.5, 0.4);
        let coulomb = CoulombViscous::new(CoulombViscousParams { fc, kv, fs: None }).unwrap();
        let at = |m: &dyn FrictionModel, v: f64| m.force(&Input::new(0.0, 0.0, v), &[], &[]);
        let mut last_err = f64::INFINITY;
        for ktanh in [10.0, 100.0, 1e3, 1e4, 1e5] {
            let m = CoulombTanh::new(CoulombTanhParams { fc, ktanh, kv }).unwrap();
            let mut worst: f64 = 0.0;
            for v in [1e-3, -1e-3, 0.01, -0.02, 0.5, -3.0] {
                worst = worst.max((at(&m, v) - at(&coulomb, v)).abs());
            }
            assert!(worst < last_err || worst == 0.0, "ktanh {ktanh}: {worst} not below {last_err}");
            last_err = worst;
        }
        assert!(last_err < 1e-12, "still {last_err} away from Coulomb at ktanh = 1e5");
        // ktanh = 10 is far from Coulomb at v = 1 mm/s: F is only ~1% of Fc there
        let soft = CoulombTanh::new(CoulombTanhParams { fc, ktanh: 10.0, kv }).unwrap();
        assert!(at(&soft, 1e-3) < 0.1 * fc);
    }

    /// Odd in v, bounded by Fc + kv |v|, slope Fc ktanh + kv at rest.
    #[test]
    fn odd_bounded_and_slope_at_rest() {
        let m = CoulombTanh::new(CoulombTanhParams { fc: 2.0, ktanh: 30.0, kv: 0.5 }).unwrap();
        let f = |v: f64| m.force(&Input::new(0.0, 0.0, v), &[], &[]);
        for v in [1e-5, 1e-2, 0.2, 10.0] {
            assert_eq!(f(-v), -f(v));
            assert!(f(v) > 0.0 && f(v) <= 2.0 + 0.5 * v);
        }
        let h = 1e-7;
        assert!(((f(h) - f(-h)) / (2.0 * h) - 60.5).abs() < 1e-5);
        assert!(!m.is_stiff());
        assert!(CoulombTanh::new(CoulombTanhParams::default()).unwrap().is_stiff());
    }
}
