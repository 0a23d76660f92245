//! `init --embedded` and `deinit --embedded` end to end: the real binary starts a background
//! plane, real kubectl uses the kubeconfig it wrote, and deinit removes every trace.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

/// A temp HOME and data dir; whatever plane a test leaves running is killed on drop.
struct Site {
    home: tempfile::TempDir,
    data: PathBuf,
}

impl Site {
    fn new() -> Self {
        let home = tempfile::tempdir().unwrap();
        let data = home.path().join("karmada");
        Site { home, data }
    }

    fn karmadactl(&self, args: &[&str]) -> common::Run {
        let mut cmd = common::karmadactl(self.home.path());
        cmd.args(args).stdin(std::process::Stdio::null());
        common::run(cmd)
    }

    fn init(&self, extra: &[&str]) -> Value {
        let data = self.data.to_str().unwrap();
        let mut args = vec!["init", "--embedded", "--karmada-data", data, "--port", "0", "-o", "json"];
        args.extend_from_slice(extra);
        let out = self.karmadactl(&args);
        assert_eq!(out.code, 0, "init failed:\n{}\n{}", out.stdout, out.stderr);
        serde_json::from_str(&out.stdout)
            .unwrap_or_else(|e| panic!("init -o json printed no JSON ({e}):\n{}", out.stdout))
    }

    fn kubeconfig(&self) -> PathBuf {
        self.data.join("karmada-apiserver.config")
    }

    fn kubectl(&self, args: &[&str]) -> common::Run {
        let mut cmd = Command::new(common::kubectl_binary("1.32"));
        cmd.env_clear()
            .env("HOME", self.home.path())
            .arg("--kubeconfig")
            .arg(self.kubeconfig())
            .arg("--cache-dir")
            .arg(self.home.path().join(format!("cache-{}", rand_suffix())))
            .args(args)
            .stdin(std::process::Stdio::null());
        common::run(cmd)
    }

    fn pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.data.join("controlplane.pid")).ok()?.trim().parse().ok()
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        if let Some(pid) = self.pid() {
            unsafe {
                libc::kill(pid as i32, libc::SIGKILL);
            }
        }
    }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.rsplit_once(')').and_then(|(_, r)| r.split_whitespace().next()) != Some("Z"))
        .unwrap_or(false)
}

