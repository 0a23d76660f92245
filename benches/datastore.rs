//! Datastore benchmark: the same API figures (creates paced, from 64 clients and from one) and
//! propagation figures with the SQLite datastore and with a 3-member etcd cluster on loopback,
//! and how long two replicas sharing that etcd take to hand the controllers over when the
//! leader is killed. Run with `cargo bench --features etcd --bench
//! datastore`; it prints a Markdown section for docs/performance.md.
//!
//! Limits measured in the same run: raw SQLite commits (WAL, `synchronous=FULL`) and raw etcd
//! create transactions (the compare-and-put the plane sends for a create) from this process,
//! one create straight into the member (the last hop of propagation alone), and the controller
//! lease duration (no replica may take over sooner without risking two leaders).

#[path = "common/machine.rs"]
mod machine;
use machine::machine;

#[path = "common/process.rs"]
mod cli;
#[allow(dead_code)]
#[path = "apiserver/client.rs"]
mod client;
#[path = "../tests/it/common/etcd.rs"]
mod etcd;
#[allow(dead_code)]
#[path = "apiserver/floors.rs"]
mod floors;
#[allow(dead_code)]
#[path = "apiserver/load.rs"]
mod load;
#[allow(dead_code)]
#[path = "apiserver/process.rs"]
mod process;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use bytes::Bytes;
use etcd_client::{Compare, CompareOp, Txn, TxnOp};
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, DynamicObject, PostParams};
use kube::runtime::watcher;
use serde_json::json;
use tokio::runtime::Runtime;

use client::Target;
use process::Proc;

/// Run parameters (printed with the results).
const CLIENTS: usize = 64;
const CLIENT_CONNECTIONS: usize = 8;
const RUN: Duration = Duration::from_secs(5);
const WARMUP: Duration = Duration::from_secs(1);
const CREATE_RATE: f64 = 500.0;
const TEMPLATE_RATE: f64 = 20.0;
const TEMPLATES: usize = 200;
const DIRECT_CREATES: usize = 50;
const HANDOVERS: usize = 3;
/// The plane's default `--leader-elect-lease-duration`.
const LEASE_DURATION: Duration = Duration::from_secs(3);
/// How long one template may take to reach the member before the benchmark gives up.
const PATIENCE: Duration = Duration::from_secs(60);

macro_rules! progress {
    ($($arg:tt)*) => { eprintln!("[datastore bench] {}", format!($($arg)*)) };
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    if let Err(e) = run() {
        eprintln!("datastore benchmark failed: {e:#}");
        std::process::exit(1);
    }
}

/// What one datastore gave.
struct StoreFigures {
    creates_per_sec: f64,
    creates_per_sec_one_client: f64,
    create_latency: load::Latencies,
    propagation: Vec<Duration>,
    direct: Vec<Duration>,
}

struct Handover {
    lease_taken: Duration,
    template_in_member: Duration,
}

fn run() -> anyhow::Result<()> {
    let base = tempfile::Builder::new().prefix("karmadactl-datastore-bench-").tempdir().context("temp dir")?;
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let cpu = process::CpuShare::now(&[]);

    progress!("starting a 3-member etcd cluster");
    let etcd_cluster = etcd::EtcdCluster::start(3);
    let endpoints: Vec<String> = etcd_cluster.endpoints().split(',').map(str::to_string).collect();
    let datastore = etcd_cluster.datastore();
    let value = client::configmap("raw-0000000000");

    progress!("raw SQLite commits");
    let mut raw_sqlite = floors::RawSqlite::open(base.path())?;
    let sqlite_flat = raw_sqlite.flat_out(&value, RUN)?;
    let sqlite_paced = raw_sqlite.paced(&value, CREATE_RATE, RUN)?;

    progress!("raw etcd create transactions");
    let etcd_client = rt.block_on(etcd_client::Client::connect(&endpoints, None)).context("connecting to etcd")?;
    let etcd_flat = rt.block_on(raw_etcd_closed_loop(&etcd_client, &value, CLIENTS))?;
    let etcd_flat_one = rt.block_on(raw_etcd_closed_loop(&etcd_client, &value, 1))?;
    let etcd_paced = raw_etcd_paced(&rt, &etcd_client, &value)?;

    let sqlite = measure_store(&rt, base.path(), "sqlite", &[])?;
    let on_etcd = measure_store(&rt, base.path(), "etcd", &["--datastore", &datastore, "--etcd-prefix", "/bench"])?;
    let handovers = measure_handovers(&rt, base.path(), &datastore)?;
    let share = cpu.since(&[]);

    print_section(&Printed {
        sqlite: &sqlite,
        etcd: &on_etcd,
        sqlite_flat: &sqlite_flat,
        sqlite_paced: &sqlite_paced,
        etcd_flat,
        etcd_flat_one,
        etcd_paced: &etcd_paced,
        handovers: &handovers,
        others: share.others,
    });
    Ok(())
}

