//! Experiments with a body on the contact: break-away under a rising force,
//! and stiction under a held force.
//!
//! **Varying break-away force.** A light body (10 g) first slides at
//! [`Settings::launch_velocity`] (0.1 m/s) for [`Settings::launch_time`]
//! (0.1 s), kept there by a force equal to the model's steady friction at
//! that speed (plus the dashpot's force); the force is then removed and the
//! body stops within about a millisecond. This is the stick-slip situation
//! of Johannes et al.: the break-away force of a model with dwell-time
//! stiction (Armstrong's) depends on how long the contact has stuck since
//! the last slide, and a contact that starts "fully healed" would hide it.
//! From [`Settings::breakaway_start`] (0.2 s) an external
//! force P = r (t - 0.2 s) rises at a slow and a fast rate
//! ([`Settings::force_rates`], 0.1 and 10 F_ref per second) up to 2 F_ref;
//! a light dashpot ([`Settings::breakaway_damper`]) keeps the stopped body
//! from ringing on an elastic contact (none on a set-valued contact, which
//! has no spring: there it would only make Karnopp's band chatter).
//! The break-away force F_ba is the largest friction force from the start of
//! the ramp until the body first slides faster than 1 cm/s again (a run the
//! step budget stops after that moment still counts: `bristle` snaps bonds
//! at every 1e-5 m of sliding). The
//! friction force, not P, is used, so that the body's inertia does not enter.
//! A static map gives the same F_ba at any rate (the largest F(v) for
//! v <= 1 cm/s); a set-valued model its Fs. The figure is
//! (|F_ba(fast) - F_ba(slow)| - 2 s) / F_ba(slow), where s is the scatter of
//! the model's steady force (see [`super::steady`]): a noisy model's peaks
//! are not taken for a change of the break-away force.
//!
//! **Stiction.** The same body under a force that rises smoothly
//! (P (1 - cos(π t / t_r)) / 2 over t_r = 1 s) to P = 0.5 F_ba(slow) and is then
//! held for 10 s, with a dashpot to the ground ([`Settings::hold_damper`],
//! critical damping on a 1e5 N/m spring; it holds no load itself). The
//! figure is the creep: the mean position over the last second minus the
//! mean position over the second after the rise. The run is repeated
//! without the dashpot for the record: then a body oscillating on a Dahl or
//! LuGre spring ratchets forward (their loading and unloading stiffnesses
//! differ under load), the drift these models are known for. Set-valued models stick exactly (zero), state models with a
//! rest stiffness settle on their spring, models without a force at rest
//! (viscous, regularised Coulomb, rate-and-state) creep.

use friction_models::{AnyModel, FrictionModel};
use friction_sim::schedule::Schedule;

use super::property::{Figure, Property};
use super::setup::Settings;
use super::sim::{body_run, short, window_mean, Notes, Rig};
use crate::error::AnalysisError;

/// Output samples per run.
const SAMPLES: f64 = 4000.0;

/// The break-away experiment.
#[derive(Debug, Clone, Default)]
pub struct Breakaway {
    /// The two force rates [N/s].
    pub rates: [f64; 2],
    /// Break-away force at each rate \[N\].
    pub force: [f64; 2],
    /// Applied force when gross sliding started, at each rate \[N\].
    pub applied: [f64; 2],
    /// (P, F) until shortly after gross sliding, at each rate.
    pub curves: [Vec<(f64, f64)>; 2],
}

