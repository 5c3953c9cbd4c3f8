//! Pre-sliding displacement: the virgin curve F(x) from rest.
//!
//! The contact is driven from rest at constant speed over
//! [`Settings::presliding_distance`], sampled at displacements spaced
//! logarithmically from 1e-9 m. The figure x½ is the displacement at which
//! the force first reaches half its value at the end: a finite initial
//! stiffness k0 gives x½ of order F/k0 (Dahl: (Fc/σ0) ln 2); a static map or
//! a set-valued model jumps to its sliding force at once (x½ below the first
//! sample, reported as 0). The curve is measured at two speeds ten apart: a
//! pre-sliding displacement gives the same x½, a mere time lag (the force
//! relaxing in time, as in `friction_lag` or `hess_soom`) gives x½ ten
//! times larger at the faster speed, and counts as `no`.

use friction_models::AnyModel;
use friction_sim::schedule::Schedule;

use super::property::{Figure, Property, Verdict};
use super::setup::Settings;
use super::sim::{driven, Notes};
use crate::error::AnalysisError;

/// First sampled displacement \[m\].
pub const FIRST_SAMPLE: f64 = 1e-9;
const SAMPLES: usize = 240;

/// The virgin curves at the two speeds.
#[derive(Debug, Clone, Default)]
pub struct Virgin {
    /// The two drive speeds [m/s].
    pub speeds: [f64; 2],
    /// (x, F) at each speed.
    pub curves: [Vec<(f64, f64)>; 2],
    /// Displacement at half the end force, at each speed \[m\] (0: below the first sample).
    pub x_half: [f64; 2],
}

fn half_point(c: &[(f64, f64)]) -> f64 {
    let f_end = c.last().map(|p| p.1).unwrap_or(f64::NAN);
    if f_end.is_nan() || f_end <= 0.0 {
        return f64::NAN;
    }
    for k in 1..c.len() {
        if c[k].1 >= 0.5 * f_end {
            if k == 1 {
                return 0.0;
            }
            let (a, b) = (c[k - 1], c[k]);
            return a.0 + (0.5 * f_end - a.1) / (b.1 - a.1) * (b.0 - a.0);
        }
    }
    f64::NAN
}

pub(crate) fn measure(model: &AnyModel, s: &Settings, notes: &Notes) -> Result<Virgin, AnalysisError> {
    let mut out = Virgin { speeds: s.presliding_speeds, ..Default::default() };
    let xs: Vec<f64> = std::iter::once(0.0)
        .chain((0..SAMPLES).map(|k| {
            FIRST_SAMPLE * (s.presliding_distance / FIRST_SAMPLE).powf(k as f64 / (SAMPLES - 1) as f64)
        }))
        .collect();
    for (i, &v) in s.presliding_speeds.iter().enumerate() {
        let times: Vec<f64> = xs.iter().map(|x| x / v).collect();
        let f = driven(model, Schedule::Ramp { rate: v, offset: 0.0, start: 0.0 }, &times, s.rtol, notes)?;
        out.curves[i] = xs.iter().copied().zip(f).collect();
        out.x_half[i] = half_point(&out.curves[i]);
    }
    Ok(out)
}

/// The half-force displacement to scale the loop experiments with, if the
/// model has a pre-sliding regime.
pub(crate) fn scale(v: &Virgin, fig: &Figure) -> Option<f64> {
    (fig.verdict == Verdict::Yes || fig.verdict == Verdict::Partial).then_some(v.x_half[0])
}

pub(crate) fn figure(v: &Virgin, s: &Settings) -> Figure {
    let th = &s.thresholds;
    let ratio = v.x_half[1] / v.x_half[0];
    let mut fig = Figure::banded(
        Property::Presliding,
        v.x_half[0],
        "m",
        th.presliding,
        format!(
            "x_half = {:.3e} m at {:.0e} m/s, {:.3e} m at {:.0e} m/s (ratio {:.2}); 0 = below the first sample {:.0e} m",
            v.x_half[0], v.speeds[0], v.x_half[1], v.speeds[1], ratio, FIRST_SAMPLE
        ),
    );
    fig.threshold =
        format!("{}; and x_half(fast)/x_half(slow) <= {}", fig.threshold, th.presliding_max_ratio);
    if fig.verdict != Verdict::No && (ratio.is_nan() || ratio > th.presliding_max_ratio) {
        fig.verdict = Verdict::No;
        fig.detail.push_str("; the rise scales with the speed: a time lag, not a displacement");
    }
    fig
}
