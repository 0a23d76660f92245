//! install.sh as a new user runs it: build, install both names and completions under a prefix,
//! run them (the plugin through the real kubectl), install again, uninstall.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn install_sh(prefix: &Path, extra: &[&str]) -> common::Run {
    // The release build takes both cores for many minutes while the other tests of this binary
    // run beside it; at the lowest priority it only takes what they leave.
    let mut cmd = Command::new("nice");
    cmd.args(["-n", "19", "bash"])
        .arg(repo().join("install.sh"))
        .arg("--prefix")
        .arg(prefix)
        .args(extra)
        // Its own target dir: the outer `cargo test` may still hold the default one.
        .env("CARGO_TARGET_DIR", repo().join("target/install-test"))
        // install.sh's own `cargo build --profile release --locked` runs unchanged; only the
        // optimiser is turned off, which this test does not observe, so a cold build takes a
        // fraction of the release profile's CPU time.
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256");
    common::run(cmd)
}

#[test]
fn install_runs_reinstalls_and_uninstalls() {
    let prefix = tempfile::tempdir().unwrap();
    let out = install_sh(prefix.path(), &[]);
    assert_eq!(out.code, 0, "install.sh failed: {}", out.stderr);
    let bin = prefix.path().join("bin");
    let files = [
        bin.join("karmadactl"),
        bin.join("kubectl-karmada"),
        prefix.path().join("share/bash-completion/completions/karmadactl"),
        prefix.path().join("share/zsh/site-functions/_karmadactl"),
        prefix.path().join("share/fish/vendor_completions.d/karmadactl.fish"),
    ];
    for f in &files {
        assert!(f.exists(), "{} was not installed", f.display());
    }
    let mode = std::fs::metadata(bin.join("karmadactl")).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755);

    let version = common::run({
        let mut c = Command::new(bin.join("karmadactl"));
        c.arg("version");
        c
    });
    assert_eq!(version.code, 0, "{}", version.stderr);
    assert!(version.stdout.starts_with("karmadactl version: version.Info{GitVersion:\"v"), "{}", version.stdout);
    // install.sh tells the build whether the checkout had uncommitted changes.
    let state = match Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .current_dir(repo())
        .output()
    {
        Ok(out) if out.status.success() && out.stdout.is_empty() => "clean",
        Ok(out) if out.status.success() => "dirty",
        _ => "unknown",
    };
    assert!(version.stdout.contains(&format!("GitTreeState:\"{state}\"")), "{}", version.stdout);

    // kubectl finds the plugin on PATH and runs it as `kubectl karmada`.
    let home = tempfile::tempdir().unwrap();
    let kubectl = common::kubectl_binary("1.32");
    let plugin = common::run({
        let mut c = Command::new(kubectl);
        c.env_clear()
            .env("HOME", home.path())
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .args(["karmada", "version"]);
        c
    });
    assert_eq!(plugin.code, 0, "{}", plugin.stderr);
    assert!(plugin.stdout.starts_with("kubectl karmada version: version.Info{"), "{}", plugin.stdout);

    // Running it again converges instead of failing.
    let again = install_sh(prefix.path(), &[]);
    assert_eq!(again.code, 0, "second install failed: {}", again.stderr);

    let gone = install_sh(prefix.path(), &["--uninstall"]);
    assert_eq!(gone.code, 0, "{}", gone.stderr);
    for f in &files {
        assert!(!f.exists() && f.symlink_metadata().is_err(), "{} was left behind", f.display());
    }
}

#[test]
fn install_without_cargo_says_what_to_do() {
    let prefix = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("/bin/bash");
    cmd.env_clear()
        .env("HOME", prefix.path())
        .env("PATH", "/usr/bin:/bin") // no ~/.cargo/bin
        .arg(repo().join("install.sh"))
        .arg("--prefix")
        .arg(prefix.path());
    if Command::new("sh").args(["-c", "PATH=/usr/bin:/bin command -v cargo"]).output().unwrap().status.success() {
        panic!("cargo is in /usr/bin on this machine; this test needs a PATH without cargo");
    }
    let out = common::run(cmd);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("error: cargo was not found on PATH."), "{}", out.stderr);
    assert!(out.stderr.contains("hint: install the Rust toolchain"), "{}", out.stderr);
    assert!(!prefix.path().join("bin").exists(), "nothing is installed when cargo is missing");
}

#[test]
fn install_rejects_unknown_options() {
    let prefix = tempfile::tempdir().unwrap();
    let out = install_sh(prefix.path(), &["--frobnicate"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("unknown option: --frobnicate"), "{}", out.stderr);
}
