//! `stribeck_dankowicz`: the combined Coulomb, Stribeck, viscous and
//! Dankowicz micro-slip model that Andersson, Söderberg, Björklund 2007 recommends when the final
//! position matters.
//!
//! # Equations
//! ```text
//! dz/dt = v (1 - (z/δ) sign(v))
//! F = (1 + (Fs/Fc - 1) exp(-(|v|/vs)^i)) Fc z/δ + kv v
//!   = g(v) z/δ + kv v,   g(v) = Fc + (Fs - Fc) exp(-(|v|/vs)^i)
//! steady state at constant v: z = δ sign(v), F = g(v) sign(v) + kv v (Stribeck curve)
//! micro-slip stiffness at z = 0: dF/dx = g(v)/δ (Fs/δ for |v| << vs, Fc/δ for |v| >> vs)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb sliding friction force |
//! | Fs | `fs` | N | (0, inf) | 1.5 | maximum static friction force |
//! | vs | `vs` | m/s | (0, inf) | 0.001 | Stribeck velocity |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | δ | `delta` | m | (0, inf) | 0.00001 | micro-slip displacement before gross slip |
//! | kv | `kv` | N s/m | [0, inf) | 0.4 | viscous friction coefficient |
//!
//! Andersson, Söderberg, Björklund 2007 gives no numbers for eq. 20 except δ = 1e-5 m (Table 1); the
//! Stribeck numbers default to those of Canudas de Wit, Olsson, Åström, Lischinsky 1995 (the
//! `lugre` defaults) so that the two models share their steady-state curve.
//! `fs < fc` is allowed and gives a rising curve.
//!
//! # States
//! `z[0] = z`, the micro-slip variable \[m\]; starts at 0 (relaxed), |z| <= δ
//! is invariant. The state equation is Dankowicz's (rate independent); only
//! the force depends on the velocity. With Fs = Fc and kv = 0 the model is
//! `dankowicz`.
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eq. 20, section 3.5 and
//! the conclusions; H. Dankowicz, "On the modeling of dynamic friction
//! phenomena", ZAMM 79(6), 399-409, 1999 (eq. 13 of Andersson, Söderberg, Björklund 2007).

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};
use crate::shape::{self, StribeckShape};

/// Static description of `stribeck_dankowicz`.
pub static INFO: ModelInfo = ModelInfo {
    id: "stribeck_dankowicz",
    summary: "combined Coulomb-Stribeck-viscous-Dankowicz model (Andersson, Söderberg, Björklund 2007 eq. 20): F = g(v) z/δ + kv v",
    family: Family::ContinuousState,
    equations: "dz/dt = v (1 - (z/δ) sign(v))
F = (1 + (Fs/Fc - 1) exp(-(|v|/vs)^i)) Fc z/δ + kv v
  = g(v) z/δ + kv v,   g(v) = Fc + (Fs - Fc) exp(-(|v|/vs)^i)
steady state at constant v: z = δ sign(v), F = g(v) sign(v) + kv v (Stribeck curve)
micro-slip stiffness at z = 0: dF/dx = g(v)/δ (Fs/δ for |v| << vs, Fc/δ for |v| >> vs)",
    params: &[
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::POSITIVE, "Coulomb sliding friction force"),
        ParamSpec::real("fs", "Fs", "N", 1.5, Range::POSITIVE, "maximum static friction force"),
        ParamSpec::real("vs", "vs", "m/s", 0.001, Range::POSITIVE, "Stribeck velocity"),
        shape::EXPONENT,
        ParamSpec::real(
            "delta",
            "δ",
            "m",
            1e-5,
            Range::POSITIVE,
            "micro-slip displacement before gross slip",
        ),
        ParamSpec::real("kv", "kv", "N s/m", 0.4, Range::NON_NEGATIVE, "viscous friction coefficient"),
    ],
    states: "z[0] = z, the micro-slip variable [m], |z| <= δ",
    sources: "Andersson, Söderberg, Björklund 2007 eq. 20; Dankowicz 1999",
};

/// Parameters of [`StribeckDankowicz`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckDankowiczParams {
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Maximum static force `Fs` \[N\].
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Stribeck exponent `i` [-].
    pub exponent: f64,
    /// Micro-slip displacement `δ` \[m\].
    pub delta: f64,
    /// Viscous coefficient `kv` [N s/m].
    pub kv: f64,
}

