//! `karnopp`: Karnopp's model: a classical Coulomb-viscous sliding curve with
//! stiction and a zero-velocity band |v| < DV in which the contact counts as
//! stuck.
//!
//! # Equations
//! ```text
//! F = Fc sign(v) + kv v          for |v| >= DV (sliding)
//! F = sat(Fe, Fs)                for |v| < DV (stuck: the external force Fe, saturated at ±Fs)
//! without system information (Fe unknown) force() returns 0 inside the band
//! Fs = Fc unless given (Fs >= Fc)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | [0, inf) | 1 | Coulomb (kinetic) friction force |
//! | kv | `kv` | N s/m | [0, inf) | 0 | viscous friction coefficient |
//! | DV | `dv` | m/s | (0, inf) | 0.001 | half-width of the zero-velocity band |
//! | Fs | `fs` | N | [0, inf) | none | maximum static force (>= fc); fc if absent |
//!
//! **How a simulator uses it.** Karnopp's model is not a function of the
//! velocity alone: inside the band the friction force equals the external
//! force Fe acting on the contact (the force needed to keep it stuck),
//! saturated at ±Fs, and that force belongs to the rest of the system. So a
//! simulator treats |v| < DV (from [`FrictionModel::stick_band`]) as stuck:
//! it computes the force the contact must transmit, clamps it to
//! ±[`FrictionModel::max_static`], and does not integrate the velocity away
//! from the band by friction alone. The velocity inside the band may be
//! non-zero and drift; that is the point of the model (no exact zero
//! crossing to detect). Called on its own, `force()` returns the sliding curve
//! outside the band and 0 inside it (the dead zone of Karnopp's block diagram).
//!
//! # States
//! None. Stick is decided from |v| < DV; the stuck force comes from the
//! rest of the system (see [`crate::model::Family::SetValued`]).
//!
//! # Sources
//! Olsson 1996, "The Karnopp model", eq. 2.8 and Fig. 2.11;
//! D. Karnopp, "Computer simulation of stick-slip friction in mechanical
//! dynamic systems", J. Dyn. Syst. Meas. Control 107, 1985.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `karnopp`.
pub static INFO: ModelInfo = ModelInfo {
    id: "karnopp",
    summary: "Karnopp: Coulomb-viscous sliding, stiction Fs, stuck inside a zero-velocity band |v| < DV",
    family: Family::SetValued,
    equations: "F = Fc sign(v) + kv v          for |v| >= DV (sliding)
F = sat(Fe, Fs)                for |v| < DV (stuck: the external force Fe, saturated at ±Fs)
without system information (Fe unknown) force() returns 0 inside the band
Fs = Fc unless given (Fs >= Fc)",
    params: &[
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::NON_NEGATIVE, "Coulomb (kinetic) friction force"),
        ParamSpec::real("kv", "kv", "N s/m", 0.0, Range::NON_NEGATIVE, "viscous friction coefficient"),
        ParamSpec::real("dv", "DV", "m/s", 1e-3, Range::POSITIVE, "half-width of the zero-velocity band"),
        ParamSpec {
            name: "fs",
            symbol: "Fs",
            unit: "N",
            kind: ParamKind::OptionalReal { range: Range::NON_NEGATIVE },
            doc: "maximum static force (>= fc); fc if absent",
        },
    ],
    states: "none",
    sources: "Olsson 1996 Karnopp model, eq. 2.8, Fig. 2.11; Karnopp 1985",
};

/// Parameters of [`Karnopp`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KarnoppParams {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
    /// Half-width `DV` of the zero-velocity band [m/s].
    pub dv: f64,
    /// Maximum static force `Fs` \[N\]; `None` means `Fs = Fc`.
    pub fs: Option<f64>,
}

impl Default for KarnoppParams {
    fn default() -> Self {
        KarnoppParams { fc: 1.0, kv: 0.0, dv: 1e-3, fs: None }
    }
}

impl KarnoppParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "kv", self.kv)?;
        check(&INFO, "dv", self.dv)?;
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

/// Karnopp's model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, models::karnopp::{Karnopp, KarnoppParams}};
/// let m = Karnopp::new(KarnoppParams { fc: 2.0, kv: 0.0, dv: 0.01, fs: Some(3.0) }).unwrap();
/// assert_eq!(m.stick_band(), 0.01);
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 0.005), &[], &[]), 0.0); // stuck: set by the system
/// assert_eq!(m.force(&Input::new(0.0, 0.0, -0.02), &[], &[]), -2.0);
/// assert_eq!(m.max_static(&[], &[]), Some(3.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Karnopp {
    p: KarnoppParams,
}

