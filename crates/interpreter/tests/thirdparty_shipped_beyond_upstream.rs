//! Where the shipped third-party set answers differently from upstream's scripts on purpose
//! (OpenKruise, Argo and Kyverno kinds): each test runs the same input through the shipped set
//! and through upstream's own `customizations.yaml`, and shows what the shipped set answers
//! and that upstream's answer differs, so the case really exercises the difference.

#[path = "support/block_on.rs"]
mod block_on;

use std::path::Path;

use block_on::block_on;
use karmadactl_interpreter::{Interpreter, RuleSet};
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Value, json};

/// An interpreter answering with upstream's customization of `kind` (a path under the
/// fixtures' `resourcecustomizations/`), as a user's customization.
fn upstream(kind: &str) -> Interpreter {
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/karmada/resourcecustomizations");
    let text = std::fs::read_to_string(fixtures.join(kind).join("customizations.yaml")).unwrap();
    let interpreter = Interpreter::new();
    interpreter.set_customizations(RuleSet::from_yaml(&text).unwrap());
    interpreter
}

fn items(items: Value) -> Vec<AggregatedStatusItem> {
    serde_json::from_value(items).unwrap()
}

#[test]
fn a_pod_template_without_references_has_an_empty_dependency_list() {
    let cloneset = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "nginx"}]}}},
    });
    let shipped = block_on(Interpreter::standard().dependencies(&cloneset)).unwrap();
    assert_eq!(shipped, Vec::new());
    let theirs = block_on(upstream("apps.kruise.io/v1alpha1/CloneSet").dependencies(&cloneset)).unwrap_err();
    assert!(theirs.to_string().contains("got nil"), "{theirs}");
}

#[test]
fn a_broadcastjob_reports_failed_only_the_members_whose_job_failed() {
    let job = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
        "metadata": {"name": "scan", "namespace": "ops"},
    });
    let statuses = items(json!([
        {"clusterName": "member1", "status": {"desired": 1, "failed": 1,
            "conditions": [{"type": "Failed", "status": "True"}]}},
        {"clusterName": "member2", "status": {"desired": 1, "active": 1}},
    ]));
    let shipped = block_on(Interpreter::standard().aggregate_status(&job, &statuses)).unwrap();
    assert_eq!(
        shipped["status"]["conditions"],
        json!([{"type": "Failed", "status": "True", "reason": "JobFailed",
            "message": "Job executed failed in member clusters: member1"}])
    );
    assert_eq!((&shipped["status"]["active"], &shipped["status"]["failed"]), (&json!(1), &json!(1)));
    let theirs = block_on(upstream("apps.kruise.io/v1alpha1/BroadcastJob").aggregate_status(&job, &statuses)).unwrap();
    assert_eq!(
        theirs["status"]["conditions"][0]["message"],
        "Job executed failed in member clusters: member1, member2"
    );
}

#[test]
fn a_broadcastjob_keeps_member_labels_when_its_template_has_no_metadata() {
    let desired = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "BroadcastJob",
        "metadata": {"name": "scan", "namespace": "ops"},
        "spec": {"template": {"spec": {"containers": [{"name": "scan", "image": "scanner"}]}}},
    });
    let mut observed = desired.clone();
    observed["spec"]["template"]["metadata"] = json!({"labels": {"injected": "yes"}});
    let shipped = block_on(Interpreter::standard().retain(&desired, &observed)).unwrap();
    assert_eq!(shipped["spec"]["template"], observed["spec"]["template"]);
    let theirs = upstream("apps.kruise.io/v1alpha1/BroadcastJob");
    assert!(block_on(theirs.retain(&desired, &observed)).is_err());
}

#[test]
fn a_sidecarset_with_no_collected_status_aggregates_to_zero_pods() {
    let sidecarset = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
        "metadata": {"name": "log-agent"},
        "spec": {"containers": [{"name": "agent", "image": "agent"}]},
    });
    let shipped = block_on(Interpreter::standard().aggregate_status_items(&sidecarset, None)).unwrap();
    assert_eq!(
        shipped,
        json!({
            "apiVersion": "apps.kruise.io/v1alpha1", "kind": "SidecarSet",
            "metadata": {"name": "log-agent"},
            "status": {"matchedPods": 0, "updatedPods": 0, "readyPods": 0},
        })
    );
    let theirs = upstream("apps.kruise.io/v1alpha1/SidecarSet");
    assert!(block_on(theirs.aggregate_status_items(&sidecarset, None)).is_err());
}

#[test]
fn a_uniteddeployment_lists_merged_conditions_in_the_order_their_types_first_appear() {
    let deployment = json!({
        "apiVersion": "apps.kruise.io/v1alpha1", "kind": "UnitedDeployment",
        "metadata": {"name": "web", "namespace": "shop", "generation": 1},
    });
    let condition = |kind: &str, status: &str| json!({"type": kind, "status": status});
    let statuses = items(json!([
        {"clusterName": "member1", "status": {"conditions": [condition("Zeta", "True"), condition("Alpha", "False")]}},
        {"clusterName": "member2", "status": {"conditions": [condition("Alpha", "True"), condition("Mid", "True")]}},
    ]));
    let shipped = block_on(Interpreter::standard().aggregate_status(&deployment, &statuses)).unwrap();
    assert_eq!(
        shipped["status"]["conditions"],
        json!([condition("Zeta", "True"), condition("Alpha", "True"), condition("Mid", "True")])
    );
}

#[test]
fn a_workflow_depends_on_the_secret_its_secret_volume_names() {
    let workflow = json!({
        "apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow",
        "metadata": {"name": "build", "namespace": "ci"},
        "spec": {"entrypoint": "main", "volumes": [{"name": "creds", "secret": {"secretName": "registry"}}]},
    });
    let shipped = block_on(Interpreter::standard().dependencies(&workflow)).unwrap();
    assert_eq!(
        serde_json::to_value(shipped).unwrap(),
        json!([{"apiVersion": "v1", "kind": "Secret", "namespace": "ci", "name": "registry"}])
    );
    let theirs = block_on(upstream("argoproj.io/v1alpha1/Workflow").dependencies(&workflow)).unwrap();
    assert_eq!(theirs, Vec::new());
}

#[test]
fn a_kyverno_policy_member_omitting_a_rule_count_adds_zero_for_it() {
    let policy = json!({
        "apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy", "metadata": {"name": "require-labels"},
    });
    let statuses = items(json!([
        {"clusterName": "member1", "status": {"ready": true, "rulecount": {"validate": 2}}},
        {"clusterName": "member2", "status": {"ready": true,
            "rulecount": {"validate": 1, "generate": 0, "mutate": 1, "verifyimages": 0}}},
    ]));
    let shipped = block_on(Interpreter::standard().aggregate_status(&policy, &statuses)).unwrap();
    assert_eq!(
        shipped["status"],
        json!({"ready": true, "rulecount": {"validate": 3, "generate": 0, "mutate": 1, "verifyimages": 0}})
    );
    let theirs = upstream("kyverno.io/v1/ClusterPolicy");
    assert!(block_on(theirs.aggregate_status(&policy, &statuses)).is_err());
}
