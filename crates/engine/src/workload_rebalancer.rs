//! The WorkloadRebalancer controller (upstream's `pkg/controllers/workloadrebalancer`): for each
//! workload a rebalancer lists, it sets the binding's `spec.rescheduleTriggeredAt` to the
//! rebalancer's creation time, which makes the scheduler assign the binding afresh (see
//! [`super::scheduler`]'s Fresh mode); it records each workload's result in
//! `status.observedWorkloads`, the time all finished in `status.finishTime`, and deletes the
//! rebalancer `ttlSecondsAfterFinished` after that.

use std::collections::BTreeSet;
use std::sync::{Arc, Weak};
use std::time::Duration;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_karmada_api::apps::{
    ObservedWorkload, REFERENCED_BINDING_NOT_FOUND, RebalanceResult, WorkloadRebalancer, WorkloadRebalancerStatus,
};
use kube::api::{Api, DeleteParams, Patch, PatchParams, Preconditions};
use kube::runtime::reflector::{ObjectRef, Store};
use serde_json::json;

use super::context::{BindingKey, Engine, follow};
use super::error::ReconcileError;
use super::names;
use super::queue::Queue;

/// Follows the WorkloadRebalancers and serves their queue for as long as the engine lives.
pub fn start(engine: &Arc<Engine>) {
    let queue: Arc<Queue<String>> = Queue::new();
    let events = queue.clone();
    let (store, task) = follow(Api::<WorkloadRebalancer>::all(engine.client.clone()), move |r, deleted| {
        if !deleted && let Some(name) = &r.metadata.name {
            events.add(name.clone());
        }
    });
    engine.spawn(task);
    let weak = Arc::downgrade(engine);
    let served = queue.clone();
    engine.spawn(tokio::spawn(async move {
        served
            .serve(
                move |name: String| {
                    let engine = Weak::upgrade(&weak)?;
                    let (store, queue) = (store.clone(), queue.clone());
                    Some(async move { reconcile(&engine, &store, &queue, &name).await })
                },
                super::error::policy,
            )
            .await
    }));
}

