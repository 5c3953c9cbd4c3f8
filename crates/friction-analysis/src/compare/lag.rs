//! Frictional lag: the F-v loop under a velocity oscillation in sliding.
//!
//! The contact is driven with v(t) = 2 v* + 1.5 v* sin(2π f t) (it never
//! stops), where v* is the middle of the steepest fall of the steady curve
//! (1e-3 m/s without one), at each frequency of
//! [`Settings::lag_frequencies`]. Over whole periods after the transient the
//! out-of-phase first harmonic b1 = (2/T) ∫ F cos(2π f t) dt is exactly zero
//! for any static map F(v) (F is then a function of sin(2π f t) alone), and
//! 2 |b1| is the width of the F-v loop at the mean speed for a lagging force.
//! Noise does project onto it a little; its level is estimated by the
//! projections on the non-harmonic frequencies 1.5 f and 2.5 f (zero for any
//! periodic response: the last two periods hold a whole number of their
//! periods) and subtracted. The figure is the largest 2 (|b1| - noise) over
//! the frequencies, relative to F_ref.

use std::f64::consts::PI;

use friction_models::AnyModel;
use friction_sim::schedule::Schedule;

use super::property::{Figure, Property};
use super::setup::Settings;
use super::sim::{driven, Notes};
use crate::error::AnalysisError;

const PER_CYCLE: usize = 200;

/// The lag experiment.
#[derive(Debug, Clone, Default)]
pub struct Lag {
    /// v* [m/s].
    pub v_star: f64,
    /// Loop width 2|b1| relative to F_ref, per frequency.
    pub widths: Vec<(f64, f64)>,
    /// The (v, F) loop of the last cycle at the frequency of the widest loop.
    pub loop_vf: Vec<(f64, f64)>,
}

pub(crate) fn measure(
    model: &AnyModel,
    v_star: f64,
    f_ref: f64,
    s: &Settings,
    notes: &Notes,
) -> Result<Lag, AnalysisError> {
    let mut out = Lag { v_star, ..Default::default() };
    let mut best = -1.0;
    let n = s.lag_cycles.max(3);
    for &f in &s.lag_frequencies {
        let w = 2.0 * PI * f;
        let times: Vec<f64> = (0..=n * PER_CYCLE).map(|k| k as f64 / (f * PER_CYCLE as f64)).collect();
        let motion =
            Schedule::VelocitySine { bias: 2.0 * v_star, amplitude: 1.5 * v_star, frequency: f, offset: 0.0 };
        let force = driven(model, motion, &times, s.rtol, notes)?;
        let first = n * PER_CYCLE - 2 * PER_CYCLE;
        let proj = |h: f64, phase: f64| {
            (first..n * PER_CYCLE).map(|k| force[k] * (h * w * times[k] + phase).cos()).sum::<f64>() * 2.0
                / (2 * PER_CYCLE) as f64
        };
        let b1 = proj(1.0, 0.0);
        let noise = [1.5, 2.5]
            .iter()
            .flat_map(|&h| [proj(h, 0.0).abs(), proj(h, -0.5 * PI).abs()])
            .fold(0.0f64, f64::max);
        let width = 2.0 * (b1.abs() - noise).max(0.0) / f_ref;
        out.widths.push((f, width));
        if width > best {
            best = width;
            out.loop_vf = ((n - 1) * PER_CYCLE..=n * PER_CYCLE)
                .map(|k| (2.0 * v_star + 1.5 * v_star * (w * times[k]).sin(), force[k]))
                .collect();
        }
    }
    Ok(out)
}

pub(crate) fn figure(l: &Lag, s: &Settings) -> Figure {
    let width = l.widths.iter().fold(0.0f64, |m, w| m.max(w.1));
    let per: Vec<String> = l.widths.iter().map(|(f, w)| format!("{:.2} % at {f} Hz", 100.0 * w)).collect();
    Figure::banded(
        Property::Lag,
        width,
        "-",
        s.thresholds.lag,
        format!("v = {:.2e} (2 + 1.5 sin 2πft) m/s; width {}", l.v_star, per.join(", ")),
    )
}
