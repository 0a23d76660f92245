//! `apply` end to end: which policies apply, in which order, and what is recorded.

use serde_json::{Value, json};

use super::*;

fn cluster(name: &str, labels: Value) -> Cluster {
    serde_json::from_value(json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
        "metadata": {"name": name, "labels": labels}, "spec": {"syncMode": "Push", "region": "eu"}}))
    .unwrap()
}

fn spec(v: Value) -> OverrideSpec {
    serde_json::from_value(v).unwrap()
}

fn deployment() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx", "namespace": "default", "labels": {"app": "nginx"}},
        "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.19"}]}}}})
}

/// A policy that sets `metadata.annotations.winner` to its name.
fn marker(selectors: Value, name: &str) -> OverrideSpec {
    spec(json!({"resourceSelectors": selectors, "overrideRules": [{"overriders": {
        "annotationsOverrider": [{"operator": "add", "value": {"winner": name}}]}}]}))
}

fn ns<'a>(name: &'a str, spec: &'a OverrideSpec) -> OverrideSource<'a> {
    OverrideSource { namespace: Some("default"), name, spec }
}

fn cop<'a>(name: &'a str, spec: &'a OverrideSpec) -> OverrideSource<'a> {
    OverrideSource { namespace: None, name, spec }
}

fn names(applied: &Option<String>) -> Vec<String> {
    let list: Vec<Value> = serde_json::from_str(applied.as_deref().unwrap()).unwrap();
    list.iter().map(|i| i["policyName"].as_str().unwrap().to_string()).collect()
}

#[test]
fn no_policies_change_nothing() {
    let mut m = deployment();
    let applied = apply(&mut m, &cluster("member1", json!({})), &[], &[]).unwrap();
    assert_eq!(applied, AppliedOverrides::default());
    assert_eq!(m, deployment());
}

#[test]
fn namespaced_policies_apply_after_cluster_policies() {
    let by_kind = json!([{"apiVersion": "apps/v1", "kind": "Deployment"}]);
    let c = marker(by_kind.clone(), "cluster");
    let n = marker(by_kind, "namespaced");
    let mut m = deployment();
    let applied = apply(&mut m, &cluster("member1", json!({})), &[cop("c", &c)], &[ns("n", &n)]).unwrap();
    assert_eq!(m["metadata"]["annotations"], json!({"winner": "namespaced"}));
    assert_eq!(names(&applied.cluster), ["c"]);
    assert_eq!(names(&applied.namespaced), ["n"]);
}

#[test]
fn more_specific_selectors_win_then_names_order() {
    let by_name = marker(json!([{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}]), "by-name");
    let by_label = marker(
        json!([{"apiVersion": "apps/v1", "kind": "Deployment", "labelSelector": {"matchLabels": {"app": "nginx"}}}]),
        "by-label",
    );
    let by_kind = marker(json!([{"apiVersion": "apps/v1", "kind": "Deployment"}]), "by-kind");
    let everything = marker(json!([]), "everything");
    let c = cluster("member1", json!({}));

    // Passed in the worst order: the name-selected policy (named "a") must still apply last.
    let policies = [ns("a", &by_name), ns("b", &by_label), ns("c", &by_kind), ns("d", &everything)];
    let mut m = deployment();
    let applied = apply(&mut m, &c, &[], &policies).unwrap();
    assert_eq!(m["metadata"]["annotations"]["winner"], "by-name");
    // Recorded sorted by name, as upstream records them.
    assert_eq!(names(&applied.namespaced), ["a", "b", "c", "d"]);

    let policies = [ns("a", &by_label), ns("z", &by_kind)];
    let mut m = deployment();
    apply(&mut m, &c, &[], &policies).unwrap();
    assert_eq!(m["metadata"]["annotations"]["winner"], "by-label");

    // Same priority: the later name wins.
    let other_kind = marker(json!([{"apiVersion": "apps/v1", "kind": "Deployment"}]), "other");
    let policies = [ns("b", &other_kind), ns("a", &by_kind)];
    let mut m = deployment();
    apply(&mut m, &c, &[], &policies).unwrap();
    assert_eq!(m["metadata"]["annotations"]["winner"], "other");
}

