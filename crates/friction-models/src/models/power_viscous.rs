//! `power_viscous`: viscous friction as a power of the velocity, for
//! lubricated contacts whose film force is not linear in v.
//!
//! # Equations
//! ```text
//! F = kv |v|^δv sign(v)
//! δv = 1 is linear viscous friction; δv depends on the geometry of the contact
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | kv | `kv` | N (s/m)^δv | [0, inf) | 1 | viscous friction coefficient |
//! | δv | `delta_v` | - | (0, inf) | 1 | velocity exponent |
//!
//! # States
//! None. A continuous static map; for δv < 1 its slope at v = 0 is infinite,
//! so the model reports itself stiff.
//!
//! # Sources
//! Olsson 1996, eq. 2.4 (after SKF 1970 and Andersson 1993).
//! The exponent is called `delta_v` because `delta` is the Dankowicz micro-slip.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `power_viscous`.
pub static INFO: ModelInfo = ModelInfo {
    id: "power_viscous",
    summary: "power-law viscous friction F = kv |v|^δv sign(v)",
    family: Family::StaticMap,
    equations: "F = kv |v|^δv sign(v)
δv = 1 is linear viscous friction; δv depends on the geometry of the contact",
    params: &[
        ParamSpec::real("kv", "kv", "N (s/m)^δv", 1.0, Range::NON_NEGATIVE, "viscous friction coefficient"),
        ParamSpec::real("delta_v", "δv", "-", 1.0, Range::POSITIVE, "velocity exponent"),
    ],
    states: "none",
    sources: "Olsson 1996 eq. 2.4; SKF 1970; Andersson 1993",
};

/// Parameters of [`PowerViscous`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerViscousParams {
    /// Coefficient `kv` [N (s/m)^δv].
    pub kv: f64,
    /// Velocity exponent `δv` [-].
    pub delta_v: f64,
}

impl Default for PowerViscousParams {
    fn default() -> Self {
        PowerViscousParams { kv: 1.0, delta_v: 1.0 }
    }
}

impl PowerViscousParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "kv", self.kv)?;
        check(&INFO, "delta_v", self.delta_v)
    }
}

/// Power-law viscous friction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::power_viscous::{PowerViscous, PowerViscousParams};
/// let m = PowerViscous::new(PowerViscousParams { kv: 2.0, delta_v: 2.0 }).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, -3.0), &[], &[]), -18.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerViscous {
    p: PowerViscousParams,
}

impl PowerViscous {
    /// A validated model.
    pub fn new(p: PowerViscousParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(PowerViscous { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = PowerViscousParams { kv: r.real("kv")?, delta_v: r.real("delta_v")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &PowerViscousParams {
        &self.p
    }
}

impl FrictionModel for PowerViscous {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        let a = inp.v.abs();
        let m = if self.p.delta_v == 1.0 { a } else { a.powf(self.p.delta_v) };
        self.p.kv * m * sign(inp.v)
    }

    /// F = kv |v|^δv sign(v): ∂F/∂v = kv δv |v|^(δv - 1) for v ≠ 0; at v = 0
    /// kv for δv = 1, else 0 (the slope there is 0 for δv > 1, infinite for δv < 1). ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let (kv, dv) = (self.p.kv, self.p.delta_v);
        p.df_dx = 0.0;
        p.df_dv = if dv == 1.0 {
            kv
        } else if inp.v == 0.0 {
            0.0
        } else {
            kv * dv * inp.v.abs().powf(dv - 1.0)
        };
    }

    /// Stiff when the slope at rest is infinite (δv < 1, kv > 0).
    fn is_stiff(&self) -> bool {
        self.p.delta_v < 1.0 && self.p.kv > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, work, Path};

    fn model(kv: f64, delta_v: f64) -> PowerViscous {
        PowerViscous::new(PowerViscousParams { kv, delta_v }).unwrap()
    }

    /// Quadratic drag (δv = 2) under x = A sin(ωt): the work per cycle is
    /// ∫ kv |v|^3 dt = kv (Aω)^3 (2π/ω) · mean|cos|^3 = (8/3) kv A^3 ω^2.
    #[test]
    fn quadratic_drag_dissipates_eight_thirds_kv_a3_omega2() {
        let (kv, a, f) = (3.0, 2e-2, 1.5);
        let m = model(kv, 2.0);
        let rec = drive(&m, &Path::Sine { amplitude: a, frequency: f, cycles: 1.0 }, 1e-4);
        let w_ang = 2.0 * std::f64::consts::PI * f;
        let exact = 8.0 / 3.0 * kv * a.powi(3) * w_ang * w_ang;
        let w = work(&rec);
        assert!((w - exact).abs() < 1e-5 * exact, "work {w}, exact {exact}");
    }

    /// Homogeneity F(λv) = λ^δv F(v), oddness, and δv = 1 is linear.
    #[test]
    fn homogeneous_of_degree_delta_and_odd() {
        for delta_v in [0.5, 1.0, 1.7] {
            let m = model(1.3, delta_v);
            let f = |v: f64| m.force(&Input::new(0.0, 0.0, v), &[], &[]);
            assert_eq!(f(0.0), 0.0);
            for v in [1e-4, 0.2, 7.0] {
                assert_eq!(f(-v), -f(v));
                let ratio = f(3.0 * v) / f(v);
                assert!((ratio - 3f64.powf(delta_v)).abs() < 1e-12, "δv {delta_v} v {v}: {ratio}");
            }
        }
        let lin = model(1.3, 1.0);
        assert!((lin.force(&Input::new(0.0, 0.0, 0.25), &[], &[]) - 1.3 * 0.25).abs() < 1e-15);
    }

    /// An exponent below one has infinite slope at rest and is reported stiff.
    #[test]
    fn sub_linear_exponent_is_stiff() {
        assert!(model(1.0, 0.5).is_stiff());
        assert!(!model(1.0, 1.0).is_stiff());
        assert!(!model(1.0, 2.0).is_stiff());
        assert!(PowerViscous::new(PowerViscousParams { kv: 1.0, delta_v: 0.0 }).is_err());
    }
}