impl Default for StribeckDankowiczParams {
    fn default() -> Self {
        StribeckDankowiczParams { fc: 1.0, fs: 1.5, vs: 0.001, exponent: 2.0, delta: 1e-5, kv: 0.4 }
    }
}

impl StribeckDankowiczParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "fs", self.fs)?;
        check(&INFO, "vs", self.vs)?;
        check(&INFO, "exponent", self.exponent)?;
        check(&INFO, "delta", self.delta)?;
        check(&INFO, "kv", self.kv)
    }
}

/// The combined Stribeck-Dankowicz model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::stribeck_dankowicz::{StribeckDankowicz, StribeckDankowiczParams};
/// let m = StribeckDankowicz::new(StribeckDankowiczParams::default()).unwrap();
/// // fully developed micro-slip (z = δ) at rest-near speed: the static force Fs
/// let f = m.force(&Input::new(0.0, 0.0, 1e-9), &[1e-5], &[]);
/// assert!((f - 1.5).abs() < 1e-6);
/// // and far above vs: Fc plus the viscous part
/// let f = m.force(&Input::new(0.0, 0.0, 0.1), &[1e-5], &[]);
/// assert!((f - (1.0 + 0.4 * 0.1)).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StribeckDankowicz {
    p: StribeckDankowiczParams,
    shape: StribeckShape,
}

