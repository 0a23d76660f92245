//! API server benchmark: starts the real release binary (`karmadactl controlplane serve`) in a
//! temp data dir, drives it over HTTPS on loopback, and prints a Markdown section for
//! docs/performance.md. Run with `cargo bench --bench apiserver`.
//!
//! Every figure sits beside its physical limit, measured in the same run on the same machine:
//! process start (`/bin/true`), a bare hyper + rustls server with the plane's own TLS
//! configuration answering pre-built bodies of the same size, raw SQLite commits with a full
//! fsync on the same disk, the bare server streaming watch lines to the same watchers, and a
//! tokio broadcast fan-out. The load generator and the servers share the machine's cores, for
//! the karmadactl figures and for their limits alike.
//!
//! `APISERVER_BENCH_BINARY=/path/to/karmadactl` makes it start that binary instead of this
//! build's (to compare two commits with the same load generator); the section names it.
//!
//! `APISERVER_BENCH_WATCH_WRITES=N` changes the number of writes the watchers see (100), so a
//! profiler attached to the server has a longer fan-out to sample.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;

#[path = "apiserver/bare.rs"]
mod bare;
#[path = "apiserver/client.rs"]
mod client;
#[path = "apiserver/floors.rs"]
mod floors;
#[path = "apiserver/load.rs"]
mod load;
#[path = "apiserver/process.rs"]
mod process;
#[path = "apiserver/watch.rs"]
mod watch;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use bytes::Bytes;
use tokio::runtime::Runtime;

use client::{Conn, Target};

/// Run parameters (printed with the results).
const COLD_STARTS: usize = 5;
const IDLE: Duration = Duration::from_secs(2);
const GET_RATE: f64 = 5_000.0;
const CREATE_RATE: f64 = 1_000.0;
const RUN: Duration = Duration::from_secs(5);
const WARMUP: Duration = Duration::from_secs(1);
const LOAD_CONNECTIONS: usize = 4;
const CLIENTS: usize = 64;
const CLIENT_CONNECTIONS: usize = 8;
const APPLIES: usize = 300;
const LIST_OBJECTS: u64 = 10_000;
const LIST_RUNS: usize = 5;
const WATCH_CONNECTIONS: usize = 10;
const WATCH_STREAMS: usize = 100;
const WATCH_WRITES: usize = 100;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("bare-server") {
        let pki = args.get(2).map(PathBuf::from).expect("bare-server needs the PKI directory");
        bare::child_main(&pki);
    }
    if let Err(e) = run() {
        eprintln!("apiserver benchmark failed: {e:#}");
        std::process::exit(1);
    }
}

/// Progress goes to stderr so that stdout is only the Markdown section.
macro_rules! progress {
    ($($arg:tt)*) => { eprintln!("[apiserver bench] {}", format!($($arg)*)) };
}

fn watch_writes() -> usize {
    std::env::var("APISERVER_BENCH_WATCH_WRITES").ok().and_then(|v| v.parse().ok()).unwrap_or(WATCH_WRITES)
}

fn runtime(name: &str) -> anyhow::Result<Runtime> {
    // Two workers, like the server's own runtime on this 2-core machine.
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(name)
        .enable_all()
        .build()
        .context("building a tokio runtime")
}

struct Row {
    measure: String,
    ours: String,
    limit: String,
    goal: String,
}

fn row(measure: impl Into<String>, ours: impl Into<String>, limit: impl Into<String>, goal: impl Into<String>) -> Row {
    Row { measure: measure.into(), ours: ours.into(), limit: limit.into(), goal: goal.into() }
}

