//! AggregateStatus for built-in kinds (upstream's `aggregatestatus.go`): the template's status
//! rebuilt from the statuses its members reported. This file holds the table, the replica
//! workloads (counters summed, `observedGeneration` advanced once every member has caught up)
//! and the autoscaler and disruption budget (counters summed); Jobs, phases and load
//! balancers have their own files.

use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Map, Value, json};

use super::{Gvk, aggregate_job, aggregate_load_balancer, aggregate_phase, fields, invalid};
use crate::{InterpretError, Operation, Target};

/// The kinds with an aggregation handler.
pub const KINDS: &[Gvk] = &[
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("v1", "Service"),
    ("networking.k8s.io/v1", "Ingress"),
    ("batch/v1", "Job"),
    ("batch/v1", "CronJob"),
    ("apps/v1", "DaemonSet"),
    ("apps/v1", "StatefulSet"),
    ("v1", "Pod"),
    ("v1", "PersistentVolume"),
    ("v1", "PersistentVolumeClaim"),
    ("policy/v1", "PodDisruptionBudget"),
    ("autoscaling/v2", "HorizontalPodAutoscaler"),
];

/// A workload's summed counters: the ones always written, then the `omitempty` ones.
struct Counters {
    always: &'static [&'static str],
    optional: &'static [&'static str],
}

const DEPLOYMENT: Counters = Counters {
    always: &[],
    optional: &["replicas", "readyReplicas", "updatedReplicas", "availableReplicas", "unavailableReplicas"],
};
const REPLICA_SET: Counters = Counters { always: &["replicas"], optional: &["readyReplicas", "availableReplicas"] };
const DAEMON_SET: Counters = Counters {
    always: &["currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"],
    optional: &["updatedNumberScheduled", "numberAvailable", "numberUnavailable"],
};
const STATEFUL_SET: Counters = Counters {
    always: &["replicas", "availableReplicas"],
    optional: &["readyReplicas", "currentReplicas", "updatedReplicas"],
};

/// The template with its status aggregated, `None` for a kind without a handler.
pub fn aggregate(object: &Value, items: &[AggregatedStatusItem]) -> Option<Result<Value, InterpretError>> {
    let target = Target::of(object);
    if let Err(e) = check_items(items) {
        return Some(Err(e));
    }
    let out = match (target.api_version.as_str(), target.kind.as_str()) {
        ("apps/v1", "Deployment") => workload(object, items, &DEPLOYMENT),
        ("apps/v1", "ReplicaSet") => workload(object, items, &REPLICA_SET),
        ("apps/v1", "DaemonSet") => workload(object, items, &DAEMON_SET),
        ("apps/v1", "StatefulSet") => workload(object, items, &STATEFUL_SET),
        ("v1", "Service") => aggregate_load_balancer::service(object, items),
        ("networking.k8s.io/v1", "Ingress") => aggregate_load_balancer::ingress(object, items),
        ("batch/v1", "Job") => aggregate_job::job(object, items),
        ("batch/v1", "CronJob") => aggregate_job::cron_job(object, items),
        ("v1", "Pod") => aggregate_phase::pod(object, items),
        ("v1", "PersistentVolume") => aggregate_phase::persistent_volume(object, items),
        ("v1", "PersistentVolumeClaim") => aggregate_phase::persistent_volume_claim(object, items),
        ("policy/v1", "PodDisruptionBudget") => disruption_budget(object, items),
        ("autoscaling/v2", "HorizontalPodAutoscaler") => autoscaler(object, items),
        _ => return None,
    };
    Some(Ok(out))
}

/// Upstream unmarshals every reported status into the kind's status type; one that is not
/// an object is refused rather than read as empty.
fn check_items(items: &[AggregatedStatusItem]) -> Result<(), InterpretError> {
    match items.iter().find(|i| i.status.as_ref().is_some_and(|s| !s.is_object() && !s.is_null())) {
        Some(bad) => {
            let message = format!("the status reported by cluster {} is not an object", bad.cluster_name);
            Err(invalid(Operation::AggregateStatus, message))
        }
        None => Ok(()),
    }
}

/// The statuses members reported, with their cluster names (items not yet collected left out).
pub fn reported(items: &[AggregatedStatusItem]) -> impl Iterator<Item = (&str, &Value)> {
    items.iter().filter_map(|i| i.status.as_ref().filter(|s| s.is_object()).map(|s| (i.cluster_name.as_str(), s)))
}

/// Sums a replica workload's counters. `observedGeneration` becomes the template's
/// generation once every member's status is current (`observedGeneration >= generation`)
/// and made from this template generation or later (`resourceTemplateGeneration`); until
/// then it keeps its value. Nothing changes when the sums and generation are as they were.
fn workload(object: &Value, items: &[AggregatedStatusItem], counters: &Counters) -> Value {
    let generation = fields::generation(object);
    let names = || counters.always.iter().chain(counters.optional);
    let mut sums: Vec<i64> = vec![0; counters.always.len() + counters.optional.len()];
    let mut caught_up = 0;
    for (_, status) in reported(items) {
        for (sum, name) in sums.iter_mut().zip(names()) {
            *sum += fields::int(status, &format!("/{name}"));
        }
        if fields::int(status, "/observedGeneration") >= fields::int(status, "/generation")
            && fields::int(status, "/resourceTemplateGeneration") >= generation
        {
            caught_up += 1;
        }
    }
    let old = object.get("status").cloned().unwrap_or_else(|| json!({}));
    let old_observed = fields::int(&old, "/observedGeneration");
    let observed = if caught_up == items.len() { generation } else { old_observed };
    let unchanged = observed == old_observed
        && names().zip(&sums).all(|(name, sum)| fields::int(&old, &format!("/{name}")) == *sum);
    if unchanged {
        return object.clone();
    }
    let mut status = old.as_object().cloned().unwrap_or_default();
    fields::put_count(&mut status, "observedGeneration", observed);
    for (i, (name, sum)) in names().zip(&sums).enumerate() {
        if i < counters.always.len() {
            status.insert((*name).into(), json!(sum));
        } else {
            fields::put_count(&mut status, name, *sum);
        }
    }
    fields::with_status(object, status)
}

/// Sums a disruption budget's pod counts; disrupted pods are keyed `cluster/pod`.
fn disruption_budget(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    let names = ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"];
    let mut sums = [0i64; 4];
    let mut disrupted = Map::new();
    for (cluster, status) in reported(items) {
        for (sum, name) in sums.iter_mut().zip(names) {
            *sum += fields::int(status, &format!("/{name}"));
        }
        for (pod, time) in status["disruptedPods"].as_object().into_iter().flatten() {
            disrupted.insert(format!("{cluster}/{pod}"), time.clone());
        }
    }
    let mut status: Map<String, Value> = names.iter().zip(sums).map(|(n, s)| ((*n).to_string(), json!(s))).collect();
    if !disrupted.is_empty() {
        status.insert("disruptedPods".into(), Value::Object(disrupted));
    }
    fields::with_status(object, status)
}

/// Sums an autoscaler's current and desired replicas.
fn autoscaler(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    let (mut current, mut desired) = (0, 0);
    for (_, status) in reported(items) {
        current += fields::int(status, "/currentReplicas");
        desired += fields::int(status, "/desiredReplicas");
    }
    let mut status = Map::from_iter([("desiredReplicas".to_string(), json!(desired))]);
    fields::put_count(&mut status, "currentReplicas", current);
    fields::with_status(object, status)
}

#[cfg(test)]
#[path = "aggregate_status_tests.rs"]
mod tests;
