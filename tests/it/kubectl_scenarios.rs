//! One scripted kubectl session, run by every supported kubectl (1.27–1.33) against its own fresh
//! plane: create, client-side apply, server-side apply with a conflict, every `get` output format,
//! describe, label/annotate, every patch type, edit, scale, explain, each delete cascade mode,
//! namespace deletion and `get -w`. Each step checks the stored object and what kubectl printed.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::plane::Plane;
use serde_json::{Value, json};

/// How long anything asynchronous (collector, namespace finalizer, CRD serving) may take.
const CONVERGE: Duration = Duration::from_secs(30);

struct Session {
    plane: Plane,
    version: &'static str,
}

impl Session {
    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = self.plane.kubectl_version(self.version);
        cmd.args(args);
        cmd
    }

    fn run(&self, args: &[&str]) -> common::Run {
        self.plane.kubectl_version_run(self.version, args)
    }

    /// Runs kubectl; panics unless it exited 0. Returns stdout.
    fn ok(&self, args: &[&str]) -> String {
        self.plane.kubectl_version_ok(self.version, args)
    }

    fn file(&self, name: &str, content: &str) -> String {
        self.plane.file(name, content).to_str().unwrap().to_string()
    }

    /// The object as JSON, or `None` when it does not exist.
    fn get(&self, kind: &str, name: &str, ns: &str) -> Option<Value> {
        let out = self.ok(&["get", kind, name, "-n", ns, "-o", "json", "--ignore-not-found", "--show-managed-fields"]);
        (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
    }

    fn must(&self, kind: &str, name: &str) -> Value {
        self.get(kind, name, "default").unwrap_or_else(|| panic!("{kind}/{name} exists"))
    }

    fn wait_for(&self, what: &str, mut done: impl FnMut() -> bool) {
        let deadline = Instant::now() + CONVERGE;
        while !done() {
            assert!(Instant::now() < deadline, "kubectl {}: gave up waiting for {what}", self.version);
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

fn deployment(replicas: u32, image: &str, labels: &str, env: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels:
    app: web
{labels}spec:
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
        image: {image}
        ports:
        - containerPort: 80
{env}"
    )
}

fn configmap(data: &str) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\ndata:\n{data}")
}

const TANKS: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: tanks.scenario.example.com}
spec:
  group: scenario.example.com
  scope: Namespaced
  names: {plural: tanks, singular: tank, kind: Tank, listKind: TankList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, description: How many tanks to keep filled.}
              volume: {type: string}
          status:
            type: object
            properties:
              replicas: {type: integer}
";

