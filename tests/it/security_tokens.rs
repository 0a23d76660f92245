//! What a bootstrap token and a bound service-account token are worth, against the real plane:
//! a bootstrap token registers one new cluster and nothing more (the RBAC generator identity it
//! can still obtain is confined; an existing member's agent identity is denied), a full
//! `register --agent-mode local` still brings a Ready cluster, and a TokenRequest token bound
//! to a Secret or Pod stops authenticating once that object is gone.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;
use crate::common::plane::Plane;
use crate::common::{Run, eventually};
use base64::Engine as _;
use serde_json::{Value, json};

const AGENT_USAGES: &str = "  - digital signature\n  - key encipherment\n  - client auth\n";
const GENERATOR: &str = "system:karmada:agent:rbac-generator";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn karmadactl(plane: &Plane, args: &[&str]) -> Run {
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.env("KUBECONFIG", &plane.kubeconfig).args(args);
    common::run(cmd)
}

/// Files the CSR `name` for user `cn` (group system:karmada:agents) as the user of `as_user`;
/// returns the key's path.
fn file_agent_csr(plane: &Plane, as_user: &Path, name: &str, cn: &str) -> PathBuf {
    let dir = plane.dir.path();
    let (key, csr) = (format!("{name}.key"), format!("{name}.csr"));
    let subject = format!("/O=system:karmada:agents/CN={cn}");
    let out = Command::new("openssl")
        .current_dir(dir)
        .args(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"])
        .args(["-keyout", &key, "-subj", &subject, "-out", &csr])
        .output()
        .expect("openssl runs");
    assert!(out.status.success(), "openssl: {}", String::from_utf8_lossy(&out.stderr));
    let manifest = format!(
        "apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: {name}\nspec:\n  signerName: kubernetes.io/kube-apiserver-client\n  request: {}\n  usages:\n{AGENT_USAGES}",
        b64(&std::fs::read(dir.join(&csr)).unwrap())
    );
    let path = plane.file(&format!("{name}.yaml"), &manifest);
    let out = plane.kubectl_as(as_user, &["create", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "creating CSR {name} failed: {}", out.stderr);
    dir.join(key)
}

fn csr(plane: &Plane, name: &str) -> Value {
    serde_json::from_str(&plane.kubectl_ok(&["get", "csr", name, "-o", "json"])).unwrap()
}

/// The CSR's decision (Approved or Denied condition) once there is one, and its certificate.
fn decided(plane: &Plane, name: &str) -> (Value, Option<String>) {
    eventually(&format!("CSR {name} is decided"), || {
        let obj = csr(plane, name);
        let verdict = obj["status"]["conditions"].as_array()?.first()?.clone();
        let cert = obj["status"]["certificate"]
            .as_str()
            .map(|c| String::from_utf8(base64::engine::general_purpose::STANDARD.decode(c).unwrap()).unwrap());
        (verdict["type"] == "Denied" || cert.is_some()).then_some((verdict, cert))
    })
}

/// A refusal with kube's Forbidden message (kubectl's wording around it varies by command).
fn forbidden(run: &Run, message: &str) {
    assert_ne!(run.code, 0, "expected a refusal: {}", run.stdout);
    assert!(run.stderr.contains(message), "wanted {message:?} in: {}", run.stderr);
}

/// (a) and (b): a bootstrap token's holder can still get the generator identity (upstream
/// register needs it), but that identity reads nothing and writes only a new cluster's agent
/// objects; the agent identity of an existing member is denied and no certificate issued.
#[test]
fn a_bootstrap_token_cannot_become_an_administrator_or_an_existing_member() {
    let plane = Plane::start();
    let token = plane.bootstrap_token();
    let bootstrap = plane.token_kubeconfig("bootstrap", &token);

    // The generator's role is not upstream's */*/* any more.
    let role: Value = serde_json::from_str(&plane.kubectl_ok(&[
        "get",
        "clusterrole",
        "system:karmada:agent-rbac-generator",
        "-o",
        "json",
    ]))
    .unwrap();
    assert!(!role["rules"].to_string().contains("\"*\""), "{role}");

    let key = file_agent_csr(&plane, &bootstrap, "agent-rbac-generator-x1abcde", GENERATOR);
    let (verdict, cert) = decided(&plane, "agent-rbac-generator-x1abcde");
    assert_eq!(verdict["type"], "Approved", "{verdict}");
    let cert_path = plane.file("generator.crt", &cert.expect("the generator is issued"));
    let generator = plane.user_kubeconfig(
        "generator",
        &format!("    client-certificate: {}\n    client-key: {}\n", cert_path.display(), key.display()),
    );
    let who = plane.kubectl_as(&generator, &["auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"]);
    assert_eq!(who.stdout, GENERATOR, "{}", who.stderr);

    // Reads beyond registration: RBAC's answer, as kube-apiserver words it.
    forbidden(
        &plane.kubectl_as(&generator, &["get", "secrets", "-n", "kube-system"]),
        &format!(
            "secrets is forbidden: User \"{GENERATOR}\" cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\""
        ),
    );
    // Writes beyond one new cluster's agent objects: refused, nothing stored.
    forbidden(
        &plane.kubectl_as(
            &generator,
            &["create", "clusterrolebinding", "evil", "--clusterrole=cluster-admin", &format!("--user={GENERATOR}")],
        ),
        &format!(
            "clusterrolebindings.rbac.authorization.k8s.io \"evil\" is forbidden: {GENERATOR} may only create the namespaces and RBAC objects of a new pull cluster's agent"
        ),
    );
    assert_eq!(plane.kubectl_run(&["get", "clusterrolebinding", "evil"]).code, 1);
    // A role named like an agent's but granting more.
    let wide = plane.file(
        "wide.yaml",
        &json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                "metadata": {"name": "system:karmada:newcomer:agent"},
                "rules": [{"apiGroups": [""], "resources": ["secrets"], "verbs": ["get", "list"]}]})
        .to_string(),
    );
    forbidden(
        &plane.kubectl_as(&generator, &["create", "-f", wide.to_str().unwrap()]),
        "clusterroles.rbac.authorization.k8s.io \"system:karmada:newcomer:agent\" is forbidden: system:karmada:newcomer:agent may hold only the rules the agent of cluster newcomer is given",
    );
    assert_eq!(plane.kubectl_run(&["get", "clusterrole", "system:karmada:newcomer:agent"]).code, 1);
    // Deleting what is not a new cluster's agent object.
    forbidden(
        &plane.kubectl_as(&generator, &["delete", "clusterrole", "cluster-admin"]),
        &format!(
            "clusterroles.rbac.authorization.k8s.io \"cluster-admin\" is forbidden: {GENERATOR} may only create the namespaces and RBAC objects of a new pull cluster's agent"
        ),
    );
    plane.kubectl_ok(&["get", "clusterrole", "cluster-admin"]);
    // What register creates for a new cluster is accepted.
    let own = plane.kubectl_as(
        &generator,
        &[
            "create",
            "clusterrole",
            "system:karmada:newcomer:agent",
            "--verb=get",
            "--resource=clusters.cluster.karmada.io",
            "--resource-name=newcomer",
        ],
    );
    assert_eq!(own.code, 0, "{}", own.stderr);

    // An existing member (a Cluster nobody registered with this token).
    plane.create(
        &json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": {"name": "member1"},
                "spec": {"syncMode": "Pull", "apiEndpoint": "https://127.0.0.1:1"}})
        .to_string(),
    );
    forbidden(
        &plane.kubectl_as(
            &generator,
            &[
                "create",
                "clusterrolebinding",
                "system:karmada:member1:agent",
                "--clusterrole=system:karmada:member1:agent",
                "--user=system:karmada:agent:member1",
            ],
        ),
        &format!(
            "clusterrolebindings.rbac.authorization.k8s.io \"system:karmada:member1:agent\" is forbidden: cluster member1 is already registered; {GENERATOR} may not change its agent's objects"
        ),
    );
    file_agent_csr(&plane, &bootstrap, "member1-steal", "system:karmada:agent:member1");
    let (verdict, cert) = decided(&plane, "member1-steal");
    assert_eq!(verdict["type"], "Denied", "{verdict}");
    assert_eq!(verdict["reason"], "ClusterNameTaken");
    assert_eq!(
        verdict["message"],
        "cluster member1 is already registered; a bootstrap token cannot obtain the identity of a registered member's agent"
    );
    assert!(cert.is_none());
    assert!(csr(&plane, "member1-steal")["status"]["certificate"].is_null());

    // A new name is this token's; another token then cannot have it.
    file_agent_csr(&plane, &bootstrap, "fresh-1", "system:karmada:agent:fresh");
    let (verdict, cert) = decided(&plane, "fresh-1");
    assert_eq!(verdict["type"], "Approved", "{verdict}");
    assert!(cert.is_some());
    let other = plane.token_kubeconfig("other", &plane.bootstrap_token());
    file_agent_csr(&plane, &other, "fresh-2", "system:karmada:agent:fresh");
    let (verdict, cert) = decided(&plane, "fresh-2");
    assert_eq!(verdict["type"], "Denied", "{verdict}");
    assert_eq!(verdict["message"], "cluster fresh is being registered with another bootstrap token");
    assert!(cert.is_none());
}

