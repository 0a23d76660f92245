//! Cluster failover benchmark: 1,000 workloads Divided over three simulated members (two
//! replicas each); one member's process is killed, and the clock runs until every workload's six
//! replicas are on the other two. The plane runs with cluster failover on (the `Failover` gate,
//! `--enable-no-execute-taint-eviction`), a ClusterTaintPolicy that adds
//! `cluster.karmada.io/not-ready:NoExecute` when Ready is not True, and the policy tolerates that
//! taint for `TOLERATION` seconds. Printed beside the total: when the plane saw the member fail
//! (its probes), the configured toleration, and what is left — eviction, rescheduling and the
//! writes to the two members — with the limit measured in the same run: the same number of
//! objects written straight into one member. For that last phase it also prints the CPU the plane
//! and the surviving members spent (whether the phase waits on the cores or on itself) and the
//! plane's writes by verb, resource and code, from its `/metrics`.
//!
//! The workloads are a CRD kind that a Lua customization teaches (replicas at `spec.size`), so the
//! members' workload simulation does not add 6,000 pretend pods: the figure is the plane's.
//!
//! Run with `cargo bench --bench failover` with the machine quiet; prints a Markdown section for
//! docs/performance.md.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;
#[path = "common/process.rs"]
mod process;
use process::{bin, cpu_seconds, run};
#[path = "common/plane_metrics.rs"]
mod plane_metrics;
use plane_metrics::writes;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use kube::runtime::{WatchStreamExt, watcher};
use serde_json::{Value, json};

const WORKLOADS: usize = 1000;
/// Replicas per workload: two on each of three members, three on each of two.
const SIZE: i64 = 6;
/// How long the policy tolerates the NoExecute taint of a failed member.
const TOLERATION: u64 = 10;
const IN_FLIGHT: usize = 16;
const MEMBERS: [&str; 3] = ["member1", "member2", "member3"];

fn gvr(group: &str, version: &str, kind: &str, plural: &str) -> ApiResource {
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, kind), plural)
}

fn workloads() -> ApiResource {
    gvr("example.io", "v1", "Workload", "workloads")
}

fn crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "workloads.example.io"},
        "spec": {"group": "example.io", "scope": "Namespaced",
                 "names": {"kind": "Workload", "plural": "workloads", "singular": "workload", "listKind": "WorkloadList"},
                 "versions": [{"name": "v1", "served": true, "storage": true,
                               "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}
    })
}

fn customization() -> Value {
    let rule = |s: &str| json!({"luaScript": s});
    json!({
        "apiVersion": "config.karmada.io/v1alpha1", "kind": "ResourceInterpreterCustomization",
        "metadata": {"name": "workload"},
        "spec": {"target": {"apiVersion": "example.io/v1", "kind": "Workload"}, "customizations": {
            "replicaResource": rule("function GetReplicas(obj)\n  return obj.spec.size, {}\nend"),
            "replicaRevision": rule("function ReviseReplica(obj, n)\n  obj.spec.size = n\n  return obj\nend"),
        }}
    })
}

fn taint_policy() -> Value {
    json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterTaintPolicy",
        "metadata": {"name": "not-ready"},
        "spec": {
            "addOnConditions": [{"conditionType": "Ready", "operator": "NotIn", "statusValues": ["True"]}],
            "removeOnConditions": [{"conditionType": "Ready", "operator": "In", "statusValues": ["True"]}],
            "taints": [{"key": "cluster.karmada.io/not-ready", "effect": "NoExecute"}]
        }
    })
}

fn policy() -> Value {
    let weight = |c: &str| json!({"targetCluster": {"clusterNames": [c]}, "weight": 1});
    json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
        "metadata": {"name": "workloads", "namespace": "default"},
        "spec": {"resourceSelectors": [{"apiVersion": "example.io/v1", "kind": "Workload"}],
                 "placement": {
                     "clusterAffinity": {"clusterNames": MEMBERS},
                     "clusterTolerations": [{"key": "cluster.karmada.io/not-ready", "operator": "Exists",
                                             "effect": "NoExecute", "tolerationSeconds": TOLERATION}],
                     "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
                         "weightPreference": {"staticWeightList": MEMBERS.iter().map(|m| weight(m)).collect::<Vec<_>>()}}}}
    })
}

fn workload(name: &str) -> Value {
    json!({"apiVersion": "example.io/v1", "kind": "Workload", "metadata": {"name": name, "namespace": "default"},
           "spec": {"size": SIZE}})
}

async fn client(kubeconfig: &Path, context: Option<&str>) -> kube::Client {
    let kc = kube::config::Kubeconfig::read_from(kubeconfig).unwrap();
    let opts = kube::config::KubeConfigOptions { context: context.map(str::to_string), ..Default::default() };
    kube::Client::try_from(kube::Config::from_custom_kubeconfig(kc, &opts).await.unwrap()).unwrap()
}

