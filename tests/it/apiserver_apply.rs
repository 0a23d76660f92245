//! Strategic merge patch judged by the real kubectl: client-side `kubectl apply` of edited
//! manifests (which kubectl turns into three-way strategic merge patches for built-in kinds, and
//! into merge patches for custom resources) with every kubectl from 1.27 to 1.33, and
//! `kubectl patch --type strategic` with its directives.

use std::path::PathBuf;
use std::process::Command;

use crate::common;
use crate::common::plane::Plane;
use serde_json::{Value, json};

/// The first manifest: two containers with env, ports and mounts; two volumes.
const V1: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
    tier: front
  annotations:
    team: blue
    note: first
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: nginx:1.25
        env:
        - name: MODE
          value: prod
        - name: DEBUG
          value: '0'
        ports:
        - containerPort: 80
        volumeMounts:
        - name: data
          mountPath: /data
        - name: cache
          mountPath: /cache
      - name: sidecar
        image: busybox:1.36
        command: [sleep, infinity]
      volumes:
      - name: data
        emptyDir: {}
      - name: cache
        emptyDir: {}
";

/// Adds container `metrics`, changes env MODE, removes env DEBUG and volume `cache` (and its
/// mount), changes label `tier`, removes annotation `note`.
const V2: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
    tier: back
  annotations:
    team: blue
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: nginx:1.25
        env:
        - name: MODE
          value: staging
        ports:
        - containerPort: 80
        volumeMounts:
        - name: data
          mountPath: /data
      - name: sidecar
        image: busybox:1.36
        command: [sleep, infinity]
      - name: metrics
        image: prom/node-exporter:v1.8.0
        ports:
        - containerPort: 9100
      volumes:
      - name: data
        emptyDir: {}
";

/// Removes container `sidecar`, label `tier` and annotation `team`; changes the app image, adds
/// an env var to `metrics`, scales to 3.
const V3: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: nginx:1.27
        env:
        - name: MODE
          value: staging
        ports:
        - containerPort: 80
        volumeMounts:
        - name: data
          mountPath: /data
      - name: metrics
        image: prom/node-exporter:v1.8.0
        env:
        - name: SCRAPE
          value: '15s'
        ports:
        - containerPort: 9100
      volumes:
      - name: data
        emptyDir: {}
";

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// kubectl of one version against the plane, with a cache of its own (versions must not share
/// discovery and OpenAPI caches).
struct Kubectl<'a> {
    plane: &'a Plane,
    version: &'a str,
    cache: PathBuf,
}

impl<'a> Kubectl<'a> {
    fn new(plane: &'a Plane, version: &'a str) -> Self {
        let cache = plane
            .file("README", "kubectl caches live beside this file")
            .with_file_name(format!("kube-cache-{version}"));
        Kubectl { plane, version, cache }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = self.plane.kubectl_version(self.version);
        // The later --cache-dir wins over the plane's shared one.
        cmd.arg("--cache-dir").arg(&self.cache).args(args);
        cmd
    }

    fn run(&self, args: &[&str]) -> common::Run {
        common::run(self.command(args))
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.code, 0,
            "kubectl {} {args:?} failed:\nstdout: {}\nstderr: {}",
            self.version, out.stdout, out.stderr
        );
        out.stdout
    }

    fn apply(&self, name: &str, manifest: &str) -> String {
        let path = self.plane.file(&format!("{name}-{}.yaml", self.version), manifest);
        // -v=7 logs each request with its headers, so the patch type shows.
        let out = self.run(&["apply", "-f", path.to_str().unwrap(), "-v=8"]);
        assert_eq!(out.code, 0, "kubectl {} apply {name}:\n{}\n{}", self.version, out.stdout, out.stderr);
        out.stderr
    }

    fn get(&self, what: &[&str]) -> Value {
        let mut args = vec!["get"];
        args.extend_from_slice(what);
        args.extend_from_slice(&["-o", "json"]);
        let text = self.ok(&args);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    }
}

/// The annotations other than kubectl's record of the applied configuration.
fn annotations_besides_last_applied(obj: &Value) -> Value {
    let mut a = obj["metadata"]["annotations"].clone();
    if let Some(m) = a.as_object_mut() {
        m.remove(LAST_APPLIED);
    }
    a
}

