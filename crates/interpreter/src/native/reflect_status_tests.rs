//! InterpretStatus: upstream's `reflectstatus_test.go` cases as facts, and the engine's
//! former reflection case.

use serde_json::{Value, json};

use crate::native::{hook_enabled, reflect_status};
use crate::{Operation, Target};

fn member(api_version: &str, kind: &str, status: Value) -> Value {
    json!({
        "apiVersion": api_version, "kind": kind,
        "metadata": {"name": "x", "namespace": "ns", "generation": 2,
                     "annotations": {"resourcetemplate.karmada.io/generation": "1"}},
        "status": status,
    })
}

#[test]
fn every_kind_has_its_status_reflected() {
    for (v, k) in [("v1", "ConfigMap"), ("example.io/v1", "Widget"), ("apps/v1", "Deployment")] {
        assert!(hook_enabled(&Target::new(v, k), Operation::InterpretStatus));
    }
    let widget = json!({"apiVersion": "example.io/v1", "kind": "Widget", "status": {"phase": "Ready", "n": 1}});
    assert_eq!(reflect_status(&widget).unwrap(), Some(json!({"phase": "Ready", "n": 1})));
    let no_status = json!({"apiVersion": "example.io/v1", "kind": "Widget"});
    assert_eq!(reflect_status(&no_status).unwrap(), None);
}

#[test]
fn a_deployment_keeps_its_counters_and_generations() {
    let d = member(
        "apps/v1",
        "Deployment",
        json!({
            "replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3,
            "unavailableReplicas": 0, "observedGeneration": 2, "conditions": [{"type": "Available"}]
        }),
    );
    assert_eq!(
        reflect_status(&d).unwrap(),
        Some(json!({"replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3,
                    "observedGeneration": 2, "generation": 2, "resourceTemplateGeneration": 1}))
    );
    let mut no_status = d.clone();
    no_status.as_object_mut().unwrap().remove("status");
    assert_eq!(reflect_status(&no_status).unwrap(), None);
}

#[test]
fn the_template_generation_annotation_must_be_a_number_when_present() {
    for kind in ["Deployment", "ReplicaSet", "DaemonSet", "StatefulSet"] {
        let mut bad = member("apps/v1", kind, json!({"replicas": 1}));
        bad["metadata"]["annotations"]["resourcetemplate.karmada.io/generation"] = json!("invalid");
        let err = reflect_status(&bad).unwrap_err().to_string();
        assert_eq!(err, r#"InterpretStatus: strconv.ParseInt: parsing "invalid": invalid syntax"#, "{kind}");
        // Missing, it reads as 0 (apimachinery converts "" to 0), and the status still reflects.
        let mut missing = bad.clone();
        missing["metadata"]["annotations"] = json!({});
        let status = reflect_status(&missing).unwrap().expect("a status");
        assert!(status.get("resourceTemplateGeneration").is_none(), "{kind}: {status}");
    }
}

#[test]
fn replica_sets_daemon_sets_and_stateful_sets_keep_their_counters() {
    let rs = member("apps/v1", "ReplicaSet", json!({"replicas": 0, "readyReplicas": 1, "fullyLabeledReplicas": 1}));
    assert_eq!(
        reflect_status(&rs).unwrap(),
        Some(json!({"replicas": 0, "readyReplicas": 1, "generation": 2, "resourceTemplateGeneration": 1}))
    );
    let ds = member("apps/v1", "DaemonSet", json!({"numberReady": 2, "numberAvailable": 2, "observedGeneration": 1}));
    assert_eq!(
        reflect_status(&ds).unwrap(),
        Some(json!({"currentNumberScheduled": 0, "numberMisscheduled": 0, "desiredNumberScheduled": 0,
                    "numberReady": 2, "numberAvailable": 2, "observedGeneration": 1,
                    "generation": 2, "resourceTemplateGeneration": 1}))
    );
    let sts = member(
        "apps/v1",
        "StatefulSet",
        json!({"replicas": 2, "readyReplicas": 2, "observedGeneration": 2, "currentRevision": "r"}),
    );
    assert_eq!(
        reflect_status(&sts).unwrap(),
        Some(json!({"replicas": 2, "availableReplicas": 0, "readyReplicas": 2, "observedGeneration": 2,
                    "generation": 2, "resourceTemplateGeneration": 1}))
    );
}

#[test]
fn reflected_status_keeps_summed_fields_and_generations() {
    let d = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"generation": 2, "annotations": {"resourcetemplate.karmada.io/generation": "3"}},
        "status": {"replicas": 2, "readyReplicas": 2, "observedGeneration": 2, "conditions": []}
    });
    assert_eq!(
        reflect_status(&d).unwrap(),
        Some(
            json!({"replicas": 2, "readyReplicas": 2, "observedGeneration": 2, "generation": 2, "resourceTemplateGeneration": 3})
        )
    );
}

#[test]
fn a_service_reflects_only_a_load_balancer() {
    let lb = json!({"ingress": [{"ip": "1.2.3.4"}]});
    let svc = |t: Option<&str>| {
        let mut s = json!({"apiVersion": "v1", "kind": "Service", "spec": {}, "status": {"loadBalancer": lb, "conditions": []}});
        if let Some(t) = t {
            s["spec"]["type"] = json!(t);
        }
        s
    };
    assert_eq!(reflect_status(&svc(Some("LoadBalancer"))).unwrap(), Some(json!({"loadBalancer": lb})));
    assert_eq!(reflect_status(&svc(Some("ClusterIP"))).unwrap(), None);
    assert_eq!(reflect_status(&svc(None)).unwrap(), None);
}

#[test]
fn jobs_budgets_autoscalers_and_ingresses_keep_their_parts() {
    let job = json!({"apiVersion": "batch/v1", "kind": "Job", "status": {
        "active": 1, "succeeded": 0, "failed": 2, "ready": 1, "startTime": "2024-01-01T00:00:00Z",
        "conditions": [{"type": "Failed", "status": "True"}]
    }});
    assert_eq!(
        reflect_status(&job).unwrap(),
        Some(
            json!({"active": 1, "failed": 2, "startTime": "2024-01-01T00:00:00Z", "conditions": [{"type": "Failed", "status": "True"}]})
        )
    );
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "status": {
        "currentHealthy": 2, "desiredHealthy": 1, "disruptionsAllowed": 1, "expectedPods": 2, "observedGeneration": 1
    }});
    assert_eq!(
        reflect_status(&pdb).unwrap(),
        Some(json!({"currentHealthy": 2, "desiredHealthy": 1, "disruptionsAllowed": 1, "expectedPods": 2}))
    );
    let hpa = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "status": {"currentReplicas": 2, "desiredReplicas": 3, "conditions": []}});
    assert_eq!(reflect_status(&hpa).unwrap(), Some(json!({"currentReplicas": 2, "desiredReplicas": 3})));
    let ing = json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "status": {"loadBalancer": {"ingress": [{"hostname": "h"}]}}});
    assert_eq!(reflect_status(&ing).unwrap(), Some(ing["status"].clone()));
}

#[test]
fn a_status_that_is_not_an_object_is_refused() {
    let bad = json!({"apiVersion": "apps/v1", "kind": "Deployment", "status": "ready"});
    let err = reflect_status(&bad).unwrap_err().to_string();
    assert_eq!(err, "InterpretStatus: apps/v1, Kind=Deployment: .status is not an object");
}
