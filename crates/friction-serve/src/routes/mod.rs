//! The API routes, one file per job, and what they share: reading a
//! scenario from a request body.

pub mod models;
pub mod response;
pub mod run;
pub mod sweep;
pub mod tuned;

use axum::http::{header, HeaderMap};

use crate::error::{ApiError, ApiResult};

/// A scenario as a request carries it.
#[derive(Debug, Clone, Default)]
pub struct ScenarioBody {
    /// The scenario's TOML text (empty when the body was a JSON table).
    pub text: String,
    /// The scenario as a JSON body's table, validated as it is (no TOML
    /// text is written from it).
    pub table: Option<toml::Table>,
    /// `--set`-style overrides (path, value), applied before the checks.
    pub set: Vec<(String, f64)>,
}

/// Whether the request says its body is JSON.
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"))
}

/// The scenario of a request body: TOML text, or JSON (a scenario table,
/// or `{"toml": TEXT, "set": {PATH: VALUE}}`).
pub fn scenario_body(headers: &HeaderMap, body: &str) -> ApiResult<ScenarioBody> {
    if !is_json(headers) {
        return Ok(ScenarioBody { text: body.to_string(), ..Default::default() });
    }
    let v: serde_json::Value =
        serde_json::from_str(body).map_err(|e| ApiError::bad(format!("request body: invalid JSON: {e}")))?;
    from_json(&v)
}

/// [`scenario_body`] of a parsed JSON value.
pub fn from_json(v: &serde_json::Value) -> ApiResult<ScenarioBody> {
    let Some(obj) = v.as_object() else {
        return Err(ApiError::bad(
            "request body: expected a JSON object (a scenario table or {\"toml\": TEXT})",
        ));
    };
    if let Some(t) = obj.get("toml") {
        let text = t.as_str().ok_or_else(|| ApiError::bad("request body: `toml` must be a string"))?;
        let mut set = vec![];
        if let Some(s) = obj.get("set") {
            let s = s
                .as_object()
                .ok_or_else(|| ApiError::bad("request body: `set` must be an object {PATH: VALUE}"))?;
            for (k, x) in s {
                match x.as_f64() {
                    Some(x) if x.is_finite() => set.push((k.clone(), x)),
                    _ => return Err(ApiError::bad(format!("set {k}={x}: `{x}` is not a finite number"))),
                }
            }
        }
        return Ok(ScenarioBody { text: text.to_string(), set, table: None });
    }
    let table: toml::Table = serde_json::from_value(v.clone())
        .map_err(|e| ApiError::bad(format!("request body: not a scenario table: {e}")))?;
    Ok(ScenarioBody { table: Some(table), ..Default::default() })
}

/// Refuse a scenario that would read a file on the server (a `table`
/// schedule's `file`, a `[[structure]]`'s matrices): the server serves
/// nothing outside the application.
pub fn refuse_files(text: &str, file: &str) -> ApiResult<()> {
    match text.parse::<toml::Table>() {
        Ok(t) => refuse_table_files(&t, file),
        Err(_) => Ok(()),
    }
}

/// [`refuse_files`] of a scenario given as a table.
pub fn refuse_table_files(t: &toml::Table, file: &str) -> ApiResult<()> {
    fn in_table(t: &toml::Table) -> Option<String> {
        t.iter().find_map(|(k, v)| if k == "file" { Some(v.to_string()) } else { walk(v) })
    }
    fn walk(v: &toml::Value) -> Option<String> {
        match v {
            toml::Value::Table(t) => in_table(t),
            toml::Value::Array(a) => a.iter().find_map(walk),
            _ => None,
        }
    }
    if t.contains_key("structure") {
        return Err(ApiError::bad(format!(
            "{file}: `[[structure]]` reads matrix files: a scenario run by `friction serve` cannot read files \
             (and `friction run` does not take structures yet; `friction frf` and `friction nnm` do)"
        )));
    }
    match in_table(t) {
        Some(f) => Err(ApiError::bad(format!(
            "{file}: `file = {f}`: a scenario run by `friction serve` cannot read files; \
             run it with `friction run`"
        ))),
        None => Ok(()),
    }
}
