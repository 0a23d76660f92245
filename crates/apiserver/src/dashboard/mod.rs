//! The web dashboard the plane serves under `/dashboard/` on its own HTTPS port: embedded
//! static assets ([`assets`]), the one-time login codes and cookie sessions ([`session`],
//! [`login`]). The page itself only calls the plane's ordinary REST API; a request carrying the
//! session cookie is authenticated as the session's user by [`crate::filters::authenticate`]
//! and authorised by RBAC like any other, so the dashboard has no powers of its own.

pub mod assets;
pub mod login;
pub mod session;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, Method, header};
use axum::response::Response;

use crate::state::ApiState;
use crate::transport::listener::ConnInfo;

pub use session::{Credential, Sessions};

/// Where the dashboard lives.
pub const PREFIX: &str = "/dashboard";
/// The session cookie. The `__Host-` prefix makes browsers insist on `Secure`, `Path=/` and no
/// `Domain`, so no other host or plain-HTTP page can plant or read it.
pub const COOKIE: &str = "__Host-karmada-dashboard";
/// The header the page sets on every call. A cross-site form or link cannot set it, and a
/// cross-site script cannot without a CORS preflight the plane never approves, so a request
/// with the cookie but without this header is refused (CSRF).
pub const CSRF_HEADER: &str = "x-karmada-dashboard";

/// Whether a request path belongs to the dashboard rather than the API.
pub fn is_dashboard_path(path: &str) -> bool {
    path == PREFIX || path.starts_with("/dashboard/")
}

/// The session secret from the request's cookies, if any.
pub fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value)
}

/// Whether the page's anti-CSRF header is there.
pub fn has_csrf_header(headers: &HeaderMap) -> bool {
    headers.get(CSRF_HEADER).is_some_and(|v| !v.is_empty())
}

/// Serves a dashboard path: the login endpoints under `/dashboard/api/`, assets otherwise.
pub async fn serve(
    state: &Arc<ApiState>,
    conn: Option<&ConnInfo>,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    body: Body,
) -> Response {
    match path.strip_prefix("/dashboard/api/") {
        Some("login-codes") => login::mint(state, conn, method, headers).await,
        Some("session") => login::session(state, method, headers, body).await,
        Some(_) => assets::not_found(),
        None => assets::serve(method, path),
    }
}
