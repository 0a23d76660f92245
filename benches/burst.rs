//! A burst of workloads: N Deployments (1,000 by default) created at the plane at once by 16
//! concurrent clients under a PropagationPolicy that duplicates each to two members, timed
//! until every one of the 2N member copies exists, beside the floor the issue names: 2N
//! creates straight into the same members from the same clients.
//!
//! The plane is the release binary (`controlplane serve`, SQLite); the two members are plain
//! Kubernetes API servers started in this process through the library (no workload simulator),
//! so the figure is the plane's and not a load generator's or a simulator's: the shell version,
//! `benches/scripts/burst.sh`, spends most of its time in 16 kubectl processes and in the
//! simulated members' ReplicaSets and Pods. Each member is watched; an object's arrival time is
//! when its watch event reached this process.
//!
//! Run with `cargo bench --bench burst`; prints a Markdown section for docs/performance.md.
//! BURST_N (workloads per burst), BURST_RUNS (bursts, each with new names on the same plane)
//! and BURST_CLIENTS (requests in flight) change it.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;

#[path = "engine_scale/fleet.rs"]
#[allow(dead_code)]
mod fleet;
#[path = "engine_scale/members.rs"]
#[allow(dead_code)]
mod members;
#[path = "common/plane_metrics.rs"]
mod plane_metrics;
#[allow(dead_code)]
#[path = "apiserver/process.rs"]
mod process;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, DynamicObject, PartialObjectMeta, PostParams};
use kube::runtime::watcher;
use serde_json::json;

use fleet::{default_policies, deployment, env_or, join, member_name, wait_clusters_ready};
use members::Member;
use process::cpu_seconds;

const MEMBERS: usize = 2;
/// How long a burst may take before the run gives up on it.
const BURST_TIMEOUT: Duration = Duration::from_secs(300);

macro_rules! progress {
    ($($arg:tt)*) => { eprintln!("[burst bench] {}", format!($($arg)*)) };
}

struct Params {
    n: usize,
    runs: usize,
    clients: usize,
}

/// When each member copy arrived, by (member index, name).
type Arrivals = Arc<Mutex<HashMap<(usize, String), Instant>>>;

struct Burst {
    /// Every create at the plane answered.
    answered: Duration,
    /// Every member copy seen; `None` when the burst did not complete.
    complete: Option<Duration>,
    /// Create answered → copy seen, per copy, sorted.
    latencies: Vec<Duration>,
    plane_cpu: f64,
    bench_cpu: f64,
    writes: Vec<(String, u64)>,
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let p = Params { n: env_or("BURST_N", 1_000), runs: env_or("BURST_RUNS", 3), clients: env_or("BURST_CLIENTS", 16) };
    let rt = tokio::runtime::Runtime::new().expect("a tokio runtime");
    match rt.block_on(run(&p)) {
        Ok((bursts, floor)) => print(&p, &bursts, &floor),
        Err(e) => {
            eprintln!("burst benchmark failed: {e:#}");
            std::process::exit(1);
        }
    }
}

