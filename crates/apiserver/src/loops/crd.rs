//! Serves CustomResourceDefinitions: each stored CRD becomes served resources in the registry
//! within one watch event, gets its `Established` and `NamesAccepted` conditions, and when it
//! is deleted its custom objects are deleted with it.

use std::sync::Arc;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use karmadactl_store::{Event, EventKind};
use serde_json::{Value, json};

use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

pub const PREFIX: &str = "/registry/apiextensions.k8s.io/customresourcedefinitions/";

pub struct CrdCache;

impl super::follow::Follower for CrdCache {
    async fn resync(&self, state: &Arc<ApiState>, objects: Vec<Value>) {
        let mut registry = state.config.base_registry();
        for obj in &objects {
            if let Ok(crd) = serde_json::from_value::<CustomResourceDefinition>(obj.clone())
                && let Err(e) = registry.apply_crd(&crd)
            {
                tracing::warn!(crd = ?crd.metadata.name, error = %e, "a stored CRD cannot be served");
            }
        }
        if let Ok(mut r) = state.registry.write() {
            *r = registry;
        }
        state.crds_synced.store(true, std::sync::atomic::Ordering::Release);
        for obj in objects {
            establish(state, obj).await;
        }
    }

    async fn event(&self, state: &Arc<ApiState>, event: Event) {
        let Ok(obj) = store_access::decode(&event.kv) else { return };
        match event.kind {
            EventKind::Created | EventKind::Updated => {
                if let Ok(crd) = serde_json::from_value::<CustomResourceDefinition>(obj.clone()) {
                    if let Ok(mut r) = state.registry.write()
                        && let Err(e) = r.apply_crd(&crd)
                    {
                        tracing::warn!(crd = ?crd.metadata.name, error = %e, "CRD cannot be served");
                    }
                    establish(state, obj).await;
                }
            }
            EventKind::Deleted => {
                let Ok(crd) = serde_json::from_value::<CustomResourceDefinition>(obj) else { return };
                let name = crd.metadata.name.clone().unwrap_or_default();
                if let Ok(mut r) = state.registry.write() {
                    r.remove_crd(&name);
                }
                // The CRD's objects are owned by it: the prefix is exactly its group and plural.
                let prefix = store_access::prefix(&crd.spec.group, &crd.spec.names.plural, None);
                if let Ok((objects, _)) = store_access::list_all(state, &prefix).await {
                    for o in objects {
                        let ns = object::meta_str(&o, "namespace").filter(|s| !s.is_empty()).map(str::to_string);
                        let n = object::meta_str(&o, "name").unwrap_or_default().to_string();
                        let key = store_access::key(&crd.spec.group, &crd.spec.names.plural, ns.as_deref(), &n);
                        let _ = state.store.delete(&key, None).await;
                    }
                }
            }
        }
    }
}

/// Sets `status.acceptedNames` and the `NamesAccepted`/`Established` conditions once.
async fn establish(state: &ApiState, obj: Value) {
    let established = obj
        .get("status")
        .and_then(|s| s.get("conditions"))
        .and_then(Value::as_array)
        .is_some_and(|c| c.iter().any(|c| c["type"] == "Established" && c["status"] == "True"));
    if established {
        return;
    }
    let Some(name) = object::meta_str(&obj, "name").map(str::to_string) else { return };
    let Some(rev) = object::meta_str(&obj, "resourceVersion").and_then(object::parse_resource_version) else { return };
    let now = object::now_rfc3339();
    let mut updated = obj.clone();
    updated["status"] = json!({
        "acceptedNames": obj.get("spec").and_then(|s| s.get("names")).cloned().unwrap_or(json!({})),
        "conditions": [
            {"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": now},
            {"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": now},
        ],
        "storedVersions": stored_versions(&obj),
    });
    let key = store_access::key("apiextensions.k8s.io", "customresourcedefinitions", None, &name);
    // A concurrent update wins; its own event brings the CRD back here.
    let _ = state.store.update(&key, object::to_stored_bytes(&updated), rev).await;
}

fn stored_versions(obj: &Value) -> Value {
    let versions = obj
        .get("spec")
        .and_then(|s| s.get("versions"))
        .and_then(Value::as_array)
        .map(|vs| {
            vs.iter()
                .filter(|v| v["storage"] == true)
                .filter_map(|v| v["name"].as_str().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    json!(versions)
}
