//! `rate_state`: Dieterich-Ruina rate-and-state friction with the aging or
//! the slip law, regularised at zero velocity.
//!
//! # Equations
//! ```text
//! F = N μ
//! μ = a asinh( v/(2 v0) exp((μ0 + b ψ)/a) )     (regularised: odd in v, smooth at v = 0)
//!   ≈ μ0 + a ln(|v|/v0) + b ln(v0 θ/Dc) sign(v) for |v| >> v0 exp(-(μ0 + b ψ)/a)
//! ψ = ln(v0 θ/Dc)                                (the state, dimensionless)
//! aging law: dθ/dt = 1 - |v| θ/Dc               ->  dψ/dt = (v0/Dc) exp(-ψ) - |v|/Dc
//! slip law:  dθ/dt = -(|v| θ/Dc) ln(|v| θ/Dc)   ->  dψ/dt = -(|v|/Dc) (ψ + ln(|v|/v0))
//! steady state at constant v: θss = Dc/|v|, ψss = ln(v0/|v|),
//!   μss(v) = μ0 + (a - b) ln(|v|/v0)           (velocity weakening for b > a)
//! ```
//!
//! The classical law `μ0 + a ln(v/v0) + b ln(v0 θ/Dc)` is singular at `v = 0`;
//! the arcsinh form (Rice and Ben-Zion 1996, Lapusta, Rice, Ben-Zion, Zheng 2000) follows from
//! thermally activated creep in both directions, equals the classical law to
//! within `a/(4 y²)` where `y` is the asinh argument (far below any measurable
//! difference once `|v|` exceeds `v0 exp(-μ0/a)`, i.e. `1e-32 v0` for the
//! defaults), and gives `μ = 0` at rest, odd in `v`.
//!
//! The state is stored as `ψ = ln(v0 θ/Dc)` rather than `θ`: θ spans many
//! decades (from `Dc/v` in fast sliding to years of healing), ψ stays of
//! order ten, and the friction law is linear in it.
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | μ0 | `mu0` | - | [0, inf) | 0.6 | steady-state friction coefficient at the reference velocity v0 |
//! | a | `a` | - | (0, inf) | 0.01 | direct-effect coefficient: a velocity step v1 -> v2 changes μ at once by a ln(v2/v1) |
//! | b | `b` | - | [0, inf) | 0.015 | evolution-effect coefficient (b > a: velocity weakening) |
//! | v0 | `v0` | m/s | (0, inf) | 0.000001 | reference velocity |
//! | Dc | `dc` | m | (0, inf) | 0.00001 | characteristic slip distance of the state evolution |
//! | N | `fn_load` | N | [0, inf) | 1 | normal load; the friction force is F = μ N |
//! | - | `law` | - | aging | slip | "aging" | state evolution law: Dieterich's aging law or Ruina's slip law |
//!
//! **Load rule.** A scenario contact's `normal` N(t) already multiplies this
//! model's force and its maximum static force. `fn_load` is the same load written
//! into the model (F = μ N as in the source): give the load in one place
//! only, either the contact's `normal` (recommended, it can vary in time)
//! with `fn_load` = 1, or `fn_load` with the contact's `normal` = 1; otherwise N
//! enters squared. The scenario loader refuses a contact that sets both.
//!
//! # States
//! `z[0] = ψ = ln(v0 θ/Dc)` [-]. Starts at the steady state of the initial
//! velocity, `ψ = ln(v0/|v|)`, or at `ψ = 0` (θ = Dc/v0) when starting at rest.
//!
//! # Sources
//! Olsson 1996, "Rock Mechanics" among the special-purpose models;
//! J.H. Dieterich, "Modeling of rock friction 1. Experimental results and
//! constitutive equations", J. Geophys. Res. 84, 1979 (aging law);
//! A. Ruina, "Slip instability and state variable friction laws",
//! J. Geophys. Res. 88, 1983 (slip law); J.R. Rice, Y. Ben-Zion, PNAS 93, 1996,
//! and N. Lapusta, J.R. Rice, Y. Ben-Zion, G. Zheng, J. Geophys. Res. 105, 2000
//! (arcsinh regularisation).

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `rate_state`.
pub static INFO: ModelInfo = ModelInfo {
    id: "rate_state",
    summary: "Dieterich-Ruina rate-and-state friction (aging or slip law), arcsinh-regularised at v = 0",
    family: Family::ContinuousState,
    equations: "F = N μ
μ = a asinh( v/(2 v0) exp((μ0 + b ψ)/a) )     (regularised: odd in v, smooth at v = 0)
  ≈ μ0 + a ln(|v|/v0) + b ln(v0 θ/Dc) sign(v) for |v| >> v0 exp(-(μ0 + b ψ)/a)
ψ = ln(v0 θ/Dc)                                (the state, dimensionless)
aging law: dθ/dt = 1 - |v| θ/Dc               ->  dψ/dt = (v0/Dc) exp(-ψ) - |v|/Dc
slip law:  dθ/dt = -(|v| θ/Dc) ln(|v| θ/Dc)   ->  dψ/dt = -(|v|/Dc) (ψ + ln(|v|/v0))
steady state at constant v: θss = Dc/|v|, ψss = ln(v0/|v|),
  μss(v) = μ0 + (a - b) ln(|v|/v0)           (velocity weakening for b > a)",
    params: &[
        ParamSpec::real(
            "mu0",
            "μ0",
            "-",
            0.6,
            Range::NON_NEGATIVE,
            "steady-state friction coefficient at the reference velocity v0",
        ),
        ParamSpec::real(
            "a",
            "a",
            "-",
            0.01,
            Range::POSITIVE,
            "direct-effect coefficient: a velocity step v1 -> v2 changes μ at once by a ln(v2/v1)",
        ),
        ParamSpec::real(
            "b",
            "b",
            "-",
            0.015,
            Range::NON_NEGATIVE,
            "evolution-effect coefficient (b > a: velocity weakening)",
        ),
        ParamSpec::real("v0", "v0", "m/s", 1e-6, Range::POSITIVE, "reference velocity"),
        ParamSpec::real(
            "dc",
            "Dc",
            "m",
            1e-5,
            Range::POSITIVE,
            "characteristic slip distance of the state evolution",
        ),
        ParamSpec::real(
            "fn_load",
            "N",
            "N",
            1.0,
            Range::NON_NEGATIVE,
            "normal load; the friction force is F = μ N",
        ),
        ParamSpec {
            name: "law",
            symbol: "-",
            unit: "-",
            kind: ParamKind::Choice { default: "aging", options: &["aging", "slip"] },
            doc: "state evolution law: Dieterich's aging law or Ruina's slip law",
        },
    ],
    states: "z[0] = ψ = ln(v0 θ/Dc), the log of the normalised state θ [-]",
    sources:
        "Olsson 1996 (rock mechanics); Dieterich 1979; Ruina 1983; Rice and Ben-Zion 1996; Lapusta, Rice, Ben-Zion, Zheng 2000",
};

