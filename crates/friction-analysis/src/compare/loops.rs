//! Hysteresis loops under a prescribed displacement: rate independence and
//! non-local memory.
//!
//! **Rate independence.** The contact is driven along 0 → A → -A → A at the
//! speeds [`Settings::loop_speeds`] (1e-4 to 1e-1 m/s) and the forces are
//! compared with those of the slowest loop at the same points of the path.
//! The figure is the largest difference relative to the slowest loop's force
//! range. A (5 x½ by default, so the loop reaches gross sliding) is the same
//! for every speed.
//!
//! **Non-local memory.** The contact is driven slowly along
//! 0 → A → -A → A → -A → x1 → x2 → A with x1 = 0.4 A, x2 = -0.4 A and A = 2 x½
//! (in the pre-sliding range). Masing's wiping-out rule says that when the
//! last branch passes x1, where the inner loop x1 → x2 → x1 started, the
//! inner loop is forgotten and the force continues on the outer ascending
//! branch -A → A. The figure is the largest gap between the last branch and
//! the outer ascending branch over [x1, A], relative to the outer loop's
//! force range: zero for Maxwell-slip (Iwan, Jenkins) models, finite for
//! models with local memory such as Dahl or LuGre, whose branches depend
//! only on the present force and direction. For the figure to mean anything
//! the inner loop must differ from the outer one: at x2 the inner descending
//! branch must be at least [`super::Thresholds::memory_min_inner`] of the
//! range away from the outer descending branch; otherwise (Coulomb, static
//! maps: every branch is the same) the verdict is `no`.

use friction_models::AnyModel;
use friction_sim::schedule::Schedule;

use super::property::{Band, Figure, Property, Verdict};
use super::setup::Settings;
use super::sim::{driven, interp, path_x, Notes};
use crate::error::AnalysisError;

/// Samples per leg of a path.
const PER_LEG: usize = 200;

/// Amplitude when the model has no pre-sliding regime: loops \[m\].
pub const LOOP_AMPLITUDE: f64 = 5e-5;
/// Amplitude when the model has no pre-sliding regime: memory \[m\].
pub const MEMORY_AMPLITUDE: f64 = 1e-5;

/// Drive along `points` at `speed`; returns per leg the (x, F) samples, taken
/// at the middles of `PER_LEG` equal parts (never at a corner).
fn drive_path(
    model: &AnyModel,
    points: &[f64],
    speed: f64,
    rtol: f64,
    notes: &Notes,
) -> Result<Vec<Vec<(f64, f64)>>, AnalysisError> {
    let mut times = vec![0.0];
    let mut xs = vec![];
    let mut s0 = 0.0;
    for w in points.windows(2) {
        let len = (w[1] - w[0]).abs();
        for j in 0..PER_LEG {
            let s = s0 + len * (j as f64 + 0.5) / PER_LEG as f64;
            times.push(s / speed);
            xs.push(path_x(points, s));
        }
        s0 += len;
    }
    let f = driven(model, Schedule::Points { points: points.to_vec(), speed }, &times, rtol, notes)?;
    Ok((0..points.len() - 1)
        .map(|l| (0..PER_LEG).map(|j| (xs[l * PER_LEG + j], f[1 + l * PER_LEG + j])).collect())
        .collect())
}

/// The loops at the two speeds.
#[derive(Debug, Clone, Default)]
pub struct RateLoops {
    /// Amplitude A \[m\].
    pub amplitude: f64,
    /// The speeds [m/s].
    pub speeds: Vec<f64>,
    /// (x, F) along the path at each speed.
    pub curves: Vec<Vec<(f64, f64)>>,
    /// Largest force difference from the slowest loop, relative to its force range.
    pub difference: f64,
}

