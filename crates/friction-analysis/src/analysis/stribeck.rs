//! The steady-state friction-velocity curve (Stribeck curve) from a
//! velocity sweep.
//!
//! # Method
//! ```text
//! a_i      = dv/dt by central differences
//! steady   |a_i| <= max_accel (when given), and at least `settle` seconds after
//!          the start of the record and after the last sample that was not
//!          (a velocity step restarts the clock)
//! bins     `bins` per direction over v_min <= |v| <= v_max, logarithmic
//!          (default) or linear; v_min defaults to 1e-3 max|v| (log) or 0 (linear),
//!          v_max to max|v|
//! point    per non-empty bin and direction: mean v, mean F, standard deviation of F,
//!          number of samples
//! ```
//! Forward (`v > 0`) and backward (`v < 0`) sliding are kept apart, so an
//! asymmetric contact shows as two different branches. The sweep must be
//! slow enough that the friction state follows the velocity: for a LuGre
//! contact the relaxation length is `g(v)/σ0`, and the velocity must change
//! little over that distance.
//!
//! Forces are in the model convention (positive when `v > 0`); see the module
//! [`crate::analysis`] on negating a `friction run` column `F.NAME`.

use serde::Serialize;

use super::check_samples;
use crate::error::AnalysisError;

/// How to bin a velocity sweep.
#[derive(Debug, Clone, Copy)]
pub struct StribeckOptions {
    /// Bins per direction (default 30).
    pub bins: usize,
    /// Logarithmic bins in |v| (default `true`); linear otherwise.
    pub log_bins: bool,
    /// Smallest |v| binned \[m/s\] (default 1e-3 max|v| for log bins, 0 for linear).
    pub v_min: Option<f64>,
    /// Largest |v| binned \[m/s\] (default max|v|).
    pub v_max: Option<f64>,
    /// Samples whose |dv/dt| exceeds this are not steady \[m/s²\] (default: no limit).
    pub max_accel: Option<f64>,
    /// Time after the start and after the last unsteady sample before samples count again \[s\] (default 0).
    pub settle: f64,
    /// Smallest number of samples for a bin to be reported (default 1).
    pub min_count: usize,
}

impl Default for StribeckOptions {
    fn default() -> Self {
        StribeckOptions {
            bins: 30,
            log_bins: true,
            v_min: None,
            v_max: None,
            max_accel: None,
            settle: 0.0,
            min_count: 1,
        }
    }
}

/// One point of the Stribeck curve: the average over one velocity bin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StribeckPoint {
    /// +1 forward (v > 0), -1 backward.
    pub direction: i8,
    /// Lower edge of the bin in |v| \[m/s\].
    pub speed_lo: f64,
    /// Upper edge of the bin in |v| \[m/s\].
    pub speed_hi: f64,
    /// Mean velocity (signed) \[m/s\].
    pub v: f64,
    /// Mean friction force \[N\].
    pub f: f64,
    /// Standard deviation of the force in the bin \[N\].
    pub f_std: f64,
    /// Number of samples.
    pub count: usize,
}

