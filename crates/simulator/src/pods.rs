//! The scheduler and the kubelets: pods without a node get one, and a pending pod turns Running
//! and Ready after the configured delay. Pods that are not restarted (`restartPolicy` Never or
//! OnFailure, as Jobs use) then finish with every container exiting 0. A pod held unready by
//! the readiness knob ([`readiness`]) stays Running and not Ready, as if its readiness probe
//! failed, until the knob is removed.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use futures::{Stream, StreamExt};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Patch, PatchParams};
use kube::{Api, ResourceExt};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::informer::Change;
use super::{Sim, nodes, owned, readiness, status};

/// How many pods the scheduler and kubelets update at once. Each pod waits its ready delay on
/// its own, but without a bound a burst of new pods became as many requests at once, each on
/// a connection of its own to the member's API server.
const CONCURRENT_UPDATES: usize = 16;

/// Runs the scheduler and the kubelets on the pod cache's changes.
pub async fn run(sim: Arc<Sim>, changes: impl Stream<Item = Change<Pod>> + Send + 'static) {
    let in_flight: Arc<Mutex<HashSet<String>>> = Arc::default();
    let updates = Arc::new(tokio::sync::Semaphore::new(CONCURRENT_UPDATES));
    let mut changes = std::pin::pin!(changes);
    while let Some(change) = changes.next().await {
        if change.deleted {
            continue;
        }
        let pod = change.object;
        if pod.metadata.deletion_timestamp.is_some() || !needs_work(&pod) {
            continue;
        }
        let uid = pod.uid().unwrap_or_default();
        if !in_flight.lock().expect("not poisoned").insert(uid.clone()) {
            continue;
        }
        let (sim, in_flight, updates) = (sim.clone(), in_flight.clone(), updates.clone());
        tokio::spawn(async move {
            if let Err(e) = advance(&sim, &pod, &updates).await {
                tracing::debug!(pod = %pod.name_any(), error = %e, "simulated kubelet could not update the pod");
            }
            in_flight.lock().expect("not poisoned").remove(&uid);
        });
    }
}

fn needs_work(pod: &Pod) -> bool {
    let held = readiness::held_unready(&pod.metadata);
    match owned::pod_phase(pod) {
        "Pending" => true,
        // A restarted container's readiness follows the knob; any other finishes unless held.
        "Running" if restarts(pod) => owned::pod_ready(pod) == held,
        "Running" => !held,
        _ => false,
    }
}

fn restarts(pod: &Pod) -> bool {
    pod.spec.as_ref().and_then(|s| s.restart_policy.as_deref()).unwrap_or("Always") == "Always"
}

/// Moves the pod one or two steps on after the delay. Each write carries the resourceVersion
/// of the pod as last seen, so a pod that was deleted, held or moved on meanwhile refuses it and
/// is re-read (instead of re-reading every pod before every step). Each step's requests hold
/// one of `updates`; the delays hold none.
async fn advance(sim: &Sim, seen: &Pod, updates: &Semaphore) -> Result<(), kube::Error> {
    let api: Api<Pod> = Api::namespaced(sim.client.clone(), &seen.namespace().unwrap_or_default());
    let name = seen.name_any();
    let mut pod = seen.clone();
    let mut node = pod.spec.as_ref().and_then(|s| s.node_name.clone()).unwrap_or_default();
    if node.is_empty() {
        node = sim.pick_node();
        let bind = json!({"spec": {"nodeName": node}});
        let _turn = turn(updates).await;
        pod = api.patch(&name, &PatchParams::default(), &Patch::Merge(&bind)).await?;
    }
    tokio::time::sleep(sim.config.pod_ready_delay).await;
    let node_index = sim.node_index(&node).unwrap_or(0);
    let start = |pod: &Pod| {
        let ready = !readiness::held_unready(&pod.metadata);
        match owned::pod_phase(pod) {
            "Pending" => Some(running(pod, node_index, ready)),
            "Running" if restarts(pod) && owned::pod_ready(pod) != ready => Some(readiness_status(pod, ready)),
            _ => None,
        }
    };
    let (pod, started) = {
        let _turn = turn(updates).await;
        match settle(&api, seen, pod, start).await? {
            Some(settled) => settled,
            None => return Ok(()),
        }
    };
    // A pod that is not restarted finishes: a delay after it started, or now if it already ran.
    if owned::pod_phase(&pod) != "Running" || restarts(&pod) || readiness::held_unready(&pod.metadata) {
        return Ok(());
    }
    if started {
        tokio::time::sleep(sim.config.pod_ready_delay).await;
    }
    let finish = |pod: &Pod| {
        (owned::pod_phase(pod) == "Running" && !restarts(pod) && !readiness::held_unready(&pod.metadata))
            .then(|| succeeded(pod))
    };
    let _turn = turn(updates).await;
    settle(&api, seen, pod, finish).await?;
    Ok(())
}

/// How often a status write whose pod changed in between re-reads it and tries again.
const SETTLE_TRIES: usize = 3;

