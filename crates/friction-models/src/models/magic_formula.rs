//! `magic_formula`: Pacejka's "Magic Formula" for the steady longitudinal
//! force of a tyre as a function of its slip.
//!
//! # Equations
//! ```text
//! F(s) = D sin(C arctan(B s - E (B s - arctan(B s))))
//! s = Input.v (the slip; see below); F is odd in s
//! C >= 1: peak F = D where C arctan(B s - E (B s - arctan(B s))) = π/2; F -> D sin(C π/2) as s -> inf (E < 1)
//! C < 1: no peak, F rises monotonically to D sin(C π/2) < D (D is then not reached)
//! slope at s = 0: B C D
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | B | `b` | - | (0, inf) | 10 | stiffness factor |
//! | C | `c` | - | (0, 2] | 1.9 | shape factor |
//! | D | `d` | N | [0, inf) | 1 | peak factor: the peak force for C >= 1; for C < 1 the force stays below D |
//! | E | `e` | - | (-inf, 1] | 0.97 | curvature factor |
//!
//! **Input mapping.** The formula is a map from the slip rate
//! s = ω(r - r_e)/(ω r) (Olsson 1996) to the contact force, not from a sliding
//! velocity. This model reads the slip from `Input.v`: whoever drives it
//! (a wheel model) passes the slip there, dimensionless. The force has the
//! sign of the slip, like every friction force of this crate opposing v.
//! C is limited to (0, 2] so that the force never changes sign for s > 0,
//! E to (-inf, 1] so that the argument of the sine grows monotonically.
//! Defaults are typical dry-road longitudinal values, normalised to D = 1.
//!
//! # States
//! None. A smooth static map; its slope at rest is B C D, and it reports
//! itself stiff when that exceeds [`super::coulomb_sat::STIFF_SLOPE`].
//!
//! # Sources
//! Olsson 1996, eq. 2.21; E. Bakker, L. Nyborg, H.B. Pacejka, "Tyre
//! modelling for use in vehicle dynamics studies", SAE 870421, 1987;
//! H.B. Pacejka, Tyre and Vehicle Dynamics, 2002.

use super::coulomb_sat::STIFF_SLOPE;
use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `magic_formula`.
pub static INFO: ModelInfo = ModelInfo {
    id: "magic_formula",
    summary: "Pacejka Magic Formula tyre force D sin(C arctan(B s - E (B s - arctan B s))), slip s = Input.v",
    family: Family::StaticMap,
    equations: "F(s) = D sin(C arctan(B s - E (B s - arctan(B s))))
s = Input.v (the slip; see below); F is odd in s
C >= 1: peak F = D where C arctan(B s - E (B s - arctan(B s))) = π/2; F -> D sin(C π/2) as s -> inf (E < 1)
C < 1: no peak, F rises monotonically to D sin(C π/2) < D (D is then not reached)
slope at s = 0: B C D",
    params: &[
        ParamSpec::real("b", "B", "-", 10.0, Range::POSITIVE, "stiffness factor"),
        ParamSpec::real(
            "c",
            "C",
            "-",
            1.9,
            Range { lo: 0.0, hi: 2.0, lo_closed: false, hi_closed: true },
            "shape factor",
        ),
        ParamSpec::real(
            "d",
            "D",
            "N",
            1.0,
            Range::NON_NEGATIVE,
            "peak factor: the peak force for C >= 1; for C < 1 the force stays below D",
        ),
        ParamSpec::real(
            "e",
            "E",
            "-",
            0.97,
            Range { lo: f64::NEG_INFINITY, hi: 1.0, lo_closed: false, hi_closed: true },
            "curvature factor",
        ),
    ],
    states: "none",
    sources: "Olsson 1996 eq. 2.21; Bakker, Nyborg, Pacejka 1987; Pacejka 2002",
};

/// Parameters of [`MagicFormula`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MagicFormulaParams {
    /// Stiffness factor `B` [-].
    pub b: f64,
    /// Shape factor `C` [-].
    pub c: f64,
    /// Peak force `D` \[N\].
    pub d: f64,
    /// Curvature factor `E` [-].
    pub e: f64,
}

impl Default for MagicFormulaParams {
    fn default() -> Self {
        MagicFormulaParams { b: 10.0, c: 1.9, d: 1.0, e: 0.97 }
    }
}

impl MagicFormulaParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "b", self.b)?;
        check(&INFO, "c", self.c)?;
        check(&INFO, "d", self.d)?;
        check(&INFO, "e", self.e)
    }
}

/// The Magic Formula tyre force (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::magic_formula::{MagicFormula, MagicFormulaParams};
/// // C = 1, E = 0: F = D sin(arctan(B s)) = D B s / sqrt(1 + (B s)^2)
/// let m = MagicFormula::new(MagicFormulaParams { b: 4.0, c: 1.0, d: 2.0, e: 0.0 }).unwrap();
/// let f = m.force(&Input::new(0.0, 0.0, 0.75), &[], &[]); // B s = 3
/// assert!((f - 2.0 * 3.0 / 10f64.sqrt()).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MagicFormula {
    p: MagicFormulaParams,
}

