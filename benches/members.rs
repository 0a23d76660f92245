//! Member-cluster benchmark: the `local up` playground (plane + 3 simulated members, joined,
//! Ready), the time from `join` to the Cluster reporting Ready, and the memory of a simulated
//! member — each beside a limit measured in the same run:
//! * playground: `init --embedded` alone, and a process start (`/bin/true`);
//! * join → Ready: the `join` command's own wall time (the Ready wait is what the controller adds);
//! * member RSS: the same API server without the workload simulator.
//!
//! Run with `cargo bench --bench members`; prints a Markdown section for docs/performance.md.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;
#[path = "common/process.rs"]
mod process;
use process::{bin, kubectl_path, run};
#[path = "common/stats.rs"]
mod stats;
use stats::median;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const UP_RUNS: usize = 5;
const JOIN_RUNS: usize = 9;

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn up_once(home: &Path) -> Duration {
    let dir = home.join("playground");
    let d = dir.to_str().unwrap();
    let start = Instant::now();
    run(home, &["local", "up", "--members", "3", "--data-dir", d, "-o", "json"]);
    let wall = start.elapsed();
    run(home, &["local", "down", "--force", "--data-dir", d]);
    wall
}

fn init_once(home: &Path) -> Duration {
    let dir = home.join("karmada");
    let d = dir.to_str().unwrap();
    let start = Instant::now();
    run(home, &["init", "--embedded", "--port", "0", "-o", "json", "--karmada-data", d]);
    let wall = start.elapsed();
    run(home, &["deinit", "--embedded", "--force", "--karmada-data", d]);
    wall
}

fn true_once() -> Duration {
    let start = Instant::now();
    Command::new("/bin/true").status().expect("/bin/true runs");
    start.elapsed()
}

/// Polls the Cluster's Ready condition through the plane's API as fast as a client can.
fn ready(kubeconfig: &Path, name: &str, rt: &tokio::runtime::Runtime, client: &kube::Client) -> bool {
    let _ = kubeconfig;
    rt.block_on(async {
        let api: kube::Api<kube::api::DynamicObject> = kube::Api::all_with(
            client.clone(),
            &kube::api::ApiResource {
                group: "cluster.karmada.io".into(),
                version: "v1alpha1".into(),
                api_version: "cluster.karmada.io/v1alpha1".into(),
                kind: "Cluster".into(),
                plural: "clusters".into(),
            },
        );
        match api.get_opt(name).await {
            Ok(Some(c)) => c.data["status"]["conditions"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|c| c["type"] == "Ready" && c["status"] == "True")),
            _ => false,
        }
    })
}

