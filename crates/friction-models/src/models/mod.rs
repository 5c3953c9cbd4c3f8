//! One module per model; each holds the model's equations, parameter table,
//! states and sources in its doc comment.

pub mod armstrong;
pub mod bristle;
pub mod coulomb;
pub mod dahl;
pub mod friction_lag;
pub mod iwan4;
pub mod iwan5;
pub mod jenkins;
pub mod maxwell_slip;
pub mod rate_state;
pub mod reset_integrator;