async fn run(p: &Params) -> anyhow::Result<(Vec<Burst>, Vec<Duration>)> {
    let root = tempfile::tempdir()?;
    let home = root.path().join("home");
    std::fs::create_dir_all(&home)?;
    let plane_dir = root.path().join("plane");
    let plane_kubeconfig = plane_dir.join("admin.kubeconfig");

    progress!("starting the plane and {MEMBERS} members");
    let mut plane_proc = process::plane_with(&plane_dir, &[])?;
    let plane = karmadactl::local_plane::client::admin_client(&plane_kubeconfig).await?;
    let mut members: Vec<Member> = vec![];
    for i in 0..MEMBERS {
        let name = member_name(i);
        members.push(members::start_member(&name, &root.path().join("members").join(&name)).await?);
    }
    for m in &members {
        join(&home, &plane_kubeconfig, m).await?;
    }
    wait_clusters_ready(&plane, MEMBERS).await?;
    duplicate_everything(&plane, &members).await?;

    let arrivals: Arrivals = Arc::default();
    for (i, m) in members.iter().enumerate() {
        watch_member(i, m, arrivals.clone());
    }
    // Warm-up: connections made, every kind followed, the members' namespace known.
    let warm = burst(p, &plane, plane_proc.pid(), &arrivals, "warm", 20.min(p.n)).await?;
    if warm.complete.is_none() {
        bail!("the warm-up burst of {} workloads did not complete", 20.min(p.n));
    }
    let mut bursts = vec![];
    for r in 0..p.runs {
        progress!("burst {} of {}: {} workloads", r + 1, p.runs, p.n);
        bursts.push(burst(p, &plane, plane_proc.pid(), &arrivals, &format!("b{r}"), p.n).await?);
        // Let the status writes that trail each burst finish before the next.
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    let mut floor = vec![];
    for r in 0..p.runs {
        floor.push(create_direct(p, &members, &format!("floor{r}")).await?);
    }
    plane_proc.stop();
    for m in members {
        m.plane.shutdown(Duration::from_secs(1)).await;
    }
    Ok((bursts, floor))
}

/// One PropagationPolicy placing every Deployment of `default` on both members, Duplicated.
async fn duplicate_everything(plane: &kube::Client, members: &[Member]) -> anyhow::Result<()> {
    let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
    let policy: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
        "metadata": {"name": "duplicate-all", "namespace": "default"},
        "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                 "placement": {"clusterAffinity": {"clusterNames": names},
                               "replicaScheduling": {"replicaSchedulingType": "Duplicated"}}}
    }))?;
    default_policies(plane).create(&PostParams::default(), &policy).await?;
    Ok(())
}

/// Records when each Deployment of `default` first shows up in member `index`.
fn watch_member(index: usize, m: &Member, arrivals: Arrivals) {
    let api: Api<PartialObjectMeta<Deployment>> = Api::namespaced(m.client.clone(), "default");
    tokio::spawn(async move {
        let mut events = watcher::watcher(api, watcher::Config::default()).boxed();
        while let Some(event) = events.next().await {
            let Ok(watcher::Event::Apply(o) | watcher::Event::InitApply(o)) = event else {
                continue;
            };
            let name = o.metadata.name.unwrap_or_default();
            arrivals.lock().unwrap_or_else(|e| e.into_inner()).entry((index, name)).or_insert_with(Instant::now);
        }
    });
}

