//! `jenkins`: the Jenkins element (a spring in series with a Coulomb slider),
//! generalised to the Mignolet element whose slider is weaker once it slips.
//!
//! # Equations
//! ```text
//! spring kt in series with a slider at position s; trial force Ft = kt (x - s)
//! stuck    (slip = 0):  F = Ft while |Ft| <= φ
//! breakaway (|Ft| > φ): the slider jumps, F = θ φ sign(Ft), slip = sign(Ft)
//! sliding  (slip = d):  F = θ φ d and s follows x while d Ft >= θ φ
//! reversal (d Ft < θ φ): the slider sticks again (slip = 0), F = Ft,
//!                        and needs |Ft| > φ to break away once more
//! θ = 1: elastic-perfectly-plastic, F = kt clamp(x - s, -φ/kt, φ/kt)
//! ```
//!
//! The slip state is tracked by displacement, not by the sign of the
//! velocity as in the Sandia friction-model study's per-step algorithm: a reversal is a step that
//! moves `x` back against the slip direction (`d Ft < θ φ`). The two agree for
//! any motion sampled finely enough, and this form is exact within a step and
//! rate independent.
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | kt | `kt` | N/m | (0, inf) | 100000 | stiffness of the spring in series with the slider |
//! | φ | `fs` | N | (0, inf) | 1 | static strength of the slider (break-away force) |
//! | θ | `theta` | - | (0, 1] | 1 | Mignolet ratio μD/μS: the slider force after break-away is θ φ |
//!
//! # States
//! Discrete memory `mem = [s, slip]`: the slider position `s` \[m\] and the
//! slip flag (`+1`/`-1` sliding in that direction, `0` stuck), updated on
//! accepted steps only. Within a step the force is the exact function of `x`
//! given the memory at the step's start. Starts relaxed and stuck (`s = x0`).
//!
//! # Sources
//! the Sandia friction-model study, section 1.3 (Jenkins/Mignolet element, eqs. 6-9)
//! and the per-step stick/slip update algorithm of section 2;
//! W.D. Iwan, "A distributed-element model for hysteresis and its
//! steady-state dynamic response", J. Appl. Mech. 33, 1966;
//! M.P. Mignolet, P. Song, X.Q. Wang, "A stochastic Iwan-type model for
//! joint behavior variability modeling", J. Sound Vib. 349, 2015.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Valid range of the Mignolet ratio θ: `(0, 1]`.
pub const THETA_RANGE: Range = Range { lo: 0.0, hi: 1.0, lo_closed: false, hi_closed: true };

/// Static description of `jenkins`.
pub static INFO: ModelInfo = ModelInfo {
    id: "jenkins",
    summary:
        "Jenkins/Mignolet element: spring kt in series with a slider of strength φ, θ φ after break-away",
    family: Family::Hysteresis,
    equations: "spring kt in series with a slider at position s; trial force Ft = kt (x - s)
stuck    (slip = 0):  F = Ft while |Ft| <= φ
breakaway (|Ft| > φ): the slider jumps, F = θ φ sign(Ft), slip = sign(Ft)
sliding  (slip = d):  F = θ φ d and s follows x while d Ft >= θ φ
reversal (d Ft < θ φ): the slider sticks again (slip = 0), F = Ft,
                       and needs |Ft| > φ to break away once more
θ = 1: elastic-perfectly-plastic, F = kt clamp(x - s, -φ/kt, φ/kt)",
    params: &[
        ParamSpec::real(
            "kt",
            "kt",
            "N/m",
            1e5,
            Range::POSITIVE,
            "stiffness of the spring in series with the slider",
        ),
        ParamSpec::real(
            "fs",
            "φ",
            "N",
            1.0,
            Range::POSITIVE,
            "static strength of the slider (break-away force)",
        ),
        ParamSpec::real(
            "theta",
            "θ",
            "-",
            1.0,
            THETA_RANGE,
            "Mignolet ratio μD/μS: the slider force after break-away is θ φ",
        ),
    ],
    states: "mem = [s, slip]: slider position [m] and slip flag (+1, -1 sliding, 0 stuck), discrete",
    sources:
        "the Sandia friction-model study sections 1.3 and 2 (Jenkins/Mignolet, stick/slip update); Iwan 1966; Mignolet, Song, Wang 2015",
};

/// One Mignolet element (spring `k`, slider of static strength `fs` and
/// dynamic strength `theta * fs`) moved to `x` from the memory `(s, slip)`.
///
/// Returns `(F, s', slip')`: the force at `x` and the memory after the move.
/// This is the one update rule shared by [`Jenkins`] and the 5-parameter
/// Iwan model; with `theta = 1` it is the elastic-perfectly-plastic element.
#[inline]
pub fn mignolet_step(k: f64, fs: f64, theta: f64, x: f64, s: f64, slip: f64) -> (f64, f64, f64) {
    let d = mignolet_mode(k, fs, theta, x, s, slip);
    if d == 0.0 {
        return (k * (x - s), s, 0.0);
    }
    let fd = theta * fs;
    (fd * d, x - fd * d / k, d)
}