async fn create(api: &Api<DynamicObject>, object: Value) {
    let object: DynamicObject = serde_json::from_value(object).unwrap();
    api.create(&PostParams::default(), &object).await.expect("create");
}

async fn create_all(api: &Api<DynamicObject>, objects: Vec<Value>) -> Duration {
    let start = Instant::now();
    futures::stream::iter(objects).for_each_concurrent(IN_FLIGHT, |o| create(api, o)).await;
    start.elapsed()
}

/// The plane in the foreground of a child process, with failover on and fast probes; its
/// admin kubeconfig.
fn start_plane(home: &Path) -> (Child, PathBuf) {
    let data = home.join("plane");
    let mut child = Command::new(bin())
        .args(["controlplane", "serve", "--listen", "127.0.0.1:0", "--data-dir", data.to_str().unwrap()])
        .args(["--feature-gates", "Failover=true", "--enable-no-execute-taint-eviction"])
        .args(["--resource-eviction-rate", "10000"])
        .args(["--cluster-status-update-frequency", "1s", "--cluster-failure-threshold", "0s"])
        .env("HOME", home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the plane starts");
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
    assert!(url.starts_with("https://"), "the plane printed its URL: {url:?}");
    (child, data.join("admin.kubeconfig"))
}

/// A simulated member (one node) joined in Push mode: its kubeconfig and pid.
fn start_member(home: &Path, plane: &Path, name: &str) -> (PathBuf, u32) {
    let data = home.join(name);
    let out = run(
        home,
        &["local", "member", "start", name, "--nodes", "1", "--data-dir", data.to_str().unwrap(), "-o", "json"],
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().unwrap());
    let pid = v["pid"].as_u64().expect("local member start reports its pid") as u32;
    run(
        home,
        &["join", name, "--kubeconfig", plane.to_str().unwrap(), "--cluster-kubeconfig", kubeconfig.to_str().unwrap()],
    );
    (kubeconfig, pid)
}

/// The size each member last showed for each workload.
type Sizes = Arc<Mutex<HashMap<(usize, String), i64>>>;

fn follow(index: usize, member: kube::Client, sizes: Sizes) {
    tokio::spawn(async move {
        let api: Api<DynamicObject> = Api::namespaced_with(member, "default", &workloads());
        let mut events = watcher(api, watcher::Config::default()).applied_objects().boxed();
        while let Ok(Some(o)) = events.try_next().await {
            let size = o.data["spec"]["size"].as_i64().unwrap_or(0);
            sizes.lock().unwrap().insert((index, o.metadata.name.unwrap_or_default()), size);
        }
    });
}

/// Waits until `done` holds for every workload; the time it took from `since`.
async fn until(sizes: &Sizes, since: Instant, what: &str, done: impl Fn(&[i64]) -> bool) -> Duration {
    let deadline = Instant::now() + Duration::from_secs(900);
    loop {
        let met = {
            let s = sizes.lock().unwrap();
            (0..WORKLOADS)
                .filter(|i| {
                    let name = format!("w-{i}");
                    let per: Vec<i64> = (0..MEMBERS.len()).map(|m| *s.get(&(m, name.clone())).unwrap_or(&0)).collect();
                    done(&per)
                })
                .count()
        };
        if met == WORKLOADS {
            return since.elapsed();
        }
        assert!(Instant::now() < deadline, "{what}: {met} of {WORKLOADS}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// When the plane first marks the cluster not Ready, from the moment the member died.
async fn not_ready_after(plane: &kube::Client, name: &str, since: Instant) -> Duration {
    let clusters: Api<DynamicObject> =
        Api::all_with(plane.clone(), &gvr("cluster.karmada.io", "v1alpha1", "Cluster", "clusters"));
    loop {
        let c = clusters.get(name).await.unwrap();
        let ready = c.data["status"]["conditions"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["type"] == "Ready"))
            .map(|c| c["status"] == "True")
            .unwrap_or(false);
        if !ready {
            return since.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let (mut plane_process, plane_kubeconfig) = start_plane(home.path());
    let members: Vec<(PathBuf, u32)> =
        MEMBERS.iter().map(|m| start_member(home.path(), &plane_kubeconfig, m)).collect();
    let plane_pid = plane_process.id();
    let survivors: Vec<u32> = members[1..].iter().map(|(_, pid)| *pid).collect();
    let cpu = move || (cpu_seconds(plane_pid), survivors.iter().map(|p| cpu_seconds(*p)).sum::<f64>());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (spread, detect, moved, direct, phase_cpu, phase_writes) = rt.block_on(async {
        let plane = client(&plane_kubeconfig, None).await;
        let mut member_clients = vec![];
        for (k, _) in &members {
            member_clients.push(client(k, None).await);
        }
        let crds = gvr("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions");
        for c in std::iter::once(&plane).chain(&member_clients) {
            create(&Api::all_with(c.clone(), &crds), crd()).await;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let all = |r: ApiResource| Api::<DynamicObject>::all_with(plane.clone(), &r);
        create(
            &all(gvr(
                "config.karmada.io",
                "v1alpha1",
                "ResourceInterpreterCustomization",
                "resourceinterpretercustomizations",
            )),
            customization(),
        )
        .await;
        create(
            &all(gvr("policy.karmada.io", "v1alpha1", "ClusterTaintPolicy", "clustertaintpolicies")),
            taint_policy(),
        )
        .await;
        let pp = Api::namespaced_with(
            plane.clone(),
            "default",
            &gvr("policy.karmada.io", "v1alpha1", "PropagationPolicy", "propagationpolicies"),
        );
        create(&pp, policy()).await;

        let sizes: Sizes = Arc::default();
        for (i, c) in member_clients.iter().enumerate() {
            follow(i, c.clone(), sizes.clone());
        }
        let api = Api::namespaced_with(plane.clone(), "default", &workloads());
        let started = Instant::now();
        create_all(&api, (0..WORKLOADS).map(|i| workload(&format!("w-{i}"))).collect()).await;
        let spread = until(&sizes, started, "spread over three members", |p| p == [2, 2, 2]).await;

        // The failure: member1's server dies without warning.
        let killed = Instant::now();
        let _ = Command::new("kill").args(["-9", &members[0].1.to_string()]).status();
        let detect = not_ready_after(&plane, "member1", killed).await;
        // The CPU the plane and the two surviving members spend from the end of the toleration
        // until the last workload has moved: whether that phase waits on the cores or on itself.
        let phase_start = killed + detect + Duration::from_secs(TOLERATION);
        tokio::time::sleep_until(phase_start.into()).await;
        let at_start = cpu();
        let writes_before = writes(&plane).await;
        let moved = until(&sizes, killed, "moved to member2 and member3", |p| p[1] + p[2] == SIZE).await;
        let at_end = cpu();
        let phase_cpu = (at_end.0 - at_start.0, at_end.1 - at_start.1);
        let phase_writes = plane_metrics::since(&writes_before, writes(&plane).await);

        // The limit: the same number of objects written straight into a surviving member.
        let direct_api = Api::namespaced_with(member_clients[1].clone(), "default", &workloads());
        let direct = create_all(&direct_api, (0..WORKLOADS).map(|i| workload(&format!("direct-{i}"))).collect()).await;
        (spread, detect, moved, direct, phase_cpu, phase_writes)
    });
    drop(rt);
    let _ = plane_process.kill();
    let _ = plane_process.wait();
    for m in &MEMBERS[1..] {
        let data = home.path().join(m);
        let _ = Command::new(bin())
            .args(["local", "member", "stop", m, "--data-dir", data.to_str().unwrap()])
            .env("HOME", home.path())
            .output();
    }

    let s = |d: Duration| d.as_secs_f64();
    let rest = s(moved) - s(detect) - TOLERATION as f64;
    println!("### Cluster failover: {WORKLOADS} workloads Divided over 3 members, one member killed, {}", machine());
    println!();
    println!("| measure | time | limit in the same run |");
    println!("|---|---|---|");
    println!("| spread: created until every workload has 2 replicas on each member | {:.1} s | — |", s(spread));
    println!("| member killed → plane marks it not Ready (1 s probes) | {:.2} s | — |", s(detect));
    println!("| configured toleration of `not-ready:NoExecute` | {TOLERATION} s | — |");
    println!(
        "| member killed → every workload's {SIZE} replicas on the two others | {:.1} s (toleration + {:.1} s) | {WORKLOADS} creates straight into one member: {:.1} s |",
        s(moved),
        s(moved) - TOLERATION as f64,
        s(direct)
    );
    println!("| of which eviction, rescheduling and member writes | {rest:.1} s | — |");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    println!(
        "| CPU in that phase: plane, the two members | {:.1} s, {:.1} s ({:.0}% of {cores} cores) | {cores} cores × {rest:.1} s |",
        phase_cpu.0,
        phase_cpu.1,
        100.0 * (phase_cpu.0 + phase_cpu.1) / (cores * rest.max(0.001)),
    );
    let total: u64 = phase_writes.iter().map(|(_, n)| n).sum();
    println!();
    println!("Writes to the plane in that phase: {total} ({:.1} per workload)", total as f64 / WORKLOADS as f64);
    println!();
    for (labels, n) in phase_writes {
        println!("- {labels}: {n}");
    }
}
