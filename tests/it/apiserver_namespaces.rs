//! Namespace lifecycle as kube-apiserver and kube-controller-manager give it, judged by the real
//! kubectl: deleting a namespace marks it Terminating, refuses new content, deletes what is in
//! it (waiting for the objects' own finalizers), and only then removes the namespace.

use std::time::{Duration, Instant};

use crate::common::plane::Plane;
use serde_json::Value;

const CONVERGE: Duration = Duration::from_secs(15);

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + CONVERGE;
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn namespace(plane: &Plane, name: &str) -> Option<Value> {
    let out = plane.kubectl_ok(&["get", "namespace", name, "-o", "json", "--ignore-not-found"]);
    (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
}

fn configmaps(plane: &Plane, ns: &str) -> Vec<String> {
    let out = plane.kubectl_ok(&["get", "configmaps", "-n", ns, "-o", "name"]);
    out.lines().map(str::to_string).collect()
}

#[test]
fn deleting_a_namespace_empties_it_first_and_honours_content_finalizers() {
    let plane = Plane::start();
    plane.kubectl_ok(&["create", "namespace", "doomed"]);
    plane.kubectl_ok(&["create", "configmap", "plain", "-n", "doomed"]);
    plane.kubectl_ok(&["create", "secret", "generic", "s", "-n", "doomed", "--from-literal=k=v"]);
    plane.kubectl_ok(&["create", "configmap", "held", "-n", "doomed"]);
    plane.kubectl_ok(&[
        "patch",
        "configmap",
        "held",
        "-n",
        "doomed",
        "-p",
        r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
    ]);
    // Content elsewhere must survive.
    plane.kubectl_ok(&["create", "configmap", "bystander", "-n", "default"]);

    plane.kubectl_ok(&["delete", "namespace", "doomed", "--wait=false"]);
    let ns = namespace(&plane, "doomed").expect("the namespace stays while content is held");
    assert_eq!(ns["status"]["phase"], "Terminating");
    assert!(ns["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(ns["spec"]["finalizers"][0], "kubernetes");

    let refused = plane.kubectl_run(&["create", "configmap", "late", "-n", "doomed"]);
    assert_ne!(refused.code, 0, "content in a terminating namespace must be refused");
    assert!(
        refused.stderr.contains("unable to create new content in namespace doomed because it is being terminated"),
        "{}",
        refused.stderr
    );

    wait_for("the unheld content to go", || configmaps(&plane, "doomed") == ["configmap/held"]);
    let secrets = plane.kubectl_ok(&["get", "secrets", "-n", "doomed", "-o", "name"]);
    assert!(secrets.trim().is_empty(), "secrets left: {secrets}");
    assert!(namespace(&plane, "doomed").is_some(), "the namespace waits for the held ConfigMap");

    plane.kubectl_ok(&[
        "patch",
        "configmap",
        "held",
        "-n",
        "doomed",
        "--type=json",
        "-p",
        r#"[{"op":"remove","path":"/metadata/finalizers"}]"#,
    ]);
    wait_for("the namespace to go", || namespace(&plane, "doomed").is_none());
    assert_eq!(configmaps(&plane, "default").iter().filter(|c| *c == "configmap/bystander").count(), 1);
}

#[test]
fn a_plain_update_cannot_drop_the_spec_finalizer_but_finalize_can() {
    let plane = Plane::start();
    plane.kubectl_ok(&["create", "namespace", "kept"]);
    // kubectl's merge patch of spec.finalizers is ignored, as kube-apiserver ignores it.
    plane.kubectl_ok(&["patch", "namespace", "kept", "--type=merge", "-p", r#"{"spec":{"finalizers":[]}}"#]);
    let ns = namespace(&plane, "kept").expect("exists");
    assert_eq!(ns["spec"]["finalizers"][0], "kubernetes");

    // The finalize subresource is how a namespace controller (or an operator) releases it.
    plane.kubectl_ok(&["create", "configmap", "held", "-n", "kept"]);
    plane.kubectl_ok(&[
        "patch",
        "configmap",
        "held",
        "-n",
        "kept",
        "-p",
        r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
    ]);
    plane.kubectl_ok(&["delete", "namespace", "kept", "--wait=false"]);
    let mut ns = namespace(&plane, "kept").expect("held by content");
    ns["spec"]["finalizers"] = serde_json::json!([]);
    let body = plane.file("finalize.json", &ns.to_string());
    plane.kubectl_ok(&[
        "replace",
        "--raw",
        "/api/v1/namespaces/kept/finalize",
        "-f",
        body.to_str().expect("utf-8 path"),
    ]);
    wait_for("the released namespace to go", || namespace(&plane, "kept").is_none());
}
