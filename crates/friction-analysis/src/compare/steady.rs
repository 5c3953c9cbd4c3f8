//! Stribeck steady state: the sliding force on a staircase of speeds.
//!
//! The contact is driven (no body) at each speed of
//! [`Settings::steady_velocities`] in turn, for a sliding distance
//! [`Settings::steady_distance`] but at least [`Settings::steady_min_time`];
//! the steady force is the mean over the last 30 % of each step (which also
//! averages out the noise of `stochastic`). The figure is the largest fall of
//! the steady force between a slower and a faster speed, less the scatter
//! (one standard deviation) of the force within each of the two windows,
//! relative to the largest steady force F_ref: zero for monotone curves
//! (Coulomb, viscous, Dahl), about (Fs - Fc)/Fs for a Stribeck curve, and
//! noise (`stochastic`, the random bonds of `bristle`) is not taken for a fall.

use friction_models::AnyModel;
use friction_sim::schedule::Schedule;

use super::property::{Figure, Property};
use super::setup::Settings;
use super::sim::{driven, Notes};
use crate::error::AnalysisError;

/// Samples per speed in the averaging window.
const SAMPLES: usize = 20;

/// The measured steady-state curve.
#[derive(Debug, Clone, Default)]
pub struct Steady {
    /// Speeds [m/s].
    pub v: Vec<f64>,
    /// Steady force at each speed \[N\].
    pub f: Vec<f64>,
    /// The largest |steady force|: the force scale of the other experiments \[N\].
    pub f_ref: f64,
    /// Largest fall of the force with rising speed, relative to `f_ref`.
    pub drop: f64,
    /// The speed in the middle of the steepest fall (1e-3 m/s without one) [m/s].
    pub v_star: f64,
    /// Largest standard deviation of the force within an averaging window \[N\].
    pub scatter: f64,
}

pub(crate) fn measure(model: &AnyModel, s: &Settings, notes: &Notes) -> Result<Steady, AnalysisError> {
    let vs = &s.steady_velocities;
    let (mut tk, mut xk) = (vec![0.0], vec![0.0]);
    let mut times = vec![0.0];
    for &v in vs {
        let dur = (s.steady_distance / v).max(s.steady_min_time);
        let t0 = *tk.last().unwrap();
        for j in 0..SAMPLES {
            times.push(t0 + dur * (0.7 + 0.3 * (j as f64 + 0.5) / SAMPLES as f64));
        }
        tk.push(t0 + dur);
        xk.push(xk.last().unwrap() + v * dur);
    }
    let force = driven(model, Schedule::Table { t: tk, v: xk }, &times, s.rtol, notes)?;
    let window = |i: usize| &force[1 + i * SAMPLES..1 + (i + 1) * SAMPLES];
    let f: Vec<f64> = (0..vs.len()).map(|i| window(i).iter().sum::<f64>() / SAMPLES as f64).collect();
    let sd: Vec<f64> = (0..vs.len())
        .map(|i| (window(i).iter().map(|x| (x - f[i]).powi(2)).sum::<f64>() / (SAMPLES - 1) as f64).sqrt())
        .collect();
    let f_ref = f.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut drop = 0.0f64;
    for i in 0..f.len() {
        for j in i + 1..f.len() {
            drop = drop.max(f[i] - f[j] - sd[i] - sd[j]);
        }
    }
    let drop = if f_ref > 0.0 { drop / f_ref } else { f64::NAN };
    let mut v_star = 1e-3;
    if drop > s.thresholds.stribeck.partial {
        let mut best = 0.0;
        for i in 0..f.len() - 1 {
            if f[i] - f[i + 1] > best {
                best = f[i] - f[i + 1];
                v_star = (vs[i] * vs[i + 1]).sqrt();
            }
        }
    }
    let scatter = sd.iter().fold(0.0f64, |m, x| m.max(*x));
    Ok(Steady { v: vs.clone(), f, f_ref, drop, v_star, scatter })
}

pub(crate) fn figure(st: &Steady, s: &Settings) -> Figure {
    let imax = (0..st.f.len()).max_by(|&a, &b| st.f[a].total_cmp(&st.f[b])).unwrap_or(0);
    let imin = (0..st.f.len()).min_by(|&a, &b| st.f[a].total_cmp(&st.f[b])).unwrap_or(0);
    Figure::banded(
        Property::Stribeck,
        st.drop,
        "-",
        s.thresholds.stribeck,
        format!(
            "F_ref = {:.4} N; steady force {:.4} N at {:.1e} m/s .. {:.4} N at {:.1e} m/s; scatter up to {:.2e} N; v* = {:.1e} m/s{}",
            st.f_ref,
            st.f[imax],
            st.v[imax],
            st.f[imin],
            st.v[imin],
            st.scatter,
            st.v_star,
            if st.drop > s.thresholds.stribeck.partial { " (steepest fall)" } else { " (no fall: default)" }
        ),
    )
}
