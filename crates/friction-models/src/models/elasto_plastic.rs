//! `elasto_plastic`: the single-state elasto-plastic model of Dupont,
//! Hayward, Armstrong and Altpeter: LuGre with a purely elastic stiction
//! region |z| <= z_ba, which removes LuGre's drift under small vibrations.
//!
//! # Equations
//! ```text
//! dz/dt = v (1 - α(z, v) σ0 z sign(v) / g(v))     (α = 1 everywhere gives LuGre)
//! g(v) = Fc + (Fs - Fc) φ(v),   z_ss(v) = g(v)/σ0 (steady-state deflection)
//! F = σ0 z + σ1 dz/dt + σ2 v
//! α(z, v) = 0                                                   if sign(z) != sign(v)
//!         = 0                                                   if |z| <= z_ba
//!         = ½ sin(π (|z| - (z_ss(v) + z_ba)/2) / (z_ss(v) - z_ba)) + ½   if z_ba < |z| < z_ss(v)
//!         = 1                                                   if |z| >= z_ss(v)
//! z_ba = ρ min(Fc, Fs)/σ0 with 0 < ρ < 1, so that 0 < z_ba < z_ss(v) for every v
//! steady state at constant v: z = z_ss(v) sign(v), F = g(v) sign(v) + σ2 v
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
//! | ρ | `zba_ratio` | - | (0, 1) | 0.5 | break-away ratio z_ba / (min(Fc, Fs)/σ0), not a deflection in metres (values below 0.001 are refused) |
//! | ρ | `zba` | - | (0, 1) | none | older name of `zba_ratio`, still accepted (give one of the two) |
//! | φ | `shape` | - | exponential | tustin | gaussian | lorentzian | two_exponential | "exponential" | Stribeck curve shape (see friction_models::shape) |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | vs2 | `vs2` | m/s | (0, inf) | 0.01 | second Stribeck velocity (two_exponential shape) |
//! | w | `shape_weight` | - | [0, 1] | 0.5 | weight of the first exponential (two_exponential shape) |
//!
//! The LuGre defaults (Canudas de Wit, Olsson, Åström, Lischinsky 1995) are used for the shared
//! parameters; ρ = 0.5 is an illustrative choice, not from a source.
//!
//! **The break-away deflection is a ratio, `zba_ratio`.** Dupont et al. write
//! z_ba in metres; here it is given as the ratio ρ = z_ba / (min(Fc, Fs)/σ0).
//! A deflection in metres copied into the ratio (z_ba = 5e-6 m as ρ = 5e-6)
//! would shrink the elastic region to nothing and make the model drift like
//! LuGre, so values below 0.001 are refused, with the ratio the metres would
//! give (ρ = z_ba σ0 / min(Fc, Fs)). The older name `zba` is still accepted.
//!
//! Dupont et al. require
//! 0 < z_ba < z_ss(v) for every v, i.e. z_ba < min(Fc, Fs)/σ0 (the smallest
//! steady-state deflection). Giving z_ba as the fraction ρ of that bound
//! makes every value in (0, 1) valid whatever σ0, Fc and Fs are, so that a
//! change of stiffness cannot silently break the constraint.
//!
//! **The Sandia friction-model study differs.** Its eqs. 29-32 use z_max_ss = Fs/σ0 inside α_m and
//! allow z_ba <= z_max_ss, but switch to α = 1 at z_ss(v): α would then jump
//! at |z| = z_ss(v) and, worse, the steady state would satisfy
//! α(z) z = z_ss(v) with α < 1, off the Stribeck curve. This file follows
//! Dupont et al. 2002, where α_m goes from 0 at z_ba to 1 at z_ss(v).
//!
//! # States
//! `z[0] = z`, the bristle deflection \[m\]; starts at 0 (relaxed). While
//! |z| <= z_ba, or whenever the motion unloads the bristle (sign(z) !=
//! sign(v)), dz/dt = v exactly: the contact is a spring σ0 with damper σ1 and
//! does not creep, so small oscillations return z exactly to its start.
//!
//! # Sources
//! the Sandia friction-model study, eqs. 25-32 (with the correction above); Al-Bender (Fundamentals of friction modeling)
//! (LuGre structure); P. Dupont, V. Hayward, B. Armstrong, F. Altpeter,
//! "Single state elastoplastic friction models", IEEE TAC 47(5), 787-792, 2002.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::models::lugre::check_shape;
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};
use crate::shape::{self, StribeckShape};

