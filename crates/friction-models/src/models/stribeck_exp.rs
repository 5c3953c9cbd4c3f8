//! `stribeck_exp`: the exponential Stribeck law of the Sandia study, written
//! with friction coefficients and a normal force, set-valued at rest.
//!
//! # Equations
//! ```text
//! F = μ(v) N sign(v)                           for v != 0
//! μ(v) = μc + γ (exp(β |v|) - 1) + α |v|
//! F in [-μc N, μc N]                           for v == 0 (set by the rest of the system)
//! β <= 0: μ goes from μc at v -> 0+ to μc - γ (+ α |v|) over a speed of about 1/|β|
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | μc | `mu_c` | - | [0, inf) | 0.15 | static friction coefficient, μ at v -> 0+ |
//! | γ | `gamma` | - | (-inf, inf) | 0.05 | drop of μ from static to dynamic friction (<= mu_c) |
//! | β | `beta` | s/m | (-inf, 0] | -100 | exponential rate of the static-to-dynamic transition |
//! | α | `alpha` | s/m | [0, inf) | 0 | viscous slope of μ |
//! | N | `normal` | N | [0, inf) | 1 | normal force |
//!
//! Meaning of the parameters (the Sandia friction-model study, section 1.2): μc is the static
//! coefficient (μ at rest), γ and β shape the transition from static to
//! dynamic friction, α adds linear viscous damping. With β <= 0 the
//! transition is a decay to the dynamic coefficient μc - γ; this is the
//! exponential-decay law μk + (μs - μk) exp(-dc |v|) with μs = μc,
//! μk = μc - γ, dc = -β. A positive β would make μ grow or fall without
//! bound, so it is refused, and so is γ > μc (a negative dynamic
//! coefficient). The model equals `stribeck` with shape `tustin`,
//! Fs = μc N, Fc = (μc - γ) N, vs = -1/β, kv = α N.
//!
//! **Load rule.** A scenario contact's `normal` N(t) already multiplies this
//! model's force and its maximum static force. `normal` is the same load written
//! into the model (F = μ N as in the source): give the load in one place
//! only, either the contact's `normal` (recommended, it can vary in time)
//! with `normal` = 1, or `normal` with the contact's `normal` = 1; otherwise N
//! enters squared. The scenario loader refuses a contact that sets both.
//!
//! # States
//! None. While stuck the force is set by the rest of the system, up to
//! μc N (see [`crate::model::Family::SetValued`]).
//!
//! # Sources
//! The Sandia friction-model study (friction models as Abaqus user contact models),
//! eqs. 4-5 and its reference \[4\].

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// `(-inf, 0]`: the valid range of `beta`.
const NON_POSITIVE: Range = Range { lo: f64::NEG_INFINITY, hi: 0.0, lo_closed: false, hi_closed: true };

/// Static description of `stribeck_exp`.
pub static INFO: ModelInfo = ModelInfo {
    id: "stribeck_exp",
    summary:
        "exponential Stribeck law μ = μc + γ (exp(β|v|) - 1) + α|v|, F = μ N sign(v), set-valued at rest",
    family: Family::SetValued,
    equations: "F = μ(v) N sign(v)                           for v != 0
μ(v) = μc + γ (exp(β |v|) - 1) + α |v|
F in [-μc N, μc N]                           for v == 0 (set by the rest of the system)
β <= 0: μ goes from μc at v -> 0+ to μc - γ (+ α |v|) over a speed of about 1/|β|",
    params: &[
        ParamSpec::real(
            "mu_c",
            "μc",
            "-",
            0.15,
            Range::NON_NEGATIVE,
            "static friction coefficient, μ at v -> 0+",
        ),
        ParamSpec::real(
            "gamma",
            "γ",
            "-",
            0.05,
            Range::ANY,
            "drop of μ from static to dynamic friction (<= mu_c)",
        ),
        ParamSpec::real(
            "beta",
            "β",
            "s/m",
            -100.0,
            NON_POSITIVE,
            "exponential rate of the static-to-dynamic transition",
        ),
        ParamSpec::real("alpha", "α", "s/m", 0.0, Range::NON_NEGATIVE, "viscous slope of μ"),
        ParamSpec::real("normal", "N", "N", 1.0, Range::NON_NEGATIVE, "normal force"),
    ],
    states: "none",
    sources: "the Sandia friction-model study eqs. 4-5",
};

/// Parameters of [`StribeckExp`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckExpParams {
    /// Static coefficient `μc` [-].
    pub mu_c: f64,
    /// Static-to-dynamic drop `γ` [-] (<= `mu_c`).
    pub gamma: f64,
    /// Transition rate `β` [s/m] (<= 0).
    pub beta: f64,
    /// Viscous slope of the coefficient `α` [s/m].
    pub alpha: f64,
    /// Normal force `N` \[N\].
    pub normal: f64,
}

impl Default for StribeckExpParams {
    fn default() -> Self {
        StribeckExpParams { mu_c: 0.15, gamma: 0.05, beta: -100.0, alpha: 0.0, normal: 1.0 }
    }
}

