//! A real etcd cluster for tests: `etcd` members on loopback ports with temp data dirs, killed
//! when dropped. The tests need the `etcd` binary (Debian: etcd-server); without it they fail
//! with a message saying what to install.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a fresh cluster may take to elect a leader.
const READY_WITHIN: Duration = Duration::from_secs(60);
/// Attempts with fresh ports when a port picked as free was taken meanwhile.
const ATTEMPTS: usize = 5;

pub struct EtcdCluster {
    pub dir: tempfile::TempDir,
    members: Vec<Member>,
}

struct Member {
    name: String,
    client_port: u16,
    /// Plain-HTTP `/health` and `/metrics`, also when clients must use TLS.
    metrics_port: u16,
    child: Option<Child>,
    log: PathBuf,
}

impl EtcdCluster {
    /// Starts `size` members and waits until every one reports healthy (a leader exists).
    pub fn start(size: usize) -> EtcdCluster {
        Self::start_with(size, None)
    }

    /// Like [`start`](Self::start); with `tls`, clients must use HTTPS and present a
    /// certificate signed by its CA.
    pub fn start_with(size: usize, tls: Option<&TlsFiles>) -> EtcdCluster {
        Self::start_with_args(size, tls, &[])
    }

    /// Like [`start_with`](Self::start_with), with extra `etcd` flags for every member.
    pub fn start_with_args(size: usize, tls: Option<&TlsFiles>, extra: &[&str]) -> EtcdCluster {
        let binary = etcd_binary();
        let mut last_error = String::new();
        for attempt in 0..ATTEMPTS {
            let dir = tempfile::tempdir().expect("temp dir");
            match try_start(&binary, &dir, size, attempt, tls, extra) {
                Ok(members) => return EtcdCluster { dir, members },
                Err(err) => last_error = err,
            }
        }
        panic!("etcd did not start after {ATTEMPTS} attempts: {last_error}");
    }

    /// `host:port` of every member, comma-separated.
    pub fn endpoints(&self) -> String {
        self.members.iter().map(|m| format!("127.0.0.1:{}", m.client_port)).collect::<Vec<_>>().join(",")
    }

    /// `https://host:port` of every member, comma-separated (for a TLS cluster).
    pub fn https_endpoints(&self) -> String {
        self.members.iter().map(|m| format!("https://127.0.0.1:{}", m.client_port)).collect::<Vec<_>>().join(",")
    }

    /// The `--datastore` value for this cluster.
    pub fn datastore(&self) -> String {
        format!("etcd://{}", self.endpoints())
    }

    /// The client URL of member `i`, for direct requests to etcd's JSON gateway.
    pub fn client_url(&self, i: usize) -> String {
        format!("http://127.0.0.1:{}", self.members[i].client_port)
    }

