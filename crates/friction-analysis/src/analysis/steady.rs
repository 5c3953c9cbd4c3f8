//! The steady-state friction-velocity curve of a model: the force it
//! settles on when the contact slides at a constant velocity, velocity by
//! velocity (not a slow sweep, whose state lags behind and shows a small
//! hysteresis).
//!
//! ```text
//! for each v of the grid:
//!     static map (no state, no memory):  F = F(v), directly
//!     otherwise: from relaxed states at rest, the per-step update
//!         (friction_models::update::update, stable for any step) at slip
//!         velocity v over steps dt_k = dt_0 2^k (the first slips 1 nm; for
//!         models without continuous states the slip of a step grows to 1 m
//!         at most),
//!         until |F_k - F_(k-1)| <= 1e-12 |F_k| on two steps in a row
//!         (settled), or MAX_STEPS steps (not settled: reported, not plotted)
//! ```
//!
//! For LuGre (Canudas de Wit, Olsson, Åström and Lischinsky 1995, "A new
//! model for control of systems with friction", eq. 5 and 8) the settled
//! force is `g(v) + σ2 v`, `g(v) = Fc + (Fs - Fc) exp(-(v/vs)²)`.

use friction_models::update::{init, method, state_len, update, Method, UpdateError};
use friction_models::{AnyModel, FrictionModel, Input};

/// Relative change of the force between two steps below which it has
/// settled (on two steps in a row).
pub const REL_TOL: f64 = 1e-12;

/// Most steps per velocity before a point is reported as not settled.
pub const MAX_STEPS: usize = 160;

/// Slip of the first step \[m\].
const FIRST_SLIP: f64 = 1e-9;

/// Largest slip of one step \[m\] of a model without continuous states
/// (hysteresis operators): the steps stop growing there (the `bristle`
/// model's update walks its bristles through the slip, a time proportional
/// to it: doubling without bound never returned). Models with continuous
/// states grow their steps without bound: some approach their steady state
/// only algebraically in the slip (Dahl with exponent 2, as 1/x).
const MAX_SLIP: f64 = 1.0;

/// The force at one velocity.
#[derive(Debug, Clone, PartialEq)]
pub struct SteadyPoint {
    /// Slip velocity [m/s].
    pub v: f64,
    /// The last force computed \[N\] (the steady force when settled).
    pub force: f64,
    /// Whether the force settled within [`MAX_STEPS`] steps.
    pub settled: bool,
    /// Steps taken (1 for a static map).
    pub steps: usize,
    /// Why it did not settle (empty when settled).
    pub reason: String,
}

/// `n` velocities per sign, magnitudes log-spaced from `v_min` to `v_max`
/// (`0 < v_min <= v_max`), in increasing order: `-v_max ... -v_min, v_min
/// ... v_max`. With `n = 1` the magnitude is `v_max`.
///
/// ```
/// let g = friction_analysis::analysis::steady::velocity_grid(1e-3, 1e-1, 3);
/// assert_eq!(g.len(), 6);
/// assert_eq!((g[0], g[2], g[3], g[5]), (-1e-1, -1e-3, 1e-3, 1e-1));
/// assert!((g[4] - 1e-2).abs() < 1e-15);
/// ```
pub fn velocity_grid(v_min: f64, v_max: f64, n: usize) -> Vec<f64> {
    let mags: Vec<f64> = if n <= 1 {
        vec![v_max]
    } else {
        let (a, b) = (v_min.ln(), v_max.ln());
        (0..n)
            .map(|k| match k {
                0 => v_min,
                k if k == n - 1 => v_max,
                k => (a + (b - a) * k as f64 / (n - 1) as f64).exp(),
            })
            .collect()
    };
    mags.iter().rev().map(|m| -m).chain(mags.iter().copied()).collect()
}