/// `clients` tasks sending the plane's create transaction for fresh keys for [`RUN`].
async fn raw_etcd_closed_loop(etcd: &etcd_client::Client, value: &Bytes, clients: usize) -> anyhow::Result<f64> {
    let (etcd, value) = (etcd.clone(), value.clone());
    let deadline = Instant::now() + RUN;
    let result = load::closed_loop(clients, u64::MAX, deadline, move |i| {
        let (mut kv, value) = (etcd.kv_client(), value.clone());
        async move { raw_create(&mut kv, &format!("/raw/closed-{clients}/c-{i}"), &value).await }
    })
    .await;
    if result.errors > 0 {
        bail!("{} raw etcd creates failed; first: {:?}", result.errors, result.first_error);
    }
    Ok(result.per_sec())
}

/// Raw create transactions paced at [`CREATE_RATE`], latency from each one's scheduled time.
fn raw_etcd_paced(rt: &Runtime, etcd: &etcd_client::Client, value: &Bytes) -> anyhow::Result<load::Latencies> {
    let make = |prefix: &'static str| {
        let (etcd, value) = (etcd.clone(), value.clone());
        move |i: u64| {
            let (mut kv, value) = (etcd.kv_client(), value.clone());
            async move { raw_create(&mut kv, &format!("/raw/{prefix}/c-{i}"), &value).await }
        }
    };
    load::open_loop(rt, CREATE_RATE, WARMUP, make("warm"));
    let latencies = load::open_loop(rt, CREATE_RATE, RUN, make("paced"));
    check(&latencies, "raw etcd create")?;
    Ok(latencies)
}

/// What the plane's etcd store sends for a create: put if the key has never been created.
async fn raw_create(kv: &mut etcd_client::KvClient, key: &str, value: &Bytes) -> anyhow::Result<()> {
    let txn = Txn::new().when([Compare::create_revision(key, CompareOp::Equal, 0)]).and_then([TxnOp::put(
        key,
        value.to_vec(),
        None,
    )]);
    let resp = kv.txn(txn).await.context("etcd txn")?;
    if !resp.succeeded() {
        bail!("{key} existed already");
    }
    Ok(())
}

fn check(latencies: &load::Latencies, what: &str) -> anyhow::Result<()> {
    if latencies.errors > 0 {
        bail!(
            "{} {what} requests failed; first: {}",
            latencies.errors,
            latencies.first_error.as_deref().unwrap_or("?")
        );
    }
    Ok(())
}

