//! `bliman_tire`: the steady-state tyre force of Bliman et al.: the
//! second-order Bliman-Sorine friction model integrated along the contact
//! patch at constant slip.
//!
//! # Equations
//! ```text
//! F(s) = (Fc + ΔF) h(σ0 L s / (η (Fc + ΔF))) - ΔF h(σ0 L s / ΔF)      for s > 0
//! h(a) = 1 - (1 - exp(-a)) / a
//! F(-s) = -F(s), F(0) = 0; s = Input.v (the slip)
//! F -> Fc as s -> inf; dF/ds(0) = σ0 L (1/η - 1) / 2; 0 < η < ΔF / (Fc + ΔF)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb force, the limit of F at large slip |
//! | ΔF | `delta_f` | N | (0, inf) | 0.5 | friction peak parameter: the fast element saturates at Fc + ΔF, the slow one at ΔF |
//! | σ0 | `sigma0` | N/m | (0, inf) | 1000 | rest stiffness of the Bliman-Sorine elements (per unit patch length and slip) |
//! | η | `eta` | - | (0, 1) | 0.05 | ratio of the distance scales of the fast and slow elements (< delta_f/(fc + delta_f)) |
//! | L | `length` | m | (0, inf) | 0.1 | length of the contact patch |
//!
//! **Derivation and input mapping.** Along the patch, at position ξ, the
//! friction state obeys dZ/dξ = A Z |s| + B s (Olsson, after eq. 2.21) with the
//! second-order Bliman-Sorine matrices (eq. 2.18)
//! A = diag(-σ0/(η(Fc+ΔF)), -σ0/ΔF), B = (σ0/(η(Fc+ΔF)), -σ0/ΔF), and
//! F = C ∫0^L Z dξ with C = ((Fc+ΔF)/L, ΔF/L), Z(0) = 0 (a tread element
//! enters the patch relaxed). Integrating gives the formula above. Olsson 1996
//! prints Fc instead of ΔF in the second bracket of eq. 2.22; that does not
//! follow from its own eq. 2.18 and the condition η < ΔF/(Fc+ΔF) (the fast
//! element must be the one with the higher level), so this model uses the
//! derived form. The slip s = ω(r - r_e)/(ω r) is read from `Input.v`,
//! dimensionless; for s < 0 the force is the odd extension. A peak above Fc
//! exists when η < (ΔF/(Fc+ΔF))^2.
//!
//! # States
//! None: the steady state of a distributed model, as a static map. Its slope
//! at rest is σ0 L (1/η - 1)/2; it reports itself stiff when that exceeds
//! [`super::coulomb_sat::STIFF_SLOPE`].
//!
//! # Sources
//! Olsson 1996, eqs. 2.16-2.18 and 2.22; P.-A. Bliman, T. Bonald,
//! M. Sorine, "Hysteresis operators and tyre friction models. Application to
//! vehicle dynamic simulation", ICIAM 95, 1995; Bliman and Sorine 1995.

use super::coulomb_sat::STIFF_SLOPE;
use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `bliman_tire`.
pub static INFO: ModelInfo = ModelInfo {
    id: "bliman_tire",
    summary: "steady-state Bliman et al. tyre force vs slip (second-order Bliman-Sorine along the patch), s = Input.v",
    family: Family::StaticMap,
    equations: "F(s) = (Fc + ΔF) h(σ0 L s / (η (Fc + ΔF))) - ΔF h(σ0 L s / ΔF)      for s > 0
h(a) = 1 - (1 - exp(-a)) / a
F(-s) = -F(s), F(0) = 0; s = Input.v (the slip)
F -> Fc as s -> inf; dF/ds(0) = σ0 L (1/η - 1) / 2; 0 < η < ΔF / (Fc + ΔF)",
    params: &[
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::POSITIVE, "Coulomb force, the limit of F at large slip"),
        ParamSpec::real(
            "delta_f",
            "ΔF",
            "N",
            0.5,
            Range::POSITIVE,
            "friction peak parameter: the fast element saturates at Fc + ΔF, the slow one at ΔF",
        ),
        ParamSpec::real(
            "sigma0",
            "σ0",
            "N/m",
            1000.0,
            Range::POSITIVE,
            "rest stiffness of the Bliman-Sorine elements (per unit patch length and slip)",
        ),
        ParamSpec::real(
            "eta",
            "η",
            "-",
            0.05,
            Range::open(0.0, 1.0),
            "ratio of the distance scales of the fast and slow elements (< delta_f/(fc + delta_f))",
        ),
        ParamSpec::real("length", "L", "m", 0.1, Range::POSITIVE, "length of the contact patch"),
    ],
    states: "none",
    sources: "Olsson 1996 eqs. 2.16-2.18, 2.22; Bliman, Bonald, Sorine 1995",
};

