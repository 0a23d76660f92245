//! ResourceInterpreterCustomization admission on the real plane with real kubectl: a script that
//! does not compile or does not define its function is a 422 naming the rule's field, a second
//! customization scripting an operation another one of the same kind already scripts is refused
//! with upstream's message, and nothing refused is stored.

use crate::common::plane::Plane;

fn customization(name: &str, kind: &str, rules: &str) -> String {
    format!(
        "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\nmetadata:\n  name: {name}\n\
         spec:\n  target:\n    apiVersion: example.io/v1\n    kind: {kind}\n  customizations:\n{rules}"
    )
}

const REPLICAS: &str = "    replicaResource:\n      luaScript: |\n        function GetReplicas(obj)\n          return obj.spec.size, {}\n        end\n";
const HEALTH: &str = "    healthInterpretation:\n      luaScript: |\n        function InterpretHealth(obj)\n          return true\n        end\n";

#[test]
fn scripts_must_load_and_define_their_function() {
    let plane = Plane::start();
    let broken = REPLICAS.replace("return obj.spec.size, {}", "return obj.spec.size,");
    let wrong_name = HEALTH.replace("function InterpretHealth", "function Healthy");
    let path = plane.file("bad.yaml", &customization("bad", "Thing", &format!("{broken}{wrong_name}")));
    let out = plane.kubectl_run(&["create", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 1, "stdout: {}\nstderr: {}", out.stdout, out.stderr);
    assert!(out.stderr.starts_with("The ResourceInterpreterCustomization \"bad\" is invalid: \n"), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "* spec.customizations.replicaResource.luaScript: Invalid value: <string>:3: unexpected symbol near 'end'"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(
            "* spec.customizations.healthInterpretation.luaScript: Invalid value: not found function InterpretHealth"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(plane.kubectl_ok(&["get", "resourceinterpretercustomizations", "-o", "name"]), "");

    // A valid customization is stored, and an update that breaks it is refused and changes nothing.
    plane.create(&customization("good", "Thing", REPLICAS));
    let path = plane.file("good-broken.yaml", &customization("good", "Thing", &broken));
    let out = plane.kubectl_run(&["replace", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("spec.customizations.replicaResource.luaScript: Invalid value:"), "{}", out.stderr);
    let stored = plane.kubectl_ok(&[
        "get",
        "resourceinterpretercustomization",
        "good",
        "-o",
        "jsonpath={.spec.customizations.replicaResource.luaScript}",
    ]);
    assert!(stored.contains("return obj.spec.size, {}"), "{stored}");
}

#[test]
fn a_second_script_for_the_same_kind_and_operation_is_refused() {
    let plane = Plane::start();
    plane.create(&customization("first", "Thing", REPLICAS));
    let path = plane.file("second.yaml", &customization("second", "Thing", &format!("{REPLICAS}{HEALTH}")));
    let out = plane.kubectl_run(&["create", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "The ResourceInterpreterCustomization \"second\" is invalid: spec.customizations: Forbidden: \
         conflicting with InterpreterOperation(InterpretReplica) of existing ResourceInterpreterCustomization(first)\n"
    );
    // Another operation of the same kind, or the same operation of another kind, is fine.
    plane.create(&customization("second", "Thing", HEALTH));
    plane.create(&customization("other-kind", "Other", REPLICAS));
    let names = plane.kubectl_ok(&["get", "resourceinterpretercustomizations", "-o", "name"]);
    assert_eq!(names.lines().count(), 3, "{names}");
}