async fn reconcile(
    engine: &Engine,
    store: &Store<WorkloadRebalancer>,
    queue: &Arc<Queue<String>>,
    name: &str,
) -> Result<(), ReconcileError> {
    let Some(rebalancer) = store.get(&ObjectRef::new(name)) else {
        return Ok(());
    };
    if rebalancer.metadata.deletion_timestamp.is_some() {
        return Ok(());
    }
    let old = rebalancer.status.clone().unwrap_or_default();
    let mut status = observe(&rebalancer, &old);
    let created = rebalancer.metadata.creation_timestamp.clone();
    let mut retry = None;
    for observed in status.observed_workloads.iter_mut().filter(|o| o.result.is_none()) {
        match trigger(engine, &observed.workload, created.as_ref()).await {
            Ok(()) => observed.result = Some(RebalanceResult::Successful),
            Err(kube::Error::Api(e)) if e.code == 404 => {
                observed.result = Some(RebalanceResult::Failed);
                observed.reason = Some(REFERENCED_BINDING_NOT_FOUND.into());
            }
            Err(e) => retry = Some(e),
        }
    }
    status.finish_time = old.finish_time.clone();
    if status != old {
        if retry.is_none() {
            status.finish_time = Some(Time(jiff::Timestamp::now()));
        }
        let api: Api<WorkloadRebalancer> = Api::all(engine.client.clone());
        let patch = json!({"status": status});
        api.patch_status(name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
    }
    if let Some(e) = retry {
        return Err(e.into());
    }
    let Some(ttl) = rebalancer.spec.ttl_seconds_after_finished else {
        return Ok(());
    };
    let Some(finished) = status.finish_time.as_ref() else {
        return Ok(());
    };
    let left = time_left(finished, ttl, jiff::Timestamp::now());
    if !left.is_zero() {
        queue.add_after(name.to_string(), left);
        return Ok(());
    }
    // The resourceVersion makes sure a rebalancer changed meanwhile is looked at again first.
    let params = DeleteParams {
        preconditions: Some(Preconditions {
            resource_version: rebalancer.metadata.resource_version.clone(),
            uid: rebalancer.metadata.uid.clone(),
        }),
        ..Default::default()
    };
    match Api::<WorkloadRebalancer>::all(engine.client.clone()).delete(name, &params).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Sets `rescheduleTriggeredAt` on the workload's binding when it is older than the
/// rebalancer; a 404 means the binding does not exist.
async fn trigger(
    engine: &Engine,
    workload: &karmadactl_karmada_api::apps::WorkloadReference,
    created: Option<&Time>,
) -> Result<(), kube::Error> {
    let key = BindingKey {
        namespace: (!workload.namespace.is_empty()).then(|| workload.namespace.clone()),
        name: names::binding_name(&workload.kind, &workload.name),
    };
    let api = key.api(&engine.client);
    let binding = api.get(&key.name).await?;
    let triggered =
        binding.data["spec"]["rescheduleTriggeredAt"].as_str().and_then(|t| t.parse::<jiff::Timestamp>().ok());
    let Some(created) = created else { return Ok(()) };
    if !needs_trigger(created.0, triggered) {
        return Ok(());
    }
    let patch = json!({
        "metadata": {"resourceVersion": binding.metadata.resource_version},
        "spec": {"rescheduleTriggeredAt": created},
    });
    api.patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
    Ok(())
}

/// Upstream: a binding is triggered again only by a rebalancer created after its last trigger.
fn needs_trigger(created: jiff::Timestamp, triggered: Option<jiff::Timestamp>) -> bool {
    triggered.is_none_or(|t| created > t)
}

/// The workloads of the spec in the status, as upstream keeps them: one still listed keeps its
/// result; one no longer listed stays only if it succeeded; a new one starts with no result.
/// Sorted by apiVersion, kind, namespace and name.
fn observe(rebalancer: &WorkloadRebalancer, old: &WorkloadRebalancerStatus) -> WorkloadRebalancerStatus {
    let mut wanted: BTreeSet<_> = rebalancer.spec.workloads.iter().cloned().collect();
    let mut observed: Vec<ObservedWorkload> = vec![];
    for item in &old.observed_workloads {
        if wanted.remove(&item.workload) || item.result == Some(RebalanceResult::Successful) {
            observed.push(item.clone());
        }
    }
    observed.extend(wanted.into_iter().map(|workload| ObservedWorkload { workload, result: None, reason: None }));
    let order = |o: &ObservedWorkload| {
        let w = &o.workload;
        format!("{} {} {} {}", w.api_version, w.kind, w.namespace, w.name)
    };
    observed.sort_by_key(order);
    WorkloadRebalancerStatus {
        observed_workloads: observed,
        observed_generation: rebalancer.metadata.generation.unwrap_or(0),
        finish_time: None,
    }
}

/// How long until the rebalancer's TTL after `finished` runs out (zero once it has).
fn time_left(finished: &Time, ttl_seconds: i32, now: jiff::Timestamp) -> Duration {
    let expires = finished.0.as_second().saturating_add(i64::from(ttl_seconds.max(0)));
    let left = expires.saturating_sub(now.as_second());
    Duration::from_secs(u64::try_from(left).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_karmada_api::apps::{WorkloadRebalancerSpec, WorkloadReference};

    fn workload(name: &str) -> WorkloadReference {
        WorkloadReference {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            name: name.into(),
            namespace: "default".into(),
        }
    }

    fn observed(name: &str, result: Option<RebalanceResult>) -> ObservedWorkload {
        let reason = (result == Some(RebalanceResult::Failed)).then(|| REFERENCED_BINDING_NOT_FOUND.to_string());
        ObservedWorkload { workload: workload(name), result, reason }
    }

    #[test]
    fn the_status_follows_the_spec_as_upstream_keeps_it() {
        let mut r = WorkloadRebalancer::new(
            "r",
            WorkloadRebalancerSpec { workloads: vec![workload("c"), workload("a")], ttl_seconds_after_finished: None },
        );
        r.metadata.generation = Some(2);
        let old = WorkloadRebalancerStatus {
            observed_workloads: vec![
                observed("a", Some(RebalanceResult::Failed)),
                observed("gone-ok", Some(RebalanceResult::Successful)),
                observed("gone-failed", Some(RebalanceResult::Failed)),
            ],
            observed_generation: 1,
            finish_time: None,
        };
        let s = observe(&r, &old);
        assert_eq!(
            s.observed_workloads,
            [
                observed("a", Some(RebalanceResult::Failed)),
                observed("c", None),
                observed("gone-ok", Some(RebalanceResult::Successful)),
            ]
        );
        assert_eq!(s.observed_generation, 2);
    }

    #[test]
    fn a_binding_is_triggered_once_per_newer_rebalancer() {
        let t = |s: i64| jiff::Timestamp::from_second(s).unwrap();
        assert!(needs_trigger(t(10), None));
        assert!(needs_trigger(t(10), Some(t(9))));
        assert!(!needs_trigger(t(10), Some(t(10))));
        assert!(!needs_trigger(t(10), Some(t(11))));
    }

    #[test]
    fn ttl_counts_from_the_finish_time() {
        let finished = Time(jiff::Timestamp::from_second(100).unwrap());
        let now = |s| jiff::Timestamp::from_second(s).unwrap();
        assert_eq!(time_left(&finished, 30, now(110)), Duration::from_secs(20));
        assert_eq!(time_left(&finished, 30, now(130)), Duration::ZERO);
        assert_eq!(time_left(&finished, 0, now(100)), Duration::ZERO);
        assert_eq!(time_left(&finished, -5, now(90)), Duration::from_secs(10));
    }
}