fn wait_dead(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn init_starts_a_background_plane_that_kubectl_can_use() {
    let site = Site::new();
    let result = site.init(&[]);
    let pid = result["pid"].as_u64().unwrap() as u32;
    assert!(alive(pid), "the plane process runs after init returned");
    assert_eq!(result["alreadyRunning"], false);
    assert_eq!(result["kubeconfig"], site.kubeconfig().to_str().unwrap());
    assert_eq!(mode(&site.kubeconfig()), 0o600, "the admin kubeconfig holds a private key");
    for key in ["ca.key", "apiserver.key", "admin.key", "sa.key"] {
        assert_eq!(mode(&site.data.join("pki").join(key)), 0o600, "{key}");
    }
    assert!(site.data.join("logs/controlplane.log").is_file());

    let server = result["server"].as_str().unwrap();
    let endpoint = server.strip_prefix("https://").unwrap();
    let token = result["token"].as_str().unwrap();
    let hash = result["caCertHash"].as_str().unwrap();
    assert_eq!(
        result["registerCommand"],
        format!(
            "karmadactl register {endpoint} --token {token} --discovery-token-ca-cert-hash {hash} --agent-mode local"
        )
    );
    let ca = std::fs::read_to_string(site.data.join("pki/ca.crt")).unwrap();
    assert_eq!(hash, karmadactl_pki::ca_cert_hash(&ca).unwrap());

    let ns = site.kubectl(&["get", "namespaces", "-o", "name"]);
    assert_eq!(ns.code, 0, "{}", ns.stderr);
    assert!(ns.stdout.contains("namespace/kube-public"), "{}", ns.stdout);
    // The token init printed is stored as a bootstrap token.
    let id = token.split('.').next().unwrap();
    let secret = site.kubectl(&["get", "secret", "-n", "kube-system", &format!("bootstrap-token-{id}"), "-o", "json"]);
    assert_eq!(secret.code, 0, "{}", secret.stderr);
    let secret: Value = serde_json::from_str(&secret.stdout).unwrap();
    assert_eq!(secret["type"], "bootstrap.kubernetes.io/token");
}

#[test]
fn the_banner_names_the_real_commands() {
    let site = Site::new();
    let data = site.data.to_str().unwrap();
    let out = site.karmadactl(&["init", "--embedded", "--karmada-data", data, "--port", "0"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("Karmada is installed successfully."), "{}", out.stdout);
    let kc = site.kubeconfig();
    let join = format!("karmadactl --kubeconfig {} join ${{MEMBER_CLUSTER_NAME}}", kc.display());
    assert!(out.stdout.contains(&join), "{}", out.stdout);
    let register = out.stdout.lines().find(|l| l.contains(" register 127.0.0.1:")).expect("a register command");
    assert!(register.contains("--token ") && register.contains("--discovery-token-ca-cert-hash sha256:"), "{register}");
    assert!(register.ends_with(" --agent-mode local"), "a loopback plane needs the local agent: {register}");
    assert!(out.stdout.contains("which no Pod in a member can reach"), "{}", out.stdout);
    // Progress goes to stderr, never into the banner.
    assert!(out.stderr.contains("ready"), "{}", out.stderr);
    assert!(!out.stdout.contains("waiting for"), "{}", out.stdout);
}

#[test]
fn cluster_info_is_readable_anonymously_and_signed_for_the_token() {
    let site = Site::new();
    let result = site.init(&[]);
    let server = result["server"].as_str().unwrap().to_string();
    let token = result["token"].as_str().unwrap().to_string();
    let ca = std::fs::read_to_string(site.data.join("pki/ca.crt")).unwrap();

    // A kubeconfig with the server and CA and no credentials. kubectl insists on asking for a
    // username over HTTPS when the kubeconfig names none, so it names one without a password
    // or token: kubectl then sends `Basic`, which (as in kube-apiserver) identifies nobody.
    let anon = site.home.path().join("anonymous.config");
    let ca_b64 = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(ca.as_bytes())
    };
    std::fs::write(
        &anon,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: k\n  cluster:\n    server: {server}\n    certificate-authority-data: {ca_b64}\ncontexts:\n- name: k\n  context:\n    cluster: k\n    user: nobody\nusers:\n- name: nobody\n  user:\n    username: nobody\ncurrent-context: k\n"
        ),
    )
    .unwrap();
    let anon_kubectl = |args: &[&str]| {
        let mut cmd = Command::new(common::kubectl_binary("1.32"));
        cmd.env_clear()
            .env("HOME", site.home.path())
            .arg("--kubeconfig")
            .arg(&anon)
            .arg("--cache-dir")
            .arg(site.home.path().join(format!("anon-cache-{}", rand_suffix())))
            .args(args)
            .stdin(std::process::Stdio::null());
        common::run(cmd)
    };
    let got = anon_kubectl(&["get", "cm", "cluster-info", "-n", "kube-public", "-o", "json"]);
    assert_eq!(got.code, 0, "anonymous read of cluster-info: {}", got.stderr);
    let cm: Value = serde_json::from_str(&got.stdout).unwrap();
    let kubeconfig = cm["data"]["kubeconfig"].as_str().unwrap();
    assert!(kubeconfig.contains(&format!("server: {server}")), "{kubeconfig}");
    let (id, secret) = token.split_once('.').unwrap();
    let jws = cm["data"][format!("jws-kubeconfig-{id}")].as_str().expect("a signature for the token");
    assert!(karmadactl_pki::jws::verify_detached(kubeconfig, jws, id, secret), "the signature verifies");
    assert!(!karmadactl_pki::jws::verify_detached(kubeconfig, jws, id, "0000000000000000"));

    // The same without any Authorization header at all.
    let raw = raw_get(&server, &ca, "/api/v1/namespaces/kube-public/configmaps/cluster-info");
    assert_eq!(raw.0, 200, "{}", raw.1);
    assert!(raw.1.contains("jws-kubeconfig-"), "{}", raw.1);
    assert_eq!(raw_get(&server, &ca, "/api/v1/namespaces/kube-public/configmaps").0, 403);
    assert_eq!(raw_get(&server, &ca, "/api/v1/namespaces/kube-system/secrets").0, 403);

    // Nothing else is readable anonymously.
    for args in [
        vec!["get", "cm", "-n", "kube-public"],
        vec!["get", "secrets", "-n", "kube-system"],
        vec!["get", "namespaces"],
        vec!["get", "cm", "kube-root-ca.crt", "-n", "kube-public"],
    ] {
        let denied = anon_kubectl(&args);
        assert_ne!(denied.code, 0, "anonymous {args:?} must be refused:\n{}", denied.stdout);
        assert!(
            denied.stderr.contains("Forbidden") || denied.stderr.contains("forbidden"),
            "{args:?}: {}",
            denied.stderr
        );
    }
}

