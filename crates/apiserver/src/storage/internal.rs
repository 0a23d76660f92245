//! Writes the plane makes on its own behalf (bootstrap objects, controller status updates),
//! with the same server-owned metadata a client create would get.

use serde_json::Value;

use karmadactl_apimachinery::ApiError;
use karmadactl_store::StoreError;

use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

/// Creates `obj` unless an object with its name exists. Returns whether it was created.
pub async fn create_if_missing(
    state: &ApiState,
    group: &str,
    resource: &str,
    mut obj: Value,
) -> Result<bool, ApiError> {
    let name = object::meta_str(&obj, "name").unwrap_or_default().to_string();
    let ns = object::meta_str(&obj, "namespace").filter(|s| !s.is_empty()).map(str::to_string);
    let meta = object::meta_mut(&mut obj);
    meta.insert("uid".into(), Value::String(karmadactl_apimachinery::new_uid()));
    meta.insert("creationTimestamp".into(), Value::String(object::now_rfc3339()));
    if crate::registry::builtin_tracks_generation(group, resource) {
        meta.entry("generation").or_insert(Value::from(1));
    }
    let key = store_access::key(group, resource, ns.as_deref(), &name);
    match state.store.create(&key, object::to_stored_bytes(&obj)).await {
        Ok(_) => Ok(true),
        Err(StoreError::AlreadyExists { .. }) => Ok(false),
        Err(e) => Err(store_access::store_error(e, group, resource, &name)),
    }
}

/// Creates each `(group, resource, object)` unless it exists, all at once: the store's writer
/// commits concurrent writes together, so a fresh plane's hundred-odd bootstrap objects cost a
/// few disk flushes instead of one each. Fails with the first error, after every write settled.
pub async fn create_all_if_missing(
    state: &ApiState,
    objects: impl IntoIterator<Item = (&str, &str, Value)>,
) -> Result<(), ApiError> {
    let writes = objects.into_iter().map(|(group, resource, obj)| create_if_missing(state, group, resource, obj));
    let results = futures::future::join_all(writes).await;
    results.into_iter().find_map(Result::err).map_or(Ok(()), Err)
}
