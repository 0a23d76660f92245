//! Reconcile engine at scale: the plane (the release binary, `controlplane serve`) with 100
//! member clusters, each figure beside a limit measured in the same run:
//! * peak RSS of the plane while 10,000 Deployments propagate to 100 members, beside the size
//!   of what the plane stores for them (templates, bindings and Works as JSON): the memory any
//!   design must at least touch;
//! * a restart with 30,000 propagated workloads whose member copies were all deleted while the
//!   plane was down, until every object is back in its member, beside creating the same 30,000
//!   objects straight into the members from this process and the plane's LIST of all Works.
//!
//! The members are plain Kubernetes API servers started in this process through the library
//! (no workload simulator: they only store objects), so 100 of them fit on a small machine.
//!
//! Run with `cargo bench --bench engine_scale`; prints a Markdown section for
//! docs/performance.md. ENGINE_SCALE_MEMBERS, ENGINE_SCALE_FIRST and ENGINE_SCALE_TOTAL shrink
//! the run for a trial; ENGINE_SCALE_WAIT (seconds, default 900) bounds each wait for the
//! members to hold every object, which a slow machine may need longer.
//! ENGINE_SCALE_RESTART_HEAPTRACK=<file> records the restarted plane's allocations with heaptrack
//! (a build with `--features system-allocator`, since heaptrack sees only malloc); read the file
//! with `heaptrack_interpret < file | zstd > trace.zst` and `heaptrack_print trace.zst`.
//! ENGINE_SCALE_DATASTORE=etcd runs the plane on a 3-member etcd cluster on loopback (the
//! `etcd` binary and a build with `--features etcd`) instead of SQLite.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;

#[path = "../tests/it/common/etcd.rs"]
mod etcd;
#[path = "engine_scale/fleet.rs"]
mod fleet;
#[path = "engine_scale/members.rs"]
mod members;
#[allow(dead_code)]
#[path = "apiserver/process.rs"]
mod process;

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Namespace;
use kube::api::{Api, PostParams};
use serde_json::json;

use fleet::{create_policies, deployment, env_or, join, member_name, wait_clusters_ready};
use members::{Member, wait_counts};
use process::{CpuShare, Proc, cpu_seconds};

/// Requests the bench keeps in flight when creating objects (at the plane or the members).
const IN_FLIGHT: usize = 32;
/// Concurrent `karmadactl join` processes.
const JOINS_IN_FLIGHT: usize = 4;
const SETTLE: Duration = Duration::from_secs(5);
/// heaptrack's malloc hook, loaded into the restarted plane when ENGINE_SCALE_RESTART_HEAPTRACK
/// names a file for its raw trace.
const HEAPTRACK_PRELOAD: &str = "/usr/lib/heaptrack/libheaptrack_preload.so";
/// How long after part B the plane's RSS is read again, to see what it gives back.
const AFTER_LOAD: Duration = Duration::from_secs(60);

macro_rules! progress {
    ($($arg:tt)*) => { eprintln!("[engine_scale bench] {}", format!($($arg)*)) };
}

struct Params {
    members: usize,
    first: usize,
    total: usize,
    /// How long each wait for the members to hold every object may take.
    wait: Duration,
    /// The plane stores on etcd rather than SQLite.
    etcd: bool,
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let params = Params {
        members: env_or("ENGINE_SCALE_MEMBERS", 100),
        first: env_or("ENGINE_SCALE_FIRST", 10_000),
        total: env_or("ENGINE_SCALE_TOTAL", 30_000),
        wait: Duration::from_secs(env_or("ENGINE_SCALE_WAIT", 900) as u64),
        etcd: std::env::var("ENGINE_SCALE_DATASTORE").is_ok_and(|v| v == "etcd"),
    };
    let rt = tokio::runtime::Runtime::new().expect("a tokio runtime");
    match rt.block_on(run(&params)) {
        Ok(report) => report.print(&params),
        Err(e) => {
            eprintln!("engine_scale benchmark failed: {e:#}");
            std::process::exit(1);
        }
    }
}

/// How many of the workloads `0..n` go to each member (workload i goes to member i mod m).
fn expected(members: usize, n: usize) -> Vec<usize> {
    (0..members).map(|m| (0..n).filter(|i| i % members == m).count()).collect()
}

fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// Samples the RSS of the process whose pid is in `pid` every 100 ms, keeping the highest.
fn spawn_rss_sampler(pid: Arc<AtomicU32>, highest: Arc<AtomicU64>) {
    tokio::spawn(async move {
        loop {
            let kib = status_kib(pid.load(Ordering::Relaxed), "VmRSS:");
            highest.fetch_max(kib, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
}

/// Creates workloads `range` at the plane, `IN_FLIGHT` at a time; returns the wall time.
async fn create_templates(
    plane: &kube::Client,
    range: std::ops::Range<usize>,
    members: usize,
) -> anyhow::Result<Duration> {
    let api: Api<Deployment> = Api::namespaced(plane.clone(), "default");
    let start = Instant::now();
    let results: Vec<_> = futures::stream::iter(range)
        .map(|i| {
            let api = api.clone();
            async move {
                api.create(
                    &PostParams::default(),
                    &deployment(&format!("w-{i:05}"), "default", &member_name(i % members)),
                )
                .await
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .collect()
        .await;
    for r in results {
        r.context("creating a template at the plane")?;
    }
    Ok(start.elapsed())
}

/// Creates `n` Deployments straight into the members' `namespace`, spread as the plane spreads
/// the workloads, `IN_FLIGHT` at a time; returns the wall time.
async fn create_direct(members: &[Member], namespace: &str, n: usize) -> anyhow::Result<Duration> {
    let start = Instant::now();
    let results: Vec<_> =
        futures::stream::iter(0..n)
            .map(|i| {
                let m = &members[i % members.len()];
                let api: Api<Deployment> = Api::namespaced(m.client.clone(), namespace);
                async move {
                    api.create(&PostParams::default(), &deployment(&format!("w-{i:05}"), namespace, &m.name)).await
                }
            })
            .buffer_unordered(IN_FLIGHT)
            .collect()
            .await;
    for r in results {
        r.context("creating a Deployment in a member")?;
    }
    Ok(start.elapsed())
}

/// JSON bytes of the items of a LIST of `path` at the plane, the item count, and how long the
/// LIST took.
async fn list_size(plane: &kube::Client, path: &str) -> anyhow::Result<(u64, usize, Duration)> {
    let start = Instant::now();
    let req = http::Request::get(path).body(Vec::new())?;
    let text = plane.request_text(req).await.with_context(|| format!("LIST {path}"))?;
    let took = start.elapsed();
    let v: serde_json::Value = serde_json::from_str(&text)?;
    let items = v["items"].as_array().cloned().unwrap_or_default();
    let bytes = items.iter().map(|i| serde_json::to_vec(i).map(|b| b.len() as u64).unwrap_or(0)).sum();
    Ok((bytes, items.len(), took))
}

/// Wall, plane CPU and other processes' share of the machine over one phase.
struct Phase {
    wall: Duration,
    plane_cpu: f64,
    /// CPU seconds of this process: the in-process members and the bench's client.
    bench_cpu: f64,
    others: f64,
    cores: usize,
}

struct PhaseClock {
    start: Instant,
    cpu: f64,
    /// This process's CPU seconds at the start.
    own_cpu: f64,
    share: CpuShare,
    pid: u32,
}

impl PhaseClock {
    fn start(pid: u32) -> Self {
        PhaseClock {
            start: Instant::now(),
            cpu: cpu_seconds(pid),
            own_cpu: cpu_seconds(std::process::id()),
            share: CpuShare::now(&[pid]),
            pid,
        }
    }
    fn stop(&self) -> Phase {
        let share = self.share.since(&[self.pid]);
        let wall = self.start.elapsed();
        let plane_cpu = cpu_seconds(self.pid) - self.cpu;
        let bench_cpu = cpu_seconds(std::process::id()) - self.own_cpu;
        Phase { wall, plane_cpu, bench_cpu, others: share.others, cores: share.cores }
    }
}

struct Report {
    members_start: Duration,
    joins: Duration,
    member_rss_kib: u64,
    a_create: Duration,
    a: Phase,
    a_missing: usize,
    a_hwm_kib: u64,
    a_sampled_kib: u64,
    a_settled_kib: u64,
    a_sizes: [(u64, usize); 3],
    b_create: Duration,
    b: Phase,
    b_missing: usize,
    b_hwm_kib: u64,
    /// The plane's RSS when the last object arrived, and [`AFTER_LOAD`] later.
    b_rss_kib: u64,
    b_later_kib: u64,
    works_list: Duration,
    works_bytes: u64,
    stop: Duration,
    deleted_left: usize,
    direct: Duration,
    same_port: bool,
    first_line: Duration,
    readyz: Duration,
    restart: Phase,
    restart_missing: usize,
    restart_hwm_kib: u64,
    bench_hwm_kib: u64,
}

async fn run(p: &Params) -> anyhow::Result<Report> {
    let root = tempfile::tempdir()?;
    let home = root.path().join("home");
    std::fs::create_dir_all(&home)?;
    let plane_dir = root.path().join("plane");
    let plane_kubeconfig = plane_dir.join("admin.kubeconfig");

    let etcd_cluster = p.etcd.then(|| {
        progress!("starting a 3-member etcd cluster");
        etcd::EtcdCluster::start(3)
    });
    let datastore = etcd_cluster.as_ref().map(etcd::EtcdCluster::datastore);
    let mut store_flags: Vec<&str> = vec![];
    if let Some(ds) = &datastore {
        store_flags.extend(["--datastore", ds, "--etcd-prefix", "/scale"]);
    }
    progress!("starting the plane");
    let mut plane_proc = process::plane_with(&plane_dir, &store_flags)?;
    let port = plane_proc.url.rsplit(':').next().unwrap_or("0").to_string();
    let pid = Arc::new(AtomicU32::new(plane_proc.pid()));
    let highest = Arc::new(AtomicU64::new(0));
    spawn_rss_sampler(pid.clone(), highest.clone());
    let plane = karmadactl::local_plane::client::admin_client(&plane_kubeconfig).await?;

    progress!("starting {} members in this process", p.members);
    let before_members = status_kib(std::process::id(), "VmRSS:");
    let t = Instant::now();
    let mut members: Vec<Member> = vec![];
    for i in 0..p.members {
        let name = member_name(i);
        members.push(members::start_member(&name, &root.path().join("members").join(&name)).await?);
    }
    let members_start = t.elapsed();
    let member_rss_kib = status_kib(std::process::id(), "VmRSS:").saturating_sub(before_members);

    progress!("joining {} members", p.members);
    let t = Instant::now();
    let joined: Vec<anyhow::Result<()>> = futures::stream::iter(members.iter())
        .map(|m| join(&home, &plane_kubeconfig, m))
        .buffer_unordered(JOINS_IN_FLIGHT)
        .collect()
        .await;
    for r in joined {
        r?;
    }
    let joins = t.elapsed();
    wait_clusters_ready(&plane, p.members).await?;
    create_policies(&plane, p.members).await?;

    progress!("part A: {} workloads over {} members", p.first, p.members);
    highest.store(0, Ordering::Relaxed);
    let clock = PhaseClock::start(plane_proc.pid());
    let a_create = create_templates(&plane, 0..p.first, p.members).await?;
    progress!("part A: created {} templates in {:.1} s", p.first, a_create.as_secs_f64());
    let a_missing =
        wait_counts(&members, "default", &expected(p.members, p.first), Duration::from_secs(1), p.wait, "part A").await;
    let a = clock.stop();
    let a_hwm_kib = status_kib(plane_proc.pid(), "VmHWM:");
    let a_sampled_kib = highest.load(Ordering::Relaxed);
    tokio::time::sleep(SETTLE).await;
    let a_settled_kib = status_kib(plane_proc.pid(), "VmRSS:");
    let mut a_sizes = [(0, 0); 3];
    for (slot, path) in a_sizes.iter_mut().zip([
        "/apis/apps/v1/deployments",
        "/apis/work.karmada.io/v1alpha2/resourcebindings",
        "/apis/work.karmada.io/v1alpha1/works",
    ]) {
        let (bytes, n, _) = list_size(&plane, path).await?;
        *slot = (bytes, n);
    }

    progress!("part B: {} more workloads", p.total - p.first);
    let clock = PhaseClock::start(plane_proc.pid());
    let b_create = create_templates(&plane, p.first..p.total, p.members).await?;
    let b_missing =
        wait_counts(&members, "default", &expected(p.members, p.total), Duration::from_secs(1), p.wait, "part B").await;
    let b = clock.stop();
    let b_hwm_kib = status_kib(plane_proc.pid(), "VmHWM:");
    let b_rss_kib = status_kib(plane_proc.pid(), "VmRSS:");
    progress!("part B done; the plane's RSS again in {} s", AFTER_LOAD.as_secs());
    tokio::time::sleep(AFTER_LOAD).await;
    let b_later_kib = status_kib(plane_proc.pid(), "VmRSS:");
    let (works_bytes, _, works_list) = list_size(&plane, "/apis/work.karmada.io/v1alpha1/works").await?;

    progress!("stopping the plane and deleting every propagated object in the members");
    let t = Instant::now();
    plane_proc.stop();
    let stop = t.elapsed();
    let deleted: Vec<_> = futures::stream::iter(members.iter())
        .map(|m| members::delete_all(&m.client, "default"))
        .buffer_unordered(8)
        .collect()
        .await;
    for r in deleted {
        r?;
    }
    let mut deleted_left = 0;
    for m in &members {
        deleted_left += members::count(&m.client, "default").await?;
    }

    progress!("floor: {} Deployments straight into the members", p.total);
    for m in &members {
        let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": "floor"}}))?;
        Api::<Namespace>::all(m.client.clone()).create(&PostParams::default(), &ns).await?;
    }
    let direct = create_direct(&members, "floor", p.total).await?;
    let cleaned: Vec<_> = futures::stream::iter(members.iter())
        .map(|m| members::delete_all(&m.client, "floor"))
        .buffer_unordered(8)
        .collect()
        .await;
    for r in cleaned {
        r?;
    }

    progress!("restarting the plane on port {port}");
    let restart = |listen: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_karmadactl"));
        cmd.args(["controlplane", "serve", "--listen", listen, "--data-dir"]).arg(&plane_dir).args(&store_flags);
        if let Some(raw) = std::env::var_os("ENGINE_SCALE_RESTART_HEAPTRACK") {
            cmd.env("LD_PRELOAD", HEAPTRACK_PRELOAD).env("DUMP_HEAPTRACK_OUTPUT", raw);
        }
        Proc::spawn(cmd, &plane_dir.with_extension("log"))
    };
    let (mut plane_proc, same_port) = match restart(&format!("127.0.0.1:{port}")) {
        Ok(proc) => (proc, true),
        Err(e) => {
            progress!("port {port} not available again ({e:#}); restarting on a free port");
            (restart("127.0.0.1:0")?, false)
        }
    };
    pid.store(plane_proc.pid(), Ordering::Relaxed);
    // The restarted plane's CPU counts from its start, not from its first line.
    let clock = PhaseClock { start: plane_proc.started, cpu: 0.0, ..PhaseClock::start(plane_proc.pid()) };
    let first_line = plane_proc.first_line;
    karmadactl::local_plane::client::wait_ready(&plane_kubeconfig, Duration::from_secs(120), || true)
        .await
        .map_err(|e| anyhow::anyhow!("the restarted plane never became ready: {e}"))?;
    let readyz = plane_proc.started.elapsed();
    progress!("restart: ready after {:.2} s; waiting for every object", readyz.as_secs_f64());
    let restart_missing =
        wait_counts(&members, "default", &expected(p.members, p.total), Duration::from_millis(500), p.wait, "restart")
            .await;
    let restart_phase = clock.stop();
    let restart_hwm_kib = status_kib(plane_proc.pid(), "VmHWM:");
    plane_proc.stop();
    let bench_hwm_kib = status_kib(std::process::id(), "VmHWM:");
    for m in members {
        m.plane.shutdown(Duration::from_secs(1)).await;
    }
    Ok(Report {
        members_start,
        joins,
        member_rss_kib,
        a_create,
        a,
        a_missing,
        a_hwm_kib,
        a_sampled_kib,
        a_settled_kib,
        a_sizes,
        b_create,
        b,
        b_missing,
        b_hwm_kib,
        b_rss_kib,
        b_later_kib,
        works_list,
        works_bytes,
        stop,
        deleted_left,
        direct,
        same_port,
        first_line,
        readyz,
        restart: restart_phase,
        restart_missing,
        restart_hwm_kib,
        bench_hwm_kib,
    })
}

fn secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

fn pct(x: f64) -> String {
    format!("{:.0} %", x * 100.0)
}

fn outcome(missing: usize, wall: Duration, n: usize) -> String {
    if missing == 0 { secs(wall) } else { format!("NOT converged: {missing} of {n} missing after {}", secs(wall)) }
}

impl Report {
    fn print(&self, p: &Params) {
        let (m, first, total) = (p.members, p.first, p.total);
        let mb = |b: u64| b as f64 / (1024.0 * 1024.0);
        let stored: u64 = self.a_sizes.iter().map(|s| s.0).sum();
        println!("### Reconcile engine at scale, {}", machine());
        println!();
        println!(
            "Parameters: datastore {}; {m} members in the benchmark's process (plain Kubernetes API servers, no workload simulator: they only store objects); one PropagationPolicy per member; Deployments labelled for member i mod {m}; {IN_FLIGHT} creates in flight; part A {first} workloads, then {} more for {total}.",
            if p.etcd { "etcd (3 members on loopback)" } else { "SQLite" },
            total - first
        );
        println!();
        println!("| measure | karmadactl | limit measured in the same run | goal |");
        println!("|---|---|---|---|");
        println!(
            "| plane peak RSS (VmHWM), {m} members, {first} workloads, until every member holds its Deployments | {:.0} MiB (highest sampled VmRSS {:.0} MiB; {:.0} MiB {} s after) | what the plane stores for them, as JSON: {} templates {:.1} MiB + {} bindings {:.1} MiB + {} Works {:.1} MiB = {:.1} MiB | ≤ 1 GiB |",
            mib(self.a_hwm_kib),
            mib(self.a_sampled_kib),
            mib(self.a_settled_kib),
            SETTLE.as_secs(),
            self.a_sizes[0].1,
            mb(self.a_sizes[0].0),
            self.a_sizes[1].1,
            mb(self.a_sizes[1].0),
            self.a_sizes[2].1,
            mb(self.a_sizes[2].0),
            mb(stored),
        );
        println!(
            "| {first} workloads: first create → every object in its member | {} (creates answered in {}: {:.0}/s) | {total} creates straight into the members: {} ({:.0}/s) | — |",
            outcome(self.a_missing, self.a.wall, first),
            secs(self.a_create),
            first as f64 / self.a_create.as_secs_f64(),
            secs(self.direct),
            total as f64 / self.direct.as_secs_f64(),
        );
        println!(
            "| CPU during part A ({}) | plane {:.1} s; this process ({m} members + client) {:.1} s | {} cores × wall = {:.1} CPU-s; other processes used {} of the machine | — |",
            secs(self.a.wall),
            self.a.plane_cpu,
            self.a.bench_cpu,
            self.a.cores,
            self.a.cores as f64 * self.a.wall.as_secs_f64(),
            pct(self.a.others),
        );
        println!(
            "| {} more workloads (to {total}): first create → every object in its member | {} (creates answered in {}); plane VmHWM now {:.0} MiB; CPU: plane {:.1} s, this process {:.1} s | other processes used {} of the machine | — |",
            total - first,
            outcome(self.b_missing, self.b.wall, total - first),
            secs(self.b_create),
            mib(self.b_hwm_kib),
            self.b.plane_cpu,
            self.b.bench_cpu,
            pct(self.b.others),
        );
        println!(
            "| plane RSS {} s after the last object arrived | {:.0} MiB ({:.2}× the RSS then) | RSS when the last object arrived: {:.0} MiB | ≤ 1.3× |",
            AFTER_LOAD.as_secs(),
            mib(self.b_later_kib),
            self.b_later_kib as f64 / self.b_rss_kib.max(1) as f64,
            mib(self.b_rss_kib),
        );
        println!("| plane stop (SIGTERM → exit) | {} | — | — |", secs(self.stop));
        println!(
            "| restart with {total} workloads (member copies all deleted while down; {} left): start → URL printed | {} | — | — |",
            self.deleted_left,
            secs(self.first_line)
        );
        println!("| restart: start → /readyz | {} | — | — |", secs(self.readyz));
        println!(
            "| restart: start → every Work applied (all {total} objects back in their members) | {} | {total} creates straight into the members: {}; LIST of all {total} Works at the plane before the stop: {} ({:.0} MiB) | ≤ 30 s (upstream ≈ 5 min) |",
            outcome(self.restart_missing, self.restart.wall, total),
            secs(self.direct),
            secs(self.works_list),
            mb(self.works_bytes),
        );
        println!(
            "| restart: CPU and plane peak RSS | plane {:.1} s CPU, VmHWM {:.0} MiB; this process ({m} members + client) {:.1} s CPU | {} cores × wall = {:.1} CPU-s; other processes used {} of the machine | — |",
            self.restart.plane_cpu,
            mib(self.restart_hwm_kib),
            self.restart.bench_cpu,
            self.restart.cores,
            self.restart.cores as f64 * self.restart.wall.as_secs_f64(),
            pct(self.restart.others),
        );
        println!(
            "| {m} in-process members: start; `join` ({JOINS_IN_FLIGHT} at a time) | {}; {} | — | — |",
            secs(self.members_start),
            secs(self.joins)
        );
        println!(
            "| this process's RSS: {m} idle members at start; peak (members with {total} objects + client) | {:.0} MiB; {:.0} MiB | — | — |",
            mib(self.member_rss_kib),
            mib(self.bench_hwm_kib)
        );
        if !self.same_port {
            println!();
            println!("The restarted plane listened on another port (the first one was not free again).");
        }
    }
}
