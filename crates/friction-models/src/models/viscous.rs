//! `viscous`: linear viscous friction, the force of a full fluid film.
//!
//! # Equations
//! ```text
//! F = kv v
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | kv | `kv` | N s/m | [0, inf) | 1 | viscous friction coefficient |
//!
//! # States
//! None. A smooth static map: linear in v, so the equations of motion of a
//! mass-spring system with this friction stay linear.
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eq. 5; Olsson 1996, eq. 2.3;
//! O. Reynolds, "On the theory of lubrication", Phil. Trans. R. Soc. 177, 1886.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `viscous`.
pub static INFO: ModelInfo = ModelInfo {
    id: "viscous",
    summary: "linear viscous friction F = kv v",
    family: Family::StaticMap,
    equations: "F = kv v",
    params: &[ParamSpec::real("kv", "kv", "N s/m", 1.0, Range::NON_NEGATIVE, "viscous friction coefficient")],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eq. 5; Olsson 1996 eq. 2.3; Reynolds 1886",
};

/// Parameters of [`Viscous`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViscousParams {
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
}

impl Default for ViscousParams {
    fn default() -> Self {
        ViscousParams { kv: 1.0 }
    }
}

impl ViscousParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "kv", self.kv)
    }
}

/// Linear viscous friction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, models::viscous::{Viscous, ViscousParams}};
/// let m = Viscous::new(ViscousParams { kv: 3.0 }).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, -0.5), &[], &[]), -1.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viscous {
    p: ViscousParams,
}

impl Viscous {
    /// A validated model.
    pub fn new(p: ViscousParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Viscous { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = ViscousParams { kv: r.real("kv")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &ViscousParams {
        &self.p
    }
}

impl FrictionModel for Viscous {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        self.p.kv * inp.v
    }

    /// F = kv v: ∂F/∂v = kv, ∂F/∂x = 0.
    fn partials(&self, _inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = self.p.kv;
    }

    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, work, Path};
    use std::f64::consts::PI;

    /// A linear damper driven by x = A sin(ωt) dissipates π kv ω A² per cycle.
    #[test]
    fn dissipation_per_cycle_is_pi_kv_omega_a_squared() {
        let (kv, a, f) = (2.5, 1e-2, 3.0);
        let m = Viscous::new(ViscousParams { kv }).unwrap();
        let rec = drive(&m, &Path::Sine { amplitude: a, frequency: f, cycles: 1.0 }, 1e-4);
        let exact = PI * kv * 2.0 * PI * f * a * a;
        let w = work(&rec);
        assert!((w - exact).abs() < 1e-5 * exact, "work {w}, exact {exact}");
    }

    /// Odd, zero at rest, and proportional to v (doubling v doubles F).
    #[test]
    fn odd_and_linear() {
        let m = Viscous::new(ViscousParams { kv: 0.7 }).unwrap();
        let f = |v: f64| m.force(&Input::new(0.0, 0.0, v), &[], &[]);
        assert_eq!(f(0.0), 0.0);
        for v in [1e-6, 0.3, 40.0] {
            assert_eq!(f(-v), -f(v));
            assert!((f(2.0 * v) - 2.0 * f(v)).abs() <= 1e-15 * f(v).abs());
            assert!(f(v) > 0.0);
        }
    }

    #[test]
    fn negative_coefficient_is_refused() {
        let e = Viscous::new(ViscousParams { kv: -1.0 }).unwrap_err();
        assert!(matches!(e, ModelError::OutOfRange { ref name, .. } if name == "kv"), "{e}");
    }
}
