//! Server-side apply and managedFields judged by the real kubectl (1.27 and 1.33) and kube-rs:
//! apply creates, changes and prunes; two managers conflict on a field until one forces; custom
//! resources apply too; ordinary writes are recorded as `Update` entries.

use crate::common;
use crate::common::plane::Plane;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::Client;
use kube::api::{Api, Patch, PatchParams};
use serde_json::{Value, json};

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn deployment(replicas: u32, labels: &str, env: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
{labels}
spec:
  replicas: {replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports:
        - containerPort: 80
        env:
{env}
"
    )
}

const CONFIGMAP_V1: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  mode: blue
  size: small
";

const CONFIGMAP_V2: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  mode: green
";

/// The managedFields entry of `manager` with `operation`.
fn entry<'a>(obj: &'a Value, manager: &str, operation: &str) -> Option<&'a Value> {
    obj["metadata"]["managedFields"].as_array()?.iter().find(|e| e["manager"] == manager && e["operation"] == operation)
}

fn get(plane: &Plane, version: &str, args: &[&str]) -> Value {
    let mut cmd = plane.kubectl_version(version);
    cmd.args(["get", "-o", "json", "--show-managed-fields"]).args(args);
    let out = common::run(cmd);
    assert_eq!(out.code, 0, "get failed: {}", out.stderr);
    json(&out.stdout)
}

fn apply(plane: &Plane, version: &str, manifest: &str, extra: &[&str]) -> common::Run {
    let path = plane.file(&format!("apply-{}.yaml", manifest.len()), manifest);
    let mut cmd = plane.kubectl_version(version);
    cmd.args(["apply", "--server-side", "-f", path.to_str().unwrap()]).args(extra);
    common::run(cmd)
}

