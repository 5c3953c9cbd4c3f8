//! Hysteresis loops: force against displacement split into cycles, the
//! energy each cycle dissipates, its equivalent viscous damping, and the
//! backbone curve.
//!
//! # Definitions
//! ```text
//! cycle       samples from one displacement maximum to the next (both included);
//!             the first cycle starts at the first maximum after the start of the record
//! x_hi, F_hi  the higher of the two bounding maxima and the force there
//! x_lo, F_lo  the displacement minimum inside the cycle and the force there
//! x_a         amplitude (x_hi - x_lo) / 2,     x_c = (x_hi + x_lo) / 2
//! F_tip       loop-tip force (F_hi - F_lo) / 2,  F_amp = (max F - min F) / 2
//! k_sec       secant stiffness (F_hi - F_lo) / (x_hi - x_lo) = F_tip / x_a
//! E_d         ∮ F dx by the trapezoidal rule over the cycle (> 0 when dissipative)
//! E_s         ½ k_sec x_a²   (strain energy of the secant spring at the tip)
//! ζ_eq        E_d / (4 π E_s)                (undefined when F_tip <= 0)
//! c_eq        E_d / (π ω x_a²),  ω = 2π / T, T the time between the bounding maxima
//!             (each refined by the vertex of the parabola through its sample and neighbours)
//! closed      |x(end) - x(start)| <= closure_tol · 2 x_a
//! backbone    the loop tips (x_a, F_tip) of the closed cycles, by amplitude
//! virgin      the first loading branch, from the start to the first reversal
//! ```
//! For a linear spring k with a viscous damper c driven at ω,
//! `ζ_eq = c ω / (2 k)`, which at resonance `ω = sqrt(k/m)` is the damping
//! ratio `c / (2 sqrt(k m))`; `c_eq = c` at every frequency. For a Jenkins
//! element (spring k, slider φ) `E_d = 4 φ (x_a - φ/k)` once `x_a > φ/k`; for
//! Coulomb friction `E_d = 4 Fc x_a`. A cycle that does not close (the mean
//! displacement drifts, or the amplitude changes) still gets its `∮ F dx`
//! along the path, but only closed cycles make the backbone.
//!
//! Forces are in the model convention (opposing motion); see the module
//! [`crate::analysis`] on negating a `friction run` column `F.NAME`.

use serde::Serialize;

use super::{check_samples, range, refine_extremum, turning_points, DEFAULT_REVERSAL_TOL};
use crate::error::AnalysisError;

/// How to split loops.
#[derive(Debug, Clone, Copy)]
pub struct LoopOptions {
    /// Reversal band as a fraction of the displacement range (default [`DEFAULT_REVERSAL_TOL`]).
    pub reversal_tol: f64,
    /// A cycle is closed when its end is within this fraction of its
    /// peak-to-peak displacement of its start (default 0.01).
    pub closure_tol: f64,
}

impl Default for LoopOptions {
    fn default() -> Self {
        LoopOptions { reversal_tol: DEFAULT_REVERSAL_TOL, closure_tol: 0.01 }
    }
}

/// One hysteresis cycle (see the module documentation for the definitions).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cycle {
    /// 0-based cycle number.
    pub index: usize,
    /// Sample index of the starting maximum.
    pub start: usize,
    /// Sample index of the ending maximum.
    pub end: usize,
    /// Time of the starting maximum \[s\], refined by the parabola through its sample and neighbours.
    pub t_start: f64,
    /// Time of the ending maximum \[s\], refined likewise.
    pub t_end: f64,
    /// Duration T = t_end - t_start \[s\].
    pub period: f64,
    /// Higher bounding maximum x_hi \[m\].
    pub x_max: f64,
    /// Minimum x_lo inside the cycle \[m\].
    pub x_min: f64,
    /// Centre (x_hi + x_lo)/2 \[m\].
    pub x_center: f64,
    /// Amplitude x_a = (x_hi - x_lo)/2 \[m\].
    pub amplitude: f64,
    /// Force at x_hi \[N\].
    pub f_at_max: f64,
    /// Force at x_lo \[N\].
    pub f_at_min: f64,
    /// Loop-tip force F_tip = (F_hi - F_lo)/2 \[N\].
    pub f_tip: f64,
    /// Force amplitude (max F - min F)/2 over the cycle \[N\].
    pub f_amplitude: f64,
    /// Secant stiffness k_sec \[N/m\].
    pub k_sec: f64,
    /// Dissipated energy E_d = ∮ F dx \[J\].
    pub energy: f64,
    /// Secant strain energy E_s = ½ k_sec x_a² \[J\].
    pub strain_energy: f64,
    /// Equivalent viscous damping ratio E_d / (4π E_s), `None` when F_tip <= 0.
    pub zeta_eq: Option<f64>,
    /// Equivalent viscous coefficient E_d / (π ω x_a²) \[N s/m\].
    pub c_eq: f64,
    /// x(end) - x(start) \[m\].
    pub closure: f64,
    /// Whether the cycle closes (see [`LoopOptions::closure_tol`]).
    pub closed: bool,
}

/// Cycles, backbone and virgin curve of a record.
#[derive(Debug, Clone, Serialize)]
pub struct LoopAnalysis {
    /// Every cycle.
    pub cycles: Vec<Cycle>,
    /// Loop tips `[x_a, F_tip]` of the closed cycles, by increasing amplitude.
    pub backbone: Vec<[f64; 2]>,
    /// The first loading branch `[x, F]`, from the start to the first reversal.
    pub virgin: Vec<[f64; 2]>,
}