/// Writes the status `step` wants for `pod` (nothing when it wants none), on the condition
/// that the pod is still at the version read. Returns the pod afterwards and whether it wrote,
/// or `None` when the pod is gone, being deleted, or another pod of the same name.
async fn settle(
    api: &Api<Pod>,
    seen: &Pod,
    mut pod: Pod,
    step: impl Fn(&Pod) -> Option<Value>,
) -> Result<Option<(Pod, bool)>, kube::Error> {
    let name = seen.name_any();
    for _ in 0..SETTLE_TRIES {
        if pod.metadata.uid != seen.metadata.uid || pod.metadata.deletion_timestamp.is_some() {
            return Ok(None);
        }
        let Some(status) = step(&pod) else { return Ok(Some((pod, false))) };
        let patch = json!({"metadata": {"resourceVersion": pod.resource_version()}, "status": status});
        match api.patch_status(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
            Ok(written) => return Ok(Some((written, true))),
            Err(kube::Error::Api(e)) if e.code == 404 => return Ok(None),
            Err(kube::Error::Api(e)) if e.code == 409 => match api.get_opt(&name).await? {
                Some(current) => pod = current,
                None => return Ok(None),
            },
            Err(e) => return Err(e),
        }
    }
    // Still changing: its next watch event brings it back.
    Ok(None)
}

/// A place among the updates in flight; the semaphore is never closed.
async fn turn(updates: &Semaphore) -> Option<tokio::sync::SemaphorePermit<'_>> {
    updates.acquire().await.ok()
}

fn containers(pod: &Pod) -> Vec<(String, String)> {
    pod.spec
        .iter()
        .flat_map(|s| s.containers.iter())
        .map(|c| (c.name.clone(), c.image.clone().unwrap_or_default()))
        .collect()
}

fn conditions(ready: &str, reason: Option<&str>) -> Value {
    let now = status::now();
    let cond = |t: &str, s: &str| {
        let mut c = json!({"type": t, "status": s, "lastProbeTime": null, "lastTransitionTime": now});
        if s == "False"
            && let Some(r) = reason
        {
            c["reason"] = json!(r);
        }
        c
    };
    json!([
        cond("PodReadyToStartContainers", "True"),
        cond("Initialized", "True"),
        cond("Ready", ready),
        cond("ContainersReady", ready),
        cond("PodScheduled", "True"),
    ])
}

/// The statuses of running containers, ready or not.
fn running_containers(pod: &Pod, started_at: &Value, ready: bool) -> Vec<Value> {
    containers(pod)
        .into_iter()
        .map(|(name, image)| {
            json!({
                "name": name, "image": image, "imageID": format!("simulated://{image}"),
                "containerID": format!("simulated://{}-{name}", pod.uid().unwrap_or_default()),
                "ready": ready, "started": true, "restartCount": 0,
                "state": {"running": {"startedAt": started_at}},
            })
        })
        .collect()
}

/// A running pod's readiness turned: its conditions and container statuses say so.
fn readiness_status(pod: &Pod, ready: bool) -> Value {
    let started =
        pod.status.as_ref().and_then(|s| s.start_time.as_ref()).map(|t| json!(t)).unwrap_or(json!(status::now()));
    let (value, reason) = if ready { ("True", None) } else { ("False", Some("ContainersNotReady")) };
    json!({"conditions": conditions(value, reason), "containerStatuses": running_containers(pod, &started, ready)})
}

fn running(pod: &Pod, node_index: usize, ready: bool) -> Value {
    let now = status::now();
    let statuses = running_containers(pod, &json!(now), ready);
    let (value, reason) = if ready { ("True", None) } else { ("False", Some("ContainersNotReady")) };
    // A pod address from the node's range, derived from the uid so it is stable per pod.
    let host = pod.uid().unwrap_or_default().bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    let ip = format!("10.244.{node_index}.{}", host % 250 + 2);
    json!({
        "phase": "Running",
        "conditions": conditions(value, reason),
        "hostIP": nodes::node_ip(node_index),
        "hostIPs": [{"ip": nodes::node_ip(node_index)}],
        "podIP": ip,
        "podIPs": [{"ip": ip}],
        "startTime": now,
        "qosClass": "BestEffort",
        "containerStatuses": statuses,
    })
}

fn succeeded(pod: &Pod) -> Value {
    let now = status::now();
    let started = pod.status.as_ref().and_then(|s| s.start_time.as_ref()).map(|t| json!(t)).unwrap_or(json!(now));
    let statuses: Vec<Value> = containers(pod)
        .into_iter()
        .map(|(name, image)| {
            json!({
                "name": name, "image": image, "imageID": format!("simulated://{image}"),
                "containerID": format!("simulated://{}-{name}", pod.uid().unwrap_or_default()),
                "ready": false, "started": false, "restartCount": 0,
                "state": {"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": started, "finishedAt": now}},
            })
        })
        .collect();
    json!({
        "phase": "Succeeded",
        "conditions": conditions("False", Some("PodCompleted")),
        "containerStatuses": statuses,
    })
}