fn create_change_and_prune(version: &str) {
    let plane = Plane::start();
    let first = deployment(
        2,
        "    app: web\n    tier: frontend",
        "        - name: A\n          value: one\n        - name: B\n          value: two",
    );
    let out = apply(&plane, version, &first, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.trim(), "deployment.apps/web serverside-applied");
    let out = apply(&plane, version, CONFIGMAP_V1, &[]);
    assert_eq!(out.stdout.trim(), "configmap/settings serverside-applied", "{}", out.stderr);

    let dep = get(&plane, version, &["deployment", "web", "-n", "default"]);
    assert_eq!(dep["spec"]["replicas"], 2);
    let owned = &entry(&dep, "kubectl", "Apply").expect("kubectl owns what it applied")["fieldsV1"];
    assert_eq!(owned["f:spec"]["f:replicas"], json!({}));
    let container = &owned["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"nginx\"}"];
    assert_eq!(container["."], json!({}));
    assert_eq!(container["f:env"]["k:{\"name\":\"B\"}"]["f:value"], json!({}));
    assert_eq!(dep["metadata"]["managedFields"][0]["fieldsType"], "FieldsV1");
    assert_eq!(dep["metadata"]["managedFields"][0]["apiVersion"], "apps/v1");

    // Re-apply with replicas changed, a label and an env var dropped, an env var changed.
    let second = deployment(3, "    app: web", "        - name: A\n          value: uno");
    let out = apply(&plane, version, &second, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let dep = get(&plane, version, &["deployment", "web", "-n", "default"]);
    assert_eq!(dep["spec"]["replicas"], 3);
    assert_eq!(dep["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(dep["spec"]["template"]["spec"]["containers"][0]["env"], json!([{"name": "A", "value": "uno"}]));
    let owned = &entry(&dep, "kubectl", "Apply").unwrap()["fieldsV1"];
    assert!(owned["f:metadata"]["f:labels"].get("f:tier").is_none());

    let out = apply(&plane, version, CONFIGMAP_V2, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let cm = get(&plane, version, &["configmap", "settings", "-n", "default"]);
    assert_eq!(cm["data"], json!({"mode": "green"}));

    // dryRun changes nothing.
    let out = apply(&plane, version, CONFIGMAP_V1, &["--dry-run=server"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let cm = get(&plane, version, &["configmap", "settings", "-n", "default"]);
    assert_eq!(cm["data"], json!({"mode": "green"}));
}

#[test]
fn apply_creates_changes_and_prunes_kubectl_1_33() {
    create_change_and_prune("1.33");
}

#[test]
fn apply_creates_changes_and_prunes_kubectl_1_27() {
    create_change_and_prune("1.27");
}

#[test]
fn managers_conflict_until_one_forces() {
    let plane = Plane::start();
    let env = "        - name: A\n          value: one";
    let out = apply(&plane, "1.33", &deployment(2, "    app: web", env), &["--field-manager=a"]);
    assert_eq!(out.code, 0, "{}", out.stderr);

    // Same value: shared, no conflict.
    let out = apply(&plane, "1.33", &deployment(2, "    app: web", env), &["--field-manager=b"]);
    assert_eq!(out.code, 0, "{}", out.stderr);

    let out = apply(&plane, "1.33", &deployment(5, "    app: web", env), &["--field-manager=b"]);
    assert_eq!(out.code, 1, "stdout: {}", out.stdout);
    assert!(out.stderr.contains("Apply failed with 1 conflict"), "{}", out.stderr);
    assert!(out.stderr.contains("conflict with \"a\": .spec.replicas"), "{}", out.stderr);
    let dep = get(&plane, "1.33", &["deployment", "web", "-n", "default"]);
    assert_eq!(dep["spec"]["replicas"], 2);

    let out = apply(&plane, "1.33", &deployment(5, "    app: web", env), &["--field-manager=b", "--force-conflicts"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let dep = get(&plane, "1.33", &["deployment", "web", "-n", "default"]);
    assert_eq!(dep["spec"]["replicas"], 5);
    assert_eq!(entry(&dep, "b", "Apply").unwrap()["fieldsV1"]["f:spec"]["f:replicas"], json!({}));
    assert!(entry(&dep, "a", "Apply").unwrap()["fieldsV1"]["f:spec"].get("f:replicas").is_none());
    let yaml = plane.kubectl_ok(&["get", "deployment", "web", "-n", "default", "-o", "yaml", "--show-managed-fields"]);
    assert!(yaml.contains("manager: b") && yaml.contains("operation: Apply"), "{yaml}");
}

#[test]
fn client_side_apply_upgrades_to_server_side() {
    let plane = Plane::start();
    let cm = "apiVersion: v1
kind: ConfigMap
metadata:
  name: upgrade
  namespace: default
  labels: {a: \"1\", b: \"2\"}
data:
  x: \"1\"
  z: \"2\"
";
    let path = plane.file("csa.yaml", cm);
    let mut cmd = plane.kubectl_version("1.27");
    cmd.args(["apply", "-f", path.to_str().unwrap()]);
    let out = common::run(cmd);
    assert_eq!(out.code, 0, "{}", out.stderr);

    // kubectl takes over what it applied client-side without a conflict, migrates the
    // client-side entry, and the fields it no longer applies go.
    let edited = cm.replace("x: \"1\"", "x: \"9\"").replace("  z: \"2\"\n", "").replace(", b: \"2\"", "");
    let out = apply(&plane, "1.27", &edited, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let obj = get(&plane, "1.27", &["configmap", "upgrade", "-n", "default"]);
    assert_eq!(obj["data"], json!({"x": "9"}));
    assert_eq!(obj["metadata"]["labels"], json!({"a": "1"}));
    assert!(entry(&obj, "kubectl-client-side-apply", "Update").is_none(), "{obj}");
    assert_eq!(entry(&obj, "kubectl", "Apply").unwrap()["fieldsV1"]["f:data"]["f:x"], json!({}));
}

#[test]
fn custom_resource_applies() {
    let plane = Plane::start();
    let policy = std::fs::read_to_string("../shared/fixtures/karmada/samples/nginx/propagationpolicy.yaml").unwrap();
    let manifest = policy.replace("  name: nginx-propagation\n", "  name: nginx-propagation\n  namespace: default\n");
    let out = apply(&plane, "1.33", &manifest, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.trim(), "propagationpolicy.policy.karmada.io/nginx-propagation serverside-applied");

    let changed = manifest.replace("        - member2\n    replicaScheduling", "    replicaScheduling");
    let out = apply(&plane, "1.33", &changed, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let pp = get(&plane, "1.33", &["propagationpolicy", "nginx-propagation", "-n", "default"]);
    assert_eq!(pp["spec"]["placement"]["clusterAffinity"]["clusterNames"], json!(["member1"]));
    let owned = &entry(&pp, "kubectl", "Apply").unwrap()["fieldsV1"];
    assert_eq!(owned["f:spec"]["f:placement"]["f:clusterAffinity"]["f:clusterNames"], json!({}));
}

#[test]
fn kubectl_create_records_an_update_entry() {
    let plane = Plane::start();
    plane.create(CONFIGMAP_V1);
    let cm = get(&plane, "1.33", &["configmap", "settings", "-n", "default"]);
    let e = entry(&cm, "kubectl-create", "Update").expect("kubectl create is recorded");
    assert_eq!(e["fieldsV1"], json!({"f:data": {".": {}, "f:mode": {}, "f:size": {}}}));
    assert_eq!(e["apiVersion"], "v1");

    // A later edit by another manager takes the field it changed.
    plane.kubectl_ok(&["patch", "configmap", "settings", "-n", "default", "-p", r#"{"data":{"mode":"red"}}"#]);
    let cm = get(&plane, "1.33", &["configmap", "settings", "-n", "default"]);
    let patcher = entry(&cm, "kubectl-patch", "Update").expect("kubectl patch is recorded");
    assert_eq!(patcher["fieldsV1"], json!({"f:data": {"f:mode": {}}}));
    let creator = entry(&cm, "kubectl-create", "Update").unwrap();
    assert_eq!(creator["fieldsV1"], json!({"f:data": {".": {}, "f:size": {}}}));
}

async fn client(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    Client::try_from(cfg).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_rs_patch_apply() {
    let plane = Plane::start();
    let client = client(&plane).await;
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ctl"}, "data": {"k": "1"}});
    let created = api.patch("ctl", &PatchParams::apply("my-controller"), &Patch::Apply(&config)).await.unwrap();
    assert_eq!(created.data.unwrap()["k"], "1");
    let mf = created.metadata.managed_fields.unwrap();
    assert_eq!(mf.len(), 1);
    assert_eq!(mf[0].manager.as_deref(), Some("my-controller"));
    assert_eq!(mf[0].operation.as_deref(), Some("Apply"));

    let other = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ctl"}, "data": {"k": "2"}});
    let err = api.patch("ctl", &PatchParams::apply("other"), &Patch::Apply(&other)).await.unwrap_err();
    match err {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 409);
            assert_eq!(s.reason, "Conflict");
            assert!(s.message.contains(".data.k"), "{}", s.message);
        }
        other => panic!("expected a conflict, got {other}"),
    }
    let forced = api.patch("ctl", &PatchParams::apply("other").force(), &Patch::Apply(&other)).await.unwrap();
    assert_eq!(forced.data.unwrap()["k"], "2");

    // Apply needs a field manager (kube-rs checks client-side, so send the request directly).
    let req = http::Request::patch("/api/v1/namespaces/default/configmaps/ctl")
        .header("content-type", "application/apply-patch+yaml")
        .body(serde_json::to_vec(&other).unwrap())
        .unwrap();
    match client.request::<Value>(req).await.unwrap_err() {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 422);
            assert_eq!(
                s.message,
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
            );
        }
        other => panic!("expected Invalid, got {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_apply_and_yaml_bodies() {
    let plane = Plane::start();
    let client = client(&plane).await;

    // A YAML apply configuration creates the object (201).
    let yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n";
    let req = http::Request::patch("/api/v1/namespaces/default/configmaps/from-yaml?fieldManager=yaml-tool")
        .header("content-type", "application/apply-patch+yaml")
        .body(yaml.as_bytes().to_vec())
        .unwrap();
    let created: Value = client.request(req).await.unwrap();
    assert_eq!(created["data"], json!({"k": "v"}));
    assert_eq!(created["metadata"]["managedFields"][0]["manager"], "yaml-tool");
    assert_eq!(created["metadata"]["managedFields"][0]["fieldsV1"], json!({"f:data": {"f:k": {}}}));

    // force is only for apply.
    let req = http::Request::patch("/api/v1/namespaces/default/configmaps/from-yaml?force=true")
        .header("content-type", "application/merge-patch+json")
        .body(br#"{"data":{"k":"w"}}"#.to_vec())
        .unwrap();
    match client.request::<Value>(req).await.unwrap_err() {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 422);
            assert!(s.message.contains("force: Forbidden: may not be specified for non-apply patch"), "{}", s.message);
        }
        other => panic!("expected Invalid, got {other}"),
    }

    // The status subresource is applied on its own, recorded with its subresource.
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), "default");
    let dep = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx"}]}}}});
    deployments.patch("web", &PatchParams::apply("deployer"), &Patch::Apply(&dep)).await.unwrap();
    let status = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "status": {"observedGeneration": 1, "replicas": 1}});
    let out =
        deployments.patch_status("web", &PatchParams::apply("status-writer"), &Patch::Apply(&status)).await.unwrap();
    assert_eq!(out.status.unwrap().replicas, Some(1));
    let mf = out.metadata.managed_fields.unwrap();
    let writer = mf.iter().find(|e| e.manager.as_deref() == Some("status-writer")).unwrap();
    assert_eq!(writer.subresource.as_deref(), Some("status"));
    assert_eq!(
        writer.fields_v1.as_ref().unwrap().0,
        json!({"f:status": {"f:observedGeneration": {}, "f:replicas": {}}})
    );
    assert_eq!(out.spec.unwrap().replicas, Some(1));
}

/// The plane's own controllers write under a manager name of their own (from their user agent),
/// so an apply that takes over what they wrote names them in the conflict.
#[test]
fn plane_controllers_are_named_managers() {
    let plane = Plane::start();
    let info = get(&plane, "1.33", &["configmap", "cluster-info", "-n", "kube-public"]);
    let owner = entry(&info, "karmadactl-controlplane", "Update").expect("the plane's controller owns cluster-info");
    assert_eq!(owner["fieldsV1"]["f:data"]["f:kubeconfig"], json!({}), "{info}");
    assert!(info["metadata"]["managedFields"].as_array().unwrap().iter().all(|e| e["manager"] != ""), "{info}");

    let mine = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-info\n  namespace: kube-public\ndata:\n  kubeconfig: mine\n";
    let out = apply(&plane, "1.33", mine, &[]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("conflict with \"karmadactl-controlplane\" using v1 at ")
            && out.stderr.contains(": .data.kubeconfig"),
        "{}",
        out.stderr
    );
}
