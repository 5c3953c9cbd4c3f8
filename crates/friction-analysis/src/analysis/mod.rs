//! Analysis of a run's output or of measured data: hysteresis loops split
//! into cycles with their dissipation and equivalent damping, the backbone
//! curve, the steady-state Stribeck curve from a velocity sweep, a model's
//! own steady friction-velocity curve (sliding held at each velocity until
//! the force settles), and the frequency and damping of a free (or
//! impulse-excited) decay against amplitude.
//!
//! - [`loops`] — [`split_cycles`], [`analyze_loops`], [`backbone`], [`virgin_curve`];
//! - [`stribeck`] — [`stribeck_curve`];
//! - [`steady`] — a model's steady force at a sliding velocity, [`steady::steady_force`];
//! - [`transient`] — [`transient_decay`];
//! - [`plots`] — PNG or SVG pictures of each.
//!
//! # Sign convention
//! Forces are in the models' convention: the friction force opposes the
//! motion and is positive when the displacement increases, so a dissipative
//! loop has a positive loop integral `∮ F dx`. A `friction run` output column
//! `F.NAME` is the force the contact exerts *on its first member*, the
//! opposite; negate it before analysing (the `friction analyze` command does
//! so itself for columns named `F.*`).
//!
//! # Turning points
//! Every analysis starts from the turning points (reversals) of a signal,
//! found with a hysteresis band: a maximum is confirmed once the signal has
//! fallen more than `tol` below it, a minimum once it has risen more than
//! `tol` above it, where `tol` is a fraction ([`DEFAULT_REVERSAL_TOL`] by
//! default) of the signal's whole range. Wiggles smaller than the band are
//! ignored, so raise it for noisy measurements. [`turning_points`] reports
//! the first sample too (flagged `at_start`) when the signal leaves it by
//! more than the band; the analyses ignore it, because a record may start
//! mid-swing. The last extreme value is never confirmed, so never reported.

pub mod loops;
pub mod plots;
pub mod steady;
pub mod stribeck;
pub mod transient;

pub use loops::{analyze_loops, backbone, split_cycles, virgin_curve, Cycle, LoopAnalysis, LoopOptions};
pub use plots::{plot_loops, plot_stribeck, plot_transient, PlotFormat};
pub use stribeck::{stribeck_curve, StribeckOptions, StribeckPoint};
pub use transient::{transient_decay, DecayPoint, Extremum, TransientAnalysis, TransientOptions};

use crate::error::AnalysisError;

/// Default width of the reversal band, as a fraction of the signal's range (1e-3).
pub const DEFAULT_REVERSAL_TOL: f64 = 1e-3;

/// Smallest number of samples an analysis accepts (the same as
/// [`crate::data::MIN_SAMPLES`]).
pub const MIN_SAMPLES: usize = crate::data::MIN_SAMPLES;

/// A turning point of a sampled signal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurningPoint {
    /// Sample index.
    pub index: usize,
    /// `true` for a maximum, `false` for a minimum.
    pub is_max: bool,
    /// Whether it is the first sample (the signal starts there, it may not be a true reversal).
    pub at_start: bool,
}

/// The confirmed turning points of `x`, alternating maxima and minima, with a
/// hysteresis band of `tol` (absolute, in the unit of `x`).
///
/// A turning point is confirmed once the signal has moved back by more than
/// `tol`; the last extreme value, never confirmed, is not returned. Within a
/// flat top the first sample is taken.
///
/// ```
/// use friction_analysis::analysis::turning_points;
/// let x = [0.0, 1.0, 2.0, 1.0, 0.0, -1.0, 0.0, 1.0];
/// let tp = turning_points(&x, 0.5);
/// // the start (a minimum), the maximum at 2.0 and the minimum at -1.0
/// assert_eq!(tp.iter().map(|p| p.index).collect::<Vec<_>>(), vec![0, 2, 5]);
/// assert!(tp[0].at_start && tp[1].is_max && !tp[2].is_max);
/// ```
pub fn turning_points(x: &[f64], tol: f64) -> Vec<TurningPoint> {
    let mut out = Vec::new();
    if x.is_empty() {
        return out;
    }
    // dir: 0 unknown, +1 rising (tracking a maximum), -1 falling (tracking a minimum)
    let mut dir = 0i8;
    let (mut i_max, mut i_min) = (0usize, 0usize);
    let push = |out: &mut Vec<TurningPoint>, index: usize, is_max: bool| {
        out.push(TurningPoint { index, is_max, at_start: index == 0 });
    };
    for i in 1..x.len() {
        if dir >= 0 && x[i] > x[i_max] {
            i_max = i;
        }
        if dir <= 0 && x[i] < x[i_min] {
            i_min = i;
        }
        match dir {
            0 => {
                if x[i_max] - x[i] > tol {
                    push(&mut out, i_max, true);
                    dir = -1;
                    i_min = i;
                } else if x[i] - x[i_min] > tol {
                    push(&mut out, i_min, false);
                    dir = 1;
                    i_max = i;
                }
            }
            1 => {
                if x[i_max] - x[i] > tol {
                    push(&mut out, i_max, true);
                    dir = -1;
                    i_min = i;
                }
            }
            _ => {
                if x[i] - x[i_min] > tol {
                    push(&mut out, i_min, false);
                    dir = 1;
                    i_max = i;
                }
            }
        }
    }
    out
}