pub(crate) fn rate_loops(
    model: &AnyModel,
    x_half: Option<f64>,
    s: &Settings,
    notes: &Notes,
) -> Result<RateLoops, AnalysisError> {
    let a = x_half.map(|x| s.loop_amplitude * x).unwrap_or(LOOP_AMPLITUDE);
    let points = [0.0, a, -a, a];
    let mut out = RateLoops { amplitude: a, speeds: s.loop_speeds.clone(), ..Default::default() };
    for &v in &s.loop_speeds {
        out.curves.push(drive_path(model, &points, v, s.rtol, notes)?.concat());
    }
    let first = out.curves.first().cloned().unwrap_or_default();
    let (lo, hi) =
        first.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p.1), h.max(p.1)));
    let mut diff = 0.0f64;
    for c in &out.curves[1..] {
        diff = first.iter().zip(c).fold(diff, |m, (p, q)| m.max((p.1 - q.1).abs()));
    }
    out.difference = if hi > lo { diff / (hi - lo) } else { f64::NAN };
    Ok(out)
}

pub(crate) fn rate_figure(r: &RateLoops, s: &Settings) -> Figure {
    Figure::banded(
        Property::RateIndependent,
        r.difference,
        "-",
        s.thresholds.rate,
        format!(
            "loop 0 -> A -> -A -> A, A = {:.3e} m, at {} m/s",
            r.amplitude,
            r.speeds.iter().map(|v| format!("{v:.0e}")).collect::<Vec<_>>().join(", ")
        ),
    )
}

/// The memory experiment.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// Outer amplitude A \[m\].
    pub amplitude: f64,
    /// The legs of the path, (x, F) each.
    pub legs: Vec<Vec<(f64, f64)>>,
    /// Largest gap between the last branch and the outer ascending branch on
    /// [x1, A], relative to the outer range.
    pub closure: f64,
    /// Gap between the inner and the outer descending branch at x2, relative.
    pub inner: f64,
}

/// Interpolate a leg (x monotone either way) at `x`.
fn leg_at(leg: &[(f64, f64)], x: f64) -> f64 {
    let mut pts: Vec<(f64, f64)> = leg.to_vec();
    if pts.first().map(|p| p.0) > pts.last().map(|p| p.0) {
        pts.reverse();
    }
    let xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let fs: Vec<f64> = pts.iter().map(|p| p.1).collect();
    interp(&xs, &fs, x)
}

pub(crate) fn memory(
    model: &AnyModel,
    x_half: Option<f64>,
    s: &Settings,
    notes: &Notes,
) -> Result<Memory, AnalysisError> {
    let a = x_half.map(|x| s.memory_amplitude * x).unwrap_or(MEMORY_AMPLITUDE);
    let (x1, x2) = (0.4 * a, -0.4 * a);
    let legs = drive_path(model, &[0.0, a, -a, a, -a, x1, x2, a], s.memory_speed, s.rtol, notes)?;
    let outer_up = &legs[2];
    let (lo, hi) = legs[2]
        .iter()
        .chain(&legs[3])
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p.1), h.max(p.1)));
    let range = hi - lo;
    let mut closure = 0.0f64;
    for p in &legs[6] {
        if p.0 >= x1 {
            closure = closure.max((p.1 - leg_at(outer_up, p.0)).abs());
        }
    }
    let last_inner = *legs[5].last().unwrap_or(&(x2, f64::NAN));
    let inner = (last_inner.1 - leg_at(&legs[3], last_inner.0)).abs();
    let (closure, inner) = if range > 0.0 { (closure / range, inner / range) } else { (f64::NAN, f64::NAN) };
    Ok(Memory { amplitude: a, legs, closure, inner })
}

pub(crate) fn memory_figure(m: &Memory, s: &Settings) -> Figure {
    let th = &s.thresholds;
    let band: Band = th.memory;
    let mut fig = Figure::banded(
        Property::NonlocalMemory,
        m.closure,
        "-",
        band,
        format!(
            "A = {:.3e} m, inner loop 0.4 A -> -0.4 A -> 0.4 A; inner loop {:.1} % of the range from the outer",
            m.amplitude,
            100.0 * m.inner
        ),
    );
    fig.threshold = format!(
        "{}; and an inner loop >= {} of the range from the outer",
        fig.threshold, th.memory_min_inner
    );
    if fig.verdict != Verdict::No && (m.inner.is_nan() || m.inner < th.memory_min_inner) {
        fig.verdict = Verdict::No;
        fig.detail.push_str("; no distinct inner loop (every branch is the same)");
    }
    fig
}
