//! Captures the facts `karmadactl version` prints: git commit and tree state, build date,
//! compiler version and target. Outside a git checkout they fall back to `unknown`.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

fn main() {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let tree_state = match git(&["status", "--porcelain", "--untracked-files=no"]) {
        Some(s) if s.is_empty() => "clean",
        Some(_) => "dirty",
        None => "unknown",
    };
    let epoch = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0));
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());

    println!("cargo:rustc-env=KARMADACTL_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=KARMADACTL_GIT_TREE_STATE={tree_state}");
    println!("cargo:rustc-env=KARMADACTL_BUILD_DATE={}", rfc3339(epoch));
    println!("cargo:rustc-env=KARMADACTL_RUSTC_VERSION={rustc_version}");
    println!("cargo:rustc-env=KARMADACTL_TARGET={}", std::env::var("TARGET").unwrap_or_default());
    // Re-run when the checked-out commit moves; not on every source edit.
    for path in [".git/HEAD", ".git/refs/heads", ".git/index"] {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (days-to-civil, proleptic Gregorian).
fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}
