//! # friction-analysis
//!
//! What engineers do with friction models once they have them: analyse
//! hysteresis loops, dissipation, damping and Stribeck curves; compare which
//! model shows which phenomenon; tune models to a target dissipation; and
//! identify parameters from measured data with confidence intervals.
//!
//! - [`data`]: CSV time series, validated;
//! - [`fit`]: parameter identification of any model (bounded
//!   Levenberg-Marquardt, standard errors, 95 % intervals, validation on
//!   held-out data, multi-start, plots);
//! - [`lm`]: the least-squares solver and its statistics;
//! - [`tune`]: tuning to a dissipation per cycle or a loop (the Sandia friction-model study);
//! - [`synth`]: synthetic measurements and the example data sets;
//! - [`compare`]: which model shows which friction phenomenon, by measurement
//!   (Olsson's Table 2.1), and the Daniel 2014 clutch comparison;
//! - [`figure`]: the one drawing entry point of the analyses' pictures.
//!
//! The harmonic balance (frequency responses, nonlinear modes, their
//! stability) is the crate `friction-hb`, above this one.
#![warn(missing_docs)]
// Index loops over parallel sample arrays read best as such.
#![allow(clippy::needless_range_loop)]

pub mod analysis;
pub mod compare;
pub mod data;
pub mod error;
pub mod figure;
pub mod fit;
mod fitplot;
pub mod lm;
pub mod synth;
pub mod tune;

pub use error::AnalysisError;
