//! Endpoints that are not resources: health checks, `/version`, `/metrics`, discovery and
//! OpenAPI documents.

use std::sync::Arc;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use karmadactl_apimachinery::ApiError;
use serde_json::json;

use crate::registry::{discovery, openapi};

use crate::filters::dispatch::{Call, json_bytes_response, json_response};
use crate::handlers::metrics_api;
use crate::state::ApiState;

pub async fn serve(state: &Arc<ApiState>, call: &Call) -> Result<Response, ApiError> {
    let path = call.info.path.trim_end_matches('/');
    if call.info.verb != "get" {
        return Err(ApiError::method_not_supported(path, &call.info.verb));
    }
    match path {
        "/healthz" | "/livez" | "/readyz" => return Ok(health(state, path, call)),
        "/version" => return Ok(json_response(StatusCode::OK, &version(state))),
        "/metrics" => return Ok(text(StatusCode::OK, state.metrics.render(), "text/plain; version=0.0.4")),
        "/api" | "/apis" if wants_aggregated(call) => {
            let reg = read_registry(state)?;
            let mut doc = discovery::aggregated_discovery(&reg, path == "/api");
            if path == "/apis"
                && metrics_api::model(state).is_some()
                && let Some(items) = doc["items"].as_array_mut()
            {
                items.push(metrics_api::aggregated_item());
            }
            let mut resp = json_response(StatusCode::OK, &doc);
            resp.headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(discovery::AGGREGATED_CONTENT_TYPE));
            return Ok(resp);
        }
        "/api" => {
            return Ok(json_response(StatusCode::OK, &discovery::api_versions(&state.config.listen.to_string())));
        }
        "/apis" => {
            let reg = read_registry(state)?;
            let mut doc = discovery::api_group_list(&reg);
            if metrics_api::model(state).is_some()
                && let Some(groups) = doc["groups"].as_array_mut()
            {
                groups.push(metrics_api::group_entry());
            }
            return Ok(json_response(StatusCode::OK, &doc));
        }
        // kubectl 1.27 and 1.28 refuse to apply without a v2 document (protobuf only); newer
        // versions use v3.
        "/openapi/v2" => {
            let mut resp = (StatusCode::OK, openapi::openapi_v2_protobuf()).into_response();
            resp.headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(openapi::OPENAPI_V2_PROTOBUF_CONTENT_TYPE));
            return Ok(resp);
        }
        "/openapi/v3" => {
            let reg = read_registry(state)?;
            return Ok(json_response(StatusCode::OK, &openapi::openapi_v3_index(&reg)));
        }
        _ => {}
    }
    if let Some(check) =
        path.strip_prefix("/healthz/").or(path.strip_prefix("/livez/")).or(path.strip_prefix("/readyz/"))
    {
        return Ok(single_check(state, check));
    }
    if let Some(gv) = path.strip_prefix("/openapi/v3/") {
        let reg = read_registry(state)?;
        return match openapi::openapi_v3_document(&reg, gv) {
            Some(doc) => Ok(json_bytes_response(StatusCode::OK, doc.bytes.clone())),
            None => Err(not_found_path()),
        };
    }
    if path == "/api/v1" {
        let reg = read_registry(state)?;
        return discovery::api_resource_list(&reg, "", "v1")
            .map(|v| json_response(StatusCode::OK, &v))
            .ok_or_else(not_found_path);
    }
    if let Some(rest) = path.strip_prefix("/apis/") {
        if metrics_api::model(state).is_some() {
            match rest {
                metrics_api::GROUP => return Ok(json_response(StatusCode::OK, &metrics_api::group_document())),
                "metrics.k8s.io/v1beta1" => return Ok(json_response(StatusCode::OK, &metrics_api::resource_list())),
                _ => {}
            }
        }
        let reg = read_registry(state)?;
        let doc = match rest.split_once('/') {
            None => discovery::api_group(&reg, rest),
            Some((group, version)) if !version.contains('/') => discovery::api_resource_list(&reg, group, version),
            _ => None,
        };
        return doc.map(|v| json_response(StatusCode::OK, &v)).ok_or_else(not_found_path);
    }
    Err(not_found_path())
}

