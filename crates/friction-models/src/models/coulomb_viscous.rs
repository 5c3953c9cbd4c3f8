//! `coulomb_viscous`: Coulomb plus linear viscous friction, set-valued at
//! rest, with an optional larger maximum static force (a classical model).
//!
//! # Equations
//! ```text
//! F = Fc sign(v) + kv v          for v != 0
//! F in [-Fs, Fs]                 for v == 0 (set by the rest of the system)
//! Fs = Fc unless given (Fs >= Fc)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | kv | `kv` | N s/m | [0, inf) | 1 | viscous friction coefficient |
//! | Fs | `fs` | N | [0, inf) | none | maximum static force (>= fc); fc if absent |
//!
//! # States
//! None. While stuck the force is not a function of the model's inputs: a
//! simulator finds it from the rest of the system (see [`crate::model::Family::SetValued`]).
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eqs. 4-5 and Fig. 3a; Olsson 1996,
//! eqs. 2.2, 2.3 and 2.5, Fig. 2.10 b-c.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `coulomb_viscous`.
pub static INFO: ModelInfo = ModelInfo {
    id: "coulomb_viscous",
    summary:
        "Coulomb plus viscous friction Fc sign(v) + kv v, set-valued at rest with optional stiction Fs >= Fc",
    family: Family::SetValued,
    equations: "F = Fc sign(v) + kv v          for v != 0
F in [-Fs, Fs]                 for v == 0 (set by the rest of the system)
Fs = Fc unless given (Fs >= Fc)",
    params: &[
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::NON_NEGATIVE, "Coulomb (kinetic) friction force"),
        ParamSpec::real("kv", "kv", "N s/m", 1.0, Range::NON_NEGATIVE, "viscous friction coefficient"),
        ParamSpec {
            name: "fs",
            symbol: "Fs",
            unit: "N",
            kind: ParamKind::OptionalReal { range: Range::NON_NEGATIVE },
            doc: "maximum static force (>= fc); fc if absent",
        },
    ],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eqs. 4-5; Olsson 1996 eqs. 2.2, 2.3, 2.5",
};

/// Parameters of [`CoulombViscous`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoulombViscousParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
    /// Maximum static force `Fs` \[N\]; `None` means `Fs = Fc`.
    pub fs: Option<f64>,
}

impl Default for CoulombViscousParams {
    fn default() -> Self {
        CoulombViscousParams { fc: 1.0, kv: 1.0, fs: None }
    }
}

impl CoulombViscousParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "kv", self.kv)?;
        if let Some(fs) = self.fs {
            check(&INFO, "fs", fs)?;
            if fs < self.fc {
                return Err(ModelError::Constraint {
                    model: INFO.id,
                    name: "fs",
                    value: fs,
                    message: format!("must be >= fc = {}", self.fc),
                });
            }
        }
        Ok(())
    }
}

/// Coulomb plus viscous friction with optional stiction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::coulomb_viscous::{CoulombViscous, CoulombViscousParams};
/// let m = CoulombViscous::new(CoulombViscousParams { fc: 2.0, kv: 4.0, fs: Some(3.0) }).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, -0.5), &[], &[]), -4.0);
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 0.0), &[], &[]), 0.0);
/// assert_eq!(m.max_static(&[], &[]), Some(3.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoulombViscous {
    p: CoulombViscousParams,
}

impl CoulombViscous {
    /// A validated model.
    pub fn new(p: CoulombViscousParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(CoulombViscous { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = CoulombViscousParams { fc: r.real("fc")?, kv: r.real("kv")?, fs: r.optional_real("fs")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &CoulombViscousParams {
        &self.p
    }
}

impl FrictionModel for CoulombViscous {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        self.p.fc * sign(inp.v) + self.p.kv * inp.v
    }

    /// F = Fc sign(v) + kv v: ∂F/∂v = kv for v ≠ 0 and 0 at v = 0 (the jump of
    /// the set-valued stick); ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = if inp.v == 0.0 { 0.0 } else { self.p.kv };
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.p.fs.unwrap_or(self.p.fc))
    }

    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValue;
    use crate::testing::{drive, work, Path};
    use std::f64::consts::PI;

    /// Under x = A sin(ωt) the Coulomb part dissipates 4 Fc A per cycle (the
    /// path length times Fc) and the viscous part π kv ω A²; the two add.
    #[test]
    fn dissipation_per_cycle_is_coulomb_plus_viscous() {
        let (fc, kv, a, f) = (0.8, 2.0, 5e-3, 2.0);
        let m = CoulombViscous::new(CoulombViscousParams { fc, kv, fs: None }).unwrap();
        let rec = drive(&m, &Path::Sine { amplitude: a, frequency: f, cycles: 1.0 }, 1e-5);
        let exact = 4.0 * fc * a + PI * kv * 2.0 * PI * f * a * a;
        let w = work(&rec);
        assert!((w - exact).abs() < 1e-4 * exact, "work {w}, exact {exact}");
    }

    /// Odd in v, zero exactly at rest, sliding force starts at Fc (not Fs) at v -> 0+.
    #[test]
    fn odd_and_starts_at_fc_in_sliding() {
        let m = CoulombViscous::new(CoulombViscousParams { fc: 1.5, kv: 0.5, fs: Some(2.0) }).unwrap();
        let f = |v: f64| m.force(&Input::new(0.0, 0.0, v), &[], &[]);
        assert_eq!(f(0.0), 0.0);
        assert!((f(1e-12) - 1.5).abs() < 1e-11);
        for v in [1e-9, 1e-3, 1.0, 1e3] {
            assert_eq!(f(-v), -f(v));
            assert!((f(v) - (1.5 + 0.5 * v)).abs() <= 1e-12 * f(v));
        }
        assert_eq!(m.max_static(&[], &[]), Some(2.0));
        let plain = CoulombViscous::new(CoulombViscousParams { fc: 1.5, kv: 0.5, fs: None }).unwrap();
        assert_eq!(plain.max_static(&[], &[]), Some(1.5));
    }

    #[test]
    fn stiction_below_kinetic_is_refused() {
        let mut p = ParamMap::new();
        p.insert("fc".into(), ParamValue::Num(2.0));
        p.insert("fs".into(), ParamValue::Num(1.0));
        let e = CoulombViscous::from_params(&p).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
    }
}
