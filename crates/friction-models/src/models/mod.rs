//! One module per model; each holds the model's equations, parameter table,
//! states and sources in its doc comment.

pub mod coulomb;
pub mod dahl;
pub mod maxwell_slip;
pub mod jenkins;
pub mod iwan4;
