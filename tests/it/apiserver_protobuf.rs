//! kubectl 1.32's generator commands, which send protobuf bodies, against the embedded API server.

use crate::common::plane::Plane;
use serde_json::Value;

fn get_json(plane: &Plane, args: &[&str]) -> Value {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "json"]);
    serde_json::from_str(&plane.kubectl_ok(&all)).expect("kubectl prints JSON")
}

#[test]
fn kubectl_generator_commands_send_protobuf() {
    let plane = Plane::start();

    plane.kubectl_ok(&["create", "namespace", "p"]);
    let ns = get_json(&plane, &["namespace", "p"]);
    assert_eq!(ns["metadata"]["name"], "p");
    assert_eq!(ns["kind"], "Namespace");

    plane.kubectl_ok(&["create", "configmap", "c", "-n", "p", "--from-literal=a=b"]);
    let cm = get_json(&plane, &["configmap", "c", "-n", "p"]);
    assert_eq!(cm["data"], serde_json::json!({"a": "b"}));
    assert_eq!(cm["metadata"]["namespace"], "p");

    plane.kubectl_ok(&["create", "serviceaccount", "s", "-n", "p"]);
    let sa = get_json(&plane, &["serviceaccount", "s", "-n", "p"]);
    assert_eq!(sa["metadata"]["name"], "s");

    plane.kubectl_ok(&["create", "role", "r", "-n", "p", "--verb=get", "--resource=configmaps"]);
    let role = get_json(&plane, &["role", "r", "-n", "p"]);
    assert_eq!(role["rules"], serde_json::json!([{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}]));

    plane.kubectl_ok(&["create", "rolebinding", "rb", "-n", "p", "--role=r", "--serviceaccount=p:s"]);
    let rb = get_json(&plane, &["rolebinding", "rb", "-n", "p"]);
    assert_eq!(
        rb["roleRef"],
        serde_json::json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"})
    );
    assert_eq!(rb["subjects"], serde_json::json!([{"kind": "ServiceAccount", "name": "s", "namespace": "p"}]));

    plane.kubectl_ok(&["create", "deployment", "d", "-n", "p", "--image=nginx:1.25", "--replicas=2"]);
    let deploy = get_json(&plane, &["deployment", "d", "-n", "p"]);
    assert_eq!(deploy["spec"]["replicas"], 2);
    assert_eq!(deploy["spec"]["selector"]["matchLabels"]["app"], "d");
    let containers = &deploy["spec"]["template"]["spec"]["containers"];
    assert_eq!(containers[0]["image"], "nginx:1.25");
    assert_eq!(containers[0]["name"], "nginx");

    let can = plane.kubectl_ok(&["auth", "can-i", "create", "deployments"]);
    assert_eq!(can.trim(), "yes");

    let who = plane.kubectl_ok(&["auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"]);
    assert_eq!(who.trim(), "system:admin");

    let token = plane.kubectl_ok(&["create", "token", "s", "-n", "p"]);
    let token = token.trim();
    assert_eq!(token.split('.').count(), 3, "a JWT: {token}");
}