/// The state evolution law.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateLaw {
    /// Dieterich's aging law `dθ/dt = 1 - |v| θ/Dc`: heals at rest.
    Aging,
    /// Ruina's slip law `dθ/dt = -(|v| θ/Dc) ln(|v| θ/Dc)`: no evolution at rest.
    Slip,
}

/// Parameters of [`RateState`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateStateParams {
    /// Reference friction coefficient `μ0` [-].
    pub mu0: f64,
    /// Direct-effect coefficient `a` [-].
    pub a: f64,
    /// Evolution-effect coefficient `b` [-].
    pub b: f64,
    /// Reference velocity `v0` [m/s].
    pub v0: f64,
    /// Characteristic slip distance `Dc` \[m\].
    pub dc: f64,
    /// Normal load `N` \[N\].
    pub fn_load: f64,
    /// State evolution law.
    pub law: StateLaw,
}

impl Default for RateStateParams {
    fn default() -> Self {
        RateStateParams {
            mu0: 0.6,
            a: 0.01,
            b: 0.015,
            v0: 1e-6,
            dc: 1e-5,
            fn_load: 1.0,
            law: StateLaw::Aging,
        }
    }
}

impl RateStateParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "mu0", self.mu0)?;
        check(&INFO, "a", self.a)?;
        check(&INFO, "b", self.b)?;
        check(&INFO, "v0", self.v0)?;
        check(&INFO, "dc", self.dc)?;
        check(&INFO, "fn_load", self.fn_load)
    }

    /// Steady-state friction coefficient `μss(v) = μ0 + (a - b) ln(|v|/v0)`
    /// of the unregularised law (for `v != 0`).
    pub fn mu_steady(&self, v: f64) -> f64 {
        self.mu0 + (self.a - self.b) * (v.abs() / self.v0).ln()
    }
}