/// Aggregated discovery only for its exact v2 media type: kubectl 1.27 asks for v2beta1, which
/// this server does not offer, and must then get the legacy documents.
fn wants_aggregated(call: &Call) -> bool {
    call.headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|t| {
        let params: Vec<&str> = t.split(';').map(str::trim).collect();
        params.contains(&"g=apidiscovery.k8s.io")
            && params.contains(&"v=v2")
            && params.contains(&"as=APIGroupDiscoveryList")
    })
}

fn read_registry(state: &ApiState) -> Result<std::sync::RwLockReadGuard<'_, crate::registry::Registry>, ApiError> {
    state.registry.read().map_err(|_| ApiError::internal("the resource registry is unavailable"))
}

/// kube-apiserver answers unknown paths with a 404 Status whose message is "the server could
/// not find the requested resource"; kubectl prints exactly that.
pub(crate) fn not_found_path() -> ApiError {
    ApiError::new(
        404,
        karmadactl_apimachinery::StatusReason::NotFound,
        "the server could not find the requested resource",
    )
}

/// The checks behind /healthz, /livez and /readyz, with their current result.
fn checks(state: &ApiState, endpoint: &str) -> Vec<(&'static str, bool)> {
    // kube-apiserver's "etcd" check reads from etcd; this one reports whether the store can
    // write (whichever backend it is), so a full disk shows here and not only in failed writes.
    let mut checks = vec![("ping", true), ("log", true), ("etcd", state.store.health().is_ok())];
    if endpoint == "/readyz" {
        checks.push(("informer-sync", state.ready()));
        checks.push((
            "poststarthook/apiservice-registration-controller",
            state.crds_synced.load(std::sync::atomic::Ordering::Acquire),
        ));
        checks
            .push(("poststarthook/rbac/bootstrap-roles", state.rbac_synced.load(std::sync::atomic::Ordering::Acquire)));
    }
    checks
}

fn health(state: &ApiState, endpoint: &str, call: &Call) -> Response {
    let checks = checks(state, endpoint);
    let healthy = checks.iter().all(|(_, ok)| *ok);
    let name = endpoint.trim_start_matches('/');
    let verbose = call.param("verbose").is_some();
    let body = if verbose || !healthy {
        let mut out = String::new();
        for (check, ok) in &checks {
            out.push_str(&format!(
                "[{}]{check} {}\n",
                if *ok { "+" } else { "-" },
                if *ok { "ok" } else { "failed: reason withheld" }
            ));
        }
        out.push_str(&format!("{name} check {}\n", if healthy { "passed" } else { "failed" }));
        out
    } else {
        "ok".to_string()
    };
    let code = if healthy { StatusCode::OK } else { StatusCode::INTERNAL_SERVER_ERROR };
    text(code, body, "text/plain; charset=utf-8")
}

fn single_check(state: &ApiState, check: &str) -> Response {
    let all = [checks(state, "/readyz")].concat();
    match all.iter().find(|(name, _)| *name == check) {
        Some((_, true)) => text(StatusCode::OK, "ok".into(), "text/plain; charset=utf-8"),
        Some((_, false)) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal server error: {check} failed\n"),
            "text/plain; charset=utf-8",
        ),
        None => json_response(StatusCode::NOT_FOUND, &not_found_path().to_status_json()),
    }
}

/// `/version`, in `k8s.io/apimachinery/pkg/version.Info` form (every field present, as clients
/// such as kube-rs deserialise all of them).
fn version(state: &ApiState) -> serde_json::Value {
    let git_version = state.config.kubernetes_version.clone();
    let build = &state.config.build;
    let mut nums = git_version.trim_start_matches('v').split('.');
    let major = nums.next().unwrap_or("1").to_string();
    let minor = nums.next().unwrap_or("0").to_string();
    json!({
        "major": major,
        "minor": minor,
        "gitVersion": git_version,
        "gitCommit": build.git_commit,
        "gitTreeState": build.git_tree_state,
        "buildDate": build.build_date,
        "goVersion": build.rustc_version,
        "compiler": "rustc",
        "platform": crate::build_info::platform(),
    })
}

fn text(code: StatusCode, body: String, content_type: &'static str) -> Response {
    let mut resp = (code, body).into_response();
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    resp
}
