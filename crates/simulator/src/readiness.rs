//! The readiness knob: `simulation.karmadactl.io/pods-ready: "false"` on a member's workload
//! keeps its pods Running but not Ready, as a failing readiness probe would, so the workload
//! reports unhealthy (to try application failover, say). Removing it makes them Ready again.
//!
//! The owner controllers pass the annotation down (Deployment → ReplicaSets → pods; the other
//! owners → pods) and the simulated kubelet acts on the pod's copy. The engine applies Works
//! with server-side apply, so an annotation set on the member with `kubectl annotate` stays.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Patch, PatchParams};
use kube::{Api, Client, Resource, ResourceExt};
use serde_json::json;

/// The annotation; only the value `"false"` holds pods unready.
pub const PODS_READY_ANNOTATION: &str = "simulation.karmadactl.io/pods-ready";

/// Whether `meta` asks for its pods to be kept unready.
pub fn held_unready(meta: &ObjectMeta) -> bool {
    meta.annotations.as_ref().and_then(|a| a.get(PODS_READY_ANNOTATION)).is_some_and(|v| v == "false")
}

/// Gives each dependent the owner's knob (set, or removed) where it differs.
pub async fn pass_on<K>(client: &Client, ns: &str, owner: &ObjectMeta, dependents: &[K]) -> Result<(), kube::Error>
where
    K: Resource<DynamicType = (), Scope = kube::core::NamespaceResourceScope>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug,
{
    let held = held_unready(owner);
    let api: Api<K> = Api::namespaced(client.clone(), ns);
    for d in dependents.iter().filter(|d| held_unready(d.meta()) != held) {
        let value = if held { json!("false") } else { json!(null) };
        let patch = json!({"metadata": {"annotations": {PODS_READY_ANNOTATION: value}}});
        match api.patch(&d.name_any(), &PatchParams::default(), &Patch::Merge(&patch)).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_false_holds_pods_unready() {
        let meta = |v: Option<&str>| ObjectMeta {
            annotations: v.map(|v| [(PODS_READY_ANNOTATION.to_string(), v.to_string())].into()),
            ..Default::default()
        };
        assert!(held_unready(&meta(Some("false"))));
        assert!(!held_unready(&meta(Some("true"))));
        assert!(!held_unready(&meta(Some("no"))));
        assert!(!held_unready(&meta(None)));
    }
}
