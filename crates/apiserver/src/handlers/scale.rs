//! The `/scale` subresource: an `autoscaling/v1` `Scale` view of a workload's replica count
//! (Deployments, ReplicaSets, StatefulSets, and CRDs that declare it). Reads build the view;
//! writes change only the replica count, with the object's resourceVersion as precondition.

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::strategic::schema_for;
use karmadactl_apimachinery::{
    ApiError, LabelSelector, apply_json_patch, apply_merge_patch, apply_strategic_merge_patch,
};
use serde_json::{Value, json};

use crate::registry::{ResourceDef, Subresource};

use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

/// How many times a scale write is retried when the object changed in between.
const MAX_ATTEMPTS: usize = 5;

pub async fn serve(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let Some(Subresource::Scale { spec_replicas_path, status_replicas_path, label_selector_path }) =
        def.subresource("scale")
    else {
        return Err(ApiError::not_found(&def.group, &def.plural, &call.info.name));
    };
    let paths =
        Paths { spec: spec_replicas_path, status: status_replicas_path, selector: label_selector_path.as_deref() };
    let ns = crate::handlers::resource::namespace_of(def, call);
    let name = &call.info.name;
    for _ in 0..MAX_ATTEMPTS {
        let Some((current, rev)) = store_access::get(state, &def.group, &def.plural, ns, name).await? else {
            return Err(ApiError::not_found(&def.group, &def.plural, name));
        };
        let scale = view(def, &current, &paths);
        let desired = match call.info.verb.as_str() {
            "get" => return Ok(json_response(StatusCode::OK, &scale)),
            "update" => decode_body(call)?,
            "patch" => match call.content_type().split(';').next().unwrap_or("").trim() {
                "application/json-patch+json" => apply_json_patch(&scale, &call.body)?,
                "application/merge-patch+json" => apply_merge_patch(&scale, &call.body)?,
                // The Scale type is built in, so custom resources' scale takes these too.
                "application/strategic-merge-patch+json" => {
                    apply_strategic_merge_patch(&scale, &call.body, schema_for("autoscaling", "Scale"))?
                }
                other => {
                    return Err(ApiError::unsupported_media_type(
                        other,
                        &["application/json-patch+json", "application/merge-patch+json"],
                    ));
                }
            },
            other => return Err(ApiError::method_not_supported(&format!("{}/scale", def.plural), other)),
        };
        if let Some(want) = desired.pointer("/metadata/resourceVersion").and_then(Value::as_str)
            && want != rev.to_string()
        {
            return Err(ApiError::conflict(
                &def.group,
                &def.plural,
                name,
                karmadactl_apimachinery::OPTIMISTIC_LOCK_ERROR_MSG,
            ));
        }
        let replicas = desired.pointer("/spec/replicas").and_then(Value::as_i64).unwrap_or(0);
        if replicas < 0 {
            return Err(ApiError::invalid(
                "autoscaling",
                "Scale",
                name,
                vec![karmadactl_apimachinery::Cause::invalid(
                    "spec.replicas",
                    replicas,
                    "must be greater than or equal to 0",
                )],
            ));
        }
        let mut updated = current.clone();
        set_path(&mut updated, paths.spec, json!(replicas));
        // Held until the update is stored: see `federated_quota::check`.
        let _quota = crate::admission::federated_quota::check(state, def, Some(&current), &updated).await?;
        if call.dry_run() {
            return Ok(json_response(StatusCode::OK, &view(def, &updated, &paths)));
        }
        if updated == current {
            return Ok(json_response(StatusCode::OK, &scale));
        }
        let generation = current.pointer("/metadata/generation").and_then(Value::as_i64).unwrap_or(0);
        object::meta_mut(&mut updated).insert("generation".into(), json!(generation + 1));
        let key = store_access::key(&def.group, &def.plural, ns, name);
        match state.store.update(&key, object::to_stored_bytes(&updated), rev).await {
            Ok(new_rev) => {
                let stored = object::with_resource_version(updated, new_rev);
                return Ok(json_response(StatusCode::OK, &view(def, &stored, &paths)));
            }
            Err(karmadactl_store::StoreError::Conflict { .. }) => continue,
            Err(e) => return Err(store_access::store_error(e, &def.group, &def.plural, name)),
        }
    }
    Err(ApiError::conflict(&def.group, &def.plural, name, karmadactl_apimachinery::OPTIMISTIC_LOCK_ERROR_MSG))
}

/// A Scale sent with PUT: JSON, or protobuf from client-go's typed clients.
fn decode_body(call: &Call) -> Result<Value, ApiError> {
    if crate::protobuf::is_protobuf(call.content_type()) {
        return crate::protobuf::decode_request(&call.body);
    }
    serde_json::from_slice(&call.body).map_err(|e| ApiError::bad_request(format!("the body is not a valid Scale: {e}")))
}

struct Paths<'a> {
    spec: &'a str,
    status: &'a str,
    selector: Option<&'a str>,
}

/// The Scale object for `obj`, as kube-apiserver returns it.
fn view(def: &ResourceDef, obj: &Value, paths: &Paths<'_>) -> Value {
    let meta = obj.get("metadata").cloned().unwrap_or_default();
    let mut scale_meta = json!({});
    for field in ["name", "namespace", "uid", "resourceVersion", "creationTimestamp"] {
        if let Some(v) = meta.get(field) {
            scale_meta[field] = v.clone();
        }
    }
    let spec_replicas = get_path(obj, paths.spec).and_then(Value::as_i64).unwrap_or(0);
    let status_replicas = get_path(obj, paths.status).and_then(Value::as_i64).unwrap_or(0);
    let selector = match paths.selector {
        Some(p) => get_path(obj, p).and_then(Value::as_str).map(str::to_string),
        // Built-in workloads: the label selector rendered as a string, as kube does.
        None if matches!(def.source, crate::registry::Source::Builtin) => obj
            .pointer("/spec/selector")
            .and_then(|s| serde_json::from_value(s.clone()).ok())
            .and_then(|s| LabelSelector::from_label_selector(&s).ok())
            .map(|s| s.to_string()),
        None => None,
    };
    let mut status = json!({"replicas": status_replicas});
    if let Some(sel) = selector.filter(|s| !s.is_empty()) {
        status["selector"] = json!(sel);
    }
    json!({"kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": scale_meta, "spec": {"replicas": spec_replicas}, "status": status})
}

/// Reads a `.a.b` path (the form CRDs use for scale paths).
fn get_path<'v>(obj: &'v Value, path: &str) -> Option<&'v Value> {
    path.trim_start_matches('.').split('.').try_fold(obj, |cur, part| cur.get(part))
}

fn set_path(obj: &mut Value, path: &str, value: Value) {
    let parts: Vec<&str> = path.trim_start_matches('.').split('.').collect();
    let mut cur = obj;
    for part in &parts[..parts.len().saturating_sub(1)] {
        if !cur.get(*part).is_some_and(Value::is_object) {
            cur[*part] = json!({});
        }
        cur = &mut cur[*part];
    }
    if let Some(last) = parts.last() {
        cur[*last] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_and_write_nested_fields() {
        let mut obj = json!({"spec": {"replicas": 2}});
        assert_eq!(get_path(&obj, ".spec.replicas"), Some(&json!(2)));
        set_path(&mut obj, ".spec.replicas", json!(5));
        set_path(&mut obj, ".status.scale.count", json!(1));
        assert_eq!(obj, json!({"spec": {"replicas": 5}, "status": {"scale": {"count": 1}}}));
        assert_eq!(get_path(&obj, ".missing.x"), None);
    }
}