/// The steady-state friction against velocity from a sweep: samples binned
/// by velocity, forces averaged, both directions separately, ordered by
/// velocity from the most negative.
///
/// ```
/// // A static Coulomb-viscous map F = sign(v) (1 + 2 |v|) is its own Stribeck curve.
/// use friction_analysis::analysis::{stribeck_curve, StribeckOptions};
/// let t: Vec<f64> = (0..2000).map(|i| i as f64 * 1e-3).collect();
/// let v: Vec<f64> = t.iter().map(|t| (2.0 * std::f64::consts::PI * t).sin()).collect();
/// let f: Vec<f64> = v.iter().map(|v| v.signum() * (1.0 + 2.0 * v.abs())).collect();
/// let curve = stribeck_curve(&t, &v, &f, &StribeckOptions::default()).unwrap();
/// for p in &curve {
///     assert!((p.f - p.v.signum() * (1.0 + 2.0 * p.v.abs())).abs() < 1e-9);
/// }
/// ```
pub fn stribeck_curve(
    t: &[f64],
    v: &[f64],
    f: &[f64],
    opts: &StribeckOptions,
) -> Result<Vec<StribeckPoint>, AnalysisError> {
    check_samples(t, &[("v", v), ("F", f)])?;
    let err = |message: String| AnalysisError::Data { file: "<samples>".into(), line: None, message };
    if opts.bins == 0 {
        return Err(err("the number of bins must be at least 1".into()));
    }
    let n = t.len();
    let mut steady = vec![true; n];
    if opts.max_accel.is_some() || opts.settle > 0.0 {
        let lim = opts.max_accel.unwrap_or(f64::INFINITY);
        // the record may start mid-transient: its start counts as a change
        let mut last_bad = t[0];
        for i in 0..n {
            let (a, b) = (i.saturating_sub(1), (i + 1).min(n - 1));
            let acc = (v[b] - v[a]) / (t[b] - t[a]);
            if acc.abs() > lim {
                last_bad = t[i];
                steady[i] = false;
            } else if t[i] - last_bad < opts.settle {
                steady[i] = false;
            }
        }
    }
    let vmax_data = v.iter().zip(&steady).filter(|(_, s)| **s).map(|(v, _)| v.abs()).fold(0.0, f64::max);
    let hi = opts.v_max.unwrap_or(vmax_data);
    let lo = opts.v_min.unwrap_or(if opts.log_bins { 1e-3 * hi } else { 0.0 });
    let usable = hi.is_finite() && lo.is_finite() && hi > 0.0 && lo >= 0.0 && lo < hi;
    if !usable || (opts.log_bins && lo <= 0.0) {
        return Err(err(format!(
            "no usable speed range: |v| from {lo:.3e} to {hi:.3e} m/s (steady samples reach {vmax_data:.3e} m/s)"
        )));
    }
    let nb = opts.bins;
    let edge = |k: usize| -> f64 {
        let s = k as f64 / nb as f64;
        if opts.log_bins {
            lo * (hi / lo).powf(s)
        } else {
            lo + (hi - lo) * s
        }
    };
    // per direction (0 backward, 1 forward) and bin: count, sum v, mean f, Σ(f - mean)² (Welford)
    let mut acc = vec![[0.0f64; 4]; 2 * nb];
    for i in 0..n {
        let s = v[i].abs();
        if !steady[i] || v[i] == 0.0 || s < lo || s > hi {
            continue;
        }
        let pos = if opts.log_bins { (s / lo).ln() / (hi / lo).ln() } else { (s - lo) / (hi - lo) };
        let k = ((pos * nb as f64) as usize).min(nb - 1);
        let d = usize::from(v[i] > 0.0);
        let a = &mut acc[d * nb + k];
        a[0] += 1.0;
        a[1] += v[i];
        let delta = f[i] - a[2];
        a[2] += delta / a[0];
        a[3] += delta * (f[i] - a[2]);
    }
    let mut out = Vec::new();
    for d in [0usize, 1] {
        let ks: Vec<usize> = if d == 0 { (0..nb).rev().collect() } else { (0..nb).collect() };
        for k in ks {
            let a = acc[d * nb + k];
            let count = a[0] as usize;
            if count == 0 || count < opts.min_count {
                continue;
            }
            let mean = a[2];
            let var = a[3] / a[0];
            out.push(StribeckPoint {
                direction: if d == 1 { 1 } else { -1 },
                speed_lo: edge(k),
                speed_hi: edge(k + 1),
                v: a[1] / a[0],
                f: mean,
                f_std: var.sqrt(),
                count,
            });
        }
    }
    if out.is_empty() {
        return Err(err(format!(
            "no steady samples with {lo:.3e} <= |v| <= {hi:.3e} m/s: no Stribeck curve"
        )));
    }
    Ok(out)
}
