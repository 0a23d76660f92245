//! The Karmada CRDs generated from the Rust types: the committed files under manifests/crds/
//! are current (regenerate with `UPDATE_GENERATED=1 cargo test --test it karmada_crds::`), every
//! field of upstream's CRDs is in ours with the same type and constraints, and the real plane
//! serves them to kubectl.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::common;
use crate::common::plane::Plane;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use karmadactl_apiserver::registry::{CrdValidator, validate_crd};
use karmadactl_karmada_api::crds;
use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn upstream_dir() -> PathBuf {
    common::karmada_fixtures().join("crds/bases")
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
    assert!(stale.is_empty(), "stale CRDs (run UPDATE_GENERATED=1 cargo test --test it karmada_crds::): {stale:?}");
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
        if columns(theirs) != columns(ours) {
            out.push(format!("{name} printer columns: {} upstream, {} here", columns(theirs), columns(ours)));
        }
        let status = |v: &Value| v.pointer("/subresources/status").is_some();
        if status(theirs) != status(ours) {
            out.push(format!("{name} status subresource: {} upstream, {} here", status(theirs), status(ours)));
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

/// Every document of `kinds` in upstream's sample folders, with the file it came from.
fn sample_documents(kinds: &[&str]) -> Vec<(PathBuf, Value)> {
    let base = common::karmada_fixtures();
    let mut out = Vec::new();
    for dir in ["samples/nginx", "samples/guestbook", "artifacts/example"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(base.join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let docs: Vec<Value> =
                serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            out.extend(
                docs.into_iter()
                    .filter(|d| d["kind"].as_str().is_some_and(|k| kinds.contains(&k)))
                    .map(|d| (file.clone(), d)),
            );
        }
    }
    out
}

fn install_generated_crds(plane: &Plane) {
    let dir = root().join(crds::MANIFEST_DIR);
    let out = plane.kubectl_ok(&["apply", "-f", dir.to_str().unwrap()]);
    for (name, _) in crds::files() {
        let crd = name.trim_end_matches(".yaml").split_once('_').map(|(g, p)| format!("{p}.{g}")).unwrap();
        // The plane installs these CRDs itself at start; applying the committed files over them
        // must work all the same.
        let line = format!("customresourcedefinition.apiextensions.k8s.io/{crd} ");
        assert!(
            out.lines().any(|l| l.starts_with(&line) && (l.ends_with("configured") || l.ends_with("unchanged"))),
            "{out}"
        );
    }
    plane.kubectl_ok(&["wait", "--for=condition=established", "crd", "--all", "--timeout=20s"]);
}

async fn client(plane: &Plane) -> kube::Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    kube::Client::try_from(cfg).unwrap()
}

#[test]
fn kubectl_installs_the_generated_crds_and_every_policy_sample_applies() {
    let plane = Plane::start();
    install_generated_crds(&plane);

    let resources = plane.kubectl_ok(&["api-resources", "--api-group=policy.karmada.io", "--no-headers"]);
    for (name, short) in [
        ("clusteroverridepolicies", "cop"),
        ("clusterpropagationpolicies", "cpp"),
        ("overridepolicies", "op"),
        ("propagationpolicies", "pp"),
    ] {
        assert!(
            resources.lines().any(|l| l.split_whitespace().take(2).eq([name, short])),
            "{name} ({short}) is not served: {resources}"
        );
    }
    let work = plane.kubectl_ok(&["api-resources", "--api-group=work.karmada.io", "--no-headers"]);
    for short in ["rb", "crb", "wk"] {
        assert!(work.lines().any(|l| l.split_whitespace().nth(1) == Some(short)), "{short} missing: {work}");
    }
    let in_category = plane.kubectl_ok(&["get", "karmada-io", "-A", "-o", "name"]);
    assert_eq!(in_category.trim(), "", "a fresh plane holds no Karmada objects: {in_category}");

    let docs =
        sample_documents(&["PropagationPolicy", "ClusterPropagationPolicy", "OverridePolicy", "ClusterOverridePolicy"]);
    assert!(docs.len() >= 15, "expected upstream's policy samples, found {}", docs.len());
    for (i, (file, doc)) in docs.iter().enumerate() {
        if let Some(ns) = doc.pointer("/metadata/namespace").and_then(Value::as_str) {
            let _ = plane.kubectl_run(&["create", "namespace", ns]);
        }
        let path = plane.file(&format!("sample-{i}.json"), &doc.to_string());
        let out = plane.kubectl_run(&["apply", "-f", path.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{} ({}) was refused: {}", file.display(), doc["metadata"]["name"], out.stderr);
    }

    // The server applied the schema defaults.
    let pp = plane.kubectl_ok(&["get", "pp", "nginx-propagation", "-n", "default", "-o", "json"]);
    let pp: Value = serde_json::from_str(&pp).unwrap();
    assert_eq!(pp["spec"]["conflictResolution"], "Abort", "{pp}");
    assert_eq!(pp["spec"]["priority"], 0, "{pp}");
    assert_eq!(pp["spec"]["preemption"], "Never", "{pp}");
    assert_eq!(pp["spec"]["schedulerName"], "default-scheduler", "{pp}");
    // The installed CRD carries upstream's printer columns.
    let columns = plane.kubectl_ok(&[
        "get",
        "crd",
        "propagationpolicies.policy.karmada.io",
        "-o",
        "jsonpath={.spec.versions[0].additionalPrinterColumns[*].name}",
    ]);
    assert_eq!(columns, "CONFLICT-RESOLUTION PRIORITY AGE");

    // Upstream's v1alpha1 binding sample is served too.
    let binding = sample_documents(&["ResourceBinding"]);
    let path = plane.file("binding.json", &binding[0].1.to_string());
    plane.kubectl_ok(&["apply", "-f", path.to_str().unwrap()]);
    let rb = plane.kubectl_ok(&["get", "resourcebindings.v1alpha1.work.karmada.io", "binding-foo", "-o", "json"]);
    let rb: Value = serde_json::from_str(&rb).unwrap();
    assert_eq!(rb["spec"]["clusters"], json!([{"name": "cluster1"}, {"name": "cluster3"}]), "{rb}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_clients_round_trip_and_a_wrongly_typed_policy_is_a_422_naming_the_field() {
    use karmadactl_karmada_api::policy::{PropagationPolicy, PropagationSpec};
    use kube::api::{Api, DynamicObject, PostParams};
    use kube::core::GroupVersionKind;

    let plane = Plane::start();
    install_generated_crds(&plane);
    let client = client(&plane).await;

    // The Rust type goes through kube-rs and comes back with the server's defaults.
    let policies: Api<PropagationPolicy> = Api::namespaced(client.clone(), "default");
    let spec: PropagationSpec = serde_json::from_value(json!({
        "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}],
        "placement": {"clusterAffinity": {"clusterNames": ["member1"]},
                      "replicaScheduling": {"replicaDivisionPreference": "Weighted"}},
        "priority": 5
    }))
    .unwrap();
    let created =
        policies.create(&PostParams::default(), &PropagationPolicy::new("typed", spec.clone())).await.unwrap();
    let fetched = policies.get("typed").await.unwrap();
    assert_eq!(fetched.spec.resource_selectors, spec.resource_selectors);
    assert_eq!(fetched.spec.priority, Some(5));
    let scheduling = fetched.spec.placement.as_ref().unwrap().replica_scheduling.as_ref().unwrap();
    let defaulted = serde_json::to_value(scheduling).unwrap();
    assert_eq!(defaulted, json!({"replicaDivisionPreference": "Weighted", "replicaSchedulingType": "Divided"}));
    assert_eq!(created.metadata.uid, fetched.metadata.uid);

    // A wrongly typed field, sent around the Rust type, is refused by the schema.
    let gvk = GroupVersionKind::gvk("policy.karmada.io", "v1alpha1", "PropagationPolicy");
    let (resource, _) = kube::discovery::pinned_kind(&client, &gvk).await.unwrap();
    let dynamic: Api<DynamicObject> = Api::namespaced_with(client, "default", &resource);
    let bad: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy", "metadata": {"name": "bad"},
        "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                 "placement": {"replicaScheduling": {"replicaSchedulingType": 5}}}
    }))
    .unwrap();
    let err = dynamic.create(&PostParams::default(), &bad).await.unwrap_err();
    let kube::Error::Api(status) = err else { panic!("expected a Status, got {err:?}") };
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"), "{status:?}");
    assert!(status.message.contains("spec.placement.replicaScheduling.replicaSchedulingType"), "{}", status.message);
    assert!(policies.get_opt("bad").await.unwrap().is_none(), "the bad policy was stored");
}