/// API creates (paced and closed loop) and template propagation on one plane.
fn measure_store(rt: &Runtime, base: &Path, name: &str, flags: &[&str]) -> anyhow::Result<StoreFigures> {
    progress!("{name}: API creates");
    let dir = base.join(format!("{name}-plane"));
    let plane = process::plane_with(&dir, flags)?;
    let kubeconfig = dir.join("admin.kubeconfig");
    let target = Target::from_kubeconfig(&kubeconfig)?;
    let setup = rt.block_on(wait_ready(&target))?;
    rt.block_on(client::ensure_namespace(&target, &setup, "paced"))?;
    let conns = rt.block_on(target.connect_many(4))?;
    let uri = target.uri("/api/v1/namespaces/paced/configmaps");
    let make = |prefix: &'static str| {
        let (conns, uri) = (conns.clone(), uri.clone());
        move |i: u64| {
            let conn = conns[i as usize % conns.len()].clone();
            let req = client::post(uri.clone(), client::configmap(&format!("{prefix}-{i}")));
            async move { client::expect(&conn, req, 201).await.map(|_| ()) }
        }
    };
    load::open_loop(rt, CREATE_RATE, WARMUP, make("warm"));
    let create_latency = load::open_loop(rt, CREATE_RATE, RUN, make("paced"));
    check(&create_latency, "create")?;

    rt.block_on(client::ensure_namespace(&target, &setup, "closed"))?;
    let conns = Arc::new(rt.block_on(target.connect_many(CLIENT_CONNECTIONS))?);
    let uri = target.uri("/api/v1/namespaces/closed/configmaps");
    let deadline = Instant::now() + RUN;
    let throughput = rt.block_on(load::closed_loop(CLIENTS, u64::MAX, deadline, move |i| {
        let conn = conns[i as usize % conns.len()].clone();
        let req = client::post(uri.clone(), client::configmap(&format!("c-{i}")));
        async move { client::expect(&conn, req, 201).await.map(|_| ()) }
    }));
    if throughput.errors > 0 {
        bail!("{} closed-loop creates failed; first: {:?}", throughput.errors, throughput.first_error);
    }
    rt.block_on(client::ensure_namespace(&target, &setup, "single"))?;
    let conn = rt.block_on(target.connect())?;
    let uri = target.uri("/api/v1/namespaces/single/configmaps");
    let deadline = Instant::now() + RUN;
    let one_client = rt.block_on(load::closed_loop(1, u64::MAX, deadline, move |i| {
        let (conn, req) = (conn.clone(), client::post(uri.clone(), client::configmap(&format!("s-{i}"))));
        async move { client::expect(&conn, req, 201).await.map(|_| ()) }
    }));
    if one_client.errors > 0 {
        bail!("{} one-client creates failed; first: {:?}", one_client.errors, one_client.first_error);
    }

    progress!("{name}: template propagation");
    let member_dir = base.join(format!("{name}-member1"));
    let member = start_member(&member_dir)?;
    join(base, &kubeconfig, &member_dir)?;
    let (propagation, direct) = rt.block_on(async {
        let plane = kube_client(&kubeconfig).await?;
        let member = kube_client(&member_dir.join("admin.kubeconfig")).await?;
        create_policy(&plane).await?;
        let seen = watch_member(member.clone());
        // Warm-up: the member is Ready, every kind followed, the member client made.
        propagate(&plane, &seen, "warm", 5).await?;
        let propagation = propagate(&plane, &seen, "t", TEMPLATES).await?;
        let direct = direct_creates(&member).await?;
        anyhow::Ok((propagation, direct))
    })?;
    drop((member, plane));
    Ok(StoreFigures {
        creates_per_sec: throughput.per_sec(),
        creates_per_sec_one_client: one_client.per_sec(),
        create_latency,
        propagation,
        direct,
    })
}

/// A simulated member: the same server in the plain-Kubernetes profile, workloads made ready.
fn start_member(dir: &Path) -> anyhow::Result<Proc> {
    process::plane_with(dir, &["--profile", "kubernetes", "--simulate-workloads", "--kubeconfig-context", "member1"])
}

fn join(home: &Path, plane_kubeconfig: &Path, member_dir: &Path) -> anyhow::Result<()> {
    let member_kubeconfig = member_dir.join("admin.kubeconfig");
    let args = [
        "join",
        "member1",
        "--kubeconfig",
        plane_kubeconfig.to_str().context("a UTF-8 path")?,
        "--cluster-kubeconfig",
        member_kubeconfig.to_str().context("a UTF-8 path")?,
    ];
    cli::run(home, &args);
    Ok(())
}

async fn kube_client(kubeconfig: &Path) -> anyhow::Result<kube::Client> {
    let kc = kube::config::Kubeconfig::read_from(kubeconfig)?;
    let cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await?;
    Ok(kube::Client::try_from(cfg)?)
}