impl StribeckExpParams {
    /// Check every parameter against its range and `gamma <= mu_c`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "mu_c", self.mu_c)?;
        check(&INFO, "gamma", self.gamma)?;
        check(&INFO, "beta", self.beta)?;
        check(&INFO, "alpha", self.alpha)?;
        check(&INFO, "normal", self.normal)?;
        if self.gamma > self.mu_c {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "gamma",
                value: self.gamma,
                message: format!(
                    "must be <= mu_c = {} (the dynamic coefficient mu_c - gamma would be negative)",
                    self.mu_c
                ),
            });
        }
        Ok(())
    }

    /// The friction coefficient `μ(v)` of eq. 5 [-].
    pub fn mu(&self, v: f64) -> f64 {
        let a = v.abs();
        self.mu_c + self.gamma * (self.beta * a).exp_m1() + self.alpha * a
    }

    /// dμ/d|v| = γ β exp(β |v|) + α [s/m].
    pub fn dmu(&self, v: f64) -> f64 {
        self.gamma * self.beta * (self.beta * v.abs()).exp() + self.alpha
    }
}

/// The exponential Stribeck law of the Sandia friction-model study (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::stribeck_exp::{StribeckExp, StribeckExpParams};
/// let m = StribeckExp::new(StribeckExpParams { normal: 10.0, ..Default::default() }).unwrap();
/// assert_eq!(m.max_static(&[], &[]), Some(1.5));
/// // far beyond 1/|β| the coefficient is the dynamic one, μc - γ = 0.1
/// assert!((m.force(&Input::new(0.0, 0.0, -1.0), &[], &[]) + 1.0).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckExp {
    p: StribeckExpParams,
}

impl StribeckExp {
    /// A validated model.
    pub fn new(p: StribeckExpParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(StribeckExp { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = StribeckExpParams {
            mu_c: r.real("mu_c")?,
            gamma: r.real("gamma")?,
            beta: r.real("beta")?,
            alpha: r.real("alpha")?,
            normal: r.real("normal")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &StribeckExpParams {
        &self.p
    }
}

impl FrictionModel for StribeckExp {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        if inp.v == 0.0 {
            return 0.0;
        }
        self.p.mu(inp.v) * self.p.normal * sign(inp.v)
    }

    /// F = μ(|v|) N sign(v): ∂F/∂v = N (γ β exp(β |v|) + α) for v ≠ 0, 0 at v = 0
    /// (the set-valued stick); ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = if inp.v == 0.0 { 0.0 } else { self.p.normal * self.p.dmu(inp.v) };
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.p.mu_c * self.p.normal)
    }

    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::stribeck::{Stribeck, StribeckParams};
    use crate::params::ParamValue;
    use crate::shape::StribeckShape;

    fn f(m: &dyn FrictionModel, v: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, v), &[], &[])
    }

    /// Two formulations of one law: the Sandia form equals the Tustin-shaped
    /// `stribeck` with Fs = μc N, Fc = (μc - γ) N, vs = -1/β, kv = α N.
    #[test]
    fn equals_tustin_stribeck_with_mapped_parameters() {
        let p = StribeckExpParams { mu_c: 0.3, gamma: 0.12, beta: -40.0, alpha: 0.02, normal: 25.0 };
        let m = StribeckExp::new(p).unwrap();
        let s = Stribeck::new(StribeckParams {
            fs: p.mu_c * p.normal,
            fc: (p.mu_c - p.gamma) * p.normal,
            vs: -1.0 / p.beta,
            kv: p.alpha * p.normal,
            shape: StribeckShape::Exponential { exponent: 1.0 },
        })
        .unwrap();
        for v in [1e-9, 1e-3, 0.01, 0.025, 0.2, 3.0] {
            for v in [v, -v] {
                let (a, b) = (f(&m, v), f(&s, v));
                assert!((a - b).abs() < 1e-12 * b.abs().max(1.0), "v = {v}: {a} vs {b}");
            }
        }
        assert_eq!(m.max_static(&[], &[]), s.max_static(&[], &[]));
    }

    /// μ at v -> 0+ is the static coefficient, far away the dynamic one;
    /// a negative γ (friction rising with speed) is allowed and stays bounded.
    #[test]
    fn static_and_dynamic_limits() {
        let m = StribeckExp::new(StribeckExpParams::default()).unwrap();
        assert!((f(&m, 1e-15) - 0.15).abs() < 1e-12);
        assert!((f(&m, 1.0) - 0.10).abs() < 1e-15);
        assert_eq!(f(&m, 0.0), 0.0);
        let rising = StribeckExp::new(StribeckExpParams { gamma: -0.05, ..Default::default() }).unwrap();
        assert!((f(&rising, 10.0) - 0.20).abs() < 1e-15);
        // β = 0: no transition, pure Coulomb at μc N
        let flat = StribeckExp::new(StribeckExpParams { beta: 0.0, ..Default::default() }).unwrap();
        assert_eq!(f(&flat, 5.0), 0.15);
    }

    #[test]
    fn unbounded_or_negative_friction_is_refused() {
        let mut p = ParamMap::new();
        p.insert("gamma".into(), ParamValue::Num(0.2));
        let e = StribeckExp::from_params(&p).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "gamma", .. }), "{e}");
        let mut p = ParamMap::new();
        p.insert("beta".into(), ParamValue::Num(5.0));
        let e = StribeckExp::from_params(&p).unwrap_err();
        assert!(e.to_string().contains("(-inf, 0]"), "{e}");
    }
}
