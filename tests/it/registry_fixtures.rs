//! The registry against real Karmada manifests: every fixture CRD is accepted and served, every
//! sample object validates clean, and wrong types are rejected with the field named. Then the
//! running plane: every fixture object goes through `kubectl apply` (client-side and
//! `--server-side`) and reads back the same through `get -o yaml`, apart from what the server adds.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use karmadactl_apiserver::registry::discovery::api_resource_list;
use karmadactl_apiserver::registry::openapi::{group_version_key, openapi_v3_document};
use karmadactl_apiserver::registry::{
    FieldError, FieldErrorKind, Registry, ResourceDef, unknown_fields, validate_builtin, validate_crd,
};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/karmada")
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("fixtures missing at {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(yaml_files(&path));
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Parses every document of a file. Install templates carry `{{placeholders}}` that are not
/// YAML scalars, so they are filled first the way the installer would.
fn docs(path: &Path) -> Vec<Value> {
    let text = fs::read_to_string(path).unwrap();
    let text = text.replace("{{image_pull_policy}}", "IfNotPresent").replace("{{", "placeholder-").replace("}}", "");
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    docs.into_iter().filter(|d| d.is_object()).collect()
}

fn gvk(doc: &Value) -> (String, String, String) {
    let api_version = doc["apiVersion"].as_str().unwrap_or_default();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    (group.to_string(), version.to_string(), doc["kind"].as_str().unwrap_or_default().to_string())
}

fn crd_files() -> Vec<PathBuf> {
    let mut files = yaml_files(&root().join("crds/bases"));
    files.push(root().join("samples/guestbook/guestbooks-crd.yaml"));
    files
}

fn registry() -> Registry {
    let mut reg = Registry::builtin();
    for path in crd_files() {
        for doc in docs(&path) {
            let crd: CustomResourceDefinition = serde_json::from_value(doc).unwrap();
            reg.apply_crd(&crd).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    reg
}

fn object_docs() -> Vec<(PathBuf, Value)> {
    let mut files = yaml_files(&root().join("samples"));
    files.extend(yaml_files(&root().join("artifacts")));
    files
        .into_iter()
        .flat_map(|p| filled(&p).into_iter().map(move |d| (p.clone(), d)))
        .filter(|(_, d)| d["kind"] != "CustomResourceDefinition")
        .collect()
}

fn messages(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(FieldError::message).collect()
}

/// What the API server does with a custom resource on create: prune, default, validate.
fn admit(def: &ResourceDef, obj: &Value) -> (Vec<String>, Value, Vec<FieldError>) {
    let validator = def.validator.as_ref().expect("CRD versions are compiled");
    let mut obj = obj.clone();
    let pruned = validator.prune(&mut obj);
    validator.default(&mut obj);
    let errs = validator.validate(&obj);
    (pruned, obj, errs)
}

#[test]
fn every_fixture_crd_is_valid_and_served() {
    let mut count = 0;
    let mut reg = Registry::builtin();
    for path in crd_files() {
        for doc in docs(&path) {
            let crd: CustomResourceDefinition =
                serde_json::from_value(doc.clone()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(messages(&validate_crd(&crd)), Vec::<String>::new(), "{}", path.display());
            let crd_def = reg.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions").unwrap();
            validate_builtin(&crd_def, &doc).unwrap_or_else(|e| panic!("{}: {:?}", path.display(), messages(&e)));
            assert_eq!(unknown_fields(&crd_def, &doc), Vec::<String>::new(), "{}", path.display());
            let defs = reg.apply_crd(&crd).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(!defs.is_empty(), "{} serves nothing", path.display());
            for def in defs {
                assert!(def.validator.is_some());
                assert!(api_resource_list(&reg, &def.group, &def.version).is_some());
                let doc = openapi_v3_document(&reg, &group_version_key(&def.group, &def.version)).unwrap();
                assert!(
                    doc.json["paths"]
                        .as_object()
                        .unwrap()
                        .keys()
                        .any(|p| p.ends_with(&format!("/{}/{{name}}", def.plural)))
                );
            }
            count += 1;
        }
    }
    assert!(count >= 20, "only {count} CRDs found");
    let pp = reg.lookup("policy.karmada.io", "v1alpha1", "propagationpolicies").unwrap();
    assert_eq!(
        (pp.kind.as_str(), pp.short_names.clone(), pp.namespaced),
        ("PropagationPolicy", vec!["pp".to_string()], true)
    );
}

#[test]
fn every_sample_object_validates_clean() {
    let reg = registry();
    let (mut custom, mut builtin, mut policies) = (0, 0, 0);
    for (path, doc) in object_docs() {
        let (group, version, kind) = gvk(&doc);
        let Some(def) = reg.lookup_kind(&group, &version, &kind) else {
            // Aggregated APIs (Cluster, ResourceRegistry).
            continue;
        };
        let at = format!("{} {kind} {}", path.display(), doc["metadata"]["name"]);
        if def.is_custom() {
            let (pruned, _, errs) = admit(&def, &doc);
            assert_eq!(pruned, Vec::<String>::new(), "{at}: unknown fields");
            assert_eq!(messages(&errs), Vec::<String>::new(), "{at}");
            custom += 1;
            if kind.ends_with("PropagationPolicy") || kind.ends_with("OverridePolicy") {
                policies += 1;
            }
        } else {
            validate_builtin(&def, &doc).unwrap_or_else(|e| panic!("{at}: {:?}", messages(&e)));
            assert_eq!(unknown_fields(&def, &doc), Vec::<String>::new(), "{at}");
            builtin += 1;
        }
    }
    assert!(policies >= 15, "only {policies} policies validated");
    assert!(custom > policies, "the Guestbook and ResourceBinding samples were not validated");
    assert!(builtin >= 20, "only {builtin} built-in objects validated");
}

fn sample(file: &str) -> Value {
    docs(&root().join(file)).remove(0)
}

fn errors_for(reg: &Registry, obj: &Value) -> Vec<FieldError> {
    let (group, version, kind) = gvk(obj);
    admit(&reg.lookup_kind(&group, &version, &kind).unwrap(), obj).2
}

#[test]
fn policies_with_wrong_types_are_rejected_with_the_path() {
    let reg = registry();
    let mut pp = sample("artifacts/example/propagationpolicy_simple.yaml");
    pp["spec"]["resourceSelectors"] = json!("x");
    let errs = errors_for(&reg, &pp);
    assert_eq!(errs.len(), 1, "{:?}", messages(&errs));
    assert_eq!((errs[0].path.as_str(), errs[0].kind), ("spec.resourceSelectors", FieldErrorKind::TypeMismatch));
    assert_eq!(
        errs[0].message(),
        "spec.resourceSelectors: Invalid value: \"string\": spec.resourceSelectors in body must be of type array: \"string\""
    );

    let mut pp = sample("samples/nginx/propagationpolicy.yaml");
    pp["spec"]["placement"]["replicaScheduling"]["replicaSchedulingType"] = json!(5);
    let errs = errors_for(&reg, &pp);
    let paths: Vec<&str> = errs.iter().map(|e| e.path.as_str()).collect();
    assert!(paths.contains(&"spec.placement.replicaScheduling.replicaSchedulingType"), "{:?}", messages(&errs));
    assert!(messages(&errs).iter().any(|m| m.contains("must be of type string: \"integer\"")), "{:?}", messages(&errs));

    pp["spec"]["placement"]["replicaScheduling"]["replicaSchedulingType"] = json!("Sideways");
    let errs = errors_for(&reg, &pp);
    assert_eq!(
        messages(&errs),
        [
            "spec.placement.replicaScheduling.replicaSchedulingType: Unsupported value: \"Sideways\": supported values: \"Duplicated\", \"Divided\""
        ]
    );

    let mut op = sample("artifacts/example/overridepolicy_simple.yaml");
    op["spec"]["overrideRules"][0]["overriders"]["plaintext"][0]["operator"] = json!("explode");
    let errs = errors_for(&reg, &op);
    assert_eq!(errs[0].path, "spec.overrideRules[0].overriders.plaintext[0].operator", "{:?}", messages(&errs));
    assert_eq!(errs[0].kind, FieldErrorKind::NotSupported);
}

#[test]
fn policies_are_pruned_and_defaulted() {
    let reg = registry();
    let mut pp = sample("samples/nginx/propagationpolicy.yaml");
    pp["spec"]["placement"]["clusterAffinity"]["clusterNamez"] = json!(["typo"]);
    pp["spec"]["foo"] = json!(1);
    let def = reg.lookup("policy.karmada.io", "v1alpha1", "propagationpolicies").unwrap();
    assert_eq!(unknown_fields(&def, &pp), ["spec.foo", "spec.placement.clusterAffinity.clusterNamez"]);
    let (pruned, admitted, errs) = admit(&def, &pp);
    assert_eq!(pruned, ["spec.foo", "spec.placement.clusterAffinity.clusterNamez"]);
    assert!(errs.is_empty(), "{:?}", messages(&errs));
    assert!(admitted["spec"].get("foo").is_none());
    assert_eq!(admitted["spec"]["conflictResolution"], "Abort");
    assert_eq!(admitted["spec"]["schedulerName"], "default-scheduler");
    assert_eq!(admitted["spec"]["priority"], 0);
    assert_eq!(admitted["metadata"]["name"], "nginx-propagation");
}

#[test]
fn builtin_sample_errors() {
    let reg = registry();
    let deploy_def = reg.lookup("apps", "v1", "deployments").unwrap();
    let deploy = sample("samples/nginx/deployment.yaml");
    validate_builtin(&deploy_def, &deploy).unwrap();

    let mut d = deploy.clone();
    d["spec"]["replicas"] = json!("two");
    let errs = validate_builtin(&deploy_def, &d).unwrap_err();
    assert_eq!((errs[0].path.as_str(), errs[0].kind), ("spec.replicas", FieldErrorKind::TypeMismatch));

    let mut d = deploy.clone();
    d["spec"]["template"]["metadata"]["labels"] = json!({"app": "other"});
    let errs = validate_builtin(&deploy_def, &d).unwrap_err();
    assert_eq!(errs[0].path, "spec.template.metadata.labels");
    assert!(errs[0].message().ends_with("`selector` does not match template `labels`"));

    let mut d = deploy;
    d["spec"]["foo"] = json!("bar");
    assert_eq!(unknown_fields(&deploy_def, &d), ["spec.foo"]);
}

#[test]
fn guestbook_schema_limits_apply() {
    let reg = registry();
    let mut gb = sample("samples/guestbook/guestbook.yaml");
    assert!(errors_for(&reg, &gb).is_empty());
    gb["spec"]["size"] = json!(11);
    gb["spec"]["configMapName"] = json!("a-very-long-config-map-name");
    let msgs = messages(&errors_for(&reg, &gb));
    assert!(
        msgs.contains(
            &"spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10".to_string()
        ),
        "{msgs:?}"
    );
    assert!(msgs.contains(&"spec.configMapName: Too long: may not be more than 15 bytes".to_string()), "{msgs:?}");
}

/// Kinds among the fixtures that this control plane does not serve: the search addon's
/// ResourceRegistry (served by karmada-search, an aggregated API that a plain Karmada install
/// does not have either). APIServices and webhook configurations are stored (with a warning
/// that they are not acted on).
const UNSERVED: &[&str] = &["ResourceRegistry"];

/// The install-time placeholders filled with values the server accepts (`caBundle` and the CA are
/// base64 bytes).
fn filled(path: &Path) -> Vec<Value> {
    let text = fs::read_to_string(path).unwrap();
    let text = text
        .replace("{{caBundle}}", "Y2EtYnVuZGxl")
        .replace("{{ca_crt}}", "Y2EtY3J0")
        .replace("{{image_pull_policy}}", "IfNotPresent")
        .replace("{{", "placeholder-")
        .replace("}}", "");
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    docs.into_iter().filter(|d| d.is_object()).collect()
}

/// Every applied fixture object: namespaces first, then CRDs, then the rest, as an operator
/// would order them.
fn applied_docs() -> Vec<(PathBuf, Value)> {
    let mut files = yaml_files(&root().join("samples"));
    for dir in ["example", "deploy", "agent"] {
        files.extend(yaml_files(&root().join("artifacts").join(dir)));
    }
    let mut all: Vec<(PathBuf, Value)> =
        files.into_iter().flat_map(|p| filled(&p).into_iter().map(move |d| (p.clone(), d))).collect();
    let rank = |d: &Value| match d["kind"].as_str() {
        Some("Namespace") => 0,
        Some("CustomResourceDefinition") => 1,
        _ => 2,
    };
    all.sort_by_key(|(_, d)| rank(d));
    all
}

/// What a kube-apiserver stores of an applied object: `stringData` as base64 under `data`, and
/// no `status` (written through the status subresource only; the server fills it).
fn as_stored(doc: &Value) -> Value {
    use base64::Engine;
    let mut doc = doc.clone();
    doc.as_object_mut().unwrap().remove("status");
    if doc["kind"] == "Secret"
        && let Some(Value::Object(plain)) = doc.as_object_mut().and_then(|o| o.remove("stringData"))
    {
        for (k, v) in plain {
            let encoded = base64::engine::general_purpose::STANDARD.encode(v.as_str().unwrap_or_default());
            doc["data"][k] = json!(encoded);
        }
    }
    doc
}

/// Where `got` differs from `want`, ignoring fields only `got` has (server-set and
/// server-defaulted fields, as a comparison against kube-apiserver must) and fields `want`
/// sets to null (the server drops them). Lists must match element by element.
fn differences(want: &Value, got: &Value, at: &str, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Null, Value::Null) => {}
        (Value::Null, _) => {}
        (Value::Object(w), Value::Object(g)) => {
            for (k, wv) in w {
                match g.get(k) {
                    Some(gv) => differences(wv, gv, &format!("{at}.{k}"), out),
                    None if wv.is_null() => {}
                    None => out.push(format!("{at}.{k}: missing")),
                }
            }
        }
        (Value::Array(w), Value::Array(g)) if w.len() == g.len() => {
            for (i, (wv, gv)) in w.iter().zip(g).enumerate() {
                differences(wv, gv, &format!("{at}[{i}]"), out);
            }
        }
        (w, g) if w == g => {}
        (w, g) => out.push(format!("{at}: applied {w}, read back {g}")),
    }
}

/// Applies every fixture object one by one with `apply_args`, then reads each back.
fn apply_every_fixture(apply_args: &[&str]) {
    let plane = common::plane::Plane::start();
    // The server clears the namespace of a cluster-scoped object (the Cluster sample sets one).
    let cluster_scoped: Vec<String> = plane
        .kubectl_ok(&["api-resources", "--namespaced=false", "--no-headers"])
        .lines()
        .filter_map(|l| l.split_whitespace().last().map(str::to_string))
        .collect();
    assert!(cluster_scoped.iter().any(|k| k == "Cluster"), "{cluster_scoped:?}");
    let server_side = apply_args.contains(&"--server-side");
    let (mut applied, mut unserved) = (0, 0);
    for (n, (path, doc)) in applied_docs().into_iter().enumerate() {
        let kind = doc["kind"].as_str().unwrap().to_string();
        let name = doc["metadata"]["name"].as_str().unwrap().to_string();
        let at = format!("{} {kind}/{name}", path.display());
        let file = plane.file(&format!("fixture-{n}.yaml"), &serde_json::to_string(&doc).unwrap());
        let mut args = vec!["apply", "-f", file.to_str().unwrap()];
        args.extend_from_slice(apply_args);
        if kind == "ConfigMap" && name == "cluster-info" {
            // The template `init` fills in: the plane writes kube-public/cluster-info itself from
            // its own URL and CA and keeps it that way, so applying the placeholders would fight
            // the plane. It exists with the fixture's key.
            let live = plane.kubectl_ok(&["get", "configmap", "cluster-info", "-n", "kube-public", "-o", "json"]);
            let live: Value = serde_json::from_str(&live).unwrap();
            assert!(live["data"]["kubeconfig"].as_str().unwrap().contains("certificate-authority-data"), "{live}");
            continue;
        }
        if UNSERVED.contains(&kind.as_str()) {
            let out = plane.kubectl_run(&args);
            assert_eq!(out.code, 1, "{at}: {}", out.stdout);
            assert!(out.stderr.contains("no matches for kind"), "{at}: {}", out.stderr);
            unserved += 1;
            continue;
        }
        // A custom resource right after its CRD: kubectl may not see the kind until the CRD
        // is established and discovery lists it.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let printed = loop {
            let out = plane.kubectl_run(&args);
            if out.code == 0 {
                break out.stdout;
            }
            assert!(
                out.stderr.contains("no matches for kind") && std::time::Instant::now() < deadline,
                "{at}: apply {apply_args:?} failed: {}",
                out.stderr
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        let verb = printed.trim().rsplit(' ').next().unwrap_or_default();
        let verbs: &[&str] =
            if server_side { &["serverside-applied"] } else { &["created", "configured", "unchanged"] };
        assert!(verbs.contains(&verb) && printed.contains(&format!("/{name} ")), "{at}: {printed}");
        let get = ["get", "-f", file.to_str().unwrap(), "-o", "yaml", "--show-managed-fields"];
        let got: Value = serde_saphyr::from_str(&plane.kubectl_ok(&get)).unwrap();
        // kube keeps no managedFields entry with an empty field set, and the name and namespace
        // are not owned, so a bare Namespace has no entry of its own.
        let owns_fields = doc.as_object().unwrap().len() > 3 || doc["metadata"].as_object().unwrap().len() > 2;
        if server_side && owns_fields {
            let managers = got["metadata"]["managedFields"].as_array().map(Vec::as_slice).unwrap_or_default();
            assert!(managers.iter().any(|e| e["manager"] == "kubectl" && e["operation"] == "Apply"), "{at}: {got}");
        }
        let mut want = as_stored(&doc);
        if cluster_scoped.contains(&kind) {
            want["metadata"].as_object_mut().unwrap().remove("namespace");
            assert!(got["metadata"].get("namespace").is_none(), "{at}");
        }
        let mut diffs = Vec::new();
        differences(&want, &got, "", &mut diffs);
        assert_eq!(diffs, Vec::<String>::new(), "{at}: round trip through apply {apply_args:?}");
        assert!(got["metadata"]["uid"].is_string() && got["metadata"]["resourceVersion"].is_string(), "{at}");
        applied += 1;
    }
    assert_eq!(unserved, 1, "the ResourceRegistry, an aggregated API of the karmada-search addon");
    assert!(applied >= 40, "only {applied} fixture objects applied");
}

#[test]
fn every_fixture_object_applies_client_side_and_reads_back() {
    apply_every_fixture(&[]);
}

#[test]
fn every_fixture_object_applies_server_side_and_reads_back() {
    apply_every_fixture(&["--server-side"]);
}

#[test]
fn webhook_configurations_and_api_services_are_stored_with_a_warning() {
    let plane = common::plane::Plane::start();
    let deploy = root().join("artifacts/deploy");
    for (file, kind, resource) in [
        ("webhook-configuration.yaml", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations"),
        ("karmada-aggregated-apiserver-apiservice.yaml", "APIService", "apiservices"),
    ] {
        let docs: Vec<Value> = filled(&deploy.join(file)).into_iter().filter(|d| d["kind"] == kind).collect();
        let doc = docs.first().unwrap_or_else(|| panic!("{file} has a {kind}"));
        let path = plane.file(&format!("{resource}.json"), &doc.to_string());
        let out = plane.kubectl_run(&["apply", "-f", path.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{kind}: {}", out.stderr);
        let said =
            if kind == "APIService" { "does not proxy aggregated APIs" } else { "does not call admission webhooks" };
        assert!(out.stderr.contains("Warning:") && out.stderr.contains(said), "{kind}: {}", out.stderr);
        let table = plane.kubectl_ok(&["get", resource]);
        let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
        let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
        let name = doc["metadata"]["name"].as_str().unwrap();
        if kind == "APIService" {
            assert_eq!(header, ["NAME", "SERVICE", "AVAILABLE", "AGE"]);
            let svc = format!(
                "{}/{}",
                doc["spec"]["service"]["namespace"].as_str().unwrap(),
                doc["spec"]["service"]["name"].as_str().unwrap()
            );
            assert_eq!(row[..3], [name, svc.as_str(), "Unknown"]);
        } else {
            assert_eq!(header, ["NAME", "WEBHOOKS", "AGE"]);
            let n = doc["webhooks"].as_array().unwrap().len().to_string();
            assert_eq!(row[..2], [name, n.as_str()]);
        }
    }
}
