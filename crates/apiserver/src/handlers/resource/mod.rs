//! The resource verbs (get, list, watch, create, update, patch, delete, deletecollection) for
//! any served resource, built-in or CRD, with kube-apiserver's object semantics.

mod apply;
mod body;
mod create;
pub mod delete;
mod fields;
mod get;
mod identity;
mod list;
mod managed;
mod patch;
pub mod propagation;
mod update;
mod watch;
mod watch_event;
mod watch_table;
mod write_options;

pub use body::{decode_bytes, decode_object};

use std::sync::Arc;

use axum::response::Response;
use karmadactl_apimachinery::{ApiError, StatusReason};

use crate::registry::ResourceDef;

use crate::filters::dispatch::Call;
use crate::handlers::special;
use crate::state::ApiState;

/// Runs a resource request after authentication and authorization.
pub async fn serve(state: Arc<ApiState>, call: Call) -> Result<Response, ApiError> {
    let info = &call.info;
    let Some(def) = state.lookup(&info.api_group, &info.api_version, &info.resource) else {
        return Err(ApiError::new(404, StatusReason::NotFound, "the server could not find the requested resource"));
    };
    // A namespaced name needs a namespace in the path; a cluster-scoped resource must not have one.
    if !def.namespaced && !info.namespace.is_empty() && info.resource != "namespaces" {
        return Err(ApiError::new(404, StatusReason::NotFound, "the server could not find the requested resource"));
    }
    // (For list and watch, kube's request info takes `name` from a metadata.name field selector;
    // only verbs that address one object by path need the namespace.)
    let addresses_one = matches!(info.verb.as_str(), "get" | "update" | "patch" | "delete");
    if def.namespaced && info.namespace.is_empty() && addresses_one {
        return Err(ApiError::new(404, StatusReason::NotFound, "the server could not find the requested resource"));
    }
    if crate::handlers::pod_log::is_pod_log(&call) {
        return crate::handlers::pod_log::serve(state, &call).await;
    }
    if crate::handlers::pod_exec::is_pod_exec(&call) {
        return crate::handlers::pod_exec::serve(state, call).await;
    }
    if !info.subresource.is_empty() && def.subresource(&info.subresource).is_none() {
        return Err(ApiError::new(404, StatusReason::NotFound, "the server could not find the requested resource"));
    }
    if let Some(resp) = special::serve(&state, &call, &def).await? {
        return Ok(resp);
    }
    let verb = info.verb.as_str();
    if !def.verbs.iter().any(|v| v == verb) {
        return Err(ApiError::method_not_supported(&qualified(&def), verb));
    }
    match verb {
        "get" => get::get(&state, &call, &def).await,
        "list" => list::list(&state, &call, &def).await,
        "watch" => watch::watch(state.clone(), &call, def.clone()).await,
        "create" => create::create(&state, &call, &def).await,
        "update" => update::update(&state, &call, &def).await,
        "patch" => patch::patch(&state, &call, &def).await,
        "delete" => delete::delete(&state, &call, &def).await,
        "deletecollection" => delete::delete_collection(&state, &call, &def).await,
        other => Err(ApiError::method_not_supported(&qualified(&def), other)),
    }
}

/// `deployments.apps`, `configmaps`: how kube names a resource in messages.
pub fn qualified(def: &ResourceDef) -> String {
    karmadactl_apimachinery::qualified_resource(&def.group, &def.plural)
}

/// `apps/v1` or `v1`.
pub fn api_version(def: &ResourceDef) -> String {
    if def.group.is_empty() { def.version.clone() } else { format!("{}/{}", def.group, def.version) }
}

/// `Some(namespace)` for namespaced resources.
pub fn namespace_of<'a>(def: &ResourceDef, call: &'a Call) -> Option<&'a str> {
    if def.namespaced && !call.info.namespace.is_empty() { Some(call.info.namespace.as_str()) } else { None }
}
