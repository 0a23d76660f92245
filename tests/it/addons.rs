//! `addons list|enable|disable` end to end: a host install made by the real `init` on a
//! kubernetes-profile plane whose workload simulator makes Deployments report ready, a second
//! plain Kubernetes API server standing in for the Karmada API server (the test marks the
//! APIServices Available, as kube-aggregator would once the addon's pods answer), and the
//! embedded control plane, which has no addons to manage.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common;
use crate::common::plane::Plane;
use serde_json::{Value, json};

const NS: &str = "karmada-system";
const LABEL: &str = "karmadactl.karmada.io/installed-by=karmadactl-addons";

/// A host cluster with `init`'s objects, the Karmada API server stand-in, and a HOME.
struct Setup {
    host: Plane,
    karmada: Plane,
    home: tempfile::TempDir,
}

fn wait_for_ready_nodes(plane: &Plane) {
    common::eventually("the simulated nodes are Ready", || {
        let nodes: Value = serde_json::from_str(&plane.kubectl_ok(&["get", "nodes", "-o", "json"])).unwrap();
        nodes["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| {
                n["status"]["conditions"]
                    .as_array()
                    .is_some_and(|c| c.iter().any(|c| c["type"] == "Ready" && c["status"] == "True"))
            })
            .then_some(())
    });
}

impl Setup {
    /// A simulated host; `init` installs into it when `with_init`.
    fn start(host_flags: &[&str], with_init: bool) -> Setup {
        let mut flags = vec!["--profile", "kubernetes", "--simulate-workloads"];
        flags.extend_from_slice(host_flags);
        let host = Plane::start_with(&flags);
        let karmada = Plane::start_with(&["--profile", "kubernetes"]);
        let setup = Setup { host, karmada, home: tempfile::tempdir().unwrap() };
        // What init creates inside Karmada before any addon: the namespace of the components.
        setup.karmada.kubectl_ok(&["create", "namespace", NS]);
        wait_for_ready_nodes(&setup.host);
        if with_init {
            let data = setup.home.path().join("karmada");
            let out = setup.run(&[
                "init",
                "--kubeconfig",
                setup.host.kubeconfig.to_str().unwrap(),
                "--karmada-data",
                data.to_str().unwrap(),
                "--karmada-pki",
                data.join("pki").to_str().unwrap(),
                "--wait-component-ready-timeout",
                "90",
            ]);
            assert_eq!(out.code, 0, "init failed:\n{}", out.stderr);
        }
        setup
    }

    fn run(&self, args: &[&str]) -> common::Run {
        let mut cmd = common::karmadactl(self.home.path());
        cmd.args(args).stdin(std::process::Stdio::null());
        common::run(cmd)
    }

    /// `karmadactl addons <args> --kubeconfig <host> --karmada-kubeconfig <stand-in>`.
    fn addons(&self, args: &[&str]) -> common::Run {
        let mut all = vec!["addons"];
        all.extend_from_slice(args);
        all.extend([
            "--kubeconfig",
            self.host.kubeconfig.to_str().unwrap(),
            "--karmada-kubeconfig",
            self.karmada.kubeconfig.to_str().unwrap(),
        ]);
        self.run(&all)
    }

    /// What `addons` created, on both sides: `kind/namespace/name`.
    fn created(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for (plane, kinds) in [(&self.host, "deployments,services,secrets"), (&self.karmada, "services,apiservices")] {
            let list = json_of(plane, &["get", kinds, "-A", "-l", LABEL]);
            for o in list["items"].as_array().unwrap() {
                out.insert(format!(
                    "{}/{}/{}",
                    o["kind"].as_str().unwrap(),
                    o["metadata"]["namespace"].as_str().unwrap_or_default(),
                    o["metadata"]["name"].as_str().unwrap()
                ));
            }
        }
        out
    }
}

fn json_of(plane: &Plane, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["-o", "json"]);
    serde_json::from_str(&plane.kubectl_ok(&all)).unwrap()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// upstream's `addons list` table for these statuses, in name order.
fn table(statuses: [&str; 4]) -> String {
    let names = ["karmada-descheduler", "karmada-metrics-adapter", "karmada-scheduler-estimator", "karmada-search"];
    let width = statuses.iter().map(|s| s.len()).max().unwrap().max(6);
    let rule = format!("+-----------------------------+{}+\n", "-".repeat(width + 2));
    let gap = width - 6;
    let mut out = format!(
        "{rule}|         ADDON NAME          | {}STATUS{} |\n{rule}",
        " ".repeat(gap / 2),
        " ".repeat(gap - gap / 2)
    );
    for (name, status) in names.iter().zip(statuses) {
        out.push_str(&format!("| {name:<27} | {status:<width$} |\n"));
    }
    out + &rule
}

