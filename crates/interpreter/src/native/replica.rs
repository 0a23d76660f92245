//! InterpretReplica for built-in workloads (upstream's `replica.go`): the desired replica
//! count and what one replica needs (`helper.GenerateReplicaRequirements`).

use std::collections::BTreeMap;

use karmadactl_karmada_api::work::replicas::{NodeClaim, ReplicaRequirements};
use serde_json::Value;

use super::{Gvk, resources};
use crate::{Replicas, Target};

/// The kinds with a replica handler.
pub const KINDS: &[Gvk] = &[
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("apps/v1", "StatefulSet"),
    ("batch/v1", "Job"),
    ("v1", "Pod"),
];

/// The replicas and per-replica requirements, `None` for a kind without a handler.
pub fn replicas(object: &Value) -> Option<Replicas> {
    let target = Target::of(object);
    let spec = &object["spec"];
    let (replicas, pod_spec) = match (target.api_version.as_str(), target.kind.as_str()) {
        ("apps/v1", "Deployment" | "ReplicaSet" | "StatefulSet") => {
            // The API server defaults a missing count to 1 before upstream ever reads it.
            (spec["replicas"].as_i64().unwrap_or(1), &spec["template"]["spec"])
        }
        ("batch/v1", "Job") => (job_replicas(spec), &spec["template"]["spec"]),
        ("v1", "Pod") => (1, spec),
        _ => return None,
    };
    let namespace = object.pointer("/metadata/namespace").and_then(Value::as_str);
    Some(Replicas { replicas: clamp(replicas), requirements: requirements(pod_spec, namespace) })
}

/// A Job runs `parallelism` pods at a time (defaulted to 1), never more than `completions`
/// when that is fixed: higher parallelism is effectively ignored.
fn job_replicas(spec: &Value) -> i64 {
    let parallelism = spec["parallelism"].as_i64().unwrap_or(1);
    let completions = spec["completions"].as_i64().unwrap_or(parallelism);
    parallelism.min(completions)
}

fn clamp(n: i64) -> i32 {
    i32::try_from(n.clamp(0, i64::from(i32::MAX))).unwrap_or(i32::MAX)
}

/// What one replica of `pod_spec` needs: its node claim and requests (`None` when neither),
/// with the workload's namespace and priority class.
pub fn requirements(pod_spec: &Value, namespace: Option<&str>) -> Option<ReplicaRequirements> {
    let node_claim = node_claim(pod_spec);
    let resource_request = resources::pod_requests(pod_spec);
    if node_claim.is_none() && resource_request.is_none() {
        return None;
    }
    Some(ReplicaRequirements {
        node_claim,
        resource_request,
        namespace: namespace.map(Into::into),
        priority_class_name: pod_spec["priorityClassName"].as_str().filter(|p| !p.is_empty()).map(Into::into),
    })
}

/// `GenerateNodeClaimByPodSpec`: the node selector (even an empty one), the tolerations when
/// there are any, and the required node affinity; `None` when there is none of them.
fn node_claim(pod_spec: &Value) -> Option<NodeClaim> {
    let node_selector: Option<BTreeMap<String, String>> =
        pod_spec.get("nodeSelector").and_then(|v| serde_json::from_value(v.clone()).ok());
    let tolerations: Option<Vec<_>> = pod_spec
        .get("tolerations")
        .and_then(|v| serde_json::from_value::<Vec<_>>(v.clone()).ok())
        .filter(|t| !t.is_empty());
    let hard_node_affinity = pod_spec
        .pointer("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution")
        .filter(|v| !v.is_null())
        .and_then(|v| serde_json::from_value(v.clone()).ok());
    if node_selector.is_none() && tolerations.is_none() && hard_node_affinity.is_none() {
        return None;
    }
    Some(NodeClaim { hard_node_affinity, node_selector, tolerations })
}

#[cfg(test)]
#[path = "replica_tests.rs"]
mod tests;
