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
use std::sync::{Arc, Mutex};

/// Deepest nesting of composed schedules (`sum`, `product`, `window`): a
/// window of a sum of a product is 3 levels.
pub const MAX_DEPTH: usize = 16;

/// Most `terms` of a `sum` or `factors` of a `product`.
pub const MAX_TERMS: usize = 256;

/// Most edges (jumps) that the periodic signals of one schedule may have in
/// [0, t_end]: each is a breakpoint where the integrator restarts.
pub const MAX_EDGES: f64 = 1e6;

/// What an [`InputSignal`] sets: the signal itself or its rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputQuantity {
    /// The input is the signal's value (for a driver: its position).
    Value,
    /// The input is the signal's rate ds/dt (for a driver: its velocity);
    /// the signal is `offset` plus the integral of the input.
    Velocity,
}

/// The value an input holds since the last time it was set.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Held {
    /// When it was last set \[s\].
    t0: f64,
    /// The signal at `t0`.
    s0: f64,
    /// The input's value since `t0`.
    u: f64,
}

/// A signal set from outside the simulation (`type = "input"`): an FMU input.
///
/// It holds `start` until [`InputSignal::set`] changes it. Clones share the
/// held value, so the engine sees what the owner of a clone sets; a
/// [`System`](crate::system::System) parsed afresh has fresh inputs.
///
/// ```
/// use friction_sim::schedule::{InputQuantity, InputSignal, Schedule};
/// let u = InputSignal::new("v", 0.5, InputQuantity::Velocity, 1.0);
/// let s = Schedule::Input(u.clone());
/// assert_eq!(s.eval(2.0), (2.0, 0.5, 0.0)); // 1 + 0.5 t
/// u.set(2.0, -1.0); // from t = 2 the velocity is -1
/// assert_eq!(s.eval(3.0), (1.0, -1.0, 0.0));
/// ```
#[derive(Debug, Clone)]
pub struct InputSignal {
    /// The input's name (an FMU variable name).
    pub name: String,
    /// The value until it is first set.
    pub start: f64,
    /// Whether the input is the signal or its rate.
    pub quantity: InputQuantity,
    /// The signal at t = 0 for a [`InputQuantity::Velocity`] input.
    pub offset: f64,
    held: Arc<Mutex<Held>>,
}

impl PartialEq for InputSignal {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name && self.start == o.start && self.quantity == o.quantity && self.offset == o.offset
    }
}

impl InputSignal {
    /// An input that holds `start` from t = 0.
    pub fn new(name: &str, start: f64, quantity: InputQuantity, offset: f64) -> Self {
        let held = Held { t0: 0.0, s0: offset, u: start };
        InputSignal { name: name.to_string(), start, quantity, offset, held: Arc::new(Mutex::new(held)) }
    }

    fn held(&self) -> Held {
        *self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The input's current value.
    pub fn get(&self) -> f64 {
        self.held().u
    }

    /// Set the input to `u` from time `t` on (a velocity input keeps its
    /// signal continuous at `t`).
    pub fn set(&self, t: f64, u: f64) {
        let mut h = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if self.quantity == InputQuantity::Velocity {
            h.s0 += h.u * (t - h.t0);
        }
        h.t0 = t;
        h.u = u;
    }

    /// Back to `start` at t = 0.
    pub fn reset(&self) {
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) =
            Held { t0: 0.0, s0: self.offset, u: self.start };
    }

    fn eval(&self, t: f64) -> (f64, f64, f64) {
        let h = self.held();
        match self.quantity {
            InputQuantity::Value => (h.u, 0.0, 0.0),
            InputQuantity::Velocity => (h.s0 + h.u * (t - h.t0), h.u, 0.0),
        }
    }
}

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

/// The period `k` that holds `t` (`edge(k, 0) <= t < edge(k + 1, 0)`), for
/// `t >= start`.
fn period_index(t: f64, start: f64, period: f64) -> f64 {
    let mut k = ((t - start) / period).floor().max(0.0);
    if edge(start, period, k, 0.0) > t && k > 0.0 {
        k -= 1.0;
    } else if edge(start, period, k + 1.0, 0.0) <= t {
        k += 1.0;
    }
    k
}

/// A two-level periodic signal (pulse train, square wave): `before` until
/// `start`, then `high` on the first `duty` of every period and `low` on the
/// rest.
fn duty_level(t: f64, start: f64, period: f64, duty: f64, before: f64, high: f64, low: f64) -> f64 {
    if t < start {
        return before;
    }
    let k = period_index(t, start, period);
    if t < edge(start, period, k, duty) {
        high
    } else {
        low
    }
}