/// Creates `n` Deployments named `<prefix>-NNNN` at the plane, `clients` at a time, and waits
/// until both members hold a copy of each.
async fn burst(
    p: &Params,
    plane: &kube::Client,
    plane_pid: u32,
    arrivals: &Arrivals,
    prefix: &str,
    n: usize,
) -> anyhow::Result<Burst> {
    let names: Vec<String> = (0..n).map(|i| format!("{prefix}-{i:04}")).collect();
    // Copies of earlier bursts are all in; each copy of this one adds one entry.
    let seen_before = arrivals.lock().unwrap_or_else(|e| e.into_inner()).len();
    let writes_before = plane_metrics::writes(plane).await;
    let (cpu0, own0) = (cpu_seconds(plane_pid), cpu_seconds(std::process::id()));
    let api: Api<Deployment> = Api::namespaced(plane.clone(), "default");
    let start = Instant::now();
    let answered_at: Vec<anyhow::Result<Instant>> = futures::stream::iter(names.iter())
        .map(|name| {
            let api = api.clone();
            async move {
                api.create(&PostParams::default(), &deployment(name, "default", "all"))
                    .await
                    .with_context(|| format!("creating {name} at the plane"))?;
                Ok(Instant::now())
            }
        })
        .buffer_unordered(p.clients)
        .collect()
        .await;
    let answered_at = answered_at.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    let answered = start.elapsed();
    let answered_by_name: HashMap<&str, Instant> = names.iter().map(String::as_str).zip(answered_at).collect();
    let deadline = start + BURST_TIMEOUT;
    let complete = loop {
        let seen = arrivals.lock().unwrap_or_else(|e| e.into_inner()).len() - seen_before;
        if seen >= MEMBERS * n {
            let arrived = arrivals.lock().unwrap_or_else(|e| e.into_inner());
            let last = names.iter().flat_map(|nm| (0..MEMBERS).filter_map(|m| arrived.get(&(m, nm.clone())))).max();
            break last.map(|last| *last - start);
        }
        if Instant::now() > deadline {
            progress!("{prefix}: {seen} of {} copies after {} s", MEMBERS * n, BURST_TIMEOUT.as_secs());
            break None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let plane_cpu = cpu_seconds(plane_pid) - cpu0;
    let bench_cpu = cpu_seconds(std::process::id()) - own0;
    let writes = plane_metrics::since(&writes_before, plane_metrics::writes(plane).await);
    let mut latencies: Vec<Duration> = {
        let arrived = arrivals.lock().unwrap_or_else(|e| e.into_inner());
        names
            .iter()
            .flat_map(|nm| {
                let sent = answered_by_name[nm.as_str()];
                (0..MEMBERS)
                    .filter_map(|m| arrived.get(&(m, nm.clone())).map(|t| t.saturating_duration_since(sent)))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    latencies.sort();
    if let Some(c) = complete {
        progress!(
            "{prefix}: creates answered in {:.2} s, all copies in {:.2} s",
            answered.as_secs_f64(),
            c.as_secs_f64()
        );
    }
    Ok(Burst { answered, complete, latencies, plane_cpu, bench_cpu, writes })
}

/// The floor: the same number of member objects created straight into the members' namespace
/// `namespace`, `clients` at a time; returns the wall time.
async fn create_direct(p: &Params, members: &[Member], namespace: &str) -> anyhow::Result<Duration> {
    for m in members {
        let ns: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(m.client.clone());
        ns.create(&PostParams::default(), &serde_json::from_value(json!({"metadata": {"name": namespace}}))?).await?;
    }
    let start = Instant::now();
    let results: Vec<_> = futures::stream::iter(0..MEMBERS * p.n)
        .map(|i| {
            let api: Api<Deployment> = Api::namespaced(members[i % MEMBERS].client.clone(), namespace);
            async move { api.create(&PostParams::default(), &deployment(&format!("d-{i:05}"), namespace, "all")).await }
        })
        .buffer_unordered(p.clients)
        .collect()
        .await;
    for r in results {
        r.context("creating a Deployment in a member")?;
    }
    Ok(start.elapsed())
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn pct(xs: &[Duration], q: f64) -> Duration {
    if xs.is_empty() {
        return Duration::ZERO;
    }
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

fn print(p: &Params, bursts: &[Burst], floor: &[Duration]) {
    let n = p.n;
    let list = |f: &dyn Fn(&Burst) -> String| bursts.iter().map(f).collect::<Vec<_>>().join(", ");
    println!("### Burst of workloads, {}", machine());
    println!();
    println!(
        "Parameters: the plane (release binary, SQLite) and {MEMBERS} members in the benchmark's process (plain API servers, no workload simulator); one PropagationPolicy duplicating every Deployment to both; {n} one-replica Deployments per burst created by {} concurrent requests; {} bursts on the same plane.",
        p.clients, p.runs
    );
    println!();
    println!("| measure | karmadactl | limit measured in the same run | goal |");
    println!("|---|---|---|---|");
    let floor_list = floor.iter().map(|d| secs(*d)).collect::<Vec<_>>().join(", ");
    println!(
        "| {n} workloads → all {} member objects | {} | {} direct creates into the same members, {} in flight: {floor_list} | ≤ 3 s |",
        MEMBERS * n,
        list(&|b| b.complete.map(secs).unwrap_or_else(|| "incomplete".into())),
        MEMBERS * n,
        p.clients
    );
    println!("| the plane's answers to the {n} creates | {} | — | — |", list(&|b| secs(b.answered)));
    println!(
        "| create answered → member copy seen, p50 / p99 | {} | — | — |",
        list(&|b| format!(
            "{:.0} / {:.0} ms",
            pct(&b.latencies, 0.5).as_secs_f64() * 1e3,
            pct(&b.latencies, 0.99).as_secs_f64() * 1e3
        ))
    );
    println!(
        "| CPU from the first create to the last copy: plane; this process (members + clients) | {} | 2 cores × wall | — |",
        list(&|b| format!("{:.2} s; {:.2} s", b.plane_cpu, b.bench_cpu))
    );
    println!(
        "| plane writes per workload by then | {} | the template's create: 1 | — |",
        list(&|b| format!("{:.1}", b.writes.iter().map(|w| w.1).sum::<u64>() as f64 / n as f64))
    );
    println!();
    if let Some(b) = bursts.last() {
        println!("Writes of the last burst, by verb, resource and code (until its last copy arrived):");
        println!();
        for (labels, count) in b.writes.iter().take(12) {
            println!("* {labels}: {count}");
        }
    }
}