/// Static description of `elasto_plastic`.
pub static INFO: ModelInfo = ModelInfo {
    id: "elasto_plastic",
    summary: "elasto-plastic model (Dupont et al. 2002): LuGre with an elastic stiction region |z| <= z_ba",
    family: Family::ContinuousState,
    equations: "dz/dt = v (1 - α(z, v) σ0 z sign(v) / g(v))     (α = 1 everywhere gives LuGre)
g(v) = Fc + (Fs - Fc) φ(v),   z_ss(v) = g(v)/σ0 (steady-state deflection)
F = σ0 z + σ1 dz/dt + σ2 v
α(z, v) = 0                                                   if sign(z) != sign(v)
        = 0                                                   if |z| <= z_ba
        = ½ sin(π (|z| - (z_ss(v) + z_ba)/2) / (z_ss(v) - z_ba)) + ½   if z_ba < |z| < z_ss(v)
        = 1                                                   if |z| >= z_ss(v)
z_ba = ρ min(Fc, Fs)/σ0 with 0 < ρ < 1, so that 0 < z_ba < z_ss(v) for every v
steady state at constant v: z = z_ss(v) sign(v), F = g(v) sign(v) + σ2 v",
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
        ParamSpec::real(
            "zba_ratio",
            "ρ",
            "-",
            0.5,
            Range::open(0.0, 1.0),
            "break-away ratio z_ba / (min(Fc, Fs)/σ0), not a deflection in metres (values below 0.001 are refused)",
        ),
        ParamSpec {
            name: "zba",
            symbol: "ρ",
            unit: "-",
            kind: ParamKind::OptionalReal { range: Range::open(0.0, 1.0) },
            doc: "older name of `zba_ratio`, still accepted (give one of the two)",
        },
        shape::SHAPE,
        shape::EXPONENT,
        shape::VS2,
        shape::WEIGHT,
    ],
    states: "z[0] = z, the bristle deflection [m]",
    sources: "the Sandia friction-model study eqs. 25-32; Al-Bender (Fundamentals of friction modeling); Dupont, Hayward, Armstrong, Altpeter 2002",
};

/// The smallest accepted break-away ratio: smaller values are deflections in
/// metres given by mistake.
pub const MIN_ZBA_RATIO: f64 = 1e-3;

/// Parameters of [`ElastoPlastic`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElastoPlasticParams {
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
    /// Break-away ratio `ρ` [-] (`zba_ratio` in scenario files): z_ba = ρ min(Fc, Fs)/σ0.
    pub zba: f64,
    /// Stribeck shape φ.
    pub shape: StribeckShape,
}

impl Default for ElastoPlasticParams {
    fn default() -> Self {
        ElastoPlasticParams {
            sigma0: 1e5,
            sigma1: 1e5f64.sqrt(),
            sigma2: 0.4,
            fc: 1.0,
            fs: 1.5,
            vs: 0.001,
            zba: 0.5,
            shape: StribeckShape::Exponential { exponent: 2.0 },
        }
    }
}

