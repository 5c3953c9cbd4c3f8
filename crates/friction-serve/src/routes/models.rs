//! `GET /api/models` and `GET /api/models/{id}`: the model catalogue
//! ([`friction_models::catalogue`], schema `docs/model.schema.json`), the
//! same description as `friction models ID --json`, the C library's and
//! Python's.

use axum::extract::Path;
use axum::Json;
use friction_models::{all, info};
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};

/// `GET /api/models`: `[{id, family, summary}]` in `friction models`' order.
pub async fn list() -> Json<Value> {
    Json(json!(all()
        .iter()
        .map(|m| json!({"id": m.id, "family": m.family.name(), "summary": m.summary}))
        .collect::<Vec<_>>()))
}

/// `GET /api/models/{id}`: the model's equations, parameters (symbol,
/// unit, kind, valid range, default, meaning), states and references; an
/// unknown id is 404 with `friction models ID`'s message.
pub async fn one(Path(id): Path<String>) -> ApiResult<Json<Value>> {
    match info(&id) {
        Some(m) => Ok(Json(json!(friction_models::catalogue::describe(m)))),
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
