//! `friction_lag`: Al-Bender's friction-lag model, the sliding force relaxing
//! towards the Stribeck curve at a finite rate, so that it circles around the
//! static curve when the velocity varies (frictional memory).
//!
//! # Equations
//! ```text
//! s(v) = sign(v) (Fc + (Fs - Fc) φ(v))        (the Stribeck curve, φ from `shape`)
//! dz/dt = f(v) (1 - z/s(v)),  f(v) = C sign(v), f(0) = 0
//!       = C (sign(v) - z/|s(v)|)               (no evolution at rest)
//! F = z + kv v
//! at constant v != 0: z relaxes to s(v) with time constant τ(v) = |s(v)|/C,
//!   z(t) = s(v) + (z(0) - s(v)) exp(-t/τ(v));  steady state F = s(v) + kv v
//! ```
//!
//! Al-Bender (Fundamentals of friction modeling), Fig. 8 gives the constitutive equation as
//! `dF/dt = f (1 - F/s(v)), f(0) = 0` with `s(v)` the velocity-weakening
//! curve as attractor; the extraction does not say what `f` is. We take the
//! rate function of the sliding law of the Generalized Maxwell-Slip model by
//! the same authors, `f = C sign(v)` (Al-Bender, Lampaert, Swevers 2005),
//! which vanishes at rest as required, makes `s(v)` attracting in both
//! directions, and turns the model into a first-order lag of time constant
//! `|s(v)|/C`. The viscous part `kv v` is instantaneous (the seed's `f2(v)`).
//! The model describes gross sliding: it has no pre-sliding regime, and
//! through a velocity reversal the force ramps from one branch to the other
//! at the rate `2C` or so.
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb friction force, the Stribeck curve at high speed |
//! | Fs | `fs` | N | (0, inf) | 1.5 | static friction force, the Stribeck curve at v -> 0 (>= fc) |
//! | vs | `vs` | m/s | (0, inf) | 0.01 | Stribeck velocity |
//! | φ | `shape` | - | exponential | tustin | gaussian | lorentzian | two_exponential | "exponential" | Stribeck curve shape (see friction_models::shape) |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | vs2 | `vs2` | m/s | (0, inf) | 0.01 | second Stribeck velocity (two_exponential shape) |
//! | w | `shape_weight` | - | [0, 1] | 0.5 | weight of the first exponential (two_exponential shape) |
//! | kv | `kv` | N s/m | [0, inf) | 0 | viscous coefficient (instantaneous part kv v) |
//! | C | `c` | N/s | (0, inf) | 100 | attraction rate: the force relaxes to s(v) with time constant abs(s(v))/C |
//!
//! # States
//! `z[0] = z`, the lagging (velocity-weakening) part of the force \[N\]; starts
//! at 0 (unloaded contact). `|z| <= Fs` is invariant.
//!
//! # Sources
//! Al-Bender (Fundamentals of friction modeling), Al-Bender, "Fundamentals of friction modeling", "Friction lag"
//! and Fig. 8; F. Al-Bender, V. Lampaert, J. Swevers, "The generalized
//! Maxwell-slip model: a novel model for friction simulation and
//! compensation", IEEE Trans. Autom. Control 50, 1883-1887, 2005;
//! Olsson 1996, "Frictional Lag" (Hess and Soom 1990).

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};
use crate::shape::{StribeckShape, EXPONENT, SHAPE, VS2, WEIGHT};

/// Static description of `friction_lag`.
pub static INFO: ModelInfo = ModelInfo {
    id: "friction_lag",
    summary: "Al-Bender's friction lag: dz/dt = C sgn(v) (1 - z/s(v)), the force lags the Stribeck curve",
    family: Family::ContinuousState,
    equations: "s(v) = sign(v) (Fc + (Fs - Fc) φ(v))        (the Stribeck curve, φ from `shape`)
dz/dt = f(v) (1 - z/s(v)),  f(v) = C sign(v), f(0) = 0
      = C (sign(v) - z/|s(v)|)               (no evolution at rest)
F = z + kv v
at constant v != 0: z relaxes to s(v) with time constant τ(v) = |s(v)|/C,
  z(t) = s(v) + (z(0) - s(v)) exp(-t/τ(v));  steady state F = s(v) + kv v",
    params: &[
        ParamSpec::real(
            "fc",
            "Fc",
            "N",
            1.0,
            Range::POSITIVE,
            "Coulomb friction force, the Stribeck curve at high speed",
        ),
        ParamSpec::real(
            "fs",
            "Fs",
            "N",
            1.5,
            Range::POSITIVE,
            "static friction force, the Stribeck curve at v -> 0 (>= fc)",
        ),
        ParamSpec::real("vs", "vs", "m/s", 0.01, Range::POSITIVE, "Stribeck velocity"),
        SHAPE,
        EXPONENT,
        VS2,
        WEIGHT,
        ParamSpec::real(
            "kv",
            "kv",
            "N s/m",
            0.0,
            Range::NON_NEGATIVE,
            "viscous coefficient (instantaneous part kv v)",
        ),
        ParamSpec::real(
            "c",
            "C",
            "N/s",
            100.0,
            Range::POSITIVE,
            "attraction rate: the force relaxes to s(v) with time constant abs(s(v))/C",
        ),
    ],
    states: "z[0] = z, the lagging part of the friction force [N]",
    sources: "Al-Bender (Fundamentals of friction modeling), friction lag, Fig. 8; Al-Bender, Lampaert, Swevers 2005 (GMS); Olsson 1996 (Hess and Soom 1990)",
};

