//! Retain: upstream's `retain_test.go` and `lifted/retain_test.go` cases as facts, and the
//! engine's former retain cases.

use serde_json::{Value, json};

use crate::native::retain;

fn obj(api_version: &str, kind: &str, rest: Value) -> Value {
    let mut o = json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x", "namespace": "ns"}});
    for (k, v) in rest.as_object().unwrap() {
        o[k] = v.clone();
    }
    o
}

#[test]
fn a_service_keeps_its_cluster_ips_and_health_check_port() {
    let observed = obj(
        "v1",
        "Service",
        json!({"spec": {
            "clusterIP": "10.0.0.7", "clusterIPs": ["10.0.0.7"], "healthCheckNodePort": 30001, "ports": [{"port": 1}]
        }}),
    );
    let desired = obj("v1", "Service", json!({"spec": {"ports": [{"port": 80}]}}));
    let out = retain(&desired, &observed).unwrap();
    assert_eq!(
        out["spec"],
        json!({"ports": [{"port": 80}], "clusterIP": "10.0.0.7", "clusterIPs": ["10.0.0.7"], "healthCheckNodePort": 30001})
    );
    let unallocated = obj("v1", "Service", json!({"spec": {"clusterIP": "", "healthCheckNodePort": 0}}));
    assert_eq!(retain(&desired, &unallocated).unwrap(), desired, "empty values are not carried");
}

#[test]
fn a_pod_keeps_the_members_node_account_volumes_and_mounts() {
    let desired = obj(
        "v1",
        "Pod",
        json!({"spec": {
            "nodeName": "template-node",
            "containers": [{"name": "a", "image": "new"}, {"name": "b", "image": "b", "volumeMounts": [{"name": "v", "mountPath": "/v"}]}],
            "initContainers": [{"name": "i", "image": "i"}]
        }}),
    );
    let observed = obj(
        "v1",
        "Pod",
        json!({"spec": {
            "nodeName": "node-1", "serviceAccountName": "sa",
            "volumes": [{"name": "token", "projected": {}}],
            "containers": [{"name": "a", "image": "old", "volumeMounts": [{"name": "token", "mountPath": "/t"}]}, {"name": "b"}],
            "initContainers": [{"name": "i", "volumeMounts": [{"name": "token", "mountPath": "/t"}]}]
        }}),
    );
    let out = retain(&desired, &observed).unwrap();
    assert_eq!(out["spec"]["nodeName"], "node-1");
    assert_eq!(out["spec"]["serviceAccountName"], "sa");
    assert_eq!(out["spec"]["volumes"], json!([{"name": "token", "projected": {}}]));
    assert_eq!(
        out["spec"]["containers"][0],
        json!({"name": "a", "image": "new", "volumeMounts": [{"name": "token", "mountPath": "/t"}]})
    );
    assert_eq!(out["spec"]["containers"][1], json!({"name": "b", "image": "b"}), "the member's copy has no mounts");
    assert_eq!(out["spec"]["initContainers"][0]["volumeMounts"][0]["name"], "token");
    let bare = obj("v1", "Pod", json!({"spec": {"containers": [{"name": "a"}]}}));
    let out = retain(&desired, &bare).unwrap();
    assert!(out["spec"].get("nodeName").is_none(), "an unscheduled member pod clears the node");
}

#[test]
fn a_service_account_merges_its_secrets_by_name() {
    let desired = obj("v1", "ServiceAccount", json!({"secrets": [{"name": "a"}], "imagePullSecrets": [{"name": "p"}]}));
    let observed = obj("v1", "ServiceAccount", json!({"secrets": [{"name": "token-x"}, {"name": "a"}]}));
    let out = retain(&desired, &observed).unwrap();
    assert_eq!(out["secrets"], json!([{"name": "a"}, {"name": "token-x"}]));
    assert_eq!(out["imagePullSecrets"], json!([{"name": "p"}]));
    let none = obj("v1", "ServiceAccount", json!({}));
    let out = retain(&none, &none).unwrap();
    assert_eq!(out, none, "nothing to merge adds no empty lists");
}