/// The last applied configuration kubectl stored, as JSON, without the empty `annotations` map
/// kubectl leaves behind when the manifest has none.
fn last_applied(obj: &Value) -> Value {
    let text = obj["metadata"]["annotations"][LAST_APPLIED].as_str().expect("apply records its configuration");
    let mut applied: Value = serde_json::from_str(text).unwrap();
    if applied["metadata"]["annotations"] == json!({}) {
        applied["metadata"].as_object_mut().unwrap().remove("annotations");
    }
    applied
}

fn manifest_json(manifest: &str) -> Value {
    serde_saphyr::from_str(manifest).unwrap()
}

/// The containers as the manifest lists them, with env vars others added to `app` first (a
/// strategic merge patch without `$setElementOrder` puts new items before the existing ones, and
/// apply keeps them there).
fn containers_of(manifest: &str, app_extra_env: &[Value]) -> Value {
    let mut containers = manifest_json(manifest)["spec"]["template"]["spec"]["containers"].clone();
    for c in containers.as_array_mut().unwrap() {
        if c["name"] == "app" {
            let env = c["env"].as_array_mut().unwrap();
            env.splice(0..0, app_extra_env.iter().cloned());
        }
    }
    containers
}

/// Containers without the fields the server defaults (as kube-apiserver does), so they compare
/// with the manifests; `defaults_are_filled` checks those fields on their own.
fn undefaulted(containers: &Value) -> Value {
    let mut out = containers.clone();
    for c in out.as_array_mut().into_iter().flatten().filter_map(Value::as_object_mut) {
        for key in ["imagePullPolicy", "terminationMessagePath", "terminationMessagePolicy"] {
            c.remove(key);
        }
        for p in c.get_mut("ports").and_then(Value::as_array_mut).into_iter().flatten() {
            if p["protocol"] == "TCP" {
                p.as_object_mut().unwrap().remove("protocol");
            }
        }
    }
    out
}