/// Parameters of [`FrictionLag`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrictionLagParams {
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Static force `Fs` \[N\], at least `Fc`.
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Shape of the Stribeck curve.
    pub shape: StribeckShape,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
    /// Attraction rate `C` [N/s].
    pub c: f64,
}

impl Default for FrictionLagParams {
    fn default() -> Self {
        FrictionLagParams {
            fc: 1.0,
            fs: 1.5,
            vs: 0.01,
            shape: StribeckShape::Exponential { exponent: 2.0 },
            kv: 0.0,
            c: 100.0,
        }
    }
}

impl FrictionLagParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "fs", self.fs)?;
        check(&INFO, "vs", self.vs)?;
        match self.shape {
            StribeckShape::Exponential { exponent } => check(&INFO, "exponent", exponent)?,
            StribeckShape::Lorentzian => {}
            StribeckShape::TwoExponential { vs2, weight } => {
                check(&INFO, "vs2", vs2)?;
                check(&INFO, "shape_weight", weight)?;
            }
        }
        check(&INFO, "kv", self.kv)?;
        check(&INFO, "c", self.c)?;
        if self.fs < self.fc {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "fs",
                value: self.fs,
                message: format!("must be >= fc = {}", self.fc),
            });
        }
        Ok(())
    }

    /// Magnitude of the Stribeck curve `|s(v)| = Fc + (Fs - Fc) φ(v)` \[N\].
    pub fn stribeck(&self, v: f64) -> f64 {
        self.shape.level(self.fc, self.fs, self.vs, v)
    }
}

/// The friction-lag model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::friction_lag::{FrictionLag, FrictionLagParams};
/// let m = FrictionLag::new(FrictionLagParams::default()).unwrap();
/// let mut dz = [0.0];
/// // on the Stribeck curve the state is at rest ...
/// let s = m.params().stribeck(0.02);
/// m.rates(&Input::new(0.0, 0.0, 0.02), &[s], &[], &mut dz);
/// assert!(dz[0].abs() < 1e-12);
/// // ... and below it the force grows at the rate C (1 - z/s)
/// m.rates(&Input::new(0.0, 0.0, 0.02), &[0.0], &[], &mut dz);
/// assert_eq!(dz[0], 100.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrictionLag {
    p: FrictionLagParams,
}

