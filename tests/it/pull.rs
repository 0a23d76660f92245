//! Pull mode end to end: `token create --print-register-command` on a real Karmada plane, the
//! printed command run against a simulated member with the agent built into this binary, Works
//! applied by the agent and their status reported back, `unregister` leaving nothing behind,
//! the Deployment path checked object by object, registrations that must fail and create
//! nothing, and a plane in its own network namespace that cannot reach the member at all (needs
//! root and iproute2, which `.ci/run` installs).

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::Run;
use crate::common::plane::Plane;
use serde_json::Value;

/// A simulated member: the same API server in the plain Kubernetes profile, with simulated
/// workloads (not a real cluster).
fn member(name: &str) -> Plane {
    Plane::start_with(&["--profile", "kubernetes", "--simulate-workloads", "--kubeconfig-context", name])
}

struct Setup {
    plane: Plane,
    member: Plane,
    work: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        Setup { plane: Plane::start(), member: member("pm1"), work: tempfile::tempdir().unwrap() }
    }

    fn karmadactl(&self, args: &[&str]) -> Run {
        let mut cmd = common::karmadactl(self.work.path());
        // Only the plane's kubeconfig is in the environment; the member is always named.
        cmd.env("KUBECONFIG", &self.plane.kubeconfig).args(args);
        common::run(cmd)
    }

    /// The register command `token create` prints, as arguments.
    fn printed_register(&self, extra: &[&str]) -> Vec<String> {
        let out = self.karmadactl(&["token", "create", "--print-register-command"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let mut words: Vec<String> = out.stdout.split_whitespace().map(String::from).collect();
        assert_eq!(words[..2], ["karmadactl", "register"]);
        words.drain(..1);
        words.extend(extra.iter().map(|s| s.to_string()));
        words
    }

    fn agent_dir(&self) -> PathBuf {
        self.work.path().join("agent")
    }

    fn local_register(&self, words: &[String]) -> Run {
        let member = self.member.kubeconfig.to_str().unwrap().to_string();
        let dir = self.agent_dir().to_str().unwrap().to_string();
        let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
        args.extend_from_slice(&[
            "--kubeconfig",
            &member,
            "--cluster-name",
            "pm1",
            "--agent-mode",
            "local",
            "--agent-dir",
            &dir,
        ]);
        if !args.contains(&"--discovery-timeout") {
            args.extend_from_slice(&["--discovery-timeout", "20s"]);
        }
        self.karmadactl(&args)
    }

    /// `unregister pm1` with an administrator's kubeconfig, so it may remove the agent's RBAC
    /// in the plane too.
    fn unregister_as_admin(&self) -> Run {
        let dir = self.agent_dir();
        self.karmadactl(&[
            "unregister",
            "pm1",
            "--cluster-kubeconfig",
            self.member.kubeconfig.to_str().unwrap(),
            "--karmada-config",
            self.plane.kubeconfig.to_str().unwrap(),
            "--agent-dir",
            dir.to_str().unwrap(),
        ])
    }

    fn plane_json(&self, args: &[&str]) -> Option<Value> {
        kubectl_json(&self.plane, args)
    }

    /// The items of a list (kubectl prints nothing for an empty one with --ignore-not-found).
    fn items(&self, args: &[&str]) -> Vec<Value> {
        self.plane_json(args).and_then(|l| l["items"].as_array().cloned()).unwrap_or_default()
    }

    fn member_json(&self, args: &[&str]) -> Option<Value> {
        kubectl_json(&self.member, args)
    }

    /// What a failed registration must not have left in the plane or on disk.
    fn assert_nothing_created(&self) {
        assert!(self.items(&["clusters"]).is_empty());
        assert!(self.items(&["csr"]).is_empty(), "no CSR is left");
        assert!(self.plane_json(&["clusterrole", "system:karmada:pm1:agent"]).is_none());
        assert!(self.plane_json(&["namespace", "karmada-es-pm1"]).is_none());
        assert!(!self.agent_dir().join("karmada-agent.config").exists());
    }
}

fn kubectl_json(plane: &Plane, args: &[&str]) -> Option<Value> {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "json", "--ignore-not-found"]);
    let out = plane.kubectl_ok(&all);
    (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
}

fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn condition(obj: &Value, type_: &str) -> Option<String> {
    obj["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == type_)
        .and_then(|c| c["status"].as_str().map(String::from))
}

const WORK: &str = r#"
apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata:
  name: web-config
  namespace: karmada-es-pm1
spec:
  workload:
    manifests:
    - apiVersion: v1
      kind: ConfigMap
      metadata:
        name: web-config
        namespace: default
      data:
        greeting: hello
    - apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
        namespace: default
      spec:
        replicas: 2
        selector:
          matchLabels: {app: web}
        template:
          metadata:
            labels: {app: web}
          spec:
            containers:
            - name: web
              image: nginx
"#;

#[test]
fn the_printed_register_command_brings_a_pull_member_whose_agent_applies_works_and_unregister_removes_all() {
    let s = Setup::new();
    let _agent = AgentGuard(s.agent_dir());
    let words = s.printed_register(&[]);
    let run = s.local_register(&words);
    assert_eq!(run.code, 0, "register failed:\n{}\n{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "[preflight] Running pre-flight checks",
            "[preflight] All pre-flight checks were passed",
            "[karmada-agent-start] Waiting to perform the TLS Bootstrap",
            "[karmada-agent-start] Waiting to check cluster exists",
            "[karmada-agent-start] Assign the necessary RBAC permissions to the agent",
            "[karmada-agent-start] Waiting to construct karmada-agent kubeconfig",
            "",
            "cluster(pm1) is joined successfully",
        ]
    );

    // The Cluster is Pull and Ready, with the member's kube-system UID as its id.
    let cluster = s.plane_json(&["cluster", "pm1"]).expect("the agent registered the Cluster");
    assert_eq!(cluster["spec"]["syncMode"], "Pull");
    let kube_system = s.member_json(&["namespace", "kube-system"]).unwrap();
    assert_eq!(cluster["spec"]["id"], kube_system["metadata"]["uid"]);
    assert_eq!(condition(&cluster, "Ready").as_deref(), Some("True"));
    let table = s.plane.kubectl_ok(&["get", "clusters"]);
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        row[..4],
        [
            "pm1",
            s.plane_json(&["cluster", "pm1"]).unwrap()["status"]["kubernetesVersion"].as_str().unwrap(),
            "Pull",
            "True"
        ]
    );
    let lease = s.plane_json(&["lease", "pm1", "-n", "karmada-cluster"]).expect("the agent renews its Lease");
    assert_eq!(lease["spec"]["holderIdentity"], "pm1");

    // The agent's kubeconfig is private and names the agent's own user.
    let agent_kubeconfig = s.agent_dir().join("karmada-agent.config");
    assert_eq!(std::fs::metadata(&agent_kubeconfig).unwrap().permissions().mode() & 0o777, 0o600);
    let whoami = s.plane.kubectl_as(&agent_kubeconfig, &["auth", "whoami", "-o", "json"]);
    assert_eq!(whoami.code, 0, "{}", whoami.stderr);
    let who: Value = serde_json::from_str(&whoami.stdout).unwrap();
    assert_eq!(who["status"]["userInfo"]["username"], "system:karmada:agent:pm1");

    // The built-in agent sees its own Cluster and nothing else of the fleet.
    let own = s.plane.kubectl_as(&agent_kubeconfig, &["get", "cluster", "pm1", "-o", "name"]);
    assert_eq!(own.stdout.trim(), "cluster.cluster.karmada.io/pm1", "{}", own.stderr);
    let all = s.plane.kubectl_as(&agent_kubeconfig, &["get", "clusters"]);
    assert_ne!(all.code, 0);
    assert!(all.stderr.contains("forbidden"), "{}", all.stderr);
    let namespaces = s.plane.kubectl_as(&agent_kubeconfig, &["get", "namespaces"]);
    assert!(namespaces.stderr.contains("forbidden"), "{}", namespaces.stderr);

    // The agent may not read another cluster's execution namespace, nor Secrets.
    s.plane.kubectl_ok(&["create", "namespace", "karmada-es-other"]);
    let other = s.plane.kubectl_as(&agent_kubeconfig, &["get", "works", "-n", "karmada-es-other"]);
    assert_ne!(other.code, 0);
    assert!(other.stderr.contains("Forbidden") || other.stderr.contains("forbidden"), "{}", other.stderr);
    let secrets = s.plane.kubectl_as(&agent_kubeconfig, &["get", "secrets", "-n", "kube-system"]);
    assert_ne!(secrets.code, 0);
    assert!(secrets.stderr.contains("forbidden"), "{}", secrets.stderr);

    // A Work in its execution namespace appears in the member, and its status comes back.
    s.plane.create(WORK);
    let cm =
        eventually("the ConfigMap is in the member", || s.member_json(&["configmap", "web-config", "-n", "default"]));
    assert_eq!(cm["data"]["greeting"], "hello");
    let work = eventually("the Work reports Applied and the Deployment's status", || {
        let w = s.plane_json(&["work", "web-config", "-n", "karmada-es-pm1"])?;
        let statuses = w["status"]["manifestStatuses"].as_array()?.clone();
        let deployment = statuses.iter().find(|m| m["identifier"]["kind"] == "Deployment")?;
        (condition(&w, "Applied").as_deref() == Some("True") && deployment["status"]["readyReplicas"] == 2).then_some(w)
    });
    let statuses = work["status"]["manifestStatuses"].as_array().unwrap();
    assert!(statuses.iter().any(|m| m["identifier"]["kind"] == "ConfigMap" && m["health"] == "Healthy"));

    // Deleting the Work removes what the agent applied.
    s.plane.kubectl_ok(&["delete", "work", "web-config", "-n", "karmada-es-pm1", "--wait=true"]);
    eventually("the member copies are gone", || {
        (s.member_json(&["configmap", "web-config", "-n", "default"]).is_none()
            && s.member_json(&["deployment", "web", "-n", "default"]).is_none())
        .then_some(())
    });

    // unregister (with an administrator's kubeconfig, so it may remove the agent's RBAC too).
    s.plane.create(&WORK.replace("web-config\n  namespace", "second\n  namespace"));
    eventually("the second Work is applied", || s.member_json(&["deployment", "web", "-n", "default"]));
    let run = s.unregister_as_admin();
    assert_eq!(run.code, 0, "unregister failed:\n{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("cluster.cluster.karmada.io \"pm1\" deleted"), "{}", run.stdout);
    assert!(s.plane_json(&["cluster", "pm1"]).is_none());
    for (kind, name) in
        [("clusterrole", "system:karmada:pm1:agent"), ("clusterrolebinding", "system:karmada:pm1:agent")]
    {
        assert!(s.plane_json(&[kind, name]).is_none(), "{kind} {name} is left");
    }
    assert!(s.plane_json(&["role", "system:karmada:pm1:agent-secret", "-n", "karmada-cluster"]).is_none());
    assert!(s.plane_json(&["rolebinding", "system:karmada:pm1:agent-secret", "-n", "karmada-cluster"]).is_none());
    eventually("the execution namespace is gone", || {
        s.plane_json(&["namespace", "karmada-es-pm1"]).is_none().then_some(())
    });
    assert!(s.items(&["csr"]).is_empty(), "no CSR is left");
    assert!(s.member_json(&["deployment", "web", "-n", "default"]).is_none(), "the Works' objects went first");
    assert!(!s.agent_dir().exists(), "the local agent's directory is removed");
    eventually("the lease is gone", || {
        s.plane_json(&["lease", "pm1", "-n", "karmada-cluster"]).is_none().then_some(())
    });

    // Unregistering again finds nothing to remove.
    let again = s.unregister_as_admin();
    assert_eq!(again.code, 1);
    assert!(again.stderr.contains("no cluster object pm1 found"), "{}", again.stderr);
}

