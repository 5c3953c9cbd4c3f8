//! `lugre`: the LuGre bristle model of Canudas de Wit, Olsson, Åström and
//! Lischinsky: one internal state, the average bristle deflection.
//!
//! # Equations
//! ```text
//! dz/dt = v - σ0 |v| z / g(v)
//! g(v)  = Fc + (Fs - Fc) φ(v)          (Stribeck shape φ, default exp(-(v/vs)^2))
//! F     = σ0 z + σ1 dz/dt + σ2 v
//! steady state at constant v: z = g(v) sign(v) / σ0, F = g(v) sign(v) + σ2 v
//! constant v from z = 0: z(x) = sign(v) (g/σ0) (1 - exp(-σ0 |x| / g))
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | σ0 | `sigma0` | N/m | (0, inf) | 100000 | bristle stiffness |
//! | σ1 | `sigma1` | N s/m | [0, inf) | 316.22776601683796 | bristle (micro-)damping |
//! | σ2 | `sigma2` | N s/m | [0, inf) | 0.4 | viscous friction coefficient |
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb friction force |
//! | Fs | `fs` | N | (0, inf) | 1.5 | static (break-away) friction force |
//! | vs | `vs` | m/s | (0, inf) | 0.001 | Stribeck velocity |
//! | φ | `shape` | - | exponential | tustin | gaussian | lorentzian | two_exponential | "exponential" | Stribeck curve shape (see friction_models::shape) |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | vs2 | `vs2` | m/s | (0, inf) | 0.01 | second Stribeck velocity (two_exponential shape) |
//! | w | `shape_weight` | - | [0, 1] | 0.5 | weight of the first exponential (two_exponential shape) |
//!
//! The defaults are the values of Canudas de Wit, Olsson, Åström, Lischinsky 1995 (σ0 = 1e5 N/m,
//! σ1 = sqrt(1e5) N s/m, σ2 = 0.4 N s/m, Fc = 1 N, Fs = 1.5 N, vs = 0.001 m/s)
//! with their Gaussian Stribeck curve (exponential shape, i = 2). Andersson, Söderberg, Björklund 2007
//! eq. 19 writes g(v) divided by σ0 (a deflection) and names σ2 `kv`; the
//! model is the same. `fs < fc` is allowed and gives a rising curve.
//!
//! # States
//! `z[0] = z`, the average bristle deflection \[m\]; starts at 0 (relaxed).
//! If |z| <= max g / σ0 initially it stays so. Near rest the model is a
//! spring σ0 with damper σ1: dF/dx = σ0 (1 - σ1 |v| / g(v)) at z = 0, and
//! the force jumps by (σ1 + σ2) Δv when the velocity jumps. The bristle
//! dynamics are fast (rate σ0 |v| / g), so the model is stiff.
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007 eq. 19; the Sandia friction-model study eqs. 21-24; Al-Bender (Fundamentals of friction modeling), LuGre model;
//! C. Canudas de Wit, H. Olsson, K.J. Åström, P. Lischinsky, "A new model for
//! control of systems with friction", IEEE TAC 40(3), 419-425, 1995.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};
use crate::shape::{self, StribeckShape};

/// Static description of `lugre`.
pub static INFO: ModelInfo = ModelInfo {
    id: "lugre",
    summary: "LuGre bristle model dz/dt = v - σ0|v|z/g(v), F = σ0 z + σ1 dz/dt + σ2 v",
    family: Family::ContinuousState,
    equations: "dz/dt = v - σ0 |v| z / g(v)
g(v)  = Fc + (Fs - Fc) φ(v)          (Stribeck shape φ, default exp(-(v/vs)^2))
F     = σ0 z + σ1 dz/dt + σ2 v
steady state at constant v: z = g(v) sign(v) / σ0, F = g(v) sign(v) + σ2 v
constant v from z = 0: z(x) = sign(v) (g/σ0) (1 - exp(-σ0 |x| / g))",
    params: &[
        ParamSpec::real("sigma0", "σ0", "N/m", 1e5, Range::POSITIVE, "bristle stiffness"),
        ParamSpec::real(
            "sigma1",
            "σ1",
            "N s/m",
            316.22776601683796,
            Range::NON_NEGATIVE,
            "bristle (micro-)damping",
        ),
        ParamSpec::real("sigma2", "σ2", "N s/m", 0.4, Range::NON_NEGATIVE, "viscous friction coefficient"),
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::POSITIVE, "Coulomb friction force"),
        ParamSpec::real("fs", "Fs", "N", 1.5, Range::POSITIVE, "static (break-away) friction force"),
        ParamSpec::real("vs", "vs", "m/s", 0.001, Range::POSITIVE, "Stribeck velocity"),
        shape::SHAPE,
        shape::EXPONENT,
        shape::VS2,
        shape::WEIGHT,
    ],
    states: "z[0] = z, the average bristle deflection [m]",
    sources: "Andersson, Söderberg, Björklund 2007 eq. 19; the Sandia friction-model study eqs. 21-24; Al-Bender (Fundamentals of friction modeling); Canudas de Wit, Olsson, Åström, Lischinsky 1995",
};