impl ElastoPlasticParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "sigma0", self.sigma0)?;
        check(&INFO, "sigma1", self.sigma1)?;
        check(&INFO, "sigma2", self.sigma2)?;
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "fs", self.fs)?;
        check(&INFO, "vs", self.vs)?;
        check(&INFO, "zba_ratio", self.zba)?;
        if self.zba < MIN_ZBA_RATIO {
            let meant = self.zba * self.sigma0 / self.fc.min(self.fs);
            let hint = if meant < 1.0 {
                format!("if you meant z_ba = {} m, give zba_ratio = {meant:.4}", self.zba)
            } else {
                format!(
                    "z_ba = {} m would exceed the smallest steady-state deflection min(Fc, Fs)/σ0 = {:e} m",
                    self.zba,
                    self.fc.min(self.fs) / self.sigma0
                )
            };
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "zba_ratio",
                value: self.zba,
                message: format!(
                    "looks like a deflection in metres, but it is the ratio z_ba / (min(Fc, Fs)/σ0), \
                     valid range [{MIN_ZBA_RATIO}, 1); {hint}"
                ),
            });
        }
        check_shape(&INFO, &self.shape)
    }
}

/// The elasto-plastic model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::elasto_plastic::{ElastoPlastic, ElastoPlasticParams};
/// let m = ElastoPlastic::new(ElastoPlasticParams::default()).unwrap();
/// // inside the stiction region the bristle follows the motion exactly
/// let z = [0.9 * m.z_ba()];
/// let mut dz = [0.0];
/// m.rates(&Input::new(0.0, 0.0, 0.2), &z, &[], &mut dz);
/// assert_eq!(dz[0], 0.2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElastoPlastic {
    p: ElastoPlasticParams,
}

