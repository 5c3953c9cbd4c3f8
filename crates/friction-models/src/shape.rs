//! Stribeck curve parameterisations shared by the Stribeck-type models.
//!
//! ```text
//! g(v) = Fc + (Fs - Fc) φ(v)          (magnitude of the steady sliding force, without viscous part)
//! exponential:      φ = exp(-|v/vs|^i)            (i = `exponent`; Tustin i = 1, Bo-Pavelescu 0.5..1)
//! tustin:           φ = exp(-|v/vs|)
//! gaussian:         φ = exp(-(v/vs)^2)             (Armstrong-Hélouvry 1991)
//! lorentzian:       φ = 1 / (1 + (v/vs)^2)         (Hess-Soom)
//! two_exponential:  φ = w exp(-|v/vs|) + (1 - w) exp(-|v/vs2|)   (Armstrong-Hélouvry 1991)
//! ```
//! Source: Olsson 1996 eq. 2.7 and the parameterisations after it.

use crate::error::ModelError;
use crate::params::{ParamKind, ParamReader, ParamSpec, Range};

/// A Stribeck curve shape φ(v), with φ(0) = 1 and φ(∞) = 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StribeckShape {
    /// `exp(-|v/vs|^i)`.
    Exponential {
        /// Exponent `i`.
        exponent: f64,
    },
    /// `1 / (1 + (v/vs)^2)`.
    Lorentzian,
    /// `w exp(-|v/vs|) + (1 - w) exp(-|v/vs2|)`.
    TwoExponential {
        /// Second Stribeck velocity `vs2` [m/s].
        vs2: f64,
        /// Weight `w` of the first exponential.
        weight: f64,
    },
}

/// exp(-x) for x >= 0, without the call where the result is 0: beyond
/// x = 746, exp(-x) is below the smallest subnormal and libm takes its slow
/// underflow path (3 % of the LuGre stick-slip example, sliding at a
/// hundred Stribeck velocities).
#[inline]
fn exp_neg(x: f64) -> f64 {
    if x > 746.0 {
        0.0
    } else {
        (-x).exp()
    }
}

impl StribeckShape {
    /// φ(v) for Stribeck velocity `vs`.
    #[inline]
    pub fn phi(&self, v: f64, vs: f64) -> f64 {
        let r = (v / vs).abs();
        match *self {
            StribeckShape::Exponential { exponent } => {
                if exponent == 2.0 {
                    exp_neg(r * r)
                } else if exponent == 1.0 {
                    (-r).exp()
                } else {
                    (-r.powf(exponent)).exp()
                }
            }
            StribeckShape::Lorentzian => 1.0 / (1.0 + r * r),
            StribeckShape::TwoExponential { vs2, weight } => {
                weight * (-r).exp() + (1.0 - weight) * (-(v / vs2).abs()).exp()
            }
        }
    }

    /// dφ/dv for Stribeck velocity `vs` (at v = 0 the right-hand derivative
    /// of the even function, which is 0 for the smooth shapes).
    ///
    /// ```
    /// use friction_models::shape::StribeckShape;
    /// let s = StribeckShape::Exponential { exponent: 2.0 };
    /// let h = 1e-7;
    /// let fd = (s.phi(0.0013 + h, 0.001) - s.phi(0.0013 - h, 0.001)) / (2.0 * h);
    /// assert!((s.dphi(0.0013, 0.001) - fd).abs() < 1e-6 * fd.abs());
    /// ```
    #[inline]
    pub fn dphi(&self, v: f64, vs: f64) -> f64 {
        let r = (v / vs).abs();
        // d r / d v
        let dr = v.signum() / vs;
        match *self {
            StribeckShape::Exponential { exponent } => {
                if exponent == 2.0 {
                    -2.0 * r * exp_neg(r * r) * dr
                } else if exponent == 1.0 {
                    -(-r).exp() * dr
                } else if r == 0.0 {
                    0.0
                } else {
                    -exponent * r.powf(exponent - 1.0) * (-r.powf(exponent)).exp() * dr
                }
            }
            StribeckShape::Lorentzian => -2.0 * r / (1.0 + r * r).powi(2) * dr,
            StribeckShape::TwoExponential { vs2, weight } => {
                -weight * (-r).exp() * dr - (1.0 - weight) * (-(v / vs2).abs()).exp() * v.signum() / vs2
            }
        }
    }

