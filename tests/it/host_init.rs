//! `init` and `deinit` on a host Kubernetes cluster, end to end: the real binary installs into
//! a kubernetes-profile plane whose workload simulator makes Deployments and StatefulSets
//! report ready, real kubectl checks what was created, and deinit removes exactly that.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::common;
use crate::common::plane::Plane;
use serde_json::Value;

const NS: &str = "karmada-system";

/// A simulated host cluster and this test's data and PKI directories.
struct Host {
    plane: Plane,
    data: PathBuf,
    pki: PathBuf,
}

impl Host {
    fn start() -> Host {
        Self::start_with(&[])
    }

    fn start_with(extra: &[&str]) -> Host {
        let mut args = vec!["--profile", "kubernetes", "--simulate-workloads"];
        args.extend_from_slice(extra);
        let plane = Plane::start_with(&args);
        let data = plane.dir.path().join("karmada");
        let pki = data.join("pki");
        let host = Host { plane, data, pki };
        host.wait_for_ready_nodes();
        host
    }

    /// The simulator registers its nodes just after the server starts; init needs them (the
    /// etcd node, the API server addresses), as it needs a real cluster's.
    fn wait_for_ready_nodes(&self) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let nodes = self.json(&["get", "nodes"]);
            let ready = nodes["items"].as_array().unwrap().iter().any(|n| {
                n["status"]["conditions"]
                    .as_array()
                    .is_some_and(|c| c.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
                    && n["status"]["addresses"].as_array().is_some_and(|a| !a.is_empty())
            });
            if ready {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "the simulated nodes never became Ready: {nodes}");
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    }

    fn karmadactl(&self, args: &[&str]) -> common::Run {
        let mut cmd = common::karmadactl(self.plane.dir.path());
        cmd.arg(args[0])
            .arg("--kubeconfig")
            .arg(&self.plane.kubeconfig)
            .args(&args[1..])
            .stdin(std::process::Stdio::null());
        common::run(cmd)
    }

    fn init(&self, extra: &[&str]) -> common::Run {
        let (data, pki) = (self.data.to_str().unwrap(), self.pki.to_str().unwrap());
        let mut args = vec!["init", "--karmada-data", data, "--karmada-pki", pki];
        if !extra.contains(&"--wait-component-ready-timeout") {
            args.extend(["--wait-component-ready-timeout", "90"]);
        }
        args.extend_from_slice(extra);
        self.karmadactl(&args)
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.extend(["-o", "json"]);
        serde_json::from_str(&self.plane.kubectl_ok(&all)).unwrap()
    }

    /// Names of the objects of `kind` in the install namespace that carry init's labels.
    fn installed(&self, kind: &str) -> BTreeSet<String> {
        let list = self.json(&[
            "get",
            kind,
            "-n",
            NS,
            "-l",
            "karmada.io/bootstrapping,karmadactl.karmada.io/installed-by=karmadactl-init",
        ]);
        names(&list)
    }

    fn namespace_exists(&self, ns: &str) -> bool {
        self.plane.kubectl_run(&["get", "namespace", ns]).code == 0
    }
}

