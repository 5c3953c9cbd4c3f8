//! The code `stribeck_sat` and `stribeck_tanh` share: the Stribeck level
//! times a regularised sign function plus viscous friction,
//!
//! ```text
//! F = (Fc + (Fs - Fc) φ(v)) s(k v) + kv v,   s = sat (k = ksat) or tanh (k = ktanh)
//! ```
//!
//! The two models differ only in the smoothing `s` ([`Smoothing`]); each
//! keeps its own module with its id, parameter names, equations, parameter
//! table, states and sources, and hands its parameters to a [`Regularised`]
//! curve for reading, checking, the force and its slope.

use super::coulomb_sat::{dsat, sat, STIFF_SLOPE};
use super::stribeck::validate_curve;
use crate::error::ModelError;
use crate::model::ModelInfo;
use crate::params::{check, ParamMap, ParamReader};
use crate::shape::StribeckShape;

/// The regularisation of the sign function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Smoothing {
    /// `sat(u) = min(max(u, -1), 1)` (`stribeck_sat`, gain `ksat`).
    Sat,
    /// `tanh(u)` (`stribeck_tanh`, gain `ktanh`).
    Tanh,
}

impl Smoothing {
    /// The name of the gain parameter in the model's table.
    fn gain(self) -> &'static str {
        match self {
            Smoothing::Sat => "ksat",
            Smoothing::Tanh => "ktanh",
        }
    }

    /// `s(u)`.
    #[inline]
    fn value(self, u: f64) -> f64 {
        match self {
            Smoothing::Sat => sat(u),
            Smoothing::Tanh => u.tanh(),
        }
    }

    /// `s(u)` and `s'(u)` (for tanh, `1 - tanh²(u)`).
    #[inline]
    fn value_and_slope(self, u: f64) -> (f64, f64) {
        match self {
            Smoothing::Sat => (sat(u), dsat(u)),
            Smoothing::Tanh => {
                let t = u.tanh();
                (t, 1.0 - t * t)
            }
        }
    }
}

/// A regularised Stribeck curve: the parameters of `stribeck_sat` or
/// `stribeck_tanh` with the gain under the common name `k`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Regularised {
    /// Coulomb friction force `Fc` \[N\].
    pub fc: f64,
    /// Static level `Fs` \[N\].
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Gain `k` of the smoothing (`ksat` or `ktanh`) [s/m].
    pub k: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
    /// Shape φ of the Stribeck curve.
    pub shape: StribeckShape,
    /// The smoothing `s`.
    pub smoothing: Smoothing,
}

impl Regularised {
    /// Read the model's parameters from user values (`fc`, `fs`, `vs`, the
    /// gain, `kv` and the shape, in this order, then refuse unknown names);
    /// not yet checked against their ranges.
    pub fn read(
        info: &'static ModelInfo,
        values: &ParamMap,
        smoothing: Smoothing,
    ) -> Result<Self, ModelError> {
        let r = ParamReader::new(info.id, info.params, values);
        let curve = Regularised {
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            vs: r.real("vs")?,
            k: r.real(smoothing.gain())?,
            kv: r.real("kv")?,
            shape: StribeckShape::read(&r)?,
            smoothing,
        };
        r.finish()?;
        Ok(curve)
    }

    /// Check every parameter against its range in `info` and `fs >= fc`.
    pub fn validate(&self, info: &'static ModelInfo) -> Result<(), ModelError> {
        validate_curve(info, self.fc, self.fs, self.vs, &self.shape)?;
        check(info, self.smoothing.gain(), self.k)?;
        check(info, "kv", self.kv)
    }

    /// The Stribeck level `Fc + (Fs - Fc) φ(v)` \[N\].
    #[inline]
    fn level(&self, v: f64) -> f64 {
        self.shape.level(self.fc, self.fs, self.vs, v)
    }

    /// `F = g(v) s(k v) + kv v` \[N\].
    #[inline]
    pub fn force(&self, v: f64) -> f64 {
        self.level(v) * self.smoothing.value(self.k * v) + self.kv * v
    }

    /// `∂F/∂v = g' s(k v) + g k s'(k v) + kv` [N s/m].
    pub fn df_dv(&self, v: f64) -> f64 {
        let (level, dlevel) = (self.level(v), self.shape.dlevel(self.fc, self.fs, self.vs, v));
        let (s, ds) = self.smoothing.value_and_slope(self.k * v);
        dlevel * s + level * self.k * ds + self.kv
    }

    /// Slope dF/dv at rest, `Fs k + kv` [N s/m].
    pub fn slope_at_rest(&self) -> f64 {
        self.fs * self.k + self.kv
    }

    /// Stiff when the slope at rest exceeds [`STIFF_SLOPE`].
    pub fn is_stiff(&self) -> bool {
        self.slope_at_rest() > STIFF_SLOPE
    }
}