/// Polls `GET /readyz` until it answers 200; returns the connection that got the answer.
async fn wait_ready(target: &Target) -> anyhow::Result<client::Conn> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Ok(conn) = target.connect().await
            && client::expect(&conn, client::get(target.uri("/readyz")), 200).await.is_ok()
        {
            return Ok(conn);
        }
        if Instant::now() > deadline {
            bail!("{} did not become ready", target.addr);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One PropagationPolicy sending every Deployment labelled `bench-target: member1` there.
async fn create_policy(plane: &kube::Client) -> anyhow::Result<()> {
    let pp: Api<DynamicObject> = Api::namespaced_with(
        plane.clone(),
        "default",
        &kube::api::ApiResource::from_gvk_with_plural(
            &kube::api::GroupVersionKind::gvk("policy.karmada.io", "v1alpha1", "PropagationPolicy"),
            "propagationpolicies",
        ),
    );
    let policy: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
        "metadata": {"name": "to-member1", "namespace": "default"},
        "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment",
                    "labelSelector": {"matchLabels": {"bench-target": "member1"}}}],
                 "placement": {"clusterAffinity": {"clusterNames": ["member1"]}}}
    }))?;
    pp.create(&PostParams::default(), &policy).await.context("creating the PropagationPolicy")?;
    Ok(())
}

type Seen = Arc<Mutex<HashMap<String, Instant>>>;

/// When each Deployment first appeared in the member's `default` namespace.
fn watch_member(member: kube::Client) -> Seen {
    let seen: Seen = Arc::default();
    let record = seen.clone();
    tokio::spawn(async move {
        let api: Api<Deployment> = Api::namespaced(member, "default");
        let mut stream = watcher(api, watcher::Config::default()).boxed();
        while let Some(event) = stream.next().await {
            if let Ok(watcher::Event::Apply(d) | watcher::Event::InitApply(d)) = event {
                let name = d.metadata.name.unwrap_or_default();
                record.lock().expect("not poisoned").entry(name).or_insert_with(Instant::now);
            }
        }
    });
    seen
}

fn deployment(name: &str) -> anyhow::Result<Deployment> {
    Ok(serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default", "labels": {"bench-target": "member1"}},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}
    }))?)
}

/// Creates `count` templates at [`TEMPLATE_RATE`] and returns, for each, the time from the
/// create's answer to the member's watch seeing the object.
async fn propagate(plane: &kube::Client, seen: &Seen, prefix: &str, count: usize) -> anyhow::Result<Vec<Duration>> {
    let api: Api<Deployment> = Api::namespaced(plane.clone(), "default");
    let interval = Duration::from_secs_f64(1.0 / TEMPLATE_RATE);
    let start = tokio::time::Instant::now();
    let mut tasks = vec![];
    for i in 0..count {
        tokio::time::sleep_until(start + interval * i as u32).await;
        let (api, name) = (api.clone(), format!("{prefix}-{i}"));
        let d = deployment(&name)?;
        tasks.push(tokio::spawn(async move {
            api.create(&PostParams::default(), &d).await.map(|_| (name, Instant::now()))
        }));
    }
    let mut created = Vec::with_capacity(count);
    for t in tasks {
        created.push(t.await?.context("creating a template")?);
    }
    let mut took = Vec::with_capacity(count);
    for (name, at) in created {
        took.push(seen_at(seen, &name).await?.saturating_duration_since(at));
    }
    took.sort();
    Ok(took)
}