fn env_names(dep: &Value) -> Vec<String> {
    dep["spec"]["template"]["spec"]["containers"][0]["env"]
        .as_array()
        .map(|a| {
            a.iter().map(|e| format!("{}={}", e["name"].as_str().unwrap(), e["value"].as_str().unwrap())).collect()
        })
        .unwrap_or_default()
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn scenario(version: &'static str) {
    let s = Session { plane: Plane::start(), version };
    create_and_client_side_apply(&s);
    server_side_apply(&s);
    get_every_output(&s);
    describe_label_annotate(&s);
    patch_every_type(&s);
    edit(&s);
    scale(&s);
    explain(&s);
    delete_cascades(&s);
    delete_namespace(&s);
    watch(&s);
}

fn create_and_client_side_apply(s: &Session) {
    let path = s.file("web-0.yaml", &deployment(1, "nginx:1.25", "", ""));
    assert_eq!(s.ok(&["create", "-f", &path]).trim(), "deployment.apps/web created");
    let dep = s.must("deployment", "web");
    assert_eq!(dep["spec"]["replicas"], 1);
    assert!(dep["metadata"]["annotations"].get("kubectl.kubernetes.io/last-applied-configuration").is_none());

    // 1: a label and an env var added. The object was created without apply, so kubectl warns
    // that it adds the last-applied annotation now.
    let v1 = deployment(1, "nginx:1.25", "    tier: frontend\n", "        env:\n        - {name: A, value: one}\n");
    let out = s.run(&["apply", "-f", &s.file("web-1.yaml", &v1)]);
    assert_eq!((out.code, out.stdout.trim()), (0, "deployment.apps/web configured"), "{}", out.stderr);
    assert!(out.stderr.contains("missing the kubectl.kubernetes.io/last-applied-configuration"), "{}", out.stderr);
    let dep = s.must("deployment", "web");
    assert_eq!(dep["metadata"]["labels"], json!({"app": "web", "tier": "frontend"}));
    assert_eq!(env_names(&dep), ["A=one"]);
    let last = dep["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"].as_str().unwrap();
    let last: Value = serde_json::from_str(last).unwrap();
    assert_eq!(last["metadata"]["labels"]["tier"], "frontend");

    // 2: image, replicas and the env var value changed, one env var added.
    let v2 = deployment(
        2,
        "nginx:1.26",
        "    tier: frontend\n",
        "        env:\n        - {name: A, value: two}\n        - {name: B, value: bee}\n",
    );
    let out = s.run(&["apply", "-f", &s.file("web-2.yaml", &v2)]);
    assert_eq!((out.code, out.stdout.trim(), out.stderr.as_str()), (0, "deployment.apps/web configured", ""));
    let dep = s.must("deployment", "web");
    assert_eq!(dep["spec"]["replicas"], 2);
    assert_eq!(dep["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.26");
    assert_eq!(env_names(&dep), ["A=two", "B=bee"]);

    // 3: the label and the env list removed; apply deletes what it applied before.
    let v3 = deployment(2, "nginx:1.26", "", "");
    let out = s.run(&["apply", "-f", &s.file("web-3.yaml", &v3)]);
    assert_eq!((out.code, out.stdout.trim()), (0, "deployment.apps/web configured"), "{}", out.stderr);
    let dep = s.must("deployment", "web");
    assert_eq!(dep["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(env_names(&dep), Vec::<String>::new());
    assert!(dep["spec"]["template"]["spec"]["containers"][0].get("env").is_none());
    // Unchanged input: nothing to do.
    let out = s.ok(&["apply", "-f", &s.file("web-3.yaml", &v3)]);
    assert_eq!(out.trim(), "deployment.apps/web unchanged");
}

fn managers(obj: &Value) -> Vec<(String, String)> {
    obj["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["manager"].as_str().unwrap().to_string(), e["operation"].as_str().unwrap().to_string()))
        .collect()
}

fn owned<'a>(obj: &'a Value, manager: &str) -> &'a Value {
    let entry = obj["metadata"]["managedFields"].as_array().unwrap().iter().find(|e| e["manager"] == manager);
    &entry.unwrap_or_else(|| panic!("{manager} has a managedFields entry: {obj}"))["fieldsV1"]
}

fn server_side_apply(s: &Session) {
    let alpha = s.file("settings-alpha.yaml", &configmap("  mode: blue\n  size: small\n"));
    let out = s.ok(&["apply", "--server-side", "--field-manager=alpha", "-f", &alpha]);
    assert_eq!(out.trim(), "configmap/settings serverside-applied");
    let cm = s.must("configmap", "settings");
    assert_eq!(cm["data"], json!({"mode": "blue", "size": "small"}));
    assert_eq!(managers(&cm), [("alpha".to_string(), "Apply".to_string())]);
    assert_eq!(owned(&cm, "alpha")["f:data"], json!({"f:mode": {}, "f:size": {}}));

    // beta wants another mode: a conflict, nothing changes.
    let beta = s.file("settings-beta.yaml", &configmap("  mode: green\n"));
    let out = s.run(&["apply", "--server-side", "--field-manager=beta", "-f", &beta]);
    assert_eq!(out.code, 1, "a conflict fails: {} {}", out.stdout, out.stderr);
    assert!(out.stderr.contains("Apply failed with 1 conflict"), "{}", out.stderr);
    assert!(out.stderr.contains("conflict with \"alpha\": .data.mode"), "{}", out.stderr);
    assert_eq!(s.must("configmap", "settings")["data"]["mode"], "blue");

    // Forced: beta takes .data.mode over, alpha keeps .data.size.
    let out = s.ok(&["apply", "--server-side", "--field-manager=beta", "--force-conflicts", "-f", &beta]);
    assert_eq!(out.trim(), "configmap/settings serverside-applied");
    let cm = s.must("configmap", "settings");
    assert_eq!(cm["data"], json!({"mode": "green", "size": "small"}));
    assert_eq!(owned(&cm, "alpha")["f:data"], json!({"f:size": {}}));
    assert_eq!(owned(&cm, "beta")["f:data"], json!({"f:mode": {}}));
}

fn get_every_output(s: &Session) {
    let table = s.ok(&["get", "deployment", "web"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "{table}");
    assert_eq!(words(lines[0]), ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]);
    assert_eq!(words(lines[1])[..4], ["web", "0/2", "0", "0"], "{table}");

    let wide = s.ok(&["get", "deployment", "web", "-o", "wide"]);
    let lines: Vec<&str> = wide.lines().collect();
    assert_eq!(
        words(lines[0]),
        ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"]
    );
    assert_eq!(words(lines[1])[5..], ["nginx", "nginx:1.26", "app=web"], "{wide}");

    let obj: Value = serde_json::from_str(&s.ok(&["get", "deployment", "web", "-o", "json"])).unwrap();
    assert_eq!((obj["kind"].as_str(), obj["spec"]["replicas"].as_i64()), (Some("Deployment"), Some(2)));
    let yaml: Value = serde_saphyr::from_str(&s.ok(&["get", "deployment", "web", "-o", "yaml"])).unwrap();
    assert_eq!(yaml, obj, "yaml and json print the same object");

    assert_eq!(s.ok(&["get", "deployment", "web", "-o", "name"]), "deployment.apps/web\n");
    let image = s.ok(&["get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"]);
    assert_eq!(image, "nginx:1.26");
    let cols = s.ok(&["get", "deployment", "web", "-o", "custom-columns=NAME:.metadata.name,REPLICAS:.spec.replicas"]);
    let lines: Vec<Vec<&str>> = cols.lines().map(words).collect();
    assert_eq!(lines, [vec!["NAME", "REPLICAS"], vec!["web", "2"]]);
    let tmpl = s.ok(&["get", "deployment", "web", "-o", "go-template={{.metadata.name}}:{{.spec.replicas}}"]);
    assert_eq!(tmpl, "web:2");
}

fn describe_label_annotate(s: &Session) {
    let out = s.ok(&["describe", "deployment", "web"]);
    let field = |name: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(name).map(str::trim))
            .unwrap_or_else(|| panic!("describe prints {name}:\n{out}"))
    };
    assert_eq!(field("Name:"), "web");
    assert_eq!(field("Namespace:"), "default");
    assert_eq!(field("Selector:"), "app=web");
    assert!(field("Replicas:").starts_with("2 desired"), "{out}");
    assert_eq!(field("StrategyType:"), "RollingUpdate", "the server defaults the strategy");
    assert!(out.lines().any(|l| words(l) == ["Image:", "nginx:1.26"]), "{out}");

    assert_eq!(s.ok(&["label", "deployment", "web", "env=prod"]).trim(), "deployment.apps/web labeled");
    // kubectl 1.27 words its own success message "annotate" (fixed in 1.28); the object is
    // checked below either way.
    let annotated = if s.version == "1.27" { "annotate" } else { "annotated" };
    let out = s.ok(&["annotate", "deployment", "web", "note=hello"]);
    assert_eq!(out.trim(), format!("deployment.apps/web {annotated}"));
    let dep = s.must("deployment", "web");
    assert_eq!(dep["metadata"]["labels"], json!({"app": "web", "env": "prod"}));
    assert_eq!(dep["metadata"]["annotations"]["note"], "hello");
    // Relabelling needs --overwrite.
    let out = s.run(&["label", "deployment", "web", "env=dev"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("'env' already has a value (prod)"), "{}", out.stderr);
    s.ok(&["label", "deployment", "web", "env-"]);
    assert_eq!(s.must("deployment", "web")["metadata"]["labels"], json!({"app": "web"}));
}

/// Whether this kubectl's `patch --type` accepts `apply`.
fn patch_supports_apply(s: &Session) -> bool {
    let help = s.ok(&["patch", "--help"]);
    let types = help.lines().skip_while(|l| !l.trim_start().starts_with("--type=")).nth(1).unwrap_or_default();
    assert!(types.contains("json merge strategic"), "{help}");
    types.contains("apply")
}

fn patch_every_type(s: &Session) {
    let patched = "deployment.apps/web patched";
    let json_patch = r#"[{"op":"replace","path":"/spec/replicas","value":3}]"#;
    assert_eq!(s.ok(&["patch", "deployment", "web", "--type=json", "-p", json_patch]).trim(), patched);
    assert_eq!(s.must("deployment", "web")["spec"]["replicas"], 3);

    let merge = r#"{"metadata":{"labels":{"patched":"merge"}}}"#;
    assert_eq!(s.ok(&["patch", "deployment", "web", "--type=merge", "-p", merge]).trim(), patched);
    assert_eq!(s.must("deployment", "web")["metadata"]["labels"]["patched"], "merge");

    // Strategic: the container list merges by name, so the image stays.
    let strategic =
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"C","value":"sea"}]}]}}}}"#;
    assert_eq!(s.ok(&["patch", "deployment", "web", "--type=strategic", "-p", strategic]).trim(), patched);
    let dep = s.must("deployment", "web");
    assert_eq!(dep["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.26");
    assert_eq!(env_names(&dep), ["C=sea"]);
    // The default type is strategic too.
    let out = s.ok(&["patch", "deployment", "web", "-p", r#"{"spec":{"replicas":2}}"#]);
    assert_eq!(out.trim(), patched);
    assert_eq!(s.must("deployment", "web")["spec"]["replicas"], 2);

    // Apply patch: no kubectl from 1.27 to 1.33 offers `--type=apply` (its help lists json,
    // merge and strategic only), so for these versions this step is skipped; apply patches
    // are sent by `apply --server-side` above. kubectl itself refuses the type before any
    // request; a later kubectl that lists it runs the step.
    let apply = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings"},"data":{"extra":"x"}}"#;
    let args = ["patch", "configmap", "settings", "--type=apply", "--field-manager=gamma", "-p", apply];
    if patch_supports_apply(s) {
        assert_eq!(s.ok(&args).trim(), "configmap/settings patched");
        assert_eq!(s.must("configmap", "settings")["data"]["extra"], "x");
    } else {
        let out = s.run(&args);
        assert_eq!(out.code, 1);
        assert_eq!(out.stderr.trim(), "error: --type must be one of [json merge strategic], not \"apply\"");
        assert!(s.must("configmap", "settings")["data"].get("extra").is_none());
    }
}

fn edit(s: &Session) {
    let script = s.file("editor.sh", "#!/bin/sh\nsed -i 's/image: nginx:1.26/image: nginx:1.27/' \"$1\"\n");
    let mut cmd = s.cmd(&["edit", "deployment", "web"]);
    cmd.env("KUBE_EDITOR", format!("sh {script}"));
    let out = common::run(cmd);
    assert_eq!((out.code, out.stdout.trim()), (0, "deployment.apps/web edited"), "{}", out.stderr);
    assert_eq!(s.must("deployment", "web")["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.27");

    // An editor that changes nothing: kubectl says so and writes nothing.
    let before = s.must("deployment", "web")["metadata"]["resourceVersion"].clone();
    let mut cmd = s.cmd(&["edit", "deployment", "web"]);
    cmd.env("KUBE_EDITOR", "true");
    let out = common::run(cmd);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("Edit cancelled, no changes made."), "{}", out.stderr);
    assert_eq!(s.must("deployment", "web")["metadata"]["resourceVersion"], before);
}

fn scale(s: &Session) {
    assert_eq!(s.ok(&["scale", "deployment", "web", "--replicas=5"]).trim(), "deployment.apps/web scaled");
    assert_eq!(s.must("deployment", "web")["spec"]["replicas"], 5);
    // A precondition that does not hold is refused.
    let out = s.run(&["scale", "deployment", "web", "--current-replicas=4", "--replicas=1"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(s.must("deployment", "web")["spec"]["replicas"], 5);

    s.plane.create(TANKS);
    let tank = s.file("tank.yaml", "apiVersion: scenario.example.com/v1\nkind: Tank\nmetadata: {name: t1, namespace: default}\nspec: {replicas: 1, volume: 10l}\n");
    s.wait_for("the Tank kind to be served", || s.run(&["create", "-f", &tank]).code == 0);
    let out = s.ok(&["scale", "tank", "t1", "--replicas=4"]);
    assert_eq!(out.trim(), "tank.scenario.example.com/t1 scaled");
    let t1 = s.must("tank", "t1");
    assert_eq!((t1["spec"]["replicas"].as_i64(), t1["spec"]["volume"].as_str()), (Some(4), Some("10l")));
}

/// The `KEY: value` header lines of `kubectl explain` output, whitespace-normalised.
fn explain_header(out: &str) -> Vec<String> {
    out.lines()
        .take_while(|l| !l.starts_with("DESCRIPTION"))
        .filter(|l| !l.trim().is_empty())
        .map(|l| words(l).join(" "))
        .collect()
}

/// The field lines (`name <type> [-required-]`) listed under FIELDS.
fn explain_fields(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with("FIELDS:"))
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && !l.trim_start().starts_with("enum:"))
        .map(|l| words(l).join(" "))
        .collect()
}

/// The description k8s-openapi gives `field` of `T`: generated from kube-apiserver's own OpenAPI
/// document, so it is what kube's `kubectl explain` prints.
fn upstream_description<T: schemars::JsonSchema>(field: &str) -> String {
    let schema = schemars::SchemaGenerator::default().into_root_schema_for::<T>();
    let description = schema.as_value()["properties"][field]["description"].as_str();
    description.unwrap_or_else(|| panic!("k8s-openapi describes {field}")).to_string()
}

/// Asserts `kubectl explain <path>` names the field with `ty` and prints `description`
/// (kubectl re-wraps it, so whitespace is normalised on both sides).
fn explains(s: &Session, path: &str, ty: &str, description: &str) -> String {
    let out = s.ok(&["explain", path]);
    let field = path.rsplit('.').next().unwrap();
    assert!(explain_header(&out).contains(&format!("FIELD: {field} <{ty}>")), "kubectl {}: {out}", s.version);
    assert!(
        words(&out).join(" ").contains(&words(description).join(" ")),
        "kubectl {}: {description}\n{out}",
        s.version
    );
    out
}

fn explain(s: &Session) {
    use k8s_openapi::api::core::v1::{ConfigMap, Container, ServicePort};

    // Built-in kinds: kube's full schemas, every nested field with its type and description.
    let out = s.ok(&["explain", "deployment.spec"]);
    assert_eq!(
        explain_header(&out),
        ["GROUP: apps", "KIND: Deployment", "VERSION: v1", "FIELD: spec <DeploymentSpec>"]
    );
    let out = s.ok(&["explain", "deployments"]);
    let fields = explain_fields(&out);
    for f in [
        "apiVersion <string>",
        "kind <string>",
        "metadata <ObjectMeta>",
        "spec <DeploymentSpec>",
        "status <DeploymentStatus>",
    ] {
        assert!(fields.iter().any(|l| l == f), "{f} in {fields:?}\n{out}");
    }
    explains(
        s,
        "deployment.spec.template.spec.containers.image",
        "string",
        &upstream_description::<Container>("image"),
    );
    let out = explains(s, "pod.spec.containers.ports", "[]ContainerPort", &upstream_description::<Container>("ports"));
    let fields = explain_fields(&out);
    assert!(fields.iter().any(|l| l == "containerPort <integer> -required-"), "{fields:?}\n{out}");
    explains(s, "configmap.data", "map[string]string", &upstream_description::<ConfigMap>("data"));
    explains(s, "service.spec.ports.targetPort", "IntOrString", &upstream_description::<ServicePort>("targetPort"));

    // Custom resources: the whole CRD schema with its descriptions.
    let out = s.ok(&["explain", "propagationpolicies.spec"]);
    assert_eq!(
        explain_header(&out),
        ["GROUP: policy.karmada.io", "KIND: PropagationPolicy", "VERSION: v1alpha1", "FIELD: spec <Object>"]
    );
    let fields = explain_fields(&out);
    for f in ["placement <Object>", "resourceSelectors <[]Object> -required-", "priority <integer>"] {
        assert!(fields.iter().any(|l| l == f), "{f} in {fields:?}\n{out}");
    }
    let out = s.ok(&["explain", "tanks.spec.replicas"]);
    assert!(explain_header(&out).contains(&"FIELD: replicas <integer>".to_string()), "{out}");
    assert!(out.contains("How many tanks to keep filled."), "{out}");
}

fn configmap_owned_by(s: &Session, name: &str, owner: Option<&Value>) {
    let refs: Vec<Value> = owner
        .map(|o| {
            vec![json!({"apiVersion": "v1", "kind": "ConfigMap", "name": o["metadata"]["name"],
                "uid": o["metadata"]["uid"], "blockOwnerDeletion": true})]
        })
        .unwrap_or_default();
    let obj = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": "default", "ownerReferences": refs}});
    s.plane.create(&obj.to_string());
}

fn delete_cascades(s: &Session) {
    for mode in ["background", "foreground", "orphan"] {
        let owner_name = format!("owner-{mode}");
        let child_name = format!("child-{mode}");
        configmap_owned_by(s, &owner_name, None);
        let owner = s.must("configmap", &owner_name);
        configmap_owned_by(s, &child_name, Some(&owner));
        assert_eq!(s.must("configmap", &child_name)["metadata"]["ownerReferences"][0]["uid"], owner["metadata"]["uid"]);

        let out = s.ok(&["delete", "configmap", &owner_name, &format!("--cascade={mode}")]);
        assert_eq!(out.trim(), format!("configmap \"{owner_name}\" deleted"));
        s.wait_for("the owner to go", || s.get("configmap", &owner_name, "default").is_none());
        if mode == "orphan" {
            s.wait_for("the child to lose its owner reference", || {
                s.get("configmap", &child_name, "default")
                    .is_some_and(|c| c["metadata"].get("ownerReferences").is_none())
            });
        } else {
            s.wait_for("the child to be collected", || s.get("configmap", &child_name, "default").is_none());
        }
    }
    // The deployment goes with the default (background) cascade.
    assert_eq!(s.ok(&["delete", "deployment", "web"]).trim(), "deployment.apps \"web\" deleted");
    assert!(s.get("deployment", "web", "default").is_none());
}

fn delete_namespace(s: &Session) {
    assert_eq!(s.ok(&["create", "namespace", "doomed"]).trim(), "namespace/doomed created");
    s.ok(&["create", "configmap", "inside", "-n", "doomed", "--from-literal=k=v"]);
    s.ok(&["create", "deployment", "inner", "-n", "doomed", "--image=nginx"]);
    let ns = s.get("namespace", "doomed", "default").unwrap();
    assert_eq!(ns["spec"]["finalizers"], json!(["kubernetes"]));

    // kubectl delete waits until the namespace is gone.
    assert_eq!(s.ok(&["delete", "namespace", "doomed"]).trim(), "namespace \"doomed\" deleted");
    s.wait_for("the namespace to go", || s.get("namespace", "doomed", "default").is_none());
    let out = s.run(&["get", "namespace", "doomed"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("namespaces \"doomed\" not found"), "{}", out.stderr);
    for kind in ["configmaps", "deployments"] {
        let out = s.run(&["get", kind, "-n", "doomed"]);
        assert_eq!((out.code, out.stdout.as_str()), (0, ""));
        assert_eq!(out.stderr.trim(), "No resources found in doomed namespace.");
    }
}

/// A `kubectl get -w` in the background whose stdout lines are read with a deadline.
struct Watch {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
    version: &'static str,
}

impl Watch {
    fn start(s: &Session, args: &[&str]) -> Watch {
        let mut cmd = s.cmd(args);
        cmd.stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = cmd.spawn().unwrap();
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Watch { child, lines, version: s.version }
    }

    /// Reads lines until one starts with the words `want`, failing on a deadline; returns the
    /// first two words of each line read before it.
    fn until(&self, want: &[&str]) -> Vec<String> {
        let deadline = Instant::now() + CONVERGE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if words(&line).starts_with(want) => return seen,
                Ok(line) => seen.push(words(&line).into_iter().take(2).collect::<Vec<_>>().join(" ")),
                Err(_) => panic!("kubectl {}: no {want:?} line; saw {seen:?}", self.version),
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn watch(s: &Session) {
    // With `-o name`, kubectl prints only `configmap/<name>` for every event (its name printer
    // drops the event type), so the event types are read from the table's EVENT column.
    let w = Watch::start(s, &["get", "configmaps", "-w", "--output-watch-events"]);
    // The listing comes first as ADDED events, in name order, under one header.
    assert_eq!(w.until(&["ADDED", "child-orphan"]), ["EVENT NAME"]);
    assert_eq!(w.until(&["ADDED", "settings"]), Vec::<String>::new());

    s.ok(&["create", "configmap", "watched", "--from-literal=k=v"]);
    assert_eq!(w.until(&["ADDED", "watched", "1"]), Vec::<String>::new());
    s.ok(&["patch", "configmap", "watched", "--type=merge", "-p", r#"{"data":{"k":"w","l":"x"}}"#]);
    assert_eq!(w.until(&["MODIFIED", "watched", "2"]), Vec::<String>::new());
    s.ok(&["delete", "configmap", "watched"]);
    assert_eq!(w.until(&["DELETED", "watched", "2"]), Vec::<String>::new());
    drop(w);

    // `-o name` follows the same changes, one name line per event.
    let w = Watch::start(s, &["get", "configmaps", "settings", "-w", "--output-watch-events", "-o", "name"]);
    assert_eq!(w.until(&["configmap/settings"]), Vec::<String>::new());
    s.ok(&["label", "configmap", "settings", "watched=yes"]);
    assert_eq!(w.until(&["configmap/settings"]), Vec::<String>::new(), "the label change is an event");
}

#[test]
fn kubectl_1_27() {
    scenario("1.27");
}

#[test]
fn kubectl_1_28() {
    scenario("1.28");
}

#[test]
fn kubectl_1_29() {
    scenario("1.29");
}

#[test]
fn kubectl_1_30() {
    scenario("1.30");
}

#[test]
fn kubectl_1_31() {
    scenario("1.31");
}

#[test]
fn kubectl_1_32() {
    scenario("1.32");
}

#[test]
fn kubectl_1_33() {
    scenario("1.33");
}
