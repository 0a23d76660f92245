//! The scale target of an FHPA: the template in the plane, the ResourceBinding that says where
//! it runs (the Ready clusters of its schedule and the replicas they were given), and the
//! write of its new `spec.replicas`. What goes wrong is said as upstream's controller says it.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use karmadactl_karmada_api::autoscaling::federated_hpa::FederatedHPA;
use karmadactl_karmada_api::cluster::Cluster;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, GroupVersionKind, Patch, PatchParams};
use kube::runtime::reflector::ObjectRef;
use serde_json::json;

use super::members;
use crate::context::Engine;
use crate::names;

/// What a sync found wrong before any metric was computed: the condition to set and the
/// event to record.
pub struct Stop {
    pub condition: (&'static str, &'static str, String),
    pub event: (&'static str, String),
}

/// The target, its binding's ready clusters and the replicas they run.
pub struct ScaleTarget {
    pub object: DynamicObject,
    /// Where the target is written.
    pub api: Api<DynamicObject>,
    pub replicas: i32,
    pub selector: Option<String>,
    pub clusters: Vec<String>,
    pub member_replicas: i32,
}

pub async fn read_target(engine: &Engine, fhpa: &FederatedHPA) -> Result<ScaleTarget, Stop> {
    let namespace = fhpa.namespace().unwrap_or_default();
    let r = &fhpa.spec.scale_target_ref;
    let api_version = r.api_version.clone().unwrap_or_default();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", &api_version));
    let scale_stop = |e: String| Stop {
        condition: ("FailedGetScale", "the HPA controller was unable to get the target's current scale", e.clone()),
        event: ("FailedGetScale", e),
    };
    let gvk = GroupVersionKind::gvk(group, version, &r.kind);
    let (resource, _) = kube::discovery::pinned_kind(&engine.client, &gvk)
        .await
        .map_err(|e| scale_stop(format!("unable to determine resource for scale target reference: {e}")))?;
    let api: Api<DynamicObject> = Api::namespaced_with(engine.client.clone(), &namespace, &resource);
    let object = api.get(&r.name).await.map_err(|e| {
        let e = match e {
            kube::Error::Api(s) => s.message,
            other => other.to_string(),
        };
        Stop {
            condition: (
                "FailedGetScaleTargetRef",
                "the HPA controller was unable to get the target reference object",
                e.clone(),
            ),
            event: ("FailedGetScaleTargetRef", e),
        }
    })?;
    let binding_name = names::binding_name(&r.kind, &r.name);
    let binding = engine.caches.bindings.get(&ObjectRef::new(&binding_name).within(&namespace)).ok_or_else(|| {
        let e = format!("resourcebindings.work.karmada.io \"{binding_name}\" not found");
        Stop {
            condition: (
                "FailedGetBinding",
                "the HPA controller was unable to get the binding by scaleTargetRef",
                e.clone(),
            ),
            event: ("FailedGetBindings", e),
        }
    })?;
    let scheduled = binding.spec.clusters.clone().unwrap_or_default();
    if scheduled.is_empty() {
        let e = "binding has no schedulable clusters".to_string();
        return Err(Stop {
            condition: (
                "FailedGetTargetClusters",
                "the HPA controller was unable to get the target clusters from binding",
                e.clone(),
            ),
            event: ("FailedGetTargetClusters", e),
        });
    }
    let clusters_state = engine.caches.clusters.state();
    let ready = |name: &str| clusters_state.iter().find(|c| c.name_any() == name).is_some_and(|c| cluster_ready(c));
    let clusters: Vec<String> = scheduled.iter().filter(|c| ready(&c.name)).map(|c| c.name.clone()).collect();
    let member_replicas = scheduled.iter().filter(|c| ready(&c.name)).map(|c| c.replicas.unwrap_or(0)).sum();
    let replicas = object.data["spec"]["replicas"].as_i64().map_or(1, |r| i32::try_from(r).unwrap_or(i32::MAX));
    let selector = serde_json::from_value::<LabelSelector>(object.data["spec"]["selector"].clone())
        .ok()
        .and_then(|s| members::selector_query(&s));
    Ok(ScaleTarget { object, api, replicas, selector, clusters, member_replicas })
}

fn cluster_ready(c: &Cluster) -> bool {
    c.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .into_iter()
        .flatten()
        .any(|c| c.type_ == "Ready" && c.status == "True")
}

/// Writes the template's `spec.replicas`, guarded by the version read, as the scale
/// subresource's update is.
pub async fn scale(target: &ScaleTarget, replicas: i32) -> Result<(), String> {
    let object = &target.object;
    let patch = json!({"metadata": {"resourceVersion": object.resource_version()}, "spec": {"replicas": replicas}});
    target.api.patch(&object.name_any(), &PatchParams::default(), &Patch::Merge(patch)).await.map(drop).map_err(|e| {
        match e {
            kube::Error::Api(s) => s.message,
            other => other.to_string(),
        }
    })
}
