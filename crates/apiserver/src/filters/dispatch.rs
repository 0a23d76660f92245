//! The one handler every request goes through: body limit, authentication, request parsing,
//! RBAC, then the non-resource endpoints or the resource verbs. Errors become `Status` objects
//! in one place ([`error_response`]).

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use karmadactl_apimachinery::{ApiError, RequestInfo};

use crate::auth::{Attributes, Decision, UserInfo, authorize};

use crate::state::ApiState;
use crate::transport::listener::ConnInfo;
use crate::{
    filters::authenticate, filters::impersonate, handlers::cluster_proxy, handlers::metrics_api, handlers::nonresource,
    handlers::resource,
};

/// The API server's router: a single fallback, because the URL space grows at run time (CRDs).
pub fn router(state: Arc<ApiState>) -> Router {
    Router::new().fallback(handle).with_state(state)
}

/// Everything a verb handler needs to know about the request.
pub struct Call {
    pub info: RequestInfo,
    pub user: UserInfo,
    pub query: Vec<(String, String)>,
    pub headers: axum::http::HeaderMap,
    pub body: bytes::Bytes,
    /// The connection, once answered with 101, for subresources that upgrade (`pods/exec`).
    pub upgrade: Option<hyper::upgrade::OnUpgrade>,
}

impl Call {
    /// The first value of a query parameter.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// A boolean query parameter as Go's strconv.ParseBool reads it; absent or empty is false.
    pub fn bool_param(&self, name: &str) -> Result<bool, ApiError> {
        match self.param(name) {
            None | Some("") | Some("false") | Some("0") | Some("f") | Some("F") | Some("FALSE") | Some("False") => {
                Ok(false)
            }
            Some("true") | Some("1") | Some("t") | Some("T") | Some("TRUE") | Some("True") => Ok(true),
            Some(v) => Err(ApiError::bad_request(format!("strconv.ParseBool: parsing {v:?}: invalid syntax"))),
        }
    }

    pub fn dry_run(&self) -> bool {
        self.query.iter().any(|(k, v)| k == "dryRun" && v == "All")
    }

    pub fn content_type(&self) -> &str {
        self.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("application/json")
    }

    /// The response form the client asked for in its Accept header (objects, a Table, or
    /// metadata only), with the Table's `includeObject` checked.
    pub fn output(&self) -> Result<crate::handlers::table::Output, ApiError> {
        let accept = self.headers.get(header::ACCEPT).and_then(|v| v.to_str().ok());
        crate::handlers::table::negotiate(accept, self.param("includeObject"))
    }
}

async fn handle(State(state): State<Arc<ApiState>>, req: Request) -> Response {
    let started = Instant::now();
    let conn = req.extensions().get::<ConnInfo>().cloned();
    let (parts, body) = req.into_parts();
    let path = parts.uri.path().to_string();
    // The dashboard's pages and login endpoints are not API resources; its API calls are. Only
    // the Karmada plane serves it, not a simulated member's API server.
    if state.config.profile == crate::config::Profile::Karmada && crate::dashboard::is_dashboard_path(&path) {
        return crate::dashboard::serve(&state, conn.as_ref(), &parts.method, &path, &parts.headers, body).await;
    }
    let raw_query = parts.uri.query().unwrap_or("").to_string();
    let info = RequestInfo::parse(parts.method.as_str(), &path, &raw_query);
    let verb = info.verb.clone();
    let resource_label = if info.is_resource_request { info.resource.clone() } else { String::new() };
    let subresource_label = if info.is_resource_request { info.subresource.clone() } else { String::new() };

    let response = match serve(&state, conn.as_ref(), parts, body, info).await {
        Ok(r) => r,
        Err(e) => error_response(&e),
    };
    // Watches are long; their latency is not a request latency.
    let elapsed = if verb == "watch" { std::time::Duration::ZERO } else { started.elapsed() };
    state.metrics.record_request(&verb, &resource_label, &subresource_label, response.status().as_u16(), elapsed);
    response
}