/// The edges of a periodic signal in `(0, t_end)`: every period's start and,
/// with `frac`, the point `frac` of every period.
fn periodic_edges(start: f64, period: f64, frac: Option<f64>, t_end: f64) -> Vec<f64> {
    let mut b = Vec::new();
    let mut k = if start < 0.0 { (-start / period).floor().max(0.0) } else { 0.0 };
    while edge(start, period, k, 0.0) < t_end {
        b.push(edge(start, period, k, 0.0));
        if let Some(f) = frac {
            b.push(edge(start, period, k, f));
        }
        k += 1.0;
    }
    b
}

/// (s, s', s'') of a product `p · f` by the product rule.
#[inline]
fn times(p: (f64, f64, f64), f: (f64, f64, f64)) -> (f64, f64, f64) {
    (p.0 * f.0, p.1 * f.0 + p.0 * f.1, p.2 * f.0 + 2.0 * p.1 * f.1 + p.0 * f.2)
}

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
                let k = period_index(t, *start, *period);
                let rate = amplitude / period;
                (offset + rate * (t - edge(*start, *period, k, 0.0)), rate, 0.0)
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

    /// Parse from a TOML table; `what` names the table in error messages
    /// (the parts of a composed schedule as `what.terms[1]`, `what.inner`).
    pub fn from_toml(tab: &toml::Table, what: &str, base_dir: &Path) -> Result<Schedule, String> {
        Self::from_toml_at(tab, what, base_dir, 1)
    }

    /// A part of a composed schedule: a number (a constant) or a table, at
    /// nesting level `depth`.
    fn part_from_toml(
        v: &toml::Value,
        what: &str,
        base_dir: &Path,
        depth: usize,
    ) -> Result<Schedule, String> {
        match v {
            toml::Value::Float(x) if x.is_finite() => Ok(Schedule::Constant { value: *x }),
            toml::Value::Integer(i) => Ok(Schedule::Constant { value: *i as f64 }),
            toml::Value::Table(t) => Self::from_toml_at(t, what, base_dir, depth),
            other => Err(format!("{what}: expected a finite number or a schedule table, found {other}")),
        }
    }

    /// [`Schedule::from_toml`] at nesting level `depth` (1: the signal itself).
    fn from_toml_at(
        tab: &toml::Table,
        what: &str,
        base_dir: &Path,
        depth: usize,
    ) -> Result<Schedule, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "{what}: schedules nested {depth} levels deep; valid: at most {MAX_DEPTH} levels of \
                 sum, product and window"
            ));
        }
        let ty = match tab.get("type") {
            Some(toml::Value::String(s)) => s.as_str(),
            Some(v) => return Err(format!("{what}: `type` must be a string, found {v}")),
            None => return Err(format!("{what}: missing key `type` (one of {})", TYPES.join(", "))),
        };
        let allowed: &[&str] = match ty {
            "constant" => &["value"],
            "step" => &["amplitude", "at", "offset"],
            "ramp" => &["rate", "offset", "start"],
            "sine" => &["amplitude", "frequency", "phase", "offset"],
            "chirp" => &["amplitude", "f0", "f1", "duration", "offset"],
            "points" => &["points", "speed"],
            "velocity_sine" => &["bias", "amplitude", "frequency", "offset"],
            "pulse" => &["value", "from", "to", "base"],
            "haversine" => &["amplitude", "duration", "start"],
            "table" => &["file"],
            "input" => &["name", "start", "quantity", "offset"],
            "pulse_train" | "square" => &["amplitude", "period", "duty", "offset", "start"],
            "sawtooth" => &["amplitude", "period", "offset", "start"],
            "sum" => &["terms"],
            "product" => &["factors"],
            "window" => &["start", "end", "inner"],
            other => {
                return Err(format!(
                    "{what}: unknown type \"{other}\"{}; valid types: {}",
                    friction_models::suggest::did_you_mean(other, TYPES.iter().copied()),
                    TYPES.join(", ")
                ))
            }
        };
        for k in tab.keys() {
            if k != "type" && !allowed.contains(&k.as_str()) {
                return Err(format!(
                    "{what}: unknown key `{k}` for type \"{ty}\"{}; valid keys: type, {}",
                    friction_models::suggest::did_you_mean(k, allowed.iter().copied()),
                    allowed.join(", ")
                ));
            }
        }
        let num = |k: &str, default: Option<f64>, lo: f64, lo_open: bool| -> Result<f64, String> {
            let x = match tab.get(k) {
                Some(toml::Value::Float(x)) => *x,
                Some(toml::Value::Integer(i)) => *i as f64,
                Some(v) => return Err(format!("{what}: `{k}` must be a number, found {v}")),
                None => match default {
                    Some(d) => d,
                    None => return Err(format!("{what}: missing key `{k}` (type \"{ty}\")")),
                },
            };
            let ok = x.is_finite() && if lo_open { x > lo } else { x >= lo };
            if !ok {
                let l = if lo_open { "(" } else { "[" };
                let lo_s = if lo == f64::NEG_INFINITY { "-inf".to_string() } else { lo.to_string() };
                return Err(format!("{what}: `{k}` = {x} is out of range; valid range {l}{lo_s}, inf)"));
            }
            Ok(x)
        };
        let any = f64::NEG_INFINITY;
        let list = |k: &str| -> Result<Vec<Schedule>, String> {
            let a = match tab.get(k) {
                Some(toml::Value::Array(a)) => a,
                Some(v) => {
                    return Err(format!("{what}: `{k}` must be an array of schedules or numbers, found {v}"))
                }
                None => return Err(format!("{what}: missing key `{k}` (type \"{ty}\")")),
            };
            if a.is_empty() || a.len() > MAX_TERMS {
                return Err(format!(
                    "{what}: `{k}` has {} entries; valid: 1 to {MAX_TERMS} schedules or numbers",
                    a.len()
                ));
            }
            a.iter()
                .enumerate()
                .map(|(i, v)| Self::part_from_toml(v, &format!("{what}.{k}[{i}]"), base_dir, depth + 1))
                .collect()
        };
        let periodic = |with_duty: bool| -> Result<(f64, f64, f64, f64, f64), String> {
            let amplitude = num("amplitude", None, any, true)?;
            let period = num("period", None, 0.0, true)?;
            let duty = if with_duty { num("duty", Some(0.5), 0.0, true)? } else { 0.0 };
            if duty >= 1.0 {
                return Err(format!("{what}: `duty` = {duty} is out of range; valid range (0, 1)"));
            }
            let offset = num("offset", Some(0.0), any, true)?;
            let start = num("start", Some(0.0), any, true)?;
            Ok((amplitude, period, duty, offset, start))
        };
        if ty == "input" && depth > 1 {
            return Err(format!(
                "{what}: an input cannot be part of a sum, product or window (an FMU input is a whole \
                 signal); valid: a top-level `value`, `normal` or `motion` (a force that is an input plus \
                 a known signal is two [[force]] tables on the same body)"
            ));
        }
        Ok(match ty {
            "pulse_train" | "square" => {
                let (amplitude, period, duty, offset, start) = periodic(true)?;
                if ty == "square" {
                    Schedule::Square { amplitude, period, duty, offset, start }
                } else {
                    Schedule::PulseTrain { amplitude, period, duty, offset, start }
                }
            }
            "sawtooth" => {
                let (amplitude, period, _, offset, start) = periodic(false)?;
                Schedule::Sawtooth { amplitude, period, offset, start }
            }
            "sum" => Schedule::Sum { terms: list("terms")? },
            "product" => Schedule::Product { factors: list("factors")? },
            "window" => {
                let start = num("start", Some(0.0), 0.0, false)?;
                let end = num("end", None, 0.0, true)?;
                if end <= start {
                    return Err(format!(
                        "{what}: `end` = {end} must be greater than `start` = {start}; valid range ({start}, inf)"
                    ));
                }
                let inner = match tab.get("inner") {
                    Some(v) => Self::part_from_toml(v, &format!("{what}.inner"), base_dir, depth + 1)?,
                    None => return Err(format!("{what}: missing key `inner` (type \"window\")")),
                };
                Schedule::Window { start, end, inner: Box::new(inner) }
            }
            "constant" => Schedule::Constant { value: num("value", None, any, true)? },
            "step" => Schedule::Step {
                amplitude: num("amplitude", None, any, true)?,
                at: num("at", Some(0.0), 0.0, false)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "ramp" => Schedule::Ramp {
                rate: num("rate", None, any, true)?,
                offset: num("offset", Some(0.0), any, true)?,
                start: num("start", Some(0.0), 0.0, false)?,
            },
            "sine" => Schedule::Sine {
                amplitude: num("amplitude", None, any, true)?,
                frequency: num("frequency", None, 0.0, true)?,
                phase: num("phase", Some(0.0), any, true)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "chirp" => Schedule::Chirp {
                amplitude: num("amplitude", None, any, true)?,
                f0: num("f0", None, 0.0, false)?,
                f1: num("f1", None, 0.0, false)?,
                duration: num("duration", None, 0.0, true)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "points" => {
                let pts = match tab.get("points") {
                    Some(toml::Value::Array(a)) => a
                        .iter()
                        .map(|v| match v {
                            toml::Value::Float(x) if x.is_finite() => Ok(*x),
                            toml::Value::Integer(i) => Ok(*i as f64),
                            other => {
                                Err(format!("{what}: `points` entries must be finite numbers, found {other}"))
                            }
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    Some(v) => {
                        return Err(format!("{what}: `points` must be an array of numbers, found {v}"))
                    }
                    None => return Err(format!("{what}: missing key `points` (type \"points\")")),
                };
                if pts.len() < 2 {
                    return Err(format!("{what}: `points` needs at least 2 entries, found {}", pts.len()));
                }
                Schedule::Points { points: pts, speed: num("speed", None, 0.0, true)? }
            }
            "velocity_sine" => Schedule::VelocitySine {
                bias: num("bias", Some(0.0), any, true)?,
                amplitude: num("amplitude", None, any, true)?,
                frequency: num("frequency", None, 0.0, true)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "pulse" => {
                let from = num("from", None, 0.0, false)?;
                let to = num("to", None, 0.0, false)?;
                if to <= from {
                    return Err(format!("{what}: `to` = {to} must be greater than `from` = {from}"));
                }
                Schedule::Pulse {
                    value: num("value", None, any, true)?,
                    from,
                    to,
                    base: num("base", Some(0.0), any, true)?,
                }
            }
            "haversine" => Schedule::Haversine {
                amplitude: num("amplitude", None, any, true)?,
                duration: num("duration", None, 0.0, true)?,
                start: num("start", Some(0.0), 0.0, false)?,
            },
            "input" => {
                let name = match tab.get("name") {
                    Some(toml::Value::String(s)) => s.clone(),
                    Some(v) => return Err(format!("{what}: `name` must be a string, found {v}")),
                    None => return Err(format!("{what}: missing key `name` (type \"input\")")),
                };
                crate::system::check_name(&name).map_err(|e| format!("{what}: `name`: {e}"))?;
                let quantity = match tab.get("quantity") {
                    None => InputQuantity::Value,
                    Some(toml::Value::String(s)) if s == "value" => InputQuantity::Value,
                    Some(toml::Value::String(s)) if s == "velocity" => InputQuantity::Velocity,
                    Some(v) => {
                        return Err(format!(
                            "{what}: `quantity` = {v} is not valid; valid: \"value\", \"velocity\""
                        ))
                    }
                };
                if quantity == InputQuantity::Value && tab.contains_key("offset") {
                    return Err(format!(
                        "{what}: `offset` is the initial signal of a `quantity = \"velocity\"` input; \
                         a \"value\" input starts at `start`"
                    ));
                }
                let start = num("start", None, any, true)?;
                let offset = num("offset", Some(0.0), any, true)?;
                Schedule::Input(InputSignal::new(&name, start, quantity, offset))
            }
            _ => {
                let file = match tab.get("file") {
                    Some(toml::Value::String(s)) => s.clone(),
                    Some(v) => return Err(format!("{what}: `file` must be a string, found {v}")),
                    None => return Err(format!("{what}: missing key `file` (type \"table\")")),
                };
                let path = base_dir.join(&file);
                let (t, v) = read_table(&path).map_err(|e| format!("{what}: {e}"))?;
                Schedule::Table { t, v }
            }
        })
    }
}

/// Valid schedule types.
pub const TYPES: &[&str] = &[
    "constant",
    "step",
    "ramp",
    "sine",
    "chirp",
    "points",
    "velocity_sine",
    "pulse",
    "haversine",
    "table",
    "input",
    "pulse_train",
    "square",
    "sawtooth",
    "sum",
    "product",
    "window",
];

/// Read a two-column CSV (header row, then `t, value` rows).
pub fn read_table(path: &Path) -> Result<(Vec<f64>, Vec<f64>), String> {
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_path(path)
        .map_err(|e| format!("cannot read table file {}: {e}", path.display()))?;
    let (mut t, mut v) = (Vec::new(), Vec::new());
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| format!("{}:{line}: {e}", path.display()))?;
        if rec.len() < 2 {
            return Err(format!(
                "{}:{line}: expected 2 columns (t, value), found {}",
                path.display(),
                rec.len()
            ));
        }
        let parse = |s: &str, col: &str| -> Result<f64, String> {
            let x: f64 = s
                .parse()
                .map_err(|_| format!("{}:{line}: column `{col}`: `{s}` is not a number", path.display()))?;
            if !x.is_finite() {
                return Err(format!("{}:{line}: column `{col}`: {x} is not finite", path.display()));
            }
            Ok(x)
        };
        let ti = parse(&rec[0], "t")?;
        if let Some(&last) = t.last() {
            if ti <= last {
                return Err(format!(
                    "{}:{line}: time {ti} is not greater than the previous {last}; times must increase strictly",
                    path.display()
                ));
            }
        }
        t.push(ti);
        v.push(parse(&rec[1], "value")?);
    }
    if t.len() < 2 {
        return Err(format!("{}: a table needs at least 2 rows, found {}", path.display(), t.len()));
    }
    Ok((t, v))
}

impl From<f64> for Schedule {
    /// A constant signal.
    fn from(value: f64) -> Self {
        Schedule::Constant { value }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derivative returned with each signal matches a central difference of its value.
    #[test]
    fn derivatives_match_finite_differences() {
        let scheds = [
            Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: 1.0 },
            Schedule::Chirp { amplitude: 1.0, f0: 1.0, f1: 5.0, duration: 2.0, offset: 0.0 },
            Schedule::VelocitySine { bias: 0.1, amplitude: 0.5, frequency: 2.0, offset: 0.0 },
            Schedule::Haversine { amplitude: 3.0, duration: 0.5, start: 0.1 },
            Schedule::Points { points: vec![0.0, 1.0, -1.0], speed: 2.0 },
            Schedule::Sawtooth { amplitude: 2.0, period: 0.5, offset: 1.0, start: 0.0 },
            Schedule::Sum {
                terms: vec![
                    Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: 1.0 },
                    Schedule::Haversine { amplitude: 3.0, duration: 5.0, start: 0.1 },
                ],
            },
            Schedule::Product {
                factors: vec![
                    Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: 1.0 },
                    Schedule::VelocitySine { bias: 0.1, amplitude: 0.5, frequency: 2.0, offset: 0.3 },
                    Schedule::Ramp { rate: 0.5, offset: 1.0, start: 0.0 },
                ],
            },
            Schedule::Window {
                start: 0.1,
                end: 3.0,
                inner: Box::new(Schedule::Product {
                    factors: vec![
                        Schedule::Chirp { amplitude: 1.0, f0: 1.0, f1: 5.0, duration: 2.0, offset: 0.0 },
                        Schedule::Sum {
                            terms: vec![
                                Schedule::Constant { value: 2.0 },
                                Schedule::Ramp { rate: 1.0, offset: 0.0, start: 0.0 },
                            ],
                        },
                    ],
                }),
            },
        ];
        for s in &scheds {
            for t in [0.13, 0.37, 0.71, 1.33, 2.9] {
                let h = 1e-6;
                let fd = (s.value(t + h) - s.value(t - h)) / (2.0 * h);
                let fd2 = (s.eval(t + h).1 - s.eval(t - h).1) / (2.0 * h);
                let (_, d, dd) = s.eval(t);
                assert!((fd - d).abs() < 1e-5 * (1.0 + d.abs()), "{s:?} at {t}: {fd} vs {d}");
                assert!((fd2 - dd).abs() < 1e-4 * (1.0 + dd.abs()), "{s:?} at {t}: {fd2} vs {dd}");
            }
        }
    }

    /// The bounds of a composed signal enclose its values, and its rate
    /// bounds its rates, at many times.
    #[test]
    fn composed_bounds_enclose_the_signal() {
        let s = Schedule::Sum {
            terms: vec![
                Schedule::Product {
                    factors: vec![
                        Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: -1.0 },
                        Schedule::Ramp { rate: -0.5, offset: 1.0, start: 0.2 },
                    ],
                },
                Schedule::Window {
                    start: 0.5,
                    end: 1.5,
                    inner: Box::new(Schedule::Constant { value: -4.0 }),
                },
                Schedule::Square { amplitude: 1.0, period: 0.3, duty: 0.2, offset: 0.5, start: 0.1 },
            ],
        };
        let (lo, hi) = s.bounds(3.0);
        let (d1, d2) = s.rate_bounds(3.0);
        for i in 0..=3000 {
            let (x, v, a) = s.eval(i as f64 * 1e-3);
            assert!(lo <= x && x <= hi, "{x} outside [{lo}, {hi}]");
            assert!(v.abs() <= d1 && a.abs() <= d2, "rates {v}, {a} above {d1}, {d2}");
        }
        assert!(hi - lo < 20.0, "[{lo}, {hi}]");
    }

    #[test]
    fn points_visit_turning_points_at_the_right_times() {
        let s = Schedule::Points { points: vec![0.0, 2e-5, -1e-5], speed: 1e-4 };
        assert_eq!(s.breakpoints(10.0), vec![0.2, 0.5]);
        assert!((s.value(0.2) - 2e-5).abs() < 1e-18);
        assert!((s.value(0.5) + 1e-5).abs() < 1e-18);
        assert_eq!(s.value(0.7), -1e-5);
    }

    #[test]
    fn bad_inputs_name_key_and_value() {
        let parse = |s: &str| {
            let t: toml::Table = toml::from_str(s).unwrap();
            Schedule::from_toml(&t, "force \"f\" value", Path::new(".")).unwrap_err()
        };
        let e = parse("type = \"input\"\nname = \"u\"\nstart = 0\nquantity = \"position\"");
        assert!(e.contains("quantity") && e.contains("position") && e.contains("\"velocity\""), "{e}");
        let e = parse("type = \"input\"\nname = \"a/b\"\nstart = 0");
        assert!(e.contains("`name`") && e.contains("a/b"), "{e}");
        let e = parse("type = \"input\"\nname = \"u\"");
        assert!(e.contains("missing key `start`"), "{e}");
        let e = parse("type = \"input\"\nname = \"u\"\nstart = 1\noffset = 2");
        assert!(e.contains("offset") && e.contains("velocity"), "{e}");
    }

    /// Two inputs of one name would be one FMU variable: refused with the
    /// line and the name.
    #[test]
    fn input_names_are_unique_per_scenario() {
        let text = "[[body]]\nname = \"m\"\nmass = 1.0\n\
                    [[force]]\non = \"m\"\nvalue = { type = \"input\", name = \"u\", start = 0 }\n\
                    [[contact]]\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\n\
                    normal = { type = \"input\", name = \"u\", start = 1 }\n[solver]\nt_end = 1.0\n";
        let e = crate::scenario::parse(text, "s.toml", Path::new(".")).unwrap_err().to_string();
        assert!(e.contains("s.toml:10") && e.contains("\"u\" is used twice"), "{e}");
    }

    /// A velocity input integrates: continuous position, the rate jumping
    /// where it is set; in `friction run` (never set) it is a ramp.
    #[test]
    fn velocity_input_integrates_what_it_holds() {
        let u = InputSignal::new("v", 2.0, InputQuantity::Velocity, 1.0);
        let s = Schedule::Input(u.clone());
        assert_eq!(s.bounds(3.0), (1.0, 7.0));
        u.set(1.0, -1.0);
        u.set(2.0, 0.5);
        assert_eq!(s.eval(4.0), (3.0 - 1.0 + 1.0, 0.5, 0.0));
        u.reset();
        assert_eq!(s.eval(1.0), (3.0, 2.0, 0.0));
    }

    #[test]
    fn bad_schedules_name_key_value_and_range() {
        let t: toml::Table = toml::from_str("type = \"points\"\npoints = [0.0, 1.0]\nspeed = -1.0").unwrap();
        let e = Schedule::from_toml(&t, "driver `d` motion", Path::new(".")).unwrap_err();
        assert!(e.contains("speed") && e.contains("-1") && e.contains("(0, inf)"), "{e}");
        let t: toml::Table = toml::from_str("type = \"wobble\"").unwrap();
        let e = Schedule::from_toml(&t, "x", Path::new(".")).unwrap_err();
        assert!(e.contains("wobble") && e.contains("sine"), "{e}");
        let t: toml::Table =
            toml::from_str("type = \"sine\"\namplitude = 1\nfrequency = 2\nfreq = 3").unwrap();
        let e = Schedule::from_toml(&t, "x", Path::new(".")).unwrap_err();
        assert!(e.contains("freq"), "{e}");
    }
}
