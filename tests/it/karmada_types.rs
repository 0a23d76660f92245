//! The Karmada Rust types against upstream's manifests: every fixture document of a Karmada kind
//! decodes and encodes back to exactly the JSON it came from, so no field is lost; a document
//! with every schema field set round-trips too; wrongly typed documents fail naming the field.

use std::path::{Path, PathBuf};

use karmadactl_apiserver::registry::CrdValidator;
use karmadactl_karmada_api::cluster::{self, Cluster};
use karmadactl_karmada_api::crds;
use karmadactl_karmada_api::policy::{
    ClusterOverridePolicy, ClusterPropagationPolicy, OverridePolicy, PropagationPolicy,
};
use karmadactl_karmada_api::work::binding_v1alpha1;
use karmadactl_karmada_api::work::{ClusterResourceBinding, ResourceBinding, Work};
use karmadactl_karmada_api::{DecodeError, decode};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/karmada")
}

const KINDS: &[&str] = &[
    "Cluster",
    "PropagationPolicy",
    "ClusterPropagationPolicy",
    "OverridePolicy",
    "ClusterOverridePolicy",
    "ResourceBinding",
    "ClusterResourceBinding",
    "Work",
];

/// Decodes `doc` as `T` and encodes it again.
fn through<T: DeserializeOwned + Serialize>(doc: &Value) -> Result<Value, DecodeError> {
    let typed: T = decode(doc)?;
    Ok(serde_json::to_value(&typed).expect("Karmada types serialise"))
}

/// Round-trips a document through the Rust type for its apiVersion and kind.
fn round_trip(doc: &Value) -> Result<Value, DecodeError> {
    let api_version = doc["apiVersion"].as_str().unwrap_or_default();
    let kind = doc["kind"].as_str().unwrap_or_default();
    match (api_version, kind) {
        ("cluster.karmada.io/v1alpha1", "Cluster") => through::<Cluster>(doc),
        ("policy.karmada.io/v1alpha1", "PropagationPolicy") => through::<PropagationPolicy>(doc),
        ("policy.karmada.io/v1alpha1", "ClusterPropagationPolicy") => through::<ClusterPropagationPolicy>(doc),
        ("policy.karmada.io/v1alpha1", "OverridePolicy") => through::<OverridePolicy>(doc),
        ("policy.karmada.io/v1alpha1", "ClusterOverridePolicy") => through::<ClusterOverridePolicy>(doc),
        ("work.karmada.io/v1alpha2", "ResourceBinding") => through::<ResourceBinding>(doc),
        ("work.karmada.io/v1alpha2", "ClusterResourceBinding") => through::<ClusterResourceBinding>(doc),
        ("work.karmada.io/v1alpha1", "ResourceBinding") => through::<binding_v1alpha1::ResourceBinding>(doc),
        ("work.karmada.io/v1alpha1", "ClusterResourceBinding") => {
            through::<binding_v1alpha1::ClusterResourceBinding>(doc)
        }
        ("work.karmada.io/v1alpha1", "Work") => through::<Work>(doc),
        other => panic!("no Rust type for {other:?}"),
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// Every document of a Karmada kind in the fixture tree, with the file it came from.
fn karmada_documents() -> Vec<(PathBuf, Value)> {
    let mut files = Vec::new();
    yaml_files(&fixtures(), &mut files);
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let docs: Vec<Value> = match serde_saphyr::from_multiple(&text) {
            Ok(docs) => docs,
            Err(e) => {
                // A few deploy templates hold `{{placeholders}}` and are not YAML until filled in;
                // none of them may be of a kind checked here.
                let ours = text.lines().any(|l| KINDS.iter().any(|k| l.trim() == format!("kind: {k}")));
                assert!(!ours, "{} holds a Karmada kind but does not parse: {e}", file.display());
                continue;
            }
        };
        for doc in docs {
            if doc.get("kind").and_then(Value::as_str).is_some_and(|k| KINDS.contains(&k)) {
                out.push((file.clone(), doc));
            }
        }
    }
    out
}

#[test]
fn every_fixture_document_round_trips_without_losing_a_field() {
    let docs = karmada_documents();
    let mut failures = Vec::new();
    for (file, doc) in &docs {
        match round_trip(doc) {
            Ok(back) if back == *doc => {}
            Ok(back) => failures.push(format!("{}: changed\n  was: {doc}\n  now: {back}", file.display())),
            Err(e) => failures.push(format!("{}: {e}", file.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The walk found upstream's samples: each of these kinds is in the fixtures.
    let seen =
        |api_version: &str, kind: &str| docs.iter().any(|(_, d)| d["apiVersion"] == api_version && d["kind"] == kind);
    for (api_version, kind) in [
        ("cluster.karmada.io/v1alpha1", "Cluster"),
        ("policy.karmada.io/v1alpha1", "PropagationPolicy"),
        ("policy.karmada.io/v1alpha1", "ClusterPropagationPolicy"),
        ("policy.karmada.io/v1alpha1", "OverridePolicy"),
        ("policy.karmada.io/v1alpha1", "ClusterOverridePolicy"),
        ("work.karmada.io/v1alpha1", "ResourceBinding"),
    ] {
        assert!(seen(api_version, kind), "no {api_version} {kind} among the fixtures");
    }
    assert!(docs.len() >= 17, "only {} Karmada documents found", docs.len());
}

/// A value for every property the schema describes: each object gets all its properties, each
/// list and map one entry, each enum its last value.
fn example(schema: &Value, path: &str) -> Value {
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values.last().cloned().expect("enums have values");
    }
    if schema.get("x-kubernetes-int-or-string") == Some(&json!(true)) {
        return json!("250m");
    }
    let preserve = schema.get("x-kubernetes-preserve-unknown-fields") == Some(&json!(true));
    match schema.get("type").and_then(Value::as_str) {
        Some("object") if preserve => json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "v"}}),
        None if preserve => json!({"any": ["json", 1, true, {"nested": null}]}),
        Some("object") => {
            let mut obj = Map::new();
            for (name, sub) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
                obj.insert(name.clone(), example(sub, &format!("{path}.{name}")));
            }
            if let Some(values) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                obj.insert("key".into(), example(values, &format!("{path}.key")));
            }
            Value::Object(obj)
        }
        Some("array") => json!([example(&schema["items"], &format!("{path}[0]"))]),
        Some("string") if schema.get("format") == Some(&json!("date-time")) => json!("2024-05-06T07:08:09Z"),
        Some("string") => json!(format!("value-of{path}")),
        Some("integer") => json!(schema.get("minimum").and_then(Value::as_f64).unwrap_or(0.0).max(7.0) as i64),
        Some("boolean") => json!(true),
        other => panic!("{path}: no example for type {other:?}"),
    }
}

