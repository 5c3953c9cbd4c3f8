//! `freewheel`: a one-way clutch (overrunning clutch, sprag or roller
//! freewheel): free in one direction of slip, locked in the other up to a
//! lock capacity, beyond which it slips with that force.
//!
//! # Equations
//! ```text
//! d = +1 with free = "forward" (free while the first member moves forward relative
//!   to the second), -1 with free = "backward"
//! F = Fd sign(v)                 for d v > 0 (overrunning: drag only)
//! F = Fl sign(v)                 for d v < 0 (slipping through the lock)
//! F in [-Fl, Fd]   (d = +1)      for v == 0 (set by the rest of the system)
//! F in [-Fd, Fl]   (d = -1)
//! ```
//! While locked the force is whatever holds the members together, up to the
//! lock capacity `Fl` against slip in the locked direction and up to the drag
//! `Fd` in the free direction (with `Fd = 0`, any load in the free direction
//! lets it overrun at once). This is the ideal freewheel of Modelica's
//! `Modelica.Mechanics.Rotational.Components.OneWayClutch` and of Pfeiffer and
//! Glocker's unilateral contacts (the lock a unilateral constraint on the
//! relative velocity), with Coulomb friction added on both sides: a drag
//! `Fd` while overrunning and a finite slip force `Fl` of the locked clutch.
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | - | `free` | - | forward | backward | "forward" | the direction of the first member's slip relative to the second in which the clutch overruns |
//! | Fd | `fd` | N | [0, inf) | 0 | drag force while overrunning (and the largest static force in the free direction) |
//! | Fl | `fl` | N | (0, inf) | 1000000000 | lock capacity: the largest force the locked clutch holds, and its slip force beyond it |
//!
//! # States
//! None. While locked (stuck) the force is not a function of the model's
//! inputs: a simulator finds it from the rest of the system, within the
//! asymmetric range [`FrictionModel::static_range`].
//!
//! # Sources
//! F. Pfeiffer, C. Glocker, Multibody Dynamics with Unilateral Contacts,
//! Wiley 1996, ch. 7 (unilateral constraints and their complementarity);
//! Modelica Standard Library, `Modelica.Mechanics.Rotational.Components.OneWayClutch`
//! (M. Otter, H. Elmqvist, S.E. Mattsson, Hybrid modeling in Modelica based
//! on the synchronous data flow principle, CACSD 1999).

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `freewheel`.
pub static INFO: ModelInfo = ModelInfo {
    id: "freewheel",
    summary:
        "one-way clutch: free (drag Fd) in one direction, locked up to Fl in the other, slipping at Fl beyond",
    family: Family::SetValued,
    equations: "F = Fd sign(v)                 for d v > 0 (overrunning: drag only)
F = Fl sign(v)                 for d v < 0 (slipping through the lock)
F in [-Fl, Fd]   (d = +1)      for v == 0 (set by the rest of the system)
F in [-Fd, Fl]   (d = -1)",
    params: &[
        ParamSpec {
            name: "free",
            symbol: "-",
            unit: "-",
            kind: ParamKind::Choice { default: "forward", options: &["forward", "backward"] },
            doc:
                "the direction of the first member's slip relative to the second in which the clutch overruns",
        },
        ParamSpec::real(
            "fd",
            "Fd",
            "N",
            0.0,
            Range::NON_NEGATIVE,
            "drag force while overrunning (and the largest static force in the free direction)",
        ),
        ParamSpec::real(
            "fl",
            "Fl",
            "N",
            1e9,
            Range::POSITIVE,
            "lock capacity: the largest force the locked clutch holds, and its slip force beyond it",
        ),
    ],
    states: "none",
    sources: "Pfeiffer and Glocker 1996 ch. 7; Otter, Elmqvist, Mattsson 1999 (Modelica's OneWayClutch)",
};

/// Parameters of [`Freewheel`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FreewheelParams {
    /// Whether the clutch overruns (is free) while the first member slips
    /// forward relative to the second (`free = "forward"`, d = +1), else
    /// backward (d = -1).
    pub free_forward: bool,
    /// Drag while overrunning `Fd` \[N\].
    pub fd: f64,
    /// Lock capacity `Fl` \[N\].
    pub fl: f64,
}