#[test]
fn selectors_and_namespaces_limit_policies() {
    let c = cluster("member1", json!({}));
    let other_name = marker(json!([{"apiVersion": "apps/v1", "kind": "Deployment", "name": "other"}]), "x");
    let other_kind = marker(json!([{"apiVersion": "v1", "kind": "ConfigMap"}]), "x");
    let everything = marker(json!([]), "x");
    let mut m = deployment();
    let elsewhere = OverrideSource { namespace: Some("kube-system"), name: "e", spec: &everything };
    let applied = apply(&mut m, &c, &[], &[ns("n", &other_name), ns("k", &other_kind), elsewhere]).unwrap();
    assert_eq!(applied, AppliedOverrides::default());
    assert_eq!(m, deployment());

    // A cluster-scoped resource gets ClusterOverridePolicies only.
    let mut role =
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"}});
    let applied = apply(&mut role, &c, &[cop("c", &everything)], &[ns("n", &everything)]).unwrap();
    assert_eq!(names(&applied.cluster), ["c"]);
    assert_eq!(applied.namespaced, None);
}

#[test]
fn rules_follow_their_target_clusters() {
    let s = spec(json!({"overrideRules": [
        {"targetCluster": {"clusterNames": ["member1"]},
            "overriders": {"plaintext": [{"path": "/spec/replicas", "operator": "replace", "value": 3}]}},
        {"targetCluster": {"labelSelector": {"matchLabels": {"env": "prod"}}},
            "overriders": {"imageOverrider": [{"component": "Registry", "operator": "add", "value": "prod.io"}]}},
        {"overriders": {"labelsOverrider": [{"operator": "add", "value": {"all": "yes"}}]}}
    ]}));
    let mut m = deployment();
    let applied = apply(&mut m, &cluster("member2", json!({"env": "prod"})), &[], &[ns("p", &s)]).unwrap();
    assert_eq!(m["spec"]["replicas"], 1);
    assert_eq!(m["spec"]["template"]["spec"]["containers"][0]["image"], "prod.io/nginx:1.19");
    assert_eq!(m["metadata"]["labels"], json!({"app": "nginx", "all": "yes"}));
    assert_eq!(
        applied.namespaced.as_deref(),
        Some(concat!(
            r#"[{"policyName":"p","overriders":{"imageOverrider":[{"component":"Registry","operator":"add","value":"prod.io"}]}},"#,
            r#"{"policyName":"p","overriders":{"labelsOverrider":[{"operator":"add","value":{"all":"yes"}}]}}]"#
        ))
    );

    let mut m = deployment();
    apply(&mut m, &cluster("member1", json!({})), &[], &[ns("p", &s)]).unwrap();
    assert_eq!(m["spec"]["replicas"], 3);
    assert_eq!(m["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.19");
}

#[test]
fn deprecated_target_cluster_and_overriders() {
    let s = spec(json!({"targetCluster": {"clusterNames": ["member1"]},
        "overriders": {"plaintext": [{"path": "/spec/replicas", "operator": "replace", "value": 5}]}}));
    let mut m = deployment();
    let applied = apply(&mut m, &cluster("member2", json!({})), &[cop("old", &s)], &[]).unwrap();
    assert_eq!(applied.cluster, None);
    let applied = apply(&mut m, &cluster("member1", json!({})), &[cop("old", &s)], &[]).unwrap();
    assert_eq!(m["spec"]["replicas"], 5);
    assert_eq!(
        applied.cluster.as_deref(),
        Some(
            r#"[{"policyName":"old","overriders":{"plaintext":[{"path":"/spec/replicas","operator":"replace","value":5}]}}]"#
        )
    );
}

#[test]
fn overriders_run_in_upstream_order() {
    // plaintext runs last, so it sees the image the image overrider wrote and wins over the
    // labels overrider on the same key.
    let s = spec(json!({"overrideRules": [{"overriders": {
        "plaintext": [
            {"path": "/metadata/annotations/seen", "operator": "add", "value": "x"},
            {"path": "/metadata/labels/app", "operator": "replace", "value": "from-plaintext"}
        ],
        "labelsOverrider": [{"operator": "replace", "value": {"app": "from-labels"}}],
        "annotationsOverrider": [{"operator": "add", "value": {"a": "1"}}],
        "imageOverrider": [{"component": "Tag", "operator": "replace", "value": "2.0"}],
        "argsOverrider": [{"containerName": "nginx", "operator": "add", "value": ["-v"]}]
    }}]}));
    let mut m = deployment();
    apply(&mut m, &cluster("member1", json!({})), &[], &[ns("p", &s)]).unwrap();
    assert_eq!(m["metadata"]["labels"]["app"], "from-plaintext");
    assert_eq!(m["metadata"]["annotations"], json!({"a": "1", "seen": "x"}));
    assert_eq!(
        m["spec"]["template"]["spec"]["containers"][0],
        json!({"name": "nginx", "image": "nginx:2.0", "args": ["-v"]})
    );
}

#[test]
fn a_failing_overrider_names_the_policy_and_changes_nothing() {
    let ok = marker(json!([]), "ok");
    let bad = spec(json!({"overrideRules": [{"overriders": {
        "plaintext": [{"path": "/spec/nothing/here", "operator": "replace", "value": 1}]}}]}));
    let mut m = deployment();
    let err = apply(&mut m, &cluster("member1", json!({})), &[cop("a-ok", &ok)], &[ns("bad", &bad)]).unwrap_err();
    assert_eq!(
        err,
        OverrideError {
            policy: "default/bad".into(),
            message: "plaintext overrider: cannot replace /spec/nothing/here: the path does not exist".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "default/bad: plaintext overrider: cannot replace /spec/nothing/here: the path does not exist"
    );
    assert_eq!(m, deployment());

    let err = apply(&mut m, &cluster("member1", json!({})), &[cop("cluster-bad", &bad)], &[]).unwrap_err();
    assert_eq!(err.policy, "cluster-bad");
}

/// An upstream example policy, from the shared fixtures.
fn example(path: &str) -> OverrideSpec {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/karmada").join(path);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let doc: Value = serde_saphyr::from_str(&text).unwrap();
    spec(doc["spec"].clone())
}

#[test]
fn upstream_examples() {
    let image = example("artifacts/example/overridepolicy_image.yaml");
    let mut m = deployment();
    let applied =
        apply(&mut m, &cluster("member1", json!({"location": "us"})), &[], &[ns("example-override", &image)]).unwrap();
    assert_eq!(m["spec"]["template"]["spec"]["containers"][0]["image"], "fictional.registry.us/nginx:1.19");
    assert_eq!(
        applied.namespaced.as_deref(),
        Some(concat!(
            r#"[{"policyName":"example-override","overriders":{"imageOverrider":"#,
            r#"[{"component":"Registry","operator":"replace","value":"fictional.registry.us"}]}}]"#
        ))
    );

    // Selected by name (its label selector is ignored); the annotation is added and removed again.
    let plaintext = example("artifacts/example/example-override.yaml");
    let mut m = deployment();
    let region = json!({"failuredomain.kubernetes.io/region": "dc1"});
    apply(&mut m, &cluster("dc-1-cluster-2", region), &[], &[ns("example-override", &plaintext)]).unwrap();
    assert_eq!(m["spec"]["template"]["spec"]["containers"][0]["image"], "dc-1.registry.io/nginx:1.17.0-alpine");
    assert_eq!(m["metadata"]["annotations"], json!({}));

    let labels = example("samples/nginx/overridepolicy.yaml");
    let mut m = deployment();
    m["metadata"]["labels"]["for"] = json!("x");
    apply(&mut m, &cluster("member2", json!({})), &[], &[ns("nginx-op", &labels)]).unwrap();
    assert_eq!(m["metadata"]["labels"], json!({"app": "nginx", "env": "skoala-dev", "env-stat": "skoala-stage"}));
    assert!(m["metadata"].get("annotations").is_none());

    let cluster_policy = example("artifacts/example/clusteroverridepolicy.yaml");
    let mut m = deployment();
    m["spec"]["replicas"] = json!(4);
    let applied =
        apply(&mut m, &cluster("member1", json!({})), &[cop("example-cluster-override", &cluster_policy)], &[])
            .unwrap();
    assert_eq!(m["spec"]["replicas"], 1);
    assert!(applied.cluster.is_some() && applied.namespaced.is_none());
}