/// A complete object for a schema: every field set, type metadata and name on top.
fn complete_object(api_version: &str, kind: &str, schema: &Value) -> Value {
    let mut doc = example(schema, "");
    doc["apiVersion"] = json!(api_version);
    doc["kind"] = json!(kind);
    doc["metadata"] = json!({"name": "everything", "namespace": "default"});
    doc
}

#[test]
fn a_document_with_every_schema_field_round_trips() {
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    let mut check = |api_version: String, kind: &str, schema: &Value| {
        let doc = complete_object(&api_version, kind, schema);
        match round_trip(&doc) {
            Ok(back) if back == doc => checked.push(format!("{api_version} {kind}")),
            Ok(back) => failures.push(format!("{api_version} {kind}: changed\n  was: {doc}\n  now: {back}")),
            Err(e) => failures.push(format!("{api_version} {kind}: {e}")),
        }
    };
    for crd in crds::all() {
        for version in &crd.spec.versions {
            let schema =
                serde_json::to_value(version.schema.as_ref().unwrap().open_api_v3_schema.as_ref().unwrap()).unwrap();
            check(format!("{}/{}", crd.spec.group, version.name), &crd.spec.names.kind, &schema);
        }
    }
    check("cluster.karmada.io/v1alpha1".into(), "Cluster", &cluster::openapi_schema());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked.len(), 10, "{checked:?}");
}

fn decode_error<T: DeserializeOwned + std::fmt::Debug>(doc: Value) -> DecodeError {
    decode::<T>(&doc).expect_err("the document is wrongly typed")
}