/// (c): the printed register command, run with the local agent against a simulated member,
/// still brings a Ready Pull cluster; the name is then recorded as that token's.
#[test]
fn register_with_a_bootstrap_token_still_brings_a_ready_cluster() {
    let plane = Plane::start();
    let member = Plane::start_with(&["--profile", "kubernetes", "--simulate-workloads", "--kubeconfig-context", "pm1"]);
    let agent_dir = plane.dir.path().join("agent");
    let _agent = AgentGuard(agent_dir.clone());
    let printed = karmadactl(&plane, &["token", "create", "--print-register-command"]);
    assert_eq!(printed.code, 0, "{}", printed.stderr);
    let mut args: Vec<String> = printed.stdout.split_whitespace().skip(1).map(String::from).collect();
    let token_id = args[args.iter().position(|a| a == "--token").unwrap() + 1][..6].to_string();
    for a in ["--kubeconfig", member.kubeconfig.to_str().unwrap(), "--cluster-name", "pm1", "--agent-mode", "local"] {
        args.push(a.into());
    }
    args.extend(["--agent-dir".into(), agent_dir.to_str().unwrap().into(), "--discovery-timeout".into(), "30s".into()]);
    let run = karmadactl(&plane, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run.code, 0, "register failed:\n{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.ends_with("cluster(pm1) is joined successfully\n"), "{}", run.stdout);

    let cluster: Value = serde_json::from_str(&plane.kubectl_ok(&["get", "cluster", "pm1", "-o", "json"])).unwrap();
    let ready = cluster["status"]["conditions"].as_array().unwrap().iter().find(|c| c["type"] == "Ready").unwrap();
    assert_eq!(ready["status"], "True", "{cluster}");
    let space: Value =
        serde_json::from_str(&plane.kubectl_ok(&["get", "namespace", "karmada-es-pm1", "-o", "json"])).unwrap();
    assert_eq!(space["metadata"]["annotations"]["karmada.io/registered-by-bootstrap-token"], token_id.as_str());
    // The generator's request is gone, the agent's stays.
    let csrs = plane.kubectl_ok(&["get", "csr", "-o", "name"]);
    assert!(!csrs.contains("agent-rbac-generator-"), "{csrs}");
    assert!(csrs.contains("pm1-"), "{csrs}");
}

/// (d): a TokenRequest token bound to a Secret names it in its claims, works while the Secret
/// exists and not after; a request naming another UID, or a missing object, is refused.
#[test]
fn a_secret_bound_token_dies_with_its_secret() {
    let plane = Plane::start();
    plane.kubectl_ok(&["create", "serviceaccount", "robot", "-n", "default"]);
    plane.kubectl_ok(&["create", "secret", "generic", "anchor", "-n", "default", "--from-literal=k=v"]);
    let uid = plane.kubectl_ok(&["get", "secret", "anchor", "-n", "default", "-o", "jsonpath={.metadata.uid}"]);

    let wrong = create_token(
        &plane,
        &[
            "--bound-object-kind=Secret",
            "--bound-object-name=anchor",
            "--bound-object-uid=00000000-0000-0000-0000-000000000000",
        ],
    );
    assert_ne!(wrong.code, 0);
    assert!(
        wrong.stderr.contains("Operation cannot be fulfilled on Secret \"anchor\": the UID in the bound object reference (00000000-0000-0000-0000-000000000000) does not match the UID in record. The object might have been deleted and then recreated"),
        "{}",
        wrong.stderr
    );
    let missing = create_token(&plane, &["--bound-object-kind=Secret", "--bound-object-name=nowhere"]);
    assert_ne!(missing.code, 0);
    assert!(missing.stderr.contains("secrets \"nowhere\" not found"), "{}", missing.stderr);

    let made = create_token(
        &plane,
        &["--bound-object-kind=Secret", "--bound-object-name=anchor", &format!("--bound-object-uid={uid}")],
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let token = made.stdout.trim();
    assert_eq!(kubernetes_claim(token)["secret"], json!({"name": "anchor", "uid": uid}));

    let as_robot = plane.token_kubeconfig("robot", token);
    let who = plane.kubectl_as(&as_robot, &["auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"]);
    assert_eq!(who.stdout, "system:serviceaccount:default:robot", "{}", who.stderr);

    plane.kubectl_ok(&["delete", "secret", "anchor", "-n", "default"]);
    unauthorized(&plane, &as_robot);
}

/// A Pod-bound token carries the pod, is refused for a pod of another service account, and
/// dies with its pod.
#[test]
fn a_pod_bound_token_dies_with_its_pod() {
    let plane = Plane::start();
    plane.kubectl_ok(&["create", "serviceaccount", "robot", "-n", "default"]);
    plane.kubectl_ok(&["create", "serviceaccount", "other", "-n", "default"]);
    for (pod, sa) in [("mine", "robot"), ("theirs", "other")] {
        plane.create(
            &json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": pod, "namespace": "default"},
                    "spec": {"serviceAccountName": sa, "containers": [{"name": "c", "image": "busybox"}]}})
            .to_string(),
        );
    }
    let theirs = create_token(&plane, &["--bound-object-kind=Pod", "--bound-object-name=theirs"]);
    assert_ne!(theirs.code, 0);
    assert!(
        theirs.stderr.contains(
            "cannot bind token for serviceaccount \"robot\" to pod running with different serviceaccount name."
        ),
        "{}",
        theirs.stderr
    );
    let uid = plane.kubectl_ok(&["get", "pod", "mine", "-n", "default", "-o", "jsonpath={.metadata.uid}"]);
    let made = create_token(&plane, &["--bound-object-kind=Pod", "--bound-object-name=mine"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let token = made.stdout.trim();
    assert_eq!(kubernetes_claim(token)["pod"], json!({"name": "mine", "uid": uid}));
    let as_robot = plane.token_kubeconfig("robot", token);
    let who = plane.kubectl_as(&as_robot, &["auth", "whoami", "-o", "jsonpath={.status.userInfo.extra}"]);
    assert_eq!(who.code, 0, "{}", who.stderr);
    assert!(who.stdout.contains(&format!("\"authentication.kubernetes.io/pod-uid\":[\"{uid}\"]")), "{}", who.stdout);

    plane.kubectl_ok(&["delete", "pod", "mine", "-n", "default", "--grace-period=0", "--force"]);
    unauthorized(&plane, &as_robot);
}

/// `kubectl create token robot -n default` with `--bound-object-*` flags.
fn create_token(plane: &Plane, bound: &[&str]) -> Run {
    let mut args = vec!["create", "token", "robot", "-n", "default"];
    args.extend_from_slice(bound);
    plane.kubectl_run(&args)
}

/// The `kubernetes.io` claim of a service-account JWT.
fn kubernetes_claim(token: &str) -> Value {
    let payload = token.split('.').nth(1).expect("a JWT");
    let claims: Value =
        serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    claims["kubernetes.io"].clone()
}

/// The token no longer authenticates: kubectl's answer to a 401.
fn unauthorized(plane: &Plane, kubeconfig: &Path) {
    let after = plane.kubectl_as(kubeconfig, &["auth", "whoami"]);
    assert_ne!(after.code, 0);
    assert!(after.stderr.contains("error: You must be logged in to the server (Unauthorized)"), "{}", after.stderr);
}

/// Stops the local agent a test started, even when the test fails half-way.
struct AgentGuard(PathBuf);

impl Drop for AgentGuard {
    fn drop(&mut self) {
        if let Ok(pid) = std::fs::read_to_string(self.0.join("agent.pid")) {
            let _ = Command::new("kill").arg(pid.trim()).status();
        }
    }
}