pub(crate) fn breakaway(
    model: &AnyModel,
    f_ref: f64,
    f_launch: f64,
    s: &Settings,
    notes: &Notes,
) -> Result<Breakaway, AnalysisError> {
    let mut out = Breakaway::default();
    for (i, &rel) in s.force_rates.iter().enumerate() {
        let r = rel * f_ref;
        let ts = s.breakaway_start;
        let t_end = ts + 2.0 * f_ref / r;
        // a set-valued contact has no spring to ring on: no dashpot
        let damper = if model.max_static(&vec![0.0; model.n_states()], &vec![0.0; model.n_memory()]).is_some()
        {
            0.0
        } else {
            s.breakaway_damper
        };
        let rig = Rig { mass: s.breakaway_mass, v0: s.launch_velocity, damper };
        let launch = Schedule::Pulse {
            value: f_launch + damper * s.launch_velocity,
            from: 0.0,
            to: s.launch_time,
            base: 0.0,
        };
        let ramp = Schedule::Ramp { rate: r, offset: 0.0, start: ts };
        let o =
            body_run(model, vec![launch, ramp], rig, (t_end, (t_end - ts) / SAMPLES, s.rtol), true, notes)?;
        let (t, v, fc) = (o.series("t"), o.series("v.m"), o.series("F.c"));
        let k0 = t.iter().position(|&t| t >= ts).unwrap_or(0);
        let k_g = match (k0..t.len()).find(|&k| v[k] > s.breakaway_velocity) {
            Some(k) => k,
            // a run stopped early must have seen gross sliding
            None if o.failure.is_some() => {
                return Err(AnalysisError::Model(format!(
                    "stopped by the step budget at t = {:.4} s before gross sliding: {}",
                    o.last("t"),
                    short(o.failure.as_deref().unwrap_or(""))
                )))
            }
            None => t.len() - 1,
        };
        let f_ba = (k0..=k_g).map(|k| -fc[k]).fold(f64::NEG_INFINITY, f64::max);
        let p = |t: f64| r * (t - ts).max(0.0);
        out.rates[i] = r;
        out.force[i] = f_ba;
        out.applied[i] = p(t[k_g]);
        let k_end = (k_g + (k_g - k0) / 4 + 10).min(t.len() - 1);
        out.curves[i] = (k0..=k_end).map(|k| (p(t[k]), -fc[k])).collect();
    }
    Ok(out)
}

pub(crate) fn breakaway_figure(b: &Breakaway, scatter: f64, s: &Settings) -> Figure {
    let rel = ((b.force[1] - b.force[0]).abs() - 2.0 * scatter).max(0.0) / b.force[0].abs();
    Figure::banded(
        Property::VaryingBreakaway,
        rel,
        "-",
        s.thresholds.breakaway,
        format!(
            "F_ba = {:.4} N at {:.3e} N/s, {:.4} N at {:.3e} N/s (applied force then {:.4} N, {:.4} N); scatter allowance 2 x {:.2e} N",
            b.force[0], b.rates[0], b.force[1], b.rates[1], b.applied[0], b.applied[1], scatter
        ),
    )
}

/// The stiction (hold) experiment.
#[derive(Debug, Clone, Default)]
pub struct Hold {
    /// The held force \[N\].
    pub load: f64,
    /// Creep over the hold \[m\].
    pub creep: f64,
    /// Mean position after the rise \[m\].
    pub settled: f64,
    /// (t, x) over the whole run.
    pub curve: Vec<(f64, f64)>,
    /// Creep without the dashpot \[m\] (Dahl-type models ratchet forward
    /// while the body oscillates on their spring).
    pub undamped: f64,
    /// (t, x) without the dashpot.
    pub curve_undamped: Vec<(f64, f64)>,
}

pub(crate) fn hold(model: &AnyModel, load: f64, s: &Settings, notes: &Notes) -> Result<Hold, AnalysisError> {
    let tr = s.hold_rise;
    let n = 20;
    let t: Vec<f64> = (0..=n).map(|k| tr * k as f64 / n as f64).collect();
    let p: Vec<f64> = t.iter().map(|&t| load * 0.5 * (1.0 - (std::f64::consts::PI * t / tr).cos())).collect();
    let t_end = tr + s.hold_time;
    type Run = (f64, f64, Vec<(f64, f64)>);
    let creep = |damper: f64| -> Result<Run, AnalysisError> {
        let rig = Rig { mass: s.mass, v0: 0.0, damper };
        let o = body_run(
            model,
            vec![Schedule::Table { t: t.clone(), v: p.clone() }],
            rig,
            (t_end, 1e-3, s.rtol),
            false,
            notes,
        )?;
        let (t, x) = (o.series("t"), o.series("x.m"));
        let settled = window_mean(&t, &x, tr + 1.0, tr + 2.0);
        let end = window_mean(&t, &x, t_end - 1.0, t_end);
        let step = (t.len() / 2000).max(1);
        Ok((end - settled, settled, t.iter().zip(&x).step_by(step).map(|(a, b)| (*a, *b)).collect()))
    };
    let (c, settled, curve) = creep(s.hold_damper)?;
    let (undamped, _, curve_undamped) = creep(0.0)?;
    Ok(Hold { load, creep: c, settled, curve, undamped, curve_undamped })
}

pub(crate) fn hold_figure(h: &Hold, s: &Settings) -> Figure {
    Figure::banded(
        Property::Stiction,
        h.creep.abs(),
        "m",
        s.thresholds.stiction,
        format!(
            "load {:.4} N held {} s with a {:.0} N s/m dashpot; position after the rise {:.3e} m, creep {:.3e} m; without the dashpot creep {:.3e} m",
            h.load, s.hold_time, s.hold_damper, h.settled, h.creep, h.undamped
        ),
    )
}
