//! The Karmada CRDs generated from the Rust types: the committed files under manifests/crds/
//! are current (regenerate with `UPDATE_GENERATED=1 cargo test --test karmada_crds`), every
//! field of upstream's CRDs is in ours with the same type and constraints, and the real plane
//! serves them to kubectl.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use karmadactl::controlplane::registry::{CrdValidator, validate_crd};
use karmadactl::karmada::crds;
use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn upstream_dir() -> PathBuf {
    root().join("../shared/fixtures/karmada/crds/bases")
}

#[test]
fn committed_crds_are_current() {
    let dir = root().join(crds::MANIFEST_DIR);
    let files = crds::files();
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut stale = Vec::new();
    for (name, text) in &files {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(committed) if committed == *text => {}
            Ok(_) => stale.push(format!("{name} differs")),
            Err(e) => stale.push(format!("{name} cannot be read: {e}")),
        }
    }
    let expected: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for entry in std::fs::read_dir(&dir).expect("manifests/crds exists") {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !expected.contains(name.as_str()) {
            stale.push(format!("{name} is not generated any more"));
        }
    }
    assert!(stale.is_empty(), "stale CRDs (run UPDATE_GENERATED=1 cargo test --test karmada_crds): {stale:?}");
    assert_eq!(files.len(), 7, "{expected:?}");
}

