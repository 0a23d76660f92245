//! InterpretDependency: upstream's `dependencies_test.go` and `VerifyDependencies` cases as
//! facts, and the engine's former dependency cases.

use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use serde_json::{Value, json};

use crate::native::{dependencies, verify_dependencies};

fn names(deps: &[DependentObjectReference]) -> Vec<(String, String)> {
    deps.iter().map(|d| (d.kind.clone(), d.name.clone())).collect()
}

fn pair(kind: &str, name: &str) -> (String, String) {
    (kind.into(), name.into())
}

fn full_pod_spec() -> Value {
    json!({
        "serviceAccountName": "sa",
        "imagePullSecrets": [{"name": "pull"}],
        "initContainers": [{"name": "i", "envFrom": [{"configMapRef": {"name": "init-cm"}}]}],
        "containers": [{"name": "c",
            "envFrom": [{"secretRef": {"name": "env-secret"}}],
            "env": [{"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm-key", "key": "k"}}},
                    {"name": "B", "valueFrom": {"secretKeyRef": {"name": "secret-key", "key": "k"}}}]}],
        "ephemeralContainers": [{"name": "e", "envFrom": [{"configMapRef": {"name": "debug-cm"}}]}],
        "volumes": [
            {"name": "a", "configMap": {"name": "vol-cm"}},
            {"name": "b", "secret": {"secretName": "vol-secret"}},
            {"name": "c", "projected": {"sources": [{"configMap": {"name": "proj-cm"}}, {"secret": {"name": "proj-secret"}}]}},
            {"name": "d", "csi": {"driver": "x", "nodePublishSecretRef": {"name": "csi-secret"}}},
            {"name": "e", "azureFile": {"secretName": "azure-secret", "shareName": "s"}},
            {"name": "f", "cephfs": {"monitors": [], "secretRef": {"name": "ceph-secret"}}},
            {"name": "g", "persistentVolumeClaim": {"claimName": "data"}},
            {"name": "h", "secret": {"secretName": ""}}
        ]
    })
}

fn expected_full() -> Vec<(String, String)> {
    vec![
        pair("ConfigMap", "cm-key"),
        pair("ConfigMap", "debug-cm"),
        pair("ConfigMap", "init-cm"),
        pair("ConfigMap", "proj-cm"),
        pair("ConfigMap", "vol-cm"),
        pair("Secret", "azure-secret"),
        pair("Secret", "ceph-secret"),
        pair("Secret", "csi-secret"),
        pair("Secret", "env-secret"),
        pair("Secret", "proj-secret"),
        pair("Secret", "pull"),
        pair("Secret", "secret-key"),
        pair("Secret", "vol-secret"),
        pair("ServiceAccount", "sa"),
        pair("PersistentVolumeClaim", "data"),
    ]
}

#[test]
fn every_pod_template_kind_finds_what_its_pods_refer_to() {
    let pod_spec = full_pod_spec();
    let template = json!({"spec": pod_spec});
    let objects = [
        ("apps/v1", "Deployment", json!({"template": template})),
        ("apps/v1", "ReplicaSet", json!({"template": template})),
        ("apps/v1", "DaemonSet", json!({"template": template})),
        ("apps/v1", "StatefulSet", json!({"template": template})),
        ("batch/v1", "Job", json!({"template": template})),
        ("batch/v1", "CronJob", json!({"jobTemplate": {"spec": {"template": template}}})),
        ("v1", "Pod", pod_spec.clone()),
    ];
    for (v, k, spec) in objects {
        let object = json!({"apiVersion": v, "kind": k, "metadata": {"name": "w", "namespace": "ns"}, "spec": spec});
        let deps = dependencies(&object).unwrap();
        assert_eq!(names(&deps), expected_full(), "{k}");
        assert!(deps.iter().all(|d| d.namespace == "ns" && d.api_version == "v1" && d.label_selector.is_none()), "{k}");
    }
}

#[test]
fn the_default_service_account_is_not_a_dependency() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "ns"}, "spec": {"serviceAccountName": "default"}});
    assert_eq!(dependencies(&pod).unwrap(), vec![]);
}

