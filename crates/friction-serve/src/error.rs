//! The API's errors: a status and the message the command line prints for
//! the same input, sent as `{"error": MESSAGE}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An API error: HTTP status and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (400 for bad input, 404 for unknown things, 413 for
    /// outputs over the server's limits, 500 for internal failures).
    pub status: StatusCode,
    /// The message, as `friction` prints it after `error: `.
    pub message: String,
}

impl ApiError {
    /// 400 Bad Request with `message`.
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// 404 Not Found with `message`.
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// 413 Payload Too Large with `message` (an output over the server's limits).
    pub fn too_large(message: impl Into<String>) -> Self {
        ApiError { status: StatusCode::PAYLOAD_TOO_LARGE, message: message.into() }
    }

    /// 500 Internal Server Error with `message`.
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.into() }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

/// The result of a route.
pub type ApiResult<T> = Result<T, ApiError>;