async fn serve(
    state: &Arc<ApiState>,
    conn: Option<&ConnInfo>,
    parts: axum::http::request::Parts,
    body: Body,
    info: RequestInfo,
) -> Result<Response, ApiError> {
    let user = authenticate::authenticate(state, conn, &parts.headers).await?;
    let user = impersonate::apply(state, user, &parts.headers)?;
    // After authentication and impersonation, before authorization, as in kube-apiserver.
    let _slot = match state.inflight.admit(&info, &user) {
        Ok(slot) => slot,
        Err(rejected) => {
            state.metrics.request_dropped(rejected.mutating, &info.verb, &info.resource);
            return Ok(crate::filters::inflight::too_many_requests());
        }
    };
    let attrs = attributes(&user, &info);
    if let Decision::Deny { .. } = authorize(&state.rbac(), &attrs) {
        return Err(forbidden(&user, &info));
    }
    let body = read_body(body, state.config.max_request_bytes).await?;
    if cluster_proxy::is_proxy(&info) {
        return cluster_proxy::serve(state, &user, &info, parts, body).await;
    }
    let query: Vec<(String, String)> =
        form_urlencoded::parse(parts.uri.query().unwrap_or("").as_bytes()).into_owned().collect();
    let mut parts = parts;
    let upgrade = parts.extensions.remove::<hyper::upgrade::OnUpgrade>();
    let call = Call { info, user, query, headers: parts.headers, body, upgrade };
    if !call.info.is_resource_request {
        return nonresource::serve(state, &call).await;
    }
    if call.info.api_group == metrics_api::GROUP
        && let Some(model) = metrics_api::model(state)
    {
        return metrics_api::serve(state, &call, model).await;
    }
    resource::serve(state.clone(), call).await
}

/// How much of an oversized body is read and thrown away before answering 413, so a client
/// still sending gets the answer instead of a reset connection.
const DISCARD_LIMIT: usize = 64 * 1024 * 1024;

/// Reads the request body up to `limit` bytes; beyond that, keeps reading (and discarding) up
/// to [`DISCARD_LIMIT`] or 5 seconds, then answers 413.
pub(crate) async fn read_body(body: Body, limit: usize) -> Result<bytes::Bytes, ApiError> {
    use http_body_util::BodyExt;
    let mut body = body;
    let mut buf = bytes::BytesMut::new();
    let mut seen = 0usize;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Ok(Some(Ok(frame))) => frame,
            Ok(Some(Err(_))) => return Err(ApiError::bad_request("the request body could not be read")),
            Ok(None) => break,
            // Too slow or too large to drain: answer anyway.
            Err(_) if seen > limit => break,
            Err(_) => return Err(ApiError::timeout("reading the request body timed out")),
        };
        if let Ok(data) = frame.into_data() {
            seen += data.len();
            if seen <= limit {
                buf.extend_from_slice(&data);
            } else if seen > DISCARD_LIMIT {
                break;
            }
        }
    }
    if seen > limit {
        return Err(ApiError::request_entity_too_large(limit as u64));
    }
    Ok(buf.freeze())
}

/// RBAC's view of the request.
pub fn attributes(user: &UserInfo, info: &RequestInfo) -> Attributes {
    Attributes {
        user: user.clone(),
        verb: info.verb.clone(),
        namespace: info.namespace.clone(),
        api_group: info.api_group.clone(),
        resource: info.resource.clone(),
        subresource: info.subresource.clone(),
        name: info.name.clone(),
        resource_request: info.is_resource_request,
        path: info.path.clone(),
    }
}

/// kube-apiserver's 403 for this request.
pub(crate) fn forbidden(user: &UserInfo, info: &RequestInfo) -> ApiError {
    if !info.is_resource_request {
        return ApiError::forbidden_path(&user.name, &info.verb, &info.path);
    }
    ApiError::forbidden(
        &user.name,
        &info.verb,
        &info.api_group,
        &info.resource,
        &info.subresource,
        &info.namespace,
        &info.name,
    )
}

/// A `Status` response for an error, with the HTTP code it carries (and, as kube-apiserver
/// does, its `retryAfterSeconds` as `Retry-After`).
pub fn error_response(err: &ApiError) -> Response {
    let code = StatusCode::from_u16(err.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut resp = json_response(code, &err.to_status_json());
    // As kube's ErrorNegotiated: clients read the delay from the header, not the body.
    if let Some(secs) = err.details.as_ref().map(|d| d.retry_after_seconds).filter(|s| *s > 0) {
        resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    resp
}

/// A JSON body with a status code.
pub fn json_response(code: StatusCode, value: &serde_json::Value) -> Response {
    json_bytes_response(code, serde_json::to_vec(value).unwrap_or_default())
}

/// Already-serialised JSON with a status code.
pub fn json_bytes_response(code: StatusCode, body: Vec<u8>) -> Response {
    json_body_response(code, Body::from(body))
}

/// A JSON body of any kind (one that holds memory reserved for it, say) with a status code.
pub fn json_body_response(code: StatusCode, body: Body) -> Response {
    let mut resp = (code, body).into_response();
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}
