//! One module per model; each holds the model's equations, parameter table,
//! states and sources in its doc comment.

pub mod bliman_sorine;
pub mod bouc_wen;
pub mod coulomb;
pub mod dahl;
pub mod dankowicz;
pub mod elasto_plastic;
pub mod gms;
pub mod leuven;
pub mod lugre;
pub mod maxwell_slip;
pub mod meta_coulomb;
pub mod stochastic;
pub mod stribeck_dankowicz;
