//! `armstrong`: Armstrong-Hélouvry's seven-parameter model: a pre-sliding
//! spring while stuck, a lagged Stribeck-Lorentzian curve while sliding, and
//! stiction that grows with the dwell time.
//!
//! # Equations
//! ```text
//! stuck (pre-sliding):  F = σ0 (x - xa)                        (xa: anchor of the spring)
//! sliding in direction d = sign(v):
//!   F = (Fc + Fs(γ, td) / (1 + (w/vs)²)) d + kv v,   w = v(t - τL), lagged as dw/dt = (v - w)/τL
//! stiction after a dwell td (time since sticking began):
//!   Fs(γ, td) = Fs,a + (Fs,ss - Fs,a) td / (td + γ),   Fs,ss = fs - fc
//!   Fs,a = Fs/(1 + (w/vs)²) at the end of the previous slide (Fs,ss initially: fully healed)
//! stuck -> sliding when |σ0 (x - xa)| > Fc + Fs(γ, td) and v pushes the same way;
//!   Fs(γ, td) is then frozen for the whole slide
//! sliding -> stuck when v crosses zero (v d <= 0); xa is the position at which the
//!   spring carries the friction force of the last sliding step (F continuous)
//! ```
//!
//! Olsson's eq. 2.11 reads `Fs = Fs,ss + (Fs,ss - Fs,a) td/(td + γ)`, which
//! starts above the steady level and grows without bound as `Fs,a` falls; the
//! form above is Armstrong-Hélouvry's (1991, 1994): stiction rises with the
//! dwell time from the Stribeck friction left at the end of the last slide,
//! `Fs,a`, to its steady value `Fs,ss`, half way at `td = γ`. Olsson's `c0 ẋ`
//! for the sticking force (eq. 2.9) is likewise read as the spring `σ0 x` of
//! the pre-sliding displacement. `fs` is the total break-away force after a
//! long dwell, `Fc + Fs,ss`, as elsewhere in this library.
//!
//! The pure delay `v(t - τL)` is replaced by a first-order lag of time
//! constant `τL` (the same mean delay): it needs one continuous state instead
//! of a velocity history, and it is what the delay becomes for motions slower
//! than `τL`. `τL = 0` uses `w = v`.
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | σ0 | `sigma0` | N/m | (0, inf) | 100000 | pre-sliding stiffness of the stuck contact |
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb friction force |
//! | Fs | `fs` | N | (0, inf) | 1.5 | break-away force after a long dwell, Fc + Fs,ss (>= fc) |
//! | Fv | `kv` | N s/m | [0, inf) | 0 | viscous friction coefficient |
//! | vs | `vs` | m/s | (0, inf) | 0.01 | Stribeck velocity of the Lorentzian curve |
//! | τL | `tau_l` | s | [0, inf) | 0.005 | frictional lag of the velocity in the Stribeck term |
//! | γ | `gamma` | s | (0, inf) | 1 | dwell time at which stiction has risen half way from Fs,a to Fs,ss |
//!
//! # States
//! `z[0] = w`, the lagged velocity [m/s]; starts at 0 (at rest before the start).
//! Discrete memory `mem = [mode, xa, t_stick, Fs,a, Fs,slide]`, updated on
//! accepted steps only: `mode` 0 stuck or ±1 sliding in that direction, the
//! spring anchor `xa` \[m\] (tracked while sliding so that a stop starts from
//! the current friction force), the time sticking began \[s\], the Stribeck
//! friction at the end of the last slide \[N\], and the frozen `Fs(γ, td)` of
//! the current slide \[N\]. Within a step the force follows the same switching
//! rules from the memory at the step's start. The contact starts stuck,
//! relaxed and fully healed (break-away force `fs`).
//!
//! # Sources
//! Olsson 1996, "Armstrong's Seven Parameter Model", eqs. 2.9-2.11;
//! B. Armstrong-Hélouvry, "Control of machines with friction", Kluwer 1991;
//! B. Armstrong-Hélouvry, P. Dupont, C. Canudas de Wit, "A survey of models,
//! analysis tools and compensation methods for the control of machines with
//! friction", Automatica 30(7), 1083-1138, 1994.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `armstrong`.
pub static INFO: ModelInfo = ModelInfo {
    id: "armstrong",
    summary:
        "Armstrong's seven-parameter model: pre-sliding spring, lagged Stribeck curve, dwell-time stiction",
    family: Family::ContinuousState,
    equations: "stuck (pre-sliding):  F = σ0 (x - xa)                        (xa: anchor of the spring)
sliding in direction d = sign(v):
  F = (Fc + Fs(γ, td) / (1 + (w/vs)²)) d + kv v,   w = v(t - τL), lagged as dw/dt = (v - w)/τL
stiction after a dwell td (time since sticking began):
  Fs(γ, td) = Fs,a + (Fs,ss - Fs,a) td / (td + γ),   Fs,ss = fs - fc
  Fs,a = Fs/(1 + (w/vs)²) at the end of the previous slide (Fs,ss initially: fully healed)
stuck -> sliding when |σ0 (x - xa)| > Fc + Fs(γ, td) and v pushes the same way;
  Fs(γ, td) is then frozen for the whole slide
sliding -> stuck when v crosses zero (v d <= 0); xa is the position at which the
  spring carries the friction force of the last sliding step (F continuous)",
    params: &[
        ParamSpec::real(
            "sigma0",
            "σ0",
            "N/m",
            1e5,
            Range::POSITIVE,
            "pre-sliding stiffness of the stuck contact",
        ),
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::POSITIVE, "Coulomb friction force"),
        ParamSpec::real(
            "fs",
            "Fs",
            "N",
            1.5,
            Range::POSITIVE,
            "break-away force after a long dwell, Fc + Fs,ss (>= fc)",
        ),
        ParamSpec::real("kv", "Fv", "N s/m", 0.0, Range::NON_NEGATIVE, "viscous friction coefficient"),
        ParamSpec::real(
            "vs",
            "vs",
            "m/s",
            0.01,
            Range::POSITIVE,
            "Stribeck velocity of the Lorentzian curve",
        ),
        ParamSpec::real(
            "tau_l",
            "τL",
            "s",
            0.005,
            Range::NON_NEGATIVE,
            "frictional lag of the velocity in the Stribeck term",
        ),
        ParamSpec::real(
            "gamma",
            "γ",
            "s",
            1.0,
            Range::POSITIVE,
            "dwell time at which stiction has risen half way from Fs,a to Fs,ss",
        ),
    ],
    states: "z[0] = w, lagged velocity [m/s]; mem = [mode, anchor, t_stick, Fs,a, Fs,slide] (discrete)",
    sources:
        "Olsson 1996 eqs. 2.9-2.11; Armstrong-Hélouvry 1991; Armstrong-Hélouvry, Dupont, Canudas de Wit 1994",
};