/// The three-apply scenario for one kubectl version. Between applies, fields the manifests never
/// mention are changed by `kubectl label`, `annotate` and `patch`; apply must keep them.
fn apply_scenario(version: &str) {
    let plane = Plane::start();
    let k = Kubectl::new(&plane, version);

    let log = k.apply("v1", V1);
    assert!(log.contains("POST"), "the first apply creates: {log}");
    let obj = k.get(&["deployment", "web"]);
    assert_eq!(undefaulted(&obj["spec"]["template"]["spec"]["containers"]), containers_of(V1, &[]));
    let app = &obj["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(
        (app["imagePullPolicy"].as_str(), app["ports"][0]["protocol"].as_str()),
        (Some("IfNotPresent"), Some("TCP"))
    );
    assert_eq!(obj["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%", "the server defaults the strategy");
    assert_eq!(last_applied(&obj)["metadata"]["labels"], json!({"app": "web", "tier": "front"}));

    // Changes by others: a label, an annotation and an env var the manifests never mention.
    k.ok(&["label", "deployment", "web", "owner=ops"]);
    k.ok(&["annotate", "deployment", "web", "extra=keep"]);
    let injected = json!({"name": "INJECTED", "value": "yes"});
    let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "env": [injected]}]}}}});
    k.ok(&["patch", "deployment", "web", "--type", "strategic", "-p", &patch.to_string()]);
    let obj = k.get(&["deployment", "web"]);
    assert_eq!(
        undefaulted(&obj["spec"]["template"]["spec"]["containers"]),
        containers_of(V1, std::slice::from_ref(&injected))
    );

    let log = k.apply("v2", V2);
    assert!(
        log.contains("PATCH") && log.contains("/apis/apps/v1/namespaces/default/deployments/web"),
        "apply of a change patches: {log}"
    );
    assert!(
        log.contains("application/strategic-merge-patch+json"),
        "built-in kinds get a strategic merge patch: {log}"
    );
    let obj = k.get(&["deployment", "web"]);
    assert_eq!(obj["metadata"]["labels"], json!({"app": "web", "tier": "back", "owner": "ops"}));
    assert_eq!(annotations_besides_last_applied(&obj), json!({"team": "blue", "extra": "keep"}));
    let spec = &obj["spec"]["template"]["spec"];
    assert_eq!(
        undefaulted(&spec["containers"]),
        containers_of(V2, std::slice::from_ref(&injected)),
        "containers after v2"
    );
    assert_eq!(spec["volumes"], json!([{"name": "data", "emptyDir": {}}]));
    assert_eq!(last_applied(&obj), manifest_json(V2));

    k.ok(&["patch", "deployment", "web", "--type", "merge", "-p", r#"{"metadata":{"annotations":{"extra2":"x"}}}"#]);
    k.apply("v3", V3);
    let obj = k.get(&["deployment", "web"]);
    assert_eq!(obj["metadata"]["labels"], json!({"app": "web", "owner": "ops"}));
    assert_eq!(annotations_besides_last_applied(&obj), json!({"extra": "keep", "extra2": "x"}));
    assert_eq!(obj["spec"]["replicas"], 3);
    let spec = &obj["spec"]["template"]["spec"];
    assert_eq!(undefaulted(&spec["containers"]), containers_of(V3, &[injected]), "containers after v3");
    assert_eq!(spec["volumes"], json!([{"name": "data", "emptyDir": {}}]));
    assert_eq!(last_applied(&obj), manifest_json(V3));

    // Applying the same manifest again changes nothing.
    let before = obj["metadata"]["resourceVersion"].clone();
    let log = k.apply("v3-again", V3);
    let after = k.get(&["deployment", "web"]);
    assert_eq!(after["metadata"]["resourceVersion"], before, "{log}\nbefore: {obj}\nafter: {after}");
}

#[test]
fn apply_with_kubectl_1_27() {
    apply_scenario("1.27");
}

#[test]
fn apply_with_kubectl_1_28() {
    apply_scenario("1.28");
}

#[test]
fn apply_with_kubectl_1_29() {
    apply_scenario("1.29");
}

#[test]
fn apply_with_kubectl_1_30() {
    apply_scenario("1.30");
}

#[test]
fn apply_with_kubectl_1_31() {
    apply_scenario("1.31");
}

#[test]
fn apply_with_kubectl_1_32() {
    apply_scenario("1.32");
}

#[test]
fn apply_with_kubectl_1_33() {
    apply_scenario("1.33");
}

#[test]
fn strategic_patch_directives_through_kubectl() {
    let plane = Plane::start();
    let k = Kubectl::new(&plane, "1.33");
    k.apply("v2", V2);
    let patch = |p: Value| k.ok(&["patch", "deployment", "web", "--type", "strategic", "-p", &p.to_string()]);

    // `$patch: delete` removes one container by its merge key.
    patch(json!({"spec": {"template": {"spec": {"containers": [{"name": "sidecar", "$patch": "delete"}]}}}}));
    let names: Vec<Value> = k.get(&["deployment", "web"])["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert_eq!(names, [json!("app"), json!("metrics")]);

    // A merged item keeps what the patch does not mention; ports merge by containerPort.
    patch(
        json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "ports": [{"containerPort": 443}]}]}}}}),
    );
    let app = &k.get(&["deployment", "web"])["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(app["image"], "nginx:1.25");
    assert_eq!(
        app["ports"],
        json!([{"containerPort": 443, "protocol": "TCP"}, {"containerPort": 80, "protocol": "TCP"}])
    );

    // `$setElementOrder` reorders without other changes.
    patch(
        json!({"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "metrics"}, {"name": "app"}]}}}}),
    );
    let c = &k.get(&["deployment", "web"])["spec"]["template"]["spec"]["containers"];
    assert_eq!((c[0]["name"].as_str(), c[1]["name"].as_str()), (Some("metrics"), Some("app")));

    // `$retainKeys` clears the rolling update parameters when switching to Recreate.
    patch(json!({"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}}));
    patch(json!({"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}));
    assert_eq!(k.get(&["deployment", "web"])["spec"]["strategy"], json!({"type": "Recreate"}));

    // `$patch: replace` on a map, and null deleting a key.
    patch(json!({"metadata": {"labels": {"$patch": "replace", "only": "this"}, "annotations": {"team": null}}}));
    let obj = k.get(&["deployment", "web"]);
    assert_eq!(obj["metadata"]["labels"], json!({"only": "this"}));
    assert!(obj["metadata"]["annotations"].get("team").is_none());

    // `$deleteFromPrimitiveList` on finalizers, which merge as a set.
    patch(json!({"metadata": {"finalizers": ["example.com/a", "example.com/b"]}}));
    patch(json!({"metadata": {"finalizers": ["example.com/b", "example.com/c"]}}));
    assert_eq!(
        k.get(&["deployment", "web"])["metadata"]["finalizers"],
        json!(["example.com/a", "example.com/b", "example.com/c"])
    );
    patch(json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["example.com/a", "example.com/c"]}}));
    assert_eq!(k.get(&["deployment", "web"])["metadata"]["finalizers"], json!(["example.com/b"]));

    // Dry run computes the patch without storing it.
    let rv = k.get(&["deployment", "web"])["metadata"]["resourceVersion"].clone();
    let out = k.ok(&[
        "patch",
        "deployment",
        "web",
        "--type",
        "strategic",
        "--dry-run=server",
        "-o",
        "json",
        "-p",
        r#"{"spec":{"replicas":7}}"#,
    ]);
    let shown: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(shown["spec"]["replicas"], 7);
    let obj = k.get(&["deployment", "web"]);
    assert_eq!((obj["spec"]["replicas"].clone(), obj["metadata"]["resourceVersion"].clone()), (json!(2), rv));

    // A stale resourceVersion in the patch is a conflict.
    let out = k.run(&[
        "patch",
        "deployment",
        "web",
        "--type",
        "strategic",
        "-p",
        r#"{"metadata":{"resourceVersion":"1"},"spec":{"replicas":4}}"#,
    ]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("Conflict") || out.stderr.contains("the object has been modified"), "{}", out.stderr);

    // An unknown directive is refused with a message naming it; the object is unchanged.
    let out = k.run(&["patch", "deployment", "web", "--type", "strategic", "-p", r#"{"spec":{"$patch":"bogus"}}"#]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("unknown patch type: bogus"), "{}", out.stderr);
    assert_eq!(k.get(&["deployment", "web"])["spec"]["replicas"], 2);
}

const WIDGET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    kind: Widget
    plural: widgets
    singular: widget
    listKind: WidgetList
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: integer
              parts:
                type: array
                items:
                  type: object
                  properties:
                    name:
                      type: string
                    count:
                      type: integer
";

fn widget(size: i64, parts: &str) -> String {
    format!(
        "apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: default
spec:
  size: {size}
  parts: {parts}
"
    )
}

#[test]
fn custom_resources_refuse_strategic_merge_patch_but_apply_works() {
    let plane = Plane::start();
    let k = Kubectl::new(&plane, "1.33");
    k.apply("crd", WIDGET_CRD);
    k.ok(&["wait", "--for=condition=established", "crd/widgets.example.com", "--timeout=20s"]);
    k.apply("w1", &widget(1, "[{name: a, count: 1}, {name: b, count: 2}]"));

    let out = k.run(&["patch", "widget", "w", "--type", "strategic", "-p", r#"{"spec":{"size":5}}"#]);
    assert_ne!(out.code, 0);
    // kubectl names the refused type and passes on the server's 415 message.
    assert!(
        out.stderr.contains("application/strategic-merge-patch+json is not supported by example.com/v1, Kind=Widget"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("application/json-patch+json, application/merge-patch+json"),
        "the error lists what is accepted: {}",
        out.stderr
    );
    assert_eq!(k.get(&["widget", "w"])["spec"]["size"], 1);

    // kubectl apply falls back to a merge patch for custom resources: lists are replaced whole.
    let log = k.apply("w2", &widget(2, "[{name: b, count: 3}]"));
    assert!(log.contains("PATCH") && log.contains("application/merge-patch+json"), "{log}");
    let obj = k.get(&["widget", "w"]);
    assert_eq!(obj["spec"], json!({"size": 2, "parts": [{"name": "b", "count": 3}]}));
}
