//! MultiClusterService conditions as upstream's controllers write them (`ServiceApplied`,
//! `EndpointSliceDispatched`), plus one saying plainly that type LoadBalancer is not
//! implemented; and for MultiClusterIngress, whose status has no conditions, a Warning Event
//! per generation saying the same.

use std::sync::Arc;

use k8s_openapi::api::core::v1::ObjectReference;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::{Value, json};

use super::PlaneCaches;
use super::collect::Memo;
use super::dispatch::Dispatched;
use super::kinds::{self, CrossCluster};
use crate::context::Engine;
use crate::events;

/// Condition type for a requested type this plane does not implement.
pub const LOAD_BALANCER_CONDITION: &str = "LoadBalancerApplied";
pub const NOT_IMPLEMENTED: &str = "NotImplemented";

/// The conditions each MultiClusterService should show; written when they differ.
pub async fn services(engine: &Engine, services: &[CrossCluster], dispatched: &Dispatched) -> Result<(), kube::Error> {
    let api =
        |ns: &str| Api::<DynamicObject>::namespaced_with(engine.client.clone(), ns, &kinds::multi_cluster_service());
    for mcs in services.iter().filter(|m| m.object.metadata.deletion_timestamp.is_none()) {
        let mut wanted: Vec<(&str, bool, &str, String)> = Vec::new();
        if mcs.cross_cluster {
            match dispatched.service_problems.get(&(mcs.namespace.clone(), mcs.name.clone())) {
                Some(problem) => wanted.push(("ServiceApplied", false, "ServiceAppliedFailed", problem.clone())),
                None => wanted.push((
                    "ServiceApplied",
                    true,
                    "ServiceAppliedSucceed",
                    "Service is propagated to target clusters.".into(),
                )),
            }
            match &dispatched.result {
                Ok(()) => wanted.push((
                    "EndpointSliceDispatched",
                    true,
                    "EndpointSliceDispatchedSucceed",
                    "EndpointSlice are dispatched successfully".into(),
                )),
                Err(e) => {
                    wanted.push(("EndpointSliceDispatched", false, "EndpointSliceDispatchedFailed", e.to_string()))
                }
            }
        }
        if mcs.load_balancer {
            wanted.push((
                LOAD_BALANCER_CONDITION,
                false,
                NOT_IMPLEMENTED,
                "this Karmada plane does not implement MultiClusterService type LoadBalancer: no load balancer is \
                 provisioned for the Service"
                    .into(),
            ));
        }
        let current = mcs.object.data["status"]["conditions"].clone();
        let conditions = merge(&current, &wanted, mcs.object.metadata.generation);
        if conditions == current {
            continue;
        }
        let patch = json!({"status": {"conditions": conditions}});
        match api(&mcs.namespace).patch_status(&mcs.name, &PatchParams::default(), &Patch::Merge(&patch)).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// `meta.SetStatusCondition` for each wanted condition: the transition time changes only with
/// the status. Conditions of other types are kept.
fn merge(current: &Value, wanted: &[(&str, bool, &str, String)], generation: Option<i64>) -> Value {
    let mut list: Vec<Value> = current.as_array().cloned().unwrap_or_default();
    for (type_, ok, reason, message) in wanted {
        let status = if *ok { "True" } else { "False" };
        let at = list.iter().position(|c| c["type"] == *type_);
        let old = at.map(|i| &list[i]);
        let since = match old {
            Some(o) if o["status"] == status => o["lastTransitionTime"].clone(),
            _ => json!(jiff::Timestamp::now().round(jiff::Unit::Second).unwrap_or_else(|_| jiff::Timestamp::now())),
        };
        let mut c = json!({"type": type_, "status": status, "reason": reason, "message": message,
                           "lastTransitionTime": since});
        if let Some(g) = generation {
            c["observedGeneration"] = json!(g);
        }
        if old == Some(&c) {
            continue;
        }
        match at {
            Some(i) => list[i] = c,
            None => list.push(c),
        }
    }
    if list.is_empty() && current.is_null() { Value::Null } else { json!(list) }
}

/// A Warning per MultiClusterIngress generation: stored, not acted on.
pub async fn ingresses(engine: &Engine, caches: &PlaneCaches, memo: &mut Memo) {
    let ingresses: Vec<Arc<DynamicObject>> = caches.ingresses.state();
    memo.ingresses_warned.retain(|uid, _| ingresses.iter().any(|i| i.uid().as_deref() == Some(uid.as_str())));
    for i in ingresses {
        let (Some(uid), generation) = (i.uid(), i.metadata.generation.unwrap_or(0)) else { continue };
        if memo.ingresses_warned.get(&uid) == Some(&generation) || i.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let target = ObjectReference {
            api_version: Some("networking.karmada.io/v1alpha1".into()),
            kind: Some("MultiClusterIngress".into()),
            namespace: i.namespace(),
            name: Some(i.name_any()),
            uid: Some(uid.clone()),
            ..Default::default()
        };
        let message = "this Karmada plane does not implement MultiClusterIngress: the object is stored, and no \
                       ingress or load balancer is set up for it";
        events::record(engine, target, events::WARNING, "multiclusteringress-controller", NOT_IMPLEMENTED, message)
            .await;
        memo.ingresses_warned.insert(uid, generation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transition_time_kept_while_the_status_stays() {
        let current = json!([{"type": "ServiceApplied", "status": "True", "reason": "ServiceAppliedSucceed",
            "message": "Service is propagated to target clusters.", "lastTransitionTime": "2024-01-01T00:00:00Z",
            "observedGeneration": 1}, {"type": "Other", "status": "True"}]);
        let same =
            [("ServiceApplied", true, "ServiceAppliedSucceed", "Service is propagated to target clusters.".into())];
        assert_eq!(merge(&current, &same, Some(1)), current);
        let failed = [("ServiceApplied", false, "ServiceAppliedFailed", "gone".into())];
        let out = merge(&current, &failed, Some(1));
        assert_eq!(out[0]["status"], "False");
        assert_ne!(out[0]["lastTransitionTime"], "2024-01-01T00:00:00Z");
        assert_eq!(out[1]["type"], "Other");
    }
}
