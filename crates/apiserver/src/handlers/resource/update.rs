//! PUT: replace an object (or its status / approval subresource) with optimistic concurrency
//! on resourceVersion. `finish` is shared with PATCH: it carries over what the server owns,
//! keeps status and spec apart, bumps generation, validates, and writes with compare-and-swap.

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::{ApiError, BadValue, Cause};
use serde_json::{Value, json};

use crate::registry::{ResourceDef, Source};

use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::{admission, storage::object, storage::store_access};

pub async fn update(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    super::write_options::check(call, "UpdateOptions", Vec::new())?;
    let mut new = super::decode_object(call, def)?;
    super::identity::ensure_namespace(def, call, &mut new)?;
    let name = call.info.name.clone();
    match object::meta_str(&new, "name") {
        Some(n) if n == name => {}
        Some(n) if !n.is_empty() => {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({n}) does not match the name on the URL ({name})"
            )));
        }
        _ => {}
    }
    let ns = super::namespace_of(def, call);
    let Some((current, current_rev)) = store_access::get(state, &def.group, &def.plural, ns, &name).await? else {
        return Err(ApiError::not_found(&def.group, &def.plural, &name));
    };
    let expected = match object::meta_str(&new, "resourceVersion").filter(|s| !s.is_empty()) {
        Some(rv) => object::parse_resource_version(rv)
            .ok_or_else(|| ApiError::bad_request(format!("invalid resource version: {rv}")))?,
        // Built-ins allow unconditional updates; custom resources require a version (as kube).
        None if matches!(def.source, Source::Builtin) => current_rev,
        None => {
            return Err(ApiError::invalid(
                &def.group,
                &def.kind,
                &name,
                vec![Cause::invalid(
                    "metadata.resourceVersion",
                    BadValue::Json("0x0".into()),
                    "must be specified for an update",
                )],
            ));
        }
    };
    let (obj, code, warnings) =
        finish(state, call, def, &name, current, current_rev, expected, new, Some(&call.body), false).await?;
    Ok(admission::with_warnings(json_response(code, &obj), &warnings))
}

