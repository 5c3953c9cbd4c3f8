//! Errors raised while building or validating a friction model.

use thiserror::Error;

/// Everything that can go wrong when a model is built from user parameters.
///
/// Every variant names the model, and where it applies the parameter, the
/// offending value and the valid range, so that a front end can turn it into
/// a message pointing at the file and line the value came from.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ModelError {
    /// The model id is not in the registry.
    #[error("unknown model `{id}`{}; known models: {known}", hint(id, known))]
    UnknownModel {
        /// The id that was asked for.
        id: String,
        /// Comma-separated list of valid ids.
        known: String,
    },
    /// A parameter name the model does not have.
    #[error("model `{model}` has no parameter `{name}`{}; valid parameters: {valid}", hint(name, valid))]
    UnknownParam {
        /// Model id.
        model: &'static str,
        /// The unknown name.
        name: String,
        /// Comma-separated list of the model's parameters.
        valid: String,
    },
    /// A required parameter was not given.
    #[error("model `{model}`: parameter `{name}` is required ({unit}, valid range {range})")]
    MissingParam {
        /// Model id.
        model: &'static str,
        /// Parameter name.
        name: &'static str,
        /// Unit of the parameter.
        unit: &'static str,
        /// Valid range, human readable.
        range: String,
    },
    /// A numeric parameter outside its valid range.
    #[error("model `{model}`: parameter `{name}` = {value} is out of range; valid range {range} {unit}")]
    OutOfRange {
        /// Model id.
        model: &'static str,
        /// Parameter name.
        name: String,
        /// The rejected value.
        value: f64,
        /// Valid range, human readable.
        range: String,
        /// Unit of the parameter.
        unit: &'static str,
    },
    /// A parameter of the wrong kind (a string where a number is expected, ...).
    #[error("model `{model}`: parameter `{name}` must be {expected}, found {found}")]
    WrongType {
        /// Model id.
        model: &'static str,
        /// Parameter name.
        name: String,
        /// What was expected.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A constraint between parameters is violated (for example `fs >= fc`).
    #[error("model `{model}`: parameter `{name}` = {value}: {message}")]
    Constraint {
        /// Model id.
        model: &'static str,
        /// Parameter the constraint is reported on.
        name: &'static str,
        /// Its value.
        value: f64,
        /// What the constraint is.
        message: String,
    },
}

impl ModelError {
    /// The parameter this error is about, if any (used to point at a line).
    pub fn param(&self) -> Option<&str> {
        match self {
            ModelError::UnknownModel { .. } => None,
            ModelError::UnknownParam { name, .. }
            | ModelError::OutOfRange { name, .. }
            | ModelError::WrongType { name, .. } => Some(name),
            ModelError::MissingParam { name, .. } | ModelError::Constraint { name, .. } => Some(name),
        }
    }
}

/// The suggestion for `word` among the comma-separated `list`.
fn hint(word: &str, list: &str) -> String {
    crate::suggest::did_you_mean(word, list.split(',').map(str::trim))
}

impl From<std::convert::Infallible> for ModelError {
    fn from(e: std::convert::Infallible) -> Self {
        match e {}
    }
}

/// The message of a caught panic (`std::panic::catch_unwind`'s payload): the
/// text given to `panic!`, or `"unknown panic"`. Every face that keeps a
/// panic from crossing its boundary (C, Python, FMU, the explorer) reports it
/// with this.
///
/// ```
/// let p = std::panic::catch_unwind(|| panic!("boom {}", 1)).unwrap_err();
/// assert_eq!(friction_models::error::panic_message(p.as_ref()), "boom 1");
/// let p = std::panic::catch_unwind(|| std::panic::panic_any(7)).unwrap_err();
/// assert_eq!(friction_models::error::panic_message(p.as_ref()), "unknown panic");
/// ```
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".to_string())
}
