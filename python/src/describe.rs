//! The model catalogue: [`friction_models::catalogue`], the description every
//! face shares (schema: `docs/model.schema.json`).

use friction_models::{all, catalogue};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Every model id, in the registry's order.
#[pyfunction]
pub fn models() -> Vec<&'static str> {
    all().iter().map(|m| m.id).collect()
}

/// The description of model `id` as JSON text (the catalogue's, the same as
/// the C library's `friction_model_describe` and `friction models ID --json`).
#[pyfunction]
pub fn describe_json(id: &str) -> PyResult<String> {
    crate::guard("describe", || {
        catalogue::describe_id(id).map(|d| d.to_json()).ok_or_else(|| {
            PyValueError::new_err(format!("unknown model `{id}`; known models: {}", models().join(", ")))
        })
    })
}
