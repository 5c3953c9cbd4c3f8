//! Frequency and damping of a free or impulse-excited decay against
//! amplitude: the measures of a jointed structure in the Sandia friction-model study, whose
//! frequency drops and damping rises with amplitude as the joint slips.
//!
//! # Method (no Hilbert transform)
//! ```text
//! e_k = (τ_k, x_k)   the turning points after the start, alternating maxima and
//!                    minima, each refined by the vertex of the parabola through
//!                    its sample and the two neighbours
//! h_k = |x_{k+1} - x_k| / 2        half range of half-cycle k
//! for each interior turning point k+1 (half-cycles k and k+1, one full cycle):
//!   t        = τ_{k+1}
//!   a        = (h_k + h_{k+1}) / 2                    amplitude
//!   T        = τ_{k+2} - τ_k,  f = 1/T,  ω_d = 2π/T  period and damped frequency
//!   δ        = 2 ln(h_k / h_{k+1})                    log decrement per cycle
//!   ζ        = δ / sqrt(4π² + δ²),  ω_n = ω_d / sqrt(1 - ζ²)
//!   ζ_E      = (h_k - h_{k+1}) / (π a)               energy-equivalent damping
//! ```
//! Half ranges, not distances from an equilibrium, so neither a static
//! offset nor the shifting rest position of a Coulomb oscillator matters.
//!
//! For a linear oscillator `x = A e^(-ζ ω_n t) cos(ω_d t + φ) + x_eq`
//! successive turning points are exactly `T_d/2` apart and their half ranges
//! shrink by `exp(-π ζ / sqrt(1 - ζ²))` per half cycle, so `ω_d` and `ζ` are
//! exact for any amplitude.
//!
//! `ζ_E` is the energy measure `E_d / (4π E_s)` of a linear spring k
//! carrying the amplitude: the energy lost over the cycle, estimated as
//! `½ k · 2 (h_k² - h_{k+1}²)` (for a decay symmetric about the rest
//! position, the drop of `½ k x²` from turning point k to k+2), over
//! `4π · ½ k a²`.
//! For Coulomb damping (mass m, spring k, friction Fc) the amplitude falls by
//! `4 Fc / k` per cycle and `ζ_E = 2 Fc / (π k a)` exactly, rising as the
//! amplitude falls, with `a` the distance of the middle turning point from
//! the spring's rest position; the log-decrement `ζ` agrees to second order
//! in `Fc/(k a)`. For a linear oscillator `ζ_E = (2/π) tanh(δ/4)`, within
//! `δ²/48` of `ζ` (relative).
//!
//! The first sample is never a turning point here (after an impulse the
//! record starts mid-swing), nor the last (never confirmed). Amplitudes below
//! the reversal band are not resolved.

use serde::Serialize;

use super::{check_samples, range, refine_extremum, turning_points, DEFAULT_REVERSAL_TOL};
use crate::error::AnalysisError;

/// How to find the turning points of a decay.
#[derive(Debug, Clone, Copy)]
pub struct TransientOptions {
    /// Reversal band as a fraction of the displacement range (default [`DEFAULT_REVERSAL_TOL`]).
    pub reversal_tol: f64,
}

impl Default for TransientOptions {
    fn default() -> Self {
        TransientOptions { reversal_tol: DEFAULT_REVERSAL_TOL }
    }
}

/// A refined turning point of the decay.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Extremum {
    /// Index of the extreme sample.
    pub index: usize,
    /// Refined time \[s\].
    pub t: f64,
    /// Refined value \[m\].
    pub x: f64,
    /// Maximum (`true`) or minimum.
    pub is_max: bool,
}

