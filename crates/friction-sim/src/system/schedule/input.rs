//! Inputs (`type = "input"`): a signal whose value (or rate) the caller
//! sets between steps (an FMU's master, a co-simulation), held until set
//! again.

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

    pub(super) fn eval(&self, t: f64) -> (f64, f64, f64) {
        let h = self.held();
        match self.quantity {
            InputQuantity::Value => (h.u, 0.0, 0.0),
            InputQuantity::Velocity => (h.s0 + h.u * (t - h.t0), h.u, 0.0),
        }
    }
}
