//! `GET /api/models` and `GET /api/models/{id}`: the model registry of
//! `friction_models`, as `friction models [ID]` prints it.

use axum::extract::Path;
use axum::Json;
use friction_models::{all, info, ModelInfo, ParamKind, Range};
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};

/// `GET /api/models`: `[{id, family, summary}]` in `friction models`' order.
pub async fn list() -> Json<Value> {
    Json(json!(all()
        .iter()
        .map(|m| json!({"id": m.id, "family": m.family.name(), "summary": m.summary}))
        .collect::<Vec<_>>()))
}

fn range(r: Range) -> Value {
    let num = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
    json!({"lo": num(r.lo), "hi": num(r.hi), "lo_closed": r.lo_closed, "hi_closed": r.hi_closed, "text": r.to_string()})
}

/// One model as JSON: what `friction models ID` prints.
fn describe(m: &ModelInfo) -> Value {
    let params: Vec<Value> = m
        .params
        .iter()
        .map(|p| {
            let (kind, default, r) = match p.kind {
                ParamKind::Real { default, range: r } => ("real", json!(default), range(r)),
                ParamKind::OptionalReal { range: r } => ("optional_real", Value::Null, range(r)),
                ParamKind::Integer { default, min, max } => {
                    ("integer", json!(default), json!({"lo": min, "hi": max, "lo_closed": true, "hi_closed": true, "text": p.range_text()}))
                }
                ParamKind::Bool { default } => ("bool", json!(default), Value::Null),
                ParamKind::Choice { default, options } => ("choice", json!(default), json!({"options": options})),
                ParamKind::Rows { columns, range: r } => ("rows", json!({"columns": columns}), range(r)),
                ParamKind::Model { default } => ("model", json!(default), Value::Null),
            };
            json!({
                "name": p.name, "symbol": p.symbol, "unit": p.unit, "kind": kind,
                "default": default, "range": r, "range_text": p.range_text(),
                "default_text": p.default_text(), "doc": p.doc,
            })
        })
        .collect();
    let refs: Vec<Value> = friction_models::references::cited_in(m.sources)
        .iter()
        .map(|r| json!({"cite": r.cite, "full": r.full()}))
        .collect();
    json!({
        "id": m.id, "family": m.family.name(), "summary": m.summary, "equations": m.equations,
        "parameters": params, "states": m.states, "sources": m.sources, "references": refs,
    })
}

/// `GET /api/models/{id}`: the model's equations, parameters (symbol,
/// unit, kind, valid range, default, meaning), states and references; an
/// unknown id is 404 with `friction models ID`'s message.
pub async fn one(Path(id): Path<String>) -> ApiResult<Json<Value>> {
    match info(&id) {
        Some(m) => Ok(Json(describe(m))),
        None => {
            let ids: Vec<_> = all().iter().map(|m| m.id).collect();
            Err(ApiError::not_found(match friction_models::suggest::nearest(&id, ids.iter().copied()) {
                Some(near) => {
                    format!("unknown model `{id}`; did you mean `{near}`? (`friction models` lists every id)")
                }
                None => format!("unknown model `{id}`; known models: {}", ids.join(", ")),
            }))
        }
    }
}