/// (join command wall time, join start → Ready observed) for fresh members of one plane.
fn join_to_ready(home: &Path) -> (Vec<Duration>, Vec<Duration>) {
    let plane_dir = home.join("karmada");
    let init =
        run(home, &["init", "--embedded", "--port", "0", "-o", "json", "--karmada-data", plane_dir.to_str().unwrap()]);
    let kubeconfig = PathBuf::from(json(&init)["kubeconfig"].as_str().unwrap());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = rt.block_on(async {
        let kc = kube::config::Kubeconfig::read_from(&kubeconfig).unwrap();
        let cfg = kube::Config::from_custom_kubeconfig(kc, &Default::default()).await.unwrap();
        kube::Client::try_from(cfg).unwrap()
    });
    let (mut commands, mut readies) = (Vec::new(), Vec::new());
    for i in 0..JOIN_RUNS {
        let name = format!("m{i}");
        let dir = home.join("members").join(&name);
        let started =
            run(home, &["local", "member", "start", &name, "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
        let member_kc = json(&started)["kubeconfig"].as_str().unwrap().to_string();
        let start = Instant::now();
        run(home, &["join", &name, "--kubeconfig", kubeconfig.to_str().unwrap(), "--cluster-kubeconfig", &member_kc]);
        commands.push(start.elapsed());
        while !ready(&kubeconfig, &name, &rt, &client) {
            assert!(start.elapsed() < Duration::from_secs(30), "{name} never became Ready");
            std::thread::sleep(Duration::from_millis(2));
        }
        readies.push(start.elapsed());
    }
    for i in 0..JOIN_RUNS {
        let name = format!("m{i}");
        let dir = home.join("members").join(&name);
        run(home, &["local", "member", "stop", &name, "--data-dir", dir.to_str().unwrap()]);
    }
    run(home, &["deinit", "--embedded", "--force", "--karmada-data", plane_dir.to_str().unwrap()]);
    (commands, readies)
}

/// (RSS, anonymous RSS) in KiB. RSS counts the binary's code pages, which every member process
/// shares through the page cache; the anonymous part (heap, stacks) belongs to this process
/// alone and is what each additional member costs.
fn rss_kib(pid: u32) -> (u64, u64) {
    let field = |text: &str, name: &str| -> u64 {
        text.lines()
            .filter(|l| l.starts_with(name))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum()
    };
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    (field(&status, "VmRSS:"), field(&status, "RssAnon:"))
}

/// RSS of a simulated member, idle and with a 30-pod Deployment running.
fn member_rss(home: &Path) -> ((u64, u64), (u64, u64)) {
    let dir = home.join("rss-member");
    let out = run(home, &["local", "member", "start", "rss", "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
    let v = json(&out);
    let pid = v["pid"].as_u64().unwrap() as u32;
    std::thread::sleep(Duration::from_secs(2));
    let idle = rss_kib(pid);
    let kubectl = kubectl_path();
    let kc = v["kubeconfig"].as_str().unwrap();
    let cache = home.join("kcache");
    let st = Command::new(&kubectl)
        .args(["--kubeconfig", kc, "--cache-dir", cache.to_str().unwrap()])
        .args(["create", "deployment", "web", "--image=nginx:1.27", "--replicas=30"])
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let st = Command::new(&kubectl)
        .args(["--kubeconfig", kc, "--cache-dir", cache.to_str().unwrap()])
        .args(["rollout", "status", "deployment/web", "--timeout=60s"])
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    std::thread::sleep(Duration::from_secs(2));
    let busy = rss_kib(pid);
    run(home, &["local", "member", "stop", "rss", "--data-dir", dir.to_str().unwrap()]);
    (idle, busy)
}

/// RSS of the same API server, plain-Kubernetes profile, without the simulator.
fn bare_rss(home: &Path) -> (u64, u64) {
    let mut child = Command::new(bin())
        .args(["controlplane", "serve", "--profile", "kubernetes", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(home.join("bare"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let rss = rss_kib(child.id());
    let _ = child.kill();
    let _ = child.wait();
    rss
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let trues = median((0..30).map(|_| true_once()).collect());
    let inits = median((0..UP_RUNS).map(|_| init_once(tempfile::tempdir().unwrap().path())).collect());
    let ups: Vec<Duration> = (0..UP_RUNS).map(|_| up_once(tempfile::tempdir().unwrap().path())).collect();
    let up_worst = *ups.iter().max().unwrap();
    let up_p50 = median(ups);
    let home = tempfile::tempdir().unwrap();
    let (commands, readies) = join_to_ready(home.path());
    let ready_worst = *readies.iter().max().unwrap();
    let (cmd_p50, ready_p50) = (median(commands), median(readies));
    let (idle, busy) = member_rss(home.path());
    let bare = bare_rss(home.path());

    let date = Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!("### Member clusters ({date}; {})\n", machine());
    println!("| measure | result | goal | limit measured in the same run |");
    println!("|---|---|---|---|");
    println!(
        "| `local up --members 3` to all Ready (median of {UP_RUNS}, worst) | {} ({}) | ≤ 3 s | `init --embedded` alone {}; a process start {:.1} ms |",
        ms(up_p50),
        ms(up_worst),
        ms(inits),
        trues.as_secs_f64() * 1e3
    );
    println!(
        "| `join` start → Cluster Ready observed (median of {JOIN_RUNS}, worst) | {} ({}) | ≤ 300 ms | the `join` command itself {} |",
        ms(ready_p50),
        ms(ready_worst),
        ms(cmd_p50)
    );
    let mb = |k: u64| k as f64 / 1024.0;
    println!(
        "| memory of a simulated member, 3 nodes, anonymous RSS (heap and stacks, its own): idle / 30 running pods | {:.1} MB / {:.1} MB | ≤ 15 MB | the same server without the simulator {:.1} MB |",
        mb(idle.1),
        mb(busy.1),
        mb(bare.1)
    );
    println!(
        "| RSS of the same (includes the shared code pages of the binary) | {:.1} MB / {:.1} MB | | without the simulator {:.1} MB |",
        mb(idle.0),
        mb(busy.0),
        mb(bare.0)
    );
}