/// `h(a) = 1 - (1 - exp(-a))/a`, the mean of `1 - exp(-a ξ/L)` over the
/// patch, accurate for small `a` (series) and large `a`.
#[inline]
fn h(a: f64) -> f64 {
    if a < 1e-4 {
        a / 2.0 - a * a / 6.0 + a * a * a / 24.0
    } else {
        1.0 + (-a).exp_m1() / a
    }
}

/// h'(a) = (1 - exp(-a) - a exp(-a)) / a², with the derivative of `h`'s
/// series below the same threshold.
fn dh(a: f64) -> f64 {
    if a < 1e-4 {
        0.5 - a / 3.0 + a * a / 8.0
    } else {
        (-(-a).exp_m1() - a * (-a).exp()) / (a * a)
    }
}

/// Parameters of [`BlimanTire`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlimanTireParams {
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Peak parameter `ΔF` \[N\].
    pub delta_f: f64,
    /// Rest stiffness `σ0` [N/m].
    pub sigma0: f64,
    /// Ratio `η` of the distance scales [-], `0 < η < ΔF/(Fc + ΔF)`.
    pub eta: f64,
    /// Contact patch length `L` \[m\].
    pub length: f64,
}

impl Default for BlimanTireParams {
    fn default() -> Self {
        BlimanTireParams { fc: 1.0, delta_f: 0.5, sigma0: 1000.0, eta: 0.05, length: 0.1 }
    }
}

impl BlimanTireParams {
    /// Check every parameter against its range and `η < ΔF/(Fc + ΔF)`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "delta_f", self.delta_f)?;
        check(&INFO, "sigma0", self.sigma0)?;
        check(&INFO, "eta", self.eta)?;
        check(&INFO, "length", self.length)?;
        let bound = self.delta_f / (self.fc + self.delta_f);
        if self.eta >= bound {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "eta",
                value: self.eta,
                message: format!(
                    "must be < delta_f/(fc + delta_f) = {bound} (the fast element must carry the higher level)"
                ),
            });
        }
        Ok(())
    }
}

/// The steady-state Bliman et al. tyre force (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::bliman_tire::{BlimanTire, BlimanTireParams};
/// let m = BlimanTire::new(BlimanTireParams::default()).unwrap();
/// // large slip: the force tends to Fc
/// assert!((m.force(&Input::new(0.0, 0.0, 1e6), &[], &[]) - 1.0).abs() < 1e-6);
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 0.0), &[], &[]), 0.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlimanTire {
    p: BlimanTireParams,
}