#[test]
fn registrations_that_cannot_be_trusted_fail_and_create_nothing() {
    let s = Setup::new();
    let words = s.printed_register(&["--discovery-timeout", "2s"]);
    let token = words[3].clone();
    let pin = words[5].clone();

    // A pin of another CA.
    let mut wrong_pin = words.clone();
    wrong_pin[5] = format!("sha256:{}", "0".repeat(64));
    let run = s.local_register(&wrong_pin);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("none of the public keys"), "{}", run.stderr);
    s.assert_nothing_created();

    // The right token id with another secret: cluster-info's signature does not verify.
    let mut tampered = words.clone();
    tampered[3] = format!("{}.{}", &token[..6], "0123456789abcdef");
    let run = s.local_register(&tampered);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("failed to verify JWS signature"), "{}", run.stderr);
    s.assert_nothing_created();

    // A deleted token has no signature any more.
    let del = s.karmadactl(&["token", "delete", &token[..6]]);
    assert_eq!(del.code, 0, "{}", del.stderr);
    let run = s.local_register(&[
        words[0].clone(),
        words[1].clone(),
        "--token".into(),
        token.clone(),
        "--discovery-token-ca-cert-hash".into(),
        pin.clone(),
        "--discovery-timeout".into(),
        "3s".into(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains(&format!("token id \"{}\" is invalid", &token[..6])), "{}", run.stderr);
    s.assert_nothing_created();

    // An expired token likewise.
    let created = s.karmadactl(&["token", "create", "--ttl", "1s"]);
    assert_eq!(created.code, 0, "{}", created.stderr);
    let expired = created.stdout.trim().to_string();
    // The token cleaner deletes the Secret when it expires, and the signer then drops its
    // signature: what a registration looks for.
    let id = &expired[..6];
    eventually("the expired token is cleaned up and unsigned", || {
        let secret = s.plane_json(&["secret", &format!("bootstrap-token-{id}"), "-n", "kube-system"]);
        let info = s.plane_json(&["configmap", "cluster-info", "-n", "kube-public"]).unwrap_or_default();
        let signed = info["data"].get(format!("jws-kubeconfig-{id}")).is_some();
        (secret.is_none() && !signed).then_some(())
    });
    let run = s.local_register(&[
        words[0].clone(),
        words[1].clone(),
        "--token".into(),
        expired.clone(),
        "--discovery-token-ca-cert-hash".into(),
        pin,
        "--discovery-timeout".into(),
        "3s".into(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("is invalid for this cluster or it has expired"), "{}", run.stderr);
    s.assert_nothing_created();

    // A bootstrap token cannot read Secrets.
    let kc = s.work.path().join("token.kubeconfig");
    std::fs::write(
        &kc,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: p\n  cluster:\n    server: {}\n    insecure-skip-tls-verify: true\nusers:\n- name: t\n  user:\n    token: {}\ncontexts:\n- name: c\n  context: {{cluster: p, user: t}}\ncurrent-context: c\n",
            s.plane.url, words[3]
        ),
    )
    .unwrap();
    let fresh = s.karmadactl(&["token", "create"]);
    let fresh_token = fresh.stdout.trim().to_string();
    std::fs::write(&kc, std::fs::read_to_string(&kc).unwrap().replace(&words[3], &fresh_token)).unwrap();
    let read = s.plane.kubectl_as(&kc, &["get", "secrets", "-n", "kube-system"]);
    assert_ne!(read.code, 0);
    assert!(read.stderr.contains("forbidden"), "{}", read.stderr);

    // A member whose agent files are in the way fails its pre-flight checks, exit 1.
    std::fs::create_dir_all(s.agent_dir()).unwrap();
    std::fs::write(s.agent_dir().join("karmada-agent.config"), "x").unwrap();
    let good = s.printed_register(&[]);
    let run = s.local_register(&good);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("[preflight] Some fatal errors occurred"), "{}", run.stderr);
    assert!(s.items(&["csr"]).is_empty());
}

#[test]
fn a_deployment_agent_on_a_simulated_member_is_refused_before_anything_is_created() {
    let s = Setup::new();
    let words = s.printed_register(&[]);
    // The printed command runs the agent here; asking for a Deployment instead (the last
    // --agent-mode wins) on a member whose pods run no image cannot work.
    let member = s.member.kubeconfig.to_str().unwrap().to_string();
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.extend_from_slice(&["--kubeconfig", &member, "--cluster-name", "pm1", "--agent-mode", "deployment"]);
    let run = s.karmadactl(&args);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with(
            "error: cluster pm1 is a simulated member (its nodes carry the label karmadactl.karmada.io/simulated=true)"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hint: run the agent built into this binary on this machine instead: repeat the command with '--agent-mode local'"), "{}", run.stderr);
    assert!(!run.stdout.contains("joined successfully"), "{}", run.stdout);
    s.assert_nothing_created();
    assert!(s.member_json(&["namespace", "karmada-system"]).is_none(), "nothing in the member either");
    assert!(s.member_json(&["clusterrole", "karmada-agent"]).is_none());
}

/// The kubelet's part for a member that runs no workloads itself: marks the agent Deployment
/// rolled out, and runs the agent's image as this binary's built-in agent with the kubeconfig
/// from the Deployment's Secret, as the Pod would. Killed when dropped.
struct AgentPod(std::process::Child);

impl AgentPod {
    fn start(s: &Setup, member_kubeconfig: &str) -> AgentPod {
        let patched = s.member.kubectl_run(&[
            "patch",
            "deployment",
            "karmada-agent",
            "-n",
            "karmada-system",
            "--subresource=status",
            "--type=merge",
            "-p",
            r#"{"status":{"observedGeneration":1,"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1}}"#,
        ]);
        assert_eq!(patched.code, 0, "{}", patched.stderr);
        let secret = s.member_json(&["secret", "karmada-kubeconfig", "-n", "karmada-system"]).unwrap();
        use base64::Engine as _;
        let kubeconfig = base64::engine::general_purpose::STANDARD
            .decode(secret["data"]["karmada-kubeconfig"].as_str().unwrap())
            .unwrap();
        let path = s.work.path().join("pod-karmada-kubeconfig");
        std::fs::write(&path, kubeconfig).unwrap();
        let mut cmd = common::karmadactl(s.work.path());
        cmd.args(["agent", "--karmada-kubeconfig", path.to_str().unwrap(), "--cluster-name", "pm1"])
            .args(["--kubeconfig", member_kubeconfig])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        AgentPod(cmd.spawn().expect("the agent starts"))
    }
}

impl Drop for AgentPod {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_deployment_path_creates_upstreams_agent_objects_and_succeeds_only_once_the_cluster_is_ready() {
    // A member that is not simulated (its nodes carry no simulator label) and runs nothing: the
    // test plays its kubelet.
    let s = Setup {
        plane: Plane::start(),
        member: Plane::start_with(&["--profile", "kubernetes", "--kubeconfig-context", "pm1"]),
        work: tempfile::tempdir().unwrap(),
    };
    let words = s.printed_register(&[]);
    let member = s.member.kubeconfig.to_str().unwrap().to_string();
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.extend_from_slice(&[
        "--kubeconfig",
        &member,
        "--cluster-name",
        "pm1",
        "--cluster-provider",
        "acme",
        "--cluster-zones",
        "z1,z2",
        "--karmada-agent-image",
        "registry.example/karmada-agent:v9",
        "--discovery-timeout",
        "60s",
        "--agent-mode",
        "deployment",
    ]);
    let mut cmd = common::karmadactl(s.work.path());
    cmd.env("KUBECONFIG", &s.plane.kubeconfig).args(&args);
    cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    let register = cmd.spawn().unwrap();
    eventually("the agent Deployment is in the member", || {
        s.member_json(&["deployment", "karmada-agent", "-n", "karmada-system"])
    });
    // Success waits for more than the rollout: for the Cluster, which only the agent creates.
    let pod = AgentPod::start(&s, &member);
    let out = register.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    assert_eq!(out.status.code(), Some(0), "register failed:\n{stdout}\n{stderr}");
    assert!(stdout.ends_with("\ncluster(pm1) is joined successfully\n"), "{stdout}");
    let cluster = s.plane_json(&["cluster", "pm1"]).expect("success means the Cluster exists");
    assert_eq!(condition(&cluster, "Ready").as_deref(), Some("True"), "{cluster}");
    drop(pod);

    let ns = s.member_json(&["namespace", "karmada-system"]).expect("the agent namespace");
    assert_eq!(ns["metadata"]["labels"]["karmada.io/system"], "true");
    let secret =
        s.member_json(&["secret", "karmada-kubeconfig", "-n", "karmada-system"]).expect("the kubeconfig Secret");
    use base64::Engine as _;
    let kubeconfig = base64::engine::general_purpose::STANDARD
        .decode(secret["data"]["karmada-kubeconfig"].as_str().unwrap())
        .unwrap();
    let kubeconfig = String::from_utf8(kubeconfig).unwrap();
    for line in ["current-context: pm1@karmada-apiserver", "- name: pm1", &format!("server: {}", s.plane.url)] {
        assert!(
            kubeconfig.lines().any(|l| l.trim() == line),
            "{line:?} missing from the agent kubeconfig:\n{kubeconfig}"
        );
    }
    assert!(kubeconfig.contains("client-certificate-data:") && kubeconfig.contains("client-key-data:"));
    let cr = s.member_json(&["clusterrole", "karmada-agent"]).unwrap();
    assert_eq!(cr["rules"][0]["verbs"][0], "*");
    assert_eq!(cr["rules"][1]["nonResourceURLs"][0], "*");
    assert!(s.member_json(&["serviceaccount", "karmada-agent-sa", "-n", "karmada-system"]).is_some());
    let crb = s.member_json(&["clusterrolebinding", "karmada-agent"]).unwrap();
    assert_eq!(crb["subjects"][0]["name"], "karmada-agent-sa");
    let d = s.member_json(&["deployment", "karmada-agent", "-n", "karmada-system"]).unwrap();
    let c = &d["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(c["image"], "registry.example/karmada-agent:v9");
    let command: Vec<&str> = c["command"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(
        command,
        [
            "/bin/karmada-agent",
            "--karmada-kubeconfig=/etc/kubeconfig/karmada-kubeconfig",
            "--cluster-name=pm1",
            &format!("--cluster-api-endpoint={}", s.member.url),
            "--cluster-provider=acme",
            "--cluster-region=",
            "--cluster-zones=z1,z2",
            "--controllers=*",
            "--proxy-server-address=",
            "--leader-elect-resource-namespace=karmada-system",
            "--cluster-namespace=karmada-cluster",
            "--cluster-status-update-frequency=10s",
            "--metrics-bind-address=:8080",
            "--health-probe-bind-address=0.0.0.0:10357",
            "--v=2",
        ]
    );
    assert_eq!(d["spec"]["template"]["spec"]["serviceAccountName"], "karmada-agent-sa");
    // The agent's RBAC in the plane.
    let role = s.plane_json(&["role", "system:karmada:pm1:agent-work", "-n", "karmada-es-pm1"]).unwrap();
    assert_eq!(role["rules"][0]["resources"][0], "works");
    let crb = s.plane_json(&["clusterrolebinding", "system:karmada:pm1:agent"]).unwrap();
    assert_eq!(crb["subjects"][0]["name"], "system:karmada:agent:pm1");
    // The generator's request is gone; the agent's stays, as upstream leaves it.
    let csrs = s.plane_json(&["csr"]).unwrap();
    let names: Vec<&str> =
        csrs["items"].as_array().unwrap().iter().map(|c| c["metadata"]["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names[0].starts_with("pm1-"), "{names:?}");

    // unregister reads the agent's credentials from the Deployment's Secret.
    let run = s.karmadactl(&["unregister", "pm1", "--cluster-kubeconfig", &member]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(s.plane_json(&["cluster", "pm1"]).is_none(), "the Cluster is removed");
    assert!(s.member_json(&["deployment", "karmada-agent", "-n", "karmada-system"]).is_none());
    assert!(s.member_json(&["secret", "karmada-kubeconfig", "-n", "karmada-system"]).is_none());
    assert!(s.member_json(&["clusterrole", "karmada-agent"]).is_none());
    assert!(run.stderr.contains("--karmada-config"), "it says how to remove the plane-side RBAC: {}", run.stderr);
}

/// A network namespace joined to this one by a veth pair: processes inside reach the host side
/// only through `10.231.<n>.1`, and none of this namespace's loopback services.
struct NetNs {
    name: String,
    inner_ip: String,
}

impl NetNs {
    fn new() -> NetNs {
        // Namespace and link names are machine-wide: the pid tells test processes apart, the
        // counter the namespaces of one process (every test shares it).
        static SEQ: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("{}x{seq}", std::process::id());
        let name = format!("kp{id}");
        let (outer, inner) = (format!("kp{id}a"), format!("kp{id}b"));
        let octet = (std::process::id() + seq) % 250 + 1;
        let outer_ip = format!("10.231.{octet}.1");
        let inner_ip = format!("10.231.{octet}.2");
        let ip = |args: &[&str]| {
            let out = Command::new("ip").args(args).output().expect("iproute2's ip is installed");
            assert!(out.status.success(), "ip {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        ip(&["netns", "add", &name]);
        let ns = NetNs { name: name.clone(), inner_ip: inner_ip.clone() };
        ip(&["link", "add", &outer, "type", "veth", "peer", "name", &inner]);
        ip(&["link", "set", &inner, "netns", &name]);
        ip(&["addr", "add", &format!("{outer_ip}/30"), "dev", &outer]);
        ip(&["link", "set", &outer, "up"]);
        ip(&["netns", "exec", &name, "ip", "addr", "add", &format!("{inner_ip}/30"), "dev", &inner]);
        ip(&["netns", "exec", &name, "ip", "link", "set", &inner, "up"]);
        ip(&["netns", "exec", &name, "ip", "link", "set", "lo", "up"]);
        ns
    }

    /// Whether a TCP connection to `addr` can be opened from inside the namespace.
    fn can_connect(&self, addr: &str) -> bool {
        let (host, port) = addr.rsplit_once(':').unwrap();
        let script = format!("exec 3<>/dev/tcp/{host}/{port}");
        Command::new("ip")
            .args(["netns", "exec", &self.name, "timeout", "3", "bash", "-c", &script])
            .output()
            .unwrap()
            .status
            .success()
    }
}

impl Drop for NetNs {
    fn drop(&mut self) {
        // Deleting the namespace deletes the veth pair with it.
        let _ = Command::new("ip").args(["netns", "del", &self.name]).output();
    }
}

/// A Karmada plane serving inside `ns` on its veth address.
struct IsolatedPlane {
    child: std::process::Child,
    url: String,
    kubeconfig: PathBuf,
}

impl IsolatedPlane {
    fn start(ns: &NetNs, dir: &Path) -> IsolatedPlane {
        use std::io::BufRead as _;
        let data = dir.join("plane");
        let log = std::fs::File::create(dir.join("plane.log")).unwrap();
        let mut child = Command::new("ip")
            .args(["netns", "exec", &ns.name])
            .arg(common::bin())
            .args(["controlplane", "serve", "--listen", &format!("{}:0", ns.inner_ip), "--data-dir"])
            .arg(&data)
            .stdout(std::process::Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap();
        let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut url = String::new();
        reader.read_line(&mut url).unwrap();
        std::thread::spawn(move || {
            let mut sink = String::new();
            while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
                sink.clear();
            }
        });
        let url = url.trim().to_string();
        assert!(url.starts_with(&format!("https://{}:", ns.inner_ip)), "{url:?}");
        IsolatedPlane { child, url, kubeconfig: data.join("admin.kubeconfig") }
    }
}

impl Drop for IsolatedPlane {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn registration_works_when_the_plane_cannot_reach_the_member() {
    let ns = NetNs::new();
    let work = tempfile::tempdir().unwrap();
    let plane = IsolatedPlane::start(&ns, work.path());
    let member = member("far1");
    let member_addr = member.url.trim_start_matches("https://").to_string();
    assert!(!ns.can_connect(&member_addr), "the plane's namespace must not reach the member");
    let plane_addr = plane.url.trim_start_matches("https://").to_string();
    assert!(ns.can_connect(&plane_addr), "the check itself works");

    let run = |args: &[&str]| {
        let mut cmd = common::karmadactl(work.path());
        cmd.env("KUBECONFIG", &plane.kubeconfig).args(args);
        common::run(cmd)
    };
    let printed = run(&["token", "create", "--print-register-command"]);
    assert_eq!(printed.code, 0, "{}", printed.stderr);
    let words: Vec<&str> = printed.stdout.split_whitespace().collect();
    assert_eq!(words[2], plane_addr, "cluster-info names the plane's address");
    let mut args = words[1..].to_vec();
    let dir = work.path().join("agent");
    let _agent = AgentGuard(dir.clone());
    let member_kc = member.kubeconfig.to_str().unwrap();
    args.extend_from_slice(&["--kubeconfig", member_kc, "--cluster-name", "far1", "--agent-mode", "local"]);
    args.extend_from_slice(&["--agent-dir", dir.to_str().unwrap(), "--discovery-timeout", "20s"]);
    let reg = run(&args);
    assert_eq!(reg.code, 0, "register failed:\n{}\n{}", reg.stdout, reg.stderr);

    let kubectl = |args: &[&str]| {
        let cache = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(common::kubectl_binary("1.33"));
        cmd.arg("--kubeconfig").arg(&plane.kubeconfig).arg("--cache-dir").arg(cache.path()).args(args);
        common::run(cmd)
    };
    let cluster = kubectl(&["get", "cluster", "far1", "-o", "json"]);
    assert_eq!(cluster.code, 0, "{}", cluster.stderr);
    let cluster: Value = serde_json::from_str(&cluster.stdout).unwrap();
    assert_eq!(cluster["spec"]["syncMode"], "Pull");
    assert_eq!(condition(&cluster, "Ready").as_deref(), Some("True"));

    // Propagation reaches the member through the agent alone.
    let file = work.path().join("work.yaml");
    std::fs::write(&file, WORK.replace("karmada-es-pm1", "karmada-es-far1")).unwrap();
    let created = kubectl(&["create", "-f", file.to_str().unwrap()]);
    assert_eq!(created.code, 0, "{}", created.stderr);
    eventually("the agent applied the Work in the member", || {
        kubectl_json(&member, &["configmap", "web-config", "-n", "default"])
    });
    eventually("the Work's status came back", || {
        let w = kubectl(&["get", "work", "web-config", "-n", "karmada-es-far1", "-o", "json"]);
        let w: Value = serde_json::from_str(&w.stdout).ok()?;
        (condition(&w, "Applied").as_deref() == Some("True")).then_some(())
    });
    assert!(std::fs::read_to_string(dir.join("agent.pid")).is_ok(), "the local agent records its pid");
}

/// Stops a local agent a test started (its pid file is in the directory), even when the test
/// fails half-way; after unregister there is nothing left to stop.
struct AgentGuard(PathBuf);

impl Drop for AgentGuard {
    fn drop(&mut self) {
        if let Ok(pid) = std::fs::read_to_string(self.0.join("agent.pid")) {
            let _ = Command::new("kill").arg(pid.trim()).status();
        }
    }
}

#[test]
fn unregister_names_an_unreachable_plane_and_force_removes_the_local_side_only() {
    let mut s = Setup::new();
    let _agent = AgentGuard(s.agent_dir());
    let words = s.printed_register(&[]);
    let run = s.local_register(&words);
    assert_eq!(run.code, 0, "register failed:\n{}\n{}", run.stdout, run.stderr);
    let pid: i32 = std::fs::read_to_string(s.agent_dir().join("agent.pid")).unwrap().trim().parse().unwrap();
    let url = s.plane.url.clone();
    s.plane.stop();

    let member = s.member.kubeconfig.to_str().unwrap().to_string();
    let dir = s.agent_dir().to_str().unwrap().to_string();
    let unregister = |extra: &[&str]| {
        let mut args = vec!["unregister", "pm1", "--cluster-kubeconfig", &member, "--agent-dir", &dir];
        args.extend_from_slice(extra);
        s.karmadactl(&args)
    };
    // No terminal and no --force: the plane is named, the way out given, nothing changed.
    let refused = unregister(&[]);
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    let kubeconfig = s.agent_dir().join("karmada-agent.config");
    assert!(
        refused.stderr.starts_with(&format!(
            "error: cannot reach the Karmada control plane at {url} (from the local agent's kubeconfig {}): ",
            kubeconfig.display()
        )),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains(
            "hint: nothing was changed. Start the control plane and run this again; if it is gone for good, add --force"
        ),
        "{}",
        refused.stderr
    );
    assert!(!refused.stderr.contains("ServiceError"), "{}", refused.stderr);
    assert_eq!(unsafe { libc::kill(pid, 0) }, 0, "the agent still runs");
    assert!(kubeconfig.exists());

    // --dry-run shows the plan and changes nothing.
    let dry = unregister(&["--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(
        dry.stderr.contains(&format!("  - stop the local agent (pid {pid}) and delete its files in {dir}")),
        "{}",
        dry.stderr
    );
    assert_eq!(unsafe { libc::kill(pid, 0) }, 0, "the agent still runs");

    let forced = unregister(&["--force"]);
    assert_eq!(forced.code, 0, "{}\n{}", forced.stdout, forced.stderr);
    assert!(forced.stderr.contains("the control plane keeps its Cluster pm1"), "{}", forced.stderr);
    assert_eq!(forced.stdout, format!("local karmada agent (pid {pid}) stopped and {dir} removed\n"));
    assert!(!s.agent_dir().exists(), "the agent's files are gone");
    // unregister returns once the agent has exited (a zombie awaiting its reaper counts as exited).
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let gone = stat.is_empty() || stat.contains(") Z ");
    assert!(gone, "the agent process is stopped");

    // Once nothing is left, there are no credentials to find the plane with either.
    let again = unregister(&["--force"]);
    assert_eq!(again.code, 1);
    assert!(
        again.stderr.starts_with("error: cannot find the agent's credentials for the control plane"),
        "{}",
        again.stderr
    );
}

/// Watches `kind` in the member's `default` namespace (the list first, then changes) and
/// collects the events kubectl prints, until stopped.
struct MemberWatch {
    child: std::process::Child,
    seen: std::sync::Arc<std::sync::Mutex<String>>,
    reader: std::thread::JoinHandle<()>,
}

impl MemberWatch {
    fn start(member: &Plane, kind: &str) -> MemberWatch {
        let mut cmd = member.kubectl();
        cmd.args(["get", kind, "-n", "default", "--watch", "--output-watch-events", "-o", "json"]);
        let mut child = cmd.stdout(std::process::Stdio::piped()).spawn().expect("kubectl starts");
        let mut out = child.stdout.take().unwrap();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = seen.clone();
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut out, &mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        MemberWatch { child, seen, reader }
    }

    /// The events so far, as (type, name).
    fn events(&self) -> Vec<(String, String)> {
        watch_events(&self.seen)
    }

    fn stop(mut self) -> Vec<(String, String)> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = self.reader.join();
        watch_events(&self.seen)
    }
}

#[test]
fn unregister_with_a_policy_still_targeting_the_cluster_removes_its_workload_once() {
    let s = Setup::new();
    let _agent = AgentGuard(s.agent_dir());
    let words = s.printed_register(&[]);
    let run = s.local_register(&words);
    assert_eq!(run.code, 0, "register failed:\n{}\n{}", run.stdout, run.stderr);
    s.plane.create(
        r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [pm1]}}
"#,
    );
    eventually("the agent applies the propagated Deployment", || {
        s.member_json(&["deployment", "web", "-n", "default"])
    });
    let watch = MemberWatch::start(&s.member, "deployments");
    eventually("the member watch lists the Deployment", || {
        watch.events().contains(&("ADDED".into(), "web".into())).then_some(())
    });

    let run = s.unregister_as_admin();
    assert_eq!(run.code, 0, "unregister failed:\n{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("cluster.cluster.karmada.io \"pm1\" deleted"), "{}", run.stdout);
    assert!(s.plane_json(&["cluster", "pm1"]).is_none());
    assert!(s.member_json(&["deployment", "web", "-n", "default"]).is_none(), "the agent removed the copy");
    let rb = s.plane_json(&["resourcebinding", "web-deployment", "-n", "default"]).expect("the binding stays");
    assert!(rb["spec"]["clusters"].as_array().is_none_or(Vec::is_empty), "{}", rb["spec"]);
    assert!(s.items(&["works", "-n", "karmada-es-pm1"]).is_empty());
    // Listed once, deleted once, never made again.
    let events: Vec<(String, String)> = watch.stop().into_iter().filter(|(_, name)| name == "web").collect();
    let kinds: Vec<&str> = events.iter().map(|(t, _)| t.as_str()).filter(|t| *t != "MODIFIED").collect();
    assert_eq!(kinds, ["ADDED", "DELETED"], "{events:?}");
}

/// The events kubectl printed, as (type, name).
fn watch_events(seen: &std::sync::Mutex<String>) -> Vec<(String, String)> {
    let text = seen.lock().unwrap().clone();
    serde_json::Deserializer::from_str(&text)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .map(|e| {
            (e["type"].as_str().unwrap_or("").into(), e["object"]["metadata"]["name"].as_str().unwrap_or("").into())
        })
        .collect()
}
