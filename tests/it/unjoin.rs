//! `karmadactl unjoin` against a real Karmada plane and simulated members: what it removes on
//! both sides, dry runs, upstream's refusals, a finalizer nobody removes (timeout, then
//! `--force`), a member that is down, and what becomes of the workloads the plane put there.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::Run;
use crate::common::plane::Plane;
use serde_json::{Value, json};

fn member(name: &str) -> Plane {
    Plane::start_with(&["--profile", "kubernetes", "--kubeconfig-context", name])
}

fn karmadactl(plane: &Plane, args: &[&str]) -> Run {
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.args(args).arg("--kubeconfig").arg(&plane.kubeconfig);
    common::run(cmd)
}

fn joined(plane: &Plane, name: &str, member: &Plane) {
    let out = karmadactl(plane, &["join", name, "--cluster-kubeconfig", member.kubeconfig.to_str().unwrap()]);
    assert_eq!(out.code, 0, "join: {}", out.stderr);
}

fn unjoin(plane: &Plane, name: &str, member_kubeconfig: Option<&Path>, extra: &[&str]) -> Run {
    let mut args = vec!["unjoin", name];
    if let Some(path) = member_kubeconfig {
        args.extend_from_slice(&["--cluster-kubeconfig", path.to_str().unwrap()]);
    }
    args.extend_from_slice(extra);
    karmadactl(plane, &args)
}

fn get(cluster: &Plane, args: &[&str]) -> Option<Value> {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "json", "--ignore-not-found"]);
    let out = cluster.kubectl_ok(&all);
    (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
}

fn finalizers(obj: &Value) -> Vec<String> {
    serde_json::from_value(obj["metadata"]["finalizers"].clone()).unwrap_or_default()
}

const ROLE: &str = "karmada-controller-manager:karmada-member1";

/// The member-side objects join made and unjoin removes, as (kind, name, namespace).
const MEMBER_OBJECTS: [(&str, &str, &str); 4] = [
    ("clusterrolebinding", ROLE, ""),
    ("clusterrole", ROLE, ""),
    ("serviceaccount", "karmada-member1", "karmada-cluster"),
    ("namespace", "karmada-cluster", ""),
];

fn member_object(m: &Plane, (kind, name, ns): (&str, &str, &str)) -> Option<Value> {
    if ns.is_empty() { get(m, &[kind, name]) } else { get(m, &[kind, name, "-n", ns]) }
}

/// Polls until `done`, or panics naming what was awaited (for the plane's garbage collector).
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

const REMOVED: &str = "cluster.cluster.karmada.io \"member1\" deleted
clusterrolebinding.rbac.authorization.k8s.io \"karmada-controller-manager:karmada-member1\" deleted from the member cluster
clusterrole.rbac.authorization.k8s.io \"karmada-controller-manager:karmada-member1\" deleted from the member cluster
serviceaccount \"karmada-member1\" deleted from the member cluster
namespace \"karmada-cluster\" deleted from the member cluster
";

#[test]
fn unjoin_removes_the_cluster_and_the_member_side_objects() {
    let plane = Plane::start();
    let m1 = member("member1");
    joined(&plane, "member1", &m1);

    // A dry run names what would go and changes nothing.
    let out = unjoin(&plane, "member1", Some(&m1.kubeconfig), &["--dry-run"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let expected: String =
        REMOVED.lines().map(|l| format!("{}\n", l.replacen(" deleted", " deleted (dry run)", 1))).collect();
    assert_eq!(out.stdout, expected);
    assert!(get(&plane, &["cluster", "member1"]).is_some());
    for object in MEMBER_OBJECTS {
        assert!(member_object(&m1, object).is_some(), "{object:?} survives a dry run");
    }

    let out = unjoin(&plane, "member1", Some(&m1.kubeconfig), &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, REMOVED);
    assert!(get(&plane, &["cluster", "member1"]).is_none());
    for object in MEMBER_OBJECTS {
        assert!(member_object(&m1, object).is_none(), "{object:?} was removed");
    }
    // The credential Secrets belong to the Cluster; the plane's garbage collector removes them.
    for secret in ["member1", "member1-impersonator"] {
        wait_for(&format!("secret {secret} to be collected"), || {
            get(&plane, &["secret", secret, "-n", "karmada-cluster"]).is_none()
        });
    }

    // Upstream's refusals: an unknown cluster, and a Pull-mode one.
    let out = unjoin(&plane, "member1", None, &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: no cluster object member1 found in karmada control Plane\n"),
        "{}",
        out.stderr
    );
    plane.create(
        &json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": {"name": "pulled"},
                "spec": {"syncMode": "Pull"}})
        .to_string(),
    );
    let out = unjoin(&plane, "pulled", None, &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: cluster pulled is a Pull mode member cluster, please use command `unregister` if you want to continue unregistering the cluster\n"),
        "{}",
        out.stderr
    );
    assert!(get(&plane, &["cluster", "pulled"]).is_some());
}

