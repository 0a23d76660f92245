//! `controlplane serve --datastore etcd://` end to end: real etcd members, the real binary,
//! real kubectl. Objects, lists, watches and their resumption, and 410 Gone after compaction
//! all come from etcd.
#![cfg(feature = "etcd")]

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use crate::common;
use crate::common::etcd::{EtcdCluster, TlsFiles};
use crate::common::plane::Plane;
use serde_json::Value;

/// How long to wait for something that should happen at once (a watch line, a compaction).
const PATIENCE: Duration = Duration::from_secs(60);

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn rv(plane: &Plane, kind_name: &str) -> i64 {
    let out = plane.kubectl_ok(&["get", kind_name, "-o", "jsonpath={.metadata.resourceVersion}"]);
    out.trim().parse().unwrap_or_else(|_| panic!("resourceVersion of {kind_name}: {out:?}"))
}

/// The watch events of a raw watch request that ends by itself (`timeoutSeconds`).
fn raw_watch(plane: &Plane, query: &str) -> Vec<Value> {
    let path = format!("/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=2&{query}");
    let out = plane.kubectl_ok(&["get", "--raw", &path]);
    serde_json::Deserializer::from_str(&out).into_iter::<Value>().map(|v| v.expect("a JSON watch event")).collect()
}

fn summary(events: &[Value]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap_or("").to_string(),
                e["object"]["metadata"]["name"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn kubectl_on_etcd_creates_lists_watches_and_gets_gone_after_compaction() {
    let cluster = EtcdCluster::start(3);
    let plane = Plane::start_with(&["--datastore", &cluster.datastore()]);
    assert!(!plane.data_dir.join("state.db").exists(), "objects go to etcd, not to SQLite");

    plane.kubectl_ok(&["create", "configmap", "a", "--from-literal=k=1"]);
    let rv_a = rv(&plane, "configmap/a");
    plane.kubectl_ok(&["create", "configmap", "b", "--from-literal=k=1"]);
    plane.kubectl_ok(&["label", "configmap", "a", "step=two"]);
    plane.kubectl_ok(&["delete", "configmap", "b"]);
    plane.kubectl_ok(&["create", "configmap", "c", "--from-literal=k=1"]);

    // The object is in etcd under kube-apiserver's key layout, and its resourceVersion is
    // etcd's mod_revision.
    let latest = rv(&plane, "configmap/c");
    let raw =
        cluster.gateway("/v3/kv/range", &format!(r#"{{"key":"{}"}}"#, b64("/registry/core/configmaps/default/c")));
    assert_eq!(json(&raw)["kvs"][0]["mod_revision"].as_str(), Some(latest.to_string().as_str()), "{raw}");

    // List: what is live, at a resourceVersion no older than the last write.
    let list = json(&plane.kubectl_ok(&["get", "--raw", "/api/v1/namespaces/default/configmaps"]));
    let names: Vec<&str> =
        list["items"].as_array().unwrap().iter().filter_map(|i| i["metadata"]["name"].as_str()).collect();
    assert_eq!(names, ["a", "c"]);
    let list_rv: i64 = list["metadata"]["resourceVersion"].as_str().unwrap().parse().unwrap();
    assert!(list_rv >= latest, "list at {list_rv}, last write at {latest}");

    // A watch resumed from a's creation replays what happened after it, in order.
    let events = raw_watch(&plane, &format!("resourceVersion={rv_a}"));
    let want: Vec<(String, String)> =
        [("ADDED", "b"), ("MODIFIED", "a"), ("DELETED", "b"), ("ADDED", "c")].map(|(t, n)| (t.into(), n.into())).into();
    assert_eq!(summary(&events), want);
    assert_eq!(events[1]["object"]["metadata"]["labels"]["step"], "two");

    // kubectl's own watch sees a live change.
    let mut watch = plane.kubectl();
    watch.args(["get", "configmaps", "--watch-only", "-o", "name"]);
    let mut child = watch.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("kubectl get --watch");
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // Keep writing until the watch (which may still be connecting) reports a change.
    let mut seen = None;
    for i in 0..30 {
        plane.kubectl_ok(&["label", "configmap", "c", &format!("round={i}"), "--overwrite"]);
        if let Ok(line) = rx.recv_timeout(PATIENCE / 30) {
            seen = Some(line);
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(seen.as_deref(), Some("configmap/c"));

    // Another etcd client compacts history past a's creation: resuming from there is 410.
    let now = rv(&plane, "configmap/c");
    cluster.compact(now);
    let events = raw_watch(&plane, &format!("resourceVersion={rv_a}"));
    assert_eq!(events.len(), 1, "one ERROR event: {events:?}");
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(events[0]["object"]["code"], 410);
    assert_eq!(events[0]["object"]["reason"], "Expired");
    let exact = plane.kubectl_run(&[
        "get",
        "--raw",
        &format!("/api/v1/namespaces/default/configmaps?resourceVersion={rv_a}&resourceVersionMatch=Exact"),
    ]);
    assert_ne!(exact.code, 0);
    assert!(exact.stderr.contains("Expired") || exact.stderr.contains("410"), "{}", exact.stderr);
    // From the compacted revision on, watching works.
    plane.kubectl_ok(&["create", "configmap", "d"]);
    let events = raw_watch(&plane, &format!("resourceVersion={now}"));
    assert_eq!(summary(&events), [("ADDED".to_string(), "d".to_string())]);
}

/// The plane's own compactor compacts etcd once the watch history window has passed.
#[test]
fn the_compactor_compacts_etcd() {
    let cluster = EtcdCluster::start(1);
    let plane = Plane::start_with(&["--datastore", &cluster.datastore(), "--watch-history", "1s"]);
    plane.kubectl_ok(&["create", "configmap", "early"]);
    let early = rv(&plane, "configmap/early");
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        // A write per round gives the compactor newer revisions to keep.
        plane.kubectl_ok(&["label", "configmap", "early", "tick=x", "--overwrite"]);
        let events = raw_watch(&plane, &format!("resourceVersion={}", early - 1));
        if events.first().is_some_and(|e| e["type"] == "ERROR") {
            assert_eq!(events[0]["object"]["code"], 410);
            break;
        }
        assert!(std::time::Instant::now() < deadline, "history before {early} was never compacted");
        std::thread::sleep(Duration::from_millis(500));
    }
    // etcd itself refuses reads below the compaction now.
    let (status, raw) =
        cluster.gateway_status("/v3/kv/range", &format!(r#"{{"key":"{}","revision":"{}"}}"#, b64("x"), early - 1));
    assert_ne!(status, 200);
    assert!(raw.contains("compacted"), "{raw}");
}

fn b64(s: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// `--etcd-cafile/--etcd-certfile/--etcd-keyfile` reach an etcd that demands client
/// certificates.
#[test]
fn serve_on_etcd_with_client_certificates() {
    let files = TlsFiles::new();
    let cluster = EtcdCluster::start_with(1, Some(&files));
    let path = |p: &std::path::Path| p.to_str().expect("UTF-8 temp path").to_string();
    let plane = Plane::start_with(&[
        "--datastore",
        &cluster.datastore(),
        "--etcd-cafile",
        &path(&files.ca),
        "--etcd-certfile",
        &path(&files.client_cert),
        "--etcd-keyfile",
        &path(&files.client_key),
    ]);
    plane.kubectl_ok(&["create", "configmap", "over-tls", "--from-literal=k=v"]);
    assert_eq!(plane.kubectl_ok(&["get", "configmap", "over-tls", "-o", "jsonpath={.data.k}"]), "v");
}

/// Bad datastore flags are usage errors, and an etcd nobody answers at fails the start with a
/// hint, never a hang.
#[test]
fn bad_datastore_flags_and_unreachable_etcd_are_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("plane");
    let serve = |extra: &[&str]| {
        let mut args = vec!["controlplane", "serve", "--data-dir", data.to_str().unwrap(), "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        common::karmadactl_run(&args)
    };
    let bogus = serve(&["--datastore", "postgres://db:5432"]);
    assert_eq!(bogus.code, 1, "{}", bogus.stderr);
    assert!(bogus.stderr.contains("invalid --datastore: unknown datastore \"postgres://db:5432\""), "{}", bogus.stderr);
    let no_port = serve(&["--datastore", "etcd://etcd-1"]);
    assert_eq!(no_port.code, 1, "{}", no_port.stderr);
    assert!(no_port.stderr.contains("\"etcd-1\" is not host:port"), "{}", no_port.stderr);
    let stray = serve(&["--etcd-cafile", "/nonexistent/ca.crt"]);
    assert_eq!(stray.code, 1, "{}", stray.stderr);
    assert!(stray.stderr.contains("the --etcd-* flags need an etcd datastore"), "{}", stray.stderr);

    // A port nothing listens on: bound and released.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let down = serve(&["--datastore", &format!("etcd://127.0.0.1:{port}")]);
    assert_eq!(down.code, 1, "{}", down.stderr);
    assert!(down.stderr.contains("the store could not be opened"), "{}", down.stderr);
    assert!(down.stderr.contains("check that etcd is reachable"), "{}", down.stderr);
}

/// Two replicas on one etcd: both serve the API; the controllers run on the holder of the
/// controller Lease, and when the holder dies the other replica takes the lease and the
/// controllers over.
#[test]
fn replicas_share_etcd_and_hand_over_the_controllers() {
    let cluster = EtcdCluster::start(3);
    let datastore = cluster.datastore();
    let common_flags = ["--datastore", &datastore, "--leader-elect-lease-duration", "2s"];
    let first = Plane::start_with(&common_flags);
    let pki = first.data_dir.join("pki");
    let mut flags = common_flags.to_vec();
    flags.extend(["--pki-dir", pki.to_str().unwrap()]);
    let second = Plane::start_with(&flags);

    // Both serve the same objects.
    first.kubectl_ok(&["create", "configmap", "shared", "--from-literal=k=v"]);
    assert_eq!(second.kubectl_ok(&["get", "configmap", "shared", "-o", "jsonpath={.data.k}"]), "v");

    let holder = |plane: &Plane| {
        let run = plane.kubectl_run(&[
            "get",
            "lease",
            "-n",
            "kube-system",
            "karmadactl-controlplane",
            "-o",
            "jsonpath={.spec.holderIdentity} {.spec.leaseTransitions}",
        ]);
        let text = if run.code == 0 { run.stdout } else { String::new() };
        let (who, transitions) = text.split_once(' ').unwrap_or(("", ""));
        (who.to_string(), transitions.parse::<i64>().unwrap_or(-1))
    };
    let wait_for_holder = |plane: &Plane, want: &dyn Fn(&str) -> bool| {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let (who, transitions) = holder(plane);
            if want(&who) {
                return (who, transitions);
            }
            assert!(std::time::Instant::now() < deadline, "the lease never got the expected holder; last {who:?}");
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    let address = |plane: &Plane| plane.url.trim_start_matches("https://").to_string();
    let (who, _) = wait_for_holder(&first, &|who| !who.is_empty());
    let (mut leader, survivor) = if who.ends_with(&format!("_{}", address(&first))) {
        (first, second)
    } else {
        assert!(who.ends_with(&format!("_{}", address(&second))), "the holder {who:?} is neither replica");
        (second, first)
    };

    // The controllers run (on the leader): a namespace deleted through the other replica is
    // finalized and goes away.
    let namespace_goes_away = |plane: &Plane, name: &str| {
        plane.kubectl_ok(&["create", "namespace", name]);
        plane.kubectl_ok(&["delete", "namespace", name, "--wait=false"]);
        let deadline = std::time::Instant::now() + PATIENCE;
        while plane.kubectl_run(&["get", "namespace", name]).code == 0 {
            assert!(std::time::Instant::now() < deadline, "namespace {name} was never finalized");
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    namespace_goes_away(&survivor, "before-handover");

    // The leader dies; the survivor takes the lease over and runs the controllers itself.
    leader.kill9();
    let mine = format!("_{}", address(&survivor));
    let (_, transitions) = wait_for_holder(&survivor, &|who| who.ends_with(&mine));
    assert!(transitions >= 1, "a takeover counts as a lease transition, got {transitions}");
    namespace_goes_away(&survivor, "after-handover");
    assert_eq!(survivor.kubectl_ok(&["get", "configmap", "shared", "-o", "jsonpath={.data.k}"]), "v");
}
