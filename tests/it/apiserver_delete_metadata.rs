//! The metadata a DELETE and an update leave behind, as kube-apiserver's generic registry sets
//! it: the first DELETE of an object held by finalizers sets deletionTimestamp, a grace period
//! of 0 and bumps its generation (so controllers filtering on generation changes, like
//! controller-runtime's `GenerationChangedPredicate`, see it); a repeated DELETE changes
//! nothing unless its propagation policy changes the finalizers; generation moves on spec
//! changes only (plus status for custom resources without a status subresource, and
//! annotations for Deployments). Judged by the real kubectl and kube-rs.

use std::collections::HashMap;
use std::time::Duration;

use crate::common::plane::Plane;
use futures::StreamExt;
use kube::api::{Api, ApiResource, DynamicObject};
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

async fn client(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    Client::try_from(cfg).unwrap()
}

fn get(plane: &Plane, kind: &str, name: &str) -> Value {
    serde_json::from_str(&plane.kubectl_ok(&["get", kind, name, "-n", "default", "-o", "json"])).unwrap()
}

const DEPLOYMENT: &str = r#"{"apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "held", "namespace": "default", "finalizers": ["example.com/hold"]},
  "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "held"}},
           "template": {"metadata": {"labels": {"app": "held"}},
                        "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}"#;

const WORK: &str = r#"{"apiVersion": "work.karmada.io/v1alpha1", "kind": "Work",
  "metadata": {"name": "held", "namespace": "default", "finalizers": ["example.com/hold"]},
  "spec": {"workload": {"manifests": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}}]}}}"#;

/// Objects a watch passes through a filter written as controller-runtime's
/// `GenerationChangedPredicate` is: an update passes when the old and new generations differ.
/// The first message says the initial list is done.
fn generation_changes(api: Api<DynamicObject>) -> tokio::sync::mpsc::UnboundedReceiver<Option<DynamicObject>> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut seen: HashMap<String, Option<i64>> = HashMap::new();
        let stream = watcher(api, watcher::Config::default());
        futures::pin_mut!(stream);
        while let Some(Ok(event)) = stream.next().await {
            let obj = match event {
                watcher::Event::InitApply(obj) => {
                    seen.insert(obj.uid().unwrap(), obj.metadata.generation);
                    continue;
                }
                watcher::Event::InitDone => {
                    let _ = tx.send(None);
                    continue;
                }
                watcher::Event::Apply(obj) => obj,
                watcher::Event::Init | watcher::Event::Delete(_) => continue,
            };
            let old = seen.insert(obj.uid().unwrap(), obj.metadata.generation);
            if old.is_some_and(|old| old != obj.metadata.generation) && tx.send(Some(obj)).is_err() {
                return;
            }
        }
    });
    rx
}

/// The next object the filter passes; the timeout only keeps a broken server from hanging the test.
async fn next_change(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Option<DynamicObject>>) -> DynamicObject {
    tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .expect("the generation filter passes an event")
        .expect("the watch is running")
        .expect("an object, not the end of the initial list")
}

