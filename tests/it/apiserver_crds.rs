//! CRDs on the embedded API server: Karmada's upstream CRDs install with `kubectl apply`, every
//! upstream policy sample is then accepted, a policy with a wrongly typed field is a 422, and
//! deleting a CRD removes its objects.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::plane::Plane;
use serde_json::Value;

fn fixtures() -> PathBuf {
    common::karmada_fixtures()
}

const POLICY_KINDS: &[&str] =
    &["PropagationPolicy", "ClusterPropagationPolicy", "OverridePolicy", "ClusterOverridePolicy"];

/// Every policy document under the sample folders, with the file it came from.
fn policy_documents() -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    for dir in ["samples/nginx", "samples/guestbook", "artifacts/example"] {
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(fixtures().join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let docs: Vec<Value> =
                serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for doc in docs {
                if doc.get("kind").and_then(Value::as_str).is_some_and(|k| POLICY_KINDS.contains(&k)) {
                    out.push((file.clone(), doc));
                }
            }
        }
    }
    out
}

fn install_karmada_crds(plane: &Plane) {
    let bases = fixtures().join("crds/bases");
    let out = plane.kubectl_ok(&["apply", "-R", "-f", bases.to_str().unwrap()]);
    // The plane installs every Karmada CRD at start (its generated ones and upstream's copies),
    // so applying upstream's only adds kubectl's last-applied annotation ("configured").
    assert!(
        out.contains("customresourcedefinition.apiextensions.k8s.io/propagationpolicies.policy.karmada.io configured"),
        "{out}"
    );
    assert!(
        out.contains("customresourcedefinition.apiextensions.k8s.io/workloadrebalancers.apps.karmada.io configured"),
        "{out}"
    );
    plane.kubectl_ok(&["wait", "--for=condition=established", "crd", "--all", "--timeout=20s"]);
}

#[test]
fn upstream_crds_install_and_every_policy_sample_is_accepted() {
    let plane = Plane::start();
    install_karmada_crds(&plane);
    let resources = plane.kubectl_ok(&["api-resources", "--api-group=policy.karmada.io"]);
    for (name, short) in [
        ("propagationpolicies", "pp"),
        ("overridepolicies", "op"),
        ("clusterpropagationpolicies", "cpp"),
        ("clusteroverridepolicies", "cop"),
    ] {
        assert!(
            resources.lines().any(|l| l.starts_with(name) && l.split_whitespace().nth(1) == Some(short)),
            "{name}/{short} missing: {resources}"
        );
    }

    let docs = policy_documents();
    assert!(docs.len() >= 10, "expected the upstream policy samples, found {}", docs.len());
    for (i, (file, doc)) in docs.iter().enumerate() {
        if let Some(ns) = doc.pointer("/metadata/namespace").and_then(Value::as_str) {
            let _ = plane.kubectl_run(&["create", "namespace", ns]);
        }
        let path = plane.file(&format!("policy-{i}.json"), &doc.to_string());
        let out = plane.kubectl_run(&["apply", "-f", path.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{} ({}) was refused: {}", file.display(), doc["metadata"]["name"], out.stderr);
    }
    let pps = plane.kubectl_ok(&["get", "pp", "-A", "-o", "name"]);
    assert!(pps.contains("propagationpolicy.policy.karmada.io/nginx-propagation"), "{pps}");
}

#[test]
fn a_policy_with_a_wrongly_typed_field_is_rejected_with_the_field_named() {
    let plane = Plane::start();
    install_karmada_crds(&plane);
    let bad = plane.file(
        "bad.yaml",
        "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: bad\n  namespace: default\nspec:\n  resourceSelectors:\n    - apiVersion: apps/v1\n      kind: Deployment\n  placement:\n    replicaScheduling:\n      replicaSchedulingType: 5\n",
    );
    let out = plane.kubectl_run(&["apply", "-f", bad.to_str().unwrap()]);
    assert_ne!(out.code, 0, "a wrongly typed policy was accepted");
    assert!(out.stderr.contains("is invalid"), "{}", out.stderr);
    assert!(out.stderr.contains("spec.placement.replicaScheduling.replicaSchedulingType"), "{}", out.stderr);
    let none = plane.kubectl_run(&["get", "pp", "bad"]);
    assert_ne!(none.code, 0, "nothing was created");
}

#[test]
fn crd_resources_are_served_quickly_and_deleted_with_their_crd() {
    let plane = Plane::start();
    let crd = fixtures().join("samples/guestbook/guestbooks-crd.yaml");
    let started = Instant::now();
    plane.kubectl_ok(&["apply", "-f", crd.to_str().unwrap()]);
    plane.kubectl_ok(&["wait", "--for=condition=established", "crd/guestbooks.webapp.my.domain", "--timeout=10s"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    let gb = fixtures().join("samples/guestbook/guestbook.yaml");
    plane.kubectl_ok(&["apply", "-f", gb.to_str().unwrap()]);
    let listed = plane.kubectl_ok(&["get", "guestbooks", "-A", "-o", "name"]);
    assert!(listed.contains("guestbook"), "{listed}");

    plane.kubectl_ok(&["delete", "-f", crd.to_str().unwrap()]);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut attempt = 0;
    loop {
        // A fresh discovery cache each time: the question is what the server serves, not what
        // kubectl cached before the delete.
        attempt += 1;
        let cache = plane.dir.path().join(format!("fresh-cache-{attempt}"));
        let out = plane.kubectl_run(&["get", "guestbooks", "-A", "--cache-dir", cache.to_str().unwrap()]);
        if out.code != 0 && out.stderr.contains("the server doesn't have a resource type \"guestbooks\"") {
            break;
        }
        assert!(Instant::now() < deadline, "guestbooks are still served: {} {}", out.stdout, out.stderr);
        std::thread::sleep(Duration::from_millis(100));
    }
    // Recreating the CRD does not bring old objects back.
    plane.kubectl_ok(&["apply", "-f", crd.to_str().unwrap()]);
    plane.kubectl_ok(&["wait", "--for=condition=established", "crd/guestbooks.webapp.my.domain", "--timeout=10s"]);
    let cache = plane.dir.path().join("fresh-cache-after");
    let after = plane.kubectl_run(&["get", "guestbooks", "-A", "-o", "name", "--cache-dir", cache.to_str().unwrap()]);
    assert_eq!(after.stdout.trim(), "", "objects of a deleted CRD survived: {}", after.stdout);
}
