//! The registry against real Karmada manifests: every fixture CRD is accepted and served, every
//! sample object validates clean, and wrong types are rejected with the field named.

use std::fs;
use std::path::{Path, PathBuf};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use karmadactl::controlplane::registry::discovery::api_resource_list;
use karmadactl::controlplane::registry::openapi::{group_version_key, openapi_v3_document};
use karmadactl::controlplane::registry::{
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
        .flat_map(|p| docs(&p).into_iter().map(move |d| (p.clone(), d)))
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
                    doc["paths"].as_object().unwrap().keys().any(|p| p.ends_with(&format!("/{}/{{name}}", def.plural)))
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
            // Aggregated APIs (Cluster, ResourceRegistry) and kinds this control plane does not
            // serve (webhook configurations, APIService).
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