fn run() -> anyhow::Result<()> {
    let base = tempfile::Builder::new().prefix("karmadactl-apiserver-bench-").tempdir().context("temp dir")?;
    let client_rt = runtime("bench-client")?;
    let bare_rt = runtime("bench-bare")?;
    let mut rows: Vec<Row> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let cpu_start = process::CpuShare::now(&[]);

    // 1. Cold start, fresh data dir each time (PKI generation included).
    progress!("cold start x{COLD_STARTS}");
    let mut line_times = Vec::new();
    let mut ready_times = Vec::new();
    for i in 0..COLD_STARTS {
        let dir = base.path().join(format!("cold-{i}"));
        let proc = process::plane(&dir)?;
        let target = Target::from_kubeconfig(&dir.join("admin.kubeconfig"))?;
        let ready = client_rt.block_on(readyz_until_ok(&target))?;
        line_times.push(proc.first_line);
        ready_times.push(ready - proc.started);
    }

    // The plane for everything else.
    let plane_dir = base.path().join("plane");
    let plane = process::plane(&plane_dir)?;
    let kubeconfig = plane_dir.join("admin.kubeconfig");
    let pki = plane_dir.join("pki");
    let target = Target::from_kubeconfig(&kubeconfig)?;
    client_rt.block_on(readyz_until_ok(&target))?;

    // 2. Idle RSS, after one request and two quiet seconds.
    progress!("idle RSS");
    std::thread::sleep(IDLE);
    let plane_rss = plane.rss_kib()?;

    // Limits for 1 and 2: the bare server as its own process, in this process, and /bin/true.
    progress!("bare server cold start and RSS");
    let mut bare_line = Vec::new();
    let mut bare_ready = Vec::new();
    let mut bare_rss = 0;
    for i in 0..COLD_STARTS {
        let child = process::bare(&pki, &base.path().join("bare.log"))?;
        let at = child.url.strip_prefix("https://").unwrap_or_default().parse().context("bare server URL")?;
        let ready = client_rt.block_on(readyz_until_ok(&target.at(at)))?;
        bare_line.push(child.first_line);
        bare_ready.push(ready - child.started);
        if i == COLD_STARTS - 1 {
            std::thread::sleep(IDLE);
            bare_rss = child.rss_kib()?;
        }
    }
    let mut inproc_ready = Vec::new();
    for _ in 0..COLD_STARTS {
        let started = Instant::now();
        let (addr, task) = start_bare(&bare_rt, &pki, Arc::new(bare::Bodies::default()))?;
        // The client reads the kubeconfig here too, as it does against the plane.
        let client = Target::from_kubeconfig(&kubeconfig)?.at(addr);
        let ready = client_rt.block_on(readyz_until_ok(&client))?;
        inproc_ready.push(ready - started);
        task.abort();
    }
    let mut bin_true = Vec::new();
    for _ in 0..25 {
        bin_true.push(process::bin_true()?);
    }
    // The first runs only warm the page cache.
    bin_true.drain(..5);
    rows.push(row(
        format!("cold start: spawn → URL printed (median of {COLD_STARTS} fresh data dirs)"),
        ms(median(&mut line_times)),
        format!("bare HTTPS server process {}; `/bin/true` {}", ms(median(&mut bare_line)), ms(median(&mut bin_true))),
        "≤ 300 ms",
    ));
    rows.push(row(
        "cold start: spawn → first `GET /readyz` 200 (new client: kubeconfig, TLS, HTTP/2)",
        ms(median(&mut ready_times)),
        format!(
            "bare server process {}; bare server in-process {}",
            ms(median(&mut bare_ready)),
            ms(median(&mut inproc_ready))
        ),
        "≤ 300 ms",
    ));
    rows.push(row(
        format!("idle RSS ({} s after start)", IDLE.as_secs()),
        mb(plane_rss),
        format!("bare HTTPS server process {}", mb(bare_rss)),
        "≤ 40 MB",
    ));

    // The persistent bare server for the load figures.
    let bodies = Arc::new(bare::Bodies::default());
    let (bare_addr, _bare_task) = start_bare(&bare_rt, &pki, bodies.clone())?;
    let bare_target = target.at(bare_addr);
    let setup = client_rt.block_on(target.connect())?;

    // 3. GET of one object, open loop.
    progress!("GET at {GET_RATE}/s");
    let get_path = "/api/v1/namespaces/default/configmaps/bench-get";
    let object = client_rt.block_on(async {
        client::expect(
            &setup,
            client::post(target.uri("/api/v1/namespaces/default/configmaps"), client::configmap("bench-get")),
            201,
        )
        .await?;
        client::expect(&setup, client::get(target.uri(get_path)), 200).await
    })?;
    *bodies.object.write().map_err(|_| anyhow::anyhow!("poisoned"))? = object.clone();
    let cpu_before = process::cpu_seconds(plane.pid());
    let phase = process::CpuShare::now(&[plane.pid()]);
    let get_ours = get_load(&client_rt, &target, get_path)?;
    let get_others = phase.since(&[plane.pid()]).others;
    let get_cpu = process::cpu_seconds(plane.pid()) - cpu_before;
    let get_bare = get_load(&client_rt, &bare_target, get_path)?;
    check_errors("GET", get_ours.errors as u64, &get_ours.first_error)?;
    check_errors("bare server GET", get_bare.errors as u64, &get_bare.first_error)?;
    rows.push(row(
        format!(
            "GET one ConfigMap ({} B) at {}/s over {LOAD_CONNECTIONS} HTTP/2 connections, p50",
            object.len(),
            n(GET_RATE)
        ),
        ms(get_ours.pct(0.50)),
        format!("bare server, same body: {}", ms(get_bare.pct(0.50))),
        "",
    ));
    rows.push(row(
        "GET one ConfigMap, p99",
        ms(get_ours.pct(0.99)),
        format!("bare server: {}", ms(get_bare.pct(0.99))),
        "≤ 2 ms",
    ));
    notes.push(format!(
        "GET: {} requests/s achieved; server CPU {:.0} µs per GET (user + system, from /proc over the measured run and its warm-up); p99.9 {} (bare {}); max {} (bare {}); other processes during the run: {:.0}% of the cores.",
        n(get_ours.achieved_per_sec),
        get_cpu * 1e6 / (GET_RATE * (RUN + WARMUP).as_secs_f64()),
        ms(get_ours.pct(0.999)),
        ms(get_bare.pct(0.999)),
        ms(get_ours.pct(1.0)),
        ms(get_bare.pct(1.0)),
        get_others * 100.0,
    ));

    // 4. Durable creates, open loop; limit: raw SQLite commits.
    progress!("creates at {CREATE_RATE}/s");
    let durable_ns = "bench-durable";
    client_rt.block_on(client::ensure_namespace(&target, &setup, durable_ns))?;
    let conns = client_rt.block_on(target.connect_many(LOAD_CONNECTIONS))?;
    let create_uri = target.uri(&format!("/api/v1/namespaces/{durable_ns}/configmaps"));
    let create = |prefix: &'static str| {
        let (conns, uri) = (conns.clone(), create_uri.clone());
        move |i: u64| {
            let conn = conns[i as usize % conns.len()].clone();
            let req = client::post(uri.clone(), client::configmap(&format!("{prefix}-{i}")));
            async move { client::expect(&conn, req, 201).await.map(|_| ()) }
        }
    };
    load::open_loop(&client_rt, CREATE_RATE, WARMUP / 2, create("warm"));
    let cpu_before = process::cpu_seconds(plane.pid());
    let phase = process::CpuShare::now(&[plane.pid()]);
    let creates = load::open_loop(&client_rt, CREATE_RATE, RUN, create("d"));
    let create_others = phase.since(&[plane.pid()]).others;
    let create_cpu = process::cpu_seconds(plane.pid()) - cpu_before;
    check_errors("create", creates.errors as u64, &creates.first_error)?;
    progress!("raw SQLite commits");
    let raw_dir = base.path().join("raw");
    std::fs::create_dir_all(&raw_dir).context("raw SQLite dir")?;
    // The stored value is the object as served (server-set fields included).
    let value = object.clone();
    let mut raw_db = floors::RawSqlite::open(&raw_dir)?;
    let raw_paced = raw_db.paced(&value, CREATE_RATE, Duration::from_secs(3))?;
    let raw = raw_db.flat_out(&value, Duration::from_secs(2))?;
    rows.push(row(
        format!("durable create (POST ConfigMap) at {}/s, p50", n(CREATE_RATE)),
        ms(creates.pct(0.50)),
        format!("raw SQLite commit (WAL, synchronous=FULL), same pacing: {}", ms(load::pct(&raw_paced.sorted, 0.50))),
        "",
    ));
    rows.push(row(
        "durable create, p99",
        ms(creates.pct(0.99)),
        format!("raw SQLite commit: {}", ms(load::pct(&raw_paced.sorted, 0.99))),
        "≤ 5 ms",
    ));
    notes.push(format!(
        "Durable create: {} creates/s achieved; server CPU {:.0} µs per create; p99.9 {} (raw SQLite {}); max {} (raw SQLite {}); other processes during the run: {:.0}% of the cores.",
        n(creates.achieved_per_sec),
        create_cpu * 1e6 / (CREATE_RATE * RUN.as_secs_f64()),
        ms(creates.pct(0.999)),
        ms(load::pct(&raw_paced.sorted, 0.999)),
        ms(creates.pct(1.0)),
        ms(load::pct(&raw_paced.sorted, 1.0)),
        create_others * 100.0,
    ));

    // 4b. Server-side apply of a changed field on an existing Deployment, one request at a time;
    // each is a durable write, so the limit is again a raw SQLite commit.
    progress!("server-side apply x{APPLIES}");
    let apply_ns = "bench-apply";
    client_rt.block_on(client::ensure_namespace(&target, &setup, apply_ns))?;
    let cpu_before = process::cpu_seconds(plane.pid());
    let applies = client_rt.block_on(apply_runs(&target, apply_ns))?;
    let apply_cpu = process::cpu_seconds(plane.pid()) - cpu_before;
    rows.push(row(
        format!(
            "server-side apply (PATCH apply-patch+yaml, Deployment, one field changed), {APPLIES} in sequence, p50"
        ),
        ms(load::pct(&applies, 0.50)),
        format!("raw SQLite commit: {}", ms(load::pct(&raw_paced.sorted, 0.50))),
        "",
    ));
    rows.push(row(
        "server-side apply, p99",
        ms(load::pct(&applies, 0.99)),
        format!("raw SQLite commit: {}", ms(load::pct(&raw_paced.sorted, 0.99))),
        "",
    ));
    notes.push(format!(
        "Server-side apply: field manager `bench`, the Deployment's managedFields and defaults recomputed on each request; server CPU {:.0} µs per apply (warm-up included); max {}.",
        apply_cpu * 1e6 / (APPLIES + APPLY_WARMUP) as f64,
        ms(load::pct(&applies, 1.0)),
    ));

    // 5. Throughput with 64 closed-loop clients.
    progress!("{CLIENTS} clients creating");
    let load_ns = "bench-load";
    let throughput = client_rt.block_on(creates_closed_loop(&target, &setup, load_ns, "c", u64::MAX, RUN))?;
    check_errors("closed-loop create", throughput.errors, &throughput.first_error)?;
    progress!("store alone");
    let alone_dir = base.path().join("alone");
    std::fs::create_dir_all(&alone_dir).context("store dir")?;
    let (alone_per_sec, per_commit) =
        client_rt.block_on(floors::store_alone(&alone_dir, value.clone(), CLIENTS, Duration::from_secs(3)))?;
    rows.push(row(
        format!("creates/s, {CLIENTS} concurrent clients (closed loop, {CLIENT_CONNECTIONS} connections)"),
        format!("{}/s", n(throughput.per_sec())),
        format!("raw SQLite, one commit (fsync) per write, 1 thread: {}/s", n(raw.per_sec)),
        "≥ 8,000/s",
    ));
    notes.push(format!(
        "Group commit: the store alone (in-process `SqliteStore`, {CLIENTS} writers, no HTTP or JSON) did {} creates/s at {per_commit:.1} writes per commit (fsync); without group commit the ceiling would be the raw {} commits/s.",
        n(alone_per_sec),
        n(raw.per_sec)
    ));

    // 6. LIST of 10,000 objects.
    progress!("loading {LIST_OBJECTS} objects for LIST");
    let list_ns = "bench-list";
    let loaded = client_rt.block_on(creates_closed_loop(
        &target,
        &setup,
        list_ns,
        "l",
        LIST_OBJECTS,
        Duration::from_secs(120),
    ))?;
    check_errors("LIST loader", loaded.errors, &loaded.first_error)?;
    if loaded.ok != LIST_OBJECTS {
        bail!("the loader created {} of {LIST_OBJECTS} objects", loaded.ok);
    }
    progress!("LIST x{LIST_RUNS}");
    let list_path = format!("/api/v1/namespaces/{list_ns}/configmaps");
    let cpu_before = process::cpu_seconds(plane.pid());
    let phase = process::CpuShare::now(&[plane.pid()]);
    let (list_ours, list_body) = client_rt.block_on(list_runs(&target, &list_path))?;
    let list_others = phase.since(&[plane.pid()]).others;
    let list_cpu = (process::cpu_seconds(plane.pid()) - cpu_before) / (LIST_RUNS + 1) as f64;
    let items = serde_json::from_slice::<serde_json::Value>(&list_body)
        .ok()
        .and_then(|v| v["items"].as_array().map(Vec::len))
        .unwrap_or(0);
    if items as u64 != LIST_OBJECTS {
        bail!("the LIST returned {items} items, wanted {LIST_OBJECTS}");
    }
    *bodies.list.write().map_err(|_| anyhow::anyhow!("poisoned"))? = list_body.clone();
    let (list_bare, _) = client_rt.block_on(list_runs(&bare_target, &list_path))?;
    rows.push(row(
        format!(
            "LIST {} ConfigMaps, no limit ({:.1} MB), p50 of {LIST_RUNS}",
            n(LIST_OBJECTS as f64),
            list_body.len() as f64 / 1e6
        ),
        ms(list_ours),
        format!("bare server, same bytes pre-serialised: {}", ms(list_bare)),
        "≤ 100 ms",
    ));
    notes.push(format!(
        "LIST: server CPU {} per LIST (user + system, all threads); other processes during the LISTs: {:.0}% of the cores; the {} objects were created by the {CLIENTS}-client loader at {}/s.",
        ms(Duration::from_secs_f64(list_cpu.max(0.0))),
        list_others * 100.0,
        n(LIST_OBJECTS as f64),
        n(loaded.per_sec())
    ));

    // 7. One write, 1,000 watchers.
    let writes = watch_writes();
    progress!("{} watchers, {writes} writes", WATCH_CONNECTIONS * WATCH_STREAMS);
    let phase = process::CpuShare::now(&[plane.pid()]);
    let fan = client_rt.block_on(watch::fanout(
        &target,
        plane.pid(),
        "bench-watch",
        WATCH_CONNECTIONS,
        WATCH_STREAMS,
        writes,
    ))?;
    let watch_others = phase.since(&[plane.pid()]).others;
    // The payload of one event: the object plus the `{"type":"ADDED","object":...}` envelope.
    let event_size = object.len() + 28;
    let floor = client_rt.block_on(floors::broadcast_fanout(
        WATCH_CONNECTIONS * WATCH_STREAMS,
        writes,
        Bytes::from(vec![b'x'; event_size]),
    ));
    // The same watchers and writes against the bare server: TLS, HTTP/2 streams, tokio tasks
    // and this client, with no store or handler behind them.
    progress!("{} watchers on the bare server", WATCH_CONNECTIONS * WATCH_STREAMS);
    bodies.event_size.store(event_size, std::sync::atomic::Ordering::Relaxed);
    let bare_fan = client_rt.block_on(watch::fanout(
        &bare_target,
        std::process::id(),
        "bench-watch",
        WATCH_CONNECTIONS,
        WATCH_STREAMS,
        writes,
    ))?;
    if bare_fan.missing > 0 {
        bail!("the bare server lost {} watch deliveries", bare_fan.missing);
    }
    let watchers = WATCH_CONNECTIONS * WATCH_STREAMS;
    let shown = n(watchers as f64);
    rows.push(row(
        format!(
            "write seen by {shown} watchers ({WATCH_CONNECTIONS} connections × {WATCH_STREAMS} streams, {writes} writes): per-watcher delay from sending the create, p50"
        ),
        ms(load::pct(&fan.delays, 0.50)),
        format!(
            "bare server streaming the same lines: {}; tokio broadcast to {shown} tasks in-process: {}",
            ms(load::pct(&bare_fan.delays, 0.50)),
            ms(load::pct(&floor, 0.50))
        ),
        "",
    ));
    rows.push(row(
        "write seen by watchers, p99",
        ms(load::pct(&fan.delays, 0.99)),
        format!(
            "bare server: {}; tokio broadcast: {}",
            ms(load::pct(&bare_fan.delays, 0.99)),
            ms(load::pct(&floor, 0.99))
        ),
        "≤ 5 ms",
    ));
    notes.push(format!(
        "Watch fan-out: the create itself (durable commit) took {} p50; the last of the {shown} watchers had each event {} p50, {} worst; opening the {shown} watches took {}; {} deliveries missing. Server CPU per write with the {shown} watchers: {}; other processes during the watch test: {:.0}% of the cores.",
        ms(load::pct(&fan.write_latency, 0.50)),
        ms(load::pct(&fan.last, 0.50)),
        ms(load::pct(&fan.last, 1.0)),
        ms(fan.open),
        fan.missing,
        ms(fan.cpu_per_write),
        watch_others * 100.0,
    ));
    notes.push(format!(
        "Watch fan-out on the bare server (a POST publishes the posted object as an ADDED line padded to the plane's {event_size}-byte event; no store): the POST took {} p50; the last watcher had each event {} p50, {} worst.",
        ms(load::pct(&bare_fan.write_latency, 0.50)),
        ms(load::pct(&bare_fan.last, 0.50)),
        ms(load::pct(&bare_fan.last, 1.0)),
    ));
    let (encode_once, encode_each) = floors::watch_json(&object, watchers)?;
    notes.push(format!(
        "Watch fan-out JSON work, re-enacted in-process for one event: encoding it once and sharing the bytes with the {shown} watchers (what the server does) {:.1} µs; every watcher decoding and re-serialising it (as it was done before) {}.",
        encode_once.as_secs_f64() * 1e6,
        ms(encode_each),
    ));

    // Did the server survive all of it?
    let survived = client_rt.block_on(async {
        let conn = target.connect().await?;
        client::expect(&conn, client::get(target.uri("/readyz")), 200).await
    });
    if let Err(e) = survived {
        notes.push(format!("After the run the server no longer answered /readyz: {e:#}."));
    }
    notes.push(format!("Server RSS after the whole run: {}.", mb(plane.rss_kib().unwrap_or(0))));
    drop(plane);

    // Where the LIST time goes, with the plane stopped (its store is locked while it runs).
    progress!("LIST re-enacted in-process");
    let prefix = karmadactl_apiserver::storage::store_access::prefix("", "configmaps", Some(list_ns));
    let split = client_rt.block_on(floors::list_in_process(&plane_dir.join("state.db"), &prefix, LIST_RUNS))?;
    notes.push(format!(
        "LIST split, re-enacted in-process on the plane's database (no HTTP): store read in pages of 500 (with per-page counts) {} against one unpaged read (what the handler does) {}; splicing every stored object into the list (what the handler does) {}, against decoding every object {} and serialising the list {} (as it was done before).",
        ms(split.store),
        ms(split.store_unpaged),
        ms(split.splice),
        ms(split.decode),
        ms(split.serialize),
    ));

    let binary = process::karmadactl_binary();
    notes.push(format!("Server binary: `{}`, {}.", binary.display(), build_of(&binary)));
    let share = cpu_start.since(&[]);
    notes.push(format!(
        "Other processes on the machine used {:.0}% of the {} cores on average during the run (the benchmark and its servers: {:.0}%). Anything above a few percent inflates both columns.",
        share.others * 100.0,
        share.cores,
        share.ours * 100.0,
    ));
    print_section(&rows, &notes);
    Ok(())
}