#[test]
fn stateful_set_claim_templates_are_not_dependencies() {
    let sts = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"namespace": "ns"}, "spec": {
        "volumeClaimTemplates": [{"metadata": {"name": "data"}}],
        "template": {"spec": {"volumes": [
            {"name": "a", "persistentVolumeClaim": {"claimName": "data"}},
            {"name": "b", "persistentVolumeClaim": {"claimName": "shared"}}
        ]}}
    }});
    assert_eq!(names(&dependencies(&sts).unwrap()), vec![pair("PersistentVolumeClaim", "shared")]);
}

#[test]
fn an_ingress_needs_its_tls_secrets() {
    let ing = |tls: Value| json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"namespace": "ns"}, "spec": {"tls": tls}});
    let deps = dependencies(&ing(json!([{"secretName": "tls-a"}, {"hosts": ["h"], "secretName": "tls-b"}]))).unwrap();
    assert_eq!(names(&deps), vec![pair("Secret", "tls-a"), pair("Secret", "tls-b")]);
    let err = dependencies(&ing(json!([{"hosts": ["h"]}]))).unwrap_err().to_string();
    assert_eq!(
        err,
        r#"InterpretDependency: dependencies[0]: Invalid value: v1alpha1.DependentObjectReference{APIVersion:"v1", Kind:"Secret", Namespace:"ns", Name:"", LabelSelector:(*v1.LabelSelector)(nil)}: dependency can not leave name and labelSelector all empty"#
    );
}

#[test]
fn a_service_import_needs_its_derived_service_and_endpoint_slices() {
    let si = json!({"apiVersion": "multicluster.x-k8s.io/v1alpha1", "kind": "ServiceImport", "metadata": {"name": "web", "namespace": "ns"}});
    let deps = dependencies(&si).unwrap();
    assert_eq!(
        serde_json::to_value(&deps).unwrap(),
        json!([
            {"apiVersion": "v1", "kind": "Service", "namespace": "ns", "name": "derived-web"},
            {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "namespace": "ns",
             "labelSelector": {"matchLabels": {"kubernetes.io/service-name": "derived-web"}}}
        ])
    );
}

#[test]
fn kinds_without_a_dependency_handler_are_refused() {
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap"});
    let err = dependencies(&cm).unwrap_err().to_string();
    assert_eq!(err, "InterpretDependency: default interpreter for operation InterpretDependency not found");
}

#[test]
fn verification_lists_every_problem() {
    let bad: Vec<DependentObjectReference> = serde_json::from_value(json!([
        {"apiVersion": "", "kind": "", "name": "x"},
        {"apiVersion": "v1", "kind": "Secret", "labelSelector": {"matchExpressions": [{"key": "a", "operator": "Bogus"}]}}
    ]))
    .unwrap();
    let err = verify_dependencies(&bad).unwrap_err();
    assert_eq!(
        err,
        r#"[dependencies[0].apiVersion: Invalid value: "": missing required apiVersion, dependencies[0].kind: Invalid value: "": missing required kind, dependencies[1].labelSelector.matchExpressions[0].operator: Invalid value: "Bogus": not a valid selector operator]"#
    );
    let good: Vec<DependentObjectReference> = serde_json::from_value(
        json!([{"apiVersion": "v1", "kind": "Secret", "labelSelector": {"matchLabels": {"a": "b"}}}]),
    )
    .unwrap();
    assert_eq!(verify_dependencies(&good), Ok(()));
}

#[test]
fn finds_what_a_pod_template_refers_to() {
    let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"namespace": "ns"}, "spec": {"template": {"spec": {
        "serviceAccountName": "robot",
        "volumes": [{"configMap": {"name": "cfg"}}, {"secret": {"secretName": "tls"}},
                    {"persistentVolumeClaim": {"claimName": "data"}}],
        "containers": [{"envFrom": [{"configMapRef": {"name": "env"}}],
                        "env": [{"valueFrom": {"secretKeyRef": {"name": "pw"}}}]}],
    }}}});
    assert_eq!(
        names(&dependencies(&d).unwrap()),
        [
            pair("ConfigMap", "cfg"),
            pair("ConfigMap", "env"),
            pair("Secret", "pw"),
            pair("Secret", "tls"),
            pair("ServiceAccount", "robot"),
            pair("PersistentVolumeClaim", "data"),
        ]
    );
}
