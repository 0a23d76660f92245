//! `karmadactl cordon`, `uncordon` and `taint` against a real Karmada plane, judged with real
//! kubectl: the taints they add, change and remove, upstream's messages, dry runs, refusals
//! that leave every cluster as it was, selection by label and `--all`, and concurrent runs that
//! must not lose each other's taints.

use crate::common;
use crate::common::Run;
use crate::common::plane::Plane;
use serde_json::{Value, json};

const CORDON: &str = "cluster.karmada.io/unschedulable";

fn karmadactl(plane: &Plane, args: &[&str]) -> Run {
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.args(args).arg("--kubeconfig").arg(&plane.kubeconfig);
    common::run(cmd)
}

fn ok(plane: &Plane, args: &[&str]) -> String {
    let out = karmadactl(plane, args);
    assert_eq!(out.code, 0, "karmadactl {args:?} failed:\nstdout: {}\nstderr: {}", out.stdout, out.stderr);
    out.stdout
}

/// Asserts a refusal: exit 1, nothing on stdout, `error: <message>` and a hint on stderr.
fn refused(plane: &Plane, args: &[&str], message: &str) {
    let out = karmadactl(plane, args);
    assert_eq!(out.code, 1, "karmadactl {args:?} should fail:\nstdout: {}\nstderr: {}", out.stdout, out.stderr);
    assert!(out.stdout.is_empty(), "{args:?} printed data on failure: {}", out.stdout);
    assert!(out.stderr.starts_with(&format!("error: {message}")), "{args:?}: {}", out.stderr);
    assert!(out.stderr.lines().any(|l| l.starts_with("hint: ")), "{args:?} has no hint: {}", out.stderr);
}

/// A Push-mode Cluster with labels and taints, created with kubectl. Its endpoint is
/// unreachable; the cluster controller only records that in the status.
fn cluster(plane: &Plane, name: &str, labels: Value, taints: Value) {
    plane.create(
        &json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": name, "labels": labels},
                "spec": {"syncMode": "Push", "apiEndpoint": "https://127.0.0.1:1", "taints": taints}})
        .to_string(),
    );
}

/// Taints Karmada's cluster controller puts on a cluster it cannot reach (these test clusters
/// are unreachable); they are the controller's business, not the commands', so the checks
/// leave them out.
const SYSTEM_TAINTS: [&str; 2] = ["cluster.karmada.io/not-ready", "cluster.karmada.io/unreachable"];

/// The Cluster's taints as kubectl reads them (`[]` when there are none), without
/// [`SYSTEM_TAINTS`].
fn taints(plane: &Plane, name: &str) -> Value {
    let out = plane.kubectl_ok(&["get", "cluster", name, "-o", "jsonpath={.spec.taints}"]);
    if out.trim().is_empty() {
        return json!([]);
    }
    let all: Vec<Value> = serde_json::from_str(&out).expect("kubectl prints the taints as JSON");
    Value::Array(all.into_iter().filter(|t| !SYSTEM_TAINTS.contains(&t["key"].as_str().unwrap_or_default())).collect())
}

fn taint(key: &str, value: Option<&str>, effect: &str) -> Value {
    match value {
        Some(v) => json!({"key": key, "value": v, "effect": effect}),
        None => json!({"key": key, "effect": effect}),
    }
}

fn cordon_taint() -> Value {
    taint(CORDON, None, "NoSchedule")
}

