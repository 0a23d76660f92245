//! InterpretHealth for built-in kinds (upstream's `healthy.go`): whether a member's copy is
//! healthy, from its status alone.

use serde_json::Value;

use super::{Gvk, fields};
use crate::Target;

/// The kinds with a health handler.
pub const KINDS: &[Gvk] = &[
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "ReplicaSet"),
    ("apps/v1", "DaemonSet"),
    ("v1", "Service"),
    ("networking.k8s.io/v1", "Ingress"),
    ("v1", "PersistentVolumeClaim"),
    ("v1", "Pod"),
    ("policy/v1", "PodDisruptionBudget"),
];

/// Whether the object is healthy, `None` for a kind without a handler.
pub fn healthy(object: &Value) -> Option<bool> {
    let target = Target::of(object);
    let int = |pointer: &str| fields::int(object, pointer);
    let current = int("/status/observedGeneration") == int("/metadata/generation");
    let healthy = match (target.api_version.as_str(), target.kind.as_str()) {
        // Rolled out: the controller saw this generation, every desired replica is updated,
        // and every updated replica is available.
        ("apps/v1", "Deployment" | "StatefulSet") => {
            let desired = object.pointer("/spec/replicas").and_then(Value::as_i64);
            current
                && desired.is_none_or(|d| int("/status/updatedReplicas") >= d)
                && int("/status/availableReplicas") >= int("/status/updatedReplicas")
        }
        ("apps/v1", "ReplicaSet") => {
            let desired = object.pointer("/spec/replicas").and_then(Value::as_i64);
            current && desired.is_none_or(|d| int("/status/availableReplicas") >= d)
        }
        ("apps/v1", "DaemonSet") => {
            current
                && int("/status/updatedNumberScheduled") >= int("/status/desiredNumberScheduled")
                && int("/status/numberAvailable") >= int("/status/updatedNumberScheduled")
        }
        // Only a load balancer can be unhealthy: until it has an address.
        ("v1", "Service") => fields::string(object, "/spec/type") != "LoadBalancer" || has_address(object),
        ("networking.k8s.io/v1", "Ingress") => has_address(object),
        ("v1", "PersistentVolumeClaim") => fields::string(object, "/status/phase") == "Bound",
        ("v1", "Pod") => {
            let phase = fields::string(object, "/status/phase");
            let ready =
                fields::list(object, "/status/conditions").iter().find(|c| fields::string(c, "/type") == "Ready");
            phase == "Succeeded"
                || (phase == "Running" && ready.is_some_and(|c| fields::string(c, "/status") == "True"))
        }
        ("policy/v1", "PodDisruptionBudget") => int("/status/currentHealthy") >= int("/status/desiredHealthy"),
        _ => return None,
    };
    Some(healthy)
}

/// Whether a load balancer ingress point has a hostname or an IP.
fn has_address(object: &Value) -> bool {
    fields::list(object, "/status/loadBalancer/ingress")
        .iter()
        .any(|i| !fields::string(i, "/hostname").is_empty() || !fields::string(i, "/ip").is_empty())
}

#[cfg(test)]
#[path = "health_tests.rs"]
mod tests;
