//! The ResourceQuota controller, in part: kube-controller-manager's quota controller writes each
//! quota's `status.hard` (its `spec.hard`) and `status.used`. The simulation mirrors `hard` and
//! counts what it can count without quantity arithmetic (this crate has none): `pods` and
//! `count/pods`, the namespace's pods that have not finished. Other resources stay out of
//! `used` rather than being reported as zero.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{Pod, ResourceQuota};
use kube::runtime::controller::{self, Action};
use kube::runtime::reflector::ObjectRef;
use kube::runtime::{Controller, watcher};
use kube::{Api, ResourceExt};
use serde_json::{Map, Value, json};

use super::{Sim, status};

/// The resource names whose usage the simulation computes.
const COUNTED: &[&str] = &["pods", "count/pods"];

/// Runs the controller: a quota is looked at when it changes and when a pod of its namespace
/// does.
pub async fn run(sim: Arc<Sim>, pods: impl futures::Stream<Item = Arc<Pod>> + Send + 'static) {
    let quotas: Api<ResourceQuota> = Api::all(sim.client.clone());
    let controller = Controller::new(quotas, watcher::Config::default())
        .with_config(controller::Config::default().concurrency(super::CONCURRENT_SYNCS));
    let store = controller.store();
    controller
        .watches_shared_stream(pods, move |pod: Arc<Pod>| {
            let ns = pod.namespace().unwrap_or_default();
            store
                .state()
                .into_iter()
                .filter(|q| q.namespace().as_deref() == Some(ns.as_str()))
                .map(|q| ObjectRef::from_obj(q.as_ref()))
                .collect::<Vec<_>>()
        })
        .run(reconcile, error_policy, sim)
        .for_each(|result| async move {
            if let Err(e) = result {
                tracing::debug!(error = %e, "simulated quota controller could not reconcile; it retries");
            }
        })
        .await;
}

async fn reconcile(quota: Arc<ResourceQuota>, sim: Arc<Sim>) -> Result<Action, kube::Error> {
    let Some(ns) = quota.namespace() else { return Ok(super::done()) };
    if quota.metadata.deletion_timestamp.is_some() {
        return Ok(super::done());
    }
    let hard = serde_json::to_value(quota.spec.as_ref().and_then(|s| s.hard.clone())).unwrap_or(Value::Null);
    let hard = hard.as_object().cloned().unwrap_or_default();
    let mut used = Map::new();
    if hard.keys().any(|k| COUNTED.contains(&k.as_str())) {
        let pods = Api::<Pod>::namespaced(sim.client.clone(), &ns).list(&Default::default()).await?;
        let running = pods.items.iter().filter(|p| counts(p)).count();
        for name in hard.keys().filter(|k| COUNTED.contains(&k.as_str())) {
            used.insert(name.clone(), json!(running.to_string()));
        }
    }
    let current = serde_json::to_value(&quota.status).unwrap_or(Value::Null);
    status::write::<ResourceQuota>(&sim.client, &ns, &quota.name_any(), &current, json!({"hard": hard, "used": used}))
        .await?;
    Ok(super::done())
}

/// kube's quota counts a pod until it has finished (or is being deleted past its grace).
fn counts(pod: &Pod) -> bool {
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
    !matches!(phase, Some("Succeeded" | "Failed")) && pod.metadata.deletion_timestamp.is_none()
}

fn error_policy(_quota: Arc<ResourceQuota>, error: &kube::Error, _sim: Arc<Sim>) -> Action {
    tracing::debug!(error = %error, "simulated quota controller retries after an error");
    Action::requeue(Duration::from_secs(1))
}
