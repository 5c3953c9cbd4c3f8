//! Prescribed signals of time: driver motions, external forces, normal loads.
//!
//! One type serves all three, so every motion can also be a force and back.
//!
//! ```text
//! constant       {value}                                 s = value
//! step           {amplitude, at, offset = 0}             s = offset + amplitude H(t - at)
//! ramp           {rate, offset = 0, start = 0}           s = offset + rate max(t - start, 0)
//! sine           {amplitude, frequency, phase = 0, offset = 0}
//!                                                        s = offset + amplitude sin(2π f t + phase)
//! chirp          {amplitude, f0, f1, duration, offset = 0}
//!                s = offset + A sin(2π (f0 t + (f1 - f0) t² / (2 T))) for t <= T, then at f1
//! points         {points, speed}                         piecewise linear through the turning
//!                                                        points at constant speed, then held
//! velocity_sine  {bias, amplitude, frequency, offset = 0}
//!                ds/dt = bias + amplitude sin(2π f t), s(0) = offset
//! pulse          {value, from, to, base = 0}             s = value on [from, to), base elsewhere
//! haversine      {amplitude, duration, start = 0}        s = A sin²(π (t - start)/duration) on the pulse
//! table          {file}                                  CSV with columns t, value; linear
//!                                                        interpolation, held after the last row
//! input          {name, start, quantity = "value", offset = 0}
//!                a signal set from outside (an FMU input, see below); s = start until set
//! pulse_train    {amplitude, period, duty = 0.5, offset = 0, start = 0}
//!                s = offset + amplitude on the first duty·period of every period from
//!                start, offset elsewhere (Modelica.Blocks.Sources.Pulse, width = 100 duty)
//! square         {amplitude, period, duty = 0.5, offset = 0, start = 0}
//!                s = offset + amplitude on the first duty·period of every period from
//!                start, offset - amplitude on the rest; offset before start
//! sawtooth       {amplitude, period, offset = 0, start = 0}
//!                s = offset + amplitude (t - start - k period)/period in period k from
//!                start, offset before (Modelica.Blocks.Sources.SawTooth)
//! sum            {terms}       s = Σ terms       (schedules or numbers, 1 to MAX_TERMS)
//! product        {factors}     s = Π factors     (schedules or numbers, 1 to MAX_TERMS)
//! window         {start = 0, end, inner}
//!                s = inner(t) on [start, end), 0 elsewhere
//! ```
//!
//! # Composed signals
//!
//! `sum`, `product` and `window` take other schedules (or plain numbers, as
//! constants) and nest to [`MAX_DEPTH`] levels: a torque `200 sin(100 t)`
//! for t < 0.5 and 0 after is
//!
//! ```toml
//! value = { type = "window", end = 0.5, inner = { type = "sine", amplitude = 200.0, frequency = 15.915494309189533 } }
//! ```
//!
//! - Every part is evaluated at the simulation time t (a window does not
//!   restart its inner signal at `start`).
//! - The rates follow from the parts' rates: a sum's are the sums, a
//!   product's follow the product rule ((fg)' = f'g + fg', (fg)'' = f''g +
//!   2f'g' + fg''), a window's are the inner signal's inside the window and 0
//!   outside. A driver moved by a composed motion therefore has the exact
//!   velocity and acceleration of its formula.
//! - A window is closed at `start` and open at `end` (like `pulse`): at
//!   t = end the signal is already 0.
//! - The breakpoints (the times where the engine stops and restarts its
//!   integrator) are the union of the parts' breakpoints, the window's
//!   edges (the inner signal's breakpoints outside the window are dropped,
//!   the signal being 0 there) and every edge of a periodic signal, so no
//!   step straddles a jump.
//! - An `input` cannot be part of a composition (an FMU input is a whole
//!   force, load or motion); a force that is an input plus a known signal is
//!   two `[[force]]` tables on the same body.
//!
//! The periodic signals follow Modelica.Blocks.Sources.Pulse and
//! Modelica.Blocks.Sources.SawTooth (Modelica Standard Library 4.0): before
//! `start` they hold `offset`; `duty` is Modelica's `width` / 100; a negative
//! `start` shifts the phase (the train has begun before t = 0); a finite
//! number of periods (Modelica's `nperiod`) is a `window`. Each period is
//! closed at its start: at a rising edge the signal already has its high
//! value. A run refuses a periodic signal with more than [`MAX_EDGES`]
//! edges in [0, t_end].
//!
//! # Inputs
//!
//! `{ type = "input", name = "u", start = 0.0 }` makes a force, a normal
//! load or a driver's motion an input of the FMU that `friction fmu` exports:
//! the co-simulation master sets it at every communication point and it is
//! held constant until the next one. In `friction run` (no master) it holds
//! `start` for the whole run. `name` follows
//! [`check_name`](crate::system::check_name) and is unique among the
//! inputs of a scenario.
//!
//! `quantity` says what the input is:
//! - `"value"` (the default): the signal itself: a force \[N\], a normal load
//!   \[-\], or a driver's *position*. Held between communication points, so a
//!   position input jumps at each communication point and the driver's
//!   velocity is zero in between;
//! - `"velocity"`: the signal's rate ds/dt; the signal is its integral,
//!   `s = offset + ∫ input dt`, continuous, with the input as its velocity.
//!   This is what a 1-D system simulator couples to a friction contact: it
//!   hands over the slip velocity and reads back the force, and a contact
//!   between such a driver and the ground sees the slip velocity the master
//!   imposes (a held *position* would show the contact no motion at all
//!   between communication points).
//!
//! A change of an input at a communication point is a breakpoint of the
//! simulation: stick and slip are decided again (a stuck contact whose new
//! load exceeds its static friction breaks away).

