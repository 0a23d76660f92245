//! The dashboard's login endpoints.
//!
//! - `POST /dashboard/api/login-codes`: an authenticated client (`karmadactl dashboard`, with
//!   the kubeconfig's certificate or token, impersonation applied) mints a single-use code
//!   bound to its identity. Anonymous requests are refused: the code would carry no identity.
//! - `POST /dashboard/api/session` with `{"code": …}` or `{"token": …}` (and the anti-CSRF
//!   header, so a foreign page cannot log a victim into the attacker's account): answers with
//!   the session cookie.
//! - `GET /dashboard/api/session`: who the cookie's session acts as. `DELETE`: logout.
//!
//! Codes, cookies and tokens are never logged, and every answer here says `no-store`.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use karmadactl_apimachinery::{ApiError, StatusReason};
use serde_json::json;

use super::session::{Credential, Refusal};
use super::{COOKIE, has_csrf_header, session_cookie};
use crate::auth::authn::ANONYMOUS;
use crate::filters::dispatch::{error_response, json_response, read_body};
use crate::filters::{authenticate, impersonate};
use crate::state::ApiState;
use crate::transport::listener::ConnInfo;

/// A login body is a code or a token; service-account tokens are a few KiB at most.
const MAX_LOGIN_BODY: usize = 16 * 1024;

pub async fn mint(state: &Arc<ApiState>, conn: Option<&ConnInfo>, method: &Method, headers: &HeaderMap) -> Response {
    if method != Method::POST {
        return no_store(error_response(&method_not_allowed()));
    }
    no_store(match mint_for(state, conn, headers).await {
        Ok(resp) => resp,
        Err(e) => error_response(&e),
    })
}

/// The code's credential follows how the caller authenticated, so a session is never harder
/// to revoke than what started it: a client certificate's user (impersonation applied) is
/// bound as that identity; a bearer token is kept and re-checked on every request. A session
/// cookie mints nothing (a session cannot prolong itself), and a token with impersonation is
/// refused (the impersonation could not be re-checked per request).
async fn mint_for(state: &ApiState, conn: Option<&ConnInfo>, headers: &HeaderMap) -> Result<Response, ApiError> {
    let has_cert = conn.is_some_and(|c| c.client_cert.is_some());
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, token)| scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty())
        .map(|(_, token)| token.trim().to_string());
    let impersonating = headers.contains_key("impersonate-user");
    if !has_cert && bearer.is_none() {
        return Err(if session_cookie(headers).is_some() { cookie_refused() } else { anonymous_refused() });
    }
    let user = authenticate::authenticate(state, conn, headers).await?;
    let user = impersonate::apply(state, user, headers)?;
    if user.name == ANONYMOUS {
        return Err(anonymous_refused());
    }
    let credential = match bearer {
        Some(token) if !has_cert => {
            if impersonating {
                return Err(ApiError::bad_request(
                    "a dashboard login link for a bearer token cannot impersonate; log in as the impersonated user's own credentials",
                ));
            }
            Credential::Token(token)
        }
        _ => Credential::User(user.clone()),
    };
    let now = Instant::now();
    let ends_by = match &credential {
        // A certificate's session ends when the certificate does.
        Credential::User(_) => {
            conn.and_then(|c| c.client_cert.as_deref()).and_then(|c| c.as_ref().ok()).map(|identity| {
                let left = identity.not_after().duration_since(jiff::Timestamp::now());
                now + std::time::Duration::try_from(left).unwrap_or_default()
            })
        }
        Credential::Token(_) => None,
    };
    let code = state.dashboard.mint_code(credential, user.clone(), now, ends_by).map_err(refused)?;
    let ttl = state.dashboard.lifetimes().code.as_secs();
    Ok(json_response(StatusCode::CREATED, &json!({"code": code, "expiresInSeconds": ttl, "user": user})))
}

