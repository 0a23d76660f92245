//! How objects map onto store keys, and reads/writes with store errors turned into the Status
//! errors kube-apiserver returns.
//!
//! Keys are `/registry/<group or "core">/<resource>/<namespace>/<name>` for namespaced objects
//! and `/registry/<group or "core">/<resource>/<name>` for cluster-scoped ones, so listing one
//! namespace or all namespaces is a prefix scan.

use serde::de::DeserializeOwned;
use serde_json::Value;

use karmadactl_apimachinery::ApiError;
use karmadactl_store::{KeyValue, StoreError};

use crate::handlers::served_json::ServedType;
use crate::state::ApiState;
use crate::storage::object;

fn group_segment(group: &str) -> &str {
    if group.is_empty() { "core" } else { group }
}

/// The key of one object.
pub fn key(group: &str, resource: &str, namespace: Option<&str>, name: &str) -> String {
    match namespace.filter(|ns| !ns.is_empty()) {
        Some(ns) => format!("/registry/{}/{resource}/{ns}/{name}", group_segment(group)),
        None => format!("/registry/{}/{resource}/{name}", group_segment(group)),
    }
}

/// The prefix of a collection: one namespace, or every namespace / the cluster scope.
pub fn prefix(group: &str, resource: &str, namespace: Option<&str>) -> String {
    match namespace.filter(|ns| !ns.is_empty()) {
        Some(ns) => format!("/registry/{}/{resource}/{ns}/", group_segment(group)),
        None => format!("/registry/{}/{resource}/", group_segment(group)),
    }
}

/// A stored object as JSON, with `metadata.resourceVersion` set from the store's revision.
pub fn decode(kv: &KeyValue) -> Result<Value, ApiError> {
    let obj: Value = serde_json::from_slice(&kv.value)
        .map_err(|e| ApiError::internal(&format!("stored object {} is not valid JSON: {e}", kv.key)))?;
    if !obj.is_object() {
        return Err(ApiError::internal(&format!("stored object {} is not a JSON object", kv.key)));
    }
    Ok(object::with_resource_version(obj, kv.mod_revision))
}

/// Appends a stored object as a client is served it (`apiVersion`, `kind` and
/// `metadata.resourceVersion` set): spliced from the stored bytes, or decoded and serialised
/// when they are not laid out as the store's serialiser writes them.
pub fn append_served(out: &mut Vec<u8>, kv: &KeyValue, served: &ServedType) -> Result<(), ApiError> {
    let mark = out.len();
    if served.append(out, &kv.value, kv.mod_revision).is_ok() {
        return Ok(());
    }
    out.truncate(mark);
    let mut obj = decode(kv)?;
    if let Value::Object(map) = &mut obj {
        served.set_on(map);
    }
    serde_json::to_writer(out, &obj).map_err(|e| ApiError::internal(&format!("serialising {}: {e}", kv.key)))
}

/// Maps a store failure to the Status a client sees for this resource and name.
pub fn store_error(err: StoreError, group: &str, resource: &str, name: &str) -> ApiError {
    match err {
        StoreError::AlreadyExists { .. } => ApiError::already_exists(group, resource, name),
        StoreError::NotFound { .. } => ApiError::not_found(group, resource, name),
        StoreError::Conflict { .. } => {
            ApiError::conflict(group, resource, name, karmadactl_apimachinery::OPTIMISTIC_LOCK_ERROR_MSG)
        }
        StoreError::Compacted { requested, compacted } => ApiError::resource_expired(requested, compacted + 1),
        StoreError::FutureRevision { requested, current } => ApiError::server_timeout(
            group,
            resource,
            &format!("get (resourceVersion {requested} is newer than the store's {current})"),
            1,
        ),
        // kube-apiserver answers a failing etcd (even "mvcc: database space exceeded") with an
        // InternalError carrying etcd's message; the cause is named the same way here, never
        // a bare "the storage backend failed".
        other => ApiError::internal(&format!("storage error: {}", with_causes(&other))),
    }
}

/// An error's message followed by its causes', `: `-separated.
fn with_causes(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut cause = err.source();
    while let Some(inner) = cause {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}

/// Reads one object; `Ok(None)` when it does not exist.
pub async fn get(
    state: &ApiState,
    group: &str,
    resource: &str,
    namespace: Option<&str>,
    name: &str,
) -> Result<Option<(Value, i64)>, ApiError> {
    let k = key(group, resource, namespace, name);
    match state.store.get(&k).await {
        Ok(Some(kv)) => Ok(Some((decode(&kv)?, kv.mod_revision))),
        Ok(None) => Ok(None),
        Err(e) => Err(store_error(e, group, resource, name)),
    }
}

/// Reads one object into a typed struct; `None` when missing or unreadable (authentication
/// lookups treat both as "no such credential").
pub async fn get_typed<T: DeserializeOwned>(
    state: &ApiState,
    group: &str,
    resource: &str,
    namespace: Option<&str>,
    name: &str,
) -> Option<T> {
    let (obj, _) = get(state, group, resource, namespace, name).await.ok()??;
    serde_json::from_value(obj).ok()
}

/// Every object under a prefix at the latest revision (internal controllers and bootstrap;
/// client lists page through `list` instead).
pub async fn list_all(state: &ApiState, prefix: &str) -> Result<(Vec<Value>, i64), ApiError> {
    let (kvs, revision) = list_all_stored(state, prefix).await?;
    let objects = kvs.iter().map(decode).collect::<Result<_, _>>()?;
    Ok((objects, revision))
}

/// Every stored value under a prefix at the latest revision, undecoded.
pub async fn list_all_stored(state: &ApiState, prefix: &str) -> Result<(Vec<KeyValue>, i64), ApiError> {
    let mut out = Vec::new();
    let revision = for_each_stored(state, prefix, None, |kv| out.push(kv)).await?;
    Ok((out, revision))
}

/// Hands every stored value under a prefix to `f`, from one snapshot, reading `page` values at
/// a time (`None`: all at once). Returns the snapshot's revision. A reader that keeps only a
/// little of each value pages, so it never holds the whole prefix's bytes at once.
pub async fn for_each_stored(
    state: &ApiState,
    prefix: &str,
    page: Option<usize>,
    mut f: impl FnMut(KeyValue),
) -> Result<i64, ApiError> {
    use karmadactl_store::ListOptions;
    let mut opts = ListOptions { limit: page, skip_remaining_count: true, ..ListOptions::default() };
    loop {
        let listed = state.store.list(prefix, opts.clone()).await.map_err(|e| store_error(e, "", prefix, ""))?;
        listed.items.into_iter().for_each(&mut f);
        match listed.continue_after {
            Some(after) => {
                opts.start_after = Some(after);
                opts.revision = Some(listed.revision);
            }
            None => return Ok(listed.revision),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_prefixes() {
        assert_eq!(key("", "configmaps", Some("default"), "a"), "/registry/core/configmaps/default/a");
        assert_eq!(key("apps", "deployments", Some("ns"), "d"), "/registry/apps/deployments/ns/d");
        assert_eq!(key("", "namespaces", None, "default"), "/registry/core/namespaces/default");
        assert_eq!(prefix("", "configmaps", Some("default")), "/registry/core/configmaps/default/");
        assert_eq!(prefix("", "configmaps", None), "/registry/core/configmaps/");
        assert!(key("", "configmaps", Some("default"), "a").starts_with(&prefix("", "configmaps", Some("default"))));
    }
}
