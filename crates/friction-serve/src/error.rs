//! The API's errors: a status and the message the command line prints for
//! the same input, sent as `{"error": MESSAGE}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An API error: HTTP status and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (400 for bad input, 403 for a request from another
    /// site or through another host name, 404 for unknown things, 413 for
    /// inputs or outputs over the server's limits, 503 when the server is
    /// busy or a request reached the wall-clock limit, 500 for internal
    /// failures).
    pub status: StatusCode,
    /// The message, as `friction` prints it after `error: `.
    pub message: String,
    /// Seconds after which to try again, sent as `Retry-After` (503 when
    /// every job slot and the queue are taken).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error of `status` with `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into(), retry_after: None }
    }

    /// 403 Forbidden with `message` (another site, another host name).
    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 503 Service Unavailable with `message` and `Retry-After: seconds`
    /// (every job slot and the queue taken).
    pub fn busy(message: impl Into<String>, seconds: u64) -> Self {
        ApiError { retry_after: Some(seconds), ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message) }
    }

    /// 400 Bad Request with `message`.
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404 Not Found with `message`.
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 413 Payload Too Large with `message` (an output over the server's limits).
    pub fn too_large(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    /// 500 Internal Server Error with `message`.
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
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
        let mut r = (self.status, Json(serde_json::json!({ "error": self.message }))).into_response();
        if let Some(s) = self.retry_after {
            r.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(s));
        }
        r
    }
}

/// The result of a route.
pub type ApiResult<T> = Result<T, ApiError>;