impl ElastoPlastic {
    /// A validated model.
    pub fn new(p: ElastoPlasticParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(ElastoPlastic { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = ElastoPlasticParams {
            sigma0: r.real("sigma0")?,
            sigma1: r.real("sigma1")?,
            sigma2: r.real("sigma2")?,
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            vs: r.real("vs")?,
            zba: match (values.contains_key("zba_ratio"), r.optional_real("zba")?) {
                (true, Some(_)) => {
                    return Err(ModelError::Constraint {
                        model: INFO.id,
                        name: "zba",
                        value: r.real("zba_ratio")?,
                        message: "`zba` is the older name of `zba_ratio`; give one of the two".into(),
                    })
                }
                (false, Some(x)) => x,
                (_, None) => r.real("zba_ratio")?,
            },
            shape: StribeckShape::read(&r)?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &ElastoPlasticParams {
        &self.p
    }

    /// The Stribeck curve magnitude `g(v) = Fc + (Fs - Fc) φ(v)` \[N\].
    pub fn g(&self, v: f64) -> f64 {
        self.p.shape.level(self.p.fc, self.p.fs, self.p.vs, v)
    }

    /// The break-away deflection `z_ba = ρ min(Fc, Fs)/σ0` \[m\].
    pub fn z_ba(&self) -> f64 {
        self.p.zba * self.p.fc.min(self.p.fs) / self.p.sigma0
    }

    /// The factor α(z, v) in [0, 1] of the state equation.
    pub fn alpha(&self, z: f64, v: f64) -> f64 {
        self.alpha_partials(z, v).0
    }

    /// `(α, ∂α/∂z, ∂α/∂v)` on the branch α takes. In the transition
    /// zba < |z| < zss, with θ = π (|z| - (zss + zba)/2)/(zss - zba) and
    /// zss = g(v)/σ0: α = (1 + sin θ)/2, ∂α/∂z = (π/2) cos θ sign(z)/(zss - zba),
    /// ∂α/∂v = -(π/2) cos θ (|z| - zba)/(zss - zba)² g'(v)/σ0; elsewhere α is 0
    /// or 1 and both derivatives are 0 (α is C¹ at both ends of the transition).
    #[inline]
    fn alpha_partials(&self, z: f64, v: f64) -> (f64, f64, f64) {
        if sign(z) != sign(v) {
            return (0.0, 0.0, 0.0);
        }
        let za = z.abs();
        let zba = self.z_ba();
        let zss = self.g(v) / self.p.sigma0;
        if za <= zba {
            (0.0, 0.0, 0.0)
        } else if za >= zss {
            (1.0, 0.0, 0.0)
        } else {
            let pi = std::f64::consts::PI;
            let width = zss - zba;
            let theta = pi * (za - 0.5 * (zss + zba)) / width;
            let half_cos = 0.5 * pi * theta.cos();
            let dzss = self.p.shape.dlevel(self.p.fc, self.p.fs, self.p.vs, v) / self.p.sigma0;
            (
                0.5 * theta.sin() + 0.5,
                half_cos * sign(z) / width,
                -half_cos * (za - zba) / (width * width) * dzss,
            )
        }
    }

    fn zdot(&self, v: f64, z: f64) -> f64 {
        let a = self.alpha(z, v);
        if a == 0.0 {
            v
        } else {
            v - a * self.p.sigma0 * v.abs() * z / self.g(v)
        }
    }
}

impl FrictionModel for ElastoPlastic {
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
        self.p.sigma0 * z[0] + self.p.sigma1 * self.zdot(inp.v, z[0]) + self.p.sigma2 * inp.v
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        dz[0] = self.zdot(inp.v, z[0]);
    }
    /// g = v - α(z, v) σ0 |v| z / G(v) (g = v where α = 0), F = σ0 z + σ1 g + σ2 v:
    /// ∂g/∂z = -(σ0 |v|/G)(α + z ∂α/∂z),
    /// ∂g/∂v = 1 - σ0 z (∂α/∂v |v|/G + α (sign(v) G - |v| G')/G²),
    /// with α's partials from its transition branch (see `alpha_partials`);
    /// ∂F/∂z = σ0 + σ1 ∂g/∂z, ∂F/∂v = σ1 ∂g/∂v + σ2.
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let ep = &self.p;
        let (v, z) = (inp.v, z[0]);
        let (a, da_dz, da_dv) = self.alpha_partials(z, v);
        let gv = self.g(v);
        let dgv = ep.shape.dlevel(ep.fc, ep.fs, ep.vs, v);
        let sv = if v < 0.0 { -1.0 } else { 1.0 };
        let dg_dz = -ep.sigma0 * v.abs() / gv * (a + z * da_dz);
        let dg_dv = 1.0 - ep.sigma0 * z * (da_dv * v.abs() / gv + a * (sv * gv - v.abs() * dgv) / (gv * gv));
        p.df_dx = 0.0;
        p.df_dv = ep.sigma1 * dg_dv + ep.sigma2;
        p.df_dz[0] = ep.sigma0 + ep.sigma1 * dg_dz;
        p.dg_dx[0] = 0.0;
        p.dg_dz[0] = dg_dz;
        p.dg_dv[0] = dg_dv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::lugre::{LuGre, LuGreParams};
    use crate::testing::{drive, work, Path};
    use rand::{RngExt, SeedableRng};

    fn shapes() -> [StribeckShape; 3] {
        [
            StribeckShape::Exponential { exponent: 2.0 },
            StribeckShape::Lorentzian,
            StribeckShape::TwoExponential { vs2: 0.02, weight: 0.4 },
        ]
    }

    fn lugre_twin(p: &ElastoPlasticParams) -> LuGre {
        LuGre::new(LuGreParams {
            sigma0: p.sigma0,
            sigma1: p.sigma1,
            sigma2: p.sigma2,
            fc: p.fc,
            fs: p.fs,
            vs: p.vs,
            shape: p.shape,
        })
        .unwrap()
    }

    /// True stiction: 60 cycles of a displacement oscillation of amplitude
    /// 0.9 z_ba (symmetric, then one-sided) leave the bristle exactly where
    /// it started, with z = x at every step (dz/dt = v, no creep). LuGre with
    /// the same parameters creeps under the one-sided oscillation, and the
    /// elasto-plastic model itself keeps a plastic offset once it is pushed
    /// past z_ba.
    #[test]
    fn small_oscillations_are_purely_elastic_without_drift() {
        let p = ElastoPlasticParams::default();
        let m = ElastoPlastic::new(p).unwrap();
        let a = 0.9 * m.z_ba();
        let symmetric: Vec<f64> = (0..121).map(|k| [0.0, a, 0.0, -a][k % 4]).collect();
        let one_sided: Vec<f64> = (0..121).map(|k| if k % 2 == 1 { a } else { 0.0 }).collect();
        for pts in [&symmetric, &one_sided] {
            let rec = drive(&m, &Path::points(pts, 1e-3), 0.05 * a / 1e-3);
            for r in &rec {
                assert!((r.z[0] - r.x).abs() < 1e-12 * a, "x {} z {}", r.x, r.z[0]);
            }
            let end = rec.last().unwrap();
            assert!(end.x.abs() < 1e-12 * a && end.z[0].abs() < 1e-12 * a, "z returns to 0: {}", end.z[0]);
        }
        let lugre = drive(&lugre_twin(&p), &Path::points(&one_sided, 1e-3), 0.05 * a / 1e-3);
        let creep = lugre.last().unwrap().z[0];
        assert!(creep < -0.05 * a, "LuGre should creep under the same motion: {creep}");
        let past = drive(&m, &Path::points(&[0.0, 3.0 * m.z_ba(), 0.0], 1e-3), 0.01 * m.z_ba() / 1e-3);
        let offset = past.last().unwrap().z[0];
        assert!(offset < -0.1 * m.z_ba(), "plastic offset after break-away: {offset}");
    }

    /// Driven at constant velocity the force settles on the Stribeck curve
    /// g(v) sign(v) + σ2 v (both signs, below and above vs, three shapes).
    #[test]
    fn steady_state_is_the_stribeck_curve() {
        for shape in shapes() {
            let p = ElastoPlasticParams { shape, zba: 0.8, ..Default::default() };
            let m = ElastoPlastic::new(p).unwrap();
            for v in [-0.02, -5e-4, 1e-4, 1e-3, 0.1] {
                let phi = match shape {
                    StribeckShape::Exponential { .. } => (-(v / p.vs).powi(2)).exp(),
                    StribeckShape::Lorentzian => 1.0 / (1.0 + (v / p.vs).powi(2)),
                    StribeckShape::TwoExponential { vs2, weight } => {
                        weight * (-(v / p.vs).abs()).exp() + (1.0 - weight) * (-(v / vs2).abs()).exp()
                    }
                };
                let curve = (p.fc + (p.fs - p.fc) * phi) * v.signum() + p.sigma2 * v;
                let dist = 40.0 * p.fs / p.sigma0;
                let rec = drive(&m, &Path::points(&[0.0, dist * v.signum()], v.abs()), 1e-7 / v.abs());
                let end = rec.last().unwrap().f;
                assert!((end - curve).abs() < 1e-8, "{shape:?} v {v}: settled at {end}, curve {curve}");
                // on the way there the bristle never overshoots its steady state
                assert!(rec.iter().all(|r| r.z[0].abs() <= (curve - p.sigma2 * v).abs() / p.sigma0 + 1e-15));
            }
        }
    }

    /// Inside the stiction region a closed loop stores and returns the spring
    /// energy: with σ1 = σ2 = 0 it dissipates nothing, with damping exactly
    /// 4 A (σ1 + σ2) v at constant speed. A gross-sliding loop dissipates
    /// about the Coulomb-viscous value 4 A (g(v) + σ2 v).
    #[test]
    fn loop_dissipation_elastic_and_gross_sliding() {
        let p = ElastoPlasticParams { sigma1: 0.0, sigma2: 0.0, ..Default::default() };
        let m = ElastoPlastic::new(p).unwrap();
        let (a, v) = (0.8 * m.z_ba(), 1e-3);
        let rec = drive(&m, &Path::points(&[0.0, a, -a, a], v), a / 100.0 / v);
        let top = rec.iter().position(|r| r.x >= a * (1.0 - 1e-9)).unwrap();
        assert!(work(&rec[top..]).abs() < 1e-12 * p.fc * a, "{}", work(&rec[top..]));
        let p = ElastoPlasticParams::default();
        let m = ElastoPlastic::new(p).unwrap();
        // (the trapezoidal `work` misses the damping force over the first step
        // after each of the two corners: a relative error of dx / 2A = 5e-4)
        let rec = drive(&m, &Path::points(&[0.0, a, -a, a], v), a / 1000.0 / v);
        let top = rec.iter().position(|r| r.x >= a * (1.0 - 1e-9)).unwrap();
        let w = work(&rec[top..]);
        let exact = 4.0 * a * (p.sigma1 + p.sigma2) * v;
        assert!((w - exact).abs() < 1e-3 * exact, "{w} vs {exact}");
        let (a, v) = (1e-3, 1e-2);
        let rec = drive(&m, &Path::points(&[0.0, a, -a, a], v), 1e-7 / v);
        let top = rec.iter().position(|r| r.x >= a * (1.0 - 1e-9)).unwrap();
        let w = work(&rec[top..]);
        let coulomb = 4.0 * a * (m.g(v) + p.sigma2 * v);
        assert!((w - coulomb).abs() < 0.05 * coulomb, "loop work {w}, Coulomb {coulomb}");
    }

    /// F(-v, -z) = -F(v, z), odd rates, and α in [0, 1] at seeded random
    /// points; α is continuous at z_ba and at z_ss(v).
    #[test]
    fn odd_symmetry_and_alpha_continuity() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(25);
        for shape in shapes() {
            let m = ElastoPlastic::new(ElastoPlasticParams { shape, ..Default::default() }).unwrap();
            let (mut a, mut b) = ([0.0], [0.0]);
            for _ in 0..200 {
                let v = rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-6..1));
                let z = rng.random_range(-2e-5..2e-5);
                let f = m.force(&Input::new(0.0, 0.0, v), &[z], &[]);
                let g = m.force(&Input::new(0.0, 0.0, -v), &[-z], &[]);
                m.rates(&Input::new(0.0, 0.0, v), &[z], &[], &mut a);
                m.rates(&Input::new(0.0, 0.0, -v), &[-z], &[], &mut b);
                assert_eq!(f, -g, "v {v} z {z}");
                assert_eq!(a[0], -b[0], "v {v} z {z}");
                let al = m.alpha(z, v);
                assert!((0.0..=1.0).contains(&al));
            }
            for v in [1e-4, 2e-3, -0.5] {
                let (zba, zss) = (m.z_ba() * sign(v), m.g(v) / 1e5 * sign(v));
                let eps = 1e-9 * zss.abs();
                assert!(m.alpha(zba + eps * sign(v), v) < 1e-6);
                assert!(m.alpha(zss - eps * sign(v), v) > 1.0 - 1e-6);
            }
        }
    }

