//! The embedded API server judged by the real kubectl 1.32: every command asserts the objects
//! or output it produces, not only the exit code.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::plane::Plane;
use serde_json::Value;

const CONFIGMAP: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: demo
  namespace: default
  labels:
    app: demo
    tier: web
data:
  greeting: hello
";

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  namespace: default
  labels:
    app: nginx
spec:
  replicas: 2
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
";

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn create_get_label_annotate_patch_delete() {
    let plane = Plane::start();
    let cm = plane.file("cm.yaml", CONFIGMAP);
    let out = plane.kubectl_ok(&["create", "-f", cm.to_str().unwrap()]);
    assert_eq!(out.trim(), "configmap/demo created");

    let obj = json(&plane.kubectl_ok(&["get", "configmap", "demo", "-o", "json"]));
    assert!(obj["metadata"].get("generation").is_none(), "ConfigMaps carry no generation, as in Kubernetes");
    assert_eq!(obj["data"]["greeting"], "hello");
    assert_eq!(obj["metadata"]["labels"]["tier"], "web");
    assert!(obj["metadata"]["uid"].as_str().is_some_and(|u| u.len() == 36));
    assert!(obj["metadata"]["resourceVersion"].as_str().is_some_and(|r| r.parse::<i64>().unwrap() > 0));
    assert!(obj["metadata"]["creationTimestamp"].as_str().is_some_and(|t| t.ends_with('Z')));

    // Creating it again is AlreadyExists, with kube's message.
    let again = plane.kubectl_run(&["create", "-f", cm.to_str().unwrap()]);
    assert_ne!(again.code, 0);
    assert!(again.stderr.contains("configmaps \"demo\" already exists"), "{}", again.stderr);

    assert_eq!(plane.kubectl_ok(&["label", "configmap", "demo", "env=prod"]).trim(), "configmap/demo labeled");
    assert_eq!(plane.kubectl_ok(&["annotate", "configmap", "demo", "owner=team-a"]).trim(), "configmap/demo annotated");
    let obj = json(&plane.kubectl_ok(&["get", "configmap", "demo", "-o", "json"]));
    assert_eq!(obj["metadata"]["labels"]["env"], "prod");
    assert_eq!(obj["metadata"]["annotations"]["owner"], "team-a");

    plane.kubectl_ok(&[
        "patch",
        "configmap",
        "demo",
        "--type",
        "merge",
        "-p",
        r#"{"data":{"greeting":"hi","extra":"x"}}"#,
    ]);
    plane.kubectl_ok(&[
        "patch",
        "configmap",
        "demo",
        "--type",
        "json",
        "-p",
        r#"[{"op":"remove","path":"/data/extra"},{"op":"add","path":"/metadata/labels/patched","value":"yes"}]"#,
    ]);
    let obj = json(&plane.kubectl_ok(&["get", "configmap", "demo", "-o", "json"]));
    assert_eq!(obj["data"], serde_json::json!({"greeting": "hi"}));
    assert_eq!(obj["metadata"]["labels"]["patched"], "yes");

    // A failing JSON patch test is refused and changes nothing.
    let bad = plane.kubectl_run(&[
        "patch",
        "configmap",
        "demo",
        "--type",
        "json",
        "-p",
        r#"[{"op":"test","path":"/data/greeting","value":"nope"}]"#,
    ]);
    assert_ne!(bad.code, 0);
    let still = json(&plane.kubectl_ok(&["get", "configmap", "demo", "-o", "json"]));
    assert_eq!(still["metadata"]["resourceVersion"], obj["metadata"]["resourceVersion"]);

    assert_eq!(plane.kubectl_ok(&["delete", "configmap", "demo"]).trim(), "configmap \"demo\" deleted");
    let gone = plane.kubectl_run(&["get", "configmap", "demo"]);
    assert_ne!(gone.code, 0);
    assert!(gone.stderr.contains("configmaps \"demo\" not found"), "{}", gone.stderr);
}

