//! OverridePolicy and ClusterOverridePolicy admission on the real plane with real kubectl:
//! every upstream example policy is accepted, and a policy with invalid overriders is refused
//! with a 422 naming the field, on create and on update, without being stored.

use std::path::PathBuf;

use crate::common::plane::Plane;
use serde_json::Value;

fn example(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/karmada").join(path)
}

#[test]
fn upstream_example_policies_are_accepted() {
    let plane = Plane::start();
    for file in [
        "artifacts/example/overridepolicy_simple.yaml",
        "artifacts/example/overridepolicy_image.yaml",
        "artifacts/example/overridepolicy_command.yaml",
        "artifacts/example/example-override.yaml",
        "artifacts/example/clusteroverridepolicy.yaml",
        "samples/nginx/overridepolicy.yaml",
        "samples/guestbook/guestbooks-overridepolicy.yaml",
    ] {
        let path = example(file);
        let path = path.to_str().unwrap();
        let out = plane.kubectl_ok(&["create", "-f", path, "-o", "json"]);
        let created: Value = serde_json::from_str(&out).unwrap();
        let name = created["metadata"]["name"].as_str().unwrap();
        assert!(created["spec"]["overrideRules"].is_array(), "{file}: {out}");
        // Stored as sent: reading it back gives the same spec.
        let kind = created["kind"].as_str().unwrap().to_lowercase();
        let got = plane.kubectl_ok(&["get", &kind, name, "-n", "default", "-o", "json"]);
        let got: Value = serde_json::from_str(&got).unwrap();
        assert_eq!(got["spec"], created["spec"], "{file}");
        plane.kubectl_ok(&["delete", "-f", path]);
    }
}

const INVALID: &str = r#"
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: bad
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  overrideRules:
    - overriders:
        plaintext:
          - path: spec/replicas
            operator: replace
            value: 2
        imageOverrider:
          - component: Registry
            operator: replace
        fieldOverrider:
          - fieldPath: /data/config.yaml
"#;

#[test]
fn invalid_overriders_are_refused_and_not_stored() {
    let plane = Plane::start();
    let path = plane.file("bad.yaml", INVALID);
    let out = plane.kubectl_run(&["create", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 1, "stdout: {}\nstderr: {}", out.stdout, out.stderr);
    let expected = concat!(
        r#"The OverridePolicy "bad" is invalid: "#,
        "\n",
        r#"* spec.overrideRules[0].overriders.plaintext[0].path: Invalid value: "spec/replicas": JSON pointer must be empty or start with a "/""#,
        "\n",
        "* spec.overrideRules[0].overriders.imageOverrider[0].value: Required value: value is required for add or replace operation",
        "\n",
        r#"* spec.overrideRules[0].overriders.fieldOverrider[0]: Invalid value: {"fieldPath":"/data/config.yaml"}: FieldOverrider must set one of YAML or JSON"#,
        "\n",
    );
    assert_eq!(out.stderr, expected);
    let listed = plane.kubectl_ok(&["get", "overridepolicies", "-n", "default", "-o", "name"]);
    assert_eq!(listed, "");

    // The same rules hold on update, and for the cluster-scoped kind.
    let good = r#"
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata:
  name: labels
spec:
  overrideRules:
    - overriders:
        labelsOverrider:
          - operator: add
            value:
              team: web
"#;
    plane.create(good);
    let bad = good.replace("team: web", "\"bad key!\": web");
    let path = plane.file("bad-update.yaml", &bad);
    let out = plane.kubectl_run(&["replace", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 1, "stdout: {}\nstderr: {}", out.stdout, out.stderr);
    assert!(
        out.stderr.starts_with(
            r#"The ClusterOverridePolicy "labels" is invalid: spec.overrideRules[0].overriders.labelsOverrider[0].value: Invalid value: "bad key!": "#
        ),
        "{}",
        out.stderr
    );
    let stored = plane.kubectl_ok(&[
        "get",
        "cop",
        "labels",
        "-o",
        "jsonpath={.spec.overrideRules[0].overriders.labelsOverrider[0].value}",
    ]);
    assert_eq!(stored, r#"{"team":"web"}"#);
}