/// The commit and tree state `karmadactl version` reports for `binary`.
fn build_of(binary: &std::path::Path) -> String {
    let out = std::process::Command::new(binary).arg("version").output().map(|o| o.stdout).unwrap_or_default();
    let text = String::from_utf8_lossy(&out);
    let field = |name: &str| {
        let start = text.find(&format!("{name}:\"")).map(|i| i + name.len() + 2)?;
        text[start..].split('"').next().map(str::to_string)
    };
    match (field("GitShortCommit"), field("GitTreeState")) {
        (Some(commit), Some(state)) => format!("commit {commit} ({state} tree)"),
        _ => "commit unknown".to_string(),
    }
}

/// Starts the bare server on its own runtime (as if it were another process) with the plane's
/// TLS configuration: TLS setup, bind and the accept loop, as a server start does.
fn start_bare(
    rt: &Runtime,
    pki: &std::path::Path,
    bodies: Arc<bare::Bodies>,
) -> anyhow::Result<(std::net::SocketAddr, tokio::task::JoinHandle<()>)> {
    let tls = bare::tls_from_pki(pki)?;
    let _guard = rt.enter();
    let std = std::net::TcpListener::bind("127.0.0.1:0").context("binding the bare server")?;
    std.set_nonblocking(true).context("non-blocking listener")?;
    let listener = tokio::net::TcpListener::from_std(std).context("tokio listener")?;
    let addr = listener.local_addr().context("bare server address")?;
    Ok((addr, rt.spawn(bare::serve(listener, tls, bodies))))
}