impl MagicFormula {
    /// A validated model.
    pub fn new(p: MagicFormulaParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(MagicFormula { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = MagicFormulaParams { b: r.real("b")?, c: r.real("c")?, d: r.real("d")?, e: r.real("e")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &MagicFormulaParams {
        &self.p
    }

    /// Slope dF/ds at s = 0, `B C D` \[N\].
    pub fn slope_at_rest(&self) -> f64 {
        self.p.b * self.p.c * self.p.d
    }
}

impl FrictionModel for MagicFormula {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        let MagicFormulaParams { b, c, d, e } = self.p;
        let bs = b * inp.v;
        d * (c * (bs - e * (bs - bs.atan())).atan()).sin()
    }

    /// F = D sin(C arctan φ), φ = B s - E (B s - arctan B s):
    /// ∂F/∂v = D C cos(C arctan φ) / (1 + φ²) · B (1 - E (B s)² / (1 + (B s)²)); ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let MagicFormulaParams { b, c, d, e } = self.p;
        let bs = b * inp.v;
        let phi = bs - e * (bs - bs.atan());
        let bs2 = bs * bs;
        let dphi = b * (1.0 - e * bs2 / (1.0 + bs2));
        p.df_dx = 0.0;
        p.df_dv = d * c * (c * phi.atan()).cos() / (1.0 + phi * phi) * dphi;
    }

    fn is_stiff(&self) -> bool {
        self.slope_at_rest() > STIFF_SLOPE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn f(m: &MagicFormula, s: f64) -> f64 {
        m.force(&Input::new(0.0, 0.0, s), &[], &[])
    }

    /// The slip of the peak, found independently: solve
    /// u - E (u - arctan u) = tan(π / (2C)) for u = B s by bisection.
    fn peak_slip(p: &MagicFormulaParams) -> f64 {
        let target = (PI / (2.0 * p.c)).tan();
        let g = |u: f64| u - p.e * (u - u.atan()) - target;
        let (mut lo, mut hi) = (0.0, 1.0);
        while g(hi) < 0.0 {
            hi *= 2.0;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if g(mid) < 0.0 {
                lo = mid
            } else {
                hi = mid
            }
        }
        0.5 * (lo + hi) / p.b
    }

    /// The maximum of F over a fine slip grid is D, and it sits at the
    /// closed-form peak slip (E = 0: s = tan(π/(2C))/B).
    #[test]
    fn peak_value_is_d_at_the_closed_form_slip() {
        for p in [
            MagicFormulaParams { b: 10.0, c: 1.9, d: 1.0, e: 0.0 },
            MagicFormulaParams { b: 10.0, c: 1.9, d: 3.0, e: 0.97 },
            MagicFormulaParams { b: 7.0, c: 1.3, d: 2.0, e: -0.5 },
            MagicFormulaParams { b: 12.0, c: 1.65, d: 1.0, e: 0.5 },
        ] {
            let m = MagicFormula::new(p).unwrap();
            let (mut best, mut at) = (f64::NEG_INFINITY, 0.0);
            for k in 0..=200_000 {
                let s = k as f64 * 5e-6;
                let x = f(&m, s);
                if x > best {
                    best = x;
                    at = s;
                }
            }
            let sp = peak_slip(&p);
            if p.e == 0.0 {
                assert!((sp - (PI / (2.0 * p.c)).tan() / p.b).abs() < 1e-12);
            }
            assert!((best - p.d).abs() < 1e-8 * p.d, "{p:?}: max {best}");
            assert!((at - sp).abs() < 2e-3 * sp.max(0.01), "{p:?}: peak at {at}, closed form {sp}");
            assert!((f(&m, sp) - p.d).abs() < 1e-12 * p.d);
        }
    }

    /// Odd in the slip, slope B C D at 0, and the sliding asymptote D sin(Cπ/2).
    #[test]
    fn odd_slope_at_rest_and_asymptote() {
        let p = MagicFormulaParams { b: 10.0, c: 1.6, d: 2.0, e: 0.6 };
        let m = MagicFormula::new(p).unwrap();
        for s in [1e-4, 0.05, 0.3, 2.0] {
            assert_eq!(f(&m, -s), -f(&m, s));
        }
        let h = 1e-7;
        assert!(((f(&m, h) - f(&m, -h)) / (2.0 * h) - 32.0).abs() < 1e-5);
        assert_eq!(m.slope_at_rest(), 32.0);
        // the argument of the sine approaches C π/2 like C (π/2 - 1/((1-E) B s))
        let far = f(&m, 1e7);
        assert!((far - 2.0 * (1.6 * PI / 2.0).sin()).abs() < 1e-6, "{far}");
        assert!(!m.is_stiff());
    }

    #[test]
    fn shape_factor_beyond_two_is_refused() {
        let e = MagicFormula::new(MagicFormulaParams { c: 2.5, ..Default::default() }).unwrap_err();
        assert!(e.to_string().contains("(0, 2]"), "{e}");
        assert!(MagicFormula::new(MagicFormulaParams { e: 1.2, ..Default::default() }).is_err());
    }

    /// D used to be called the peak force, which it is not for C < 1: the
    /// argument of the sine never reaches π/2, the force rises monotonically
    /// and stays below D, tending to D sin(C π/2).
    #[test]
    fn d_is_not_the_peak_force_for_c_below_one() {
        let p = MagicFormulaParams { b: 10.0, c: 0.6, d: 2.0, e: 0.0 };
        let m = MagicFormula::new(p).unwrap();
        let f: Vec<f64> =
            (1..=20000).map(|k| m.force(&Input::new(0.0, 0.0, k as f64 * 0.05), &[], &[])).collect();
        assert!(f.windows(2).all(|w| w[1] >= w[0]), "not monotonic");
        let limit = p.d * (p.c * std::f64::consts::FRAC_PI_2).sin();
        let top = f[f.len() - 1];
        assert!(top < limit && limit - top < 1e-3 * limit, "{top} vs {limit}");
        assert!(limit < 0.85 * p.d);
    }
}