/// Upstream's CRD with this name, from the fixture files.
fn upstream(name: &str) -> Value {
    let (group, plural) = name.split_once('.').map(|(p, g)| (g, p)).unwrap();
    let folder = group.split('.').next().unwrap();
    let path = upstream_dir().join(folder).join(format!("{group}_{plural}.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The schema keywords compared at every node: what a value must look like, not prose.
const COMPARED: &[&str] = &[
    "type",
    "format",
    "enum",
    "required",
    "default",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "nullable",
    "anyOf",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-int-or-string",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];

/// Walks upstream's schema beside ours; every difference is one line naming the field path.
fn compare(path: &str, theirs: &Value, ours: Option<&Value>, out: &mut Vec<String>) {
    let Some(ours) = ours else {
        out.push(format!("{path}: missing"));
        return;
    };
    for key in COMPARED {
        let (t, o) = (theirs.get(*key), ours.get(*key));
        let same = match (*key, t, o) {
            // Order does not matter in these lists.
            ("enum" | "required", Some(Value::Array(t)), Some(Value::Array(o))) => {
                t.iter().map(Value::to_string).collect::<BTreeSet<_>>()
                    == o.iter().map(Value::to_string).collect::<BTreeSet<_>>()
            }
            // 1 and 1.0 are the same bound (JSONSchemaProps keeps bounds as floats).
            (_, Some(Value::Number(t)), Some(Value::Number(o))) => t.as_f64() == o.as_f64(),
            _ => t == o,
        };
        if !same {
            out.push(format!("{path}: {key} is {} upstream, {} here", show(t), show(o)));
        }
    }
    let props = |s: &Value| s.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    let (their_props, our_props) = (props(theirs), props(ours));
    for (name, sub) in &their_props {
        compare(&format!("{path}.{name}"), sub, our_props.get(name), out);
    }
    for name in our_props.keys().filter(|n| !their_props.contains_key(*n)) {
        out.push(format!("{path}.{name}: not upstream"));
    }
    for (key, suffix) in [("items", "[]"), ("additionalProperties", "{}")] {
        match (theirs.get(key).filter(|v| v.is_object()), ours.get(key)) {
            (Some(t), o) => compare(&format!("{path}{suffix}"), t, o, out),
            (None, Some(_)) => out.push(format!("{path}{suffix}: not upstream")),
            (None, None) => {}
        }
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "absent".to_string(), Value::to_string)
}

/// Names, scope, versions, columns and subresources must match upstream too.
fn compare_definition(theirs: &Value, ours: &Value, out: &mut Vec<String>) {
    for key in ["group", "scope"] {
        if theirs["spec"][key] != ours["spec"][key] {
            out.push(format!("spec.{key}: {} upstream, {} here", theirs["spec"][key], ours["spec"][key]));
        }
    }
    for key in ["kind", "listKind", "plural", "singular", "shortNames", "categories"] {
        if theirs["spec"]["names"][key] != ours["spec"]["names"][key] {
            out.push(format!(
                "spec.names.{key}: {} upstream, {} here",
                theirs["spec"]["names"][key], ours["spec"]["names"][key]
            ));
        }
    }
    let versions = |crd: &Value| -> Vec<Value> { crd["spec"]["versions"].as_array().cloned().unwrap_or_default() };
    let (their_versions, our_versions) = (versions(theirs), versions(ours));
    let names = |vs: &[Value]| vs.iter().map(|v| v["name"].clone()).collect::<Vec<_>>();
    if names(&their_versions) != names(&our_versions) {
        out.push(format!("versions: {:?} upstream, {:?} here", names(&their_versions), names(&our_versions)));
    }
    for theirs in &their_versions {
        let name = theirs["name"].as_str().unwrap();
        let Some(ours) = our_versions.iter().find(|v| v["name"] == name) else { continue };
        for key in ["served", "storage"] {
            if theirs[key] != ours[key] {
                out.push(format!("{name}.{key}: {} upstream, {} here", theirs[key], ours[key]));
            }
        }
        let columns = |v: &Value| v.get("additionalPrinterColumns").cloned().unwrap_or(json!([]));
        if columns(theirs) != columns(&ours) {
            out.push(format!("{name} printer columns: {} upstream, {} here", columns(theirs), columns(&ours)));
        }
        let status = |v: &Value| v.pointer("/subresources/status").is_some();
        if status(theirs) != status(&ours) {
            out.push(format!("{name} status subresource: {} upstream, {} here", status(theirs), status(&ours)));
        }
        compare(
            &format!("{name}:"),
            &theirs["schema"]["openAPIV3Schema"],
            Some(&ours["schema"]["openAPIV3Schema"]),
            out,
        );
    }
}

#[test]
fn generated_crds_match_upstream_field_for_field() {
    let ours: Vec<CustomResourceDefinition> = crds::all();
    let mut report = Vec::new();
    for crd in &ours {
        let name = crd.metadata.name.clone().unwrap();
        let mut diffs = Vec::new();
        compare_definition(&upstream(&name), &serde_json::to_value(crd).unwrap(), &mut diffs);
        report.extend(diffs.into_iter().map(|d| format!("{name} {d}")));
    }
    assert!(report.is_empty(), "{} differences from upstream:\n{}", report.len(), report.join("\n"));
    let names: BTreeSet<String> = ours.iter().map(|c| c.metadata.name.clone().unwrap()).collect();
    assert_eq!(
        names,
        [
            "clusteroverridepolicies.policy.karmada.io",
            "clusterpropagationpolicies.policy.karmada.io",
            "clusterresourcebindings.work.karmada.io",
            "overridepolicies.policy.karmada.io",
            "propagationpolicies.policy.karmada.io",
            "resourcebindings.work.karmada.io",
            "works.work.karmada.io",
        ]
        .into_iter()
        .map(String::from)
        .collect()
    );
}

#[test]
fn generated_crds_pass_the_plane_s_own_crd_checks() {
    for crd in crds::all() {
        let name = crd.metadata.name.clone().unwrap();
        assert_eq!(validate_crd(&crd), vec![], "{name}");
        for version in &crd.spec.versions {
            let schema = serde_json::to_value(version.schema.as_ref().unwrap().open_api_v3_schema.as_ref().unwrap());
            CrdValidator::new(&schema.unwrap()).unwrap_or_else(|e| panic!("{name} {}: {e}", version.name));
        }
    }
}