/// GETs `path` at [`GET_RATE`] for [`RUN`] after a warm-up, over fresh connections.
fn get_load(rt: &Runtime, target: &Target, path: &str) -> anyhow::Result<load::Latencies> {
    let conns: Vec<Conn> = rt.block_on(target.connect_many(LOAD_CONNECTIONS))?;
    let uri = target.uri(path);
    let make = |i: u64| {
        let conn = conns[i as usize % conns.len()].clone();
        let req = client::get(uri.clone());
        async move { client::expect(&conn, req, 200).await.map(|_| ()) }
    };
    load::open_loop(rt, GET_RATE, WARMUP, make);
    Ok(load::open_loop(rt, GET_RATE, RUN, make))
}

/// [`CLIENTS`] closed-loop clients creating `<prefix>-<i>` in `ns`.
async fn creates_closed_loop(
    target: &Target,
    setup: &Conn,
    ns: &str,
    prefix: &'static str,
    total: u64,
    run: Duration,
) -> anyhow::Result<load::Throughput> {
    client::ensure_namespace(target, setup, ns).await?;
    let conns = Arc::new(target.connect_many(CLIENT_CONNECTIONS).await?);
    let uri = target.uri(&format!("/api/v1/namespaces/{ns}/configmaps"));
    let deadline = Instant::now() + run;
    Ok(load::closed_loop(CLIENTS, total, deadline, move |i| {
        let conn = conns[i as usize % conns.len()].clone();
        let req = client::post(uri.clone(), client::configmap(&format!("{prefix}-{i}")));
        async move { client::expect(&conn, req, 201).await.map(|_| ()) }
    })
    .await)
}

