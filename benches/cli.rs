//! CLI benchmark: `karmadactl version` wall time and peak RSS, beside the same figures for
//! `/bin/true` (the cost of starting any process on this machine), and the binary's size; then
//! requests to a `local up` playground (`describe`, `get -s all`, `explain`) beside kubectl 1.33
//! doing the same requests (for a member, through the plane's cluster proxy).
//! Run with `cargo bench --bench cli`; prints Markdown sections for docs/performance.md.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;
#[path = "common/process.rs"]
mod process;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Sample {
    wall: Duration,
    max_rss_kib: i64,
}

/// Runs `argv` once and returns its wall time and peak RSS, read from the kernel's rusage for
/// exactly that child (wait4), so other processes cannot disturb the figure.
fn run_once(argv: &[&str]) -> Sample {
    let start = Instant::now();
    // Reaped with wait4 below (for its rusage), not Child::wait.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(argv[0])
        .args(&argv[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("benchmark command starts");
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for the pid we just spawned and reaped.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 reaped the child");
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{argv:?} failed");
    Sample { wall, max_rss_kib: usage.ru_maxrss }
}

struct Summary {
    p50: Duration,
    p95: Duration,
    rss_p50_mib: f64,
    max_rss_mib: f64,
}

fn measure(argv: &[&str], runs: usize) -> Summary {
    for _ in 0..10 {
        run_once(argv); // warm the page cache
    }
    let mut samples: Vec<Sample> = (0..runs).map(|_| run_once(argv)).collect();
    samples.sort_by_key(|s| s.wall);
    let pct = |p: f64| samples[((samples.len() as f64 - 1.0) * p).round() as usize].wall;
    let max_rss = samples.iter().map(|s| s.max_rss_kib).max().unwrap_or(0);
    // Peak RSS varies a little from run to run (address-space layout); report the typical run
    // and the worst one.
    let mut rss: Vec<i64> = samples.iter().map(|s| s.max_rss_kib).collect();
    rss.sort_unstable();
    let rss_p50 = rss.get(rss.len() / 2).copied().unwrap_or(0);
    Summary {
        p50: pct(0.50),
        p95: pct(0.95),
        rss_p50_mib: rss_p50 as f64 / 1024.0,
        max_rss_mib: max_rss as f64 / 1024.0,
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    // `cargo bench` passes `--bench`; any number argument sets the run count.
    let runs = std::env::args().skip(1).find_map(|a| a.parse::<usize>().ok()).unwrap_or(300);
    let bin = env!("CARGO_BIN_EXE_karmadactl");
    let size = std::fs::metadata(bin).map(|m| m.len()).unwrap_or(0);
    let ours = measure(&[bin, "version"], runs);
    let floor = measure(&["/bin/true"], runs);

    println!("### CLI: `karmadactl version` ({})", jiff::Timestamp::now().strftime("%Y-%m-%d"));
    println!();
    println!("Machine: {}. {runs} runs each, after 10 warm-up runs.", machine());
    println!();
    println!("| measure | karmadactl | physical limit (`/bin/true`) | goal | upstream karmadactl |");
    println!("|---|---|---|---|---|");
    println!("| `version` wall time, p50 | {} | {} | ≤ 3 ms | 57 ms |", ms(ours.p50), ms(floor.p50));
    println!("| `version` wall time, p95 | {} | {} | | |", ms(ours.p95), ms(floor.p95));
    println!(
        "| `version` peak RSS, median run | {:.1} MiB | {:.1} MiB | ≤ 8 MiB | 50 MiB |",
        ours.rss_p50_mib, floor.rss_p50_mib
    );
    println!("| `version` peak RSS, worst run | {:.1} MiB | {:.1} MiB | | |", ours.max_rss_mib, floor.max_rss_mib);
    println!("| release binary size | {:.1} MB | | ≤ 35 MB (finished binary) | 72 MB |", size as f64 / 1e6);
    println!();
    requests(bin, floor.p50);
}

/// Runs of each request (after 3 warm-up runs): each one talks to a server, so fewer than
/// `version`'s.
const REQUEST_RUNS: usize = 30;

/// p50 and p95 wall time of `argvs` run one after the other, as one measured request.
fn timed(argvs: &[Vec<String>]) -> (Duration, Duration) {
    let once =
        || -> Duration { argvs.iter().map(|a| run_once(&a.iter().map(String::as_str).collect::<Vec<_>>()).wall).sum() };
    for _ in 0..3 {
        once();
    }
    let mut walls: Vec<Duration> = (0..REQUEST_RUNS).map(|_| once()).collect();
    walls.sort();
    let pct = |p: f64| walls[((walls.len() as f64 - 1.0) * p).round() as usize];
    (pct(0.50), pct(0.95))
}

/// `describe`, `get -s all` and `explain` against a playground of the plane and one simulated
/// member, each beside kubectl 1.33 doing the same: on the plane, through the plane's cluster
/// proxy for the member, and (for `get -s all`) both lists one after the other.
fn requests(bin: &str, floor: Duration) {
    let home = tempfile::tempdir().expect("temp dir");
    let dir = home.path().join("playground");
    let d = dir.to_str().unwrap().to_string();
    let up = process::run(home.path(), &["local", "up", "--members", "1", "--data-dir", &d, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&up.stdout).expect("local up prints JSON");
    let plane = v["kubeconfig"].as_str().expect("a kubeconfig").to_string();
    let cache = home.path().join("kubectl-cache").to_str().unwrap().to_string();
    let kubectl = process::kubectl_path().to_str().unwrap().to_string();
    let k = |kubeconfig: &str, args: &[&str]| -> Vec<String> {
        [kubectl.as_str(), "--kubeconfig", kubeconfig, "--cache-dir", &cache, "--context", "karmada-apiserver"]
            .iter()
            .chain(args)
            .map(|s| s.to_string())
            .collect()
    };
    let ours = |args: &[&str]| -> Vec<String> {
        [bin, "--kubeconfig", &plane].iter().chain(args).map(|s| s.to_string()).collect::<Vec<_>>()
    };
    // kubectl's view of member1: the plane's credentials, the proxy's URL.
    let raw = Command::new(&kubectl)
        .args(["--kubeconfig", &plane, "config", "view", "--raw", "--minify", "-o", "json", "--context"])
        .arg("karmada-apiserver")
        .output()
        .expect("kubectl config view runs");
    let mut config: serde_json::Value = serde_json::from_slice(&raw.stdout).expect("kubeconfig as JSON");
    let server = config["clusters"][0]["cluster"]["server"].as_str().unwrap().trim_end_matches('/').to_string();
    config["clusters"][0]["cluster"]["server"] =
        format!("{server}/apis/cluster.karmada.io/v1alpha1/clusters/member1/proxy").into();
    let proxy = home.path().join("proxy.kubeconfig");
    std::fs::write(&proxy, serde_json::to_vec(&config).unwrap()).unwrap();
    let proxy = proxy.to_str().unwrap().to_string();

    // One Deployment on the plane, propagated to member1.
    let manifest = home.path().join("web.yaml");
    std::fs::write(&manifest, WEB).unwrap();
    let applied = Command::new(&kubectl)
        .args(["--kubeconfig", &plane, "--context", "karmada-apiserver", "apply", "-f"])
        .arg(&manifest)
        .output()
        .expect("kubectl apply runs");
    assert!(applied.status.success(), "apply: {}", String::from_utf8_lossy(&applied.stderr));
    let deadline = Instant::now() + Duration::from_secs(120);
    while !Command::new(&kubectl)
        .args(["--kubeconfig", &proxy, "--context", "karmada-apiserver", "get", "deployment", "web"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
    {
        assert!(Instant::now() < deadline, "web never reached member1");
        std::thread::sleep(Duration::from_millis(500));
    }

    let cases: Vec<Case> = vec![
        Case {
            name: "`describe deployment web`",
            ours: vec![ours(&["describe", "deployment", "web"])],
            theirs: vec![k(&plane, &["describe", "deployment", "web"])],
            what: "the same",
        },
        Case {
            name: "`describe cluster member1`",
            ours: vec![ours(&["describe", "cluster", "member1"])],
            theirs: vec![k(&plane, &["describe", "cluster", "member1"])],
            what: "the same",
        },
        Case {
            name: "`describe deployment web -s members -C member1`",
            ours: vec![ours(&["describe", "deployment", "web", "-s", "members", "-C", "member1"])],
            theirs: vec![k(&proxy, &["describe", "deployment", "web"])],
            what: "`describe deployment web` through the proxy",
        },
        Case {
            name: "`get deployments -s all`",
            ours: vec![ours(&["get", "deployments", "-s", "all"])],
            theirs: vec![k(&plane, &["get", "deployments"]), k(&proxy, &["get", "deployments"])],
            what: "`get deployments` on the plane, then through the proxy",
        },
        Case {
            name: "`explain deployment.spec`",
            ours: vec![ours(&["explain", "deployment.spec"])],
            theirs: vec![k(&plane, &["explain", "deployment.spec"])],
            what: "the same",
        },
    ];
    let rows: Vec<String> = cases
        .into_iter()
        .map(|c| {
            let (o50, o95) = timed(&c.ours);
            let (k50, k95) = timed(&c.theirs);
            format!("| {} | {} ({}) | {} ({}) | {} |", c.name, ms(o50), ms(o95), ms(k50), ms(k95), c.what)
        })
        .collect();
    process::run(home.path(), &["local", "down", "--force", "--data-dir", &d]);

    println!("### CLI requests beside kubectl 1.33 ({})", jiff::Timestamp::now().strftime("%Y-%m-%d"));
    println!();
    println!(
        "Machine: {}. A `local up` playground with one simulated member; {REQUEST_RUNS} runs each after 3 warm-up runs; \
         kubectl keeps its discovery and OpenAPI cache between runs (`--cache-dir`), karmadactl has none. \
         Floor: `/bin/true` p50 {}.",
        machine(),
        ms(floor)
    );
    println!();
    println!("| request | karmadactl p50 (p95) | kubectl 1.33 p50 (p95) | kubectl's request |");
    println!("|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}

/// One measured request: karmadactl's command lines and kubectl's for the same request.
struct Case {
    name: &'static str,
    ours: Vec<Vec<String>>,
    theirs: Vec<Vec<String>>,
    /// What kubectl runs, in words.
    what: &'static str,
}

/// The Deployment the requests look at, and the policy that sends it to member1.
const WEB: &str = "apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
";