#[test]
fn cordon_and_uncordon_touch_only_the_unschedulable_taint() {
    let plane = Plane::start();
    let dedicated = taint("dedicated", Some("gpu"), "NoSchedule");
    cluster(&plane, "member1", json!({}), json!([dedicated]));

    // A dry run prints upstream's line and changes nothing.
    assert_eq!(ok(&plane, &["cordon", "member1", "--dry-run"]), "member1 cluster cordoned\n");
    assert_eq!(taints(&plane, "member1"), json!([dedicated]));

    assert_eq!(ok(&plane, &["cordon", "member1"]), "member1 cluster cordoned\n");
    assert_eq!(taints(&plane, "member1"), json!([dedicated, cordon_taint()]));
    assert_eq!(ok(&plane, &["cordon", "member1"]), "member1 cluster already cordoned\n");
    assert_eq!(taints(&plane, "member1"), json!([dedicated, cordon_taint()]));

    assert_eq!(ok(&plane, &["uncordon", "member1", "--dry-run"]), "member1 cluster uncordoned\n");
    assert_eq!(taints(&plane, "member1"), json!([dedicated, cordon_taint()]));
    assert_eq!(ok(&plane, &["uncordon", "member1"]), "member1 cluster uncordoned\n");
    assert_eq!(taints(&plane, "member1"), json!([dedicated]));
    assert_eq!(ok(&plane, &["uncordon", "member1"]), "member1 cluster already uncordoned\n");
    assert_eq!(taints(&plane, "member1"), json!([dedicated]));

    // A cluster without taints: the list appears, and goes again with the last taint.
    cluster(&plane, "bare", json!({}), Value::Null);
    assert_eq!(ok(&plane, &["cordon", "bare"]), "bare cluster cordoned\n");
    assert_eq!(taints(&plane, "bare"), json!([cordon_taint()]));
    assert_eq!(ok(&plane, &["uncordon", "bare"]), "bare cluster uncordoned\n");
    assert_eq!(taints(&plane, "bare"), json!([]));
}

#[test]
fn unknown_clusters_are_named_and_nothing_changes() {
    let plane = Plane::start();
    cluster(&plane, "member1", json!({}), json!([taint("a", None, "NoSchedule")]));
    let not_found = "clusters.cluster.karmada.io \"nope\" not found\n";
    refused(&plane, &["cordon", "nope"], not_found);
    refused(&plane, &["uncordon", "nope"], not_found);
    refused(&plane, &["taint", "clusters", "nope", "b:NoSchedule"], not_found);
    // One unknown name among known ones: the known one is left alone too.
    refused(
        &plane,
        &["taint", "clusters", "member1", "nope", "nope2", "b:NoSchedule"],
        "[clusters.cluster.karmada.io \"nope\" not found, clusters.cluster.karmada.io \"nope2\" not found]",
    );
    assert_eq!(taints(&plane, "member1"), json!([taint("a", None, "NoSchedule")]));
}

#[test]
fn taint_adds_overwrites_and_removes_by_key_and_by_key_and_effect() {
    let plane = Plane::start();
    let keep = taint("keep", Some("me"), "NoSchedule");
    cluster(&plane, "member1", json!({}), json!([keep]));

    // Every effect, and every resource spelling.
    assert_eq!(ok(&plane, &["taint", "clusters", "member1", "k=v1:NoSchedule"]), "cluster/member1 tainted\n");
    assert_eq!(ok(&plane, &["taint", "cluster", "member1", "k:PreferNoSchedule"]), "cluster/member1 tainted\n");
    assert_eq!(
        ok(&plane, &["taint", "clusters.cluster.karmada.io", "member1", "k=x:NoExecute"]),
        "cluster/member1 tainted\n"
    );
    assert_eq!(
        taints(&plane, "member1"),
        json!([
            taint("k", Some("x"), "NoExecute"),
            taint("k", None, "PreferNoSchedule"),
            taint("k", Some("v1"), "NoSchedule"),
            keep
        ])
    );

    // A new value for an existing key and effect needs --overwrite.
    refused(
        &plane,
        &["taint", "clusters", "member1", "k=v2:NoSchedule"],
        "cluster member1 already has k taint(s) with same effect(s) and --overwrite is false\n",
    );
    assert_eq!(taints(&plane, "member1")[2], taint("k", Some("v1"), "NoSchedule"));
    assert_eq!(
        ok(&plane, &["taint", "clusters", "member1", "k=v2:NoSchedule", "--overwrite"]),
        "cluster/member1 modified\n"
    );
    let now = taints(&plane, "member1");
    assert_eq!(now.as_array().unwrap().len(), 4);
    assert!(now.as_array().unwrap().contains(&taint("k", Some("v2"), "NoSchedule")), "{now}");
    assert!(!now.as_array().unwrap().contains(&taint("k", Some("v1"), "NoSchedule")), "{now}");

    // Dry runs print the result word and change nothing.
    assert_eq!(
        ok(&plane, &["taint", "clusters", "member1", "k:NoSchedule-", "--dry-run"]),
        "cluster/member1 untainted\n"
    );
    assert_eq!(taints(&plane, "member1"), now);

    // key:effect- removes that one; key- removes every effect of the key.
    assert_eq!(ok(&plane, &["taint", "clusters", "member1", "k:NoSchedule-"]), "cluster/member1 untainted\n");
    let left = taints(&plane, "member1");
    assert_eq!(left, json!([taint("k", Some("x"), "NoExecute"), taint("k", None, "PreferNoSchedule"), keep]));
    // Adding one and removing another in the same command is "modified".
    assert_eq!(ok(&plane, &["taint", "clusters", "member1", "n:NoExecute", "k-"]), "cluster/member1 modified\n");
    assert_eq!(taints(&plane, "member1"), json!([taint("n", None, "NoExecute"), keep]));

    // A removal that matches nothing is kubectl's error, and nothing changes.
    refused(&plane, &["taint", "clusters", "member1", "k-"], "taint \"k\" not found\n");
    refused(&plane, &["taint", "clusters", "member1", "n:NoSchedule-"], "taint \"n:NoSchedule\" not found\n");
    refused(
        &plane,
        &["taint", "clusters", "member1", "z=1:NoSchedule", "n:NoSchedule-"],
        "taint \"n:NoSchedule\" not found\n",
    );
    assert_eq!(taints(&plane, "member1"), json!([taint("n", None, "NoExecute"), keep]));
}

