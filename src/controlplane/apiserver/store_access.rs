//! How objects map onto store keys, and reads/writes with store errors turned into the Status
//! errors kube-apiserver returns.
//!
//! Keys are `/registry/<group or "core">/<resource>/<namespace>/<name>` for namespaced objects
//! and `/registry/<group or "core">/<resource>/<name>` for cluster-scoped ones, so listing one
//! namespace or all namespaces is a prefix scan.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::controlplane::apimachinery::ApiError;
use crate::controlplane::store::{KeyValue, StoreError};

use super::object;
use super::state::ApiState;

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
    Ok(object::with_resource_version(obj, kv.mod_revision))
}

/// Maps a store failure to the Status a client sees for this resource and name.
pub fn store_error(err: StoreError, group: &str, resource: &str, name: &str) -> ApiError {
    match err {
        StoreError::AlreadyExists { .. } => ApiError::already_exists(group, resource, name),
        StoreError::NotFound { .. } => ApiError::not_found(group, resource, name),
        StoreError::Conflict { .. } => {
            ApiError::conflict(group, resource, name, crate::controlplane::apimachinery::OPTIMISTIC_LOCK_ERROR_MSG)
        }
        StoreError::Compacted { requested, compacted } => ApiError::resource_expired(requested, compacted + 1),
        StoreError::FutureRevision { requested, current } => ApiError::server_timeout(
            group,
            resource,
            &format!("get (resourceVersion {requested} is newer than the store's {current})"),
            1,
        ),
        other => ApiError::internal(&format!("storage error: {other}")),
    }
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
    let (kvs, rev) = list_all_keyed(state, prefix).await?;
    Ok((kvs.iter().map(decode).collect::<Result<_, _>>()?, rev))
}

/// Every key and value under a prefix at the latest revision, for callers that need the keys.
pub async fn list_all_keyed(state: &ApiState, prefix: &str) -> Result<(Vec<KeyValue>, i64), ApiError> {
    use crate::controlplane::store::ListOptions;
    let mut out = Vec::new();
    let mut opts = ListOptions::default();
    loop {
        let page = state.store.list(prefix, opts.clone()).await.map_err(|e| store_error(e, "", prefix, ""))?;
        out.extend(page.items);
        match page.continue_after {
            Some(after) => {
                opts.start_after = Some(after);
                opts.revision = Some(page.revision);
            }
            None => return Ok((out, page.revision)),
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