/// Applies not timed before the [`APPLIES`] timed ones (the first creates the Deployment).
const APPLY_WARMUP: usize = 20;

/// [`APPLY_WARMUP`] then [`APPLIES`] timed server-side applies of one Deployment in `ns`, each
/// changing one template annotation, on one connection; the sorted latencies.
async fn apply_runs(target: &Target, ns: &str) -> anyhow::Result<Vec<Duration>> {
    let conn = target.connect().await?;
    let uri = target.uri(&format!("/apis/apps/v1/namespaces/{ns}/deployments/bench-apply?fieldManager=bench"));
    let mut times = Vec::with_capacity(APPLIES);
    for step in 0..(APPLY_WARMUP + APPLIES) as u64 {
        let want = if step == 0 { 201 } else { 200 };
        let started = Instant::now();
        client::expect(&conn, client::apply(uri.clone(), client::deployment("bench-apply", step)), want).await?;
        if step >= APPLY_WARMUP as u64 {
            times.push(started.elapsed());
        }
    }
    times.sort();
    Ok(times)
}

/// One warm-up and [`LIST_RUNS`] timed GETs of `path` on one connection; the median and the body.
async fn list_runs(target: &Target, path: &str) -> anyhow::Result<(Duration, Bytes)> {
    let conn = target.connect().await?;
    let mut body = client::expect(&conn, client::get(target.uri(path)), 200).await?;
    let mut times = Vec::with_capacity(LIST_RUNS);
    for _ in 0..LIST_RUNS {
        let started = Instant::now();
        body = client::expect(&conn, client::get(target.uri(path)), 200).await?;
        times.push(started.elapsed());
    }
    Ok((median(&mut times), body))
}