/// When the member's watch saw `name`, waiting up to [`PATIENCE`].
async fn seen_at(seen: &Seen, name: &str) -> anyhow::Result<Instant> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(at) = seen.lock().expect("not poisoned").get(name) {
            return Ok(*at);
        }
        if Instant::now() > deadline {
            bail!("{name} did not reach the member within {PATIENCE:?}");
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// Creates straight into the member, one after the other: the last hop of propagation alone.
async fn direct_creates(member: &kube::Client) -> anyhow::Result<Vec<Duration>> {
    let api: Api<Deployment> = Api::namespaced(member.clone(), "default");
    let mut took = Vec::with_capacity(DIRECT_CREATES);
    for i in 0..DIRECT_CREATES {
        let d = deployment(&format!("direct-{i}"))?;
        let started = Instant::now();
        api.create(&PostParams::default(), &d).await.context("creating in the member")?;
        took.push(started.elapsed());
    }
    took.sort();
    Ok(took)
}

/// Two replicas on etcd with a member joined; [`HANDOVERS`] times the replica holding the
/// controller lease is killed (-9), a template is created through the other one at once, and
/// the benchmark records when the survivor holds the lease and when the template reaches the
/// member. The killed replica is then started afresh (new process, new data dir, same PKI).
fn measure_handovers(rt: &Runtime, base: &Path, datastore: &str) -> anyhow::Result<Vec<Handover>> {
    progress!("etcd: leader hand-over x{HANDOVERS}");
    let pki = base.join("replica-0").join("pki");
    let lease = format!("{}s", LEASE_DURATION.as_secs());
    let flags = ["--datastore", datastore, "--etcd-prefix", "/handover", "--leader-elect-lease-duration", &lease];
    let start_replica = |n: usize| -> anyhow::Result<Replica> {
        let dir = base.join(format!("replica-{n}"));
        let mut all = flags.to_vec();
        if n > 0 {
            // Every replica serves with the first one's CA and keys, as replicas of one plane must.
            all.extend(["--pki-dir", pki.to_str().context("a UTF-8 path")?]);
        }
        let proc = process::plane_with(&dir, &all)?;
        let kubeconfig = dir.join("admin.kubeconfig");
        rt.block_on(wait_ready(&Target::from_kubeconfig(&kubeconfig)?))?;
        Ok(Replica { proc, kubeconfig })
    };
    let mut replicas = [start_replica(0)?, start_replica(1)?];

    let member_dir = base.join("handover-member1");
    let _member = start_member(&member_dir)?;
    join(base, &replicas[0].kubeconfig, &member_dir)?;
    let member_kubeconfig = member_dir.join("admin.kubeconfig");
    let seen = rt.block_on(async {
        let plane = kube_client(&replicas[0].kubeconfig).await?;
        create_policy(&plane).await?;
        anyhow::Ok(watch_member(kube_client(&member_kubeconfig).await?))
    })?;
    let mut results = Vec::with_capacity(HANDOVERS);
    for round in 0..HANDOVERS {
        let handover = rt.block_on(async {
            let clients = [kube_client(&replicas[0].kubeconfig).await?, kube_client(&replicas[1].kubeconfig).await?];
            // Propagation works and a replica leads before anything is killed.
            propagate(&clients[0], &seen, &format!("before-{round}"), 1).await?;
            let holder = lease_holder(&clients[0]).await?;
            let leader = replicas
                .iter()
                .position(|r| holder.ends_with(&format!("_{}", address(&r.proc))))
                .with_context(|| format!("no replica holds the lease (holder {holder:?})"))?;
            let survivor = 1 - leader;
            let mine = format!("_{}", address(&replicas[survivor].proc));
            let killed = Instant::now();
            process::kill9(&mut replicas[leader].proc);
            let name = format!("after-{round}");
            let api: Api<Deployment> = Api::namespaced(clients[survivor].clone(), "default");
            api.create(&PostParams::default(), &deployment(&name)?).await.context("creating through the survivor")?;
            let lease_taken = loop {
                if lease_holder(&clients[survivor]).await.is_ok_and(|h| h.ends_with(&mine)) {
                    break killed.elapsed();
                }
                if killed.elapsed() > PATIENCE {
                    bail!("the survivor did not take the lease within {PATIENCE:?}");
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            };
            let template_in_member = seen_at(&seen, &name).await?.saturating_duration_since(killed);
            anyhow::Ok((leader, Handover { lease_taken, template_in_member }))
        })?;
        let (leader, figures) = handover;
        results.push(figures);
        replicas[leader] = start_replica(2 + round)?;
    }
    Ok(results)
}

struct Replica {
    proc: Proc,
    kubeconfig: std::path::PathBuf,
}

/// `127.0.0.1:PORT` of a replica, as its lease holder identity ends.
fn address(replica: &Proc) -> String {
    replica.url.trim_start_matches("https://").to_string()
}

async fn lease_holder(plane: &kube::Client) -> anyhow::Result<String> {
    let leases: Api<Lease> = Api::namespaced(plane.clone(), "kube-system");
    let lease = leases.get("karmadactl-controlplane").await.context("reading the controller lease")?;
    Ok(lease.spec.and_then(|s| s.holder_identity).unwrap_or_default())
}

struct Printed<'a> {
    sqlite: &'a StoreFigures,
    etcd: &'a StoreFigures,
    sqlite_flat: &'a floors::SqliteFloor,
    sqlite_paced: &'a floors::SqliteFloor,
    etcd_flat: f64,
    etcd_flat_one: f64,
    etcd_paced: &'a load::Latencies,
    handovers: &'a [Handover],
    others: f64,
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn pct(sorted: &[Duration], p: f64) -> String {
    ms(load::pct(sorted, p))
}

fn per_sec(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{out}/s")
}

fn print_section(p: &Printed) {
    println!("### Run: datastores ({})", jiff::Timestamp::now().strftime("%Y-%m-%d"));
    println!();
    println!("Machine: {}.", machine());
    println!();
    println!(
        "Parameters: release binary; etcd: 3 members on loopback (`--heartbeat-interval 50 --election-timeout 500`), data on the local disk; creates at {CREATE_RATE:.0}/s for {} s after a {} s warm-up (open loop, latency from the scheduled time), then {CLIENTS} closed-loop clients over {CLIENT_CONNECTIONS} connections for {} s, then one client for as long; {TEMPLATES} templates at {TEMPLATE_RATE:.0}/s to one simulated member; {HANDOVERS} hand-overs.",
        RUN.as_secs(),
        WARMUP.as_secs(),
        RUN.as_secs()
    );
    println!();
    println!("| measure | SQLite | etcd (3 members) | limits in the same run |");
    println!("|---|---|---|---|");
    // (clients, SQLite, etcd, raw etcd floor with as many clients)
    let creates = [
        (format!("{CLIENTS} concurrent clients"), p.sqlite.creates_per_sec, p.etcd.creates_per_sec, p.etcd_flat),
        (
            "1 client".to_string(),
            p.sqlite.creates_per_sec_one_client,
            p.etcd.creates_per_sec_one_client,
            p.etcd_flat_one,
        ),
    ];
    for (clients, sqlite, etcd, raw_etcd) in creates {
        println!(
            "| creates/s, {clients} | {} | {} | raw SQLite, one commit per write, 1 thread: {}; raw etcd create transactions, {clients}: {} |",
            per_sec(sqlite),
            per_sec(etcd),
            per_sec(p.sqlite_flat.per_sec),
            per_sec(raw_etcd)
        );
    }
    for (label, q) in [("p50", 0.5), ("p99", 0.99)] {
        println!(
            "| durable create at {CREATE_RATE:.0}/s, {label} | {} | {} | raw SQLite commit: {}; raw etcd create: {} |",
            pct(&p.sqlite.create_latency.sorted, q),
            pct(&p.etcd.create_latency.sorted, q),
            pct(&p.sqlite_paced.sorted, q),
            pct(&p.etcd_paced.sorted, q)
        );
    }
    for (label, q) in [("p50", 0.5), ("p99", 0.99)] {
        println!(
            "| template → object in the member at {TEMPLATE_RATE:.0}/s, {label} | {} | {} | one create into the member: {} (SQLite run), {} (etcd run) |",
            pct(&p.sqlite.propagation, q),
            pct(&p.etcd.propagation, q),
            pct(&p.sqlite.direct, q),
            pct(&p.etcd.direct, q)
        );
    }
    println!();
    println!(
        "Hand-over between two replicas on etcd (kill -9 of the lease holder; a template is created through the survivor right after the kill):"
    );
    println!();
    println!("| round | kill → survivor holds the lease | kill → the new template is in the member | lease duration |");
    println!("|---|---|---|---|");
    for (i, h) in p.handovers.iter().enumerate() {
        println!("| {} | {} | {} | {} |", i + 1, ms(h.lease_taken), ms(h.template_in_member), ms(LEASE_DURATION));
    }
    println!();
    println!("Other processes used {:.0}% of the cores during the run.", p.others * 100.0);
}
