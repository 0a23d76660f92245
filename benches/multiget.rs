//! Multi-cluster `get` benchmark: `karmadactl get pods -A --operation-scope members` over a
//! `local up` playground of 10 simulated members with 1,000 pods each, end to end (process
//! start, discovery, ten member lists through the plane's cluster proxy, one merged table),
//! beside `kubectl get pods -A` against one member directly: one member's list alone.
//!
//! Run with `cargo bench --bench multiget`; prints a Markdown section for docs/performance.md.

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
use std::process::Command;
use std::time::{Duration, Instant};

const MEMBERS: usize = 10;
const PODS: usize = 1000;
const RUNS: usize = 5;

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

fn kubectl(kubeconfig: &Path, cache: &Path, context: &str, args: &[&str]) -> std::process::Output {
    let out = Command::new(kubectl_path())
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .arg("--cache-dir")
        .arg(cache)
        .args(["--context", context])
        .args(args)
        .output()
        .expect("kubectl runs");
    assert!(out.status.success(), "kubectl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("playground");
    let d = dir.to_str().unwrap().to_string();
    let members = MEMBERS.to_string();
    let out = run(home.path(), &["local", "up", "--members", &members, "--nodes", "3", "--data-dir", &d, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().unwrap());
    let cache = home.path().join("kcache");

    // 1,000 pods in each member, made by each member's workload simulator.
    let replicas = format!("--replicas={PODS}");
    for m in 1..=MEMBERS {
        kubectl(
            &kubeconfig,
            &cache,
            &format!("member{m}"),
            &["create", "deployment", "load", "--image=nginx", &replicas],
        );
    }
    let deadline = Instant::now() + Duration::from_secs(600);
    for m in 1..=MEMBERS {
        loop {
            // Ready, so the members' simulators are idle while `get` is timed.
            let out = kubectl(
                &kubeconfig,
                &cache,
                &format!("member{m}"),
                &["get", "deployment", "load", "-o", "jsonpath={.status.readyReplicas}"],
            );
            if String::from_utf8_lossy(&out.stdout).trim() == PODS.to_string() {
                break;
            }
            assert!(Instant::now() < deadline, "member{m} never had {PODS} ready pods");
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    std::thread::sleep(Duration::from_secs(2));
    let mut fleet = vec![];
    let mut rows = 0;
    for _ in 0..RUNS {
        let start = Instant::now();
        let out = Command::new(bin())
            .args(["get", "pods", "-A", "--operation-scope", "members"])
            .env("HOME", home.path())
            .env("KUBECONFIG", &kubeconfig)
            .output()
            .expect("karmadactl get runs");
        fleet.push(start.elapsed());
        assert!(out.status.success(), "get failed: {}", String::from_utf8_lossy(&out.stderr));
        rows = String::from_utf8_lossy(&out.stdout).lines().count().saturating_sub(1);
    }
    assert!(rows >= MEMBERS * PODS, "get printed {rows} rows");
    let mut single = vec![];
    for _ in 0..RUNS {
        let start = Instant::now();
        kubectl(&kubeconfig, &cache, "member1", &["get", "pods", "-A"]);
        single.push(start.elapsed());
    }
    run(home.path(), &["local", "down", "--force", "--data-dir", &d]);

    let worst = |xs: &Vec<Duration>| *xs.iter().max().unwrap();
    println!("### Multi-cluster get, {}", machine());
    println!();
    println!("| measure | karmadactl | limit measured in the same run | goal |");
    println!("|---|---|---|---|");
    println!(
        "| `get pods -A --operation-scope members`, {MEMBERS} members × {PODS} pods ({rows} rows), median of {RUNS} (worst) | {} ({}) | `kubectl get pods -A` on one member directly: {} ({}) | ≤ 1 s |",
        ms(median(fleet.clone())),
        ms(worst(&fleet)),
        ms(median(single.clone())),
        ms(worst(&single)),
    );
}
