//! A real control plane for tests: `karmadactl controlplane serve` on 127.0.0.1:0 with a temp
//! data dir, stopped (SIGTERM, then SIGKILL) when dropped.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

static MANIFESTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

pub struct Plane {
    pub dir: tempfile::TempDir,
    pub data_dir: PathBuf,
    pub url: String,
    pub kubeconfig: PathBuf,
    child: Option<Child>,
    extra: Vec<String>,
}

impl Plane {
    /// Starts a plane in a fresh data dir.
    pub fn start() -> Plane {
        Self::start_with(&[])
    }

    /// Starts a plane with extra `controlplane serve` flags.
    pub fn start_with(extra: &[&str]) -> Plane {
        let dir = tempfile::tempdir().expect("temp dir");
        let data_dir = dir.path().join("plane");
        let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        let (child, url) = spawn(&data_dir, &extra);
        Plane { kubeconfig: data_dir.join("admin.kubeconfig"), data_dir, url, dir, child: Some(child), extra }
    }

    /// Starts a plane whose data dir (and log, `<data_dir>.log`) is `data_dir`, e.g. on a
    /// file system the test mounted; kubectl's files stay in a fresh temp dir.
    pub fn start_at(data_dir: PathBuf, extra: &[&str]) -> Plane {
        let dir = tempfile::tempdir().expect("temp dir");
        let extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        let (child, url) = spawn(&data_dir, &extra);
        Plane { kubeconfig: data_dir.join("admin.kubeconfig"), data_dir, url, dir, child: Some(child), extra }
    }