impl BlimanTire {
    /// A validated model.
    pub fn new(p: BlimanTireParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(BlimanTire { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = BlimanTireParams {
            fc: r.real("fc")?,
            delta_f: r.real("delta_f")?,
            sigma0: r.real("sigma0")?,
            eta: r.real("eta")?,
            length: r.real("length")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &BlimanTireParams {
        &self.p
    }

    /// Slope dF/ds at s = 0, `σ0 L (1/η - 1)/2` \[N\].
    pub fn slope_at_rest(&self) -> f64 {
        0.5 * self.p.sigma0 * self.p.length * (1.0 / self.p.eta - 1.0)
    }
}

impl FrictionModel for BlimanTire {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        let BlimanTireParams { fc, delta_f, sigma0, eta, length } = self.p;
        let s = inp.v.abs();
        let k = sigma0 * length * s;
        let fast = fc + delta_f;
        (fast * h(k / (eta * fast)) - delta_f * h(k / delta_f)) * sign(inp.v)
    }

    /// F = ((Fc + ΔF) h(a1) - ΔF h(a2)) sign(s), a1 = σ0 L |s| / (η (Fc + ΔF)), a2 = σ0 L |s| / ΔF:
    /// ∂F/∂v = σ0 L (h'(a1)/η - h'(a2)) (even in s, σ0 L (1/η - 1)/2 at s = 0); ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let BlimanTireParams { fc, delta_f, sigma0, eta, length } = self.p;
        let k = sigma0 * length * inp.v.abs();
        let fast = fc + delta_f;
        p.df_dx = 0.0;
        p.df_dv = sigma0 * length * (dh(k / (eta * fast)) / eta - dh(k / delta_f));
    }

    fn is_stiff(&self) -> bool {
        self.slope_at_rest() > STIFF_SLOPE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(m: &BlimanTire, s: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, s), &[], &[])
    }

    /// Independent check from the distributed model: integrate
    /// dZ/dξ = A Z |s| + B s along the patch (RK4 in ξ, from Z(0) = 0) with the
    /// Bliman-Sorine matrices of eq. 2.18 and sum F = C ∫ Z dξ.
    fn distributed(p: &BlimanTireParams, s: f64) -> f64 {
        let a1 = -p.sigma0 / (p.eta * (p.fc + p.delta_f));
        let a2 = -p.sigma0 / p.delta_f;
        let (b1, b2) = (-a1, a2);
        let (c1, c2) = ((p.fc + p.delta_f) / p.length, p.delta_f / p.length);
        let rhs = |z: [f64; 3]| {
            let dz1 = a1 * z[0] * s.abs() + b1 * s;
            let dz2 = a2 * z[1] * s.abs() + b2 * s;
            [dz1, dz2, c1 * z[0] + c2 * z[1]]
        };
        let n = 20_000;
        let d = p.length / n as f64;
        let mut z = [0.0; 3];
        for _ in 0..n {
            let k1 = rhs(z);
            let k2 = rhs([z[0] + 0.5 * d * k1[0], z[1] + 0.5 * d * k1[1], 0.0]);
            let k3 = rhs([z[0] + 0.5 * d * k2[0], z[1] + 0.5 * d * k2[1], 0.0]);
            let k4 = rhs([z[0] + d * k3[0], z[1] + d * k3[1], 0.0]);
            for j in 0..3 {
                z[j] += d / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
            }
        }
        z[2]
    }

    /// The closed form equals the patch integral of the second-order
    /// Bliman-Sorine model, for both signs of slip.
    #[test]
    fn closed_form_equals_the_integrated_distributed_model() {
        let p = BlimanTireParams::default();
        let m = BlimanTire::new(p).unwrap();
        for s in [1e-4, 3e-3, 0.01, 0.05, 0.2, 1.0, -0.02] {
            let exact = distributed(&p, s);
            assert!((f(&m, s) - exact).abs() < 1e-9, "s = {s}: {} vs {exact}", f(&m, s));
        }
    }

    /// Large slip tends to Fc; the slope at rest is σ0 L (1/η - 1)/2; the
    /// force is odd; with η < (ΔF/(Fc+ΔF))^2 there is a peak above Fc.
    #[test]
    fn limit_slope_symmetry_and_peak() {
        let p = BlimanTireParams::default();
        let m = BlimanTire::new(p).unwrap();
        assert!((f(&m, 1e4) - p.fc).abs() < 1e-5);
        // one-sided: the odd extension makes a central difference see only F(h)/h anyway;
        // the curvature term is ~ 4e5 h, so h must be tiny
        let h = 1e-10;
        let num = f(&m, h) / h;
        let exact = 0.5 * p.sigma0 * p.length * (1.0 / p.eta - 1.0);
        assert!((num - exact).abs() < 1e-6 * exact, "{num} vs {exact}");
        assert_eq!(m.slope_at_rest(), exact);
        for s in [1e-9, 1e-5, 0.01, 3.0] {
            assert_eq!(f(&m, -s), -f(&m, s));
        }
        let peak = (1..2000).map(|k| f(&m, k as f64 * 1e-4)).fold(f64::MIN, f64::max);
        assert!(peak > p.fc * 1.05 && peak < p.fc + p.delta_f, "peak {peak}");
        assert!(m.is_stiff());
    }

    #[test]
    fn slow_element_carrying_the_higher_level_is_refused() {
        let e = BlimanTire::new(BlimanTireParams { eta: 0.4, ..Default::default() }).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "eta", .. }), "{e}");
    }
}
