//! Reconcile-engine benchmark, each figure beside a limit measured in the same run:
//! * scheduler throughput (bindings/s) over 100 clusters, in process, beside the cost of only
//!   reading every cluster's labels once per binding (what any placement must at least do);
//! * template → object in a member, p50/p99, at 10 and 200 templates/s with 10 simulated members
//!   (a `local up` playground), beside one direct create into a member (the last hop alone);
//!   the 200/s run lasts `ENGINE_HIGH_SECONDS` (60 by default), and the plane's CPU and writes
//!   per template in it are reported beside their floor (the template's own create);
//! * the plane's RSS with 10 members and the templates of the run.
//!
//! Run with `cargo bench --bench engine`; prints a Markdown section for docs/performance.md.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;
#[path = "common/process.rs"]
mod process;
use process::{cpu_seconds, run};
#[path = "common/plane_metrics.rs"]
mod plane_metrics;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, PostParams};
use kube::runtime::watcher;
use serde_json::json;

use karmadactl_engine::scheduler::{ScheduleInput, WorkloadPeers, schedule};
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::placement::Placement;

const MEMBERS: usize = 10;
const CLUSTERS: usize = 100;
const SCHEDULE_CALLS: usize = 20_000;
const HIGH_RATE: f64 = 200.0;

/// How long the 200 templates/s run lasts.
fn high_seconds() -> usize {
    std::env::var("ENGINE_HIGH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn percentile(mut xs: Vec<Duration>, p: f64) -> Duration {
    xs.sort();
    let i = ((xs.len() as f64 - 1.0) * p).round() as usize;
    xs[i.min(xs.len() - 1)]
}

fn clusters() -> Vec<Arc<Cluster>> {
    (0..CLUSTERS)
        .map(|i| {
            serde_json::from_value(json!({
                "apiVersion": "cluster.karmada.io/v1alpha1",
                "kind": "Cluster",
                "metadata": {"name": format!("c{i:03}"), "labels": {"region": format!("r{}", i % 5), "tier": if i % 2 == 0 { "gold" } else { "silver" }}},
                "spec": {"syncMode": "Push", "region": format!("r{}", i % 5)},
                "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "ClusterReady", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z"}]},
            }))
            .map(Arc::new)
            .expect("a Cluster")
        })
        .collect()
}

/// (name, bindings/s) for each placement, and the label-reading floor in bindings/s.
fn scheduler_throughput() -> (Vec<(&'static str, f64)>, f64) {
    let clusters = clusters();
    let placements: Vec<(&str, Placement)> =
        vec![
        ("Duplicated, label selector (50 of 100)", serde_json::from_value(json!({
            "clusterAffinity": {"labelSelector": {"matchLabels": {"tier": "gold"}}}
        })).unwrap()),
        ("Divided, static weights by region, 100 replicas", serde_json::from_value(json!({
            "clusterAffinity": {"labelSelector": {"matchExpressions": [{"key": "region", "operator": "Exists"}]}},
            "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
                "weightPreference": {"staticWeightList": [
                    {"targetCluster": {"labelSelector": {"matchLabels": {"region": "r0"}}}, "weight": 3},
                    {"targetCluster": {"labelSelector": {"matchLabels": {"region": "r1"}}}, "weight": 1}
                ]}}
        })).unwrap()),
    ];
    let mut out = vec![];
    for (name, placement) in &placements {
        let replicas = if name.starts_with("Divided") { 100 } else { 0 };
        let start = Instant::now();
        for _ in 0..SCHEDULE_CALLS {
            let input = ScheduleInput {
                placement,
                replicas,
                replica_requirements: None,
                clusters: &clusters,
                previous: &[],
                mode: Default::default(),
                evicting: &[],
                peers: &WorkloadPeers::default(),
            };
            std::hint::black_box(schedule(&input).expect("schedulable"));
        }
        out.push((*name, SCHEDULE_CALLS as f64 / start.elapsed().as_secs_f64()));
    }
    let start = Instant::now();
    let mut n = 0usize;
    for _ in 0..SCHEDULE_CALLS {
        for c in &clusters {
            n += usize::from(c.metadata.labels.as_ref().and_then(|l| l.get("tier")).is_some_and(|t| t == "gold"));
        }
    }
    std::hint::black_box(n);
    (out, SCHEDULE_CALLS as f64 / start.elapsed().as_secs_f64())
}

async fn client(kubeconfig: &Path, context: &str) -> kube::Client {
    let kc = kube::config::Kubeconfig::read_from(kubeconfig).unwrap();
    let opts = kube::config::KubeConfigOptions { context: Some(context.into()), ..Default::default() };
    let cfg = kube::Config::from_custom_kubeconfig(kc, &opts).await.unwrap();
    kube::Client::try_from(cfg).unwrap()
}

fn deployment(name: &str, target: &str) -> Deployment {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default", "labels": {"bench-target": target}},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}
    }))
    .unwrap()
}

