//! The shipped third-party rules where they answer input upstream Karmada's scripts fail on:
//! a reference without a name, a condition without a message or type, an OCIRepository without
//! a ServiceAccount, cpu written as a quantity. Each answer is checked in full.

#[path = "support/block_on.rs"]
mod block_on;

use block_on::block_on;
use karmadactl_interpreter::Interpreter;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Value, json};

fn dependencies(object: &Value) -> Value {
    serde_json::to_value(block_on(Interpreter::standard().dependencies(object)).unwrap()).unwrap()
}

fn items(statuses: Value) -> Vec<AggregatedStatusItem> {
    serde_json::from_value(statuses).unwrap()
}

#[test]
fn an_oci_repository_without_a_service_account_names_its_secrets() {
    let object = json!({
        "apiVersion": "source.toolkit.fluxcd.io/v1beta2", "kind": "OCIRepository",
        "metadata": {"name": "app", "namespace": "flux"},
        "spec": {"url": "oci://example/app", "secretRef": {"name": "pull"}, "certSecretRef": {"name": "tls"}},
    });
    assert_eq!(
        dependencies(&object),
        json!([
            {"apiVersion": "v1", "kind": "Secret", "namespace": "flux", "name": "pull"},
            {"apiVersion": "v1", "kind": "Secret", "namespace": "flux", "name": "tls"},
        ])
    );
}

#[test]
fn a_reference_without_a_name_is_no_dependency() {
    let object = json!({
        "apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "GitRepository",
        "metadata": {"name": "app", "namespace": "flux"},
        "spec": {"secretRef": {}, "verify": {"secretRef": {"name": "keys"}}},
    });
    assert_eq!(
        dependencies(&object),
        json!([{"apiVersion": "v1", "kind": "Secret", "namespace": "flux", "name": "keys"}])
    );
}

#[test]
fn a_flux_condition_without_a_message_is_merged_under_its_cluster() {
    let object = json!({
        "apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "GitRepository",
        "metadata": {"name": "app", "namespace": "flux", "generation": 2},
    });
    let condition = |message: Option<&str>| {
        let mut c = json!({"type": "Ready", "status": "False", "reason": "GitOperationFailed"});
        if let Some(m) = message {
            c["message"] = json!(m);
        }
        c
    };
    let statuses = items(json!([
        {"clusterName": "member1", "status": {"conditions": [condition(None)], "generation": 2, "observedGeneration": 2, "resourceTemplateGeneration": 2}},
        {"clusterName": "member2", "status": {"conditions": [condition(Some("auth failed"))], "generation": 2, "observedGeneration": 1, "resourceTemplateGeneration": 2}},
    ]));
    let aggregated = block_on(Interpreter::standard().aggregate_status(&object, &statuses)).unwrap();
    assert_eq!(
        aggregated["status"],
        json!({
            "conditions": [{"type": "Ready", "status": "False", "reason": "GitOperationFailed", "message": "member1=, member2=auth failed"}],
            // member2 has not reconciled generation 2 yet, so the template's observed one stays.
            "observedGeneration": 0,
            // No member has an artifact: the empty one is dropped, as upstream drops an empty
            // table no reference object declares.
        })
    );
}

#[test]
fn flink_cpu_written_as_a_quantity_is_compared_by_value() {
    let object = json!({
        "apiVersion": "flink.apache.org/v1beta1", "kind": "FlinkDeployment",
        "metadata": {"name": "job", "namespace": "flink"},
        "spec": {
            "jobManager": {"resource": {"cpu": "1500m", "memory": "1Gi"}},
            "taskManager": {"replicas": 3, "resource": {"cpu": 1, "memory": "2048Mi"}},
        },
    });
    let replicas = block_on(Interpreter::standard().replicas(&object)).unwrap();
    assert_eq!(replicas.replicas, 4);
    assert_eq!(
        serde_json::to_value(replicas.requirements).unwrap(),
        json!({"resourceRequest": {"cpu": "1500m", "memory": "2048Mi"}, "namespace": "flink"})
    );
}

#[test]
fn an_mpijob_condition_without_a_type_is_left_out() {
    let object = json!({"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "pi"}});
    let running = json!({"type": "Running", "status": "True", "lastTransitionTime": "2025-01-01T00:00:00Z"});
    let untyped = json!({"status": "True", "lastTransitionTime": "2025-01-02T00:00:00Z"});
    let statuses = items(json!([
        {"clusterName": "member1", "status": {"conditions": [untyped, running]}},
        {"clusterName": "member2", "status": {"replicaStatuses": {"Worker": {"active": 2}}}},
    ]));
    let aggregated = block_on(Interpreter::standard().aggregate_status(&object, &statuses)).unwrap();
    assert_eq!(
        aggregated["status"],
        json!({"conditions": [running], "replicaStatuses": {"Worker": {"active": 2, "succeeded": 0, "failed": 0}}})
    );
}
