//! `coulomb_sat`: Coulomb friction regularised by a saturation (the
//! "combined Coulomb and viscous" model of Andersson et al.), plus an optional
//! viscous term.
//!
//! # Equations
//! ```text
//! F = Fc sat(ksat v) + kv v
//! sat(u) = min(u, 1) for u >= 0, max(u, -1) for u < 0
//! |v| >= 1/ksat: F = Fc sign(v) + kv v (Coulomb); |v| < 1/ksat: F = (Fc ksat + kv) v
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | ksat | `ksat` | s/m | (0, inf) | 1000 | inverse of the half-width of the linear band |
//! | kv | `kv` | N s/m | [0, inf) | 0 | viscous friction coefficient |
//!
//! # States
//! None. A continuous static map with F(0) = 0: it has no stick, so a body
//! under a force below Fc creeps (Andersson, Söderberg, Björklund 2007, section 2.3). The slope at rest
//! is Fc ksat + kv; the model reports itself stiff when that exceeds
//! [`STIFF_SLOPE`].
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eqs. 6-8 and Table 1 (ksat = 1000 s/m).

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Slope dF/dv at rest [N s/m] above which a regularised static map is
/// reported stiff ([`FrictionModel::is_stiff`]).
///
/// A heuristic: on a 1 kg body the regularisation then has a time constant
/// m / slope below 10 ms, far below the mechanical time scales of the
/// project's test systems (Andersson, Söderberg, Björklund 2007, Table 1: m = 1 kg, k = 100 N/m, a period
/// of 0.63 s), so an explicit solver would be limited by the regularisation.
/// Shared by the regularised maps of this crate.
pub const STIFF_SLOPE: f64 = 100.0;

/// Static description of `coulomb_sat`.
pub static INFO: ModelInfo = ModelInfo {
    id: "coulomb_sat",
    summary: "Coulomb friction regularised by a saturation Fc sat(ksat v), plus optional viscous kv v",
    family: Family::StaticMap,
    equations: "F = Fc sat(ksat v) + kv v
sat(u) = min(u, 1) for u >= 0, max(u, -1) for u < 0
|v| >= 1/ksat: F = Fc sign(v) + kv v (Coulomb); |v| < 1/ksat: F = (Fc ksat + kv) v",
    params: &[
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::NON_NEGATIVE, "Coulomb (kinetic) friction force"),
        ParamSpec::real(
            "ksat",
            "ksat",
            "s/m",
            1000.0,
            Range::POSITIVE,
            "inverse of the half-width of the linear band",
        ),
        ParamSpec::real("kv", "kv", "N s/m", 0.0, Range::NON_NEGATIVE, "viscous friction coefficient"),
    ],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eqs. 6-8, Table 1",
};

/// The saturation `sat(u) = clamp(u, -1, 1)` of Andersson, Söderberg, Björklund 2007, eq. 7.
#[inline]
pub fn sat(u: f64) -> f64 {
    u.clamp(-1.0, 1.0)
}

/// d sat(u)/du: 1 on the linear band |u| <= 1 (the branch `sat` takes at
/// its ends), 0 where it saturates.
#[inline]
pub fn dsat(u: f64) -> f64 {
    if u.abs() <= 1.0 {
        1.0
    } else {
        0.0
    }
}

/// Parameters of [`CoulombSat`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoulombSatParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Saturation gain `ksat` [s/m].
    pub ksat: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
}

impl Default for CoulombSatParams {
    fn default() -> Self {
        CoulombSatParams { fc: 1.0, ksat: 1000.0, kv: 0.0 }
    }
}

impl CoulombSatParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "ksat", self.ksat)?;
        check(&INFO, "kv", self.kv)
    }
}

/// Saturation-regularised Coulomb friction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::coulomb_sat::{CoulombSat, CoulombSatParams};
/// let m = CoulombSat::new(CoulombSatParams { fc: 2.0, ksat: 100.0, kv: 0.0 }).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 0.5), &[], &[]), 2.0);
/// assert!((m.force(&Input::new(0.0, 0.0, -0.005), &[], &[]) + 1.0).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoulombSat {
    p: CoulombSatParams,
}

impl CoulombSat {
    /// A validated model.
    pub fn new(p: CoulombSatParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(CoulombSat { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = CoulombSatParams { fc: r.real("fc")?, ksat: r.real("ksat")?, kv: r.real("kv")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &CoulombSatParams {
        &self.p
    }

    /// Slope dF/dv at rest, `Fc ksat + kv` [N s/m].
    pub fn slope_at_rest(&self) -> f64 {
        self.p.fc * self.p.ksat + self.p.kv
    }
}

impl FrictionModel for CoulombSat {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        self.p.fc * sat(self.p.ksat * inp.v) + self.p.kv * inp.v
    }

    /// F = Fc sat(ksat v) + kv v: ∂F/∂v = Fc ksat sat'(ksat v) + kv (sat' = 1 on
    /// the band |ksat v| <= 1, 0 outside), ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = self.p.fc * self.p.ksat * dsat(self.p.ksat * inp.v) + self.p.kv;
    }

    fn is_stiff(&self) -> bool {
        self.slope_at_rest() > STIFF_SLOPE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(m: &CoulombSat, v: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, v), &[], &[])
    }

    /// Outside the band |v| >= 1/ksat the model is exactly Coulomb plus
    /// viscous; inside it is the straight line through the origin that
    /// meets the Coulomb level at the band edge.
    #[test]
    fn coulomb_outside_the_band_and_linear_inside() {
        let (fc, ksat, kv) = (1.2, 50.0, 0.3);
        let m = CoulombSat::new(CoulombSatParams { fc, ksat, kv }).unwrap();
        let edge = 1.0 / ksat;
        for v in [edge, 1.5 * edge, 1.0, 100.0] {
            assert!((f(&m, v) - (fc + kv * v)).abs() < 1e-12, "v = {v}");
            assert!((f(&m, -v) + (fc + kv * v)).abs() < 1e-12, "v = -{v}");
        }
        for frac in [0.0, 0.1, 0.5, 0.99] {
            let v = frac * edge;
            // the chord from the origin to the band edge, computed from the edge values
            let chord = (fc + kv * edge) * frac;
            assert!((f(&m, v) - chord).abs() < 1e-12, "v = {v}");
            assert_eq!(f(&m, -v), -f(&m, v));
        }
    }

    /// The steep default (Table 1 of Andersson, Söderberg, Björklund 2007: ksat = 1000 s/m, Fc ~ 1 N) is
    /// stiff; a gentle slope is not.
    #[test]
    fn steep_regularisation_is_stiff() {
        assert!(CoulombSat::new(CoulombSatParams::default()).unwrap().is_stiff());
        let gentle = CoulombSat::new(CoulombSatParams { fc: 1.0, ksat: 10.0, kv: 1.0 }).unwrap();
        assert!(!gentle.is_stiff());
        assert_eq!(gentle.slope_at_rest(), 11.0);
        // a numerical slope at rest agrees with the reported one
        let h = 1e-6;
        let num = (f(&gentle, h) - f(&gentle, -h)) / (2.0 * h);
        assert!((num - 11.0).abs() < 1e-6);
    }
}