#[test]
fn invalid_taint_commands_are_refused_before_anything_is_sent() {
    let plane = Plane::start();
    let before = json!([taint("a", Some("1"), "NoSchedule")]);
    cluster(&plane, "member1", json!({}), before.clone());
    let cases: &[(&[&str], &str)] = &[
        (&["member1", "k=v:Sometimes"], "invalid taint effect: Sometimes, unsupported taint effect\n"),
        (&["member1", "k=v"], "invalid taint spec: k=v, "),
        (&["member1", "k:NoSchedule:x"], "invalid taint spec: k:NoSchedule:x\n"),
        (&["member1", "bad key:NoSchedule"], "invalid taint spec: bad key:NoSchedule, name part must consist of"),
        (&["member1", "_k:NoSchedule"], "invalid taint spec: _k:NoSchedule, name part must consist of"),
        (&["member1", "k=bad value:NoSchedule"], "invalid taint spec: k=bad value:NoSchedule, a valid label must be"),
        (&["member1", "k=a:NoSchedule", "k=b:NoSchedule"], "duplicated taints with the same key and effect"),
        (
            &["member1", "k=a:NoSchedule", "k-"],
            "can not both modify and remove the following taint(s) in the same command: {\"k\":\"\"}\n",
        ),
        (&["member1", "k:NoSchedule", "member2"], "all resources must be specified before taint changes: member2\n"),
        (&["k:NoSchedule"], "at least one resource name must be specified since 'all' parameter is not set\n"),
        (&["member1"], "at least one taint update is required\n"),
    ];
    for (rest, message) in cases {
        let mut args = vec!["taint", "clusters"];
        args.extend_from_slice(rest);
        refused(&plane, &args, message);
        // The same command with a kubeconfig that does not exist still reports the taint
        // problem: the arguments are checked before the kubeconfig is even read.
        let mut cmd = common::karmadactl(plane.dir.path());
        cmd.args(&args).args(["--kubeconfig", "/nonexistent/kubeconfig"]);
        let out = common::run(cmd);
        assert_eq!(out.code, 1);
        assert!(out.stderr.starts_with(&format!("error: {message}")), "{args:?}: {}", out.stderr);
    }
    refused(
        &plane,
        &["taint", "nodes", "member1", "k:NoSchedule"],
        "invalid resource type nodes, only [\"cluster\" \"clusters\" \"cluster.cluster.karmada.io\" \"clusters.cluster.karmada.io\"] are supported\n",
    );
    refused(
        &plane,
        &["taint", "clusters", "k:NoSchedule", "--all", "-l", "env=prod"],
        "setting 'all' parameter with a non empty selector is prohibited.\n",
    );
    refused(&plane, &["cordon"], "cluster name is required\n");
    refused(&plane, &["uncordon", "a", "b"], "more than one cluster name is not supported\n");
    assert_eq!(taints(&plane, "member1"), before);
}

