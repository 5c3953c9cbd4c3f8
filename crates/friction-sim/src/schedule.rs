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
//! ```
//!
//! # Inputs
//!
//! `{ type = "input", name = "u", start = 0.0 }` makes a force, a normal
//! load or a driver's motion an input of the FMU that `friction fmu` exports:
//! the co-simulation master sets it at every communication point and it is
//! held constant until the next one. In `friction run` (no master) it holds
//! `start` for the whole run. `name` follows
//! [`check_name`](crate::scenario::check_name) and is unique among the
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
/// [`System`](crate::scenario::System) parsed afresh has fresh inputs.
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
            _ => vec![],
        };
        b.retain(|&x| x > 0.0 && x < t_end);
        b
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
        Ok(())
    }

    /// Parse from a TOML table; `what` names the table in error messages.
    pub fn from_toml(tab: &toml::Table, what: &str, base_dir: &Path) -> Result<Schedule, String> {
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
        Ok(match ty {
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
                crate::scenario::check_name(&name).map_err(|e| format!("{what}: `name`: {e}"))?;
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