#[test]
fn apply_and_get_in_every_output_format() {
    let plane = Plane::start();
    let dep = plane.file("deploy.yaml", DEPLOYMENT);
    let out = plane.kubectl_ok(&["apply", "-f", dep.to_str().unwrap()]);
    assert_eq!(out.trim(), "deployment.apps/nginx created");
    let obj = json(&plane.kubectl_ok(&["get", "deployment", "nginx", "-o", "json"]));
    assert_eq!(obj["spec"]["replicas"], 2);
    assert_eq!(obj["metadata"]["generation"], 1);
    assert!(
        obj["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"].as_str().is_some(),
        "client-side apply records its configuration"
    );

    assert_eq!(plane.kubectl_ok(&["get", "deploy", "nginx", "-o", "name"]).trim(), "deployment.apps/nginx");
    let yaml = plane.kubectl_ok(&["get", "deploy", "nginx", "-o", "yaml"]);
    assert!(yaml.contains("kind: Deployment") && yaml.contains("image: nginx:1.25"), "{yaml}");
    // The server prints the table (kubectl asks for `as=Table`), with kube's deployment columns.
    let wide = plane.kubectl_ok(&["get", "deploy", "-o", "wide"]);
    let lines: Vec<Vec<&str>> = wide.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines[0], ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"]);
    assert_eq!(lines[1][..4], ["nginx", "0/2", "0", "0"], "{wide}");
    assert_eq!(lines[1][5..], ["nginx", "nginx:1.25", "app=nginx"], "{wide}");

    // Selectors and all-namespaces.
    plane.create("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: other\n");
    plane.create("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: other\ndata:\n  k: v\n");
    plane.create("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: default\ndata:\n  k: v\n");
    plane.kubectl_ok(&["label", "configmap", "b", "pick=me"]);
    let names = plane.kubectl_ok(&["get", "configmaps", "-A", "-o", "name"]);
    assert!(names.contains("configmap/a") && names.contains("configmap/b"), "{names}");
    let picked = plane.kubectl_ok(&["get", "configmaps", "-l", "pick=me", "-o", "name"]);
    assert_eq!(picked.trim(), "configmap/b");
    let picked = plane.kubectl_ok(&["get", "configmaps", "-l", "pick in (me,you),!absent", "-o", "name"]);
    assert_eq!(picked.trim(), "configmap/b");
    let by_field = plane.kubectl_ok(&["get", "configmaps", "-A", "--field-selector", "metadata.name=a", "-o", "name"]);
    assert_eq!(by_field.trim(), "configmap/a");
    let labels = plane.kubectl_ok(&["get", "configmap", "b", "--show-labels"]);
    let lines: Vec<Vec<&str>> = labels.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines[0], ["NAME", "DATA", "AGE", "LABELS"], "{labels}");
    assert_eq!((lines[1][0], lines[1][1], lines[1][3]), ("b", "1", "pick=me"), "{labels}");

    let bad_selector = plane.kubectl_run(&["get", "configmaps", "-l", "a in (b"]);
    assert_ne!(bad_selector.code, 0);
    let bad_field = plane.kubectl_run(&["get", "configmaps", "--field-selector", "spec.nothing=x"]);
    assert_ne!(bad_field.code, 0);
    assert!(bad_field.stderr.contains("field label not supported: spec.nothing"), "{}", bad_field.stderr);

    let described = plane.kubectl_ok(&["describe", "configmap", "b"]);
    assert!(described.contains("Name:") && described.contains("b") && described.contains("pick=me"), "{described}");
}

#[test]
fn discovery_api_resources_and_versions() {
    let plane = Plane::start();
    let versions = plane.kubectl_ok(&["api-versions"]);
    for gv in [
        "v1",
        "apps/v1",
        "batch/v1",
        "rbac.authorization.k8s.io/v1",
        "apiextensions.k8s.io/v1",
        "coordination.k8s.io/v1",
        "certificates.k8s.io/v1",
    ] {
        assert!(versions.lines().any(|l| l == gv), "api-versions lacks {gv}: {versions}");
    }
    let resources = plane.kubectl_ok(&["api-resources"]);
    let deploy = resources.lines().find(|l| l.starts_with("deployments ")).unwrap_or_else(|| panic!("{resources}"));
    let cols: Vec<&str> = deploy.split_whitespace().collect();
    assert_eq!(cols, ["deployments", "deploy", "apps/v1", "true", "Deployment"]);
    assert!(resources.lines().any(|l| l.starts_with("configmaps ") && l.contains(" cm ")), "{resources}");
    let version = json(&plane.kubectl_ok(&["version", "-o", "json"]));
    assert_eq!(version["serverVersion"]["gitVersion"], "v1.33.0");
}

#[test]
fn health_checks_and_metrics() {
    let plane = Plane::start();
    assert_eq!(plane.kubectl_ok(&["get", "--raw", "/readyz"]).trim(), "ok");
    let verbose = plane.kubectl_ok(&["get", "--raw", "/readyz?verbose"]);
    assert!(verbose.contains("[+]etcd ok"), "{verbose}");
    assert!(verbose.contains("[+]poststarthook/rbac/bootstrap-roles ok"), "{verbose}");
    assert!(verbose.trim_end().ends_with("readyz check passed"), "{verbose}");
    assert_eq!(plane.kubectl_ok(&["get", "--raw", "/livez"]).trim(), "ok");
    // The plane's own controllers also create configmaps (kube-public/cluster-info), so count
    // the difference one create makes.
    let creates = |metrics: &str| -> u64 {
        let key = "apiserver_request_total{code=\"201\",resource=\"configmaps\",subresource=\"\",verb=\"create\"} ";
        metrics.lines().find_map(|l| l.strip_prefix(key)).map_or(0, |v| v.trim().parse().unwrap())
    };
    let before = creates(&plane.kubectl_ok(&["get", "--raw", "/metrics"]));
    plane.create("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: counted\n  namespace: default\n");
    plane.kubectl_ok(&["get", "configmap", "counted"]);
    let metrics = plane.kubectl_ok(&["get", "--raw", "/metrics"]);
    assert_eq!(creates(&metrics), before + 1, "{metrics}");
    assert!(
        metrics.contains("apiserver_request_total{code=\"200\",resource=\"configmaps\",subresource=\"\",verb=\"get\"}"),
        "{metrics}"
    );
    assert!(
        metrics.contains("apiserver_request_duration_seconds_bucket{resource=\"configmaps\",verb=\"get\",le=\"+Inf\"}"),
        "{metrics}"
    );
    assert!(metrics.contains("karmada_store_commit_duration_seconds_count{store=\"default\"}"), "{metrics}");
    assert!(metrics.contains("apiserver_registered_watchers "), "{metrics}");
}