    /// Kills member `i` (kill -9).
    pub fn kill(&mut self, i: usize) {
        if let Some(mut child) = self.members[i].child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Waits until every live member reports healthy again (after a kill: a new leader).
    pub fn wait_healthy(&self) {
        let deadline = Instant::now() + READY_WITHIN;
        while !self.members.iter().filter(|m| m.child.is_some()).all(|m| healthy(m.metrics_port)) {
            assert!(Instant::now() < deadline, "etcd did not become healthy again within {READY_WITHIN:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// POSTs a JSON body to etcd's gRPC gateway (`/v3/...`) on a live member and returns the
    /// response body.
    pub fn gateway(&self, path: &str, body: &str) -> String {
        let (status, response) = self.gateway_status(path, body);
        assert_eq!(status, 200, "etcd gateway {path}: {response}");
        response
    }

    /// Like [`gateway`](Self::gateway), for requests etcd may refuse: the HTTP status and body.
    pub fn gateway_status(&self, path: &str, body: &str) -> (u16, String) {
        let member = self.members.iter().find(|m| m.child.is_some()).expect("a live etcd member");
        http(member.client_port, "POST", path, body).expect("the etcd gateway answers")
    }

    /// Compacts etcd's history up to `revision`, as another client (another control plane
    /// replica, an operator) would.
    pub fn compact(&self, revision: i64) {
        self.gateway("/v3/kv/compaction", &format!(r#"{{"revision":"{revision}","physical":true}}"#));
    }
}

impl Drop for EtcdCluster {
    fn drop(&mut self) {
        for i in 0..self.members.len() {
            self.kill(i);
        }
    }
}

/// The `etcd` binary on PATH; fails the test when it is missing.
fn etcd_binary() -> PathBuf {
    let found = Command::new("sh").args(["-c", "command -v etcd"]).output().expect("sh runs");
    let path = PathBuf::from(String::from_utf8_lossy(&found.stdout).trim());
    assert!(
        found.status.success() && path.is_file(),
        "the etcd binary was not found on PATH; the etcd tests need it: apt-get install etcd-server"
    );
    path
}

/// Ports that were free a moment ago: all bound at once (so they differ), then released.
fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> =
        (0..n).map(|_| TcpListener::bind("127.0.0.1:0").expect("bind a loopback port")).collect();
    listeners.iter().map(|l| l.local_addr().expect("local addr").port()).collect()
}

/// Certificates for a TLS cluster (PEM files): the CA, the members' serving certificate (for
/// 127.0.0.1) and a client certificate, all made with the openssl CLI.
pub struct TlsFiles {
    pub dir: tempfile::TempDir,
    pub ca: PathBuf,
    pub server_cert: PathBuf,
    pub server_key: PathBuf,
    pub client_cert: PathBuf,
    pub client_key: PathBuf,
}

impl TlsFiles {
    pub fn new() -> TlsFiles {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = |name: &str| dir.path().join(name);
        let openssl = |args: &[&str]| {
            let out = Command::new("openssl").args(args).current_dir(dir.path()).output().expect("openssl runs");
            assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
        openssl(
            &[
                &["req", "-x509"],
                &ec[..],
                &["-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=etcd-ca", "-days", "2"],
            ]
            .concat(),
        );
        for (name, usage) in [("server", "serverAuth,clientAuth"), ("client", "clientAuth")] {
            let ext = format!("subjectAltName=IP:127.0.0.1\nextendedKeyUsage={usage}\n");
            std::fs::write(p(&format!("{name}.ext")), ext).expect("write ext");
            let (key, csr, crt, extfile) =
                (format!("{name}.key"), format!("{name}.csr"), format!("{name}.crt"), format!("{name}.ext"));
            openssl(&[&["req"], &ec[..], &["-keyout", &key, "-out", &csr, "-subj", &format!("/CN={name}")]].concat());
            openssl(&[
                "x509",
                "-req",
                "-in",
                &csr,
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                &crt,
                "-days",
                "2",
                "-extfile",
                &extfile,
            ]);
        }
        TlsFiles {
            ca: p("ca.crt"),
            server_cert: p("server.crt"),
            server_key: p("server.key"),
            client_cert: p("client.crt"),
            client_key: p("client.key"),
            dir,
        }
    }
}

fn try_start(
    binary: &PathBuf,
    dir: &tempfile::TempDir,
    size: usize,
    attempt: usize,
    tls: Option<&TlsFiles>,
    extra: &[&str],
) -> Result<Vec<Member>, String> {
    let ports = free_ports(3 * size);
    let (client_ports, rest) = ports.split_at(size);
    let (peer_ports, metrics_ports) = rest.split_at(size);
    let scheme = if tls.is_some() { "https" } else { "http" };
    let name = |i: usize| format!("m{i}");
    let initial_cluster =
        (0..size).map(|i| format!("{}=http://127.0.0.1:{}", name(i), peer_ports[i])).collect::<Vec<_>>().join(",");
    let token = format!("test-{}-{attempt}-{}", std::process::id(), client_ports[0]);
    let mut members = Vec::new();
    for i in 0..size {
        let log = dir.path().join(format!("{}.log", name(i)));
        let log_file = std::fs::File::create(&log).map_err(|e| e.to_string())?;
        let client = format!("{scheme}://127.0.0.1:{}", client_ports[i]);
        let peer = format!("http://127.0.0.1:{}", peer_ports[i]);
        let metrics = format!("http://127.0.0.1:{}", metrics_ports[i]);
        let mut cmd = Command::new(binary);
        if let Some(tls) = tls {
            cmd.arg("--cert-file").arg(&tls.server_cert).arg("--key-file").arg(&tls.server_key);
            cmd.arg("--trusted-ca-file").arg(&tls.ca).arg("--client-cert-auth");
        }
        let child = cmd
            .args(["--name", &name(i)])
            .arg("--data-dir")
            .arg(dir.path().join(name(i)))
            .args(["--listen-client-urls", &client, "--advertise-client-urls", &client])
            .args(["--listen-peer-urls", &peer, "--initial-advertise-peer-urls", &peer])
            .args(["--initial-cluster", &initial_cluster, "--initial-cluster-state", "new"])
            .args(["--initial-cluster-token", &token, "--listen-metrics-urls", &metrics])
            // Quicker elections on loopback; the defaults suit real networks.
            .args(["--heartbeat-interval", "50", "--election-timeout", "500"])
            .args(["--logger", "zap", "--log-outputs", "stderr"])
            .args(extra)
            .env_remove("ETCD_UNSUPPORTED_ARCH")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .map_err(|e| format!("spawning etcd: {e}"))?;
        members.push(Member {
            name: name(i),
            client_port: client_ports[i],
            metrics_port: metrics_ports[i],
            child: Some(child),
            log,
        });
    }
    let deadline = Instant::now() + READY_WITHIN;
    let mut pending: Vec<usize> = (0..size).collect();
    while !pending.is_empty() {
        for m in &mut members {
            if let Some(Ok(Some(status))) = m.child.as_mut().map(Child::try_wait) {
                let log = std::fs::read_to_string(&m.log).unwrap_or_default();
                kill_all(&mut members);
                return Err(format!("etcd member exited with {status}; its log:\n{log}"));
            }
        }
        pending.retain(|&i| !healthy(members[i].metrics_port));
        if Instant::now() > deadline {
            let logs: Vec<String> = members
                .iter()
                .map(|m| format!("--- {}:\n{}", m.name, std::fs::read_to_string(&m.log).unwrap_or_default()))
                .collect();
            kill_all(&mut members);
            return Err(format!("etcd was not healthy within {READY_WITHIN:?}\n{}", logs.join("\n")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(members)
}

fn kill_all(members: &mut [Member]) {
    for m in members {
        if let Some(mut child) = m.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// etcd's `/health` says `"health":"true"` once the member sees a leader.
fn healthy(port: u16) -> bool {
    matches!(http(port, "GET", "/health", ""), Ok((200, body)) if body.contains("\"health\":\"true\""))
}

/// A one-shot HTTP/1.0 request to a loopback port: status and body.
fn http(port: u16, method: &str, path: &str, body: &str) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    Ok((status, body))
}