    /// Dupont et al. give z_ba in metres, this model a ratio: a user copying
    /// z_ba = 5e-6 m was silently accepted as ρ = 5e-6, an elastic region of
    /// nothing, and the model drifted like LuGre. Such a value is refused,
    /// naming the ratio and the value the metres would give; `zba_ratio` and
    /// the older `zba` build the same model; both together are refused.
    #[test]
    fn zba_in_metres_is_refused_with_the_ratio_explained() {
        let num = |pairs: &[(&str, f64)]| -> ParamMap {
            pairs.iter().map(|(k, v)| (k.to_string(), crate::params::ParamValue::Num(*v))).collect()
        };
        for key in ["zba_ratio", "zba"] {
            let e = ElastoPlastic::from_params(&num(&[(key, 5e-6)])).unwrap_err().to_string();
            assert!(e.contains("ratio") && e.contains("metres") && e.contains("zba_ratio = 0.5000"), "{e}");
        }
        let a = ElastoPlastic::from_params(&num(&[("zba_ratio", 0.3)])).unwrap();
        let b = ElastoPlastic::from_params(&num(&[("zba", 0.3)])).unwrap();
        assert_eq!(a, b);
        assert!((a.z_ba() - 0.3 * 1.0 / 1e5).abs() < 1e-18);
        let e =
            ElastoPlastic::from_params(&num(&[("zba", 0.3), ("zba_ratio", 0.3)])).unwrap_err().to_string();
        assert!(e.contains("zba") && e.contains("one of the two"), "{e}");
    }
}
