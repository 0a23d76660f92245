//! InterpretStatus for built-in kinds (upstream's `reflectstatus.go` and `status_type.go`):
//! the part of a member's status the plane keeps in the Work. Replica workloads keep their
//! counters wrapped with the member's generation and the template generation it was made
//! from (`FederatedGeneration`), which aggregation needs for `observedGeneration`; other
//! kinds keep their whole `.status`.

use serde_json::{Map, Value, json};

use super::{fields, invalid};
use crate::{InterpretError, Operation, Target};

/// Deployment counters kept (all `omitempty`).
const DEPLOYMENT: &[&str] =
    &["replicas", "updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas", "observedGeneration"];
/// ReplicaSet counters kept: `replicas` is always written, the rest are `omitempty`.
const REPLICA_SET: &[&str] = &["readyReplicas", "availableReplicas", "observedGeneration"];
/// DaemonSet counters always written, then those that are `omitempty`.
const DAEMON_SET_ALWAYS: &[&str] =
    &["currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"];
const DAEMON_SET: &[&str] = &["observedGeneration", "updatedNumberScheduled", "numberAvailable", "numberUnavailable"];
/// StatefulSet counters: `replicas` and `availableReplicas` always, the rest `omitempty`.
/// `observedGeneration` is kept as well, unlike upstream, so aggregation can tell when every
/// member has caught up (upstream's StatefulSet never can).
const STATEFUL_SET: &[&str] = &["readyReplicas", "currentReplicas", "updatedReplicas", "observedGeneration"];

/// The status to keep from a member's copy; `None` when there is nothing to keep.
pub fn reflect(object: &Value) -> Result<Option<Value>, InterpretError> {
    let target = Target::of(object);
    let Some(status) = object.get("status").filter(|s| !s.is_null()) else {
        return Ok(None);
    };
    let Some(status) = status.as_object() else {
        return Err(invalid(Operation::InterpretStatus, format!("{target}: .status is not an object")));
    };
    let counters = |always: &[&str], optional: &[&str]| -> Map<String, Value> {
        let mut out = Map::new();
        for f in always {
            out.insert((*f).into(), json!(status.get(*f).and_then(Value::as_i64).unwrap_or(0)));
        }
        for f in optional {
            fields::put_count(&mut out, f, status.get(*f).and_then(Value::as_i64).unwrap_or(0));
        }
        out
    };
    let out = match (target.api_version.as_str(), target.kind.as_str()) {
        ("apps/v1", "Deployment") => federated(object, counters(&[], DEPLOYMENT))?,
        ("apps/v1", "ReplicaSet") => federated(object, counters(&["replicas"], REPLICA_SET))?,
        ("apps/v1", "DaemonSet") => federated(object, counters(DAEMON_SET_ALWAYS, DAEMON_SET))?,
        ("apps/v1", "StatefulSet") => federated(object, counters(&["replicas", "availableReplicas"], STATEFUL_SET))?,
        ("v1", "Service") => {
            // Only a load balancer has status worth keeping: its ingress points.
            if fields::string(object, "/spec/type") != "LoadBalancer" {
                return Ok(None);
            }
            let lb = status.get("loadBalancer").cloned().unwrap_or_else(|| json!({}));
            Some(Map::from_iter([("loadBalancer".to_string(), lb)]))
        }
        ("batch/v1", "Job") => {
            let mut out = counters(&[], &["active", "succeeded", "failed"]);
            for f in ["conditions", "startTime", "completionTime"] {
                if let Some(v) = status.get(f).filter(|v| !v.is_null()) {
                    out.insert(f.into(), v.clone());
                }
            }
            Some(out)
        }
        ("policy/v1", "PodDisruptionBudget") => {
            let mut out = counters(&["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"], &[]);
            if let Some(pods) = status.get("disruptedPods").filter(|p| p.as_object().is_some_and(|m| !m.is_empty())) {
                out.insert("disruptedPods".into(), pods.clone());
            }
            Some(out)
        }
        ("autoscaling/v2", "HorizontalPodAutoscaler") => Some(counters(&["desiredReplicas"], &["currentReplicas"])),
        // Ingress and every kind without a handler: the whole status.
        _ => Some(status.clone()),
    };
    Ok(out.map(Value::Object))
}

/// Wraps a workload's counters with the member's generation and the template generation it
/// was made from (both `omitempty`); an all-empty result means the member has not reported.
fn federated(object: &Value, mut counters: Map<String, Value>) -> Result<Option<Map<String, Value>>, InterpretError> {
    let template_generation =
        fields::template_generation(object).map_err(|e| invalid(Operation::InterpretStatus, e))?;
    fields::put_count(&mut counters, "generation", fields::generation(object));
    fields::put_count(&mut counters, "resourceTemplateGeneration", template_generation);
    Ok((!counters.is_empty()).then_some(counters))
}

#[cfg(test)]
#[path = "reflect_status_tests.rs"]
mod tests;
