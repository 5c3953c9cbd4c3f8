//! # friction-analysis
//!
//! What engineers do with friction models once they have them: analyse
//! hysteresis loops, dissipation, damping and Stribeck curves; compare which
//! model shows which phenomenon; tune models to a target dissipation; and
//! identify parameters from measured data with confidence intervals.
#![warn(missing_docs)]

pub mod data;
pub mod error;

pub use error::AnalysisError;