/// Split a record into cycles between successive displacement maxima, with
/// the default [`LoopOptions`].
///
/// ```
/// // Coulomb friction Fc = 2 N along x = a sin(2π t): E_d = 4 Fc a per cycle.
/// use friction_analysis::analysis::split_cycles;
/// let t: Vec<f64> = (0..=4000).map(|i| i as f64 * 1e-3).collect();
/// let x: Vec<f64> = t.iter().map(|t| 0.5 * (2.0 * std::f64::consts::PI * t).sin()).collect();
/// let f: Vec<f64> = t.iter().map(|t| 2.0 * (2.0 * std::f64::consts::PI * t).cos().signum()).collect();
/// let cycles = split_cycles(&t, &x, &f).unwrap();
/// assert_eq!(cycles.len(), 3);
/// assert!((cycles[0].energy - 4.0 * 2.0 * 0.5).abs() < 1e-3);
/// ```
pub fn split_cycles(t: &[f64], x: &[f64], f: &[f64]) -> Result<Vec<Cycle>, AnalysisError> {
    Ok(analyze_loops(t, x, f, &LoopOptions::default())?.cycles)
}

/// Cycles, backbone and virgin curve of `F(x)` sampled at times `t`.
///
/// Errors when the samples are invalid (too few, not finite, time not
/// increasing) or when there is no complete cycle (fewer than two maxima
/// after the start).
pub fn analyze_loops(
    t: &[f64],
    x: &[f64],
    f: &[f64],
    opts: &LoopOptions,
) -> Result<LoopAnalysis, AnalysisError> {
    check_samples(t, &[("x", x), ("F", f)])?;
    let span = range(x);
    if span <= 0.0 {
        return Err(data("the displacement is constant: no loops".into()));
    }
    let tp = turning_points(x, opts.reversal_tol * span);
    let maxima: Vec<usize> = tp.iter().filter(|p| p.is_max && !p.at_start).map(|p| p.index).collect();
    if maxima.len() < 2 {
        return Err(data(format!(
            "no complete cycle: {} displacement maxima found after the start, a cycle needs two \
             (reversal band {:.3e} m)",
            maxima.len(),
            opts.reversal_tol * span
        )));
    }
    let cycles: Vec<Cycle> = maxima
        .windows(2)
        .enumerate()
        .map(|(index, w)| cycle(index, w[0], w[1], t, x, f, opts.closure_tol))
        .collect();
    let backbone = backbone(&cycles);
    let virgin = virgin_curve(x, f, opts.reversal_tol);
    Ok(LoopAnalysis { cycles, backbone, virgin })
}

fn data(message: String) -> AnalysisError {
    AnalysisError::Data { file: "<samples>".into(), line: None, message }
}

fn cycle(index: usize, s: usize, e: usize, t: &[f64], x: &[f64], f: &[f64], closure_tol: f64) -> Cycle {
    let hi = if x[e] > x[s] { e } else { s };
    let mut lo = s;
    let (mut fmin, mut fmax) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut energy = 0.0;
    for i in s..=e {
        if x[i] < x[lo] {
            lo = i;
        }
        fmin = fmin.min(f[i]);
        fmax = fmax.max(f[i]);
        if i > s {
            energy += 0.5 * (f[i] + f[i - 1]) * (x[i] - x[i - 1]);
        }
    }
    let amplitude = 0.5 * (x[hi] - x[lo]);
    let f_tip = 0.5 * (f[hi] - f[lo]);
    let k_sec = f_tip / amplitude;
    let strain_energy = 0.5 * f_tip * amplitude;
    let (t_start, t_end) = (refine_extremum(t, x, s).0, refine_extremum(t, x, e).0);
    let period = t_end - t_start;
    let omega = 2.0 * std::f64::consts::PI / period;
    let closure = x[e] - x[s];
    Cycle {
        index,
        start: s,
        end: e,
        t_start,
        t_end,
        period,
        x_max: x[hi],
        x_min: x[lo],
        x_center: 0.5 * (x[hi] + x[lo]),
        amplitude,
        f_at_max: f[hi],
        f_at_min: f[lo],
        f_tip,
        f_amplitude: 0.5 * (fmax - fmin),
        k_sec,
        energy,
        strain_energy,
        zeta_eq: (f_tip > 0.0).then(|| energy / (4.0 * std::f64::consts::PI * strain_energy)),
        c_eq: energy / (std::f64::consts::PI * omega * amplitude * amplitude),
        closure,
        closed: closure.abs() <= closure_tol * 2.0 * amplitude,
    }
}

/// The loop tips `[x_a, F_tip]` of the closed cycles, by increasing
/// amplitude: the backbone curve. For a model obeying Masing's rules
/// (Jenkins, Iwan, Maxwell-slip) it is the virgin loading curve `F(x_a)`
/// from a relaxed start at `x = 0`.
pub fn backbone(cycles: &[Cycle]) -> Vec<[f64; 2]> {
    let mut b: Vec<[f64; 2]> = cycles.iter().filter(|c| c.closed).map(|c| [c.amplitude, c.f_tip]).collect();
    b.sort_by(|a, b| a[0].total_cmp(&b[0]));
    b
}

/// The first loading branch `[x, F]`: the samples from the start to the
/// first reversal of `x` (band `reversal_tol` times the range of `x`). When
/// the record starts at a turning point, the branch runs to the next one.
/// Empty when `x` never reverses by more than the band.
pub fn virgin_curve(x: &[f64], f: &[f64], reversal_tol: f64) -> Vec<[f64; 2]> {
    if x.is_empty() || x.len() != f.len() {
        return Vec::new();
    }
    let tp = turning_points(x, reversal_tol * range(x));
    match tp.iter().find(|p| !p.at_start) {
        Some(p) => (0..=p.index).map(|i| [x[i], f[i]]).collect(),
        None => Vec::new(),
    }
}
