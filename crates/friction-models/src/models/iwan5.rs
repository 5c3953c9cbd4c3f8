//! `iwan5`: Mignolet's five-parameter Iwan model, the four-parameter Iwan
//! model of Segalman with every Jenkins element replaced by a Mignolet
//! element whose slider drops to θ times its static strength once it slips.
//!
//! # Equations
//! ```text
//! slider density ρ(φ) of iwan4 (FS, KT, χ, β), discretised into the same elements
//! element j (stiffness k_j, slip displacement φ_j, static strength f_j = k_j φ_j):
//!   trial force Ft_j = k_j (u - s_j); stuck while |Ft_j| <= f_j
//!   break-away: F_j = θ f_j sign(Ft_j), the slider jumps and then follows u
//!   reversal: the slider sticks again and needs |Ft_j| > f_j to slip again
//! F = Σ F_j
//! θ = 1 gives iwan4; the macro-slip force (every slider sliding) is θ FS
//! ```
//!
//! The discretisation (bins; each element's slip displacement
//! φ_j = f_j / k_j, the stiffness-weighted mean of its bin, not the bin's
//! midpoint; the Dirac element) is exactly that of [`crate::models::iwan4`],
//! and each element follows the update rule of [`crate::models::jenkins`].
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | FS | `fs` | N | (0, inf) | 1 | macro-slip force: the force when every slider slips |
//! | KT | `kt` | N/m | (0, inf) | 100000 | initial (tangential) stiffness of the joint |
//! | χ | `chi` | - | (-1, 0] | -0.5 | exponent of the slider density; micro-slip dissipation grows as amplitude^(χ+3) |
//! | β | `beta` | - | [0, inf) | 0.1 | weight of the Dirac part at φmax relative to the power-law part |
//! | θ | `theta` | - | (0, 1] | 1 | Mignolet ratio μD/μS of every slider: its force after break-away is θ times its strength |
//! | N | `n` | - | integer in [1, 100000] | 100 | number of elements discretising the power-law part |
//!
//! # States
//! Discrete memory `mem = [s_1..s_M, slip_1..slip_M]` (M = N, plus one for the
//! Dirac element when β > 0): the slider positions \[m\] and slip flags
//! (`+1`/`-1` sliding, `0` stuck), updated on accepted steps only; within a
//! step the force is exact given the memory at the step's start. Starts
//! relaxed and stuck.
//!
//! # Sources
//! the Sandia friction-model study, sections 1.3-1.4 (eqs. 10-14) and the stick/slip
//! update algorithm of section 2; D.J. Segalman 2005;
//! M.P. Mignolet, P. Song, X.Q. Wang, "A stochastic Iwan-type model for joint
//! behavior variability modeling", J. Sound Vib. 349, 2015.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::models::iwan4::{Iwan4Params, IwanElement, BETA, CHI, FS, KT, N};
use crate::models::jenkins::{mignolet_slope, mignolet_step, THETA_RANGE};
use crate::params::{check, ParamMap, ParamReader, ParamSpec};

/// Static description of `iwan5`.
pub static INFO: ModelInfo = ModelInfo {
    id: "iwan5",
    summary: "Mignolet's 5-parameter Iwan model: iwan4 with sliders that drop to θ times their strength",
    family: Family::Hysteresis,
    equations: "slider density ρ(φ) of iwan4 (FS, KT, χ, β), discretised into the same elements
element j (stiffness k_j, slip displacement φ_j, static strength f_j = k_j φ_j):
  trial force Ft_j = k_j (u - s_j); stuck while |Ft_j| <= f_j
  break-away: F_j = θ f_j sign(Ft_j), the slider jumps and then follows u
  reversal: the slider sticks again and needs |Ft_j| > f_j to slip again
F = Σ F_j
θ = 1 gives iwan4; the macro-slip force (every slider sliding) is θ FS",
    params: &[
        FS,
        KT,
        CHI,
        BETA,
        ParamSpec::real(
            "theta",
            "θ",
            "-",
            1.0,
            THETA_RANGE,
            "Mignolet ratio μD/μS of every slider: its force after break-away is θ times its strength",
        ),
        N,
    ],
    states: "mem = [s_j..., slip_j...]: slider positions [m] and slip flags (discrete)",
    sources:
        "the Sandia friction-model study sections 1.3-1.4 and 2; Segalman 2005; Mignolet, Song, Wang 2015",
};

