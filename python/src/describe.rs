//! The model catalogue.

use friction_capi::cite;
use friction_models::{all, info, ParamKind, ParamSpec};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{json, Value};

/// Every model id, in the registry's order.
#[pyfunction]
pub fn models() -> Vec<&'static str> {
    all().iter().map(|m| m.id).collect()
}

fn default_of(p: &ParamSpec) -> Value {
    match p.kind {
        ParamKind::Real { default, .. } => json!(default),
        ParamKind::OptionalReal { .. } | ParamKind::Rows { .. } => Value::Null,
        ParamKind::Integer { default, .. } => json!(default),
        ParamKind::Bool { default } => json!(default),
        ParamKind::Choice { default, .. } => json!(default),
        ParamKind::Model { default } => json!(default),
    }
}

fn kind_of(p: &ParamSpec) -> &'static str {
    match p.kind {
        ParamKind::Real { default: Some(_), .. } => "real",
        ParamKind::Real { default: None, .. } => "real (required)",
        ParamKind::OptionalReal { .. } => "optional real",
        ParamKind::Integer { .. } => "integer",
        ParamKind::Bool { .. } => "bool",
        ParamKind::Choice { .. } => "choice",
        ParamKind::Rows { .. } => "rows",
        ParamKind::Model { .. } => "model",
    }
}

/// The description of model `id` as JSON text (the `friction models ID`
/// table), with the literature cited by author and year as in the C library.
#[pyfunction]
pub fn describe_json(id: &str) -> PyResult<String> {
    crate::guard("describe", || {
        let m = info(id).ok_or_else(|| {
            PyValueError::new_err(format!("unknown model `{id}`; known models: {}", models().join(", ")))
        })?;
        let params: Vec<Value> = m
            .params
            .iter()
            .map(|p| {
                let mut d = json!({
                    "name": p.name,
                    "symbol": p.symbol,
                    "unit": p.unit,
                    "range": p.range_text(),
                    "default": default_of(p),
                    "kind": kind_of(p),
                    "description": cite(p.doc),
                });
                match p.kind {
                    ParamKind::Choice { options, .. } => d["options"] = json!(options),
                    ParamKind::Rows { columns, .. } => d["columns"] = json!(columns),
                    _ => {}
                }
                d
            })
            .collect();
        Ok(json!({
            "id": m.id,
            "family": m.family.name(),
            "summary": cite(m.summary),
            "equations": cite(m.equations),
            "parameters": params,
            "states": cite(m.states),
            "sources": cite(m.sources),
        })
        .to_string())
    })
}