pub async fn session(state: &Arc<ApiState>, method: &Method, headers: &HeaderMap, body: Body) -> Response {
    // Every method here acts on (or reveals) the browser's login: all need the page's header.
    if !has_csrf_header(headers) {
        return no_store(error_response(&csrf_refused()));
    }
    let now = Instant::now();
    let response = match *method {
        Method::GET => whoami(state, headers, now).await,
        Method::POST => login(state, body, now).await,
        Method::DELETE => {
            if let Some(secret) = session_cookie(headers) {
                state.dashboard.end(secret);
            }
            let mut resp = json_response(StatusCode::OK, &json!({"loggedOut": true}));
            resp.headers_mut().insert(header::SET_COOKIE, cookie_header("", 0));
            Ok(resp)
        }
        _ => Err(method_not_allowed()),
    };
    no_store(response.unwrap_or_else(|e| error_response(&e)))
}

async fn whoami(state: &ApiState, headers: &HeaderMap, now: Instant) -> Result<Response, ApiError> {
    let secret = session_cookie(headers).ok_or_else(ApiError::unauthorized)?;
    let user = match state.dashboard.lookup(secret, now).ok_or_else(ApiError::unauthorized)? {
        Credential::User(user) => user,
        Credential::Token(token) => authenticate::authenticate_bearer(state, &token).await?,
    };
    let remaining = state.dashboard.remaining(secret, now).unwrap_or(0);
    Ok(json_response(StatusCode::OK, &json!({"user": user, "expiresInSeconds": remaining})))
}

async fn login(state: &ApiState, body: Body, now: Instant) -> Result<Response, ApiError> {
    let body = read_body(body, MAX_LOGIN_BODY).await?;
    let request: serde_json::Value =
        serde_json::from_slice(&body).map_err(|_| ApiError::bad_request("the login body must be a JSON object"))?;
    let (secret, user) = if let Some(code) = request.get("code").and_then(|v| v.as_str()) {
        state.dashboard.exchange_code(code, now).map_err(|r| match r {
            Refusal::Invalid => code_refused(),
            Refusal::Full => refused(r),
        })?
    } else if let Some(token) = request.get("token").and_then(|v| v.as_str()) {
        let token = token.trim();
        let user = authenticate::authenticate_bearer(state, token).await?;
        let secret = state.dashboard.start(Credential::Token(token.to_string()), now, None).map_err(refused)?;
        (secret, user)
    } else {
        return Err(ApiError::bad_request("the login body needs a \"code\" or a \"token\""));
    };
    // A session can end sooner than the configured lifetime (its certificate's expiry).
    let ttl = state.dashboard.remaining(&secret, now).unwrap_or_else(|| state.dashboard.lifetimes().session.as_secs());
    let mut resp = json_response(StatusCode::OK, &json!({"user": user, "expiresInSeconds": ttl}));
    resp.headers_mut().insert(header::SET_COOKIE, cookie_header(&secret, ttl));
    Ok(resp)
}

/// The session cookie: only over HTTPS, invisible to scripts, never sent on cross-site
/// requests. `max_age` 0 with an empty value deletes it.
fn cookie_header(secret: &str, max_age: u64) -> HeaderValue {
    let value = format!("{COOKIE}={secret}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age={max_age}");
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn no_store(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    resp
}

fn method_not_allowed() -> ApiError {
    ApiError::new(405, StatusReason::MethodNotAllowed, "the method is not allowed here")
}

fn anonymous_refused() -> ApiError {
    ApiError::new(401, StatusReason::Unauthorized, "a login code needs an authenticated user, not system:anonymous")
}

fn cookie_refused() -> ApiError {
    ApiError::new(
        403,
        StatusReason::Forbidden,
        "a dashboard session cannot mint login links; use a client certificate or a bearer token",
    )
}

fn code_refused() -> ApiError {
    ApiError::new(401, StatusReason::Unauthorized, "the login code is unknown, already used or expired")
}

/// The answer to a cookie without the page's header.
pub fn csrf_refused() -> ApiError {
    ApiError::new(
        403,
        StatusReason::Forbidden,
        "requests with the dashboard's session cookie must carry the X-Karmada-Dashboard header",
    )
}

fn refused(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::Invalid => ApiError::unauthorized(),
        Refusal::Full => ApiError::too_many_requests("too many dashboard logins are open; try again later", 60),
    }
}
