//! One module per model; each holds the model's equations, parameter table,
//! states and sources in its doc comment. The private module `regularised`
//! holds the code `stribeck_sat` and `stribeck_tanh` share.

pub mod armstrong;
pub mod bliman_sorine;
pub mod bliman_tire;
pub mod bouc_wen;
pub mod bristle;
pub mod classical;
pub mod coulomb;
pub mod coulomb_sat;
pub mod coulomb_tanh;
pub mod coulomb_viscous;
pub mod dahl;
pub mod dankowicz;
pub mod elasto_plastic;
pub mod freewheel;
pub mod friction_lag;
pub mod gms;
pub mod hess_soom;
pub mod iwan4;
pub mod iwan5;
pub mod jenkins;
pub mod karnopp;
pub mod leuven;
pub mod lugre;
pub mod magic_formula;
pub mod maxwell_slip;
pub mod meta_coulomb;
pub mod power_viscous;
pub mod rate_state;
mod regularised;
pub mod reset_integrator;
pub mod stochastic;
pub mod stribeck;
pub mod stribeck_dankowicz;
pub mod stribeck_exp;
pub mod stribeck_sat;
pub mod stribeck_tanh;
pub mod table;
pub mod viscous;
