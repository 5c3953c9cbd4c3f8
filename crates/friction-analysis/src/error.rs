//! Errors of analysis, comparison, tuning and identification.

use thiserror::Error;

/// Everything that can go wrong analysing data or fitting a model.
#[derive(Debug, Error)]
pub enum AnalysisError {
    /// Bad data: names the file, the line (when known) and the column.
    #[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Data {
        /// The data file.
        file: String,
        /// 1-based line number, when known.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A model or parameter problem (unknown model, bad value, not identifiable).
    #[error("{0}")]
    Model(String),
    /// A simulation failed.
    #[error(transparent)]
    Sim(#[from] friction_sim::SimError),
    /// A file could not be written.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// What happened.
        message: String,
    },
}

impl From<friction_models::ModelError> for AnalysisError {
    fn from(e: friction_models::ModelError) -> Self {
        AnalysisError::Model(e.to_string())
    }
}
