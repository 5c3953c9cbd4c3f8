//! The per-contact state layout shared by [`update`](super::update), the C
//! library and the Python package.
//!
//! ```text
//! state of one contact = [t, x, z_0 .. z_{n_states-1}, mem_0 .. mem_{n_memory-1}]
//! t    the contact's own time [s], advanced by dt on every update
//! x    the accumulated relative slip [m] (or [rad]), advanced by the slip increment
//! z    the model's continuous states (FrictionModel::n_states)
//! mem  the model's discrete memory (FrictionModel::n_memory)
//! ```
//!
//! Hysteresis operators need the absolute slip `x` (their sliders remember
//! positions); time-dependent models (`hess_soom`, `stochastic`) need `t`.
//! `n` contacts are stored one after the other: contact `i` occupies
//! `state[i * len .. (i + 1) * len]` with `len = state_len(model)`.

use crate::model::FrictionModel;

/// Index of the contact's time `t` in its state.
pub const T: usize = 0;
/// Index of the accumulated slip `x` in its state.
pub const X: usize = 1;
/// Index of the first continuous state `z_0`.
pub const Z: usize = 2;

/// The layout of one contact's state for a given model.
///
/// ```
/// use friction_models::{build, ParamMap};
/// use friction_models::update::Layout;
/// let m = build("lugre", &ParamMap::new()).unwrap();
/// let l = Layout::of(&m);
/// assert_eq!((l.len(), l.z(), l.mem()), (3, 2..3, 3..3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Number of continuous states `z`.
    pub n_states: usize,
    /// Number of discrete memory values `mem`.
    pub n_memory: usize,
}

impl Layout {
    /// The layout of `m`'s contacts.
    pub fn of<M: FrictionModel + ?Sized>(m: &M) -> Self {
        Layout { n_states: m.n_states(), n_memory: m.n_memory() }
    }

    /// Doubles per contact: `2 + n_states + n_memory`.
    pub fn len(&self) -> usize {
        Z + self.n_states + self.n_memory
    }

    /// Never empty: a contact always stores at least `t` and `x`.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Index range of the continuous states `z` within a contact's state.
    pub fn z(&self) -> std::ops::Range<usize> {
        Z..Z + self.n_states
    }

    /// Index range of the discrete memory within a contact's state.
    pub fn mem(&self) -> std::ops::Range<usize> {
        Z + self.n_states..self.len()
    }
}