/// Parameters of [`Iwan5`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Iwan5Params {
    /// The four Segalman parameters and the number of elements.
    pub iwan4: Iwan4Params,
    /// Mignolet ratio `θ` [-], in (0, 1].
    pub theta: f64,
}

impl Default for Iwan5Params {
    fn default() -> Self {
        Iwan5Params { iwan4: Iwan4Params::default(), theta: 1.0 }
    }
}

impl Iwan5Params {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        self.iwan4.validate().map_err(|e| match e {
            ModelError::OutOfRange { name, value, range, unit, .. } => {
                ModelError::OutOfRange { model: INFO.id, name, value, range, unit }
            }
            other => other,
        })?;
        check(&INFO, "theta", self.theta)
    }
}

/// Mignolet's five-parameter Iwan model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::iwan4::Iwan4Params;
/// use friction_models::models::iwan5::{Iwan5, Iwan5Params};
/// let iwan4 = Iwan4Params { fs: 2.0, kt: 1e4, chi: -0.5, beta: 0.2, n: 50 };
/// let m = Iwan5::new(Iwan5Params { iwan4, theta: 0.8 }).unwrap();
/// let mem = vec![0.0; m.n_memory()];
/// // far beyond φmax every slider has broken away: the force is θ FS
/// let f = m.force(&Input::new(0.0, 10.0 * iwan4.phi_max(), 1.0), &[], &mem);
/// assert!((f - 1.6).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Iwan5 {
    p: Iwan5Params,
    elements: Vec<IwanElement>,
}

impl Iwan5 {
    /// A validated model.
    pub fn new(p: Iwan5Params) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Iwan5 { p, elements: p.iwan4.elements() })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = Iwan5Params {
            iwan4: Iwan4Params {
                fs: r.real("fs")?,
                kt: r.real("kt")?,
                chi: r.real("chi")?,
                beta: r.real("beta")?,
                n: r.integer("n")? as usize,
            },
            theta: r.real("theta")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &Iwan5Params {
        &self.p
    }

    /// The discrete elements (the same as iwan4's).
    pub fn elements(&self) -> &[IwanElement] {
        &self.elements
    }
}

