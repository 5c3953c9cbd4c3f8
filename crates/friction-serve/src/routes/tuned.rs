//! `POST /api/compare/tune`: the parameter sets of a `friction tune`
//! result (its `tune.json`, or the file of `--json OUT`) as entries of the
//! compare view: the tuned model and, when the target was a model, the
//! target, with the sine they were tuned under.
//!
//! ```text
//! body:    the JSON `friction tune` writes: {model, params, tuned, target:
//!          {model, params} | {energy}, frequency, points: [{amplitude, ...}], ...}
//! answer:  {entries: [{label, model, params}], frequency, amplitudes: [...]}
//! ```
//! Each parameter set is checked as a scenario contact's `params` are
//! (the same messages), so that a hand-edited file gives the model's
//! message, not a plot of something else.

use axum::Json;
use serde_json::{json, Map, Value};

use super::response::model_of;
use crate::error::{ApiError, ApiResult};

/// One parameter set of the file: `{model, params}` at `key` (`""` for
/// the top level), checked.
fn entry(v: &Value, key: &str, label: String) -> ApiResult<Value> {
    let at = |k: &str| if key.is_empty() { k.to_string() } else { format!("{key}.{k}") };
    let model = v.get("model").and_then(Value::as_str).ok_or_else(|| {
        ApiError::bad(format!("tune result: `{}` must be a model id (a string)", at("model")))
    })?;
    let empty = Map::new();
    let params = match v.get("params") {
        None => &empty,
        Some(p) => p
            .as_object()
            .ok_or_else(|| ApiError::bad(format!("tune result: `{}` must be an object", at("params"))))?,
    };
    model_of(model, params)
        .map_err(|e| ApiError::bad(format!("tune result: `{}`: {}", at("params"), e.message)))?;
    Ok(json!({"label": label, "model": model, "params": params}))
}

/// `POST /api/compare/tune`: see the module documentation (read on a
/// blocking thread).
pub async fn tuned(body: String) -> ApiResult<Json<Value>> {
    tokio::task::spawn_blocking(move || read(&body))
        .await
        .map_err(|e| ApiError::internal(format!("reading the tune result stopped: {e}")))?
        .map(Json)
}

/// The answer of `POST /api/compare/tune` for the body `body`.
fn read(body: &str) -> ApiResult<Value> {
    let v: Value = serde_json::from_str(body).map_err(|e| {
        ApiError::bad(format!(
            "tune result: invalid JSON: {e} (expected the file `friction tune --json` writes)"
        ))
    })?;
    if !v.is_object() || v.get("tuned").is_none() {
        return Err(ApiError::bad(
            "tune result: expected the JSON object `friction tune --json OUT` (or --out DIR's tune.json) writes, \
             with `model`, `params` and `tuned`",
        ));
    }
    let id = v.get("model").and_then(Value::as_str).unwrap_or("?");
    let tuned: Vec<String> = v["tuned"]
        .as_object()
        .map(|t| t.iter().map(|(k, x)| format!("{k} = {x}")).collect())
        .unwrap_or_default();
    let mut entries = vec![entry(&v, "", format!("{id} tuned ({})", tuned.join(", ")))?];
    if let Some(t) = v.get("target").filter(|t| t.get("model").is_some()) {
        let tid = t["model"].as_str().unwrap_or("?");
        entries.push(entry(t, "target", format!("{tid} (target)"))?);
    }
    let amplitudes: Vec<f64> = v
        .get("points")
        .and_then(Value::as_array)
        .map(|p| p.iter().filter_map(|p| p.get("amplitude").and_then(Value::as_f64)).collect())
        .unwrap_or_default();
    Ok(json!({
        "entries": entries,
        "frequency": v.get("frequency").and_then(Value::as_f64),
        "amplitudes": amplitudes,
    }))
}