#[test]
fn taint_picks_clusters_by_label_or_all_and_changes_none_when_one_refuses() {
    let plane = Plane::start();
    cluster(&plane, "prod1", json!({"env": "prod"}), Value::Null);
    cluster(&plane, "prod2", json!({"env": "prod"}), Value::Null);
    cluster(&plane, "dev1", json!({"env": "dev"}), Value::Null);
    let gpu = taint("gpu", Some("yes"), "PreferNoSchedule");

    assert_eq!(
        ok(&plane, &["taint", "clusters", "-l", "env=prod", "gpu=yes:PreferNoSchedule"]),
        "cluster/prod1 tainted\ncluster/prod2 tainted\n"
    );
    assert_eq!(taints(&plane, "prod1"), json!([gpu]));
    assert_eq!(taints(&plane, "prod2"), json!([gpu]));
    assert_eq!(taints(&plane, "dev1"), json!([]));

    // --all with a removal dev1 cannot satisfy: refused for every cluster, none changed.
    refused(&plane, &["taint", "clusters", "--all", "gpu-"], "cluster/dev1: taint \"gpu\" not found\n");
    assert_eq!(taints(&plane, "prod1"), json!([gpu]));
    assert_eq!(taints(&plane, "prod2"), json!([gpu]));

    assert_eq!(
        ok(&plane, &["taint", "clusters", "--all", "maint:NoExecute"]),
        "cluster/dev1 tainted\ncluster/prod1 tainted\ncluster/prod2 tainted\n"
    );
    assert_eq!(taints(&plane, "dev1"), json!([taint("maint", None, "NoExecute")]));
    assert_eq!(taints(&plane, "prod1"), json!([taint("maint", None, "NoExecute"), gpu]));
    assert_eq!(
        ok(&plane, &["taint", "clusters", "-l", "env in (prod)", "gpu-", "maint:NoExecute-"]),
        "cluster/prod1 untainted\ncluster/prod2 untainted\n"
    );
    assert_eq!(taints(&plane, "prod2"), json!([]));
    assert_eq!(taints(&plane, "dev1"), json!([taint("maint", None, "NoExecute")]));

    // A selector that picks nothing changes nothing and says so.
    let out = karmadactl(&plane, &["taint", "clusters", "-l", "env=staging", "x:NoSchedule"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("No resources found"), "{}", out.stderr);
    refused(&plane, &["taint", "clusters", "prod1", "-l", "env=prod", "x:NoSchedule"], "name cannot be provided");
}

/// Runs several karmadactl commands at once and waits for all of them.
fn concurrently(plane: &Plane, commands: &[Vec<String>]) -> Vec<Run> {
    let children: Vec<_> = commands
        .iter()
        .map(|args| {
            let mut cmd = common::karmadactl(plane.dir.path());
            cmd.args(args).arg("--kubeconfig").arg(&plane.kubeconfig);
            cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
            cmd.spawn().expect("karmadactl starts")
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().expect("karmadactl runs");
            Run {
                code: out.status.code().expect("exited normally"),
                stdout: String::from_utf8(out.stdout).unwrap(),
                stderr: String::from_utf8(out.stderr).unwrap(),
            }
        })
        .collect()
}

#[test]
fn concurrent_changes_to_different_taints_are_all_kept() {
    let plane = Plane::start();
    cluster(&plane, "member1", json!({}), json!([taint("base", None, "NoSchedule")]));
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<String>>();
    for round in 0..10 {
        let a = format!("a{round}=x:NoSchedule");
        let b = format!("b{round}=y:NoExecute");
        // Two taint commands for different keys, and a cordon or uncordon, all at once.
        let cordon = if round % 2 == 0 { "cordon" } else { "uncordon" };
        let runs = concurrently(
            &plane,
            &[
                s(&["taint", "clusters", "member1", &a]),
                s(&["taint", "clusters", "member1", &b]),
                s(&[cordon, "member1"]),
            ],
        );
        for run in &runs {
            assert_eq!(run.code, 0, "round {round}: {}", run.stderr);
        }
        let now = taints(&plane, "member1");
        let list = now.as_array().unwrap();
        for (key, value, effect) in [(format!("a{round}"), "x", "NoSchedule"), (format!("b{round}"), "y", "NoExecute")]
        {
            assert!(list.contains(&taint(&key, Some(value), effect)), "round {round}: {key} was lost: {now}");
        }
        assert!(list.contains(&taint("base", None, "NoSchedule")), "round {round}: base was lost: {now}");
        assert_eq!(list.contains(&cordon_taint()), round % 2 == 0, "round {round}: {cordon} was lost: {now}");
        // Every earlier round's taints are still there too.
        assert_eq!(list.len(), 1 + 2 * (round + 1) + usize::from(round % 2 == 0), "round {round}: {now}");
    }
}
