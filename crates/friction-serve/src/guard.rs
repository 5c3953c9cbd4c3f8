//! What every request passes before its route, and what every error
//! becomes after it: the checks against other web pages (DNS rebinding,
//! cross-site requests), the body's size and time limits, and the API's
//! JSON error form for every error, the router's own (404, 405, a body
//! that is not UTF-8) included.
//!
//! ```text
//! Host     must name this server: 127.0.0.1, localhost or [::1] (any loopback
//!          address) when it listens on a loopback address, the address it
//!          listens on, any IP address when it listens on every interface
//!          (0.0.0.0 or [::]); and the port it listens on. Else 403: a page
//!          of another site whose name was re-pointed at 127.0.0.1 (DNS
//!          rebinding) sends its own name.
//! Origin   on every request but GET, HEAD and OPTIONS: when present, it must
//!          be http:// and a Host as above; without it the Referer is held to
//!          the same rule; a request with neither (curl, scripts) is served.
//!          Else 403: a page of another site can send a form or a text/plain
//!          POST to a local server without asking, and browsers add Origin.
//! body     at most ServeOptions::max_body bytes (413), read within
//!          ServeOptions::body_timeout (408).
//! errors   any error answer that is not JSON becomes {"error": MESSAGE}
//!          with its status and headers (Allow, Retry-After) kept.
//! ```

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::error::ApiError;
use crate::AppState;

/// Whether `host` (a `Host` header's value, or the authority of an
/// `Origin`) names the server listening on `local`.
pub fn host_allowed(local: SocketAddr, host: &str) -> bool {
    let Ok(a) = host.parse::<axum::http::uri::Authority>() else { return false };
    if a.as_str().contains('@') || a.port_u16().unwrap_or(80) != local.port() {
        return false;
    }
    let name = a.host().to_ascii_lowercase();
    let bare = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(&name);
    let ip = local.ip();
    let local_loopback = ip.is_loopback() || ip.is_unspecified();
    if bare == "localhost" {
        return local_loopback;
    }
    // an IPv6 address only in brackets, an IPv4 one only without
    let literal = if name.starts_with('[') {
        bare.parse::<std::net::Ipv6Addr>().ok().map(IpAddr::V6)
    } else {
        bare.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
    };
    match literal {
        Some(h) => h == ip || (h.is_loopback() && local_loopback) || ip.is_unspecified(),
        None => false,
    }
}

/// The names a browser may use for the server on `local`, for messages.
fn names(local: SocketAddr) -> String {
    let p = local.port();
    let ip = local.ip();
    if ip.is_loopback() || ip.is_unspecified() {
        let mut v = vec![format!("127.0.0.1:{p}"), format!("localhost:{p}"), format!("[::1]:{p}")];
        if ip.is_unspecified() {
            v.push(format!("any IP address of this machine with port {p}"));
        } else if !matches!(ip.to_string().as_str(), "127.0.0.1" | "::1") {
            v.insert(0, local.to_string());
        }
        v.join(", ")
    } else {
        local.to_string()
    }
}

/// The `Host` check (403 unless it names this server).
pub fn check_host(local: SocketAddr, headers: &HeaderMap) -> Result<(), ApiError> {
    let host = headers.get(header::HOST).map(|h| h.to_str().unwrap_or("(not text)"));
    match host {
        Some(h) if host_allowed(local, h) => Ok(()),
        Some(h) => Err(ApiError::forbidden(format!(
            "Host `{h}` is not this server's address ({}): requests through another name are \
             refused (a web page of another site can point its name at this machine)",
            names(local)
        ))),
        None => Err(ApiError::forbidden(format!(
            "the request has no Host header; send the server's address ({})",
            names(local)
        ))),
    }
}

/// The site of an `Origin` or `Referer` value, `http://AUTHORITY`, as its
/// authority (`None` for another scheme, `null` or no authority).
fn http_authority(v: &str) -> Option<&str> {
    let rest = v.strip_prefix("http://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|a| !a.is_empty())
}

/// The cross-site check of a state-changing request (403 when its
/// `Origin`, or without one its `Referer`, is another site).
pub fn check_origin(local: SocketAddr, method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Ok(());
    }
    let (what, value) = match (headers.get(header::ORIGIN), headers.get(header::REFERER)) {
        (Some(o), _) => ("Origin", o),
        (None, Some(r)) => ("Referer", r),
        (None, None) => return Ok(()),
    };
    let text = value.to_str().unwrap_or("(not text)");
    if http_authority(text).is_some_and(|a| host_allowed(local, a)) {
        return Ok(());
    }
    Err(ApiError::forbidden(format!(
        "{method} from another site refused: {what} `{text}` is not this server's page (http://{}); \
         only the page this server serves may change its state (scripts that send neither Origin \
         nor Referer are served)",
        local
    )))
}