/// Parameters of [`Armstrong`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArmstrongParams {
    /// Pre-sliding stiffness `σ0` [N/m].
    pub sigma0: f64,
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Break-away force after a long dwell `Fc + Fs,ss` \[N\].
    pub fs: f64,
    /// Viscous coefficient `Fv` [N s/m].
    pub kv: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Frictional lag `τL` \[s\].
    pub tau_l: f64,
    /// Dwell-time constant `γ` \[s\].
    pub gamma: f64,
}

impl Default for ArmstrongParams {
    fn default() -> Self {
        ArmstrongParams { sigma0: 1e5, fc: 1.0, fs: 1.5, kv: 0.0, vs: 0.01, tau_l: 0.005, gamma: 1.0 }
    }
}

impl ArmstrongParams {
    /// Check every parameter against its range and `fs >= fc`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "sigma0", self.sigma0)?;
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "fs", self.fs)?;
        check(&INFO, "kv", self.kv)?;
        check(&INFO, "vs", self.vs)?;
        check(&INFO, "tau_l", self.tau_l)?;
        check(&INFO, "gamma", self.gamma)?;
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

    /// Steady-state Stribeck friction `Fs,ss = fs - fc` \[N\].
    pub fn fs_ss(&self) -> f64 {
        self.fs - self.fc
    }

    /// Stiction (Stribeck part) after a dwell `td` starting from `fs_a`:
    /// `Fs(γ, td) = Fs,a + (Fs,ss - Fs,a) td/(td + γ)` \[N\].
    pub fn stiction(&self, fs_a: f64, td: f64) -> f64 {
        let td = td.max(0.0);
        fs_a + (self.fs_ss() - fs_a) * td / (td + self.gamma)
    }
}

/// Memory slots.
pub(crate) const MODE: usize = 0;
pub(crate) const ANCHOR: usize = 1;
pub(crate) const T_STICK: usize = 2;
pub(crate) const FS_A: usize = 3;
pub(crate) const FS_SLIDE: usize = 4;