async fn deletion_is_seen_through_a_generation_filter(plane: &Plane, resource: ApiResource, kind: &str) {
    let api: Api<DynamicObject> = Api::namespaced_with(client(plane).await, "default", &resource);
    let created = get(plane, kind, "held");
    assert_eq!(created["metadata"]["generation"], 1, "{created}");
    let mut changes = generation_changes(api);
    assert!(changes.recv().await.expect("the initial list").is_none());

    let out = plane.kubectl_ok(&["delete", kind, "held", "-n", "default", "--wait=false"]);
    assert!(out.contains(r#""held" deleted"#), "{out}");
    let seen = next_change(&mut changes).await;
    assert_eq!(seen.metadata.generation, Some(2));
    assert!(seen.metadata.deletion_timestamp.is_some(), "{seen:?}");

    let marked = get(plane, kind, "held");
    let meta = &marked["metadata"];
    assert_eq!(meta["generation"], 2, "{marked}");
    assert_eq!(meta["deletionGracePeriodSeconds"], 0, "{marked}");
    assert_eq!(meta["finalizers"], json!(["example.com/hold"]), "{marked}");
    assert!(meta["deletionTimestamp"].is_string(), "{marked}");

    // Repeated DELETEs, one with a grace period, move nothing: not the timestamp, not the
    // generation, not even the resourceVersion (nothing is written).
    plane.kubectl_ok(&["delete", kind, "held", "-n", "default", "--wait=false"]);
    plane.kubectl_ok(&["delete", kind, "held", "-n", "default", "--wait=false", "--grace-period=5"]);
    assert_eq!(get(plane, kind, "held"), marked);

    // Removing the last finalizer removes the object, with no further generation change.
    plane.kubectl_ok(&[
        "patch",
        kind,
        "held",
        "-n",
        "default",
        "--type=merge",
        "-p",
        r#"{"metadata":{"finalizers":null}}"#,
    ]);
    let gone = plane.kubectl_run(&["get", kind, "held", "-n", "default"]);
    assert_eq!(gone.code, 1);
    assert!(gone.stderr.contains(r#""held" not found"#), "{}", gone.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployment_s_first_delete_bumps_its_generation_and_a_generation_filter_sees_it() {
    let plane = Plane::start();
    plane.create(DEPLOYMENT);
    let resource = ApiResource::from_gvk(&kube::core::GroupVersionKind::gvk("apps", "v1", "Deployment"));
    deletion_is_seen_through_a_generation_filter(&plane, resource, "deployment").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_work_s_first_delete_bumps_its_generation_and_a_generation_filter_sees_it() {
    let plane = Plane::start();
    plane.create(WORK);
    let resource = ApiResource::from_gvk(&kube::core::GroupVersionKind::gvk("work.karmada.io", "v1alpha1", "Work"));
    deletion_is_seen_through_a_generation_filter(&plane, resource, "work").await;
}

/// A raw DELETE with `options` as the body: the status code and the answer.
async fn delete(client: &Client, path: &str, options: Value) -> (u16, Value) {
    let req = http::Request::delete(path)
        .header("content-type", "application/json")
        .body(kube::client::Body::from(serde_json::to_vec(&options).unwrap()))
        .unwrap();
    let resp = client.send(req).await.unwrap();
    let code = resp.status().as_u16();
    let body = http_body_util::BodyExt::collect(resp.into_body()).await.unwrap().to_bytes();
    (code, serde_json::from_slice(&body).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_options_on_a_held_object_set_finalizers_and_codes_as_kube_does() {
    let plane = Plane::start();
    plane.create(
        r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "held", "namespace": "default", "finalizers": ["example.com/hold"]}}"#,
    );
    let client = client(&plane).await;
    let path = "/api/v1/namespaces/default/configmaps/held";

    // Legacy cascading (orphanDependents=false) on an object that stays: 202 with the object.
    let (code, first) = delete(&client, path, json!({"orphanDependents": false})).await;
    assert_eq!(code, 202, "{first}");
    assert_eq!(first["kind"], "ConfigMap");
    assert_eq!(first["metadata"]["finalizers"], json!(["example.com/hold"]), "{first}");
    assert_eq!(first["metadata"]["deletionGracePeriodSeconds"], 0, "{first}");
    assert!(first["metadata"].get("generation").is_none(), "a ConfigMap has no generation: {first}");

    // Without options a repeated DELETE writes nothing and answers 200 with the object.
    let (code, again) = delete(&client, path, json!({})).await;
    assert_eq!(code, 200, "{again}");
    assert_eq!(again, first);

    // A policy on a terminating object still sets the garbage collector's finalizer (kinds
    // without graceful deletion), without moving the deletion timestamp.
    let (code, orphan) = delete(&client, path, json!({"propagationPolicy": "Orphan"})).await;
    assert_eq!(code, 200, "{orphan}");
    assert_eq!(orphan["metadata"]["finalizers"], json!(["example.com/hold", "orphan"]), "{orphan}");
    assert_eq!(orphan["metadata"]["deletionTimestamp"], first["metadata"]["deletionTimestamp"]);
    assert_ne!(orphan["metadata"]["resourceVersion"], first["metadata"]["resourceVersion"]);
    // The collector then orphans the (no) dependents and drops its finalizer; the object stays
    // held by the other one, still marked as before.
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let stored = loop {
        let stored = get(&plane, "configmap", "held");
        if stored["metadata"]["finalizers"] == json!(["example.com/hold"]) {
            break stored;
        }
        assert!(std::time::Instant::now() < deadline, "the collector keeps its finalizer: {stored}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(stored["metadata"]["deletionTimestamp"], first["metadata"]["deletionTimestamp"]);

    // Foreground on a fresh Deployment: marked with foregroundDeletion and its generation bumped.
    plane.create(DEPLOYMENT);
    let (code, fg) = delete(
        &client,
        "/apis/apps/v1/namespaces/default/deployments/held",
        json!({"propagationPolicy": "Foreground"}),
    )
    .await;
    assert_eq!(code, 200, "{fg}");
    assert_eq!(fg["metadata"]["finalizers"], json!(["example.com/hold", "foregroundDeletion"]), "{fg}");
    assert_eq!(fg["metadata"]["generation"], 2, "{fg}");
    assert_eq!(get(&plane, "deployment", "held")["metadata"]["generation"], 2);
}

#[test]
fn a_namespace_s_mark_has_no_grace_period_and_a_repeated_delete_changes_nothing() {
    let plane = Plane::start();
    plane.kubectl_ok(&["create", "namespace", "busy"]);
    // Something that holds the namespace in Terminating while the test looks at it.
    plane.create(
        r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "held", "namespace": "busy", "finalizers": ["example.com/hold"]}}"#,
    );
    plane.kubectl_ok(&["delete", "namespace", "busy", "--wait=false"]);
    let marked: Value = serde_json::from_str(&plane.kubectl_ok(&["get", "ns", "busy", "-o", "json"])).unwrap();
    assert_eq!(marked["status"]["phase"], "Terminating", "{marked}");
    assert!(marked["metadata"]["deletionTimestamp"].is_string(), "{marked}");
    assert!(marked["metadata"].get("deletionGracePeriodSeconds").is_none(), "{marked}");
    plane.kubectl_ok(&["delete", "namespace", "busy", "--wait=false", "--cascade=orphan"]);
    let again: Value = serde_json::from_str(&plane.kubectl_ok(&["get", "ns", "busy", "-o", "json"])).unwrap();
    assert_eq!(again["metadata"]["resourceVersion"], marked["metadata"]["resourceVersion"], "{again}");
    assert_eq!(again["metadata"].get("finalizers"), marked["metadata"].get("finalizers"), "{again}");
}

const WIDGET_CRD: &str = r#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.com"},
  "spec": {"group": "example.com", "scope": "Namespaced",
           "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
           "versions": [{"name": "v1", "served": true, "storage": true,
                         "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}}"#;

fn generation(plane: &Plane, kind: &str) -> i64 {
    get(plane, kind, "held")["metadata"]["generation"].as_i64().unwrap()
}

fn patch(plane: &Plane, kind: &str, body: &str, status: bool) {
    let mut args = vec!["patch", kind, "held", "-n", "default", "--type=merge", "-p", body];
    if status {
        args.push("--subresource=status");
    }
    plane.kubectl_ok(&args);
}

#[test]
fn generation_moves_on_what_kube_s_strategies_count_as_a_change_of_intent() {
    let plane = Plane::start();
    // A custom resource with a status subresource: spec changes only.
    plane.create(WORK);
    patch(&plane, "work", r#"{"metadata":{"labels":{"a":"b"},"annotations":{"a":"b"}}}"#, false);
    patch(&plane, "work", r#"{"status":{"conditions":[]}}"#, true);
    assert_eq!(generation(&plane, "work"), 1);
    patch(&plane, "work", r#"{"spec":{"suspendDispatching":true}}"#, false);
    assert_eq!(generation(&plane, "work"), 2);

    // Without a status subresource, status is content like any other.
    plane.create(WIDGET_CRD);
    plane.kubectl_ok(&["wait", "--for=condition=established", "crd/widgets.example.com", "--timeout=20s"]);
    plane.create(r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "held", "namespace": "default"}, "spec": {"size": 1}}"#);
    patch(&plane, "widget", r#"{"metadata":{"labels":{"a":"b"}}}"#, false);
    assert_eq!(generation(&plane, "widget"), 1);
    patch(&plane, "widget", r#"{"status":{"ready":true}}"#, false);
    assert_eq!(generation(&plane, "widget"), 2);

    // A Deployment: spec and annotations (copied to its ReplicaSets), not labels or status.
    plane.create(DEPLOYMENT);
    patch(&plane, "deployment", r#"{"metadata":{"labels":{"a":"b"}}}"#, false);
    patch(&plane, "deployment", r#"{"status":{"observedGeneration":1}}"#, true);
    assert_eq!(generation(&plane, "deployment"), 1);
    patch(&plane, "deployment", r#"{"metadata":{"annotations":{"a":"b"}}}"#, false);
    assert_eq!(generation(&plane, "deployment"), 2);
    patch(&plane, "deployment", r#"{"spec":{"replicas":2}}"#, false);
    assert_eq!(generation(&plane, "deployment"), 3);
}
