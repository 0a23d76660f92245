//! Carries out one garbage-collector action against the store. Every write is conditional on
//! the uid and revision the action was planned from; a mismatch does nothing, and the change
//! that caused it brings a fresh plan.

use karmadactl_apimachinery::ApiError;
use karmadactl_store::StoreError;
use serde_json::{Value, json};

use crate::handlers::resource::delete::{Preconditions, Target, delete_one};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

use super::gc::TOMBSTONES;
use super::gc_graph::Action;

pub async fn apply(state: &ApiState, action: &Action) -> Result<(), ApiError> {
    match action {
        Action::Delete { key, uid, rev, policy } => {
            let Some(target) = target(key) else { return Ok(()) };
            let pre = Preconditions { uid: Some(uid.clone()), resource_version: Some(rev.to_string()) };
            match delete_one(state, &target, Some(&pre), Some(*policy), false).await {
                Err(e) if e.code != 404 => Err(e),
                _ => Ok(()),
            }
        }
        Action::DropOwners { key, uid, rev, owners } => {
            edit(state, key, uid, *rev, |obj| {
                let meta = object::meta_mut(obj);
                if let Some(Value::Array(refs)) = meta.get_mut("ownerReferences") {
                    refs.retain(|r| !r["uid"].as_str().is_some_and(|u| owners.iter().any(|o| o == u)));
                    if refs.is_empty() {
                        meta.remove("ownerReferences");
                    }
                }
            })
            .await
        }
        Action::RemoveFinalizer { key, uid, rev, finalizer } => {
            edit(state, key, uid, *rev, |obj| {
                let rest: Vec<String> = object::finalizers(obj).into_iter().filter(|f| f != finalizer).collect();
                let meta = object::meta_mut(obj);
                if rest.is_empty() {
                    meta.remove("finalizers");
                } else {
                    meta.insert("finalizers".into(), json!(rest));
                }
            })
            .await
        }
        Action::ForgetTombstone { uid } => match state.store.delete(&format!("{TOMBSTONES}{uid}"), None).await {
            Ok(_) | Err(StoreError::NotFound { .. }) => Ok(()),
            Err(e) => Err(store_access::store_error(e, "", "tombstones", uid)),
        },
    }
}

/// The group, resource, namespace and name a store key stands for.
fn target(key: &str) -> Option<Target<'_>> {
    let parts: Vec<&str> = key.strip_prefix("/registry/")?.split('/').collect();
    let group = if parts[0] == "core" { "" } else { parts[0] };
    match parts.as_slice() {
        [_, plural, ns, name] => Some(Target { group, plural, ns: Some(ns), name }),
        [_, plural, name] => Some(Target { group, plural, ns: None, name }),
        _ => None,
    }
}

/// Rewrites the object at `key` if it is still `uid` at `rev`; an object marked for deletion
/// whose last finalizer goes is deleted, as the API server does.
async fn edit(
    state: &ApiState,
    key: &str,
    uid: &str,
    rev: i64,
    change: impl FnOnce(&mut Value),
) -> Result<(), ApiError> {
    let Some(kv) = state.store.get(key).await.map_err(|e| store_access::store_error(e, "", key, ""))? else {
        return Ok(());
    };
    let mut obj = store_access::decode(&kv)?;
    if kv.mod_revision != rev || object::meta_str(&obj, "uid") != Some(uid) {
        return Ok(());
    }
    change(&mut obj);
    let deleting = object::marked_for_deletion(&obj);
    let result = if deleting && object::finalizers(&obj).is_empty() {
        state.store.delete(key, Some(rev)).await.map(|_| ())
    } else {
        state.store.update(key, object::to_stored_bytes(&obj), rev).await.map(|_| ())
    };
    match result {
        Ok(()) | Err(StoreError::Conflict { .. }) | Err(StoreError::NotFound { .. }) => Ok(()),
        Err(e) => Err(store_access::store_error(e, "", key, "")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_their_objects() {
        let t = target("/registry/core/configmaps/default/a").unwrap();
        assert_eq!((t.group, t.plural, t.ns, t.name), ("", "configmaps", Some("default"), "a"));
        let t = target("/registry/rbac.authorization.k8s.io/clusterroles/view").unwrap();
        assert_eq!((t.group, t.plural, t.ns, t.name), ("rbac.authorization.k8s.io", "clusterroles", None, "view"));
        assert!(target("/gc/tombstones/x").is_none());
    }
}
