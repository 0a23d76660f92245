//! The dashboard's overview at scale, in a real browser: the plane (the release binary,
//! `controlplane serve`) with 100 in-process members (as in the engine_scale benchmark) and
//! 10,000 Deployments propagated, one PropagationPolicy per member. Headless Chromium (the
//! browser test's flags and WebDriver client) logs in with `karmadactl dashboard -o json`'s
//! link, and each run times navigation start → the overview fully rendered ("100/100" members
//! Ready, 100 member rows, 10000 bindings counted), in the page with `performance.now()`.
//! Beside it, floors from the same run: when the page's own LISTs had arrived (resource
//! timing), and the same four LISTs fetched and parsed by the same page with nothing drawn.
//! Then the plane's CPU over an idle interval with no dashboard session, and with the
//! overview open, on the same fleet at rest.
//!
//! Run with `cargo bench --features etcd --bench dashboard`; prints a Markdown section for
//! docs/performance.md. DASHBOARD_BENCH_MEMBERS, _WORKLOADS, _RUNS, _IDLE (seconds) and _WAIT
//! (seconds each wait for the fleet may take) shrink or stretch the run.

#[path = "engine_scale/fleet.rs"]
mod fleet;
#[path = "common/machine.rs"]
mod machine;
#[allow(dead_code)] // delete_all is engine_scale's
#[path = "engine_scale/members.rs"]
mod members;
#[allow(dead_code)]
#[path = "apiserver/process.rs"]
mod process;
#[path = "../tests/it/common/webdriver.rs"]
mod webdriver;

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, PostParams};
use serde_json::{Value, json};

use fleet::{create_policies, deployment, env_or, join, member_name, wait_clusters_ready};
use machine::machine;
use members::Member;
use process::cpu_seconds;
use webdriver::Browser;

/// Requests kept in flight when creating the workloads.
const IN_FLIGHT: usize = 32;
const JOINS_IN_FLIGHT: usize = 4;
/// How long the fleet is left alone before idle CPU is measured.
const SETTLE: Duration = Duration::from_secs(10);

macro_rules! progress {
    ($($arg:tt)*) => { eprintln!("[dashboard bench] {}", format!($($arg)*)) };
}

struct Params {
    members: usize,
    workloads: usize,
    runs: usize,
    idle: Duration,
    wait: Duration,
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let p = Params {
        members: env_or("DASHBOARD_BENCH_MEMBERS", 100),
        workloads: env_or("DASHBOARD_BENCH_WORKLOADS", 10_000),
        runs: env_or("DASHBOARD_BENCH_RUNS", 7).max(1),
        idle: Duration::from_secs(env_or("DASHBOARD_BENCH_IDLE", 30) as u64),
        wait: Duration::from_secs(env_or("DASHBOARD_BENCH_WAIT", 300) as u64),
    };
    let rt = tokio::runtime::Runtime::new().expect("a tokio runtime");
    match rt.block_on(run(&p)) {
        Ok(report) => report.print(&p),
        Err(e) => {
            eprintln!("dashboard benchmark failed: {e:#}");
            std::process::exit(1);
        }
    }
}