    /// Kills the server without warning (kill -9).
    pub fn kill9(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts the server again on the same data dir (after a stop or a kill -9).
    pub fn restart(&mut self) {
        self.stop();
        let (child, url) = spawn(&self.data_dir, &self.extra);
        self.url = url;
        self.child = Some(child);
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// SIGTERM and wait (graceful stop): how the process ended, `None` when it had to be
    /// killed after 10 s (or was not running).
    pub fn stop(&mut self) -> Option<std::process::ExitStatus> {
        let mut c = self.child.take()?;
        unsafe {
            libc::kill(c.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = c.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = c.kill();
        let _ = c.wait();
        None
    }

    /// A kubectl (1.32 unless said otherwise) command against this plane as the administrator.
    pub fn kubectl(&self) -> Command {
        self.kubectl_version("1.32")
    }

    pub fn kubectl_version(&self, version: &str) -> Command {
        let mut cmd = Command::new(super::kubectl_binary(version));
        cmd.env_clear()
            .env("HOME", self.dir.path())
            .env("PATH", "/usr/bin:/bin")
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .arg("--cache-dir")
            .arg(self.dir.path().join("kube-cache"));
        cmd
    }

    /// Runs the given kubectl version with `args`.
    pub fn kubectl_version_run(&self, version: &str, args: &[&str]) -> super::Run {
        let mut cmd = self.kubectl_version(version);
        cmd.args(args);
        super::run(cmd)
    }

    /// Like [`kubectl_version_run`] but panics, naming the version, unless it succeeded.
    pub fn kubectl_version_ok(&self, version: &str, args: &[&str]) -> String {
        let out = self.kubectl_version_run(version, args);
        assert_eq!(out.code, 0, "kubectl {version} {args:?} failed:\nstdout: {}\nstderr: {}", out.stdout, out.stderr);
        out.stdout
    }

    /// Runs kubectl with `args`; returns (exit code, stdout, stderr).
    pub fn kubectl_run(&self, args: &[&str]) -> super::Run {
        let mut cmd = self.kubectl();
        cmd.args(args);
        super::run(cmd)
    }

    /// Who holds the controllers' lease now (empty when no one does, or it cannot be read).
    pub fn lease_holder(&self) -> String {
        let run = self.kubectl_run(&[
            "get",
            "lease",
            "-n",
            "kube-system",
            "karmadactl-controlplane",
            "-o",
            "jsonpath={.spec.holderIdentity}",
        ]);
        if run.code == 0 { run.stdout } else { String::new() }
    }

    /// Like [`kubectl_run`] but panics unless it succeeded.
    pub fn kubectl_ok(&self, args: &[&str]) -> String {
        let out = self.kubectl_run(args);
        assert_eq!(out.code, 0, "kubectl {args:?} failed:\nstdout: {}\nstderr: {}", out.stdout, out.stderr);
        out.stdout
    }

    /// Waits until `user` may `verb` `resource` (kubectl auth can-i syntax; `extra` adds flags such
    /// as `-n ns`). The authorizer follows RBAC objects from the store, as kube-apiserver's
    /// informers do, so a new binding takes effect a moment after it is written.
    pub fn wait_authorized(&self, user: &str, verb: &str, resource: &str, extra: &[&str]) {
        let as_user = format!("--as={user}");
        let mut args = vec!["auth", "can-i", verb, resource, as_user.as_str()];
        args.extend_from_slice(extra);
        super::eventually(&format!("{user} may {verb} {resource}"), || {
            (self.kubectl_run(&args).stdout.trim() == "yes").then_some(())
        });
    }

    /// kubectl 1.32 against this plane with another identity: `kubeconfig` instead of the
    /// admin's (its own discovery cache, so identities do not share cached answers).
    pub fn kubectl_as(&self, kubeconfig: &Path, args: &[&str]) -> super::Run {
        let mut cmd = Command::new(super::kubectl_binary("1.32"));
        cmd.env_clear()
            .env("HOME", self.dir.path())
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .arg("--cache-dir")
            .arg(self.dir.path().join("kube-cache-as"))
            .args(args);
        super::run(cmd)
    }

    /// Writes a file in the test's temp dir and returns its path.
    pub fn file(&self, name: &str, content: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, content).unwrap();
        p
    }

    /// `kubectl create -f` of a manifest.
    pub fn create(&self, manifest: &str) -> String {
        let n = MANIFESTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = self.file(&format!("manifest-{n}.yaml"), manifest);
        self.kubectl_ok(&["create", "-f", path.to_str().unwrap()])
    }

    pub fn ca_pem(&self) -> String {
        std::fs::read_to_string(self.data_dir.join("pki/ca.crt")).expect("the plane wrote its CA")
    }

    /// A kubeconfig for this plane whose user has the given `user:` fields (YAML, indented 4).
    pub fn user_kubeconfig(&self, name: &str, user: &str) -> PathBuf {
        use base64::Engine as _;
        let ca = base64::engine::general_purpose::STANDARD.encode(self.ca_pem().as_bytes());
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: plane\n  cluster:\n    server: {}\n    certificate-authority-data: {ca}\nusers:\n- name: u\n  user:\n{user}contexts:\n- name: c\n  context:\n    cluster: plane\n    user: u\ncurrent-context: c\n",
            self.url
        );
        self.file(&format!("{name}.kubeconfig"), &text)
    }

    /// A kubeconfig for this plane whose user `user` in `groups` holds a client certificate
    /// from the plane's CA.
    pub fn cert_kubeconfig(&self, user: &str, groups: &[&str]) -> PathBuf {
        use base64::Engine as _;
        use karmadactl_pki::{CertificateAuthority, LeafSpec, Validity};
        let pki = self.data_dir.join("pki");
        let read = |f: &str| std::fs::read_to_string(pki.join(f)).expect("the plane wrote its CA");
        let ca = CertificateAuthority::from_pem(&read("ca.crt"), &read("ca.key")).unwrap();
        let groups = groups.iter().map(|g| g.to_string()).collect();
        let validity = Validity::from_now(Duration::from_secs(3600)).unwrap();
        let issued = ca.issue(&LeafSpec::client(user, groups, validity)).unwrap();
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s.as_bytes());
        let fields = format!(
            "    client-certificate-data: {}\n    client-key-data: {}\n",
            b64(&issued.cert_pem),
            b64(&issued.key_pem())
        );
        self.user_kubeconfig(user, &fields)
    }

    /// A kubeconfig for this plane that authenticates with a bearer token.
    pub fn token_kubeconfig(&self, name: &str, token: &str) -> PathBuf {
        self.user_kubeconfig(name, &format!("    token: {token}\n"))
    }

    /// A new bootstrap token from `karmadactl token create`.
    pub fn bootstrap_token(&self) -> String {
        let mut cmd = super::karmadactl(self.dir.path());
        cmd.args(["token", "create", "--kubeconfig"]).arg(&self.kubeconfig);
        let out = super::run(cmd);
        assert_eq!(out.code, 0, "token create failed: {}", out.stderr);
        out.stdout.trim().to_string()
    }
}

impl Drop for Plane {
    fn drop(&mut self) {
        self.stop();
    }
}

fn spawn(data_dir: &Path, extra: &[String]) -> (Child, String) {
    // The server's own log goes next to its data dir, so failures can be read without noise.
    std::fs::create_dir_all(data_dir.parent().unwrap_or(data_dir)).expect("test dir");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(data_dir.with_extension("log"))
        .expect("server log file");
    let mut child = Command::new(super::bin())
        .args(["controlplane", "serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log))
        .spawn()
        .expect("karmadactl controlplane serve starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    // The first stdout line is the URL, printed once the server is ready.
    let n = reader.read_line(&mut line).expect("read the server URL");
    assert!(n > 0, "the control plane exited before printing its URL");
    let url = line.trim().to_string();
    assert!(url.starts_with("https://127.0.0.1:"), "unexpected first line: {url:?}");
    // Keep draining stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut sink = String::new();
        while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
            sink.clear();
        }
    });
    (child, url)
}
