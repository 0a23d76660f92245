//! Pull-mode registration benchmark: from `karmadactl register … --agent-mode local` starting to
//! the plane showing the Cluster Ready (register waits for that), against an embedded plane and a
//! simulated member on this machine. Beside it, in the same run, the floor any command pays:
//! `karmadactl token list` (process start, kubeconfig, one TLS handshake and request).
//!
//! Run with `cargo bench --bench register`; prints a Markdown section for docs/performance.md.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;
#[path = "common/process.rs"]
mod process;
use process::{bin, run};
#[path = "common/stats.rs"]
mod stats;
use stats::median;

use std::io::BufRead as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 7;

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

/// `controlplane serve` in the background; returns the child and its URL.
fn serve(dir: &Path, extra: &[&str]) -> (Child, String) {
    let mut child = Command::new(bin())
        .args(["controlplane", "serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut url = String::new();
    reader.read_line(&mut url).unwrap();
    std::thread::spawn(move || {
        let mut sink = String::new();
        while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
            sink.clear();
        }
    });
    (child, url.trim().to_string())
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let (mut plane, _) = serve(&home.path().join("plane"), &[]);
    let (mut member, _) = serve(
        &home.path().join("member"),
        &["--profile", "kubernetes", "--simulate-workloads", "--kubeconfig-context", "pm1"],
    );
    let plane_kc = home.path().join("plane/admin.kubeconfig");
    let member_kc = home.path().join("member/admin.kubeconfig");
    let with_plane = |args: &[&str]| {
        let out = Command::new(bin())
            .args(args)
            .env("HOME", home.path())
            .env("KUBECONFIG", &plane_kc)
            .stdin(Stdio::null())
            .output()
            .expect("karmadactl runs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out
    };

    let mut register = vec![];
    let mut floor = vec![];
    for i in 0..RUNS {
        let printed = with_plane(&["token", "create", "--print-register-command"]);
        let words: Vec<String> =
            String::from_utf8_lossy(&printed.stdout).split_whitespace().map(String::from).collect();
        let dir = home.path().join(format!("agent{i}"));
        let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let (kc, d) = (member_kc.to_str().unwrap(), dir.to_str().unwrap());
        args.extend_from_slice(&[
            "--kubeconfig",
            kc,
            "--cluster-name",
            "pm1",
            "--agent-mode",
            "local",
            "--agent-dir",
            d,
        ]);
        let start = Instant::now();
        run(home.path(), &args);
        register.push(start.elapsed());

        let start = Instant::now();
        with_plane(&["token", "list"]);
        floor.push(start.elapsed());

        let pk = plane_kc.to_str().unwrap();
        run(home.path(), &["unregister", "pm1", "--cluster-kubeconfig", kc, "--karmada-config", pk, "--agent-dir", d]);
    }
    let _ = plane.kill();
    let _ = member.kill();

    let worst = |xs: &Vec<Duration>| *xs.iter().max().unwrap();
    println!("### Pull-mode registration, {}", machine());
    println!();
    println!("| measure | karmadactl | limit measured in the same run | goal |");
    println!("|---|---|---|---|");
    println!(
        "| `register --agent-mode local` until the Cluster is Ready, median of {RUNS} (worst) | {} ({}) | `karmadactl token list` (process start, one TLS request): {} ({}) | ≤ 500 ms |",
        ms(median(register.clone())),
        ms(worst(&register)),
        ms(median(floor.clone())),
        ms(worst(&floor)),
    );
}