impl Karnopp {
    /// A validated model.
    pub fn new(p: KarnoppParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Karnopp { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = KarnoppParams {
            fc: r.real("fc")?,
            kv: r.real("kv")?,
            dv: r.real("dv")?,
            fs: r.optional_real("fs")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &KarnoppParams {
        &self.p
    }

    /// The force of a contact in the band that the rest of the system pushes
    /// with the external force `fe`: `fe` saturated at ±Fs (Karnopp's stuck
    /// branch, for simulators and tests that know `fe`).
    pub fn stuck_force(&self, fe: f64) -> f64 {
        let fs = self.p.fs.unwrap_or(self.p.fc);
        fe.clamp(-fs, fs)
    }
}

impl FrictionModel for Karnopp {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        if inp.v.abs() < self.p.dv {
            0.0
        } else {
            self.p.fc * sign(inp.v) + self.p.kv * inp.v
        }
    }

    /// Outside the band |v| >= DV, F = Fc sign(v) + kv v: ∂F/∂v = kv; inside
    /// it F = 0: ∂F/∂v = 0. ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = if inp.v.abs() < self.p.dv { 0.0 } else { self.p.kv };
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.p.fs.unwrap_or(self.p.fc))
    }

    fn stick_band(&self) -> f64 {
        self.p.dv
    }

    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::coulomb_viscous::{CoulombViscous, CoulombViscousParams};
    use crate::params::ParamValue;

    fn f(m: &dyn FrictionModel, v: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, v), &[], &[])
    }

    /// Outside the band the model is the classical Coulomb-viscous curve;
    /// inside it the force is left to the system (0 here); the band and the
    /// static level are reported for the simulator.
    #[test]
    fn classical_outside_the_band_dead_zone_inside() {
        let m = Karnopp::new(KarnoppParams { fc: 1.2, kv: 0.4, dv: 0.01, fs: Some(1.5) }).unwrap();
        let cv = CoulombViscous::new(CoulombViscousParams { fc: 1.2, kv: 0.4, fs: Some(1.5) }).unwrap();
        for v in [0.01, 0.0100001, 0.3, 7.0] {
            assert_eq!(f(&m, v), f(&cv, v));
            assert_eq!(f(&m, -v), f(&cv, -v));
            assert_eq!(f(&m, -v), -f(&m, v));
        }
        for v in [0.0, 1e-9, 0.005, 0.0099999] {
            assert_eq!(f(&m, v), 0.0);
            assert_eq!(f(&m, -v), 0.0);
        }
        assert_eq!(m.stick_band(), 0.01);
        assert_eq!(m.max_static(&[], &[]), Some(1.5));
    }

    /// Karnopp's stuck branch on the block of Olsson's eq. 2.8: a block of
    /// mass m pushed by Fe inside the band. Below Fs the friction cancels Fe
    /// and the velocity stays where it is; above Fs the net force Fe - Fs
    /// accelerates the block out of the band, after which it slides.
    #[test]
    fn block_breaks_away_only_above_fs() {
        let m = Karnopp::new(KarnoppParams { fc: 1.0, kv: 0.0, dv: 1e-3, fs: Some(1.5) }).unwrap();
        let mass = 2.0;
        let run = |fe: f64| {
            let (mut v, dt): (f64, f64) = (2e-4, 1e-4);
            for _ in 0..10_000 {
                let fr = if v.abs() < m.stick_band() { m.stuck_force(fe) } else { f(&m, v) };
                v += dt * (fe - fr) / mass;
            }
            v
        };
        assert_eq!(run(1.4), 2e-4, "stuck below Fs: velocity must not change");
        assert_eq!(run(-1.49), 2e-4);
        // above Fs: (Fe - Fs)/m = 0.05 m/s^2 carries it out of the band in 0.016 s,
        // then it slides with (Fe - Fc)/m = 0.3 m/s^2 until t = 1 s
        let v = run(1.6);
        let exact = 1e-3 + 0.3 * (1.0 - 0.016);
        assert!((v - exact).abs() < 2e-4, "{v} vs {exact}");
    }

    #[test]
    fn stiction_below_kinetic_is_refused() {
        let mut p = ParamMap::new();
        p.insert("fc".into(), ParamValue::Num(2.0));
        p.insert("fs".into(), ParamValue::Num(1.0));
        let e = Karnopp::from_params(&p).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
        p.insert("fs".into(), ParamValue::Num(2.5));
        p.insert("dv".into(), ParamValue::Num(0.0));
        assert!(Karnopp::from_params(&p).is_err());
    }
}
