//! DELETE of one object and of a collection. Objects with finalizers are only marked
//! (deletionTimestamp) and disappear when the last finalizer is removed; preconditions on uid
//! and resourceVersion are honoured; dryRun deletes nothing. Foreground and Orphan propagation
//! mark the object with the garbage collector's finalizer, which finishes the deletion.
//!
//! Marking follows kube-apiserver's generic registry for kinds without graceful deletion (every
//! kind here; Pods are not run): the first mark sets deletionTimestamp, a grace period of 0 and
//! bumps a generation the object tracks, so controllers that only react to generation changes
//! see the deletion; a repeated DELETE moves none of them and writes nothing unless the
//! propagation policy changes the finalizers.

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::ApiError;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::registry::ResourceDef;

use super::propagation::{self, Propagation};
use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeleteOptions {
    #[serde(default)]
    preconditions: Option<Preconditions>,
    #[serde(default)]
    dry_run: Vec<String>,
    propagation_policy: Option<String>,
    orphan_dependents: Option<bool>,
}

impl DeleteOptions {
    fn propagation(&self, call: &Call) -> Result<Option<Propagation>, ApiError> {
        propagation::resolve(
            self.propagation_policy.as_deref(),
            self.orphan_dependents,
            call.param("propagationPolicy"),
            call.param("orphanDependents"),
        )
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Preconditions {
    pub uid: Option<String>,
    pub resource_version: Option<String>,
}

fn options(call: &Call) -> Result<DeleteOptions, ApiError> {
    if call.body.iter().all(u8::is_ascii_whitespace) {
        return Ok(DeleteOptions::default());
    }
    // client-go's typed clients send DeleteOptions as protobuf since 1.31.
    if crate::protobuf::is_protobuf(call.content_type()) {
        let value = crate::protobuf::decode_request(&call.body)?;
        return serde_json::from_value(value)
            .map_err(|e| ApiError::bad_request(format!("the body of the request is not valid DeleteOptions: {e}")));
    }
    serde_json::from_slice(&call.body)
        .map_err(|e| ApiError::bad_request(format!("the body of the request is not valid DeleteOptions: {e}")))
}

/// How many times a delete is retried when the object changed between read and write.
const MAX_ATTEMPTS: usize = 5;

pub async fn delete(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let opts = options(call)?;
    let dry_run = call.dry_run() || opts.dry_run.iter().any(|d| d == "All");
    let policy = opts.propagation(call)?;
    let ns = super::namespace_of(def, call);
    crate::admission::rbac_generator_admission::check_delete(
        state,
        &call.user,
        &def.group,
        &def.plural,
        ns,
        &call.info.name,
    )
    .await?;
    let target = Target { group: &def.group, plural: &def.plural, ns, name: &call.info.name };
    let (obj, deleted) = delete_or_mark(state, &target, opts.preconditions.as_ref(), policy, dry_run).await?;
    // kube-apiserver answers 202 only when the client asked for cascading deletion the legacy
    // way (orphanDependents=false) and the object is still there; 200 otherwise.
    let legacy_cascade = opts.orphan_dependents == Some(false) || call.param("orphanDependents") == Some("false");
    let code = if !deleted && legacy_cascade { StatusCode::ACCEPTED } else { StatusCode::OK };
    Ok(json_response(code, &obj))
}

/// Which object a delete is about.
pub struct Target<'a> {
    pub group: &'a str,
    pub plural: &'a str,
    pub ns: Option<&'a str>,
    pub name: &'a str,
}

/// Deletes one object, or marks it when finalizers (its own or the policy's) must run first.
pub async fn delete_one(
    state: &ApiState,
    target: &Target<'_>,
    pre: Option<&Preconditions>,
    policy: Option<Propagation>,
    dry_run: bool,
) -> Result<Value, ApiError> {
    delete_or_mark(state, target, pre, policy, dry_run).await.map(|(obj, _)| obj)
}

/// [`delete_one`], also saying whether the object is gone (true) or only marked (false).
async fn delete_or_mark(
    state: &ApiState,
    target: &Target<'_>,
    pre: Option<&Preconditions>,
    policy: Option<Propagation>,
    dry_run: bool,
) -> Result<(Value, bool), ApiError> {
    let Target { group, plural, ns, name } = *target;
    let key = store_access::key(group, plural, ns, name);
    for _ in 0..MAX_ATTEMPTS {
        let Some((current, rev)) = store_access::get(state, group, plural, ns, name).await? else {
            return Err(ApiError::not_found(group, plural, name));
        };
        if let Some(pre) = pre {
            let uid = object::meta_str(&current, "uid").unwrap_or("");
            if let Some(want) = pre.uid.as_deref().filter(|u| *u != uid) {
                return Err(ApiError::conflict(
                    group,
                    plural,
                    name,
                    &format!("Precondition failed: UID in precondition: {want}, UID in object meta: {uid}"),
                ));
            }
            if let Some(want) = pre.resource_version.as_deref().filter(|r| *r != rev.to_string()) {
                return Err(ApiError::conflict(
                    group,
                    plural,
                    name,
                    &format!(
                        "Precondition failed: ResourceVersion in precondition: {want}, ResourceVersion in object meta: {rev}"
                    ),
                ));
            }
        }
        if dry_run {
            return Ok((current, false));
        }
        if group.is_empty() && plural == "namespaces" {
            state.namespaces.deleting(name);
        }
        let before = object::finalizers(&current);
        let finalizers = propagation::finalizers_after(&before, policy);
        // A namespace also waits for its spec finalizers (the namespace controller's
        // `kubernetes`), which empty it before it goes.
        let namespace = group.is_empty() && plural == "namespaces";
        let held_by_spec = namespace && !object::namespace_finalizers(&current).is_empty();
        if !finalizers.is_empty() || held_by_spec {
            let deleting = object::marked_for_deletion(&current);
            // A namespace still being emptied keeps its finalizers whatever the options say.
            if deleting && (finalizers == before || held_by_spec) {
                return Ok((current, false));
            }
            let mut marked = current.clone();
            let meta = object::meta_mut(&mut marked);
            if !deleting {
                meta.insert("deletionTimestamp".into(), Value::String(object::now_rfc3339()));
                // kube's markAsDeleting: the first mark is a change of intent controllers must
                // act on, so a tracked generation moves (only objects that have one).
                if let Some(generation) = meta.get("generation").and_then(Value::as_i64).filter(|g| *g > 0) {
                    meta.insert("generation".into(), json!(generation + 1));
                }
            }
            // The namespace registry's own first mark sets no grace period; everything else
            // goes through the generic store, which marks with a grace period of 0.
            if !held_by_spec {
                meta.insert("deletionGracePeriodSeconds".into(), json!(0));
            }
            if finalizers.is_empty() {
                meta.remove("finalizers");
            } else {
                meta.insert("finalizers".into(), json!(finalizers));
            }
            if namespace {
                marked["status"]["phase"] = json!("Terminating");
            }
            match state.store.update(&key, object::to_stored_bytes(&marked), rev).await {
                Ok(new_rev) => return Ok((object::with_resource_version(marked, new_rev), false)),
                Err(karmadactl_store::StoreError::Conflict { .. }) => continue,
                Err(e) => return Err(store_access::store_error(e, group, plural, name)),
            }
        }
        match state.store.delete(&key, Some(rev)).await {
            Ok((del_rev, _)) => {
                state.token_cache.forget_after_write(&key, true);
                return Ok((object::with_resource_version(current, del_rev), true));
            }
            Err(karmadactl_store::StoreError::Conflict { .. }) => continue,
            Err(karmadactl_store::StoreError::NotFound { .. }) => {
                return Err(ApiError::not_found(group, plural, name));
            }
            Err(e) => return Err(store_access::store_error(e, group, plural, name)),
        }
    }
    Err(ApiError::conflict(group, plural, name, karmadactl_apimachinery::OPTIMISTIC_LOCK_ERROR_MSG))
}

/// DELETE on a collection: every object matching the selectors, each as a single delete.
pub async fn delete_collection(state: &ApiState, call: &Call, def: &ResourceDef) -> Result<Response, ApiError> {
    let opts = options(call)?;
    let dry_run = call.dry_run() || opts.dry_run.iter().any(|d| d == "All");
    let policy = opts.propagation(call)?;
    let filter = super::list::Filter::from_call(call, def)?;
    let ns = super::namespace_of(def, call);
    let prefix = store_access::prefix(&def.group, &def.plural, ns);
    let (objects, _) = store_access::list_all(state, &prefix).await?;
    let mut deleted = Vec::new();
    for obj in objects.iter().filter(|o| filter.matches(def, o)) {
        let name = object::meta_str(obj, "name").unwrap_or_default().to_string();
        let obj_ns = object::meta_str(obj, "namespace").filter(|s| !s.is_empty()).map(str::to_string);
        let target = Target { group: &def.group, plural: &def.plural, ns: obj_ns.as_deref(), name: &name };
        match delete_one(state, &target, None, policy, dry_run).await {
            Ok(o) => deleted.push(o),
            // Deleted by someone else meanwhile: that is what was asked.
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    let api_version = super::api_version(def);
    Ok(json_response(
        StatusCode::OK,
        &json!({"kind": def.list_kind, "apiVersion": api_version, "metadata": {"resourceVersion": state.store.current_revision().to_string()}, "items": deleted}),
    ))
}