/// Plays kube-aggregator while `command` runs: once the APIService exists, reports it
/// Available. Returns what `command` returned.
fn with_aggregator(karmada: &Plane, names: &[&str], command: impl FnOnce() -> common::Run + Send) -> common::Run {
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let running = scope.spawn(|| {
            let out = command();
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            out
        });
        let mut waiting: Vec<&str> = names.to_vec();
        while !waiting.is_empty() && !done.load(std::sync::atomic::Ordering::SeqCst) {
            let status = json!({"status": {"conditions": [{"type": "Available", "status": "True",
                "reason": "Passed", "message": "all checks passed", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}});
            let body = status.to_string();
            waiting.retain(|name| {
                if karmada.kubectl_run(&["get", "apiservice", name]).code != 0 {
                    return true;
                }
                karmada.kubectl_ok(&["patch", "apiservice", name, "--subresource=status", "--type=merge", "-p", &body]);
                false
            });
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        running.join().unwrap()
    })
}

/// A kubeconfig for the member with two contexts: `member1` (a client certificate) and the
/// current one, `other`, whose token must not reach the estimator's secret.
fn member_kubeconfig(plane: &Plane) -> PathBuf {
    let text = std::fs::read_to_string(plane.cert_kubeconfig("estimator-admin", &["system:masters"])).unwrap();
    let text = text
        .replace(
            "contexts:\n",
            "- name: other\n  user:\n    token: other-secret-token\ncontexts:\n- name: other\n  context:\n    cluster: plane\n    user: other\n",
        )
        .replace("- name: c\n  context:", "- name: member1\n  context:")
        .replace("current-context: c\n", "current-context: other\n");
    plane.file("member.kubeconfig", &text)
}

fn command_of(deployment: &Value) -> Vec<String> {
    let c = &deployment["spec"]["template"]["spec"]["containers"][0]["command"];
    c.as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect()
}

fn decoded(secret: &Value, key: &str) -> String {
    use base64::Engine as _;
    let b64 = secret["data"][key].as_str().unwrap();
    String::from_utf8(base64::engine::general_purpose::STANDARD.decode(b64).unwrap()).unwrap()
}

fn assert_refused(out: &common::Run, message: &str) {
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let first = out.stderr.lines().next().unwrap_or_default();
    assert_eq!(first, format!("error: {message}"), "{}", out.stderr);
}

#[test]
fn enable_list_and_disable_on_a_host_install() {
    let s = Setup::start(&[], true);
    let member = member_kubeconfig(&s.host);
    let member = member.to_str().unwrap();
    let list = s.addons(&["list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert_eq!(list.stdout, table(["disabled", "disabled", "unknown", "disabled"]));
    let init_deployments = json_of(&s.host, &["get", "deployments", "-n", NS])["items"].as_array().unwrap().len();

    // Bad input: upstream's message, and nothing is created.
    assert_refused(&s.addons(&["enable", "karmada-serach"]), "addon karmada-serach is not be supported now");
    assert_refused(&s.addons(&["enable"]), "addonNames must be not be null");
    assert_refused(
        &s.addons(&["enable", "karmada-scheduler-estimator"]),
        "member cluster is needed when enable karmada-scheduler-estimator,use `--cluster=member --member-kubeconfig /root/.kube/config --member-context member1` to enable karmada-scheduler-estimator",
    );
    assert_refused(
        &s.addons(&["enable", "karmada-search", "-C", "member1"]),
        "cluster is needed only when enable karmada-scheduler-estimator or enable all",
    );
    assert_refused(
        &s.addons(&["enable", "karmada-scheduler-estimator", "-C", "member1"]),
        "member config is needed when enable karmada-scheduler-estimator,use `--cluster=member --member-kubeconfig /root/.kube/member.config --member-context member1` to enable karmada-scheduler-estimator",
    );
    let missing = s.host.dir.path().join("missing.kubeconfig");
    let estimator = |member_flags: &[&str]| {
        let mut args = vec!["enable", "karmada-scheduler-estimator", "-C", "member1"];
        args.extend_from_slice(member_flags);
        s.addons(&args)
    };
    let out = estimator(&["--member-kubeconfig", missing.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.starts_with("error: failed to get member cluster config. error: "), "{}", out.stderr);
    let out = estimator(&["--member-kubeconfig", member, "--member-context", "nope"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("nope"), "{}", out.stderr);
    assert_refused(
        &s.addons(&["enable", "karmada-search", "-n", "elsewhere"]),
        "secrets `karmada-search-config` is not found in namespace elsewhere, please execute karmadactl init to deploy karmada first",
    );
    assert_refused(
        &s.addons(&["enable", "karmada-descheduler", "--karmada-descheduler-replicas", "-1"]),
        "--karmada-descheduler-replicas must not be negative, got -1",
    );
    assert_refused(
        &s.addons(&["disable", "karmada-scheduler-estimator"]),
        "member cluster and config is needed when disable karmada-scheduler-estimator,use `--cluster=member --member-kubeconfig /root/.kube/config --member-context member1` to disable karmada-scheduler-estimator",
    );
    let missing_karmada = s.run(&[
        "addons",
        "list",
        "--kubeconfig",
        s.host.kubeconfig.to_str().unwrap(),
        "--karmada-kubeconfig",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(missing_karmada.code, 1);
    assert!(
        missing_karmada.stderr.starts_with(&format!(
            "error: failed to get karmada-apiserver config from {}. please use --karmada-kubeconfig to point the config file.",
            missing.display()
        )),
        "{}",
        missing_karmada.stderr
    );
    assert_eq!(s.created(), BTreeSet::new(), "a refused command created something");

    // Enable three addons in one go, the estimator for member1.
    let out = with_aggregator(&s.karmada, &["v1alpha1.search.karmada.io"], || {
        s.addons(&[
            "enable",
            "karmada-search",
            "karmada-scheduler-estimator",
            "karmada-descheduler",
            "-C",
            "member1",
            "--member-kubeconfig",
            member,
            "--member-context",
            "member1",
            "--karmada-search-replicas",
            "2",
            "--private-image-registry",
            "registry.example",
            "--karmada-descheduler-image",
            "mine/descheduler:1",
        ])
    });
    assert_eq!(out.code, 0, "enable failed:\n{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    for expected in [
        "Start to enable addon karmada-descheduler",
        "Install karmada descheduler deployment on host cluster successfully",
        "Successfully enable addon karmada-descheduler",
        "Start to enable addon karmada-scheduler-estimator",
        "Karmada scheduler estimator of member cluster member1 is installed successfully.",
        "Successfully enable addon karmada-scheduler-estimator",
        "Start to enable addon karmada-search",
        "Install karmada search service on host cluster successfully",
        "Install karmada search deployment on host cluster successfully",
        "Install karmada search api server on karmada control plane successfully",
        "Successfully enable addon karmada-search",
    ] {
        assert!(lines.contains(&expected), "missing {expected:?} in:\n{}", out.stderr);
    }
    let order: Vec<usize> = ["addon karmada-descheduler", "addon karmada-scheduler-estimator", "addon karmada-search"]
        .iter()
        .map(|a| out.stderr.find(&format!("Start to enable {a}")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "not in name order:\n{}", out.stderr);
    assert_eq!(
        s.created(),
        set(&[
            "APIService//v1alpha1.search.karmada.io",
            "Deployment/karmada-system/karmada-descheduler",
            "Deployment/karmada-system/karmada-scheduler-estimator-member1",
            "Deployment/karmada-system/karmada-search",
            "Secret/karmada-system/member1-kubeconfig",
            "Service/karmada-system/karmada-scheduler-estimator-member1",
            "Service/karmada-system/karmada-search",
        ])
    );

    // The objects are upstream's.
    let d = json_of(&s.host, &["get", "deployment", "karmada-descheduler", "-n", NS]);
    assert_eq!(d["metadata"]["labels"]["app"], "karmada-descheduler");
    let pod = &d["spec"]["template"]["spec"];
    assert_eq!(pod["containers"][0]["image"], "mine/descheduler:1", "an explicit image is kept");
    assert_eq!(pod["priorityClassName"], "system-node-critical");
    assert_eq!(pod["automountServiceAccountToken"], false);
    assert_eq!(pod["tolerations"], json!([{"key": "node-role.kubernetes.io/master", "operator": "Exists"}]));
    assert_eq!(
        command_of(&d),
        [
            "/bin/karmada-descheduler",
            "--kubeconfig=/etc/karmada/config/karmada.config",
            "--metrics-bind-address=$(POD_IP):8080",
            "--health-probe-bind-address=$(POD_IP):10358",
            "--leader-elect-resource-namespace=karmada-system",
            "--scheduler-estimator-ca-file=/etc/karmada/pki/ca.crt",
            "--scheduler-estimator-cert-file=/etc/karmada/pki/karmada.crt",
            "--scheduler-estimator-key-file=/etc/karmada/pki/karmada.key",
            "--v=2",
        ]
    );
    assert_eq!(pod["volumes"][0]["secret"]["secretName"], "karmada-descheduler-config");
    assert_eq!(pod["volumes"][1]["secret"]["secretName"], "karmada-cert");

    let search = json_of(&s.host, &["get", "deployment", "karmada-search", "-n", NS]);
    assert_eq!(search["spec"]["replicas"], 2);
    assert_eq!(search["spec"]["selector"]["matchLabels"], json!({"app": "karmada-search", "apiserver": "true"}));
    assert_eq!(
        search["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/karmada-search:v1.19.0",
        "a default image moves to the private registry"
    );
    let command = command_of(&search);
    assert!(
        command.contains(&"--etcd-servers=https://etcd-0.etcd.karmada-system.svc.cluster.local:2379".to_string()),
        "{command:?}"
    );
    assert_eq!(command.last().unwrap(), "--bind-address=$(POD_IP)");
    let svc = json_of(&s.host, &["get", "service", "karmada-search", "-n", NS]);
    assert_eq!(svc["spec"]["selector"], json!({"app": "karmada-search"}));
    assert_eq!(svc["spec"]["ports"][0]["port"], 443);
    let aa = json_of(&s.karmada, &["get", "service", "karmada-search", "-n", NS]);
    assert_eq!(aa["spec"]["type"], "ExternalName");
    assert_eq!(aa["spec"]["externalName"], "karmada-search.karmada-system.svc.cluster.local");
    let api = json_of(&s.karmada, &["get", "apiservice", "v1alpha1.search.karmada.io"]);
    let cert = json_of(&s.host, &["get", "secret", "karmada-cert", "-n", NS]);
    assert_eq!(api["spec"]["caBundle"], cert["data"]["ca.crt"], "the APIService trusts Karmada's CA");
    assert_eq!(
        (api["spec"]["service"]["name"].clone(), api["spec"]["service"]["namespace"].clone()),
        (json!("karmada-search"), json!(NS))
    );
    assert_eq!(
        (api["spec"]["groupPriorityMinimum"].clone(), api["spec"]["versionPriority"].clone()),
        (json!(2000), json!(10))
    );

    let est = json_of(&s.host, &["get", "deployment", "karmada-scheduler-estimator-member1", "-n", NS]);
    assert_eq!(est["metadata"]["labels"]["cluster"], "member1");
    assert_eq!(
        est["spec"]["template"]["metadata"]["labels"],
        json!({"app": "karmada-scheduler-estimator-member1", "cluster": "member1"})
    );
    assert_eq!(
        command_of(&est)[..3],
        ["/bin/karmada-scheduler-estimator", "--kubeconfig=/etc/member1-kubeconfig", "--cluster-name=member1"]
    );
    let est_svc = json_of(&s.host, &["get", "service", "karmada-scheduler-estimator-member1", "-n", NS]);
    assert_eq!(est_svc["spec"]["ports"][0]["port"], 10352);
    let secret = json_of(&s.host, &["get", "secret", "member1-kubeconfig", "-n", NS]);
    let kubeconfig = decoded(&secret, "member1-kubeconfig");
    assert!(kubeconfig.contains("current-context: member1"), "{kubeconfig}");
    assert!(kubeconfig.contains("client-certificate-data"), "{kubeconfig}");
    assert!(!kubeconfig.contains("other-secret-token"), "another context's token leaked:\n{kubeconfig}");

    let list = s.addons(&["list", "-C", "member1"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert_eq!(list.stdout, table(["enabled", "disabled", "enabled", "enabled"]));

    // A second enable converges: the same spec, no new generation.
    let generation = d["metadata"]["generation"].clone();
    let again = s.addons(&["enable", "karmada-descheduler", "--karmada-descheduler-image", "mine/descheduler:1"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let d = json_of(&s.host, &["get", "deployment", "karmada-descheduler", "-n", NS]);
    assert_eq!(d["metadata"]["generation"], generation, "the second enable changed the spec");

    // The metrics adapter: its APIServices never become Available here.
    let out = s.addons(&["enable", "karmada-metrics-adapter", "--apiservice-timeout", "1"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("error: Install addon karmada-metrics-adapter failed: APIService v1beta1.metrics.k8s.io did not become Available within 1s"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("Successfully enable addon karmada-metrics-adapter"), "{}", out.stderr);
    let list = s.addons(&["list"]);
    assert_eq!(list.stdout, table(["enabled", "unhealthy", "unknown", "enabled"]));

    // Once kube-aggregator reports its three APIServices Available, it is enabled.
    let metrics = ["v1beta1.metrics.k8s.io", "v1beta1.custom.metrics.k8s.io", "v1beta2.custom.metrics.k8s.io"];
    let out = with_aggregator(&s.karmada, &metrics, || s.addons(&["enable", "karmada-metrics-adapter"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .lines()
            .any(|l| l == "Install karmada metrics adapter api server on karmada control plane successfully"),
        "{}",
        out.stderr
    );
    for (name, group, version) in [
        (metrics[0], "metrics.k8s.io", "v1beta1"),
        (metrics[1], "custom.metrics.k8s.io", "v1beta1"),
        (metrics[2], "custom.metrics.k8s.io", "v1beta2"),
    ] {
        let api = json_of(&s.karmada, &["get", "apiservice", name]);
        let spec = &api["spec"];
        assert_eq!((spec["group"].as_str(), spec["version"].as_str()), (Some(group), Some(version)), "{api}");
        assert_eq!((spec["groupPriorityMinimum"].as_i64(), spec["versionPriority"].as_i64()), (Some(100), Some(200)));
        assert_eq!(spec["service"]["name"], "karmada-metrics-adapter");
        assert_eq!(spec["caBundle"], cert["data"]["ca.crt"]);
    }
    let adapter = json_of(&s.host, &["get", "deployment", "karmada-metrics-adapter", "-n", NS]);
    assert_eq!(command_of(&adapter)[0], "/bin/karmada-metrics-adapter");
    assert_eq!(
        adapter["spec"]["template"]["metadata"]["labels"],
        json!({"app": "karmada-metrics-adapter", "apiserver": "true"})
    );
    let list = s.addons(&["list", "-C", "member1"]);
    assert_eq!(list.stdout, table(["enabled", "enabled", "enabled", "enabled"]));

    // Without a terminal and without --force, disable refuses and deletes nothing.
    let before = s.created();
    let out = s.addons(&["disable", "karmada-search"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stdout, "Disable Karmada addon [karmada-search]\n");
    assert!(
        out.stderr.starts_with("error: addons disable needs confirmation, and there is no terminal to ask on"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--force"), "{}", out.stderr);
    assert_eq!(s.created(), before);

    // An object of an addon's name that enable did not create is kept.
    s.karmada.kubectl_ok(&[
        "label",
        "service",
        "karmada-metrics-adapter",
        "-n",
        NS,
        "karmadactl.karmada.io/installed-by-",
    ]);
    let out = s.addons(&["disable", "karmada-metrics-adapter", "--force"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("warning: Service karmada-system/karmada-metrics-adapter was not created by 'addons enable'"),
        "{}",
        out.stderr
    );
    assert_eq!(s.karmada.kubectl_run(&["get", "service", "karmada-metrics-adapter", "-n", NS]).code, 0);
    assert!(s.created().iter().all(|o| !o.contains("metrics")), "{:?}", s.created());
    s.karmada.kubectl_ok(&["delete", "service", "karmada-metrics-adapter", "-n", NS]);

    // Disable everything: exactly what enable created goes, init's objects stay.
    let out = s.addons(&["disable", "all", "-C", "member1", "--force"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for expected in [
        "Uninstall karmada descheduler deployment on host cluster successfully",
        "Karmada scheduler estimator of member cluster member1 is removed successfully.",
        "Uninstall karmada search service on host cluster successfully",
        "Uninstall karmada search deployment on host cluster successfully",
        "Uninstall karmada search AA service on karmada control plane successfully",
        "Uninstall karmada search AA apiservice on karmada control plane successfully",
        "Successfully disable addon karmada-search",
    ] {
        assert!(out.stderr.lines().any(|l| l == expected), "missing {expected:?} in:\n{}", out.stderr);
    }
    assert_eq!(s.created(), BTreeSet::new());
    let after = json_of(&s.host, &["get", "deployments", "-n", NS])["items"].as_array().unwrap().len();
    assert_eq!(after, init_deployments, "disable deleted a Deployment of init");
    assert_eq!(s.host.kubectl_run(&["get", "secret", "karmada-search-config", "-n", NS]).code, 0);
    let list = s.addons(&["list", "-C", "member1"]);
    assert_eq!(list.stdout, table(["disabled", "disabled", "disabled", "disabled"]));
}

/// The prerequisites `init` leaves for one addon: the namespace and its kubeconfig secret.
fn prepare_descheduler(host: &Plane) {
    host.kubectl_ok(&["create", "namespace", NS]);
    host.kubectl_ok(&[
        "create",
        "secret",
        "generic",
        "karmada-descheduler-config",
        "-n",
        NS,
        "--from-literal=karmada.config=x",
    ]);
}

#[test]
fn a_descheduler_that_never_gets_ready_fails_and_lists_unhealthy() {
    // Pods of this host stay Pending far longer than enable waits.
    let s = Setup::start(&["--pod-ready-delay", "1h"], false);
    prepare_descheduler(&s.host);
    let out = s.addons(&["enable", "karmada-descheduler", "--pod-timeout", "2"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let error = out.stderr.lines().find(|l| l.starts_with("error: ")).unwrap_or_default();
    assert!(
        error.starts_with("error: Install addon karmada-descheduler failed: wait karmada descheduler pod timeout: Deployment karmada-system/karmada-descheduler did not become ready within 2s: pod karmada-system/"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("Successfully enable"), "{}", out.stderr);
    let list = s.addons(&["list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert_eq!(list.stdout, table(["unhealthy", "disabled", "unknown", "disabled"]));
}

/// Runs `command` under a pseudo-terminal (script(1)) with `input` typed into it.
fn on_terminal(home: &Path, command: &str, input: &str) -> (i32, String) {
    use std::io::Write as _;
    let mut child = std::process::Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .env("HOME", home)
        .env_remove("KUBECONFIG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("script(1) runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn disable_asks_on_a_terminal() {
    let s = Setup::start(&[], false);
    prepare_descheduler(&s.host);
    let out = s.addons(&["enable", "karmada-descheduler"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let command = format!(
        "'{}' addons disable karmada-descheduler --kubeconfig '{}' --karmada-kubeconfig '{}'",
        common::bin().display(),
        s.host.kubeconfig.display(),
        s.karmada.kubeconfig.display()
    );
    let (code, tty) = on_terminal(s.home.path(), &command, "maybe\nn\n");
    assert_eq!(code, 0, "{tty}");
    assert_eq!(tty.matches("Please type (y)es or (n)o and then press enter:").count(), 2, "{tty}");
    assert!(tty.contains("addons disable cancelled; nothing was changed"), "{tty}");
    assert_eq!(s.host.kubectl_run(&["get", "deployment", "karmada-descheduler", "-n", NS]).code, 0);

    let (code, tty) = on_terminal(s.home.path(), &command, "yes\n");
    assert_eq!(code, 0, "{tty}");
    assert!(tty.contains("Successfully disable addon karmada-descheduler"), "{tty}");
    assert_ne!(s.host.kubectl_run(&["get", "deployment", "karmada-descheduler", "-n", NS]).code, 0);
}

#[test]
fn the_embedded_plane_says_what_it_has_instead() {
    let plane = Plane::start();
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let mut cmd = common::karmadactl(home.path());
        cmd.arg("addons").args(args).arg("--kubeconfig").arg(&plane.kubeconfig).stdin(std::process::Stdio::null());
        common::run(cmd)
    };
    let list = run(&["list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert_eq!(list.stdout, table(["not built"; 4]));
    assert!(list.stderr.contains("is karmadactl's embedded control plane"), "{}", list.stderr);
    assert!(
        list.stderr.contains("karmada-scheduler-estimator: not built yet; the scheduler estimates each cluster's free replicas from the Cluster's status.resourceSummary"),
        "{}",
        list.stderr
    );

    for args in [&["enable", "karmada-search"][..], &["disable", "all", "--force"][..]] {
        let out = run(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        let error = out.stderr.lines().find(|l| l.starts_with("error: ")).unwrap_or_default();
        assert_eq!(
            error,
            format!(
                "error: `karmadactl addons {}` is not built yet in this version of karmadactl",
                args[..2].join(" ")
            )
        );
        assert!(out.stderr.contains("hint: nothing was changed"), "{}", out.stderr);
    }
    assert_refused(&run(&["enable", "karmada-serach"]), "addon karmada-serach is not be supported now");
    let apiservices = json_of(&plane, &["get", "apiservices"]);
    assert!(
        apiservices["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| !a["metadata"]["name"].as_str().unwrap().contains("search")),
        "{apiservices}"
    );
}