/// Creates `count` templates at `rate` per second, each for one member in turn, and returns
/// the time from each create's answer to the member's watch seeing the object.
async fn propagate(
    plane: &kube::Client,
    seen: &Arc<Mutex<HashMap<String, Instant>>>,
    prefix: &str,
    rate: f64,
    count: usize,
) -> Vec<Duration> {
    let api: Api<Deployment> = Api::namespaced(plane.clone(), "default");
    let interval = Duration::from_secs_f64(1.0 / rate);
    let start = Instant::now();
    let mut created = BTreeMap::new();
    let mut tasks = vec![];
    for i in 0..count {
        let due = start + interval * i as u32;
        tokio::time::sleep_until(due.into()).await;
        let name = format!("{prefix}-{i}");
        let d = deployment(&name, &format!("member{}", i % MEMBERS + 1));
        let api = api.clone();
        tasks.push(tokio::spawn(async move {
            api.create(&PostParams::default(), &d).await.expect("create");
            (name, Instant::now())
        }));
    }
    for t in tasks {
        let (name, at) = t.await.unwrap();
        created.insert(name, at);
    }
    let deadline = Instant::now() + Duration::from_secs(900);
    loop {
        let done = {
            let s = seen.lock().unwrap();
            created.keys().all(|k| s.contains_key(k))
        };
        if done {
            break;
        }
        assert!(Instant::now() < deadline, "not every template reached its member");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let s = seen.lock().unwrap();
    created.iter().map(|(k, at)| s[k].saturating_duration_since(*at)).collect()
}

fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0);
    kib as f64 / 1024.0
}

fn member_pids(dir: &Path) -> Vec<u32> {
    (1..=MEMBERS)
        .filter_map(|m| std::fs::read_to_string(dir.join(format!("members/member{m}/controlplane.pid"))).ok())
        .filter_map(|t| t.trim().parse().ok())
        .collect()
}