impl FrictionLag {
    /// A validated model.
    pub fn new(p: FrictionLagParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(FrictionLag { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = FrictionLagParams {
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            vs: r.real("vs")?,
            shape: StribeckShape::read(&r)?,
            kv: r.real("kv")?,
            c: r.real("c")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &FrictionLagParams {
        &self.p
    }
}

impl FrictionModel for FrictionLag {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        if k == 0 {
            Q::Force
        } else {
            Q::Unknown
        }
    }
    fn n_states(&self) -> usize {
        1
    }
    fn force(&self, inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        z[0] + self.p.kv * inp.v
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        dz[0] = if inp.v == 0.0 { 0.0 } else { self.p.c * (sign(inp.v) - z[0] / self.p.stribeck(inp.v)) };
    }
    /// g = C (sign(v) - z/S(v)), S = Fc + (Fs - Fc) φ(v): ∂g/∂z = -C/S,
    /// ∂g/∂v = C z S'(v)/S²; F = z + kv v. At v = 0, where the code sets g = 0
    /// for every z (a jump in v), ∂g/∂z = ∂g/∂v = 0.
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let v = inp.v;
        p.df_dx = 0.0;
        p.df_dv = self.p.kv;
        p.df_dz[0] = 1.0;
        p.dg_dx[0] = 0.0;
        if v == 0.0 {
            p.dg_dz[0] = 0.0;
            p.dg_dv[0] = 0.0;
        } else {
            let s = self.p.stribeck(v);
            let ds = self.p.shape.dlevel(self.p.fc, self.p.fs, self.p.vs, v);
            p.dg_dz[0] = -self.p.c / s;
            p.dg_dv[0] = self.p.c * z[0] * ds / (s * s);
        }
    }
    /// Stiff when the shortest lag time `Fc/C` (reached in fast sliding) is below 1 ms.
    fn is_stiff(&self) -> bool {
        self.p.fc / self.p.c < 1e-3
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, Path};

    fn params() -> FrictionLagParams {
        FrictionLagParams { fc: 1.0, fs: 2.0, vs: 0.01, kv: 5.0, c: 80.0, ..FrictionLagParams::default() }
    }

    /// The Gaussian Stribeck curve, written out independently of the model.
    fn gaussian(p: &FrictionLagParams, v: f64) -> f64 {
        p.fc + (p.fs - p.fc) * (-(v / p.vs).powi(2)).exp()
    }

    /// At constant velocity the force relaxes exponentially from 0 onto the
    /// static curve: F(t) = s(v) (1 - exp(-C t/|s(v)|)) + kv v.
    #[test]
    fn steady_state_is_the_static_curve() {
        let p = params();
        let m = FrictionLag::new(p).unwrap();
        for v in [-0.03, 0.002, 0.01, 0.05] {
            let g = gaussian(&p, v);
            let tau = g / p.c;
            let rec = drive(&m, &Path::points(&[0.0, v * 12.0 * tau], v.abs()), tau / 100.0);
            for r in &rec[1..] {
                let exact = sign(v) * g * (1.0 - (-r.t / tau).exp()) + p.kv * v;
                assert!((r.f - exact).abs() < 1e-8, "v {v} t {}: {} vs {exact}", r.t, r.f);
            }
            let end = rec.last().unwrap().f;
            assert!((end - (sign(v) * g + p.kv * v)).abs() < 1e-5 * g, "v {v}: {end}");
        }
    }

    /// Under v = vb + A sin(ωt) on a bias vb the F-v curve is a loop around
    /// the static curve, higher while accelerating. For small A the lag is
    /// linear with τ = |s(vb)|/C and the loop's width at v = vb is
    /// 2 |s'(vb)| A ωτ / (1 + (ωτ)²): it vanishes as ω -> 0 (quasi-static
    /// sliding follows the static curve) and peaks at ωτ = 1. With A = vs/100
    /// the nonlinear corrections stay below 1e-4 of the width: 1e-3 allowed.
    #[test]
    fn loop_width_around_the_static_curve_shrinks_with_frequency() {
        let p = FrictionLagParams { kv: 0.0, ..params() };
        let m = FrictionLag::new(p).unwrap();
        let (vb, amp) = (p.vs, 0.01 * p.vs);
        let tau = gaussian(&p, vb) / p.c;
        let slope = -(p.fs - p.fc) * 2.0 * vb / (p.vs * p.vs) * (-(vb / p.vs).powi(2)).exp();
        let mut widths = Vec::new();
        for wt in [0.01, 0.1, 1.0, 5.0] {
            let omega = wt / tau;
            let period = 2.0 * std::f64::consts::PI / omega;
            let cycles = (15.0 * tau / period).ceil() + 2.0;
            let path = Path::VelocitySine {
                bias: vb,
                amplitude: amp,
                frequency: 1.0 / period,
                duration: cycles * period,
            };
            let rec = drive(&m, &path, period / 400.0 * (1.0 + 1e-9));
            // the last cycle: v passes vb upwards at t = (cycles-1) T, downwards half a period later
            let at =
                |t: f64| rec.iter().min_by(|a, b| (a.t - t).abs().total_cmp(&(b.t - t).abs())).unwrap().f;
            let up = at((cycles - 1.0) * period);
            let down = at((cycles - 0.5) * period);
            let width = up - down;
            let exact = 2.0 * slope.abs() * amp * wt / (1.0 + wt * wt);
            assert!(width > 0.0, "ωτ {wt}: the force must be higher while accelerating");
            assert!((width - exact).abs() < 1e-3 * exact, "ωτ {wt}: width {width} vs {exact}");
            widths.push(width);
        }
        assert!(widths[0] < widths[1] && widths[1] < widths[2]);
        assert!(widths[0] < 0.02 * widths[2]);
    }

    /// Odd symmetry of force and rates, and no evolution at rest.
    #[test]
    fn odd_symmetry_and_rest() {
        let m = FrictionLag::new(params()).unwrap();
        let (mut a, mut b) = ([0.0], [0.0]);
        for z in [0.0, 0.7, -1.9] {
            for v in [0.0, 1e-4, 0.03] {
                let f = m.force(&Input::new(0.0, 0.0, v), &[z], &[]);
                assert_eq!(f, -m.force(&Input::new(0.0, 0.0, -v), &[-z], &[]));
                m.rates(&Input::new(0.0, 0.0, v), &[z], &[], &mut a);
                m.rates(&Input::new(0.0, 0.0, -v), &[-z], &[], &mut b);
                assert_eq!(a[0], -b[0]);
                if v == 0.0 {
                    assert_eq!(a[0], 0.0);
                }
            }
        }
    }

    /// Fs below Fc is refused.
    #[test]
    fn stiction_below_coulomb_is_refused() {
        let e = FrictionLag::new(FrictionLagParams { fs: 0.5, ..params() }).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "fs", .. }), "{e}");
    }
}