/// The steady force of `model` sliding at the constant velocity `v` (≠ 0),
/// at unit normal load; `stop` is asked before each step (a wall-clock
/// limit): when it says so, the point is returned not settled.
///
/// ```
/// use friction_models::{build, ParamMap};
/// let m = build("lugre", &ParamMap::new()).unwrap();
/// let p = friction_analysis::analysis::steady::steady_force(&m, 0.01, &|| false);
/// assert!(p.settled);
/// let g = 1.0 + 0.5 * (-(0.01f64 / 0.001).powi(2)).exp();
/// assert!((p.force / (g + 0.4 * 0.01) - 1.0).abs() < 1e-12);
/// ```
pub fn steady_force(model: &AnyModel, v: f64, stop: &dyn Fn() -> bool) -> SteadyPoint {
    let mut p = SteadyPoint { v, force: f64::NAN, settled: false, steps: 0, reason: String::new() };
    if !(v.is_finite() && v != 0.0) {
        p.reason = format!("velocity {v} must be finite and non-zero");
        return p;
    }
    if model.n_states() == 0 && model.n_memory() == 0 {
        p.force = model.force(&Input::new(0.0, 0.0, v), &[], &[]);
        p.steps = 1;
        p.settled = p.force.is_finite();
        if !p.settled {
            p.reason = format!("the force at v = {v} is {}", p.force);
        }
        return p;
    }
    let mut state = vec![0.0; state_len(model)];
    if let Err(e) = init(model, &mut state) {
        p.reason = e.to_string();
        return p;
    }
    let mut dt = FIRST_SLIP / v.abs();
    let mut grow = true;
    let max_slip = if method(model) == Method::Direct { MAX_SLIP } else { f64::MAX };
    let mut calm = 0;
    let mut prev = f64::NAN;
    let mut change = f64::NAN;
    let mut force = [0.0];
    while p.steps < MAX_STEPS {
        if stop() {
            p.reason = format!("stopped at the wall-clock limit after {} steps", p.steps);
            return p;
        }
        p.steps += 1;
        match update(model, dt, &[v * dt], &[1.0], &mut state, &mut force) {
            Ok(()) => {}
            // too long a step for the implicit update: the state is kept,
            // go on with shorter ones
            Err(UpdateError::NoConvergence { .. }) => {
                grow = false;
                dt *= 0.5;
                continue;
            }
            Err(e) => {
                p.reason = e.to_string();
                return p;
            }
        }
        let f = force[0];
        p.force = f;
        if !f.is_finite() {
            p.reason = format!("the force became {f} after {} steps", p.steps);
            return p;
        }
        change = ((f - prev) / f).abs();
        if (f - prev).abs() <= REL_TOL * f.abs() {
            calm += 1;
            if calm >= 2 {
                p.settled = true;
                return p;
            }
        } else {
            calm = 0;
        }
        prev = f;
        if grow && (2.0 * v * dt).abs() <= max_slip {
            dt *= 2.0;
        }
    }
    p.reason = format!(
        "the force did not settle within {MAX_STEPS} steps (relative change {change:.1e} at the last)"
    );
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_models::{build, ParamMap, ParamValue};

    fn params(kv: &[(&str, f64)]) -> ParamMap {
        kv.iter().map(|(k, v)| (k.to_string(), ParamValue::Num(*v))).collect()
    }

    /// LuGre settles on g(v) + σ2 v (Canudas de Wit et al. 1995), the
    /// largest relative error over both signs below 1e-12.
    #[test]
    fn lugre_settles_on_its_stribeck_curve() {
        let m = build("lugre", &params(&[("fc", 0.8), ("fs", 2.0), ("vs", 0.01), ("sigma2", 0.1)])).unwrap();
        let mut worst: f64 = 0.0;
        for v in velocity_grid(1e-5, 1.0, 25) {
            let p = steady_force(&m, v, &|| false);
            assert!(p.settled, "{p:?}");
            let g = 0.8 + 1.2 * (-(v / 0.01).powi(2)).exp();
            let want = v.signum() * g + 0.1 * v;
            worst = worst.max((p.force / want - 1.0).abs());
        }
        assert!(worst < 1e-12, "{worst:e}");
    }

    /// A model with a generic implicit update (Dahl with exponent 2)
    /// settles on its steady force Fc sign(v).
    #[test]
    fn dahl_with_exponent_two_settles_on_fc() {
        let m = build("dahl", &params(&[("fc", 1.5), ("exponent", 2.0)])).unwrap();
        for v in [-0.3, -1e-4, 1e-4, 0.3] {
            let p = steady_force(&m, v, &|| false);
            assert!(p.settled, "{p:?}");
            assert!((p.force - 1.5 * v.signum()).abs() < 1e-9, "{p:?}");
        }
    }
}
