//! The `kube` library's answers, as upstream's helpers give them.

use serde_json::{Value, json};

use super::super::{CallError, Vm};

/// The JSON a status-reflection script returns from `body` (which sets `result`).
fn run(body: &str, object: Value) -> Result<Value, CallError> {
    let script = format!(
        "local kube = require('kube') function ReflectStatus(obj) local result = {{}} {body} return result end"
    );
    Vm::default().reflect_status(&script, &object)
}

#[test]
fn pod_requirements_sum_containers_take_the_largest_init_container_and_add_overhead() {
    let template = json!({"spec": {
        "containers": [
            {"name": "a", "resources": {"requests": {"cpu": "250m", "memory": "64Mi"}}},
            {"name": "b", "resources": {"limits": {"cpu": 1, "memory": "1Gi", "nvidia.com/gpu": 1, "storage": "1Gi"}}}
        ],
        "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2", "memory": "10Mi"}}}],
        "overhead": {"memory": "1Mi"},
        "nodeSelector": {"zone": "a"},
        "tolerations": [{"key": "k", "operator": "Exists"}]
    }});
    let got =
        run("result.r = kube.accuratePodRequirements(obj.spec.template)", json!({"spec": {"template": template}}));
    assert_eq!(
        got,
        Ok(json!({"r": {
            "nodeClaim": {"nodeSelector": {"zone": "a"}, "tolerations": [{"key": "k", "operator": "Exists"}]},
            "resourceRequest": {"cpu": "2", "memory": "1089Mi", "nvidia.com/gpu": "1"}
        }}))
    );
    // A template asking for nothing has no requirements (nil to the script).
    let got =
        run("result.none = kube.accuratePodRequirements(obj) == nil", json!({"spec": {"containers": [{"name": "a"}]}}));
    assert_eq!(got, Ok(json!({"none": true})));
}

#[test]
fn pod_dependencies_name_config_maps_secrets_accounts_and_claims() {
    let template = json!({"spec": {
        "serviceAccountName": "runner",
        "imagePullSecrets": [{"name": "pull"}],
        "containers": [{"name": "a", "envFrom": [{"configMapRef": {"name": "env-cm"}}],
            "env": [{"name": "X", "valueFrom": {"secretKeyRef": {"name": "env-secret", "key": "k"}}}]}],
        "volumes": [
            {"name": "v1", "persistentVolumeClaim": {"claimName": "data"}},
            {"name": "v2", "projected": {"sources": [{"configMap": {"name": "proj-cm"}}, {"secret": {"name": "proj-secret"}}]}}
        ]
    }});
    let got = run("result = kube.getPodDependencies(obj, 'ns1')", template).unwrap();
    let names: Vec<String> = got
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{}/{}/{}",
                r["kind"].as_str().unwrap(),
                r["namespace"].as_str().unwrap(),
                r["name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            "ConfigMap/ns1/env-cm",
            "ConfigMap/ns1/proj-cm",
            "Secret/ns1/env-secret",
            "Secret/ns1/proj-secret",
            "Secret/ns1/pull",
            "ServiceAccount/ns1/runner",
            "PersistentVolumeClaim/ns1/data"
        ]
    );
    // No dependencies is nil; a nil namespace is "default".
    let got = run(
        "result.none = kube.getPodDependencies(obj, nil) == nil",
        json!({"spec": {"serviceAccountName": "default"}}),
    );
    assert_eq!(got, Ok(json!({"none": true})));
}

#[test]
fn quantities_add_and_read_as_numbers() {
    let got = run(
        "result.sum = kube.resourceAdd('1', '500m', nil) result.gi = kube.resourceAdd('1Gi', '512Mi') \
         result.tiny = kube.resourceAdd('5e-100') \
         result.n = kube.getResourceQuantity('1500m') result.m = kube.getResourceQuantity('2Ki')",
        json!({}),
    );
    assert_eq!(got, Ok(json!({"sum": "1500m", "gi": "1536Mi", "tiny": "1e-9", "n": 1.5, "m": 2048})));
}

#[test]
fn wrong_arguments_raise_upstreams_errors() {
    let cases = [
        ("kube.accuratePodRequirements()", "getPodRequirements only accepts one argument"),
        ("kube.getPodDependencies({})", "getPodDependencies only accepts two argument"),
        ("kube.getResourceQuantity('1', '2')", "getResourceQuantity only accepts one argument"),
        ("kube.resourceAdd(3)", "bad argument #1 to resourceAdd (string expected, got number)"),
        ("kube.getResourceQuantity('-1')", "int approximation unexpectedly returned a negative value: -1,"),
        (
            "kube.accuratePodRequirements('x')",
            "bad argument #1 to accuratePodRequirements (table expected, got string)",
        ),
    ];
    for (call, message) in cases {
        match run(call, json!({})) {
            Err(CallError::Runtime(m)) => assert_eq!(m, message, "{call}"),
            other => panic!("{call}: {other:?}"),
        }
    }
    match run("kube.resourceAdd('5Xi')", json!({})) {
        Err(CallError::Runtime(m)) => assert!(m.starts_with("cannot parse '5Xi': quantities must match"), "{m}"),
        other => panic!("{other:?}"),
    }
}