/// The middleware of [`crate::router`]: the Host and Origin checks, the
/// body read within its limits, and errors in the JSON form.
pub async fn guard(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let local = state.local;
    if let Err(e) =
        check_host(local, req.headers()).and_then(|()| check_origin(local, req.method(), req.headers()))
    {
        return e.into_response();
    }
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let (parts, body) = req.into_parts();
    let max = state.opts.max_body;
    let too_large = || {
        ApiError::too_large(format!(
            "the request body is over the server's limit of {max} bytes ({:.1} MiB); \
             run larger scenarios with `friction run`",
            max as f64 / f64::from(1u32 << 20)
        ))
    };
    let declared =
        parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return too_large().into_response();
    }
    let limit = state.opts.body_timeout;
    let bytes = match tokio::time::timeout(limit, Limited::new(body, max).collect()).await {
        Ok(Ok(b)) => b.to_bytes(),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => return too_large().into_response(),
        Ok(Err(e)) => return ApiError::bad(format!("request body: {e}")).into_response(),
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!("the request body did not arrive within {} s", limit.as_secs_f64()),
            )
            .into_response()
        }
    };
    let res = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    json_error(res, &method, &path).await
}

/// `res` itself when it is a success or already JSON; else the same
/// status and headers with `{"error": MESSAGE}`, MESSAGE its text (or,
/// when it has none, what the status means here).
pub async fn json_error(res: Response, method: &Method, path: &str) -> Response {
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let text = match Limited::new(body, 64 * 1024).collect().await {
        Ok(b) => String::from_utf8_lossy(&b.to_bytes()).trim().to_string(),
        Err(_) => String::new(),
    };
    let message = if !text.is_empty() {
        text
    } else if status == StatusCode::METHOD_NOT_ALLOWED {
        let allow = parts.headers.get(header::ALLOW).and_then(|v| v.to_str().ok()).unwrap_or("");
        format!("{method} is not allowed on {path}; allowed: {allow}")
    } else if status == StatusCode::NOT_FOUND {
        format!("nothing at {path}")
    } else {
        format!("{method} {path}: {status}")
    };
    let body = serde_json::json!({ "error": message }).to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/json"));
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> SocketAddr {
        s.parse().unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 1)))
    }

    #[test]
    fn a_foreign_host_name_is_not_this_server() {
        let l = at("127.0.0.1:8787");
        for ok in ["127.0.0.1:8787", "localhost:8787", "LOCALHOST:8787", "[::1]:8787", "127.0.0.2:8787"] {
            assert!(host_allowed(l, ok), "{ok}");
        }
        for bad in [
            "evil.example:8787",
            "evil.example",
            "127.0.0.1:8788",
            "127.0.0.1",
            "localhost",
            "127.0.0.1.evil.example:8787",
            "localhost.evil.example:8787",
            "192.168.1.5:8787",
            "user@127.0.0.1:8787",
            "[::1]",
            "::1:8787",
            "",
        ] {
            assert!(!host_allowed(l, bad), "{bad}");
        }
        // served on every interface: any IP address, never another name
        let any = at("0.0.0.0:9000");
        assert!(host_allowed(any, "192.168.1.5:9000") && host_allowed(any, "localhost:9000"));
        assert!(!host_allowed(any, "evil.example:9000") && !host_allowed(any, "192.168.1.5:9001"));
        // served on one address: that one
        let one = at("10.0.0.7:80");
        assert!(host_allowed(one, "10.0.0.7") && host_allowed(one, "10.0.0.7:80"));
        assert!(!host_allowed(one, "localhost:80") && !host_allowed(one, "10.0.0.8"));
    }

    #[test]
    fn a_post_from_another_site_is_refused_and_one_without_origin_served() {
        let l = at("127.0.0.1:8787");
        let h = |pairs: &[(header::HeaderName, &str)]| {
            let mut m = HeaderMap::new();
            for (k, v) in pairs {
                m.insert(
                    k.clone(),
                    axum::http::HeaderValue::from_str(v).unwrap_or(axum::http::HeaderValue::from_static("x")),
                );
            }
            m
        };
        let post = Method::POST;
        assert!(check_origin(l, &post, &h(&[])).is_ok());
        assert!(check_origin(l, &post, &h(&[(header::ORIGIN, "http://127.0.0.1:8787")])).is_ok());
        assert!(check_origin(l, &post, &h(&[(header::REFERER, "http://localhost:8787/#run")])).is_ok());
        for (k, v) in [
            (header::ORIGIN, "http://evil.example"),
            (header::ORIGIN, "null"),
            (header::ORIGIN, "https://127.0.0.1:8787"),
            (header::ORIGIN, "http://127.0.0.1:8788"),
            (header::REFERER, "http://evil.example/page"),
            (header::REFERER, "http://127.0.0.1:8787.evil.example/"),
        ] {
            let e = check_origin(l, &post, &h(&[(k.clone(), v)]));
            assert_eq!(e.map_err(|e| e.status), Err(StatusCode::FORBIDDEN), "{k}: {v}");
        }
        // an Origin of this server wins over a foreign Referer, and not the other way
        assert!(check_origin(
            l,
            &post,
            &h(&[(header::ORIGIN, "http://evil.example"), (header::REFERER, "http://127.0.0.1:8787/")])
        )
        .is_err());
        // reading is not changing state
        assert!(check_origin(l, &Method::GET, &h(&[(header::ORIGIN, "http://evil.example")])).is_ok());
    }
}
