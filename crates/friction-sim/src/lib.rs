//! # friction-sim
//!
//! Scenario files, the simulation engine (true stick and slip, events,
//! diffsol's stiff and non-stiff solvers) and result output for the
//! `friction` toolkit.
#![warn(missing_docs)]

pub mod drive;
pub mod engine;
pub mod error;
pub mod output;
pub mod scenario;
pub mod scenario_schema;
pub mod schedule;
pub mod units;

pub use engine::{simulate, Event, Mode, Outcome};
pub use error::SimError;
pub use scenario::System;

/// Sign with `sign(0) = 0`.
#[inline]
pub fn sign(x: f64) -> f64 {
    friction_models::sign(x)
}