/// Frequency and damping over one cycle of the decay (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DecayPoint {
    /// Time of the middle turning point \[s\].
    pub t: f64,
    /// Amplitude a \[m\].
    pub amplitude: f64,
    /// Period T \[s\].
    pub period: f64,
    /// Frequency 1/T \[Hz\].
    pub frequency: f64,
    /// Damped angular frequency ω_d \[rad/s\].
    pub omega_d: f64,
    /// Undamped angular frequency ω_d / sqrt(1 - ζ²) \[rad/s\] (`None` when |ζ| >= 1).
    pub omega_n: Option<f64>,
    /// Logarithmic decrement per cycle δ.
    pub log_decrement: f64,
    /// Damping ratio from the log decrement.
    pub zeta: f64,
    /// Energy-equivalent damping ratio ζ_E.
    pub zeta_energy: f64,
}

/// The turning points and the per-cycle frequency and damping of a decay.
#[derive(Debug, Clone, Serialize)]
pub struct TransientAnalysis {
    /// Turning points after the start.
    pub extrema: Vec<Extremum>,
    /// One point per interior turning point, in time order.
    pub points: Vec<DecayPoint>,
}

/// Frequency and damping ratio against amplitude of a free decay `x(t)`.
///
/// Errors when the samples are invalid or there are fewer than three
/// turning points after the start.
///
/// ```
/// // x = e^(-ζ ω_n t) cos(ω_d t): the decay gives back ω_d and ζ
/// use friction_analysis::analysis::{transient_decay, TransientOptions};
/// let (wn, zeta): (f64, f64) = (10.0, 0.02);
/// let wd = wn * (1.0 - zeta * zeta).sqrt();
/// let t: Vec<f64> = (0..5000).map(|i| i as f64 * 1e-3).collect();
/// let x: Vec<f64> = t.iter().map(|t| (-zeta * wn * t).exp() * (wd * t).cos()).collect();
/// let d = transient_decay(&t, &x, &TransientOptions::default()).unwrap();
/// for p in &d.points {
///     assert!((p.omega_d / wd - 1.0).abs() < 1e-4 && (p.zeta / zeta - 1.0).abs() < 1e-4);
/// }
/// ```
pub fn transient_decay(
    t: &[f64],
    x: &[f64],
    opts: &TransientOptions,
) -> Result<TransientAnalysis, AnalysisError> {
    check_samples(t, &[("x", x)])?;
    let err = |message: String| AnalysisError::Data { file: "<samples>".into(), line: None, message };
    let span = range(x);
    if span <= 0.0 {
        return Err(err("the displacement is constant: no decay".into()));
    }
    let extrema: Vec<Extremum> = turning_points(x, opts.reversal_tol * span)
        .into_iter()
        .filter(|p| !p.at_start)
        .map(|p| {
            let (te, xe) = refine_extremum(t, x, p.index);
            Extremum { index: p.index, t: te, x: xe, is_max: p.is_max }
        })
        .collect();
    if extrema.len() < 3 {
        return Err(err(format!(
            "{} turning points after the start; a decay needs at least 3 (one full cycle)",
            extrema.len()
        )));
    }
    let h: Vec<f64> = extrema.windows(2).map(|w| 0.5 * (w[1].x - w[0].x).abs()).collect();
    let two_pi = 2.0 * std::f64::consts::PI;
    let points = (0..h.len() - 1)
        .map(|k| {
            let (e0, e1, e2) = (&extrema[k], &extrema[k + 1], &extrema[k + 2]);
            let amplitude = 0.5 * (h[k] + h[k + 1]);
            let period = e2.t - e0.t;
            let omega_d = two_pi / period;
            let delta = 2.0 * (h[k] / h[k + 1]).ln();
            let zeta = delta / (two_pi * two_pi + delta * delta).sqrt();
            DecayPoint {
                t: e1.t,
                amplitude,
                period,
                frequency: 1.0 / period,
                omega_d,
                omega_n: (zeta.abs() < 1.0).then(|| omega_d / (1.0 - zeta * zeta).sqrt()),
                log_decrement: delta,
                zeta,
                zeta_energy: (h[k] - h[k + 1]) / (std::f64::consts::PI * amplitude),
            }
        })
        .collect();
    Ok(TransientAnalysis { extrema, points })
}