fn names(list: &Value) -> BTreeSet<String> {
    list["items"].as_array().unwrap().iter().map(|o| o["metadata"]["name"].as_str().unwrap().to_string()).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

const DEPLOYMENTS: &[&str] = &[
    "karmada-aggregated-apiserver",
    "karmada-apiserver",
    "karmada-controller-manager",
    "karmada-scheduler",
    "karmada-webhook",
    "kube-controller-manager",
];
const SERVICES: &[&str] =
    &["etcd", "karmada-aggregated-apiserver", "karmada-apiserver", "karmada-webhook", "kube-controller-manager"];
const SECRETS: &[&str] = &[
    "etcd-cert",
    "karmada-aggregated-apiserver-config",
    "karmada-cert",
    "karmada-controller-manager-config",
    "karmada-descheduler-config",
    "karmada-metrics-adapter-config",
    "karmada-scheduler-config",
    "karmada-search-config",
    "karmada-webhook-cert",
    "karmada-webhook-config",
    "kube-controller-manager-config",
];

#[test]
fn init_installs_converges_and_deinit_removes_it() {
    let host = Host::start();

    // --dry-run prints the whole plan and creates nothing.
    let dry = host.init(&["--dry-run"]);
    assert_eq!(dry.code, 0, "init --dry-run failed:\n{}\n{}", dry.stdout, dry.stderr);
    for line in [
        "Deployment karmada-system/karmada-apiserver (1 x registry.k8s.io/kube-apiserver:v1.36.2)",
        "StatefulSet karmada-system/etcd (1 x registry.k8s.io/etcd:3.6.8-0)",
        "Secret karmada-system/karmada-cert",
        "CustomResourceDefinition resourcebindings.work.karmada.io",
        "ValidatingWebhookConfiguration validating-config",
        "APIService v1alpha1.cluster.karmada.io",
        "ConfigMap kube-public/cluster-info",
        "karmada-apiserver.config (mode 0640",
        "dry run: nothing was created",
    ] {
        assert!(dry.stdout.contains(line), "the plan lacks {line:?}:\n{}", dry.stdout);
    }
    assert!(!host.namespace_exists(NS), "--dry-run created the namespace");
    assert!(!host.data.exists(), "--dry-run wrote files");
    let labelled = host.json(&["get", "nodes", "-l", "karmada.io/etcd"]);
    assert!(names(&labelled).is_empty(), "--dry-run labelled a node");

    // The install.
    let first = host.init(&[]);
    assert_eq!(first.code, 0, "init failed:\n{}\n{}", first.stdout, first.stderr);
    assert!(
        first.stderr.contains("stopping before connecting to the new karmada-apiserver")
            && first.stderr.contains("karmadactl.karmada.io/simulated=true"),
        "init did not say why it stopped:\n{}",
        first.stderr
    );
    assert_eq!(host.installed("deployments"), set(DEPLOYMENTS));
    assert_eq!(host.installed("statefulsets"), set(&["etcd"]));
    assert_eq!(host.installed("services"), set(SERVICES));
    assert_eq!(host.installed("secrets"), set(SECRETS));
    for name in DEPLOYMENTS {
        let d = host.json(&["get", "deployment", name, "-n", NS, "--show-managed-fields"]);
        assert_eq!(d["status"]["availableReplicas"], 1, "{name} is not available: {}", d["status"]);
        let managers: Vec<&str> =
            d["metadata"]["managedFields"].as_array().unwrap().iter().filter_map(|m| m["manager"].as_str()).collect();
        assert!(managers.contains(&"karmadactl"), "{name} was not applied by karmadactl: {managers:?}");
    }
    let apiserver = host.json(&["get", "deployment", "karmada-apiserver", "-n", NS]);
    let command = &apiserver["spec"]["template"]["spec"]["containers"][0]["command"];
    assert_eq!(command[0], "kube-apiserver");
    assert!(command.as_array().unwrap().iter().any(|a| a == "--secure-port=5443"), "{command}");
    let svc = host.json(&["get", "service", "karmada-apiserver", "-n", NS]);
    assert_eq!(svc["spec"]["type"], "NodePort");
    assert_eq!(svc["spec"]["ports"][0]["nodePort"], 32443);
    let cert = host.json(&["get", "secret", "karmada-cert", "-n", NS]);
    assert_eq!(cert["data"].as_object().unwrap().len(), 16, "karmada-cert holds 8 pairs");
    let etcd_nodes = names(&host.json(&["get", "nodes", "-l", "karmada.io/etcd"]));
    assert_eq!(etcd_nodes.len(), 1, "one node holds etcd's data: {etcd_nodes:?}");
    let sts = host.json(&["get", "statefulset", "etcd", "-n", NS]);
    assert_eq!(sts["spec"]["template"]["spec"]["nodeSelector"]["karmada.io/etcd"], "");

    let pki_files: BTreeSet<String> =
        std::fs::read_dir(&host.pki).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(pki_files.len(), 16, "{pki_files:?}");
    let kubeconfig = std::fs::read_to_string(host.data.join("karmada-apiserver.config")).unwrap();
    assert!(kubeconfig.contains(":32443"), "{kubeconfig}");
    assert!(kubeconfig.contains("current-context: karmada-apiserver"), "{kubeconfig}");
    let ca_before = std::fs::read_to_string(host.pki.join("ca.crt")).unwrap();

    // A second run converges: same certificates, no spec change, no error.
    let generation = apiserver["metadata"]["generation"].clone();
    let second = host.init(&[]);
    assert_eq!(second.code, 0, "the second init failed:\n{}\n{}", second.stdout, second.stderr);
    assert!(second.stderr.contains("reusing the certificates"), "{}", second.stderr);
    assert_eq!(std::fs::read_to_string(host.pki.join("ca.crt")).unwrap(), ca_before);
    let again = host.json(&["get", "deployment", "karmada-apiserver", "-n", NS]);
    assert_eq!(again["metadata"]["generation"], generation, "the second apply changed the spec");
    assert_eq!(host.installed("deployments"), set(DEPLOYMENTS));

    // Something in the namespace that init did not create, though it has upstream's label.
    host.plane.kubectl_ok(&["create", "secret", "generic", "user-secret", "-n", NS, "--from-literal=k=v"]);
    host.plane.kubectl_ok(&["label", "secret", "user-secret", "-n", NS, "karmada.io/bootstrapping=secret-defaults"]);

    // Without a terminal deinit refuses to ask and changes nothing.
    let refused = host.karmadactl(&["deinit"]);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(refused.stderr.contains("--force"), "{}", refused.stderr);
    assert_eq!(host.installed("deployments"), set(DEPLOYMENTS));
    let dry = host.karmadactl(&["deinit", "--dry-run", "--force"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(dry.stderr.contains("delete Deployment \"karmada-system/karmada-apiserver\""), "{}", dry.stderr);
    assert!(dry.stderr.contains("delete etcd's data in /var/lib/karmada-etcd"), "{}", dry.stderr);
    assert!(!dry.stderr.contains("user-secret"), "deinit would delete an object it did not create:\n{}", dry.stderr);
    assert_eq!(host.installed("deployments"), set(DEPLOYMENTS));

    let removed = host.karmadactl(&["deinit", "--force"]);
    assert_eq!(removed.code, 0, "deinit failed:\n{}", removed.stderr);
    for kind in ["deployments", "statefulsets", "services", "secrets"] {
        assert!(host.installed(kind).is_empty(), "{kind} left behind: {:?}", host.installed(kind));
    }
    assert!(names(&host.json(&["get", "nodes", "-l", "karmada.io/etcd"])).is_empty(), "the etcd node label stayed");
    let jobs = names(&host.json(&["get", "jobs", "-n", NS]));
    assert!(jobs.is_empty(), "the data cleanup Job stayed: {jobs:?}");
    assert_eq!(
        names(&host.json(&["get", "secrets", "-n", NS, "-l", "karmada.io/bootstrapping"])),
        set(&["user-secret"])
    );
    assert!(host.namespace_exists(NS), "the namespace is only deleted with --purge-namespace");

    let purged = host.karmadactl(&["deinit", "--force", "--purge-namespace"]);
    assert_eq!(purged.code, 0, "deinit --purge-namespace failed:\n{}", purged.stderr);
    assert!(purged.stderr.contains("deleted Namespace \"karmada-system\""), "{}", purged.stderr);
}

#[test]
fn init_yaml_is_applyable_with_strict_validation() {
    let host = Host::start();
    let out = host.init(&["--dry-run", "-o", "yaml", "-n", "yaml-check", "--etcd-storage-mode", "emptyDir"]);
    assert_eq!(out.code, 0, "init --dry-run -o yaml failed:\n{}", out.stderr);
    assert_eq!(out.stdout.matches("\n---\n").count() + 1, 24, "one document per host object");
    assert!(!host.namespace_exists("yaml-check"), "--dry-run created the namespace");
    let path = host.plane.file("install.yaml", &out.stdout);
    host.plane.kubectl_ok(&["create", "namespace", "yaml-check"]);
    let applied =
        host.plane.kubectl_ok(&["apply", "--dry-run=server", "--validate=strict", "-f", path.to_str().unwrap()]);
    assert!(applied.contains("deployment.apps/karmada-apiserver created (server dry run)"), "{applied}");
    assert!(applied.contains("statefulset.apps/etcd created (server dry run)"), "{applied}");
    assert!(names(&host.json(&["get", "deployments", "-n", "yaml-check"])).is_empty());
}

/// A gzip tarball with raw entry names (the tar crate refuses to write `..` itself).
fn tarball(entries: &[(&str, Option<&str>)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
    for (path, content) in entries {
        let mut header = tar::Header::new_gnu();
        let body = content.unwrap_or_default();
        header.set_entry_type(if content.is_some() { tar::EntryType::Regular } else { tar::EntryType::Directory });
        header.set_size(body.len() as u64);
        header.set_mode(0o644);
        header.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
        header.set_cksum();
        builder.append(&header, body.as_bytes()).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// The fixture CRDs as upstream's release job packs them.
fn release_tarball() -> Vec<u8> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/karmada");
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
    builder.append_dir_all("crds", root.join("crds")).unwrap();
    builder.into_inner().unwrap().finish().unwrap()
}

#[test]
fn crds_tarball_is_checked_before_anything_is_applied() {
    let host = Host::start();
    let evil = host.plane.dir.path().join("evil.tar.gz");
    std::fs::write(&evil, tarball(&[("crds/", None), ("crds/../../etc/cron.d/x", Some("boom"))])).unwrap();
    let out = host.init(&["--crds", evil.to_str().unwrap()]);
    assert_eq!(out.code, 1, "a traversal entry was accepted:\n{}", out.stderr);
    assert!(out.stderr.contains("\"crds/../../etc/cron.d/x\""), "{}", out.stderr);
    assert!(!host.namespace_exists(NS) && !host.data.exists(), "something was created before the check");

    let not_crd = host.plane.dir.path().join("not-crd.tar.gz");
    let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: sneaky\n";
    std::fs::write(
        &not_crd,
        tarball(&[
            ("crds/", None),
            ("crds/bases/", None),
            ("crds/patches/", None),
            ("crds/bases/x.yaml", Some(secret)),
        ]),
    )
    .unwrap();
    let out = host.init(&["--crds", not_crd.to_str().unwrap()]);
    assert_eq!(out.code, 1, "a Secret in the CRD tarball was accepted:\n{}", out.stderr);
    assert!(out.stderr.contains("crds/bases/x.yaml") && out.stderr.contains("kind Secret"), "{}", out.stderr);
    assert!(!host.namespace_exists(NS));

    let release = host.plane.dir.path().join("crds.tar.gz");
    std::fs::write(&release, release_tarball()).unwrap();
    let out = host.init(&["--crds", release.to_str().unwrap(), "--dry-run"]);
    assert_eq!(out.code, 0, "the release tarball was refused:\n{}", out.stderr);
    let crds = out.stdout.lines().filter(|l| l.trim_start().starts_with("CustomResourceDefinition ")).count();
    assert_eq!(crds, 19, "{}", out.stdout);
    assert!(out.stdout.contains(&format!("CRDs {}", release.display())), "{}", out.stdout);
}

#[test]
fn a_workload_that_never_gets_ready_is_explained() {
    // Pods of this host stay Pending far longer than init waits.
    let host = Host::start_with(&["--pod-ready-delay", "1h"]);
    let out = host.init(&["--wait-component-ready-timeout", "2"]);
    assert_eq!(out.code, 1, "init succeeded with a karmada-apiserver that is not ready:\n{}", out.stderr);
    // etcd not being ready is only a warning, as upstream; the API server stops init.
    assert!(
        out.stderr.contains("warning: StatefulSet karmada-system/etcd did not become ready within 2s"),
        "{}",
        out.stderr
    );
    let error = out.stderr.lines().find(|l| l.starts_with("error: ")).unwrap_or_default();
    assert!(
        error.contains("Deployment karmada-system/karmada-apiserver did not become ready within 2s"),
        "{}",
        out.stderr
    );
    let pods = names(&host.json(&["get", "pods", "-n", NS, "-l", "app=karmada-apiserver"]));
    assert!(!pods.is_empty(), "the Deployment has pods");
    assert!(
        pods.iter().any(|p| error.contains(&format!("pod karmada-system/{p} is Pending"))),
        "{error} names none of {pods:?}"
    );
    assert!(out.stderr.contains("hint: "), "{}", out.stderr);
    assert!(host.installed("deployments").contains("karmada-apiserver"));
    assert!(!host.installed("deployments").contains("karmada-webhook"), "init went on after the fatal wait");
}

/// Serves `body` at `/crds.tar.gz` over plain HTTP, redirecting `/download` there as GitHub's
/// release links do; any other path is a 404. Runs until the test process ends.
fn serve_tarball(body: Vec<u8>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let location = format!("{base}/crds.tar.gz");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or_default().to_string();
            let head = match path.as_str() {
                "/download" => format!("HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n"),
                "/crds.tar.gz" => format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n", body.len()),
                _ => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n".to_string(),
            };
            let _ = stream.write_all(format!("{head}Connection: close\r\n\r\n").as_bytes());
            if path == "/crds.tar.gz" {
                let _ = stream.write_all(&body);
            }
        }
    });
    base
}

#[test]
fn crds_can_come_from_a_url() {
    let host = Host::start();
    let base = serve_tarball(release_tarball());
    let url = format!("{base}/download");
    let out = host.init(&["--crds", &url, "--dry-run"]);
    assert_eq!(out.code, 0, "the downloaded tarball was refused:\n{}", out.stderr);
    let crds = out.stdout.lines().filter(|l| l.trim_start().starts_with("CustomResourceDefinition ")).count();
    assert_eq!(crds, 19, "{}", out.stdout);
    assert!(out.stdout.contains(&format!("CRDs {url}")), "{}", out.stdout);

    let missing = format!("{base}/nothing-here.tar.gz");
    let out = host.init(&["--crds", &missing, "--dry-run"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains(&format!("cannot download {missing}: the server answered 404")), "{}", out.stderr);
}

const INIT_CONFIG: &str = r#"apiVersion: config.karmada.io/v1alpha1
kind: KarmadaInitConfig
spec:
  etcd:
    local:
      storageMode: emptyDir
  components:
    karmadaAPIServer:
      networking:
        namespace: from-file
        port: 31555
      extraArgs:
        - {name: v, value: "1"}
    karmadaScheduler:
      repository: registry.example/scheduler
      tag: v9.9.9
      replicas: 2
    karmadaWebhook:
      replicas: 4
    karmadaControllerManager:
      extraArgs:
        - {name: v, value: "7"}
"#;

/// The host objects of `init --dry-run -o json`, by kind and name.
fn rendered(out: &common::Run) -> std::collections::BTreeMap<(String, String), Value> {
    let list: Value = serde_json::from_str(&out.stdout).unwrap();
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| ((o["kind"].as_str().unwrap().into(), o["metadata"]["name"].as_str().unwrap().into()), o.clone()))
        .collect()
}

fn container_line(obj: &Value) -> String {
    let c = &obj["spec"]["template"]["spec"]["containers"][0];
    let words = c["command"].as_array().into_iter().chain(c["args"].as_array()).flatten();
    words.map(|w| w.as_str().unwrap()).collect::<Vec<_>>().join(" ")
}

#[test]
fn config_file_fills_in_what_the_flags_leave_unset() {
    let host = Host::start();
    let config = host.plane.file("init-config.yaml", INIT_CONFIG);
    let out = host.init(&[
        "--dry-run",
        "-o",
        "json",
        "--config",
        config.to_str().unwrap(),
        "--karmada-scheduler-replicas",
        "3",
        "--karmada-apiserver-extra-args=--v=9",
    ]);
    assert_eq!(out.code, 0, "init --config failed:\n{}", out.stderr);
    let objects = rendered(&out);
    let get = |kind: &str, name: &str| &objects[&(kind.to_string(), name.to_string())];
    let scheduler = get("Deployment", "karmada-scheduler");
    assert_eq!(scheduler["metadata"]["namespace"], "from-file");
    assert_eq!(scheduler["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/scheduler:v9.9.9");
    assert_eq!(scheduler["spec"]["replicas"], 3, "the explicit --karmada-scheduler-replicas wins over the file");
    assert_eq!(get("Deployment", "karmada-webhook")["spec"]["replicas"], 4);
    assert_eq!(get("Service", "karmada-apiserver")["spec"]["ports"][0]["nodePort"], 31555);
    let etcd_volumes = get("StatefulSet", "etcd")["spec"]["template"]["spec"]["volumes"].to_string();
    assert!(etcd_volumes.contains("emptyDir") && !etcd_volumes.contains("hostPath"), "{etcd_volumes}");
    let cm = container_line(get("Deployment", "karmada-controller-manager"));
    assert!(cm.contains("--v=7"), "the file's extra arg is missing: {cm}");
    let api = container_line(get("Deployment", "karmada-apiserver"));
    assert!(api.contains("--v=9") && !api.contains("--v=1"), "the command line's --v wins: {api}");
    assert!(!host.namespace_exists("from-file"), "--dry-run created the namespace");
}

#[test]
fn a_bad_config_file_stops_init_before_anything_is_created() {
    let host = Host::start();
    let bad = host.plane.file("bad.yaml", &INIT_CONFIG.replace("storageMode: emptyDir", "storageMode: Disk"));
    let out = host.init(&["--config", bad.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("spec.etcd.local.storageMode: \"Disk\" is not one of"), "{}", out.stderr);
    let typo = host.plane.file("typo.yaml", &INIT_CONFIG.replace("replicas: 4", "replica: 4"));
    let out = host.init(&["--config", typo.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("spec.components.karmadaWebhook.replica: unknown field"), "{}", out.stderr);
    let out = host.init(&["--config", host.plane.dir.path().join("missing.yaml").to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("cannot read the --config file"), "{}", out.stderr);
    assert!(!host.namespace_exists("from-file") && !host.namespace_exists(NS), "a namespace was created");
    assert!(!host.data.exists() && !host.pki.exists(), "files were written");
}
