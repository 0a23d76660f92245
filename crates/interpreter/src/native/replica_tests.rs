//! InterpretReplica and resource accounting: upstream's `replica_test.go` cases as facts, the
//! engine's former native-interpreter cases, and the request arithmetic of `resource.go`.

use serde_json::{Value, json};

use crate::native::{hook_enabled, replicas};
use crate::{Operation, Target};

fn with_template(api_version: &str, kind: &str, spec: Value, pod_spec: Value) -> Value {
    let mut spec = spec;
    spec["template"] = json!({"spec": pod_spec});
    json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "w", "namespace": "ns"}, "spec": spec})
}

fn constrained_pod_spec() -> Value {
    json!({
        "nodeSelector": {"foo": "foo1"},
        "tolerations": [{"key": "foo", "operator": "Exists", "effect": "NoSchedule"}],
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchFields": [{"key": "foo", "operator": "Exists"}]}]
        }}}
    })
}

fn assert_constrained_claim(object: &Value, want_replicas: i32) {
    let r = replicas(object).expect("handled kind");
    assert_eq!(r.replicas, want_replicas);
    let req = r.requirements.expect("node constraints make requirements");
    let claim = req.node_claim.expect("node claim");
    assert_eq!(claim.node_selector.unwrap()["foo"], "foo1");
    let tolerations = claim.tolerations.unwrap();
    assert_eq!(tolerations.len(), 1);
    assert_eq!(tolerations[0].key.as_deref(), Some("foo"));
    let terms = claim.hard_node_affinity.unwrap().node_selector_terms;
    assert_eq!(terms[0].match_fields.as_ref().unwrap()[0].key, "foo");
    assert_eq!(req.resource_request, None, "nothing requested");
    assert_eq!(req.namespace.as_deref(), Some("ns"));
}

#[test]
fn the_replica_table_is_upstreams() {
    for (v, k) in [
        ("apps/v1", "Deployment"),
        ("apps/v1", "ReplicaSet"),
        ("apps/v1", "StatefulSet"),
        ("batch/v1", "Job"),
        ("v1", "Pod"),
    ] {
        assert!(hook_enabled(&Target::new(v, k), Operation::InterpretReplica), "{k}");
    }
    for (v, k) in
        [("apps/v1", "DaemonSet"), ("batch/v1", "CronJob"), ("apps/v1beta1", "Deployment"), ("v1", "ConfigMap")]
    {
        assert!(!hook_enabled(&Target::new(v, k), Operation::InterpretReplica), "{v} {k}");
    }
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap"});
    let err = replicas(&cm).unwrap_err().to_string();
    assert_eq!(err, r#"InterpretReplica: default InterpretReplica interpreter for "/v1, Kind=ConfigMap" not found"#);
}

#[test]
fn workloads_report_their_replicas_and_node_claim() {
    let constrained = constrained_pod_spec();
    assert_constrained_claim(&with_template("apps/v1", "Deployment", json!({"replicas": 2}), constrained.clone()), 2);
    assert_constrained_claim(&with_template("apps/v1", "StatefulSet", json!({"replicas": 2}), constrained.clone()), 2);
    assert_constrained_claim(&with_template("apps/v1", "ReplicaSet", json!({"replicas": 3}), constrained.clone()), 3);
    let job = with_template("batch/v1", "Job", json!({"parallelism": 3, "completions": 2}), constrained.clone());
    assert_constrained_claim(&job, 2);
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "ns"}, "spec": constrained});
    assert_constrained_claim(&pod, 1);
}

#[test]
fn job_parallelism_is_capped_by_completions_and_defaults_to_one() {
    let job = |spec: Value| replicas(&with_template("batch/v1", "Job", spec, json!({}))).unwrap().replicas;
    assert_eq!(job(json!({"parallelism": 5})), 5, "no completions: parallelism");
    assert_eq!(job(json!({"parallelism": 2, "completions": 8})), 2);
    assert_eq!(job(json!({})), 1, "the API server's default");
}