/// dF/dx of [`mignolet_step`] at `x` (memory held fixed): `k` while the
/// element sticks, 0 while its slider slides (the branch the step takes).
#[inline]
pub fn mignolet_slope(k: f64, fs: f64, theta: f64, x: f64, s: f64, slip: f64) -> f64 {
    if mignolet_mode(k, fs, theta, x, s, slip) == 0.0 {
        k
    } else {
        0.0
    }
}

/// The branch of the element law at `x`: 0 stuck, else the slip direction ±1.
#[inline]
fn mignolet_mode(k: f64, fs: f64, theta: f64, x: f64, s: f64, slip: f64) -> f64 {
    let ft = k * (x - s);
    if slip != 0.0 && ft * slip >= theta * fs {
        // still sliding in the same direction: the slider follows x
        return slip;
    }
    if ft.abs() <= fs {
        // stuck (or stuck again after a reversal)
        return 0.0;
    }
    // break-away: the force drops to the dynamic strength
    sign(ft)
}

/// Parameters of [`Jenkins`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JenkinsParams {
    /// Spring stiffness `kt` [N/m].
    pub kt: f64,
    /// Static slider strength `φ` \[N\].
    pub fs: f64,
    /// Mignolet ratio `θ` [-], in (0, 1].
    pub theta: f64,
}

impl Default for JenkinsParams {
    fn default() -> Self {
        JenkinsParams { kt: 1e5, fs: 1.0, theta: 1.0 }
    }
}

impl JenkinsParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "kt", self.kt)?;
        check(&INFO, "fs", self.fs)?;
        check(&INFO, "theta", self.theta)
    }
}

/// The Jenkins/Mignolet element (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::jenkins::{Jenkins, JenkinsParams};
/// let m = Jenkins::new(JenkinsParams { kt: 100.0, fs: 1.0, theta: 0.5 }).unwrap();
/// let mem = [0.0, 0.0]; // relaxed and stuck at x = 0
/// // elastic below the break-away displacement φ/kt = 0.01 ...
/// assert!((m.force(&Input::new(0.0, 0.005, 1.0), &[], &mem) - 0.5).abs() < 1e-12);
/// // ... and θ φ once the slider has broken away
/// assert_eq!(m.force(&Input::new(0.0, 0.02, 1.0), &[], &mem), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Jenkins {
    p: JenkinsParams,
}

