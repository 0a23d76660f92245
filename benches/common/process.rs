//! Running the binary under measurement and the real kubectl from a benchmark.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_karmadactl")
}

/// `karmadactl <args>` with `home` as HOME; a failure stops the benchmark with its stderr.
pub fn run(home: &Path, args: &[&str]) -> std::process::Output {
    let out = Command::new(bin()).args(args).env("HOME", home).stdin(Stdio::null()).output().expect("karmadactl runs");
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// kubectl 1.33 from the directory of the image's `kubectl` dispatcher.
#[allow(dead_code)] // not every benchmark runs kubectl
pub fn kubectl_path() -> PathBuf {
    let dispatcher = std::env::var_os("PATH")
        .and_then(|p| p.to_str().map(|s| s.split(':').map(|d| Path::new(d).join("kubectl")).find(|p| p.exists())))
        .flatten()
        .expect("kubectl on PATH");
    let real = std::fs::canonicalize(&dispatcher).unwrap_or(dispatcher);
    real.parent().unwrap().join("kubectl.1.33")
}

/// CPU seconds (user + system) a process has used so far.
#[allow(dead_code)] // not every benchmark measures CPU
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11).and_then(|u| u.parse::<f64>().ok()).unwrap_or(0.0)
        + fields.get(12).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    ticks / 100.0
}