#[test]
fn replicas_default_to_one_and_requests_add_up() {
    let pod_spec = json!({"containers": [
        {"name": "a", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}},
        {"name": "b", "resources": {"requests": {"cpu": "50m"}}}
    ]});
    let r = replicas(&with_template("apps/v1", "Deployment", json!({}), pod_spec.clone())).unwrap();
    assert_eq!(r.replicas, 1);
    let req = r.requirements.expect("requirements");
    let rr = req.resource_request.expect("requests");
    assert_eq!(rr["cpu"].0, "150m");
    assert_eq!(rr["memory"].0, "64Mi");
    assert_eq!(req.node_claim, None);
    assert_eq!(req.namespace.as_deref(), Some("ns"));
    let r = replicas(&with_template("apps/v1", "Deployment", json!({"replicas": 6}), pod_spec)).unwrap();
    assert_eq!(r.replicas, 6);
}

#[test]
fn limits_stand_in_for_requests_and_init_containers_and_overhead_count() {
    let pod_spec = json!({
        "priorityClassName": "high",
        "containers": [
            {"name": "a", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"memory": "512Mi"}}},
            {"name": "b", "resources": {"requests": {"cpu": "500m", "nvidia.com/gpu": "1", "hugepages-2Mi": "4Mi"}}}
        ],
        "initContainers": [
            {"name": "i", "resources": {"requests": {"cpu": "2", "memory": "128Mi", "example.com/unknown-prefix": "2"}}}
        ],
        "overhead": {"cpu": "250m", "memory": "1000"}
    });
    let req = replicas(&with_template("apps/v1", "Deployment", json!({"replicas": 1}), pod_spec))
        .unwrap()
        .requirements
        .unwrap();
    let rr = req.resource_request.unwrap();
    // cpu: max(1 + 0.5, init 2) + 0.25 overhead; memory: 512Mi (the request wins over the
    // limit) + 1000 bytes of overhead, not a multiple of 1024 so printed whole.
    assert_eq!(rr["cpu"].0, "2250m");
    assert_eq!(rr["memory"].0, (512 * 1024 * 1024 + 1000).to_string());
    assert_eq!(rr["nvidia.com/gpu"].0, "1");
    assert_eq!(rr["hugepages-2Mi"].0, "4Mi");
    assert_eq!(rr["example.com/unknown-prefix"].0, "2", "extended resources count");
    assert_eq!(rr.len(), 5);
    assert_eq!(req.priority_class_name.as_deref(), Some("high"));
}

#[test]
fn unknown_and_unprefixed_names_are_dropped_and_whole_cpus_print_bare() {
    let pod_spec = json!({"containers": [
        {"name": "a", "resources": {"requests": {"cpu": "1500m", "bogus": "3", "requests.example.com/x": "1", "memory": "1k"}}},
        {"name": "b", "resources": {"requests": {"cpu": "500m", "pods": "2", "ephemeral-storage": "2Gi"}}}
    ]});
    let rr = replicas(&with_template("apps/v1", "StatefulSet", json!({"replicas": 2}), pod_spec))
        .unwrap()
        .requirements
        .unwrap()
        .resource_request
        .unwrap();
    assert_eq!(rr["cpu"].0, "2");
    assert_eq!(rr["memory"].0, "1k", "below 1024 bytes prints in decimal");
    assert_eq!(rr["pods"].0, "2");
    assert_eq!(rr["ephemeral-storage"].0, "2Gi");
    assert_eq!(rr.len(), 4, "{rr:?}");
}

#[test]
fn an_empty_node_selector_is_still_a_claim_but_empty_tolerations_are_not() {
    let req = |pod_spec: Value| replicas(&with_template("apps/v1", "Deployment", json!({}), pod_spec)).unwrap();
    let claim = req(json!({"nodeSelector": {}})).requirements.unwrap().node_claim.unwrap();
    assert_eq!(claim.node_selector, Some(Default::default()));
    assert_eq!(req(json!({"tolerations": []})).requirements, None);
    assert_eq!(req(json!({})).requirements, None, "nothing requested, no constraints");
}

#[test]
fn fractions_of_a_unit_round_up() {
    let pod_spec = json!({"containers": [
        {"name": "a", "resources": {"requests": {"cpu": "100u", "memory": "1500m", "pods": "1"}}}
    ]});
    let rr = replicas(&with_template("apps/v1", "Deployment", json!({}), pod_spec))
        .unwrap()
        .requirements
        .unwrap()
        .resource_request
        .unwrap();
    assert_eq!(rr["cpu"].0, "1m", "a tenth of a millicore is one");
    assert_eq!(rr["memory"].0, "2", "one and a half bytes are two");
    assert_eq!(rr["pods"].0, "1");
}
