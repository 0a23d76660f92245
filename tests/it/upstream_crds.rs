//! What upstream components need from a fresh plane before they start: every CRD upstream
//! `init` installs is served (the generated ones and upstream's YAML copied into
//! manifests/upstream-crds/), the `karmada-system` namespace exists, and both come back on the
//! next start of a data dir that lacks them.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::common;
use crate::common::plane::Plane;
use karmadactl_karmada_api::{crds, upstream_crds};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn upstream_bases() -> PathBuf {
    common::karmada_fixtures().join("crds/bases")
}

/// `(file name, text)` of every CRD file upstream ships, from the fixtures.
fn upstream_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for group in std::fs::read_dir(upstream_bases()).unwrap() {
        for file in std::fs::read_dir(group.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    out.sort();
    out
}

/// `(plural, group, versions)` of a CRD document.
fn served_names(crd: &Value) -> (String, String, Vec<String>) {
    let plural = crd["spec"]["names"]["plural"].as_str().unwrap().to_string();
    let group = crd["spec"]["group"].as_str().unwrap().to_string();
    let versions = crd["spec"]["versions"].as_array().unwrap();
    let versions = versions.iter().map(|v| v["name"].as_str().unwrap().to_string()).collect();
    (plural, group, versions)
}

#[test]
fn every_upstream_crd_is_generated_or_copied_unchanged() {
    let generated: BTreeSet<String> = crds::files().into_iter().map(|(name, _)| name).collect();
    let copied: BTreeSet<&str> = upstream_crds::FILES.iter().map(|(name, _)| *name).collect();
    let mut problems = Vec::new();
    for (name, text) in upstream_files() {
        match (generated.contains(&name), upstream_crds::FILES.iter().find(|(n, _)| *n == name)) {
            (true, None) => {}
            (false, Some((_, ours))) if *ours == text => {}
            (false, Some(_)) => problems.push(format!("{name} differs from upstream's")),
            (false, None) => problems.push(format!("{name} is neither generated nor copied")),
            (true, Some(_)) => problems.push(format!("{name} is both generated and copied")),
        }
    }
    let committed: BTreeSet<String> = std::fs::read_dir(root().join(upstream_crds::MANIFEST_DIR))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    assert_eq!(committed, copied.iter().map(|s| s.to_string()).collect(), "every committed copy is embedded");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(generated.len() + copied.len(), upstream_files().len());
}

#[test]
fn a_fresh_plane_serves_every_upstream_crd_and_has_karmada_system() {
    let mut plane = Plane::start();
    let listed = plane.kubectl_ok(&["api-resources", "--no-headers"]);
    let mut missing = Vec::new();
    for (name, text) in upstream_files() {
        let crd: Value = serde_saphyr::from_str(&text).unwrap();
        let (plural, group, versions) = served_names(&crd);
        let served = listed.lines().any(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            fields.first() == Some(&plural.as_str())
                && fields.iter().any(|f| versions.iter().any(|v| *f == format!("{group}/{v}")))
        });
        if !served {
            missing.push(format!("{plural}.{group} ({name})"));
        }
    }
    assert!(missing.is_empty(), "not served: {missing:?}\n{listed}");
    let crds = plane.kubectl_ok(&["get", "crd", "-o", "name"]);
    for name in ["resourceinterpretercustomizations", "resourceinterpreterwebhookconfigurations"] {
        assert!(crds.contains(&format!("{name}.config.karmada.io")), "{crds}");
    }
    plane.kubectl_ok(&["wait", "--for=condition=established", "crd", "--all", "--timeout=20s"]);

    let ns: Value = serde_json::from_str(&plane.kubectl_ok(&["get", "ns", "karmada-system", "-o", "json"])).unwrap();
    assert_eq!(ns["status"]["phase"], "Active", "{ns}");
    assert_eq!(ns["metadata"]["labels"]["karmada.io/system"], "true", "{ns}");
    assert_eq!(ns["metadata"]["labels"]["kubernetes.io/metadata.name"], "karmada-system", "{ns}");
    // A leader-election Lease, as upstream components take one at start.
    plane.create(
        "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: karmada-agent-member1\n  namespace: karmada-system\nspec:\n  holderIdentity: agent-0\n",
    );

    // A data dir written before these existed gets them on its next start.
    plane.kubectl_ok(&["delete", "crd", "remedies.remedy.karmada.io"]);
    plane.kubectl_ok(&["delete", "ns", "karmada-system", "--timeout=30s"]);
    let gone = plane.kubectl_run(&["get", "ns", "karmada-system"]);
    assert_eq!(gone.code, 1, "{}", gone.stdout);
    assert!(gone.stderr.contains(r#"namespaces "karmada-system" not found"#), "{}", gone.stderr);
    plane.restart();
    plane.kubectl_ok(&["wait", "--for=condition=established", "crd/remedies.remedy.karmada.io", "--timeout=20s"]);
    let listed = plane.kubectl_ok(&["api-resources", "--api-group=remedy.karmada.io", "--no-headers"]);
    assert!(listed.lines().any(|l| l.starts_with("remedies ")), "{listed}");
    let ns = plane.kubectl_ok(&["get", "ns", "karmada-system", "-o", "jsonpath={.status.phase}"]);
    assert_eq!(ns, "Active");
}

const GOOD: &str = r#"apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: declarative-configuration-example
spec:
  target:
    apiVersion: apps/v1
    kind: Deployment
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(desiredObj)
          return desiredObj.spec.replicas, nil
        end
"#;

const NO_KIND: &str = r#"apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: no-kind
spec:
  target:
    apiVersion: apps/v1
  customizations: {}
"#;

const NUMBER_SCRIPT: &str = r#"apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata:
  name: number-script
spec:
  target:
    apiVersion: apps/v1
    kind: Deployment
  customizations:
    retention:
      luaScript: 42
"#;

#[test]
fn interpreter_customizations_are_stored_listed_and_schema_checked() {
    let plane = Plane::start();
    let out = plane.create(GOOD);
    assert_eq!(
        out.trim(),
        "resourceinterpretercustomization.config.karmada.io/declarative-configuration-example created"
    );
    let table = plane.kubectl_ok(&["get", "ric"]);
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0][..3], ["NAME", "TARGET-API-VERSION", "TARGET-KIND"], "{table}");
    assert_eq!(rows[1][..3], ["declarative-configuration-example", "apps/v1", "Deployment"], "{table}");
    assert_eq!(rows.len(), 2, "{table}");

    let path = plane.file("no-kind.yaml", NO_KIND);
    let bad = plane.kubectl_run(&["create", "-f", path.to_str().unwrap()]);
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr
            .contains(r#"The ResourceInterpreterCustomization "no-kind" is invalid: spec.target.kind: Required value"#),
        "{}",
        bad.stderr
    );
    let path = plane.file("number-script.yaml", NUMBER_SCRIPT);
    let bad = plane.kubectl_run(&["create", "-f", path.to_str().unwrap(), "--validate=false"]);
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr.contains(r#"spec.customizations.retention.luaScript: Invalid value: "integer": spec.customizations.retention.luaScript in body must be of type string: "integer""#),
        "{}",
        bad.stderr
    );
    let names = plane.kubectl_ok(&["get", "resourceinterpretercustomizations", "-o", "name"]);
    assert_eq!(
        names.trim(),
        "resourceinterpretercustomization.config.karmada.io/declarative-configuration-example",
        "nothing was stored for the refused ones"
    );
}