#[test]
fn a_finalizer_nobody_removes_needs_force() {
    let plane = Plane::start();
    let m1 = member("member1");
    joined(&plane, "member1", &m1);
    // The plane's cluster controller adds its finalizer and the execution namespace; a Work
    // with a finalizer nobody removes then holds the namespace, and so the Cluster.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while get(&plane, &["namespace", "karmada-es-member1"]).is_none()
        || !get(&plane, &["cluster", "member1"])
            .is_some_and(|c| finalizers(&c).contains(&"karmada.io/cluster-controller".to_string()))
    {
        assert!(std::time::Instant::now() < deadline, "the cluster controller never prepared member1");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    plane.create(
        &json!({"apiVersion": "work.karmada.io/v1alpha1", "kind": "Work",
                "metadata": {"name": "w1", "namespace": "karmada-es-member1",
                             "finalizers": ["example.com/hold"]},
                "spec": {"workload": {"manifests": []}}})
        .to_string(),
    );

    let out = unjoin(&plane, "member1", None, &["--wait", "1s"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.starts_with(
            "error: cluster member1 was not removed within 1s; finalizers still on it: karmada.io/cluster-controller\n"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--force"), "{}", out.stderr);
    let cluster = get(&plane, &["cluster", "member1"]).expect("the cluster is held by its finalizer");
    assert!(cluster["metadata"]["deletionTimestamp"].is_string());

    let out = unjoin(&plane, "member1", None, &["--wait", "1s", "--force"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "cluster.cluster.karmada.io \"member1\" deleted\n");
    assert!(get(&plane, &["cluster", "member1"]).is_none());
    // Once its holder lets go, the Work and then the execution namespace go (the namespace
    // controller).
    plane.kubectl_ok(&[
        "patch",
        "work",
        "w1",
        "-n",
        "karmada-es-member1",
        "--type=json",
        "-p",
        r#"[{"op":"remove","path":"/metadata/finalizers"}]"#,
    ]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while get(&plane, &["namespace", "karmada-es-member1"]).is_some() {
        assert!(std::time::Instant::now() < deadline, "the execution namespace never went");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(get(&plane, &["work", "w1", "-n", "karmada-es-member1"]).is_none());
}

#[test]
fn forced_unjoin_finishes_when_the_member_is_down() {
    let plane = Plane::start();
    let mut m1 = member("member1");
    joined(&plane, "member1", &m1);
    m1.stop();

    let out = unjoin(&plane, "member1", Some(&m1.kubeconfig), &["--force", "--wait", "5s"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "cluster.cluster.karmada.io \"member1\" deleted\n");
    assert!(out.stderr.contains("warning: "), "{}", out.stderr);
    assert!(out.stderr.contains("cannot reach https://127.0.0.1:"), "{}", out.stderr);
    assert!(get(&plane, &["cluster", "member1"]).is_none());
}

#[test]
fn unforced_unjoin_fails_when_the_member_is_down() {
    let plane = Plane::start();
    let mut m1 = member("member1");
    joined(&plane, "member1", &m1);
    m1.stop();

    let out = unjoin(&plane, "member1", Some(&m1.kubeconfig), &[]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(out.stdout, "cluster.cluster.karmada.io \"member1\" deleted\n");
    assert!(out.stderr.starts_with("error: cannot reach https://127.0.0.1:"), "{}", out.stderr);
}

/// A Deployment in the plane's `default` namespace and a PropagationPolicy placing it on
/// `cluster`, preserving the member's copy on deletion when `preserve`.
fn propagate(plane: &Plane, name: &str, cluster: &str, preserve: bool) {
    plane.create(
        &json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": "default"},
                "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                         "template": {"metadata": {"labels": {"app": name}},
                                      "spec": {"containers": [{"name": name, "image": "nginx"}]}}}})
        .to_string(),
    );
    plane.create(
        &json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
                "metadata": {"name": name, "namespace": "default"},
                "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": name}],
                         "preserveResourcesOnDeletion": preserve,
                         "placement": {"clusterAffinity": {"clusterNames": [cluster]}}}})
        .to_string(),
    );
}