use std::f64::consts::PI;
use std::path::Path;

/// Deepest nesting of composed schedules (`sum`, `product`, `window`): a
/// window of a sum of a product is 3 levels.
pub const MAX_DEPTH: usize = 16;

/// Most `terms` of a `sum` or `factors` of a `product`.
pub const MAX_TERMS: usize = 256;

/// Most edges (jumps) that the periodic signals of one schedule may have in
/// [0, t_end]: each is a breakpoint where the integrator restarts.
pub const MAX_EDGES: f64 = 1e6;

/// A prescribed signal s(t) with its first two derivatives.
#[derive(Debug, Clone, PartialEq)]
pub enum Schedule {
    /// Constant value.
    Constant {
        /// Value.
        value: f64,
    },
    /// Step of `amplitude` at time `at`.
    Step {
        /// Height of the step.
        amplitude: f64,
        /// Time of the step \[s\].
        at: f64,
        /// Value before the step.
        offset: f64,
    },
    /// Linear ramp.
    Ramp {
        /// Slope [unit/s].
        rate: f64,
        /// Value before `start`.
        offset: f64,
        /// Start time \[s\].
        start: f64,
    },
    /// Sinusoid.
    Sine {
        /// Amplitude.
        amplitude: f64,
        /// Frequency \[Hz\].
        frequency: f64,
        /// Phase \[rad\].
        phase: f64,
        /// Mean value.
        offset: f64,
    },
    /// Linear chirp from `f0` to `f1` over `duration`, then at `f1`.
    Chirp {
        /// Amplitude.
        amplitude: f64,
        /// Start frequency \[Hz\].
        f0: f64,
        /// End frequency \[Hz\].
        f1: f64,
        /// Sweep duration \[s\].
        duration: f64,
        /// Mean value.
        offset: f64,
    },
    /// Piecewise linear through turning points at constant speed.
    Points {
        /// Turning points.
        points: Vec<f64>,
        /// Speed [unit/s].
        speed: f64,
    },
    /// Prescribed rate `bias + amplitude sin(2π f t)`, value its integral.
    VelocitySine {
        /// Mean rate.
        bias: f64,
        /// Rate amplitude.
        amplitude: f64,
        /// Frequency \[Hz\].
        frequency: f64,
        /// Value at t = 0.
        offset: f64,
    },
    /// Rectangular pulse.
    Pulse {
        /// Value inside the pulse.
        value: f64,
        /// Start \[s\].
        from: f64,
        /// End \[s\].
        to: f64,
        /// Value outside the pulse.
        base: f64,
    },
    /// Haversine pulse `A sin²(π (t - start)/duration)`.
    Haversine {
        /// Peak value.
        amplitude: f64,
        /// Pulse duration \[s\].
        duration: f64,
        /// Start \[s\].
        start: f64,
    },
    /// Linearly interpolated table.
    Table {
        /// Sample times, strictly increasing.
        t: Vec<f64>,
        /// Values.
        v: Vec<f64>,
    },
    /// A signal set from outside (an FMU input); holds its start value in
    /// `friction run`.
    Input(InputSignal),
    /// Periodic rectangular pulses (Modelica.Blocks.Sources.Pulse):
    /// `offset + amplitude` on the first `duty` of every period from
    /// `start`, `offset` elsewhere.
    PulseTrain {
        /// Height of the pulses above `offset`.
        amplitude: f64,
        /// Period \[s\].
        period: f64,
        /// Fraction of the period at `offset + amplitude`, in (0, 1).
        duty: f64,
        /// Value between the pulses and before `start`.
        offset: f64,
        /// Start of the first period \[s\] (negative: a phase shift).
        start: f64,
    },
    /// Square wave: `offset + amplitude` on the first `duty` of every
    /// period from `start`, `offset - amplitude` on the rest, `offset`
    /// before `start`.
    Square {
        /// Half the peak-to-peak height.
        amplitude: f64,
        /// Period \[s\].
        period: f64,
        /// Fraction of the period at `offset + amplitude`, in (0, 1).
        duty: f64,
        /// Mean value (for `duty` = 0.5) and value before `start`.
        offset: f64,
        /// Start of the first period \[s\] (negative: a phase shift).
        start: f64,
    },
    /// Sawtooth (Modelica.Blocks.Sources.SawTooth): rises from `offset` to
    /// `offset + amplitude` over every period from `start`, then jumps back.
    Sawtooth {
        /// Rise over one period.
        amplitude: f64,
        /// Period \[s\].
        period: f64,
        /// Value at the start of every period and before `start`.
        offset: f64,
        /// Start of the first period \[s\] (negative: a phase shift).
        start: f64,
    },
    /// The sum of signals.
    Sum {
        /// The terms (at least one).
        terms: Vec<Schedule>,
    },
    /// The product of signals.
    Product {
        /// The factors (at least one).
        factors: Vec<Schedule>,
    },
    /// A signal limited to the window `[start, end)`, 0 outside.
    Window {
        /// Start of the window \[s\] (inside).
        start: f64,
        /// End of the window \[s\] (outside), greater than `start`.
        end: f64,
        /// The signal inside the window, evaluated at the simulation time.
        inner: Box<Schedule>,
    },
}