/// Armstrong's seven-parameter model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::armstrong::{Armstrong, ArmstrongParams};
/// let m = Armstrong::new(ArmstrongParams::default()).unwrap();
/// let mut z = [0.0];
/// let mut mem = [0.0; 5];
/// m.init(&Input::new(0.0, 0.0, 0.0), &mut z, &mut mem);
/// // stuck: a pre-sliding spring of stiffness σ0 ...
/// assert!((m.force(&Input::new(0.0, 1e-5, 1e-4), &z, &mem) - 1.0).abs() < 1e-12);
/// // ... that breaks away beyond fs = 1.5 N into sliding at Fc + Fs,ss/(1 + (w/vs)²)
/// assert!((m.force(&Input::new(0.0, 2e-5, 1e-4), &z, &mem) - 1.5).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Armstrong {
    p: ArmstrongParams,
}

impl Armstrong {
    /// A validated model.
    pub fn new(p: ArmstrongParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Armstrong { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = ArmstrongParams {
            sigma0: r.real("sigma0")?,
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            kv: r.real("kv")?,
            vs: r.real("vs")?,
            tau_l: r.real("tau_l")?,
            gamma: r.real("gamma")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &ArmstrongParams {
        &self.p
    }

    /// The friction force and the memory after moving to `inp` from `mem`,
    /// with lagged velocity `w`: the one set of switching rules used by both
    /// [`FrictionModel::force`] and [`FrictionModel::accept`].
    fn resolve(&self, inp: &Input, w: f64, mem: &[f64]) -> (f64, [f64; 5]) {
        let p = &self.p;
        let (x, v) = (inp.x, inp.v);
        let lorentz = 1.0 / (1.0 + (w / p.vs).powi(2));
        let mut m = [mem[MODE], mem[ANCHOR], mem[T_STICK], mem[FS_A], mem[FS_SLIDE]];
        let d = m[MODE];
        if d != 0.0 {
            let level = p.fc + m[FS_SLIDE] * lorentz;
            if v * d > 0.0 {
                // still sliding: track the anchor at which the spring would carry `level`
                m[ANCHOR] = x - level * d / p.sigma0;
                return (level * d + p.kv * v, m);
            }
            // v crossed zero: stick, keeping the anchor of the last sliding step
            m[MODE] = 0.0;
            m[T_STICK] = inp.t;
            m[FS_A] = m[FS_SLIDE] * lorentz;
        }
        let f_pre = p.sigma0 * (x - m[ANCHOR]);
        let fs_now = p.stiction(m[FS_A], inp.t - m[T_STICK]);
        if f_pre.abs() > p.fc + fs_now && v * f_pre > 0.0 {
            // break-away: slide with the stiction reached after this dwell
            let d = sign(f_pre);
            let level = p.fc + fs_now * lorentz;
            m[MODE] = d;
            m[FS_SLIDE] = fs_now;
            m[ANCHOR] = x - level * d / p.sigma0;
            return (level * d + p.kv * v, m);
        }
        (f_pre, m)
    }

    /// The lagged velocity `w`: the state `z[0]`, or `v` without lag.
    pub(crate) fn lagged(&self, inp: &Input, z: &[f64]) -> f64 {
        if self.p.tau_l > 0.0 {
            z[0]
        } else {
            inp.v
        }
    }
}

impl FrictionModel for Armstrong {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        [Q::Velocity, Q::Dimensionless, Q::Displacement, Q::Time, Q::Force, Q::Force]
            .get(k)
            .copied()
            .unwrap_or(Q::Unknown)
    }
    fn n_states(&self) -> usize {
        1
    }
    fn n_memory(&self) -> usize {
        5
    }
    fn init(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        z[0] = 0.0;
        mem[MODE] = 0.0;
        mem[ANCHOR] = inp.x;
        mem[T_STICK] = inp.t;
        mem[FS_A] = self.p.fs_ss();
        mem[FS_SLIDE] = self.p.fs_ss();
    }
    fn force(&self, inp: &Input, z: &[f64], mem: &[f64]) -> f64 {
        self.resolve(inp, self.lagged(inp, z), mem).0
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        dz[0] = if self.p.tau_l > 0.0 { (inp.v - z[0]) / self.p.tau_l } else { 0.0 };
    }
    /// On the branch [`FrictionModel::force`] takes (the switching rules
    /// decide it from `x`, `v`, `t` and `mem`, as in `force`):
    /// stuck, F = σ0 (x - xa): ∂F/∂x = σ0; sliding in direction d,
    /// F = (Fc + Fs L(w)) d + Fv v, L = 1/(1 + (w/vs)²): ∂F/∂w = -2 Fs d w L²/vs²
    /// (w = z, or w = v without lag), ∂F/∂v = Fv (+ ∂F/∂w without lag).
    /// g = (v - w)/τL: ∂g/∂w = -1/τL, ∂g/∂v = 1/τL (g = 0 without lag).
    fn partials(&self, inp: &Input, z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
        let ap = &self.p;
        let w = self.lagged(inp, z);
        let (_, m) = self.resolve(inp, w, mem);
        let d = m[MODE];
        let (mut df_dx, mut df_dv, mut df_dw) = (0.0, 0.0, 0.0);
        if d == 0.0 {
            df_dx = ap.sigma0;
        } else {
            let lorentz = 1.0 / (1.0 + (w / ap.vs).powi(2));
            df_dw = -2.0 * m[FS_SLIDE] * d * w * lorentz * lorentz / (ap.vs * ap.vs);
            df_dv = ap.kv;
        }
        p.df_dx = df_dx;
        p.dg_dx[0] = 0.0;
        if ap.tau_l > 0.0 {
            p.df_dv = df_dv;
            p.df_dz[0] = df_dw;
            p.dg_dz[0] = -1.0 / ap.tau_l;
            p.dg_dv[0] = 1.0 / ap.tau_l;
        } else {
            p.df_dv = df_dv + df_dw;
            p.df_dz[0] = 0.0;
            p.dg_dz[0] = 0.0;
            p.dg_dv[0] = 0.0;
        }
    }
    fn accept(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        let (_, m) = self.resolve(inp, self.lagged(inp, z), mem);
        mem[..5].copy_from_slice(&m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, Path};

    /// One recorded step: time, force, mode.
    struct Step {
        t: f64,
        f: f64,
        mode: f64,
    }

    /// Drive through segments of constant velocity `(duration, v)` (rests
    /// included, which `testing::Path` cannot express) with RK4 steps of at
    /// most `dt`, accepting every step.
    fn run(m: &Armstrong, segments: &[(f64, f64)], dt: f64) -> Vec<Step> {
        let (mut t, mut x) = (0.0, 0.0);
        let mut z = [0.0];
        let mut mem = [0.0; 5];
        m.init(&Input::new(0.0, 0.0, 0.0), &mut z, &mut mem);
        let mut out = Vec::new();
        let (mut k1, mut k2, mut k3, mut k4) = ([0.0], [0.0], [0.0], [0.0]);
        for &(duration, v) in segments {
            let n = (duration / dt).ceil() as usize;
            let h = duration / n as f64;
            for _ in 0..n {
                let at = |s: f64| Input::new(t + s, x + v * s, v);
                m.rates(&at(0.0), &z, &mem, &mut k1);
                m.rates(&at(0.5 * h), &[z[0] + 0.5 * h * k1[0]], &mem, &mut k2);
                m.rates(&at(0.5 * h), &[z[0] + 0.5 * h * k2[0]], &mem, &mut k3);
                m.rates(&at(h), &[z[0] + h * k3[0]], &mem, &mut k4);
                z[0] += h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
                let end = at(h);
                m.accept(&end, &mut z, &mut mem);
                (t, x) = (end.t, end.x);
                out.push(Step { t, f: m.force(&end, &z, &mem), mode: mem[MODE] });
            }
        }
        out
    }

    fn params() -> ArmstrongParams {
        ArmstrongParams { sigma0: 1e5, fc: 1.0, fs: 2.0, kv: 0.0, vs: 1e-3, tau_l: 0.01, gamma: 0.5 }
    }

    /// Slide at v1 (w -> v1), rest for a dwell td, push slowly at v2: the
    /// largest pre-sliding force is the break-away force
    /// Fc + Fs,a + (Fs,ss - Fs,a) td/(td + γ), with Fs,a = Fs,ss/(1 + (w/vs)²)
    /// at the stop and td counted from the stop to the break-away; it grows
    /// with the dwell from Fc + Fs,a towards fs.
    #[test]
    fn break_away_force_grows_with_dwell_time() {
        let p = params();
        let m = Armstrong::new(p).unwrap();
        let (v1, t1, v2, dt) = (1e-2, 0.2, 1e-4, 2e-5);
        let w_stop = v1 * (1.0 - (-t1 / p.tau_l).exp());
        let fs_a = p.fs_ss() / (1.0 + (w_stop / p.vs).powi(2));
        let mut last = 0.0;
        for dwell in [0.01, 0.05, 0.5, 2.0, 10.0] {
            let rec = run(&m, &[(t1, v1), (dwell, 0.0), (0.2, v2)], dt);
            let push = t1 + dwell;
            let brk = rec.iter().position(|s| s.t > push + 1e-12 && s.mode != 0.0).unwrap();
            let (f_b, t_b) = (rec[brk - 1].f, rec[brk].t);
            let td = t_b - t1;
            let exact = p.fc + fs_a + (p.fs_ss() - fs_a) * td / (td + p.gamma);
            // one step of loading (σ0 v2 dt), plus the stop being registered at the
            // end of the first step at rest (td and Fs,a off by one step)
            let tol = p.sigma0 * v2 * dt + (p.fs_ss() / p.gamma) * dt + fs_a * 2.0 * dt / p.tau_l;
            assert!((f_b - exact).abs() < tol, "dwell {dwell}: break-away {f_b} vs {exact}");
            assert!(f_b > last, "dwell {dwell}: {f_b} after {last}");
            last = f_b;
        }
        // after a long dwell stiction has nearly healed back to fs
        assert!(last > p.fs - 0.05 * p.fs_ss() && last < p.fs);
    }

    /// Steady sliding from the healed state settles on the static
    /// Stribeck-Lorentzian curve Fc + Fs,ss/(1 + (v/vs)²) + Fv v, approached
    /// through the lagged velocity w = v (1 - exp(-t/τL)).
    #[test]
    fn steady_sliding_is_the_static_lorentzian_curve() {
        let p = ArmstrongParams { kv: 20.0, ..params() };
        let m = Armstrong::new(p).unwrap();
        for v in [2e-4, 1e-3, 5e-3] {
            let dur = 10.0 * p.tau_l + p.fs / (p.sigma0 * v);
            let rec = drive(&m, &Path::points(&[0.0, v * dur], v), 1e-5);
            for r in rec.iter().filter(|r| r.x > 2.0 * p.fs / p.sigma0) {
                let w = v * (1.0 - (-r.t / p.tau_l).exp());
                let exact = p.fc + p.fs_ss() / (1.0 + (w / p.vs).powi(2)) + p.kv * v;
                assert!((r.f - exact).abs() < 1e-9, "v {v} t {}: {} vs {exact}", r.t, r.f);
            }
            let end = rec.last().unwrap().f;
            let curve = p.fc + p.fs_ss() / (1.0 + (v / p.vs).powi(2)) + p.kv * v;
            assert!((end - curve).abs() < 1e-4 * p.fs, "v {v}: {end} vs {curve}");
        }
    }

    /// Pre-sliding: from rest the force is σ0 x up to the break-away force fs;
    /// after a reversal from sliding the contact sticks at once and unloads
    /// along a spring of stiffness σ0 from the last sliding force.
    #[test]
    fn stuck_contact_is_a_spring_before_breakaway_and_after_reversal() {
        let p = params();
        let m = Armstrong::new(p).unwrap();
        let x_brk = p.fs / p.sigma0;
        let rec = drive(&m, &Path::points(&[0.0, 2e-3, 2e-3 - 3.0 * x_brk], 1e-3), 1e-4);
        for r in rec.iter().take_while(|r| r.x < x_brk - 1e-12) {
            assert!((r.f - p.sigma0 * r.x).abs() < 1e-9, "x {}: {}", r.x, r.f);
        }
        let peak = rec.iter().map(|r| r.f).fold(f64::NEG_INFINITY, f64::max);
        assert!((peak - p.fs).abs() < p.sigma0 * 1e-7 + 1e-9, "peak {peak}");
        let rev = rec.iter().position(|r| r.x >= 2e-3 - 1e-15).unwrap();
        let (xr, fr) = (rec[rev].x, rec[rev].f);
        // unloading stays stuck down to -(Fc + Fs,a): a stroke of about 2 Fc/σ0
        let x_end = xr - 1.9 * p.fc / p.sigma0;
        for r in rec[rev + 1..].iter().take_while(|r| r.x > x_end) {
            let exact = fr - p.sigma0 * (xr - r.x);
            assert!((r.f - exact).abs() < 1e-9, "x {}: {} vs {exact}", r.x, r.f);
        }
        // and then it slides backwards
        assert!(rec.last().unwrap().f < -p.fc);
    }

    /// Mirrored motion gives the mirrored force.
    #[test]
    fn mirrored_motion_gives_mirrored_force() {
        let m = Armstrong::new(params()).unwrap();
        let up = drive(&m, &Path::points(&[0.0, 1e-4, 5e-5, 2e-4], 1e-3), 1e-4);
        let down = drive(&m, &Path::points(&[0.0, -1e-4, -5e-5, -2e-4], 1e-3), 1e-4);
        for (u, d) in up.iter().zip(&down) {
            assert!((u.f + d.f).abs() < 1e-12, "{} {}", u.f, d.f);
        }
    }
}
