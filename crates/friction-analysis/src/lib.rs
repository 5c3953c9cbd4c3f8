//! # friction-analysis
//!
//! What engineers do with friction models once they have them: analyse
//! hysteresis loops, dissipation, damping and Stribeck curves; compare which
//! model shows which phenomenon; tune models to a target dissipation; and
//! identify parameters from measured data with confidence intervals.
#![warn(missing_docs)]
// Index loops over parallel sample arrays read best as such.
#![allow(clippy::needless_range_loop)]

pub mod data;
pub mod error;
pub mod fit;
mod fitplot;
pub mod lm;
pub mod synth;
pub mod tune;

pub use error::AnalysisError;
