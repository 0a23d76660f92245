//! Shared helpers for integration tests: run the real binary in a scrubbed environment.

#![allow(dead_code)]

pub mod dashboard;
pub mod etcd;
pub mod fleet;
pub mod plane;
pub mod raw_api;
pub mod twins;
pub mod webdriver;
pub mod webhook_server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test, as cargo built it.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_karmadactl"))
}

/// A command for the binary with a clean environment: a temp HOME, no KUBECONFIG, fixed width.
pub fn karmadactl(home: &Path) -> Command {
    let mut cmd = Command::new(bin());
    cmd.env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("COLUMNS", "100")
        .env("LANG", "C.UTF-8");
    cmd
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(mut cmd: Command) -> Run {
    let Output { status, stdout, stderr } = cmd.output().expect("the test binary runs");
    Run {
        code: status.code().expect("exited normally, not by a signal"),
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `karmadactl <args>` with a fresh temp HOME.
pub fn karmadactl_run(args: &[&str]) -> Run {
    let home = tempfile::tempdir().expect("temp dir");
    let mut cmd = karmadactl(home.path());
    cmd.args(args);
    run(cmd)
}

/// The directory holding the versioned kubectl binaries (kubectl.1.27 … kubectl.1.33) that the
/// machine image ships next to the `kubectl` dispatcher. Tests that need one fail (never skip)
/// when it is missing, saying what to install.
pub fn kubectl_binary(version: &str) -> PathBuf {
    let which = Command::new("sh").args(["-c", "readlink -f \"$(command -v kubectl)\""]).output().expect("sh runs");
    let dispatcher = PathBuf::from(String::from_utf8_lossy(&which.stdout).trim());
    let dir = dispatcher.parent().map(Path::to_path_buf).unwrap_or_default();
    let path = dir.join(format!("kubectl.{version}"));
    assert!(
        path.is_file(),
        "kubectl.{version} not found next to the kubectl dispatcher ({}); the tests need the real kubectl binaries",
        dispatcher.display()
    );
    path
}

/// Upstream Karmada's fixture files (`shared/fixtures/karmada`), found beside the checkout or
/// further up: a git worktree sits deeper than the main checkout.
pub fn karmada_fixtures() -> PathBuf {
    let tail = "shared/fixtures/karmada";
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|dir| dir.join(tail))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| panic!("the Karmada fixtures ({tail}) are in no parent directory of the checkout"))
}

/// A kubeconfig with the contexts the CLI tests name: `karmada-apiserver` (current), `c`, and
/// `member1`. Nothing listens at these servers: tests either stop before contacting them or
/// expect to fail reaching them.
pub const TEST_KUBECONFIG: &str = "apiVersion: v1
kind: Config
clusters:
- name: karmada-apiserver
  cluster:
    server: https://127.0.0.1:5443
    insecure-skip-tls-verify: true
- name: member1
  cluster:
    server: https://127.0.0.1:6443
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: not-a-real-token
contexts:
- name: karmada-apiserver
  context:
    cluster: karmada-apiserver
    user: admin
- name: c
  context:
    cluster: karmada-apiserver
    user: admin
- name: member1
  context:
    cluster: member1
    user: admin
current-context: karmada-apiserver
";

/// A temp HOME whose ~/.kube/config is [`TEST_KUBECONFIG`]; `/k` and `/m` in arguments are
/// replaced by that file's path.
pub struct KubeEnv {
    pub home: tempfile::TempDir,
    pub kubeconfig: PathBuf,
}

impl KubeEnv {
    pub fn new() -> Self {
        let home = tempfile::tempdir().expect("temp dir");
        let kubeconfig = home.path().join(".kube/config");
        std::fs::create_dir_all(kubeconfig.parent().unwrap()).unwrap();
        std::fs::write(&kubeconfig, TEST_KUBECONFIG).unwrap();
        Self { home, kubeconfig }
    }

    pub fn run(&self, args: &[&str]) -> Run {
        let path = self.kubeconfig.to_string_lossy().into_owned();
        let args: Vec<String> = args
            .iter()
            .map(|a| match *a {
                "/k" | "/m" => path.clone(),
                other => other.replace("=/k", &format!("={path}")).replace("=/m", &format!("={path}")),
            })
            .collect();
        let mut cmd = karmadactl(self.home.path());
        cmd.args(&args);
        run(cmd)
    }
}

/// Polls `check` until it returns a value, failing with `what` after a generous deadline.
pub fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(std::time::Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