impl StribeckDankowicz {
    /// A validated model.
    pub fn new(p: StribeckDankowiczParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(StribeckDankowicz { p, shape: StribeckShape::Exponential { exponent: p.exponent } })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = StribeckDankowiczParams {
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            vs: r.real("vs")?,
            exponent: r.real("exponent")?,
            delta: r.real("delta")?,
            kv: r.real("kv")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &StribeckDankowiczParams {
        &self.p
    }

    /// The Stribeck curve magnitude `g(v) = Fc + (Fs - Fc) exp(-(|v|/vs)^i)` \[N\].
    pub fn g(&self, v: f64) -> f64 {
        self.shape.level(self.p.fc, self.p.fs, self.p.vs, v)
    }
}

impl FrictionModel for StribeckDankowicz {
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
        self.g(inp.v) * z[0] / self.p.delta + self.p.kv * inp.v
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        dz[0] = inp.v * (1.0 - z[0] / self.p.delta * sign(inp.v));
    }
    /// g = v - |v| z/δ: ∂g/∂z = -|v|/δ, ∂g/∂v = 1 - sign(v) z/δ (at v = 0 the
    /// right-hand side); F = G(v) z/δ + kv v: ∂F/∂z = G/δ, ∂F/∂v = G'(v) z/δ + kv,
    /// G' = (Fs - Fc) φ'(v).
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let (v, d) = (inp.v, self.p.delta);
        let (dg_dz, dg_dv) = crate::models::dankowicz::micro_slip_partials(v, z[0], d);
        let dgv = self.shape.dlevel(self.p.fc, self.p.fs, self.p.vs, v);
        p.df_dx = 0.0;
        p.df_dv = dgv * z[0] / d + self.p.kv;
        p.df_dz[0] = self.g(v) / d;
        p.dg_dx[0] = 0.0;
        p.dg_dz[0] = dg_dz;
        p.dg_dv[0] = dg_dv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::dankowicz::{Dankowicz, DankowiczParams};
    use crate::testing::{drive, work, Path};

    /// Andersson, Söderberg, Björklund 2007 eq. 10, computed here from the formula, independently of the model.
    fn stribeck_curve(p: &StribeckDankowiczParams, v: f64) -> f64 {
        (p.fc + (p.fs - p.fc) * (-(v.abs() / p.vs).powf(p.exponent)).exp()) * v.signum() + p.kv * v
    }

    /// Driven at constant speed from rest, z follows δ(1 - exp(-|x|/δ)) and the
    /// force settles on the Stribeck curve of eq. 10 (both signs, speeds
    /// around vs, two exponents).
    #[test]
    fn steady_state_is_the_stribeck_curve() {
        for exponent in [2.0, 0.6] {
            let p = StribeckDankowiczParams { exponent, fs: 1.8, ..Default::default() };
            let m = StribeckDankowicz::new(p).unwrap();
            for v in [-3e-3f64, -1e-4, 5e-4, 1e-3, 0.05] {
                let dist = 25.0 * p.delta;
                let rec = drive(&m, &Path::points(&[0.0, dist * v.signum()], v.abs()), 2e-7 / v.abs());
                let stat = stribeck_curve(&p, v);
                for r in &rec {
                    let e = (-r.x.abs() / p.delta).exp();
                    let exact = (stat - p.kv * v) * (1.0 - e) + p.kv * v;
                    assert!((r.f - exact).abs() < 1e-7, "i {exponent} v {v} x {}: {} vs {exact}", r.x, r.f);
                }
                let end = rec.last().unwrap().f;
                assert!((end - stat).abs() < 1e-9, "i {exponent} v {v}: {end} vs curve {stat}");
            }
        }
    }

    /// The micro-slip stiffness from rest, dF/dx at z = 0, is g(v)/δ: Fs/δ
    /// for a slow start (|v| << vs) and Fc/δ for a fast one (|v| >> vs); the
    /// force starts from kv v (the viscous part).
    #[test]
    fn microslip_stiffness_is_g_over_delta() {
        let p = StribeckDankowiczParams::default();
        let m = StribeckDankowicz::new(p).unwrap();
        for (v, k) in [(1e-7f64, p.fs / p.delta), (-1e-7, p.fs / p.delta), (0.1, p.fc / p.delta)] {
            let dx = 1e-4 * p.delta;
            let rec = drive(&m, &Path::points(&[0.0, dx * v.signum()], v.abs()), dx / 100.0 / v.abs());
            assert!((rec[0].f - p.kv * v).abs() < 1e-15);
            let slope = (rec.last().unwrap().f - rec[0].f) / (rec.last().unwrap().x - rec[0].x);
            assert!((slope - k).abs() < 1e-3 * k, "v {v}: slope {slope}, expected {k}");
        }
    }

    /// With Fs = Fc and kv = 0 the model is Dankowicz's: the same force along
    /// an arbitrary path.
    #[test]
    fn reduces_to_dankowicz_without_stribeck_and_viscous_parts() {
        let p = StribeckDankowiczParams { fs: 1.0, kv: 0.0, delta: 2e-5, ..Default::default() };
        let m = StribeckDankowicz::new(p).unwrap();
        let d = Dankowicz::new(DankowiczParams { fc: p.fc, delta: p.delta }).unwrap();
        let path = Path::points(&[0.0, 3e-5, -1e-5, 4e-5], 1e-3);
        for (a, b) in drive(&m, &path, 1e-4).iter().zip(&drive(&d, &path, 1e-4)) {
            assert!((a.f - b.f).abs() < 1e-12, "x {}: {} vs {}", a.x, a.f, b.f);
        }
    }

    /// F(-v, -z) = -F(v, z) and the rates are odd, over a grid.
    #[test]
    fn odd_symmetry() {
        let m = StribeckDankowicz::new(StribeckDankowiczParams::default()).unwrap();
        let (mut a, mut b) = ([0.0], [0.0]);
        for v in [-0.3, -1e-3, -2e-5, 0.0, 4e-4, 2.0] {
            for z in [-1e-5, -3e-6, 0.0, 6e-6, 9.9e-6] {
                let f = m.force(&Input::new(0.0, 1e-3, v), &[z], &[]);
                let g = m.force(&Input::new(0.0, -1e-3, -v), &[-z], &[]);
                m.rates(&Input::new(0.0, 1e-3, v), &[z], &[], &mut a);
                m.rates(&Input::new(0.0, -1e-3, -v), &[-z], &[], &mut b);
                assert_eq!(f, -g);
                assert_eq!(a[0], -b[0]);
            }
        }
    }

    /// A gross-sliding loop at constant speed dissipates about the
    /// Coulomb-viscous value 4 A (g(v) + kv v), a micro-slip loop a positive amount.
    #[test]
    fn closed_loops_dissipate() {
        let p = StribeckDankowiczParams::default();
        let m = StribeckDankowicz::new(p).unwrap();
        for (a, v) in [(5e-6f64, 1e-4f64), (1e-3, 1e-2)] {
            let rec = drive(&m, &Path::points(&[0.0, a, -a, a], v), a / 400.0 / v);
            let top = rec.iter().position(|r| r.x >= a * (1.0 - 1e-9)).unwrap();
            let w = work(&rec[top..]);
            let coulomb = 4.0 * a * stribeck_curve(&p, v);
            assert!(w > 0.0 && w < coulomb, "A {a}: {w} vs {coulomb}");
            if a > 10.0 * p.delta {
                assert!(w > 0.95 * coulomb, "A {a}: {w} vs {coulomb}");
            }
        }
    }
}
