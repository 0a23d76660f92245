//! CLI benchmark: `karmadactl version` wall time and peak RSS, beside the same figures for
//! `/bin/true` (the cost of starting any process on this machine), and the binary's size.
//! Run with `cargo bench --bench cli`; prints a Markdown section for docs/performance.md.

#[path = "common/machine.rs"]
mod machine;
use machine::machine;

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
}
