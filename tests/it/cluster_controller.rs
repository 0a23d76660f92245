//! The plane's cluster controller against a real member API server: the finalizer and
//! execution namespace, the status it derives from the member (version, Ready, nodes, resource
//! summary, API enablements), Ready turning False when the member stops (at once, not at the
//! next probe, when its process dies), Unknown when the
//! credentials are missing, and deletion removing only what the controller made.
//!
//! The member's credentials are set up by hand here (a service-account token copied into the
//! plane), so the controller is judged on its own; tests/join.rs covers the same through join.

use std::time::{Duration, Instant};

use crate::common::plane::Plane;
use serde_json::Value;

const CONVERGE: Duration = Duration::from_secs(20);

fn wait_for<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + CONVERGE;
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn json(plane: &Plane, args: &[&str]) -> Option<Value> {
    let mut all = args.to_vec();
    all.extend(["-o", "json", "--ignore-not-found"]);
    let out = plane.kubectl_ok(&all);
    (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
}

fn plane() -> Plane {
    Plane::start_with(&["--cluster-status-update-frequency", "200ms", "--cluster-failure-threshold", "1s"])
}

fn member() -> Plane {
    Plane::start_with(&[
        "--profile",
        "kubernetes",
        "--kubeconfig-context",
        "member1",
        "--kubernetes-version",
        "v1.31.4",
    ])
}

/// A token for a cluster-admin service account of the member, and the member's CA.
fn member_credentials(member: &Plane) -> (String, String) {
    member.kubectl_ok(&["create", "namespace", "karmada-cluster"]);
    member.kubectl_ok(&["create", "serviceaccount", "probe", "-n", "karmada-cluster"]);
    member.kubectl_ok(&[
        "create",
        "clusterrolebinding",
        "probe",
        "--clusterrole=cluster-admin",
        "--serviceaccount=karmada-cluster:probe",
    ]);
    let token = member.kubectl_ok(&["create", "token", "probe", "-n", "karmada-cluster", "--duration=1h"]);
    (token.trim().to_string(), member.ca_pem())
}

fn register(plane: &Plane, member: &Plane, name: &str, with_secret: bool) {
    if with_secret {
        let (token, ca) = member_credentials(member);
        let ca_file = plane.file("member-ca.crt", &ca);
        plane.kubectl_ok(&["create", "namespace", "karmada-cluster"]);
        plane.kubectl_ok(&[
            "create",
            "secret",
            "generic",
            name,
            "-n",
            "karmada-cluster",
            &format!("--from-literal=token={token}"),
            &format!("--from-file=caBundle={}", ca_file.display()),
        ]);
    }
    plane.create(&format!(
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {name}\nspec:\n  syncMode: Push\n  apiEndpoint: {}\n  secretRef:\n    namespace: karmada-cluster\n    name: {name}\n",
        member.url
    ));
}

fn ready(plane: &Plane, name: &str) -> Option<(String, String, String)> {
    let c = json(plane, &["get", "cluster", name])?;
    let cond = c["status"]["conditions"].as_array()?.iter().find(|c| c["type"] == "Ready")?.clone();
    Some((
        cond["status"].as_str()?.to_string(),
        cond["reason"].as_str()?.to_string(),
        cond["message"].as_str()?.to_string(),
    ))
}

#[test]
fn a_reachable_member_becomes_ready_with_its_status() {
    let plane = plane();
    let member = member();
    member.create(
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\nstatus:\n  allocatable: {cpu: '8', memory: 32Gi, pods: '110'}\n  capacity: {cpu: '8', memory: 32Gi, pods: '110'}\n",
    );
    member.kubectl_ok(&[
        "patch",
        "node",
        "node-a",
        "--subresource=status",
        "--type=merge",
        "-p",
        r#"{"status":{"allocatable":{"cpu":"8","memory":"32Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}}"#,
    ]);
    member.create(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: default\nspec:\n  nodeName: node-a\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests: {cpu: 250m, memory: 64Mi}\n",
    );
    register(&plane, &member, "member1", true);

    let status = wait_for("Ready True", || ready(&plane, "member1").filter(|r| r.0 == "True"));
    assert_eq!(status.1, "ClusterReady");
    let c = json(&plane, &["get", "cluster", "member1"]).expect("the cluster");
    assert!(c["metadata"]["finalizers"].as_array().unwrap().iter().any(|f| f == "karmada.io/cluster-controller"));
    assert_eq!(c["status"]["kubernetesVersion"], "v1.31.4");
    assert_eq!(c["status"]["nodeSummary"]["totalNum"], 1);
    assert_eq!(c["status"]["nodeSummary"]["readyNum"], 1);
    let summary = &c["status"]["resourceSummary"];
    assert_eq!(summary["allocatable"]["cpu"], "8");
    assert_eq!(summary["allocatable"]["memory"], "32Gi");
    assert_eq!(summary["allocated"]["cpu"], "250m");
    assert_eq!(summary["allocated"]["pods"], "1");
    let apis: Vec<&str> =
        c["status"]["apiEnablements"].as_array().unwrap().iter().filter_map(|e| e["groupVersion"].as_str()).collect();
    assert!(apis.contains(&"v1") && apis.contains(&"apps/v1"), "{apis:?}");
    assert!(!apis.iter().any(|g| g.contains("karmada.io")), "a plain member serves no Karmada API: {apis:?}");

    let ns = json(&plane, &["get", "namespace", "karmada-es-member1"]).expect("the execution namespace");
    assert_eq!(ns["metadata"]["labels"]["karmada.io/system"], "true");
    assert_eq!(ns["metadata"]["annotations"]["cluster.karmada.io/uid"], c["metadata"]["uid"]);

    // kubectl's table shows what the controller found.
    let table = plane.kubectl_ok(&["get", "clusters"]);
    let row: Vec<&str> = table.lines().nth(1).expect("a row").split_whitespace().collect();
    assert_eq!(&row[..4], ["member1", "v1.31.4", "Push", "True"]);
}

#[test]
fn a_stopped_member_turns_not_ready_and_deletion_cleans_up() {
    let plane = plane();
    let mut member = member();
    register(&plane, &member, "member1", true);
    wait_for("Ready True", || ready(&plane, "member1").filter(|r| r.0 == "True"));

    member.stop();
    let (_, reason, message) = wait_for("Ready False", || ready(&plane, "member1").filter(|r| r.0 == "False"));
    assert_eq!(reason, "ClusterNotReachable");
    assert!(message.contains("cluster is not reachable"), "{message}");

    // Deleting the Cluster works without the member: the execution namespace goes, then the
    // finalizer, then the Cluster.
    plane.kubectl_ok(&["delete", "cluster", "member1", "--timeout=20s"]);
    assert!(json(&plane, &["get", "cluster", "member1"]).is_none());
    assert!(json(&plane, &["get", "namespace", "karmada-es-member1"]).is_none());
}

/// A member whose process dies between two probes closes the connection the plane holds open
/// to it, and the plane probes it then: with a ten-minute probe period, Ready still turns False
/// within seconds.
#[test]
fn a_member_that_dies_between_probes_is_probed_at_once() {
    let plane = Plane::start_with(&["--cluster-status-update-frequency", "10m", "--cluster-failure-threshold", "0s"]);
    let mut member = member();
    register(&plane, &member, "member1", true);
    wait_for("Ready True", || ready(&plane, "member1").filter(|r| r.0 == "True"));

    member.stop();
    let (_, reason, _) =
        wait_for("Ready False long before the next probe", || ready(&plane, "member1").filter(|r| r.0 == "False"));
    assert_eq!(reason, "ClusterNotReachable");
}

#[test]
fn missing_credentials_make_ready_unknown() {
    let plane = plane();
    let member = member();
    register(&plane, &member, "member1", false);
    let (_, reason, message) = wait_for("Ready Unknown", || ready(&plane, "member1").filter(|r| r.0 == "Unknown"));
    assert_eq!(reason, "ClusterStatusUnknown");
    assert!(message.contains("karmada-cluster/member1 does not exist"), "{message}");
}

#[test]
fn a_namespace_the_controller_did_not_make_survives_deletion() {
    let plane = plane();
    let member = member();
    // Someone made the namespace first: the controller uses it but cannot prove it owns it.
    plane.kubectl_ok(&["create", "namespace", "karmada-es-member1"]);
    plane.kubectl_ok(&["create", "configmap", "precious", "-n", "karmada-es-member1"]);
    register(&plane, &member, "member1", true);
    wait_for("the finalizer", || {
        let c = json(&plane, &["get", "cluster", "member1"])?;
        c["metadata"]["finalizers"].as_array().filter(|f| !f.is_empty()).map(|_| ())
    });
    plane.kubectl_ok(&["delete", "cluster", "member1", "--timeout=20s"]);
    assert!(json(&plane, &["get", "cluster", "member1"]).is_none());
    assert!(json(&plane, &["get", "configmap", "precious", "-n", "karmada-es-member1"]).is_some());
}