/// Time of the point `frac` (0: its start) of period `k` of a periodic
/// signal: the one formula of both its evaluation and its breakpoints, so
/// that the value at a reported breakpoint is the value after the jump.
#[inline]
fn edge(start: f64, period: f64, k: f64, frac: f64) -> f64 {
    start + (k + frac) * period
}

/// The origin of a periodic signal's grid of periods: `start` itself when it
/// is `>= 0`, otherwise `start` reduced modulo `period` into `(-period, 0]`.
///
/// The reduction is exact (the remainder of two doubles is a double, and
/// `%` computes it without rounding), so a train begun at `start = -1e20`
/// has its edges where the parameters put them, and no period index grows
/// beyond the periods of the run: no `k + 1 == k` above 2^53.
#[inline]
fn origin(start: f64, period: f64) -> f64 {
    if start >= 0.0 {
        start
    } else {
        start % period
    }
}

/// The period `k` that holds `t` (`edge(o, k, 0) <= t < edge(o, k + 1, 0)`)
/// on the grid of origin `o` ([`origin`]), by division: no loop, whatever
/// `t` and `o`.
fn period_index(t: f64, o: f64, period: f64) -> f64 {
    let k = ((t - o) / period).floor();
    if edge(o, period, k, 0.0) > t {
        k - 1.0
    } else if edge(o, period, k + 1.0, 0.0) <= t {
        k + 1.0
    } else {
        k
    }
}

/// A two-level periodic signal (pulse train, square wave): `before` until
/// `start`, then `high` on the first `duty` of every period and `low` on the
/// rest.
fn duty_level(t: f64, start: f64, period: f64, duty: f64, before: f64, high: f64, low: f64) -> f64 {
    if t < start {
        return before;
    }
    let o = origin(start, period);
    let k = period_index(t, o, period);
    if t < edge(o, period, k, duty) {
        high
    } else {
        low
    }
}

