//! `coulomb`: Coulomb friction, set-valued at rest, with an optional larger
//! maximum static force.
//!
//! # Equations
//! ```text
//! F = Fc sign(v)                 for v != 0
//! F in [-Fs, Fs]                 for v == 0 (set by the rest of the system)
//! Fs = Fc unless given (Fs >= Fc)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | Fs | `fs` | N | [0, inf) | none | maximum static force (>= fc); fc if absent |
//!
//! # States
//! None. While stuck the force is not a function of the model's inputs: a
//! simulator finds it from the rest of the system (see [`crate::model::Family::SetValued`]).
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eqs. 2-4; Olsson 1996, eq. 2.1;
//! C.A. Coulomb, Théorie des machines simples, 1785.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `coulomb`.
pub static INFO: ModelInfo = ModelInfo {
    id: "coulomb",
    summary: "Coulomb friction Fc sign(v), set-valued at rest with optional stiction Fs >= Fc",
    family: Family::SetValued,
    equations: "F = Fc sign(v)                 for v != 0
F in [-Fs, Fs]                 for v == 0 (set by the rest of the system)
Fs = Fc unless given (Fs >= Fc)",
    params: &[
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::NON_NEGATIVE, "Coulomb (kinetic) friction force"),
        ParamSpec {
            name: "fs",
            symbol: "Fs",
            unit: "N",
            kind: ParamKind::OptionalReal { range: Range::NON_NEGATIVE },
            doc: "maximum static force (>= fc); fc if absent",
        },
    ],
    states: "none",
    sources: "Andersson, Söderberg, Björklund 2007 eqs. 2-4; Olsson 1996 eq. 2.1; Coulomb 1785",
};

/// Parameters of [`Coulomb`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoulombParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Maximum static force `Fs` \[N\]; `None` means `Fs = Fc`.
    pub fs: Option<f64>,
}

impl Default for CoulombParams {
    fn default() -> Self {
        CoulombParams { fc: 1.0, fs: None }
    }
}

impl CoulombParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
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

/// Coulomb friction with optional stiction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, models::coulomb::{Coulomb, CoulombParams}};
/// let m = Coulomb::new(CoulombParams { fc: 2.0, fs: Some(3.0) }).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, -0.5), &[], &[]), -2.0);
/// assert_eq!(m.max_static(&[], &[]), Some(3.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coulomb {
    p: CoulombParams,
}

impl Coulomb {
    /// A validated model.
    pub fn new(p: CoulombParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Coulomb { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = CoulombParams { fc: r.real("fc")?, fs: r.optional_real("fs")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &CoulombParams {
        &self.p
    }
}

impl FrictionModel for Coulomb {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        if inp.v > 0.0 {
            self.p.fc
        } else if inp.v < 0.0 {
            -self.p.fc
        } else {
            0.0
        }
    }

    /// F = Fc sign(v) is piecewise constant: ∂F/∂x = 0, ∂F/∂v = 0 (also at v = 0, where it jumps).
    fn partials(&self, _inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = 0.0;
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.p.fs.unwrap_or(self.p.fc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValue;

    #[test]
    fn odd_in_velocity_and_constant_magnitude_in_sliding() {
        let m = Coulomb::new(CoulombParams { fc: 1.5, fs: None }).unwrap();
        for v in [1e-12, 1e-3, 1.0, 1e3] {
            let f = m.force(&Input::new(0.0, 0.0, v), &[], &[]);
            let g = m.force(&Input::new(0.0, 0.0, -v), &[], &[]);
            assert_eq!(f, 1.5);
            assert_eq!(g, -f);
        }
        assert_eq!(m.max_static(&[], &[]), Some(1.5));
    }

    #[test]
    fn stiction_below_kinetic_is_refused() {
        let mut p = ParamMap::new();
        p.insert("fc".into(), ParamValue::Num(2.0));
        p.insert("fs".into(), ParamValue::Num(1.0));
        let e = Coulomb::from_params(&p).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
    }
}