impl Default for FreewheelParams {
    fn default() -> Self {
        FreewheelParams { free_forward: true, fd: 0.0, fl: 1e9 }
    }
}

impl FreewheelParams {
    /// Check every parameter against its range and `fl >= fd`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fd", self.fd)?;
        check(&INFO, "fl", self.fl)?;
        if self.fl < self.fd {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "fl",
                value: self.fl,
                message: format!("must be >= fd = {} (the lock holds more than the drag)", self.fd),
            });
        }
        Ok(())
    }
}

/// A one-way clutch (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, models::freewheel::{Freewheel, FreewheelParams}};
/// let m = Freewheel::new(FreewheelParams { free_forward: true, fd: 0.1, fl: 50.0 }).unwrap();
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 2.0), &[], &[]), 0.1); // overrunning
/// assert_eq!(m.force(&Input::new(0.0, 0.0, -2.0), &[], &[]), -50.0); // slipping through the lock
/// assert_eq!(m.static_range(&[], &[]), Some((-50.0, 0.1)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Freewheel {
    p: FreewheelParams,
}

impl Freewheel {
    /// A validated model.
    pub fn new(p: FreewheelParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Freewheel { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = FreewheelParams {
            free_forward: r.choice("free")? == "forward",
            fd: r.real("fd")?,
            fl: r.real("fl")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &FreewheelParams {
        &self.p
    }

    /// d: +1 if free forward, -1 if free backward.
    fn d(&self) -> f64 {
        if self.p.free_forward {
            1.0
        } else {
            -1.0
        }
    }
}

impl FrictionModel for Freewheel {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        let v = inp.v;
        if v == 0.0 {
            0.0
        } else if v * self.d() > 0.0 {
            self.p.fd * v.signum()
        } else {
            self.p.fl * v.signum()
        }
    }

    /// Piecewise constant: ∂F/∂x = 0, ∂F/∂v = 0 (also at v = 0, where it jumps).
    fn partials(&self, _inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = 0.0;
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.p.fl.max(self.p.fd))
    }

    fn static_range(&self, _z: &[f64], _mem: &[f64]) -> Option<(f64, f64)> {
        Some(if self.p.free_forward { (-self.p.fl, self.p.fd) } else { (-self.p.fd, self.p.fl) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValue;

    /// Overrunning it drags with Fd, against the lock it slips with Fl, and
    /// the static range mirrors with the direction.
    #[test]
    fn free_one_way_and_locked_the_other() {
        for d in [1.0, -1.0] {
            let m = Freewheel::new(FreewheelParams { free_forward: d > 0.0, fd: 0.2, fl: 7.0 }).unwrap();
            let f = |v: f64| m.force(&Input::new(0.0, 0.0, v), &[], &[]);
            assert_eq!(f(d * 3.0), d * 0.2);
            assert_eq!(f(-d * 3.0), -d * 7.0);
            assert_eq!(f(0.0), 0.0);
            let (lo, hi) = m.static_range(&[], &[]).unwrap();
            assert_eq!((lo, hi), if d > 0.0 { (-7.0, 0.2) } else { (-0.2, 7.0) });
            // the static range holds the sliding forces at its ends
            assert_eq!(hi, f(1e-300));
            assert_eq!(lo, f(-1e-300));
        }
    }

    #[test]
    fn an_unknown_direction_and_a_lock_below_the_drag_are_refused() {
        let mut p = ParamMap::new();
        p.insert("free".into(), ParamValue::Str("sideways".into()));
        let e = Freewheel::from_params(&p).unwrap_err().to_string();
        assert!(e.contains("free") && e.contains("forward | backward"), "{e}");
        let mut p = ParamMap::new();
        p.insert("fd".into(), ParamValue::Num(2.0));
        p.insert("fl".into(), ParamValue::Num(1.0));
        assert!(Freewheel::from_params(&p).is_err());
    }
}