/// The edges of a periodic signal in `(0, t_end)`: every period's start and,
/// with `frac`, the point `frac` of every period.
///
/// In closed form: the first period that can have an edge after t = 0 and
/// the last one that starts before `t_end` come by division from the
/// reduced origin ([`origin`]), and the periods between are counted by an
/// integer; at most [`MAX_EDGES`] + 2 periods are listed (a run refuses a
/// signal with more edges, [`Schedule::check_finite`]), so the list is
/// bounded whatever `start`, `period` and `t_end`.
fn periodic_edges(start: f64, period: f64, frac: Option<f64>, t_end: f64) -> Vec<f64> {
    let o = origin(start, period);
    // period 0 of the grid is the first with an edge after t = 0: it starts
    // at `start` (>= 0) or at the reduced origin in (-period, 0]; the last
    // period that starts before t_end is number ceil((t_end - o) / period)
    let last = ((t_end - o) / period).ceil();
    if !last.is_finite() || last < 0.0 {
        return Vec::new();
    }
    let periods = (last + 1.0).min(MAX_EDGES + 2.0) as u64;
    let mut b = Vec::with_capacity(periods as usize * (1 + frac.is_some() as usize));
    for i in 0..periods {
        let k = i as f64;
        let t0 = edge(o, period, k, 0.0);
        if t0 >= t_end {
            break;
        }
        b.push(t0);
        if let Some(f) = frac {
            b.push(edge(o, period, k, f));
        }
    }
    b
}

/// (s, s', s'') of a product `p · f` by the product rule.
#[inline]
fn times(p: (f64, f64, f64), f: (f64, f64, f64)) -> (f64, f64, f64) {
    (p.0 * f.0, p.1 * f.0 + p.0 * f.1, p.2 * f.0 + 2.0 * p.1 * f.1 + p.0 * f.2)
}

mod bounds;
mod input;
mod parse;
#[cfg(test)]
mod tests;

pub use input::{InputQuantity, InputSignal};
pub use parse::{read_table, TYPES};

impl Schedule {
    /// Value, first and second derivative at `t` (right-sided at corners).
    #[inline]
    pub fn eval(&self, t: f64) -> (f64, f64, f64) {
        // constants and ramps (most drivers) inline: returned through memory
        // from a call, the triple stalled the loads that read it (a fifth of
        // the samples perf took in the evaluation of the LuGre stick-slip
        // example)
        match self {
            Schedule::Constant { value } => (*value, 0.0, 0.0),
            Schedule::Ramp { rate, offset, start } => {
                if t >= *start {
                    (offset + rate * (t - start), *rate, 0.0)
                } else {
                    (*offset, 0.0, 0.0)
                }
            }
            _ => self.eval_other(t),
        }
    }

