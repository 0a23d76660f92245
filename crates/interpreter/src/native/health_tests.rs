//! InterpretHealth: upstream's `healthy_test.go` cases as facts.

use serde_json::{Value, json};

use crate::native::interpret_health;

fn workload(kind: &str, generation: i64, replicas: Option<i64>, status: Value) -> Value {
    let mut o = json!({"apiVersion": "apps/v1", "kind": kind, "metadata": {"generation": generation}, "spec": {}, "status": status});
    if let Some(r) = replicas {
        o["spec"]["replicas"] = json!(r);
    }
    o
}

#[test]
fn deployments_and_stateful_sets_are_healthy_once_rolled_out() {
    for kind in ["Deployment", "StatefulSet"] {
        let h = |generation, replicas, status| interpret_health(&workload(kind, generation, replicas, status)).unwrap();
        assert!(
            h(1, Some(3), json!({"observedGeneration": 1, "updatedReplicas": 3, "availableReplicas": 3})),
            "{kind}"
        );
        assert!(
            !h(2, Some(3), json!({"observedGeneration": 1, "updatedReplicas": 3, "availableReplicas": 3})),
            "{kind}: stale"
        );
        assert!(
            !h(1, Some(3), json!({"observedGeneration": 1, "updatedReplicas": 2, "availableReplicas": 2})),
            "{kind}: rolling"
        );
        assert!(
            !h(1, Some(3), json!({"observedGeneration": 1, "updatedReplicas": 3, "availableReplicas": 2})),
            "{kind}: unavailable"
        );
        assert!(h(1, None, json!({"observedGeneration": 1, "updatedReplicas": 0})), "{kind}: no replicas field");
    }
}

#[test]
fn replica_sets_and_daemon_sets_need_available_pods() {
    let rs = |replicas, available| {
        workload("ReplicaSet", 1, replicas, json!({"observedGeneration": 1, "availableReplicas": available}))
    };
    assert!(interpret_health(&rs(Some(2), 2)).unwrap());
    assert!(!interpret_health(&rs(Some(2), 1)).unwrap());
    assert!(interpret_health(&rs(None, 0)).unwrap());
    let ds = |generation, desired, updated, available| {
        workload(
            "DaemonSet",
            generation,
            None,
            json!({"observedGeneration": 1, "desiredNumberScheduled": desired,
            "updatedNumberScheduled": updated, "numberAvailable": available}),
        )
    };
    assert!(interpret_health(&ds(1, 3, 3, 3)).unwrap());
    assert!(!interpret_health(&ds(1, 3, 2, 2)).unwrap());
    assert!(!interpret_health(&ds(1, 3, 3, 2)).unwrap());
    assert!(!interpret_health(&ds(2, 3, 3, 3)).unwrap());
}

#[test]
fn load_balancers_need_an_address() {
    let svc = |t: &str, ingress: Value| json!({"apiVersion": "v1", "kind": "Service", "spec": {"type": t}, "status": {"loadBalancer": {"ingress": ingress}}});
    assert!(interpret_health(&svc("ClusterIP", json!([]))).unwrap());
    assert!(!interpret_health(&svc("LoadBalancer", json!([]))).unwrap());
    assert!(!interpret_health(&svc("LoadBalancer", json!([{"ports": []}]))).unwrap());
    assert!(interpret_health(&svc("LoadBalancer", json!([{"hostname": "h"}]))).unwrap());
    let ing = |ingress: Value| json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "status": {"loadBalancer": {"ingress": ingress}}});
    assert!(interpret_health(&ing(json!([{"ip": "1.2.3.4"}]))).unwrap());
    assert!(!interpret_health(&ing(json!([]))).unwrap());
}

#[test]
fn claims_pods_and_budgets() {
    let pvc = |phase: &str| json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "status": {"phase": phase}});
    assert!(interpret_health(&pvc("Bound")).unwrap());
    assert!(!interpret_health(&pvc("Pending")).unwrap());
    let pod = |phase: &str, ready: &str| json!({"apiVersion": "v1", "kind": "Pod", "status": {"phase": phase, "conditions": [{"type": "Ready", "status": ready}]}});
    assert!(interpret_health(&pod("Running", "True")).unwrap());
    assert!(!interpret_health(&pod("Running", "False")).unwrap());
    assert!(interpret_health(&pod("Succeeded", "False")).unwrap());
    assert!(!interpret_health(&pod("Pending", "True")).unwrap());
    let pdb = |current: i64, desired: i64| json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "status": {"currentHealthy": current, "desiredHealthy": desired}});
    assert!(interpret_health(&pdb(2, 2)).unwrap());
    assert!(!interpret_health(&pdb(1, 2)).unwrap());
}

#[test]
fn kinds_without_a_health_handler_are_refused() {
    let job = json!({"apiVersion": "batch/v1", "kind": "Job"});
    let err = interpret_health(&job).unwrap_err().to_string();
    assert_eq!(err, r#"InterpretHealth: default InterpretHealth interpreter for "batch/v1, Kind=Job" not found"#);
}