/// Applies an update of `current` (at `current_rev`) to `new`, expecting the client saw
/// `expected`. Returns the stored object (or the dry-run result) and any warnings. `applied`:
/// server-side apply already set the managedFields; otherwise the write is recorded as an update.
#[allow(clippy::too_many_arguments)]
pub async fn finish(
    state: &ApiState,
    call: &Call,
    def: &ResourceDef,
    name: &str,
    current: Value,
    current_rev: i64,
    expected: i64,
    mut new: Value,
    raw: Option<&[u8]>,
    applied: bool,
) -> Result<(Value, StatusCode, Vec<String>), ApiError> {
    if expected != current_rev {
        return Err(ApiError::conflict(
            &def.group,
            &def.plural,
            name,
            karmadactl_apimachinery::OPTIMISTIC_LOCK_ERROR_MSG,
        ));
    }
    let sub = call.info.subresource.as_str();
    // Subresource writes below start again from the stored object; apply's entries must survive.
    let applied_entries = applied.then(|| new.get("metadata").and_then(|m| m.get("managedFields")).cloned()).flatten();
    new = match sub {
        // Status writes change status only; everything else stays as stored.
        "status" => {
            let mut merged = current.clone();
            merged["status"] = new.get("status").cloned().unwrap_or(Value::Null);
            if merged["status"].is_null()
                && let Value::Object(m) = &mut merged
            {
                m.remove("status");
            }
            merged
        }
        // A namespace's finalize subresource writes spec.finalizers only.
        "finalize" => {
            let mut merged = current.clone();
            merged["spec"]["finalizers"] =
                new.get("spec").and_then(|s| s.get("finalizers")).cloned().unwrap_or(json!([]));
            merged
        }
        // CSR approval writes the conditions only.
        "approval" => {
            let mut merged = current.clone();
            let conditions =
                new.get("status").and_then(|s| s.get("conditions")).cloned().unwrap_or(Value::Array(vec![]));
            merged["status"]["conditions"] = conditions;
            merged
        }
        _ => {
            if def.subresource("status").is_some() {
                match current.get("status") {
                    Some(s) => new["status"] = s.clone(),
                    None => {
                        if let Value::Object(m) = &mut new {
                            m.remove("status");
                        }
                    }
                }
            }
            // A CSR's spec, with the requester the server recorded, never changes after create.
            if (def.group.as_str(), def.plural.as_str()) == admission::CSR {
                new["spec"] = current.get("spec").cloned().unwrap_or(Value::Null);
            }
            // Only the finalize subresource changes a namespace's spec finalizers.
            if def.group.is_empty() && def.plural == "namespaces" {
                new["spec"]["finalizers"] =
                    current.get("spec").and_then(|s| s.get("finalizers")).cloned().unwrap_or(json!([]));
            }
            new
        }
    };
    if (def.group.as_str(), def.plural.as_str()) == admission::CSR {
        crate::admission::csr_strategy::prepare_for_update(sub, &current, &mut new);
    }
    if let Some(entries) = applied_entries {
        object::meta_mut(&mut new).insert("managedFields".into(), entries);
    }
    carry_server_fields(&current, &mut new);
    if sub.is_empty() && generation_moves(def, &current, &new) {
        let generation = current.get("metadata").and_then(|m| m.get("generation")).and_then(Value::as_i64).unwrap_or(0);
        object::meta_mut(&mut new).insert("generation".into(), Value::from(generation + 1));
    }
    let warnings = admission::validate(state, def, &mut new, raw, Some(&current), call.param("fieldValidation"))?;
    // Held until the object is stored: see `federated_quota::check`.
    let _quota = admission::check_requester(state, def, call, Some(&current), &new).await?;
    if !applied {
        super::managed::record(def, call, Some(&current), &mut new);
    }
    if call.dry_run() {
        return Ok((object::with_resource_version(new, current_rev), StatusCode::OK, warnings));
    }
    let ns = object::meta_str(&current, "namespace").filter(|s| !s.is_empty()).map(str::to_string);
    super::identity::check_storable(def, ns.as_deref(), name, &new)?;
    let key = store_access::key(&def.group, &def.plural, ns.as_deref(), name);
    // An object marked for deletion goes away once its last finalizer is removed.
    if object::marked_for_deletion(&new)
        && object::finalizers(&new).is_empty()
        && !(def.group.is_empty() && def.plural == "namespaces" && !object::namespace_finalizers(&new).is_empty())
    {
        let (rev, _) = state
            .store
            .delete(&key, Some(current_rev))
            .await
            .map_err(|e| store_access::store_error(e, &def.group, &def.plural, name))?;
        return Ok((object::with_resource_version(new, rev), StatusCode::OK, warnings));
    }
    // The request's resourceVersion already matched (or was absent, as in most patches): compare
    // the rest.
    let new = object::with_resource_version(new, current_rev);
    if object::same_but_resource_version(&new, &current) {
        // kube-apiserver skips no-op writes; the resourceVersion does not move.
        return Ok((new, StatusCode::OK, warnings));
    }
    let started = std::time::Instant::now();
    let rev = state
        .store
        .update(&key, object::to_stored_bytes(&new), current_rev)
        .await
        .map_err(|e| store_access::store_error(e, &def.group, &def.plural, name))?;
    state.metrics.record_commit(started.elapsed());
    state.token_cache.forget_after_write(&key, false);
    Ok((object::with_resource_version(new, rev), StatusCode::OK, warnings))
}

/// Whether an update of the object itself moves `metadata.generation`, as kube-apiserver's
/// strategies decide: a change outside metadata and status; for a custom resource without a
/// status subresource a status change too (its status is ordinary content then); for a
/// Deployment an annotation change too (annotations are copied to its ReplicaSets).
fn generation_moves(def: &ResourceDef, old: &Value, new: &Value) -> bool {
    if !def.tracks_generation() {
        return false;
    }
    if object::spec_changed(old, new) {
        return true;
    }
    if def.is_custom() && def.subresource("status").is_none() && old.get("status") != new.get("status") {
        return true;
    }
    // kube compares the maps semantically: absent and empty are the same.
    let annotations = |v: &Value| {
        v.pointer("/metadata/annotations").filter(|a| a.as_object().is_some_and(|m| !m.is_empty())).cloned()
    };
    (def.group.as_str(), def.plural.as_str()) == ("apps", "deployments") && annotations(old) != annotations(new)
}

/// Fields clients cannot change on update: identity and lifecycle, as stored.
fn carry_server_fields(current: &Value, new: &mut Value) {
    let old_meta = current.get("metadata").unwrap_or(&Value::Null);
    let meta = object::meta_mut(new);
    for owned in [
        "uid",
        "creationTimestamp",
        "generation",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "namespace",
        "name",
    ] {
        match old_meta.get(owned) {
            Some(v) => {
                meta.insert(owned.into(), v.clone());
            }
            None => {
                meta.remove(owned);
            }
        }
    }
    meta.remove("resourceVersion");
    meta.remove("selfLink");
    if let Value::Object(old) = old_meta {
        // Once deletion started, finalizers may only be removed, never added (kube's rule).
        if old.contains_key("deletionTimestamp") {
            let before = object::finalizers(current);
            if let Some(Value::Array(list)) = meta.get_mut("finalizers") {
                list.retain(|f| f.as_str().is_some_and(|f| before.iter().any(|b| b == f)));
            }
        }
    }
}