/// GET with the plane's CA and no credentials; (status, body).
fn raw_get(server: &str, ca_pem: &str, path: &str) -> (u16, String) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut config = kube::Config::new(server.parse().unwrap());
        config.root_cert = Some(vec![pem_der(ca_pem)]);
        let client = kube::Client::try_from(config).unwrap();
        let req = http::Request::get(path).body(Vec::new()).unwrap();
        match client.request_text(req).await {
            Ok(body) => (200, body),
            Err(kube::Error::Api(e)) => (e.code, e.message),
            Err(e) => panic!("{e}"),
        }
    })
}

fn pem_der(pem: &str) -> Vec<u8> {
    use base64::Engine;
    let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    base64::engine::general_purpose::STANDARD.decode(b64).unwrap()
}

#[test]
fn port_messages_name_inits_own_flags() {
    let site = Site::new();
    let data = site.data.to_str().unwrap();
    // A port something else holds: init names its own flag and writes nothing.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = site.karmadactl(&["init", "--embedded", "--karmada-data", data, "--port", &port]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        format!(
            "error: 127.0.0.1:{port} is already in use\nhint: pick another with --port (--port 0 picks a free one), or stop what is using it.\n"
        )
    );
    assert!(!site.data.exists(), "nothing was written");
    drop(taken);

    // A plane that exists keeps its address; another --port is reported as ignored.
    let first = site.init(&[]);
    let again = site.karmadactl(&["init", "--embedded", "--karmada-data", data, "--port", "1234", "-o", "json"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let listen = first["server"].as_str().unwrap().trim_start_matches("https://").to_string();
    assert!(
        again.stderr.contains(&format!(
            "warning: --port 1234 is ignored: {data} keeps the address of its first init, {listen}"
        )),
        "{}",
        again.stderr
    );
    let again: Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(again["server"], first["server"]);
}

#[test]
fn init_again_reuses_everything_and_restarts_a_killed_plane() {
    let site = Site::new();
    let first = site.init(&[]);
    let ca_before = std::fs::read(site.data.join("pki/ca.crt")).unwrap();
    let created = site.kubectl(&["create", "configmap", "keep-me", "--from-literal=a=1"]);
    assert_eq!(created.code, 0, "{}", created.stderr);

    // Running init while the plane runs changes nothing and reuses the token.
    let again = site.init(&[]);
    assert_eq!(again["alreadyRunning"], true);
    assert_eq!(again["pid"], first["pid"]);
    assert_eq!(again["token"], first["token"]);
    assert_eq!(again["createdCertificates"], serde_json::json!([]));

    let pid = first["pid"].as_u64().unwrap() as u32;
    unsafe {
        libc::kill(pid as i32, libc::SIGKILL);
    }
    assert!(wait_dead(pid));
    let third = site.init(&[]);
    assert_eq!(third["alreadyRunning"], false);
    assert_ne!(third["pid"], first["pid"]);
    assert_eq!(third["server"], first["server"], "same address, so the kubeconfig stays valid");
    assert_eq!(std::fs::read(site.data.join("pki/ca.crt")).unwrap(), ca_before, "same CA");
    let reused: Vec<String> = serde_json::from_value(third["reused"].clone()).unwrap();
    assert!(reused.iter().any(|r| r.starts_with("certificates in")), "{reused:?}");
    let kept = site.kubectl(&["get", "configmap", "keep-me", "-o", "jsonpath={.data.a}"]);
    assert_eq!((kept.code, kept.stdout.as_str()), (0, "1"), "{}", kept.stderr);
}

#[test]
fn deinit_refuses_without_a_terminal_and_removes_everything_with_force() {
    let site = Site::new();
    let result = site.init(&[]);
    let pid = result["pid"].as_u64().unwrap() as u32;
    let data = site.data.to_str().unwrap();

    let refused = site.karmadactl(&["deinit", "--embedded", "--karmada-data", data]);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(refused.stderr.contains("--force"), "{}", refused.stderr);
    assert!(refused.stderr.contains(&format!("stop the control plane process {pid}")), "{}", refused.stderr);
    assert!(alive(pid) && site.data.join("state.db").exists(), "nothing changed");

    let dry = site.karmadactl(&["deinit", "--embedded", "--karmada-data", data, "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(dry.stderr.contains(&format!("delete {data}")), "{}", dry.stderr);
    assert!(alive(pid) && site.data.exists(), "a dry run changes nothing");

    let done = site.karmadactl(&["deinit", "--embedded", "--karmada-data", data, "--force"]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(wait_dead(pid), "the plane process is gone");
    assert!(!site.data.exists(), "the data dir is gone");
    let leftovers: Vec<_> = std::fs::read_dir(site.home.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(leftovers.is_empty(), "nothing left behind: {leftovers:?}");

    let nothing = site.karmadactl(&["deinit", "--embedded", "--karmada-data", data, "--force"]);
    assert_eq!(nothing.code, 0, "{}", nothing.stderr);
    assert!(nothing.stderr.contains("nothing to do"), "{}", nothing.stderr);
}

#[test]
fn deinit_keep_data_stops_the_plane_and_init_brings_it_back() {
    let site = Site::new();
    let first = site.init(&[]);
    let pid = first["pid"].as_u64().unwrap() as u32;
    let data = site.data.to_str().unwrap();
    let out = site.karmadactl(&["deinit", "--embedded", "--karmada-data", data, "--keep-data", "--force"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(wait_dead(pid));
    assert!(site.data.join("state.db").exists() && site.data.join("pki/ca.key").exists());
    let again = site.init(&[]);
    assert_eq!(again["server"], first["server"]);
    assert_eq!(again["alreadyRunning"], false);
}

#[test]
fn bad_input_changes_nothing() {
    let site = Site::new();
    let data = site.data.to_str().unwrap();
    // A directory that init did not create is never taken over.
    std::fs::create_dir_all(&site.data).unwrap();
    std::fs::write(site.data.join("precious.txt"), "x").unwrap();
    let out = site.karmadactl(&["init", "--embedded", "--karmada-data", data, "--port", "0"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("was not created by 'karmadactl init --embedded'"), "{}", out.stderr);
    let entries: Vec<_> = std::fs::read_dir(&site.data).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(entries, ["precious.txt"]);
    // deinit will not delete it either.
    let out = site.karmadactl(&["deinit", "--embedded", "--karmada-data", data, "--force"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(site.data.join("precious.txt").exists());

    let fresh = site.home.path().join("fresh");
    let fresh_s = fresh.to_str().unwrap();
    for (args, needle) in [
        (vec!["--cert-validity-period", "soon"], "cert-validity-period"),
        (vec!["--cert-validity-period", "0s"], "longer than zero"),
        (vec!["--cert-external-ip", "not-an-ip"], "not a valid IP"),
        (vec!["-o", "wide"], "json"),
    ] {
        let mut all = vec!["init", "--embedded", "--karmada-data", fresh_s, "--port", "0"];
        all.extend(args.iter());
        let out = site.karmadactl(&all);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(needle), "{args:?}: {}", out.stderr);
        assert!(!fresh.exists(), "{args:?} created {}", fresh.display());
    }
}

#[test]
fn plain_init_without_a_host_cluster_points_to_embedded() {
    let site = Site::new();
    let out = site.karmadactl(&["init"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("init --embedded"), "{}", out.stderr);
}

#[test]
fn the_karmada_api_is_served_from_the_start() {
    let site = Site::new();
    site.init(&[]);
    let resources = site.kubectl(&["api-resources", "--api-group=policy.karmada.io", "--no-headers"]);
    assert_eq!(resources.code, 0, "{}", resources.stderr);
    for (plural, short) in [
        ("propagationpolicies", "pp"),
        ("clusterpropagationpolicies", "cpp"),
        ("overridepolicies", "op"),
        ("clusteroverridepolicies", "cop"),
    ] {
        assert!(
            resources.stdout.lines().any(|l| l.split_whitespace().take(2).eq([plural, short])),
            "{plural} ({short}) missing:\n{}",
            resources.stdout
        );
    }
    let work = site.kubectl(&["api-resources", "--api-group=work.karmada.io", "-o", "name"]);
    assert_eq!(
        work.stdout.lines().collect::<Vec<_>>(),
        ["clusterresourcebindings.work.karmada.io", "resourcebindings.work.karmada.io", "works.work.karmada.io"]
    );

    // Cluster is served as a built-in, with upstream's columns.
    let cluster = site.home.path().join("cluster.yaml");
    std::fs::write(
        &cluster,
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\nspec:\n  syncMode: Pull\n  region: eu\n",
    )
    .unwrap();
    let created = site.kubectl(&["apply", "-f", cluster.to_str().unwrap()]);
    assert_eq!(created.code, 0, "{}", created.stderr);
    let table = site.kubectl(&["get", "clusters"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), ["NAME", "VERSION", "MODE", "READY", "AGE"]);
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(&row[..3], ["member1", "Pull", "Unknown"], "{}", table.stdout);

    let nginx = common::karmada_fixtures().join("samples/nginx");
    let applied = site.kubectl(&["apply", "-f", nginx.to_str().unwrap()]);
    assert_eq!(applied.code, 0, "{}", applied.stderr);
    assert!(
        applied.stdout.contains("propagationpolicy.policy.karmada.io/nginx-propagation created"),
        "{}",
        applied.stdout
    );
    let pp = site.kubectl(&[
        "get",
        "pp",
        "nginx-propagation",
        "-o",
        "jsonpath={.spec.placement.clusterAffinity.clusterNames}",
    ]);
    assert_eq!(pp.code, 0, "{}", pp.stderr);
    assert!(pp.stdout.contains("member1"), "{}", pp.stdout);
}

/// `init --embedded --datastore etcd://` starts a plane on etcd; later runs keep the datastore
/// the record names, and refuse to switch it.
#[cfg(feature = "etcd")]
#[test]
fn init_on_etcd_keeps_the_datastore_across_restarts() {
    let cluster = common::etcd::EtcdCluster::start(1);
    let site = Site::new();
    let first = site.init(&["--datastore", &cluster.datastore(), "--external-etcd-key-prefix", "/plane-1"]);
    let created = site.kubectl(&["create", "configmap", "in-etcd", "--from-literal=a=1"]);
    assert_eq!(created.code, 0, "{}", created.stderr);
    let key = base64_of("/plane-1/registry/core/configmaps/default/in-etcd");
    let raw = cluster.gateway("/v3/kv/range", &format!(r#"{{"key":"{key}","count_only":true}}"#));
    assert!(raw.contains(r#""count":"1""#), "the object is in etcd under the prefix: {raw}");
    assert!(!site.data.join("state.db").exists());

    let pid = first["pid"].as_u64().unwrap() as u32;
    unsafe {
        libc::kill(pid as i32, libc::SIGKILL);
    }
    assert!(wait_dead(pid));
    site.init(&[]);
    let kept = site.kubectl(&["get", "configmap", "in-etcd", "-o", "jsonpath={.data.a}"]);
    assert_eq!((kept.code, kept.stdout.as_str()), (0, "1"), "{}", kept.stderr);

    let data = site.data.to_str().unwrap();
    let switch = site.karmadactl(&["init", "--embedded", "--karmada-data", data, "--datastore", "sqlite"]);
    assert_eq!(switch.code, 1, "{}", switch.stderr);
    assert!(switch.stderr.contains("its datastore cannot be changed"), "{}", switch.stderr);
}

#[cfg(feature = "etcd")]
fn base64_of(s: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(s)
}

#[test]
fn controller_manager_extra_args_reach_the_plane_and_bad_ones_change_nothing() {
    let site = Site::new();
    let data = site.data.to_str().unwrap();
    for (extra, want) in [
        ("--karmada-controller-manager-extra-args=--foo=1", "the embedded control plane has no flag --foo"),
        (
            "--karmada-controller-manager-extra-args=--feature-gates=Nope=true",
            "invalid argument \"Nope=true\" for \"--feature-gates\" flag: unrecognized feature gate: Nope",
        ),
        (
            "--karmada-controller-manager-extra-args=--no-execute-taint-eviction-purge-mode=Never",
            "invalid --no-execute-taint-eviction-purge-mode \"Never\": Invalid mode",
        ),
        (
            "--karmada-controller-manager-extra-args=--horizontal-pod-autoscaler-sync-period=10ms",
            "--horizontal-pod-autoscaler-sync-period must be at least 100ms, not 10ms",
        ),
        (
            "--karmada-controller-manager-extra-args=--horizontal-pod-autoscaler-tolerance=2",
            "invalid --horizontal-pod-autoscaler-tolerance 2: must be between 0 and 1",
        ),
    ] {
        let out = site.karmadactl(&["init", "--embedded", "--karmada-data", data, "--port", "0", extra]);
        assert_eq!(out.code, 1, "{extra}: {}", out.stderr);
        assert!(out.stderr.starts_with("error: ") && out.stderr.contains(want), "{extra}: {}", out.stderr);
        assert!(!site.data.exists(), "{extra}: nothing is written before the arguments are checked");
    }
    let gates = "--karmada-controller-manager-extra-args=--feature-gates=Failover=true,GracefulEviction=false,--enable-no-execute-taint-eviction=true";
    let result = site.init(&[gates]);
    let pid = result["pid"].as_u64().unwrap();
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
    let args: Vec<String> = cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
    assert!(args.contains(&"--feature-gates=Failover=true,GracefulEviction=false".to_string()), "{args:?}");
    assert!(args.contains(&"--enable-no-execute-taint-eviction=true".to_string()), "{args:?}");
    // The plane took them: it serves.
    assert_eq!(site.kubectl(&["get", "clusters"]).code, 0);
}
