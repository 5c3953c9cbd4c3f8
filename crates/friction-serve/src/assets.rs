//! The page's files, embedded in the binary (it works offline and from
//! `cargo install`): each served at one fixed path with its content type.
//! Anything else (`/../`, `%2e%2e`, a path under an asset) is 404: a path
//! is looked up in this table, never in the file system.

use axum::http::{header, Uri};
use axum::response::{IntoResponse, Response};

/// One embedded file: URL path, content type, bytes.
pub struct Asset {
    /// The URL path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

/// Every file the server serves outside `/api/`.
pub const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("../assets/index.html"),
    },
    Asset {
        path: "/assets/app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/app.js"),
    },
    Asset {
        path: "/assets/app.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../assets/app.css"),
    },
    Asset {
        path: "/assets/vendor/uplot/uPlot.iife.min.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/vendor/uplot/uPlot.iife.min.js"),
    },
    Asset {
        path: "/assets/vendor/uplot/uPlot.min.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../assets/vendor/uplot/uPlot.min.css"),
    },
    Asset {
        path: "/assets/vendor/uplot/LICENSE",
        content_type: "text/plain; charset=utf-8",
        bytes: include_bytes!("../assets/vendor/uplot/LICENSE"),
    },
    Asset {
        path: "/favicon.ico",
        content_type: "image/svg+xml",
        bytes: include_bytes!("../assets/favicon.svg"),
    },
];

/// The embedded file at exactly `path`, if any (`/index.html` is `/`).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

/// The fallback route: an embedded file, or 404 in the API's JSON form.
pub async fn serve_asset(uri: Uri) -> Response {
    let path = uri.path();
    match find(path) {
        Some(a) => ([(header::CONTENT_TYPE, a.content_type)], a.bytes).into_response(),
        None if path.starts_with("/api/") || path == "/api" => {
            crate::error::ApiError::not_found(format!("no API route {path}")).into_response()
        }
        None => crate::error::ApiError::not_found(format!("no page or file {path}")).into_response(),
    }
}
