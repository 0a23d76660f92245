//! Captures the facts `karmadactl version` prints: git commit, tree state, build date, compiler
//! version and target. Outside a git checkout the commit and date fall back to `unknown`.
//!
//! Every value depends only on the checked-out commit and the environment, never on the clock or
//! the index, so the script (and the library after it) reruns only when HEAD moves: a `git add`,
//! an edit or a commit on another branch leaves the build untouched. The date is the commit's
//! (or SOURCE_DATE_EPOCH); the tree state is whatever KARMADACTL_GIT_TREE_STATE says (install.sh
//! sets it from `git status`), `unknown` when unset.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "HEAD"]);
    let epoch = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .or_else(|| git(&["show", "-s", "--format=%ct", "HEAD"])?.parse().ok());
    let tree_state = match std::env::var("KARMADACTL_GIT_TREE_STATE").as_deref() {
        Ok(s @ ("clean" | "dirty")) => s.to_string(),
        _ => "unknown".to_string(),
    };
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());

    println!("cargo:rustc-env=KARMADACTL_GIT_COMMIT={}", commit.as_deref().unwrap_or("unknown"));
    println!("cargo:rustc-env=KARMADACTL_GIT_TREE_STATE={tree_state}");
    println!("cargo:rustc-env=KARMADACTL_BUILD_DATE={}", epoch.map_or_else(|| "unknown".into(), rfc3339));
    println!("cargo:rustc-env=KARMADACTL_RUSTC_VERSION={rustc_version}");
    println!("cargo:rustc-env=KARMADACTL_TARGET={}", std::env::var("TARGET").unwrap_or_default());
    pack_relative_relocations();

    // Rerun when the checked-out commit moves. A linked worktree keeps HEAD in its own git dir and
    // the refs in the common one. Only existing files are named: cargo reruns a script on every
    // build while a named path is missing.
    if let (Some(git_dir), Some(common_dir)) =
        (git(&["rev-parse", "--git-dir"]), git(&["rev-parse", "--git-common-dir"]))
    {
        let (git_dir, common_dir) = (PathBuf::from(git_dir), PathBuf::from(common_dir));
        let mut watched = vec![git_dir.join("HEAD"), git_dir.join("logs/HEAD"), common_dir.join("packed-refs")];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(common_dir.join(branch));
        }
        for path in watched.iter().filter(|p| Path::new(p).is_file()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    println!("cargo:rerun-if-env-changed=KARMADACTL_GIT_TREE_STATE");
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

/// Optimised builds pack their relative relocations (DT_RELR): the binary is position
/// independent, so every pointer in its data (vtables, string tables, clap's and serde's static
/// tables) needs one at load time, and as 24-byte RELA entries they were 2.7 MB of the file.
/// Packed, they take a few kilobytes, and the loader applies them faster.
///
/// The linker then makes the binary require glibc's `GLIBC_ABI_DT_RELR` (glibc 2.36 or newer),
/// so it is done only for a native build on a machine whose glibc has it (an older one, such
/// as Ubuntu 22.04's 2.35, keeps the plain relocations and its binary runs there), with the
/// linkers known to support it (rustc's own LLD for this target, unless another linker is
/// configured), and not in the dev profile.
fn pack_relative_relocations() {
    let target = std::env::var("TARGET").unwrap_or_default();
    let native = std::env::var("HOST").is_ok_and(|host| host == target);
    let optimised = std::env::var("PROFILE").as_deref() == Ok("release");
    let linker_configured = std::env::var_os("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_some()
        || std::env::var("CARGO_ENCODED_RUSTFLAGS").is_ok_and(|f| f.contains("linker"));
    if target == "x86_64-unknown-linux-gnu" && native && optimised && !linker_configured && glibc_has_dt_relr() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
}

/// Whether this machine's glibc (`getconf GNU_LIBC_VERSION`: "glibc 2.36") is 2.36 or newer.
fn glibc_has_dt_relr() -> bool {
    let Ok(out) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else { return false };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else { return false };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (2, 36)
}