async fn create_templates(plane: &kube::Client, n: usize, members: usize) -> anyhow::Result<()> {
    let api: Api<Deployment> = Api::namespaced(plane.clone(), "default");
    let results: Vec<_> = futures::stream::iter(0..n)
        .map(|i| {
            let api = api.clone();
            async move {
                let d = deployment(&format!("w-{i:05}"), "default", &member_name(i % members));
                api.create(&PostParams::default(), &d).await.context("creating a template at the plane")
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .collect()
        .await;
    results.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    Ok(())
}

/// Bindings at the plane with a scheduling result, polled until there are `n` or `timeout`
/// passes; returns how many there were.
async fn wait_scheduled(plane: &kube::Client, n: usize, timeout: Duration) -> anyhow::Result<usize> {
    let deadline = Instant::now() + timeout;
    loop {
        let req = http::Request::get("/apis/work.karmada.io/v1alpha2/resourcebindings").body(Vec::new())?;
        let list: Value = serde_json::from_str(&plane.request_text(req).await?)?;
        let items = list["items"].as_array().map(Vec::as_slice).unwrap_or_default();
        let scheduled =
            items.iter().filter(|b| b["spec"]["clusters"].as_array().is_some_and(|c| !c.is_empty())).count();
        if scheduled >= n || Instant::now() > deadline {
            return Ok(scheduled);
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

/// A fresh one-time login link from `karmadactl dashboard -o json`.
fn login_link(plane_kubeconfig: &Path, home: &Path) -> anyhow::Result<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_karmadactl"))
        .args(["dashboard", "-o", "json", "--kubeconfig"])
        .arg(plane_kubeconfig)
        .env("HOME", home)
        .stdin(std::process::Stdio::null())
        .output()?;
    if !out.status.success() {
        bail!("karmadactl dashboard failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let v: Value = serde_json::from_slice(&out.stdout)?;
    v["url"].as_str().map(str::to_string).context("no url in karmadactl dashboard -o json")
}

/// Resolves (in the page, polled every animation frame) with `performance.now()` once the
/// overview shows every member Ready, one row per member and every binding counted, plus the
/// resource timing of the LISTs the page made; `null` after 25 s (WebDriver's script timeout
/// is 30 s).
const RENDERED: &str = r#"
const [members, bindings] = arguments;
const done = () => {
  const text = (sel) => document.querySelector(sel)?.innerText || '';
  return text('#count-ready').includes(`${members}/${members}`)
    && document.querySelectorAll('tr[data-cluster]').length === members
    && text('#count-bindings').includes(String(bindings));
};
const already = done();
return new Promise((resolve) => {
  const started = performance.now();
  const poll = () => {
    if (done()) {
      const lists = performance.getEntriesByType('resource')
        .filter((e) => e.name.includes('/apis/') && !e.name.includes('watch='))
        .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd, bytes: e.encodedBodySize }));
      resolve({ rendered: performance.now(), already, lists });
    } else if (performance.now() - started > 25000) {
      resolve(null);
    } else {
      requestAnimationFrame(poll);
    }
  };
  poll();
});
"#;

/// The overview's four LISTs fetched and parsed by the logged-in page at once, nothing drawn:
/// milliseconds from the first request to the last parsed answer.
const LISTS_ONLY: &str = r#"
const paths = arguments[0];
const t0 = performance.now();
return Promise.all(paths.map((p) => fetch(p, { headers: { 'X-Karmada-Dashboard': '1', Accept: 'application/json' },
    credentials: 'same-origin', cache: 'no-store' }).then((r) => r.json())))
  .then((lists) => ({ ms: performance.now() - t0, items: lists.map((l) => (l.items || []).length) }));
"#;

const OVERVIEW_LISTS: [&str; 4] = [
    "/apis/cluster.karmada.io/v1alpha1/clusters",
    "/apis/policy.karmada.io/v1alpha1/propagationpolicies",
    "/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies",
    "/apis/work.karmada.io/v1alpha2/resourcebindings",
];

/// One timed page load.
struct Load {
    rendered_ms: f64,
    /// When the last of the page's LISTs had arrived (navigation start → responseEnd).
    lists_ms: f64,
    /// The bindings LIST's own request → response end.
    rb_ms: f64,
    rb_bytes: u64,
}

/// Logs in with a fresh link and times the overview; `Err` when it never rendered.
fn load_overview(b: &Browser, link: &str, p: &Params) -> anyhow::Result<Load> {
    // A new document each time: the link differs from the last only in its fragment.
    b.goto("about:blank");
    b.goto(link);
    let got = b.script(RENDERED, json!([p.members, p.workloads]));
    if got.is_null() {
        let page = b.text("main").unwrap_or_default();
        bail!("the overview was not fully rendered after 25 s; it showed:\n{page}");
    }
    if got["already"] == true {
        progress!("the overview was complete before the first poll: the figure is an upper bound");
    }
    let lists = got["lists"].as_array().cloned().unwrap_or_default();
    let f = |v: &Value| v.as_f64().unwrap_or(0.0);
    let rb = lists.iter().find(|e| e["path"].as_str().is_some_and(|s| s.ends_with("/resourcebindings")));
    Ok(Load {
        rendered_ms: f(&got["rendered"]),
        lists_ms: lists.iter().map(|e| f(&e["end"])).fold(0.0, f64::max),
        rb_ms: rb.map(|e| f(&e["end"]) - f(&e["start"])).unwrap_or(0.0),
        rb_bytes: rb.and_then(|e| e["bytes"].as_u64()).unwrap_or(0),
    })
}

/// The plane's CPU seconds over `d`.
async fn plane_cpu_over(pid: u32, d: Duration) -> f64 {
    let before = cpu_seconds(pid);
    tokio::time::sleep(d).await;
    cpu_seconds(pid) - before
}

struct Report {
    loads: Vec<Load>,
    lists_only: Vec<f64>,
    list_items: Vec<u64>,
    scheduled: usize,
    missing: usize,
    create_to_scheduled: Duration,
    idle_without: f64,
    idle_with: f64,
}

async fn run(p: &Params) -> anyhow::Result<Report> {
    let root = tempfile::tempdir()?;
    let home = root.path().join("home");
    std::fs::create_dir_all(&home)?;
    let plane_dir = root.path().join("plane");
    let plane_kubeconfig = plane_dir.join("admin.kubeconfig");

    progress!("starting the plane");
    let mut plane_proc = process::plane(&plane_dir)?;
    let pid = plane_proc.pid();
    let plane = karmadactl::local_plane::client::admin_client(&plane_kubeconfig).await?;

    progress!("starting and joining {} members", p.members);
    let mut members: Vec<Member> = vec![];
    for i in 0..p.members {
        let name = member_name(i);
        members.push(members::start_member(&name, &root.path().join("members").join(&name)).await?);
    }
    let joined: Vec<anyhow::Result<()>> = futures::stream::iter(members.iter())
        .map(|m| join(&home, &plane_kubeconfig, m))
        .buffer_unordered(JOINS_IN_FLIGHT)
        .collect()
        .await;
    joined.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    wait_clusters_ready(&plane, p.members).await?;
    create_policies(&plane, p.members).await?;

    progress!("creating {} workloads", p.workloads);
    let t = Instant::now();
    create_templates(&plane, p.workloads, p.members).await?;
    let scheduled = wait_scheduled(&plane, p.workloads, p.wait).await?;
    let create_to_scheduled = t.elapsed();
    progress!(
        "{scheduled} bindings scheduled after {:.1} s; waiting for the members",
        create_to_scheduled.as_secs_f64()
    );
    let per_member: Vec<usize> =
        (0..p.members).map(|m| (0..p.workloads).filter(|i| i % p.members == m).count()).collect();
    let missing =
        members::wait_counts(&members, "default", &per_member, Duration::from_secs(1), p.wait, "propagation").await;
    tokio::time::sleep(SETTLE).await;

    progress!("starting Chromium");
    let browser = Browser::start();
    browser.goto("about:blank");
    progress!("idle CPU with no dashboard session ({} s)", p.idle.as_secs());
    let idle_without = plane_cpu_over(pid, p.idle).await;

    progress!("{} timed loads of the overview", p.runs);
    let mut loads = vec![];
    for i in 0..p.runs {
        let link = login_link(&plane_kubeconfig, &home)?;
        let load = load_overview(&browser, &link, p)?;
        progress!("run {}: rendered at {:.0} ms (lists in at {:.0} ms)", i + 1, load.rendered_ms, load.lists_ms);
        loads.push(load);
    }
    let mut lists_only = vec![];
    let mut list_items = vec![];
    for _ in 0..p.runs {
        let got = browser.script(LISTS_ONLY, json!([OVERVIEW_LISTS]));
        lists_only.push(got["ms"].as_f64().unwrap_or(0.0));
        list_items = got["items"].as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
    }

    progress!("idle CPU with the overview open ({} s)", p.idle.as_secs());
    let link = login_link(&plane_kubeconfig, &home)?;
    load_overview(&browser, &link, p)?;
    let idle_with = plane_cpu_over(pid, p.idle).await;

    drop(browser);
    plane_proc.stop();
    for m in members {
        m.plane.shutdown(Duration::from_secs(1)).await;
    }
    Ok(Report { loads, lists_only, list_items, scheduled, missing, create_to_scheduled, idle_without, idle_with })
}

/// (p50, max) of `xs`.
fn p50_max(mut xs: Vec<f64>) -> (f64, f64) {
    xs.sort_by(f64::total_cmp);
    (xs[xs.len() / 2], xs.last().copied().unwrap_or(0.0))
}

impl Report {
    fn print(&self, p: &Params) {
        let (m, n, runs) = (p.members, p.workloads, p.runs);
        let (r50, rmax) = p50_max(self.loads.iter().map(|l| l.rendered_ms).collect());
        let (l50, lmax) = p50_max(self.loads.iter().map(|l| l.lists_ms).collect());
        let (b50, _) = p50_max(self.loads.iter().map(|l| l.rb_ms).collect());
        let (f50, fmax) = p50_max(self.lists_only.clone());
        let rb_mib = self.loads.last().map(|l| l.rb_bytes).unwrap_or(0) as f64 / (1024.0 * 1024.0);
        let idle = p.idle.as_secs();
        println!("### Dashboard overview at scale, {}", machine());
        println!();
        println!(
            "Parameters: {m} members in the benchmark's process (plain Kubernetes API servers, as in engine_scale), {n} Deployments, one PropagationPolicy per member; headless Chromium with the browser test's flags; {runs} runs, each a fresh login link. Fleet state: {} of {n} bindings scheduled {:.0} s after the first create; {}.",
            self.scheduled,
            self.create_to_scheduled.as_secs_f64(),
            if self.missing == 0 {
                "every member held its Deployments".to_string()
            } else {
                format!("{} Deployments not yet in their members when the wait ended", self.missing)
            },
        );
        println!();
        println!("| measure | karmadactl | floor measured in the same run | goal |");
        println!("|---|---|---|---|");
        println!(
            "| overview: navigation start (login link) → {m}/{m} Ready, {m} member rows, {n} bindings counted | p50 {r50:.0} ms, max {rmax:.0} ms | the page's own LISTs all in at p50 {l50:.0} ms, max {lmax:.0} ms (the bindings LIST alone p50 {b50:.0} ms, {rb_mib:.1} MiB on the wire) | ≤ 1 s |"
        );
        println!(
            "| the overview's 4 LISTs (clusters, both propagation policy kinds, bindings: {:?} items) fetched and parsed by the logged-in page, nothing drawn | — | p50 {f50:.0} ms, max {fmax:.0} ms | — |",
            self.list_items
        );
        println!(
            "| plane CPU over {idle} s at rest: no dashboard session; the overview open | {:.2} s; {:.2} s ({:+.2} s) | — | nothing measurable |",
            self.idle_without,
            self.idle_with,
            self.idle_with - self.idle_without,
        );
    }
}
