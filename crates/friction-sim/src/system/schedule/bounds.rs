//! What a schedule says of itself over a run: its breakpoints, the bounds
//! of its value and rate, and the check that it is finite.

use super::*;

impl Schedule {
    /// Times in `(0, t_end)` where the signal or its derivative jumps; a
    /// simulation stops exactly there and restarts its integrator.
    pub fn breakpoints(&self, t_end: f64) -> Vec<f64> {
        let mut b = match self {
            Schedule::Step { at, .. } => vec![*at],
            Schedule::Ramp { start, .. } => vec![*start],
            Schedule::Chirp { duration, .. } => vec![*duration],
            Schedule::Points { points, speed } => {
                let mut t = 0.0;
                points
                    .windows(2)
                    .map(|w| {
                        t += (w[1] - w[0]).abs() / speed;
                        t
                    })
                    .collect()
            }
            Schedule::Pulse { from, to, .. } => vec![*from, *to],
            Schedule::Haversine { duration, start, .. } => vec![*start, start + duration],
            Schedule::Table { t, .. } => t.clone(),
            Schedule::PulseTrain { period, duty, start, .. }
            | Schedule::Square { period, duty, start, .. } => {
                periodic_edges(*start, *period, Some(*duty), t_end)
            }
            Schedule::Sawtooth { period, start, .. } => periodic_edges(*start, *period, None, t_end),
            Schedule::Sum { terms: parts } | Schedule::Product { factors: parts } => {
                parts.iter().flat_map(|p| p.breakpoints(t_end)).collect()
            }
            Schedule::Window { start, end, inner } => {
                let mut b = vec![*start, *end];
                b.extend(inner.breakpoints(t_end).into_iter().filter(|x| x > start && x < end));
                b
            }
            Schedule::Constant { .. }
            | Schedule::Sine { .. }
            | Schedule::VelocitySine { .. }
            | Schedule::Input(_) => vec![],
        };
        b.retain(|&x| x > 0.0 && x < t_end);
        if matches!(self, Schedule::Sum { .. } | Schedule::Product { .. } | Schedule::Window { .. }) {
            b.sort_by(f64::total_cmp);
            b.dedup();
        }
        b
    }

    /// How many edges (jumps) the periodic signals in this schedule have in
    /// [0, t_end], an upper estimate without listing them.
    pub fn periodic_edges(&self, t_end: f64) -> f64 {
        let n = |start: f64, period: f64| ((t_end - start.max(0.0)) / period).max(0.0).ceil() + 1.0;
        match self {
            Schedule::PulseTrain { period, start, .. } | Schedule::Square { period, start, .. } => {
                2.0 * n(*start, *period)
            }
            Schedule::Sawtooth { period, start, .. } => n(*start, *period),
            Schedule::Sum { terms: parts } | Schedule::Product { factors: parts } => {
                parts.iter().map(|p| p.periodic_edges(t_end)).sum()
            }
            Schedule::Window { inner, .. } => inner.periodic_edges(t_end),
            _ => 0.0,
        }
    }