    /// [`Schedule::eval`] of the other kinds.
    fn eval_other(&self, t: f64) -> (f64, f64, f64) {
        match self {
            Schedule::Constant { .. } | Schedule::Ramp { .. } => self.eval(t),
            Schedule::Step { amplitude, at, offset } => {
                (if t >= *at { offset + amplitude } else { *offset }, 0.0, 0.0)
            }
            Schedule::Sine { amplitude, frequency, phase, offset } => {
                let w = 2.0 * PI * frequency;
                let a = w * t + phase;
                (offset + amplitude * a.sin(), amplitude * w * a.cos(), -amplitude * w * w * a.sin())
            }
            Schedule::Chirp { amplitude, f0, f1, duration, offset } => {
                let (phi, f, df) = if t <= *duration {
                    let k = (f1 - f0) / duration;
                    (2.0 * PI * (f0 * t + 0.5 * k * t * t), f0 + k * t, k)
                } else {
                    let phi_end = 2.0 * PI * (f0 * duration + 0.5 * (f1 - f0) * duration);
                    (phi_end + 2.0 * PI * f1 * (t - duration), *f1, 0.0)
                };
                let w = 2.0 * PI * f;
                let dw = 2.0 * PI * df;
                (
                    offset + amplitude * phi.sin(),
                    amplitude * w * phi.cos(),
                    amplitude * (dw * phi.cos() - w * w * phi.sin()),
                )
            }
            Schedule::Points { points, speed } => {
                let mut t0 = 0.0;
                for w in points.windows(2) {
                    let dur = (w[1] - w[0]).abs() / speed;
                    if t < t0 + dur {
                        let dir = crate::sign(w[1] - w[0]);
                        return (w[0] + dir * speed * (t - t0), dir * speed, 0.0);
                    }
                    t0 += dur;
                }
                (*points.last().unwrap_or(&0.0), 0.0, 0.0)
            }
            Schedule::VelocitySine { bias, amplitude, frequency, offset } => {
                let w = 2.0 * PI * frequency;
                (
                    offset + bias * t + amplitude / w * (1.0 - (w * t).cos()),
                    bias + amplitude * (w * t).sin(),
                    amplitude * w * (w * t).cos(),
                )
            }
            Schedule::Pulse { value, from, to, base } => {
                (if t >= *from && t < *to { *value } else { *base }, 0.0, 0.0)
            }
            Schedule::Haversine { amplitude, duration, start } => {
                if t >= *start && t <= start + duration {
                    let a = PI * (t - start) / duration;
                    let w = PI / duration;
                    (
                        amplitude * a.sin().powi(2),
                        amplitude * w * (2.0 * a).sin(),
                        amplitude * 2.0 * w * w * (2.0 * a).cos(),
                    )
                } else {
                    (0.0, 0.0, 0.0)
                }
            }
            Schedule::Table { t: ts, v } => {
                if t <= ts[0] {
                    return (v[0], 0.0, 0.0);
                }
                let n = ts.len();
                if t == ts[n - 1] {
                    // the last sample belongs to the last segment (a run that ends
                    // there reports the motion it had, not the hold that follows)
                    return (v[n - 1], (v[n - 1] - v[n - 2]) / (ts[n - 1] - ts[n - 2]), 0.0);
                }
                if t > ts[n - 1] {
                    return (v[n - 1], 0.0, 0.0);
                }
                let i = ts.partition_point(|&x| x <= t) - 1;
                let slope = (v[i + 1] - v[i]) / (ts[i + 1] - ts[i]);
                (v[i] + slope * (t - ts[i]), slope, 0.0)
            }
            Schedule::Input(u) => u.eval(t),
            Schedule::PulseTrain { amplitude, period, duty, offset, start } => {
                let low = *offset;
                (duty_level(t, *start, *period, *duty, *offset, offset + amplitude, low), 0.0, 0.0)
            }
            Schedule::Square { amplitude, period, duty, offset, start } => {
                let low = offset - amplitude;
                (duty_level(t, *start, *period, *duty, *offset, offset + amplitude, low), 0.0, 0.0)
            }
            Schedule::Sawtooth { amplitude, period, offset, start } => {
                if t < *start {
                    return (*offset, 0.0, 0.0);
                }
                let o = origin(*start, *period);
                let k = period_index(t, o, *period);
                let rate = amplitude / period;
                (offset + rate * (t - edge(o, *period, k, 0.0)), rate, 0.0)
            }
            Schedule::Sum { terms } => terms.iter().fold((0.0, 0.0, 0.0), |a, s| {
                let e = s.eval(t);
                (a.0 + e.0, a.1 + e.1, a.2 + e.2)
            }),
            Schedule::Product { factors } => factors.iter().fold((1.0, 0.0, 0.0), |p, s| times(p, s.eval(t))),
            Schedule::Window { start, end, inner } => {
                if t >= *start && t < *end {
                    inner.eval(t)
                } else {
                    (0.0, 0.0, 0.0)
                }
            }
        }
    }

    /// The input behind this signal, if it is one.
    pub fn input(&self) -> Option<&InputSignal> {
        match self {
            Schedule::Input(u) => Some(u),
            _ => None,
        }
    }

    /// Value at `t`.
    #[inline]
    pub fn value(&self, t: f64) -> f64 {
        // constants (most normal loads) without the call: the engine asks
        // once per contact per evaluation (3 % of a chain's run)
        match self {
            Schedule::Constant { value } => *value,
            _ => self.eval(t).0,
        }
    }
}

impl From<f64> for Schedule {
    /// A constant signal.
    fn from(value: f64) -> Self {
        Schedule::Constant { value }
    }
}