#[test]
fn a_wrongly_typed_field_is_named_in_the_error() {
    let e = decode_error::<PropagationPolicy>(json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy", "metadata": {"name": "p"},
        "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                 "placement": {"replicaScheduling": {"replicaSchedulingType": 5}}}
    }));
    assert_eq!(e.path, "spec.placement.replicaScheduling.replicaSchedulingType", "{e}");
    assert!(e.message.contains("invalid type: integer `5`"), "{e}");

    let e = decode_error::<PropagationPolicy>(json!({
        "metadata": {"name": "p"},
        "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap"}, {"apiVersion": "v1"}]}
    }));
    assert_eq!(e.path, "spec.resourceSelectors[1]", "{e}");
    assert!(e.message.contains("missing field `kind`"), "{e}");

    let e = decode_error::<PropagationPolicy>(json!({
        "metadata": {"name": "p"},
        "spec": {"resourceSelectors": [{"apiVersion": "v1", "kind": "ConfigMap"}],
                 "placement": {"clusterAffinities": [{"affinityName": "a", "clusterNames": "member1"}]}}
    }));
    assert_eq!(e.path, "spec.placement.clusterAffinities[0].clusterNames", "{e}");
    assert!(e.message.contains("invalid type: string \"member1\", expected a sequence"), "{e}");

    let e = decode_error::<Cluster>(json!({"metadata": {"name": "m"}, "spec": {"syncMode": "Sideways"}}));
    assert_eq!(e.path, "spec.syncMode", "{e}");
    assert!(e.message.contains("unknown variant `Sideways`, expected `Push` or `Pull`"), "{e}");

    let e = decode_error::<Work>(json!({
        "metadata": {"name": "w"}, "spec": {},
        "status": {"manifestStatuses": [{"identifier": {"ordinal": "first", "version": "v1", "kind": "ConfigMap",
                                                         "resource": "configmaps", "name": "c"}}]}
    }));
    assert_eq!(e.path, "status.manifestStatuses[0].identifier.ordinal", "{e}");

    let e = decode_error::<OverridePolicy>(json!({
        "metadata": {"name": "o"},
        "spec": {"overrideRules": [{"overriders": {"labelsOverrider": [{"operator": "add", "value": {"k": 1}}]}}]}
    }));
    assert_eq!(e.path, "spec.overrideRules[0].overriders.labelsOverrider[0].value.k", "{e}");
}

#[test]
fn override_values_keep_any_json() {
    // `value` of a plaintext overrider is free-form JSON, kept exactly.
    let doc = json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterOverridePolicy", "metadata": {"name": "o"},
        "spec": {"overrideRules": [{"overriders": {"plaintext": [
            {"path": "/spec/replicas", "operator": "replace", "value": 3},
            {"path": "/metadata/annotations", "operator": "add", "value": {"a": ["b", {"c": false}]}},
            {"path": "/spec/paused", "operator": "remove"}
        ]}}]}
    });
    let back = round_trip(&doc).unwrap();
    assert_eq!(back, doc);
    let typed: ClusterOverridePolicy = decode(&doc).unwrap();
    let rules = typed.spec.override_rules.as_ref().unwrap();
    let plaintext = rules[0].overriders.plaintext.as_ref().unwrap();
    assert_eq!(plaintext[1].value, Some(json!({"a": ["b", {"c": false}]})));
    assert_eq!(plaintext[2].value, None);
}

#[test]
fn the_cluster_schema_validates_clusters_with_the_registry_validator() {
    let validator = CrdValidator::new(&cluster::openapi_schema()).expect("the Cluster schema compiles");
    let text = std::fs::read_to_string(fixtures().join("artifacts/example/cr_cluster.yaml")).unwrap();
    let docs: Vec<Value> = serde_saphyr::from_multiple(&text).unwrap();
    let sample = docs.iter().find(|d| d["kind"] == "Cluster").unwrap();
    assert_eq!(validator.validate(sample), vec![], "upstream's sample Cluster is valid");

    let mut bad = sample.clone();
    bad["spec"]["syncMode"] = json!("Sideways");
    bad["spec"]["secretRef"] = json!({"name": "no-namespace"});
    let errors: Vec<String> = validator.validate(&bad).iter().map(ToString::to_string).collect();
    assert!(errors.iter().any(|e| e.starts_with("spec.syncMode: Unsupported value: \"Sideways\"")), "{errors:?}");
    assert!(errors.iter().any(|e| e.starts_with("spec.secretRef.namespace: Required value")), "{errors:?}");

    let mut missing = sample.clone();
    missing["spec"].as_object_mut().unwrap().remove("syncMode");
    let errors: Vec<String> = validator.validate(&missing).iter().map(ToString::to_string).collect();
    assert!(errors.iter().any(|e| e.starts_with("spec.syncMode: Required value")), "{errors:?}");
}