/// Parameters of [`LuGre`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LuGreParams {
    /// Bristle stiffness `σ0` [N/m].
    pub sigma0: f64,
    /// Bristle damping `σ1` [N s/m].
    pub sigma1: f64,
    /// Viscous coefficient `σ2` [N s/m].
    pub sigma2: f64,
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Static force `Fs` \[N\].
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Stribeck shape φ.
    pub shape: StribeckShape,
}

impl Default for LuGreParams {
    /// Canudas de Wit, Olsson, Åström, Lischinsky 1995.
    fn default() -> Self {
        LuGreParams {
            sigma0: 1e5,
            sigma1: 1e5f64.sqrt(),
            sigma2: 0.4,
            fc: 1.0,
            fs: 1.5,
            vs: 0.001,
            shape: StribeckShape::Exponential { exponent: 2.0 },
        }
    }
}

impl LuGreParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "sigma0", self.sigma0)?;
        check(&INFO, "sigma1", self.sigma1)?;
        check(&INFO, "sigma2", self.sigma2)?;
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "fs", self.fs)?;
        check(&INFO, "vs", self.vs)?;
        check_shape(&INFO, &self.shape)
    }
}

/// Check the numbers inside a Stribeck shape against the shape parameters'
/// ranges of `info` (which must declare `exponent`, `vs2`, `shape_weight`).
pub(crate) fn check_shape(info: &ModelInfo, s: &StribeckShape) -> Result<(), ModelError> {
    match *s {
        StribeckShape::Exponential { exponent } => check(info, "exponent", exponent),
        StribeckShape::Lorentzian => Ok(()),
        StribeckShape::TwoExponential { vs2, weight } => {
            check(info, "vs2", vs2)?;
            check(info, "shape_weight", weight)
        }
    }
}

/// The LuGre model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::lugre::{LuGre, LuGreParams};
/// let m = LuGre::new(LuGreParams::default()).unwrap();
/// // on the steady state z = g(v)/σ0 the bristles do not move and F = g(v) + σ2 v
/// let v = 0.01;
/// let z = [m.g(v) / 1e5];
/// let mut dz = [0.0];
/// m.rates(&Input::new(0.0, 0.0, v), &z, &[], &mut dz);
/// assert!(dz[0].abs() < 1e-15);
/// assert!((m.force(&Input::new(0.0, 0.0, v), &z, &[]) - (m.g(v) + 0.4 * v)).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LuGre {
    p: LuGreParams,
}