    /// The Stribeck level `g(v) = Fc + (Fs - Fc) φ(v)` \[N\]: the magnitude
    /// of the steady sliding force without viscous part, the one place every
    /// Stribeck-type model computes it (`lugre`, `elasto_plastic`, `gms`,
    /// `leuven`, `stribeck` and its `sat`, `tanh` and `dankowicz` forms,
    /// `friction_lag`). Arguments in the order of the models' tables: the
    /// Coulomb level `fc`, the static level `fs`, the Stribeck velocity `vs`,
    /// then the velocity `v`.
    ///
    /// ```
    /// use friction_models::shape::StribeckShape;
    /// let s = StribeckShape::Lorentzian;
    /// // Fs at rest, half-way between Fc and Fs at v = vs, Fc far out
    /// assert_eq!(s.level(1.0, 1.5, 0.01, 0.0), 1.5);
    /// assert_eq!(s.level(1.0, 1.5, 0.01, 0.01), 1.25);
    /// assert!((s.level(1.0, 1.5, 0.01, 10.0) - 1.0).abs() < 1e-6);
    /// ```
    #[inline]
    pub fn level(&self, fc: f64, fs: f64, vs: f64, v: f64) -> f64 {
        fc + (fs - fc) * self.phi(v, vs)
    }

    /// d/dv of [`StribeckShape::level`], `(Fs - Fc) φ'(v)` [N s/m]
    /// (arguments as there).
    #[inline]
    pub fn dlevel(&self, fc: f64, fs: f64, vs: f64, v: f64) -> f64 {
        (fs - fc) * self.dphi(v, vs)
    }

    /// Read `shape`, `exponent`, `vs2` and `shape_weight` (declare [`SHAPE`],
    /// [`EXPONENT`], [`VS2`] and [`WEIGHT`] in the model's table).
    pub fn read(r: &ParamReader<'_>) -> Result<Self, ModelError> {
        let shape = r.choice("shape")?;
        let exponent = r.real("exponent")?;
        let vs2 = r.real("vs2")?;
        let weight = r.real("shape_weight")?;
        Ok(match shape {
            "exponential" => StribeckShape::Exponential { exponent },
            "tustin" => StribeckShape::Exponential { exponent: 1.0 },
            "gaussian" => StribeckShape::Exponential { exponent: 2.0 },
            "lorentzian" => StribeckShape::Lorentzian,
            _ => StribeckShape::TwoExponential { vs2, weight },
        })
    }
}

/// Spec of the `shape` parameter.
pub const SHAPE: ParamSpec = ParamSpec {
    name: "shape",
    symbol: "φ",
    unit: "-",
    kind: ParamKind::Choice {
        default: "exponential",
        options: &["exponential", "tustin", "gaussian", "lorentzian", "two_exponential"],
    },
    doc: "Stribeck curve shape (see friction_models::shape)",
};
/// Spec of the Stribeck `exponent` parameter (default 2, Gaussian).
pub const EXPONENT: ParamSpec =
    ParamSpec::real("exponent", "i", "-", 2.0, Range::POSITIVE, "Stribeck exponent of the exponential shape");
/// Spec of `vs2`, the second Stribeck velocity of the two-exponential shape.
pub const VS2: ParamSpec = ParamSpec::real(
    "vs2",
    "vs2",
    "m/s",
    0.01,
    Range::POSITIVE,
    "second Stribeck velocity (two_exponential shape)",
);
/// Spec of `shape_weight`, the weight of the first exponential.
pub const WEIGHT: ParamSpec = ParamSpec::real(
    "shape_weight",
    "w",
    "-",
    0.5,
    Range::UNIT,
    "weight of the first exponential (two_exponential shape)",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_is_one_at_rest_and_decays_monotonically() {
        let shapes = [
            StribeckShape::Exponential { exponent: 0.5 },
            StribeckShape::Exponential { exponent: 2.0 },
            StribeckShape::Lorentzian,
            StribeckShape::TwoExponential { vs2: 0.1, weight: 0.3 },
        ];
        for s in shapes {
            assert_eq!(s.phi(0.0, 1e-3), 1.0);
            let mut last = 1.0;
            for k in 1..200 {
                let v = 1e-5 * 1.1f64.powi(k);
                let p = s.phi(v, 1e-3);
                assert!(p <= last && p >= 0.0, "{s:?} at {v}");
                assert_eq!(p, s.phi(-v, 1e-3));
                last = p;
            }
            assert!(last < 1e-3, "{s:?} does not decay: {last}");
        }
    }
}