    /// Smallest and largest value over `[0, t_end]`, from the parameters
    /// (exact for every type but `velocity_sine` and `chirp`, whose bounds are
    /// safe enclosures). A non-finite bound means the signal overflows.
    pub fn bounds(&self, t_end: f64) -> (f64, f64) {
        let span = |a: f64, b: f64| (a.min(b), a.max(b));
        match self {
            Schedule::Constant { value } => (*value, *value),
            Schedule::Step { amplitude, at, offset } => {
                if *at <= t_end {
                    span(*offset, offset + amplitude)
                } else {
                    (*offset, *offset)
                }
            }
            Schedule::Ramp { rate, offset, start } => span(*offset, offset + rate * (t_end - start).max(0.0)),
            Schedule::Sine { amplitude, offset, .. } | Schedule::Chirp { amplitude, offset, .. } => {
                (offset - amplitude.abs(), offset + amplitude.abs())
            }
            Schedule::Points { points, .. } => {
                points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)))
            }
            Schedule::VelocitySine { bias, amplitude, frequency, offset } => {
                let swing = 2.0 * amplitude.abs() / (2.0 * PI * frequency);
                let (lo, hi) = span(*offset, offset + bias * t_end);
                (lo - swing, hi + swing)
            }
            Schedule::Pulse { value, base, .. } => span(*value, *base),
            Schedule::Haversine { amplitude, .. } => span(0.0, *amplitude),
            Schedule::Table { v, .. } => {
                v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)))
            }
            // what `friction run` sees: `start` held
            Schedule::Input(u) => match u.quantity {
                InputQuantity::Value => (u.start, u.start),
                InputQuantity::Velocity => span(u.offset, u.offset + u.start * t_end),
            },
            Schedule::PulseTrain { amplitude, offset, .. } | Schedule::Sawtooth { amplitude, offset, .. } => {
                span(*offset, offset + amplitude)
            }
            Schedule::Square { amplitude, offset, .. } => {
                (offset - amplitude.abs(), offset + amplitude.abs())
            }
            Schedule::Sum { terms } => terms.iter().fold((0.0, 0.0), |(lo, hi), s| {
                let (a, b) = s.bounds(t_end);
                (lo + a, hi + b)
            }),
            Schedule::Product { factors } => factors.iter().fold((1.0, 1.0), |(lo, hi), s| {
                let (a, b) = s.bounds(t_end);
                let c = [lo * a, lo * b, hi * a, hi * b];
                // a NaN (0 · inf) stays: the signal is refused as not finite
                if c.iter().any(|x| x.is_nan()) {
                    return (f64::NAN, f64::NAN);
                }
                (
                    c.iter().copied().fold(f64::INFINITY, f64::min),
                    c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                )
            }),
            Schedule::Window { inner, .. } => {
                let (lo, hi) = inner.bounds(t_end);
                (lo.min(0.0), hi.max(0.0))
            }
        }
    }

    /// Largest |ds/dt| and |d²s/dt²| over `[0, t_end]` (safe enclosures; the
    /// jumps of steps and pulses are not rates and count as 0).
    pub fn rate_bounds(&self, t_end: f64) -> (f64, f64) {
        match self {
            Schedule::Constant { .. } | Schedule::Step { .. } | Schedule::Pulse { .. } => (0.0, 0.0),
            Schedule::Ramp { rate, .. } => (rate.abs(), 0.0),
            Schedule::Sine { amplitude, frequency, .. } => {
                let w = 2.0 * PI * frequency;
                (amplitude.abs() * w, amplitude.abs() * w * w)
            }
            Schedule::Chirp { amplitude, f0, f1, duration, .. } => {
                let w = 2.0 * PI * f0.max(*f1);
                let dw = 2.0 * PI * (f1 - f0).abs() / duration;
                (amplitude.abs() * w, amplitude.abs() * (dw + w * w))
            }
            Schedule::Points { speed, .. } => (*speed, 0.0),
            Schedule::VelocitySine { bias, amplitude, frequency, .. } => {
                let w = 2.0 * PI * frequency;
                (bias.abs() + amplitude.abs(), amplitude.abs() * w)
            }
            Schedule::Haversine { amplitude, duration, .. } => {
                let w = PI / duration;
                (amplitude.abs() * w, 2.0 * amplitude.abs() * w * w)
            }
            Schedule::Table { t, v } => {
                let slope = t
                    .windows(2)
                    .zip(v.windows(2))
                    .filter(|(tw, _)| tw[0] < t_end)
                    .map(|(tw, vw)| ((vw[1] - vw[0]) / (tw[1] - tw[0])).abs())
                    .fold(0.0, f64::max);
                (slope, 0.0)
            }
            Schedule::Input(u) => match u.quantity {
                InputQuantity::Value => (0.0, 0.0),
                InputQuantity::Velocity => (u.start.abs(), 0.0),
            },
            Schedule::PulseTrain { .. } | Schedule::Square { .. } => (0.0, 0.0),
            Schedule::Sawtooth { amplitude, period, .. } => ((amplitude / period).abs(), 0.0),
            Schedule::Sum { terms } => terms.iter().fold((0.0, 0.0), |(d1, d2), s| {
                let (a, b) = s.rate_bounds(t_end);
                (d1 + a, d2 + b)
            }),
            Schedule::Product { factors } => {
                // (|p|, |p'|, |p''|) bounds by the product rule
                let (_, d1, d2) = factors.iter().fold((1.0, 0.0, 0.0), |p, s| {
                    let (lo, hi) = s.bounds(t_end);
                    let (a, b) = s.rate_bounds(t_end);
                    times(p, (lo.abs().max(hi.abs()), a, b))
                });
                (d1, d2)
            }
            Schedule::Window { inner, .. } => inner.rate_bounds(t_end),
        }
    }

    /// Refuse a signal that is not finite somewhere on `[0, t_end]` (a NaN or
    /// infinite value, or parameters whose value or rate overflows), naming
    /// `what` and the bounds found.
    pub fn check_finite(&self, what: &str, t_end: f64) -> Result<(), String> {
        let (lo, hi) = self.bounds(t_end);
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(format!(
                "{what}: the signal is not finite on [0, t_end = {t_end}] (it spans [{lo}, {hi}]); \
                 valid: finite values, range (-inf, inf)"
            ));
        }
        let (d1, d2) = self.rate_bounds(t_end);
        if !(d1.is_finite() && d2.is_finite()) {
            return Err(format!(
                "{what}: the rate of the signal overflows on [0, t_end = {t_end}] \
                 (|ds/dt| up to {d1}, |d²s/dt²| up to {d2}); reduce the amplitude or the frequency"
            ));
        }
        let n = self.periodic_edges(t_end);
        if n > MAX_EDGES {
            return Err(format!(
                "{what}: the periodic signal jumps about {n:.0} times in [0, t_end = {t_end}], each a restart \
                 of the integrator; valid: at most {MAX_EDGES:.0} edges: lengthen `period` or shorten `t_end`"
            ));
        }
        Ok(())
    }
}