impl LuGre {
    /// A validated model.
    pub fn new(p: LuGreParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(LuGre { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = LuGreParams {
            sigma0: r.real("sigma0")?,
            sigma1: r.real("sigma1")?,
            sigma2: r.real("sigma2")?,
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            vs: r.real("vs")?,
            shape: StribeckShape::read(&r)?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &LuGreParams {
        &self.p
    }

    /// The Stribeck curve magnitude `g(v) = Fc + (Fs - Fc) φ(v)` \[N\], always > 0.
    pub fn g(&self, v: f64) -> f64 {
        self.p.shape.level(self.p.fc, self.p.fs, self.p.vs, v)
    }

    fn zdot(&self, v: f64, z: f64) -> f64 {
        bristle_rate(self.p.sigma0, v, z, self.g(v))
    }
}

// LuGre's law, written once: the model above, the per-contact exact update
// (`update::exact`), the vectorised batch kernel (`update::lugre_batch`) and
// the planar update (`update::planar::lugre`) all call these. They are
// `#[inline(always)]` so that inside the kernels (compiled for AVX2 + FMA and
// AVX-512) they are the same arithmetic instructions as the expressions they
// replaced (the disassembly of the AVX2 + FMA kernel differs by register
// moves only). Measured when they were introduced (2026-11-29, 2-core
// AVX-512 machine, 10^5 contacts, one thread, two alternating runs each):
// `cargo bench -p friction-models --bench update -- lugre/serial` 0.571 and
// 0.586 ms before, 0.575 and 0.583 ms after; `--bench update_2d --
// lugre/serial` 3.63 and 3.70 ms before, 3.64 and 3.68 ms after. Their order
// of operations is part of the contract: every output stayed the same bit for
// bit, and the 1-D and 2-D updates are equal bit for bit.

/// The bristle rate `dz/dt = v - σ0 |v| z / g` at slip velocity `v`,
/// deflection `z` and Stribeck level `g = g(v)` (the model's form).
#[inline(always)]
pub(crate) fn bristle_rate(sigma0: f64, v: f64, z: f64, g: f64) -> f64 {
    v - sigma0 * v.abs() * z / g
}

/// The bristle rate written with the relaxation rate per unit of slip
/// `k = σ0 / g`, which the exact step shares with its exponential:
/// `dz/dt = v - |v| z k`. `speed` is `|v|`; in 2-D the magnitude of the
/// velocity vector, `v` and `z` then one component each. It rounds
/// differently from [`bristle_rate`], which the model keeps.
#[inline(always)]
pub(crate) fn bristle_rate_per_slip(v: f64, speed: f64, z: f64, k: f64) -> f64 {
    v - speed * z * k
}

/// The force `F = σ0 z + σ1 dz/dt + σ2 v` (per component in 2-D).
#[inline(always)]
pub(crate) fn bristle_force(sigma0: f64, sigma1: f64, sigma2: f64, z: f64, zdot: f64, v: f64) -> f64 {
    sigma0 * z + sigma1 * zdot + sigma2 * v
}

/// The exact step of the deflection over a slip `Δu` at constant velocity:
/// `z' = zss + (z - zss) e`, with the steady deflection `zss = sign(v) g / σ0`
/// (per component in 2-D: `(v/|v|) g / σ0`) and the relaxation factor
/// `e = exp(-σ0 |Δu| / g)`. With `FMA` the product and the sum are one
/// fused multiply-add (the vectorised kernels); without it the result is
/// `zss + (z - zss) e` rounded as written.
#[inline(always)]
pub(crate) fn bristle_step<const FMA: bool>(z: f64, zss: f64, e: f64) -> f64 {
    if FMA {
        (z - zss).mul_add(e, zss)
    } else {
        (z - zss) * e + zss
    }
}

impl FrictionModel for LuGre {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        if k == 0 {
            Q::Displacement
        } else {
            Q::Unknown
        }
    }
    fn n_states(&self) -> usize {
        1
    }
    fn force(&self, inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        let p = &self.p;
        bristle_force(p.sigma0, p.sigma1, p.sigma2, z[0], self.zdot(inp.v, z[0]), inp.v)
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        dz[0] = self.zdot(inp.v, z[0]);
    }
    fn force_and_rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) -> f64 {
        let zd = self.zdot(inp.v, z[0]);
        dz[0] = zd;
        bristle_force(self.p.sigma0, self.p.sigma1, self.p.sigma2, z[0], zd, inp.v)
    }
    /// g = v - σ0 |v| z / G(v): ∂g/∂z = -σ0 |v| / G,
    /// ∂g/∂v = 1 - σ0 z (sign(v) G - |v| G') / G²; F = σ0 z + σ1 g + σ2 v.
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let v = inp.v;
        let gv = self.g(v);
        let dgv = self.p.shape.dlevel(self.p.fc, self.p.fs, self.p.vs, v);
        let dz_dz = -self.p.sigma0 * v.abs() / gv;
        let dz_dv = 1.0 - self.p.sigma0 * z[0] * (v.signum() * gv - v.abs() * dgv) / (gv * gv);
        p.dg_dz[0] = dz_dz;
        p.dg_dv[0] = dz_dv;
        p.dg_dx[0] = 0.0;
        p.df_dz[0] = self.p.sigma0 + self.p.sigma1 * dz_dz;
        p.df_dv = self.p.sigma1 * dz_dv + self.p.sigma2;
        p.df_dx = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, work, Path};
    use rand::{RngExt, SeedableRng};

    fn shapes() -> [StribeckShape; 4] {
        [
            StribeckShape::Exponential { exponent: 2.0 },
            StribeckShape::Exponential { exponent: 0.7 },
            StribeckShape::Lorentzian,
            StribeckShape::TwoExponential { vs2: 0.02, weight: 0.4 },
        ]
    }

    /// Stribeck curve computed here from its definition, independently of the model.
    fn stribeck(p: &LuGreParams, v: f64) -> f64 {
        let r = (v / p.vs).abs();
        let phi = match p.shape {
            StribeckShape::Exponential { exponent } => (-r.powf(exponent)).exp(),
            StribeckShape::Lorentzian => 1.0 / (1.0 + r * r),
            StribeckShape::TwoExponential { vs2, weight } => {
                weight * (-r).exp() + (1.0 - weight) * (-(v / vs2).abs()).exp()
            }
        };
        p.fc + (p.fs - p.fc) * phi
    }

    /// At constant velocity from z = 0 the deflection follows
    /// z = sign(v) (g/σ0)(1 - exp(-σ0|x|/g)), so the force is
    /// F = sign(v) g (1 - e) + σ1 v e + σ2 v with e = exp(-σ0|x|/g); after a
    /// few g/σ0 it has settled on the Stribeck curve g(v) sign(v) + σ2 v.
    /// Checked at speeds below, at and above vs, both signs, every shape.
    #[test]
    fn constant_velocity_branch_and_steady_state_on_stribeck_curve() {
        for shape in shapes() {
            let p = LuGreParams { shape, ..Default::default() };
            let m = LuGre::new(p).unwrap();
            for v in [-0.05, -1e-3, -2e-4, 3e-5, 8e-4, 0.02] {
                let g = stribeck(&p, v);
                let dist = 25.0 * g / p.sigma0;
                let dx = 1e-7;
                let rec = drive(&m, &Path::points(&[0.0, dist * v.signum()], v.abs()), dx / v.abs());
                for r in &rec {
                    let e = (-p.sigma0 * r.x.abs() / g).exp();
                    let exact = v.signum() * g * (1.0 - e) + p.sigma1 * v * e + p.sigma2 * v;
                    assert!((r.f - exact).abs() < 1e-6 * g, "{shape:?} v {v} x {}: {} vs {exact}", r.x, r.f);
                }
                let end = rec.last().unwrap().f;
                let curve = g * v.signum() + p.sigma2 * v;
                assert!((end - curve).abs() < 1e-8, "{shape:?} v {v}: settled at {end}, curve {curve}");
            }
        }
    }

    /// F(-v, -z) = -F(v, z) and dz/dt(-v, -z) = -dz/dt(v, z) at seeded random
    /// points, for every shape.
    #[test]
    fn odd_symmetry() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
        for shape in shapes() {
            let m = LuGre::new(LuGreParams { shape, ..Default::default() }).unwrap();
            let (mut a, mut b) = ([0.0], [0.0]);
            for _ in 0..200 {
                let v = rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-6..1));
                let z = rng.random_range(-2e-5..2e-5);
                let x = rng.random_range(-1.0..1.0);
                let f = m.force(&Input::new(0.0, x, v), &[z], &[]);
                let g = m.force(&Input::new(0.0, -x, -v), &[-z], &[]);
                m.rates(&Input::new(0.0, x, v), &[z], &[], &mut a);
                m.rates(&Input::new(0.0, -x, -v), &[-z], &[], &mut b);
                assert_eq!(f, -g, "v {v} z {z}");
                assert_eq!(a[0], -b[0], "v {v} z {z}");
            }
        }
    }

    /// Very stiff bristles approach Coulomb-Stribeck friction: once the
    /// contact has moved 1 µm since the last reversal, |F - g(v) sign(v)| is
    /// below 1e-6 N for σ0 = 1e8 N/m, decreasing with σ0, while a soft
    /// contact (σ0 = 1e6) is still far from it.
    #[test]
    fn stiff_bristles_approach_coulomb() {
        let v = 5e-4;
        let mut errors = vec![];
        for sigma0 in [1e6, 1e7, 1e8] {
            let p = LuGreParams { sigma0, sigma1: 0.0, sigma2: 0.0, ..Default::default() };
            let m = LuGre::new(p).unwrap();
            let g = stribeck(&p, v);
            let pts = [0.0, 3e-6, -3e-6];
            let rec = drive(&m, &Path::points(&pts, v), 0.02 * g / sigma0 / v);
            let mut worst: f64 = 0.0;
            for r in &rec {
                let moved = if r.t <= 3e-6 / v { r.x } else { 3e-6 - r.x };
                if moved >= 1e-6 {
                    worst = worst.max((r.f - g * r.v.signum()).abs());
                }
            }
            errors.push(worst);
        }
        assert!(errors[0] > 0.1, "soft bristles: {errors:?}");
        assert!(errors[1] < errors[0] && errors[2] < errors[1] && errors[2] < 1e-6, "{errors:?}");
    }

    /// Pre-sliding: starting from rest the force jumps to (σ1 + σ2) v and then
    /// rises with slope dF/dx = σ0 (1 - σ1 |v| / g(v)): the spring σ0 reduced
    /// by the damper's share. At v = 1e-6 m/s the slope is σ0 to 1e-3; at
    /// v = vs the damping term takes away about a quarter of it.
    #[test]
    fn presliding_slope_is_sigma0_plus_damping_contribution() {
        let p = LuGreParams::default();
        let m = LuGre::new(p).unwrap();
        for v in [1e-6, 1e-3, -1e-3] {
            let g = stribeck(&p, v);
            let rec = drive(&m, &Path::points(&[0.0, 1e-9 * v.signum()], v.abs()), 1e-11 / v.abs());
            assert!((rec[0].f - (p.sigma1 + p.sigma2) * v).abs() < 1e-12 * p.sigma1, "jump at start");
            let slope = (rec.last().unwrap().f - rec[0].f) / (rec.last().unwrap().x - rec[0].x);
            let expected = p.sigma0 * (1.0 - p.sigma1 * v.abs() / g);
            assert!((slope - expected).abs() < 2e-4 * p.sigma0, "v {v}: slope {slope}, expected {expected}");
            if v.abs() < 1e-5 {
                assert!((slope - p.sigma0).abs() < 1e-3 * p.sigma0);
            } else {
                assert!(slope < 0.8 * p.sigma0);
            }
        }
    }

    /// Closed displacement loops dissipate: a small pre-sliding loop
    /// (amplitude a fifth of g/σ0) a little, a gross-sliding loop at constant
    /// speed about the Coulomb-viscous value 4 A (g + σ2 v).
    #[test]
    fn closed_loops_dissipate() {
        let p = LuGreParams::default();
        let m = LuGre::new(p).unwrap();
        // small sinusoidal loop, 2 µm at 10 Hz
        let rec = drive(&m, &Path::Sine { amplitude: 2e-6, frequency: 10.0, cycles: 2.0 }, 1e-5);
        let second = rec.iter().position(|r| r.t >= 0.1).unwrap();
        let w = work(&rec[second..]);
        assert!(w > 0.0, "pre-sliding loop work {w}");
        // gross sliding: ±1 mm at 10 mm/s
        let (a, v) = (1e-3, 1e-2);
        let rec = drive(&m, &Path::points(&[0.0, a, -a, a], v), 1e-7 / v);
        let top = rec.iter().position(|r| r.x >= a * (1.0 - 1e-9)).unwrap();
        let w = work(&rec[top..]);
        let coulomb = 4.0 * a * (stribeck(&p, v) + p.sigma2 * v);
        assert!(w > 0.0 && (w - coulomb).abs() < 0.05 * coulomb, "loop work {w}, Coulomb {coulomb}");
    }
}