fn ready(plane: &Plane, cluster: &str) -> Option<String> {
    let c = get(plane, &["cluster", cluster])?;
    let conditions = c["status"]["conditions"].as_array()?.clone();
    conditions.iter().find(|c| c["type"] == "Ready").and_then(|c| c["status"].as_str().map(String::from))
}

fn converge(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn unjoin_removes_propagated_workloads_unless_preserved_or_the_member_is_not_ready() {
    let plane = Plane::start_with(&["--cluster-status-update-frequency", "200ms", "--cluster-failure-threshold", "1s"]);
    let m1 = member("member1");
    let mut m2 = member("member2");
    joined(&plane, "member1", &m1);
    joined(&plane, "member2", &m2);
    propagate(&plane, "gone", "member1", false);
    propagate(&plane, "kept", "member1", true);
    propagate(&plane, "stays", "member2", false);
    converge("the three deployments to reach their members", || {
        get(&m1, &["deployment", "gone"]).is_some()
            && get(&m1, &["deployment", "kept"]).is_some()
            && get(&m2, &["deployment", "stays"]).is_some()
    });
    let kept_uid = get(&m1, &["deployment", "kept"]).unwrap()["metadata"]["uid"].clone();

    // A Ready member: its Works go, and with them what they put there, before unjoin returns;
    // the preserved copy stays, still the same object.
    let out = unjoin(&plane, "member1", None, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "cluster.cluster.karmada.io \"member1\" deleted\n");
    assert!(get(&plane, &["cluster", "member1"]).is_none());
    assert!(get(&m1, &["deployment", "gone"]).is_none(), "the propagated copy is removed");
    let kept = get(&m1, &["deployment", "kept"]).expect("preserveResourcesOnDeletion keeps the copy");
    assert_eq!(kept["metadata"]["uid"], kept_uid);
    for binding in ["gone-deployment", "kept-deployment"] {
        let rb = get(&plane, &["resourcebinding", binding, "-n", "default"]).unwrap();
        assert!(rb["spec"]["clusters"].as_array().is_none_or(Vec::is_empty), "{binding}: {}", rb["spec"]);
    }

    // A member that is down cannot be cleaned: unjoin finishes and its copy is left.
    m2.stop();
    converge("member2 to turn NotReady", || ready(&plane, "member2").as_deref() == Some("False"));
    let out = unjoin(&plane, "member2", None, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "cluster.cluster.karmada.io \"member2\" deleted\n");
    assert!(get(&plane, &["cluster", "member2"]).is_none());
    let rb = get(&plane, &["resourcebinding", "stays-deployment", "-n", "default"]).unwrap();
    assert!(rb["spec"]["clusters"].as_array().is_none_or(Vec::is_empty), "{}", rb["spec"]);
    m2.restart();
    let stays = get(&m2, &["deployment", "stays"]).expect("the unreachable member's copy is left");
    assert_eq!(stays["metadata"]["labels"]["karmada.io/managed"], "true");
}