impl FrictionModel for Iwan5 {
    fn turns_at_reversals(&self) -> bool {
        true
    }
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        let n = self.elements.len();
        if k < n {
            Q::Displacement
        } else if k < 2 * n {
            Q::Dimensionless
        } else {
            Q::Unknown
        }
    }
    fn n_memory(&self) -> usize {
        2 * self.elements.len()
    }
    fn init(&self, inp: &Input, _z: &mut [f64], mem: &mut [f64]) {
        let m = self.elements.len();
        mem[..m].fill(inp.x);
        mem[m..].fill(0.0);
    }
    fn force(&self, inp: &Input, _z: &[f64], mem: &[f64]) -> f64 {
        let (s, slip) = mem.split_at(self.elements.len());
        self.elements
            .iter()
            .zip(s.iter().zip(slip))
            .map(|(e, (s, slip))| mignolet_step(e.k, e.fmax(), self.p.theta, inp.x, *s, *slip).0)
            .sum()
    }
    /// Memory held fixed: ∂F/∂x = Σ k_j over the elements that stick (a
    /// sliding one carries ±θ k_j φ_j); ∂F/∂v = 0.
    fn partials(&self, inp: &Input, _z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
        let (s, slip) = mem.split_at(self.elements.len());
        p.df_dx = self
            .elements
            .iter()
            .zip(s.iter().zip(slip))
            .map(|(e, (s, slip))| mignolet_slope(e.k, e.fmax(), self.p.theta, inp.x, *s, *slip))
            .sum();
        p.df_dv = 0.0;
    }
    fn accept(&self, inp: &Input, _z: &mut [f64], mem: &mut [f64]) {
        let (s, slip) = mem.split_at_mut(self.elements.len());
        for (e, (s, slip)) in self.elements.iter().zip(s.iter_mut().zip(slip.iter_mut())) {
            let (_, s1, slip1) = mignolet_step(e.k, e.fmax(), self.p.theta, inp.x, *s, *slip);
            *s = s1;
            *slip = slip1;
        }
    }
    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::iwan4::Iwan4;
    use crate::testing::{drive, work, Path};

    fn p4() -> Iwan4Params {
        Iwan4Params { fs: 1.5, kt: 2e4, chi: -0.6, beta: 0.3, n: 80 }
    }

    /// θ = 1 reproduces iwan4 along a path with reversals and an inner loop.
    #[test]
    fn theta_one_reproduces_iwan4() {
        let m4 = Iwan4::new(p4()).unwrap();
        let m5 = Iwan5::new(Iwan5Params { iwan4: p4(), theta: 1.0 }).unwrap();
        let pm = p4().phi_max();
        let path = Path::points(&[0.0, 0.5 * pm, -0.2 * pm, 0.1 * pm, -1.5 * pm, 0.3 * pm], pm);
        let r4 = drive(&m4, &path, 1e-3);
        let r5 = drive(&m5, &path, 1e-3);
        assert_eq!(r4.len(), r5.len());
        for (a, b) in r4.iter().zip(&r5) {
            assert!((a.f - b.f).abs() < 1e-12 * p4().fs, "x {}: {} vs {}", a.x, a.f, b.f);
        }
    }

    /// θ < 1: in macro-slip every slider slides at θ times its strength, so
    /// the force saturates at θ FS; the virgin peak lies between θ FS and FS.
    #[test]
    fn theta_below_one_reduces_the_macro_slip_force() {
        let pm = p4().phi_max();
        for theta in [0.3, 0.7, 0.95] {
            let m = Iwan5::new(Iwan5Params { iwan4: p4(), theta }).unwrap();
            let rec = drive(&m, &Path::points(&[0.0, 2.0 * pm, -2.0 * pm], pm), 1e-3);
            let top = rec.iter().find(|r| r.x >= 1.5 * pm).unwrap();
            assert!((top.f - theta * p4().fs).abs() < 1e-12, "θ {theta}: {}", top.f);
            assert!((rec.last().unwrap().f + theta * p4().fs).abs() < 1e-12);
            let peak = rec.iter().map(|r| r.f).fold(f64::NEG_INFINITY, f64::max);
            assert!(peak > theta * p4().fs && peak < p4().fs, "θ {theta}: peak {peak}");
        }
    }

    /// Macro-slip cycle between ±a (2a > (1+θ) φmax): every element runs the
    /// Mignolet loop of area 4 θ f a + (1+θ)(1-3θ) f φ (see jenkins), so the
    /// loop area is 4 θ FS a + (1+θ)(1-3θ) ∫ φ² ρ dφ with
    /// ∫ φ² ρ dφ = R φmax^(χ+3)/(χ+3) + S φmax²; weaker sliding dissipates less.
    #[test]
    fn macro_slip_cycle_dissipation_matches_closed_form() {
        let p = p4();
        let pm = p.phi_max();
        let (r, s) = p.density();
        let second_moment = r * pm.powf(p.chi + 3.0) / (p.chi + 3.0) + s * pm * pm;
        let a = 3.0 * pm;
        let mut last = f64::INFINITY;
        for theta in [1.0, 0.8, 0.5, 0.2] {
            let m = Iwan5::new(Iwan5Params { iwan4: p, theta }).unwrap();
            let rec = drive(&m, &Path::points(&[0.0, a, -a, a], a), 2e-4);
            let first = rec.iter().position(|r| (r.x - a).abs() < 1e-12 * a).unwrap();
            let w = work(&rec[first..]);
            let exact = 4.0 * theta * p.fs * a + (1.0 + theta) * (1.0 - 3.0 * theta) * second_moment;
            assert!((w - exact).abs() < 1e-3 * exact, "θ {theta}: work {w} closed form {exact}");
            assert!(w > 0.0 && w < last);
            last = w;
        }
    }

    /// Rate independence: the same loop at speeds 1e-5 and 1 m/s.
    #[test]
    fn same_loop_at_two_speeds() {
        let m = Iwan5::new(Iwan5Params { iwan4: p4(), theta: 0.6 }).unwrap();
        let pm = p4().phi_max();
        let pts = [0.0, 0.4 * pm, -0.1 * pm, 0.05 * pm];
        let dx = pm / 500.0 * 1.0001;
        let slow = drive(&m, &Path::points(&pts, 1e-5), dx / 1e-5);
        let fast = drive(&m, &Path::points(&pts, 1.0), dx);
        assert_eq!(slow.len(), fast.len());
        for (a, b) in slow.iter().zip(&fast) {
            assert!((a.f - b.f).abs() < 1e-12);
        }
    }
}