/// Above this `ln y` μ uses `asinh(y) = ln(2 y)` (free of overflow).
const LN_Y_LARGE: f64 = 20.0;

/// Rate-and-state friction (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::rate_state::{RateState, RateStateParams};
/// let p = RateStateParams::default();
/// let m = RateState::new(p).unwrap();
/// // at the steady state of v = 1e-3 m/s the force is N μss(v)
/// let v = 1e-3;
/// let psi = (p.v0 / v).ln();
/// let f = m.force(&Input::new(0.0, 0.0, v), &[psi], &[]);
/// assert!((f - p.mu_steady(v)).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateState {
    p: RateStateParams,
}

impl RateState {
    /// A validated model.
    pub fn new(p: RateStateParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(RateState { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = RateStateParams {
            mu0: r.real("mu0")?,
            a: r.real("a")?,
            b: r.real("b")?,
            v0: r.real("v0")?,
            dc: r.real("dc")?,
            fn_load: r.real("fn_load")?,
            law: if r.choice("law")? == "slip" { StateLaw::Slip } else { StateLaw::Aging },
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &RateStateParams {
        &self.p
    }

    /// The regularised friction coefficient μ(v, ψ).
    pub fn mu(&self, v: f64, psi: f64) -> f64 {
        if v == 0.0 {
            return 0.0;
        }
        let p = &self.p;
        let ln_y = self.ln_y(v, psi);
        let m = if ln_y > LN_Y_LARGE {
            // asinh(y) = ln(2y) + 1/(4y²) + ...: exact to 1e-18 here and free of overflow
            ln_y + std::f64::consts::LN_2
        } else {
            ln_y.exp().asinh()
        };
        sign(v) * p.a * m
    }

    /// ln of the asinh argument, `ln y = ln(|v|/(2 v0)) + (μ0 + b ψ)/a`.
    #[inline]
    fn ln_y(&self, v: f64, psi: f64) -> f64 {
        let p = &self.p;
        (v.abs() / (2.0 * p.v0)).ln() + (p.mu0 + p.b * psi) / p.a
    }

    /// `(∂μ/∂v, ∂μ/∂ψ)` of [`RateState::mu`] on the branch it takes:
    /// asinh branch, with y = |v| c, c = exp((μ0 + b ψ)/a)/(2 v0):
    /// ∂μ/∂v = a c/sqrt(1 + y²), ∂μ/∂ψ = sign(v) b y/sqrt(1 + y²);
    /// logarithmic branch (ln y > 20): ∂μ/∂v = a/|v|, ∂μ/∂ψ = sign(v) b.
    /// At v = 0 (μ = 0 for every ψ): ∂μ/∂ψ = 0 and ∂μ/∂v = a exp((μ0 + b ψ)/a)/(2 v0),
    /// the slope of the smooth regularisation through 0.
    pub fn mu_partials(&self, v: f64, psi: f64) -> (f64, f64) {
        let p = &self.p;
        let ln_y = self.ln_y(v, psi);
        if ln_y > LN_Y_LARGE {
            (p.a / v.abs(), sign(v) * p.b)
        } else {
            let c = ((p.mu0 + p.b * psi) / p.a - (2.0 * p.v0).ln()).exp();
            let y = ln_y.exp();
            let root = (1.0 + y * y).sqrt();
            (p.a * c / root, sign(v) * p.b * y / root)
        }
    }
}

impl FrictionModel for RateState {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        if k == 0 {
            Q::Dimensionless
        } else {
            Q::Unknown
        }
    }
    fn n_states(&self) -> usize {
        1
    }
    fn init(&self, inp: &Input, z: &mut [f64], _mem: &mut [f64]) {
        z[0] = if inp.v == 0.0 { 0.0 } else { (self.p.v0 / inp.v.abs()).ln() };
    }
    fn force(&self, inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        self.p.fn_load * self.mu(inp.v, z[0])
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        let p = &self.p;
        let speed = inp.v.abs();
        dz[0] = match p.law {
            StateLaw::Aging => (p.v0 / p.dc) * (-z[0]).exp() - speed / p.dc,
            StateLaw::Slip => {
                if speed == 0.0 {
                    0.0
                } else {
                    -(speed / p.dc) * (z[0] + (speed / p.v0).ln())
                }
            }
        };
    }
    /// F = N μ(v, ψ) with the partials of [`RateState::mu_partials`];
    /// aging law g = (v0/Dc) e^(-ψ) - |v|/Dc: ∂g/∂ψ = -(v0/Dc) e^(-ψ),
    /// ∂g/∂v = -sign(v)/Dc (at v = 0 the right-hand side);
    /// slip law g = -(|v|/Dc)(ψ + ln(|v|/v0)): ∂g/∂ψ = -|v|/Dc,
    /// ∂g/∂v = -(sign(v)/Dc)(ψ + ln(|v|/v0) + 1); at v = 0, where the code
    /// sets g = 0 and the slope in v is infinite, both 0.
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let rp = &self.p;
        let (v, psi) = (inp.v, z[0]);
        let speed = v.abs();
        let (dmu_dv, dmu_dpsi) = self.mu_partials(v, psi);
        p.df_dx = 0.0;
        p.df_dv = rp.fn_load * dmu_dv;
        p.df_dz[0] = rp.fn_load * dmu_dpsi;
        p.dg_dx[0] = 0.0;
        let sv = if v < 0.0 { -1.0 } else { 1.0 };
        let (dg_dz, dg_dv) = match rp.law {
            StateLaw::Aging => (-(rp.v0 / rp.dc) * (-psi).exp(), -sv / rp.dc),
            StateLaw::Slip => {
                if speed == 0.0 {
                    (0.0, 0.0)
                } else {
                    (-speed / rp.dc, -(sv / rp.dc) * (psi + (speed / rp.v0).ln() + 1.0))
                }
            }
        };
        p.dg_dz[0] = dg_dz;
        p.dg_dv[0] = dg_dv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slide at constant velocity `v` for `duration` from state `psi0` with
    /// classical RK4 steps of `dt`; returns (slip, ψ, F) after every step.
    fn run(m: &RateState, psi0: f64, v: f64, duration: f64, dt: f64) -> Vec<(f64, f64, f64)> {
        let n = (duration / dt).round() as usize;
        let mut z = [psi0];
        let mut out = Vec::with_capacity(n);
        let (mut k1, mut k2, mut k3, mut k4) = ([0.0], [0.0], [0.0], [0.0]);
        for i in 0..n {
            let t = i as f64 * dt;
            let at = |t: f64| Input::new(t, v * t, v);
            m.rates(&at(t), &z, &[], &mut k1);
            m.rates(&at(t + 0.5 * dt), &[z[0] + 0.5 * dt * k1[0]], &[], &mut k2);
            m.rates(&at(t + 0.5 * dt), &[z[0] + 0.5 * dt * k2[0]], &[], &mut k3);
            m.rates(&at(t + dt), &[z[0] + dt * k3[0]], &[], &mut k4);
            z[0] += dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
            let end = at(t + dt);
            out.push((end.x, z[0], m.force(&end, &z, &[])));
        }
        out
    }

    fn model(law: StateLaw, a: f64, b: f64) -> RateState {
        RateState::new(RateStateParams { a, b, fn_load: 2.0, law, ..RateStateParams::default() }).unwrap()
    }

    /// Sliding at constant velocity from a state far from steady, the force
    /// settles on N μss(v) = N (μ0 + (a - b) ln(v/v0)) after a few Dc of slip:
    /// lower at higher speed for b > a (weakening), higher for b < a.
    #[test]
    fn settles_on_the_steady_state_curve_at_constant_velocity() {
        for law in [StateLaw::Aging, StateLaw::Slip] {
            for (a, b) in [(0.01, 0.015), (0.015, 0.01)] {
                let m = model(law, a, b);
                let p = *m.params();
                let mut f_ss = Vec::new();
                for v in [1e-4, 1e-2] {
                    // 30 Dc of slip in steps of Dc/200
                    let dt = p.dc / v / 200.0;
                    let rec = run(&m, 3.0, v, 30.0 * p.dc / v, dt);
                    let (_, psi, f) = *rec.last().unwrap();
                    let exact = p.fn_load * (p.mu0 + (a - b) * (v / p.v0).ln());
                    assert!((f - exact).abs() < 1e-9, "{law:?} a {a} b {b} v {v}: F {f} vs {exact}");
                    assert!((psi - (p.v0 / v).ln()).abs() < 1e-6);
                    f_ss.push(f);
                }
                assert_eq!(f_ss[1] < f_ss[0], b > a, "{law:?}: weakening iff b > a");
            }
        }
    }

    /// A velocity step v1 -> v2 from steady sliding: the direct effect
    /// a ln(v2/v1) appears at once, then μ evolves to μss(v2) over slip
    /// distances of order Dc. Closed forms at constant v2 with slip s:
    /// slip law ψ - ψss = ln(v2/v1) e^(-s/Dc); aging law θ - θss = (θ1 - θss) e^(-s/Dc).
    #[test]
    fn velocity_step_direct_effect_then_evolution_over_dc() {
        let (v1, v2) = (1e-4, 1e-3);
        for law in [StateLaw::Aging, StateLaw::Slip] {
            let m = model(law, 0.01, 0.015);
            let p = *m.params();
            let psi1 = (p.v0 / v1).ln();
            let f1 = m.force(&Input::new(0.0, 0.0, v1), &[psi1], &[]);
            let jump = m.force(&Input::new(0.0, 0.0, v2), &[psi1], &[]) - f1;
            assert!((jump - p.fn_load * p.a * (v2 / v1).ln()).abs() < 1e-12, "{law:?}: jump {jump}");
            let rec = run(&m, psi1, v2, 10.0 * p.dc / v2, p.dc / v2 / 200.0);
            let (theta1, theta_ss) = (p.dc / v1, p.dc / v2);
            for &(s, _, f) in rec.iter().step_by(50) {
                let decay = (-s / p.dc).exp();
                let psi = match law {
                    StateLaw::Slip => (p.v0 / v2).ln() + (v2 / v1).ln() * decay,
                    StateLaw::Aging => (p.v0 * (theta_ss + (theta1 - theta_ss) * decay) / p.dc).ln(),
                };
                let exact = p.fn_load * (p.mu0 + p.a * (v2 / p.v0).ln() + p.b * psi);
                assert!((f - exact).abs() < 1e-9, "{law:?} s/Dc {}: F {f} vs {exact}", s / p.dc);
            }
            // after 10 Dc the transient has decayed to e^-10 of the step
            let f_end = rec.last().unwrap().2;
            assert!((f_end - p.fn_load * p.mu_steady(v2)).abs() < 1e-4 * p.fn_load);
        }
    }

    /// At rest the aging law heals: θ grows linearly with time, θ(t) = θ0 + t;
    /// the slip law does not evolve at all. The force at rest is zero.
    #[test]
    fn aging_law_heals_linearly_at_rest() {
        let m = model(StateLaw::Aging, 0.01, 0.015);
        let p = *m.params();
        let psi0 = (p.v0 / 1e-3).ln();
        let theta0 = p.dc / 1e-3;
        let dt = 1e-4;
        let rec = run(&m, psi0, 0.0, 10.0, dt);
        for (i, &(_, psi, f)) in rec.iter().enumerate().step_by(997) {
            let t = (i + 1) as f64 * dt;
            let theta = p.dc / p.v0 * psi.exp();
            assert!((theta - (theta0 + t)).abs() < 1e-9 * (theta0 + t), "t {t}: θ {theta}");
            assert_eq!(f, 0.0);
        }
        let slip = model(StateLaw::Slip, 0.01, 0.015);
        let rec = run(&slip, psi0, 0.0, 10.0, 1e-2);
        assert_eq!(rec.last().unwrap().1, psi0);
    }

    /// The regularised law is odd in v, finite for any state, and within
    /// a/(4 y²) of the classical logarithmic law, y being the asinh argument.
    #[test]
    fn odd_finite_and_equal_to_the_log_law_away_from_rest() {
        let m = model(StateLaw::Aging, 0.01, 0.015);
        let p = *m.params();
        for psi in [-50.0, -5.0, 0.0, 5.0, 1e3] {
            for v in [1e-40, 1e-12, 1e-6, 1.0, 1e3] {
                let f = m.force(&Input::new(0.0, 0.0, v), &[psi], &[]);
                let g = m.force(&Input::new(0.0, 0.0, -v), &[psi], &[]);
                assert!(f.is_finite() && f >= 0.0 && g == -f, "ψ {psi} v {v}: {f} {g}");
                let classical = p.fn_load * (p.mu0 + p.a * (v / p.v0).ln() + p.b * psi);
                let y = v / (2.0 * p.v0) * ((p.mu0 + p.b * psi) / p.a).exp();
                if y > 10.0 {
                    let bound = p.fn_load * p.a / (4.0 * y * y);
                    assert!((f - classical).abs() <= bound + 1e-12, "ψ {psi} v {v}: {f} vs {classical}");
                }
            }
        }
    }
}