/// The vertex of the parabola through three samples around an interior
/// extremum `i`: its time and value. Falls back to the sample when the
/// vertex is not between the neighbours (a flat or kinked top).
pub(crate) fn refine_extremum(t: &[f64], x: &[f64], i: usize) -> (f64, f64) {
    if i == 0 || i + 1 >= x.len() {
        return (t[i], x[i]);
    }
    let (t0, t1, t2) = (t[i - 1], t[i], t[i + 1]);
    let (x0, x1, x2) = (x[i - 1], x[i], x[i + 1]);
    // divided differences: x ≈ x1 + b (t - t1) + c (t - t1)(t - t1 - ...) in Newton form
    let d01 = (x1 - x0) / (t1 - t0);
    let d12 = (x2 - x1) / (t2 - t1);
    let c = (d12 - d01) / (t2 - t0);
    if c == 0.0 || !c.is_finite() {
        return (t1, x1);
    }
    // x(t) = x1 + d01 (t - t1) + c (t - t1)(t - t0)
    // dx/dt = d01 + c (2t - t1 - t0) = 0
    let tv = 0.5 * (t1 + t0 - d01 / c);
    if !(tv > t0 && tv < t2) {
        return (t1, x1);
    }
    let xv = x1 + d01 * (tv - t1) + c * (tv - t1) * (tv - t0);
    (tv, xv)
}

/// Check parallel sample arrays: lengths, at least [`MIN_SAMPLES`] samples,
/// finite values, strictly increasing time.
pub(crate) fn check_samples(t: &[f64], cols: &[(&str, &[f64])]) -> Result<(), AnalysisError> {
    let err = |message: String| AnalysisError::Data { file: "<samples>".into(), line: None, message };
    if t.len() < MIN_SAMPLES {
        return Err(err(format!("{} samples; at least {MIN_SAMPLES} are needed", t.len())));
    }
    for (name, c) in std::iter::once(&("t", t)).chain(cols.iter()) {
        if c.len() != t.len() {
            return Err(err(format!("`{name}` has {} samples, `t` has {}", c.len(), t.len())));
        }
        if let Some(i) = c.iter().position(|v| !v.is_finite()) {
            return Err(err(format!("`{name}` sample {i}: {} is not finite", c[i])));
        }
    }
    if let Some(i) = (1..t.len()).find(|&i| t[i] <= t[i - 1]) {
        return Err(err(format!(
            "time sample {i}: {} is not greater than the previous {}; times must increase strictly",
            t[i],
            t[i - 1]
        )));
    }
    Ok(())
}

/// `max - min` of a non-empty slice.
pub(crate) fn range(x: &[f64]) -> f64 {
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    hi - lo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parabolic_vertex_of_a_sampled_cosine_is_accurate() {
        // cos sampled 50 times per period, peak between samples
        let w = 2.0 * std::f64::consts::PI;
        let t: Vec<f64> = (0..60).map(|i| i as f64 * 0.02 + 0.3).collect();
        let x: Vec<f64> = t.iter().map(|t| (w * (t - 1.007)).cos()).collect();
        let i = (0..60).max_by(|&a, &b| x[a].total_cmp(&x[b])).unwrap();
        let (tv, xv) = refine_extremum(&t, &x, i);
        assert!((tv - 1.007).abs() < 1e-4, "{tv}");
        assert!((xv - 1.0).abs() < 1e-5, "{xv}");
    }

    #[test]
    fn small_wiggles_inside_the_band_are_not_reversals() {
        let x = [0.0, 1.0, 0.9, 1.5, 0.2, 0.25, -0.5, 0.3];
        let tp = turning_points(&x, 0.2);
        let idx: Vec<_> = tp.iter().map(|p| (p.index, p.is_max)).collect();
        assert_eq!(idx, vec![(0, false), (3, true), (6, false)]);
    }

    #[test]
    fn check_samples_names_the_fault() {
        let t: Vec<f64> = (0..12).map(f64::from).collect();
        let mut x = t.clone();
        x[5] = f64::NAN;
        let e = check_samples(&t, &[("x", &x)]).unwrap_err().to_string();
        assert!(e.contains("`x` sample 5") && e.contains("NaN"), "{e}");
        let mut t2 = t.clone();
        t2[7] = 6.0;
        let e = check_samples(&t2, &[]).unwrap_err().to_string();
        assert!(e.contains("sample 7") && e.contains("increase strictly"), "{e}");
        let e = check_samples(&t[..4], &[("x", &x[..4])]).unwrap_err().to_string();
        assert!(e.contains("4 samples"), "{e}");
    }
}