#[test]
fn watch_sees_a_later_change() {
    let plane = Plane::start();
    plane.create("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n  namespace: default\ndata:\n  k: v\n");
    let mut watch = plane.kubectl();
    watch.args([
        "get",
        "configmap",
        "watched",
        "-w",
        "-o",
        "custom-columns=NAME:.metadata.name,V:.data.k",
        "--no-headers",
    ]);
    watch.stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = watch.spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert_eq!(first.split_whitespace().collect::<Vec<_>>(), ["watched", "v"]);
    plane.kubectl_ok(&["patch", "configmap", "watched", "--type", "merge", "-p", r#"{"data":{"k":"changed"}}"#]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = false;
    while Instant::now() < deadline {
        match lines.next() {
            Some(Ok(l)) if l.split_whitespace().collect::<Vec<_>>() == ["watched", "changed"] => {
                seen = true;
                break;
            }
            Some(Ok(_)) => continue,
            _ => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(seen, "kubectl get -w did not show the change");
}

const REVIEW: &str = "apiVersion: authorization.k8s.io/v1
kind: SelfSubjectAccessReview
spec:
  resourceAttributes:
    namespace: default
    verb: get
    resource: secrets
";

#[test]
fn auth_can_i_for_the_admin_and_for_others() {
    let plane = Plane::start();
    // The review endpoint itself, with kubectl 1.32 (a JSON body from a manifest).
    let review = plane.file("review.yaml", REVIEW);
    let allowed = plane.kubectl_ok(&["create", "-f", review.to_str().unwrap(), "-o", "jsonpath={.status.allowed}"]);
    assert_eq!(allowed.trim(), "true");
    let as_alice = plane.kubectl_ok(&[
        "create",
        "-f",
        review.to_str().unwrap(),
        "--as",
        "alice",
        "-o",
        "jsonpath={.status.allowed}",
    ]);
    assert_eq!(as_alice.trim(), "false", "alice has no bindings");

    // `kubectl auth can-i` end to end: 1.32 sends the review as protobuf, 1.30 as JSON.
    for version in ["1.32", "1.30"] {
        let mut yes = plane.kubectl_version(version);
        yes.args(["auth", "can-i", "create", "deployments"]);
        let yes = common::run(yes);
        assert_eq!(yes.stdout.trim(), "yes", "kubectl {version}: {}", yes.stderr);
        let mut no = plane.kubectl_version(version);
        no.args(["auth", "can-i", "get", "secrets", "--as", "alice"]);
        let no = common::run(no);
        assert_eq!(no.stdout.trim(), "no", "kubectl {version}: {} {}", no.stdout, no.stderr);
        assert_eq!(no.code, 1, "kubectl exits 1 when the answer is no");
    }
}

#[test]
fn scale_through_the_scale_subresource() {
    let plane = Plane::start();
    let dep = plane.file("deploy.yaml", DEPLOYMENT);
    plane.kubectl_ok(&["apply", "-f", dep.to_str().unwrap()]);
    assert_eq!(
        plane.kubectl_ok(&["scale", "deployment", "nginx", "--replicas=5"]).trim(),
        "deployment.apps/nginx scaled"
    );
    let obj = json(&plane.kubectl_ok(&["get", "deployment", "nginx", "-o", "json"]));
    assert_eq!(obj["spec"]["replicas"], 5);
    assert_eq!(obj["metadata"]["generation"], 2, "a replica change is a spec change");
    assert_eq!(obj["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.25", "nothing else changed");
    let scale = json(&plane.kubectl_ok(&["get", "--raw", "/apis/apps/v1/namespaces/default/deployments/nginx/scale"]));
    assert_eq!(scale["kind"], "Scale");
    assert_eq!(scale["apiVersion"], "autoscaling/v1");
    assert_eq!(scale["spec"]["replicas"], 5);
    assert_eq!(scale["status"]["selector"], "app=nginx");
    assert_eq!(scale["metadata"]["resourceVersion"], obj["metadata"]["resourceVersion"]);
    // A stale precondition is refused (kubectl checks it against the Scale it read), and
    // changes nothing.
    let stale = plane.kubectl_run(&["scale", "deployment", "nginx", "--replicas=1", "--resource-version=1"]);
    assert_ne!(stale.code, 0);
    assert!(stale.stderr.contains("resource version"), "{}", stale.stderr);
    let again = json(&plane.kubectl_ok(&["get", "deployment", "nginx", "-o", "json"]));
    assert_eq!(again["spec"]["replicas"], 5);
}