/// The plane's pid, from the pid file `init --embedded` writes in the playground.
fn plane_pid(dir: &Path) -> u32 {
    let text = std::fs::read_to_string(dir.join("karmada/controlplane.pid")).unwrap_or_default();
    text.trim().parse().unwrap_or(0)
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let (throughput, floor) = scheduler_throughput();

    let home = tempfile::tempdir().unwrap();
    let dir: PathBuf = home.path().join("playground");
    let d = dir.to_str().unwrap().to_string();
    let members = MEMBERS.to_string();
    let up = Instant::now();
    let out = run(home.path(), &["local", "up", "--members", &members, "--nodes", "1", "--data-dir", &d, "-o", "json"]);
    let up = up.elapsed();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().unwrap());

    let rt = tokio::runtime::Runtime::new().unwrap();
    let high_count = high_seconds() * HIGH_RATE as usize;
    let (low, high, direct, rss, cpu, high_writes, trail) = rt.block_on(async {
        let plane = client(&kubeconfig, "karmada-apiserver").await;
        // One policy per member, selecting the templates labelled for it.
        let pp: Api<kube::api::DynamicObject> = Api::namespaced_with(
            plane.clone(),
            "default",
            &kube::api::ApiResource::from_gvk_with_plural(
                &kube::api::GroupVersionKind::gvk("policy.karmada.io", "v1alpha1", "PropagationPolicy"),
                "propagationpolicies",
            ),
        );
        for m in 1..=MEMBERS {
            let p: kube::api::DynamicObject = serde_json::from_value(json!({
                "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
                "metadata": {"name": format!("to-member{m}"), "namespace": "default"},
                "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment",
                            "labelSelector": {"matchLabels": {"bench-target": format!("member{m}")}}}],
                         "placement": {"clusterAffinity": {"clusterNames": [format!("member{m}")]}}}
            }))
            .unwrap();
            pp.create(&PostParams::default(), &p).await.unwrap();
        }
        let seen: Arc<Mutex<HashMap<String, Instant>>> = Arc::default();
        let mut member_clients = vec![];
        for m in 1..=MEMBERS {
            let c = client(&kubeconfig, &format!("member{m}")).await;
            member_clients.push(c.clone());
            let seen = seen.clone();
            tokio::spawn(async move {
                let api: Api<Deployment> = Api::namespaced(c, "default");
                let mut stream = watcher(api, watcher::Config::default()).boxed();
                while let Some(ev) = stream.next().await {
                    if let Ok(watcher::Event::Apply(d) | watcher::Event::InitApply(d)) = ev {
                        let name = d.metadata.name.unwrap_or_default();
                        seen.lock().unwrap().entry(name).or_insert_with(Instant::now);
                    }
                }
            });
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        // Warm-up: every kind followed, every member client made.
        propagate(&plane, &seen, "warm", 20.0, 20).await;
        let low = propagate(&plane, &seen, "low", 10.0, 100).await;
        let (pp, mp) = (plane_pid(&dir), member_pids(&dir));
        let writes_before = plane_metrics::writes(&plane).await;
        let before = (cpu_seconds(pp), mp.iter().map(|p| cpu_seconds(*p)).sum::<f64>(), Instant::now());
        // This process creates the templates and decodes every member's watch events: its CPU
        // comes out of the same two cores.
        let own_before = cpu_seconds(std::process::id());
        let high = propagate(&plane, &seen, "high", HIGH_RATE, high_count).await;
        let high_writes = plane_metrics::since(&writes_before, plane_metrics::writes(&plane).await);
        let cpu = (
            cpu_seconds(pp) - before.0,
            mp.iter().map(|p| cpu_seconds(*p)).sum::<f64>() - before.1,
            before.2.elapsed(),
            cpu_seconds(std::process::id()) - own_before,
        );
        // Status writes trail the last copy (they give way to propagation while it has work):
        // count them too, until fewer than 10 writes land in 2 s (clusters' heartbeats go on).
        let trail_start = Instant::now();
        let mut last: u64 = plane_metrics::writes(&plane).await.values().sum();
        while trail_start.elapsed() < Duration::from_secs(180) {
            tokio::time::sleep(Duration::from_secs(2)).await;
            let now: u64 = plane_metrics::writes(&plane).await.values().sum();
            if now.saturating_sub(last) < 10 {
                break;
            }
            last = now;
        }
        let trail = (
            cpu_seconds(pp) - before.0,
            plane_metrics::since(&writes_before, plane_metrics::writes(&plane).await)
                .iter()
                .map(|(_, n)| n)
                .sum::<u64>(),
            trail_start.elapsed(),
        );
        let api: Api<Deployment> = Api::namespaced(member_clients[0].clone(), "default");
        let mut direct = vec![];
        for i in 0..100 {
            let t = Instant::now();
            api.create(&PostParams::default(), &deployment(&format!("direct-{i}"), "none")).await.unwrap();
            direct.push(t.elapsed());
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        (low, high, direct, rss_mib(plane_pid(&dir)), cpu, high_writes, trail)
    });
    drop(rt);
    run(home.path(), &["local", "down", "--force", "--data-dir", &d]);

    println!("### Reconcile engine, {}", machine());
    println!();
    println!("| measure | result | limit in the same run | goal |");
    println!("|---|---|---|---|");
    for (name, per_s) in &throughput {
        println!(
            "| scheduler, {CLUSTERS} clusters: {name} | {per_s:.0} bindings/s | reading every cluster's labels once: {floor:.0} /s | ≥ 2,000 bindings/s (upstream ≈ 22/s) |"
        );
    }
    let row = |label: &str, xs: &Vec<Duration>, goal: &str| {
        println!(
            "| template → member object, {label} ({} templates, {MEMBERS} members) | p50 {} / p99 {} | one create into a member: p50 {} / p99 {} | {goal} |",
            xs.len(),
            ms(percentile(xs.clone(), 0.5)),
            ms(percentile(xs.clone(), 0.99)),
            ms(percentile(direct.clone(), 0.5)),
            ms(percentile(direct.clone(), 0.99)),
        );
    };
    row("10 templates/s", &low, "p99 ≤ 100 ms (upstream 1.3 s)");
    row("200 templates/s", &high, "p99 ≤ 1 s");
    println!(
        "| CPU while the 200/s run drained ({:.1} s wall) | plane {:.1} s, {MEMBERS} simulated members {:.1} s | 2 cores: {:.1} CPU-s available, of which this benchmark's own client used {:.1} s | — |",
        cpu.2.as_secs_f64(),
        cpu.0,
        cpu.1,
        2.0 * cpu.2.as_secs_f64(),
        cpu.3
    );
    println!(
        "| plane CPU per template in the 200/s run, until drained | {:.2} ms | — | — |",
        cpu.0 * 1e3 / high_count as f64
    );
    let total_writes: u64 = high_writes.iter().map(|(_, n)| n).sum();
    println!(
        "| plane writes per template in the 200/s run, until drained | {:.2} | the template's own create: 1 | — |",
        total_writes as f64 / high_count as f64
    );
    println!(
        "| the same with the status writes after the last copy ({:.0} s more) | {:.2} ms; {:.2} writes | — | ≤ 5 ms |",
        trail.2.as_secs_f64(),
        trail.0 * 1e3 / high_count as f64,
        trail.1 as f64 / high_count as f64
    );
    println!("| plane RSS after the run ({} templates, {MEMBERS} members) | {rss:.1} MiB | — | — |", high_count + 120);
    println!("| `local up --members {MEMBERS} --nodes 1` | {} | — | — |", ms(up));
    println!();
    println!("Writes to the plane in the 200/s run, per template:");
    println!();
    for (labels, n) in &high_writes {
        println!("- {labels}: {:.2}", *n as f64 / high_count as f64);
    }
}