/// Polls `GET /readyz` with a new connection until it answers 200; returns when it did.
async fn readyz_until_ok(target: &Target) -> anyhow::Result<Instant> {
    let mut last_error = None;
    for _ in 0..500 {
        match async {
            let conn = target.connect().await?;
            client::expect(&conn, client::get(target.uri("/readyz")), 200).await
        }
        .await
        {
            Ok(_) => return Ok(Instant::now()),
            Err(e) => last_error = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Err(last_error.unwrap_or_else(|| anyhow::anyhow!("no attempt made"))).context("waiting for /readyz")
}

fn check_errors(what: &str, errors: u64, first: &Option<String>) -> anyhow::Result<()> {
    if errors > 0 {
        bail!("{errors} {what} requests failed; first: {}", first.as_deref().unwrap_or("?"));
    }
    Ok(())
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    load::pct(v, 0.50)
}

/// A count or rate with thousands separators: 5,000.
fn n(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn mb(kib: u64) -> String {
    format!("{:.1} MB", kib as f64 * 1024.0 / 1e6)
}

fn print_section(rows: &[Row], notes: &[String]) {
    println!("### API server: `karmadactl controlplane serve` ({})", jiff::Timestamp::now().strftime("%Y-%m-%d"));
    println!();
    println!("Machine: {}.", machine());
    println!();
    println!(
        "Parameters: release binary, fresh temp data dir on the local disk, HTTPS on 127.0.0.1 with the admin client certificate, HTTP/2; load generator in the same machine. Cold start: median of {COLD_STARTS}. Open-loop runs: {} s after a {} s warm-up, latency from each request's scheduled time. Closed loop: {CLIENTS} clients, {} s. LIST: {} objects, 1 warm-up + {LIST_RUNS} runs. Watch: {} watchers, {} writes one at a time.",
        RUN.as_secs(),
        WARMUP.as_secs_f64(),
        RUN.as_secs(),
        n(LIST_OBJECTS as f64),
        n((WATCH_CONNECTIONS * WATCH_STREAMS) as f64),
        watch_writes(),
    );
    println!();
    println!("| measure | karmadactl | physical limit | goal |");
    println!("|---|---|---|---|");
    for r in rows {
        println!("| {} | {} | {} | {} |", r.measure, r.ours, r.limit, r.goal);
    }
    println!();
    println!("Notes:");
    for n in notes {
        println!("* {n}");
    }
}