#[test]
fn claims_volumes_jobs_and_tokens_keep_what_the_member_assigned() {
    let pvc = obj("v1", "PersistentVolumeClaim", json!({"spec": {"resources": {}}}));
    let bound = obj("v1", "PersistentVolumeClaim", json!({"spec": {"volumeName": "pv-1"}}));
    assert_eq!(retain(&pvc, &bound).unwrap()["spec"]["volumeName"], "pv-1");
    let unbound = obj("v1", "PersistentVolumeClaim", json!({"spec": {"volumeName": ""}}));
    assert_eq!(retain(&pvc, &unbound).unwrap(), pvc);

    let pv = obj("v1", "PersistentVolume", json!({"spec": {"capacity": {"storage": "1Gi"}}}));
    let claimed = obj("v1", "PersistentVolume", json!({"spec": {"claimRef": {"name": "c", "namespace": "ns"}}}));
    assert_eq!(retain(&pv, &claimed).unwrap()["spec"]["claimRef"], json!({"name": "c", "namespace": "ns"}));

    let job = obj("batch/v1", "Job", json!({"spec": {"template": {"spec": {}}}}));
    let member = obj(
        "batch/v1",
        "Job",
        json!({"spec": {
            "selector": {"matchLabels": {"controller-uid": "u"}, "matchExpressions": []},
            "template": {"metadata": {"labels": {"controller-uid": "u", "job-name": "x"}}}
        }}),
    );
    let out = retain(&job, &member).unwrap();
    assert_eq!(out["spec"]["selector"], json!({"matchLabels": {"controller-uid": "u"}}));
    assert_eq!(out["spec"]["template"]["metadata"]["labels"], json!({"controller-uid": "u", "job-name": "x"}));
    assert_eq!(out["spec"]["template"]["spec"], json!({}));

    let token = obj("v1", "Secret", json!({"type": "kubernetes.io/service-account-token", "data": {}}));
    let minted = obj("v1", "Secret", json!({"type": "kubernetes.io/service-account-token", "data": {"token": "dG9r"}}));
    assert_eq!(retain(&token, &minted).unwrap()["data"], json!({"token": "dG9r"}));
    let opaque = obj("v1", "Secret", json!({"type": "Opaque", "data": {"a": "Yg=="}}));
    assert_eq!(retain(&opaque, &minted).unwrap(), opaque, "only tokens are the member's");
}

#[test]
fn a_deployment_keeps_member_replicas_only_when_labelled() {
    let desired = |labels: Value| {
        let mut d = obj("apps/v1", "Deployment", json!({"spec": {"replicas": 3}}));
        d["metadata"]["labels"] = labels;
        d
    };
    let observed = obj("apps/v1", "Deployment", json!({"spec": {"replicas": 7}}));
    let labelled = desired(json!({"resourcetemplate.karmada.io/retain-replicas": "true"}));
    assert_eq!(retain(&labelled, &observed).unwrap()["spec"]["replicas"], 7);
    let other = desired(json!({"resourcetemplate.karmada.io/retain-replicas": "false"}));
    assert_eq!(retain(&other, &observed).unwrap()["spec"]["replicas"], 3);
    let missing = obj("apps/v1", "Deployment", json!({"spec": {}}));
    let err = retain(&labelled, &missing).unwrap_err().to_string();
    assert_eq!(err, "Retain: failed to get spec.replicas from Deployment ns/x");
}

#[test]
fn kinds_without_a_retain_handler_are_refused() {
    let cm = obj("v1", "ConfigMap", json!({"data": {"a": "b"}}));
    let err = retain(&cm, &cm).unwrap_err().to_string();
    assert_eq!(err, r#"Retain: default Retain interpreter for "/v1, Kind=ConfigMap" not found"#);
    let sts = obj("apps/v1", "StatefulSet", json!({}));
    assert!(retain(&sts, &sts).is_err(), "upstream retains replicas for Deployments only");
}