impl Jenkins {
    /// A validated model.
    pub fn new(p: JenkinsParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Jenkins { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = JenkinsParams { kt: r.real("kt")?, fs: r.real("fs")?, theta: r.real("theta")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &JenkinsParams {
        &self.p
    }
}

impl FrictionModel for Jenkins {
    fn turns_at_reversals(&self) -> bool {
        true
    }
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        [Q::Displacement, Q::Dimensionless].get(k).copied().unwrap_or(Q::Unknown)
    }
    fn n_memory(&self) -> usize {
        2
    }
    fn init(&self, inp: &Input, _z: &mut [f64], mem: &mut [f64]) {
        mem[0] = inp.x;
        mem[1] = 0.0;
    }
    fn force(&self, inp: &Input, _z: &[f64], mem: &[f64]) -> f64 {
        mignolet_step(self.p.kt, self.p.fs, self.p.theta, inp.x, mem[0], mem[1]).0
    }
    /// Memory held fixed: ∂F/∂x = kt while the slider sticks, 0 while it
    /// slides (F = ±θ φ); ∂F/∂v = 0.
    fn partials(&self, inp: &Input, _z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = mignolet_slope(self.p.kt, self.p.fs, self.p.theta, inp.x, mem[0], mem[1]);
        p.df_dv = 0.0;
    }
    fn accept(&self, inp: &Input, _z: &mut [f64], mem: &mut [f64]) {
        let (_, s, slip) = mignolet_step(self.p.kt, self.p.fs, self.p.theta, inp.x, mem[0], mem[1]);
        mem[0] = s;
        mem[1] = slip;
    }
    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, work, Path, Sample};

    fn model(theta: f64) -> Jenkins {
        Jenkins::new(JenkinsParams { kt: 1e4, fs: 1.0, theta }).unwrap()
    }

    /// The closed loop from `x = a` down to `-a` and back up to `a`.
    fn last_loop(rec: &[Sample], a: f64) -> &[Sample] {
        let first = rec.iter().position(|r| (r.x - a).abs() < 1e-12).unwrap();
        &rec[first..]
    }

    /// θ = 1 is elastic-perfectly-plastic: virgin branch min(kt x, φ), and
    /// after the reversal at x = a the branch φ - kt (a - x) down to -φ,
    /// with the corners exactly at x = φ/kt and x = a - 2 φ/kt.
    #[test]
    fn theta_one_is_elastic_perfectly_plastic_with_exact_corners() {
        let m = model(1.0);
        let (kt, phi, a) = (1e4, 1.0, 5e-4);
        let rec = drive(&m, &Path::points(&[0.0, a, -a], 1e-3), 1e-3);
        let rev = rec.iter().position(|r| r.x >= a - 1e-15).unwrap();
        for r in &rec[..=rev] {
            let exact = (kt * r.x).min(phi);
            assert!((r.f - exact).abs() < 1e-12, "virgin x {} F {} exact {exact}", r.x, r.f);
        }
        for r in &rec[rev..] {
            let exact = (phi - kt * (a - r.x)).max(-phi);
            assert!((r.f - exact).abs() < 1e-12, "unloading x {} F {} exact {exact}", r.x, r.f);
        }
        // the corners: just before x = φ/kt the force is still elastic, just after it is φ
        assert!(m.force(&Input::new(0.0, 0.999e-4, 1.0), &[], &[0.0, 0.0]) < phi);
        assert_eq!(m.force(&Input::new(0.0, 1.001e-4, 1.0), &[], &[0.0, 0.0]), phi);
    }

    /// The steady loop between ±a has area 4 φ (a - φ/kt) (θ = 1).
    #[test]
    fn loop_area_is_four_phi_times_plastic_stroke() {
        let m = model(1.0);
        let (kt, phi) = (1e4, 1.0);
        for a in [1.5e-4, 5e-4, 2e-3] {
            let rec = drive(&m, &Path::points(&[0.0, a, -a, a], 1e-3), 1e-4);
            let w = work(last_loop(&rec, a));
            let exact = 4.0 * phi * (a - phi / kt);
            assert!((w - exact).abs() < 1e-6 * exact, "a {a}: work {w} exact {exact}");
        }
        // below break-away the loop is elastic and dissipates nothing
        let rec = drive(&m, &Path::points(&[0.0, 5e-5, -5e-5, 5e-5], 1e-3), 1e-4);
        assert!(work(last_loop(&rec, 5e-5)).abs() < 1e-14);
    }

    /// θ < 1: the force drops to θ φ at break-away, the reversed slider needs
    /// the full static strength again, and the loop area is
    /// 4 θ φ a + (1 + θ)(1 - 3θ) φ²/kt (up branch: elastic from -θφ to φ over
    /// (1+θ)φ/kt, then θφ; the down branch is its mirror image).
    #[test]
    fn mignolet_force_drops_to_theta_phi_at_breakaway() {
        let (kt, phi, theta, a) = (1e4, 1.0, 0.4, 1e-3);
        let m = model(theta);
        let rec = drive(&m, &Path::points(&[0.0, a, -a, a], 1e-3), 1e-3);
        let brk = phi / kt;
        for r in rec.iter().take_while(|r| r.t <= 1.0) {
            let exact = if r.x <= brk { kt * r.x } else { theta * phi };
            assert!((r.f - exact).abs() < 1e-12, "x {} F {} exact {exact}", r.x, r.f);
        }
        // after the reversal at a the element is stuck from θφ down to -φ
        let rev = rec.iter().position(|r| r.x >= a - 1e-15).unwrap();
        let min_stuck = rec[rev..].iter().map(|r| r.f).fold(f64::INFINITY, f64::min);
        assert!(min_stuck >= -phi - 1e-12);
        let x_brk = a - (1.0 + theta) * phi / kt;
        let after = rec[rev..].iter().find(|r| r.x < x_brk - 1e-9).unwrap();
        assert!((after.f + theta * phi).abs() < 1e-12, "{}", after.f);
        let w = work(last_loop(&rec, a));
        let exact = 4.0 * theta * phi * a + (1.0 + theta) * (1.0 - 3.0 * theta) * phi * phi / kt;
        assert!((w - exact).abs() < 1e-6 * exact, "work {w} exact {exact}");
    }

    /// Rate independence: the same loop at speeds 1e-5 and 1 m/s.
    #[test]
    fn same_loop_at_two_speeds() {
        for theta in [1.0, 0.6] {
            let m = model(theta);
            let pts = [0.0, 3e-4, -2e-4, 1e-4];
            let slow = drive(&m, &Path::points(&pts, 1e-5), 0.5);
            let fast = drive(&m, &Path::points(&pts, 1.0), 5e-6);
            assert!((work(&slow) - work(&fast)).abs() < 1e-12, "θ {theta}");
            assert_eq!(slow.last().unwrap().f, fast.last().unwrap().f);
        }
    }

    /// Odd symmetry: mirrored motion gives the mirrored force.
    #[test]
    fn mirrored_motion_gives_mirrored_force() {
        let m = model(0.7);
        let up = drive(&m, &Path::points(&[0.0, 4e-4, -1e-4], 1e-3), 1e-5);
        let down = drive(&m, &Path::points(&[0.0, -4e-4, 1e-4], 1e-3), 1e-5);
        for (u, d) in up.iter().zip(&down) {
            assert!((u.f + d.f).abs() < 1e-12);
        }
    }
}
