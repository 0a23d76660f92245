//! ReviseReplica for built-in workloads (upstream's `revisereplica.go`): a cluster's share
//! written into the replica field, only where the manifest already has it
//! (`helper.ApplyReplica`).

use serde_json::{Value, json};

use super::Gvk;
use crate::Target;

/// The kinds with a revise handler.
pub const KINDS: &[Gvk] =
    &[("apps/v1", "Deployment"), ("apps/v1", "ReplicaSet"), ("apps/v1", "StatefulSet"), ("batch/v1", "Job")];

/// The manifest with `replicas` in its replica field, `None` for a kind without a handler.
pub fn revise(object: &Value, replicas: i64) -> Option<Value> {
    let target = Target::of(object);
    let field = match (target.api_version.as_str(), target.kind.as_str()) {
        ("apps/v1", "Deployment" | "ReplicaSet" | "StatefulSet") => "replicas",
        ("batch/v1", "Job") => "parallelism",
        _ => return None,
    };
    let mut out = object.clone();
    if let Some(spec) = out.get_mut("spec").and_then(Value::as_object_mut)
        && spec.get(field).is_some_and(Value::is_i64)
    {
        spec.insert(field.into(), json!(replicas));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::native::revise_replica;

    #[test]
    fn the_share_goes_into_the_replica_field() {
        for kind in ["Deployment", "ReplicaSet", "StatefulSet"] {
            let object = json!({"apiVersion": "apps/v1", "kind": kind, "spec": {"replicas": 6, "paused": true}});
            let revised = revise_replica(&object, 4).unwrap();
            assert_eq!(revised["spec"], json!({"replicas": 4, "paused": true}), "{kind}");
        }
        let job = json!({"apiVersion": "batch/v1", "kind": "Job", "spec": {"parallelism": 6, "completions": 6}});
        let revised = revise_replica(&job, 2).unwrap();
        assert_eq!(revised["spec"], json!({"parallelism": 2, "completions": 6}), "completions are the Job's");
    }

    #[test]
    fn a_manifest_without_the_field_is_left_as_it_is() {
        let object = json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"template": {}}});
        assert_eq!(revise_replica(&object, 3).unwrap(), object);
        let no_spec = json!({"apiVersion": "batch/v1", "kind": "Job"});
        assert_eq!(revise_replica(&no_spec, 3).unwrap(), no_spec);
    }

    #[test]
    fn other_kinds_have_no_revise_handler() {
        for (v, k) in [("v1", "Pod"), ("apps/v1", "DaemonSet"), ("v1", "ConfigMap")] {
            let object = json!({"apiVersion": v, "kind": k, "spec": {"replicas": 1}});
            let err = revise_replica(&object, 4).unwrap_err().to_string();
            assert!(err.contains("default ReviseReplica interpreter for") && err.ends_with("not found"), "{err}");
        }
    }
}
