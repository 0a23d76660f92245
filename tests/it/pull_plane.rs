//! The control-plane side of Pull-mode registration against a real plane: a bootstrap token's
//! CertificateSigningRequest for an agent identity is auto-approved and signed with the plane's
//! CA (checked with openssl and by authenticating with the certificate), requests that are not
//! an agent's stay pending until a human approves them, a bootstrap token can do nothing but
//! that and read cluster-info, and a Pull cluster's health comes from its agent's Lease without
//! the plane ever dialling the member.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::plane::Plane;
use base64::Engine as _;
use serde_json::Value;

const AGENT_USAGES: &str = "  - digital signature\n  - key encipherment\n  - client auth\n";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Polls `check` until it returns a value, failing with `what` after a generous deadline.
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

fn openssl(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("openssl").current_dir(dir).args(args).output().expect("openssl runs");
    assert!(out.status.success(), "openssl {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A P-256 key and a PEM certificate request for `subject` (openssl `-subj` form), with
/// `san` as a subjectAltName extension when given. Returns (key path, request PEM).
fn request(plane: &Plane, name: &str, subject: &str, san: Option<&str>) -> (PathBuf, String) {
    let dir = plane.dir.path();
    let key = format!("{name}.key");
    let csr = format!("{name}.csr");
    let mut args = vec![
        "req",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        &key,
        "-subj",
        subject,
        "-out",
        &csr,
    ];
    let ext = san.map(|s| format!("subjectAltName={s}"));
    if let Some(ext) = &ext {
        args.extend(["-addext", ext]);
    }
    openssl(dir, &args);
    (dir.join(key), std::fs::read_to_string(dir.join(csr)).unwrap())
}

/// Creates the CSR `name` for `request` as the user of `kubeconfig`. The manifest claims to come
/// from an administrator; the server must record the real requester instead.
fn create_csr(plane: &Plane, kubeconfig: &Path, name: &str, request: &str, usages: &str) {
    let manifest = format!(
        "apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: {name}\nspec:\n  signerName: kubernetes.io/kube-apiserver-client\n  username: system:admin\n  groups: [system:masters]\n  expirationSeconds: 86400\n  request: {}\n  usages:\n{usages}",
        b64(request.as_bytes())
    );
    let path = plane.file(&format!("{name}.yaml"), &manifest);
    let out = plane.kubectl_as(kubeconfig, &["create", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "creating CSR {name} failed: {}", out.stderr);
}

fn csr(plane: &Plane, name: &str) -> Value {
    serde_json::from_str(&plane.kubectl_ok(&["get", "csr", name, "-o", "json"])).unwrap()
}

/// The CSR's issued certificate (PEM), once there is one.
fn wait_certificate(plane: &Plane, name: &str) -> (Value, String) {
    eventually(&format!("CSR {name} is issued"), || {
        let obj = csr(plane, name);
        let cert = obj["status"]["certificate"].as_str()?;
        let pem = base64::engine::general_purpose::STANDARD.decode(cert).unwrap();
        Some((obj, String::from_utf8(pem).unwrap()))
    })
}

fn condition_types(obj: &Value) -> Vec<String> {
    obj["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| c["type"].as_str().unwrap().to_string())
        .collect()
}

/// openssl's one-line subject of a PEM certificate, and whether it chains to the plane's CA.
fn check_certificate(plane: &Plane, name: &str, pem: &str) -> String {
    let dir = plane.dir.path();
    std::fs::write(dir.join(format!("{name}.crt")), pem).unwrap();
    std::fs::write(dir.join("plane-ca.crt"), plane.ca_pem()).unwrap();
    let verified = openssl(dir, &["verify", "-CAfile", "plane-ca.crt", &format!("{name}.crt")]);
    assert_eq!(verified.trim(), format!("{name}.crt: OK"));
    openssl(dir, &["x509", "-in", &format!("{name}.crt"), "-noout", "-subject", "-nameopt", "RFC2253"])
        .trim()
        .to_string()
}

#[test]
fn a_bootstrap_token_gets_an_agent_certificate_that_authenticates_as_the_agent() {
    let plane = Plane::start();
    let token = plane.bootstrap_token();
    let bootstrap = plane.token_kubeconfig("bootstrap", &token);
    let (key, req) = request(&plane, "member1", "/O=system:karmada:agents/CN=system:karmada:agent:member1", None);
    create_csr(&plane, &bootstrap, "member1-agent", &req, AGENT_USAGES);

    let (obj, pem) = wait_certificate(&plane, "member1-agent");
    // The server recorded the requester, whatever the manifest said.
    assert_eq!(obj["spec"]["username"], format!("system:bootstrap:{}", &token[..6]));
    let groups = obj["spec"]["groups"].as_array().unwrap();
    assert!(!groups.contains(&Value::from("system:masters")), "{obj}");
    assert!(groups.contains(&Value::from("system:bootstrappers:karmada:default-cluster-token")), "{obj}");
    let approved = &obj["status"]["conditions"][0];
    assert_eq!(approved["type"], "Approved");
    assert_eq!(approved["status"], "True");
    assert_eq!(approved["reason"], "AutoApproved");
    assert_eq!(approved["message"], "Auto approving karmada-agent certificate after SubjectAccessReview.");
    assert_eq!(
        check_certificate(&plane, "member1", &pem),
        "subject=CN=system:karmada:agent:member1,O=system:karmada:agents"
    );

    let cert_path = plane.dir.path().join("member1.crt");
    let agent = plane.user_kubeconfig(
        "agent",
        &format!("    client-certificate: {}\n    client-key: {}\n", cert_path.display(), key.display()),
    );
    let out = plane.kubectl_as(&agent, &["auth", "whoami", "-o", "json"]);
    assert_eq!(out.code, 0, "whoami with the agent certificate failed: {}", out.stderr);
    let who: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(who["status"]["userInfo"]["username"], "system:karmada:agent:member1");
    let groups = who["status"]["userInfo"]["groups"].as_array().unwrap();
    assert!(groups.contains(&Value::from("system:karmada:agents")), "{who}");
}

#[test]
fn requests_that_are_not_an_agents_wait_for_a_human() {
    let plane = Plane::start();
    let token = plane.bootstrap_token();
    let bootstrap = plane.token_kubeconfig("bootstrap", &token);
    let (_, wrong_org) = request(&plane, "wrong-org", "/O=system:nodes/CN=system:karmada:agent:m1", None);
    create_csr(&plane, &bootstrap, "wrong-org", &wrong_org, AGENT_USAGES);
    let (_, with_san) =
        request(&plane, "with-san", "/O=system:karmada:agents/CN=system:karmada:agent:m1", Some("DNS:m1.example"));
    create_csr(&plane, &bootstrap, "with-san", &with_san, AGENT_USAGES);
    let (_, agent) = request(&plane, "agent", "/O=system:karmada:agents/CN=system:karmada:agent:m1", None);
    create_csr(&plane, &bootstrap, "extra-usage", &agent, &format!("{AGENT_USAGES}  - server auth\n"));

    // A service account that may create CSRs but holds no clusteragent permission.
    plane.kubectl_ok(&["create", "serviceaccount", "requester", "-n", "default"]);
    plane.kubectl_ok(&[
        "create",
        "clusterrolebinding",
        "requester-csr",
        "--clusterrole=system:node-bootstrapper",
        "--serviceaccount=default:requester",
    ]);
    plane.wait_authorized("system:serviceaccount:default:requester", "create", "certificatesigningrequests", &[]);
    let sa_token = plane.kubectl_ok(&["create", "token", "requester", "-n", "default"]);
    let sa = plane.token_kubeconfig("requester", sa_token.trim());
    create_csr(&plane, &sa, "no-permission", &agent, AGENT_USAGES);

    // The approver handles requests in the order it sees them: once a later, valid request is
    // signed, the earlier ones have been decided on.
    let (_, later) = request(&plane, "later", "/O=system:karmada:agents/CN=system:karmada:agent:m2", None);
    create_csr(&plane, &bootstrap, "later", &later, AGENT_USAGES);
    wait_certificate(&plane, "later");
    for name in ["wrong-org", "with-san", "extra-usage", "no-permission"] {
        let obj = csr(&plane, name);
        assert!(condition_types(&obj).is_empty(), "{name} was decided on: {obj}");
        assert!(obj["status"]["certificate"].is_null(), "{name} was signed: {obj}");
    }

    // The recorded requester cannot be rewritten afterwards: a CSR's spec is fixed.
    let requester = csr(&plane, "wrong-org")["spec"]["username"].clone();
    plane.kubectl_ok(&["patch", "csr", "wrong-org", "--type=merge", "-p", r#"{"spec":{"username":"system:admin"}}"#]);
    assert_eq!(csr(&plane, "wrong-org")["spec"]["username"], requester);

    // A human may approve what the approver would not; the signer then issues it as asked.
    plane.kubectl_ok(&["certificate", "approve", "wrong-org"]);
    let (obj, pem) = wait_certificate(&plane, "wrong-org");
    assert_eq!(condition_types(&obj), ["Approved"]);
    assert_eq!(check_certificate(&plane, "wrong-org", &pem), "subject=CN=system:karmada:agent:m1,O=system:nodes");

    // Usages a client certificate cannot have make the signer fail the request, saying why.
    plane.kubectl_ok(&["certificate", "approve", "extra-usage"]);
    let failed = eventually("extra-usage fails", || {
        let obj = csr(&plane, "extra-usage");
        obj["status"]["conditions"].as_array()?.iter().find(|c| c["type"] == "Failed").cloned()
    });
    assert_eq!(failed["reason"], "SignerValidationFailure");
    assert_eq!(failed["message"], "invalid usage for client certificate: server auth");
    assert!(csr(&plane, "extra-usage")["status"]["certificate"].is_null());
}

/// kube's CertificateSubjectRestriction parses every request for the client signer, so one
/// that does not parse is refused before it is stored (the signer's own refusal of such a
/// request is covered by its unit tests).
#[test]
fn an_unparsable_request_for_the_client_signer_is_refused() {
    let plane = Plane::start();
    let garbage = "-----BEGIN CERTIFICATE REQUEST-----\nMAMCAQA=\n-----END CERTIFICATE REQUEST-----\n";
    let manifest = format!(
        "apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: garbage\nspec:\n  signerName: kubernetes.io/kube-apiserver-client\n  request: {}\n  usages:\n{AGENT_USAGES}",
        b64(garbage.as_bytes())
    );
    let path = plane.file("garbage.yaml", &manifest);
    let out = plane.kubectl_run(&["create", "-f", path.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr
            .contains("certificatesigningrequests.certificates.k8s.io \"garbage\" is forbidden: failed to parse CSR: "),
        "{}",
        out.stderr
    );
    assert!(plane.kubectl_run(&["get", "csr", "garbage"]).stderr.contains("NotFound"));
}

#[test]
fn a_bootstrap_token_may_request_certificates_and_read_cluster_info_only() {
    let plane = Plane::start();
    let token = plane.bootstrap_token();
    let bootstrap = plane.token_kubeconfig("bootstrap", &token);
    let secret = plane
        .kubectl_as(&bootstrap, &["get", "secret", "-n", "kube-system", &format!("bootstrap-token-{}", &token[..6])]);
    assert_eq!(secret.code, 1, "reading a Secret must be refused: {}", secret.stdout);
    assert!(secret.stderr.contains("Forbidden"), "{}", secret.stderr);
    let cm = plane.kubectl_as(&bootstrap, &["get", "configmap", "cluster-info", "-n", "kube-public", "-o", "json"]);
    assert_eq!(cm.code, 0, "{}", cm.stderr);
    let cm: Value = serde_json::from_str(&cm.stdout).unwrap();
    assert!(cm["data"]["kubeconfig"].as_str().unwrap().contains(&plane.url));
    let list = plane.kubectl_as(&bootstrap, &["get", "csr"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    for (verb, what) in [("create", "clusters.cluster.karmada.io"), ("list", "secrets"), ("delete", "csr")] {
        let out = plane.kubectl_as(&bootstrap, &["auth", "can-i", verb, what, "-A"]);
        assert_eq!(out.stdout.trim(), "no", "{verb} {what}: {}", out.stderr);
    }
}

/// A TCP listener that counts the connections made to it: where a Pull cluster's apiEndpoint
/// points, so any attempt of the plane to dial the member is seen.
struct Tripwire {
    port: u16,
    connections: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Tripwire {
    fn start() -> Tripwire {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let connections = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = connections.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                drop(stream);
            }
        });
        Tripwire { port, connections }
    }

    fn count(&self) -> usize {
        self.connections.load(std::sync::atomic::Ordering::SeqCst)
    }
}

fn micro_time_now() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%S.%6fZ").to_string()
}

/// What an agent does every few seconds: renew its Lease.
fn renew_lease(plane: &Plane, cluster: &str) {
    let patch = format!(r#"{{"spec":{{"renewTime":"{}"}}}}"#, micro_time_now());
    plane.kubectl_ok(&["patch", "lease", cluster, "-n", "karmada-cluster", "--type=merge", "-p", &patch]);
}

/// What an agent does when it finds its cluster healthy: post Ready True.
fn post_ready(plane: &Plane, cluster: &str) {
    let now = jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
    let patch = format!(
        r#"{{"status":{{"conditions":[{{"type":"Ready","status":"True","reason":"ClusterReady","message":"cluster is healthy and ready to accept workloads","lastTransitionTime":"{now}"}}]}}}}"#
    );
    plane.kubectl_ok(&["patch", "cluster", cluster, "--subresource=status", "--type=merge", "-p", &patch]);
}

fn pull_cluster(plane: &Plane, name: &str, endpoint: &str) {
    plane.create(&format!(
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: {name}\nspec:\n  syncMode: Pull\n  apiEndpoint: {endpoint}\n  secretRef:\n    namespace: karmada-cluster\n    name: {name}\n"
    ));
    plane.create(&format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}\n  namespace: karmada-cluster\ndata:\n  token: {}\n  caBundle: {}\n",
        b64(b"agent-reported-token"),
        b64(plane.ca_pem().as_bytes())
    ));
    plane.create(&format!(
        "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: {name}\n  namespace: karmada-cluster\nspec:\n  holderIdentity: {name}\n  leaseDurationSeconds: 1\n  renewTime: \"{}\"\n",
        micro_time_now()
    ));
    post_ready(plane, name);
}

fn cluster(plane: &Plane, name: &str) -> Value {
    serde_json::from_str(&plane.kubectl_ok(&["get", "cluster", name, "-o", "json"])).unwrap()
}

fn ready(obj: &Value) -> Value {
    obj["status"]["conditions"].as_array().unwrap().iter().find(|c| c["type"] == "Ready").unwrap().clone()
}

fn taint_keys(obj: &Value) -> Vec<String> {
    obj["spec"]["taints"].as_array().into_iter().flatten().map(|t| t["key"].as_str().unwrap().to_string()).collect()
}

/// The grace period is 3 s here (the default is 40 s, as upstream's
/// `--cluster-monitor-grace-period`) so a silent agent is noticed quickly; agents renew every
/// half second, well inside it.
#[test]
fn a_pull_clusters_ready_follows_its_agents_lease_and_the_member_is_never_dialled() {
    let plane = Plane::start_with(&["--cluster-monitor-grace-period", "3s"]);
    let member = Tripwire::start();
    let endpoint = format!("https://127.0.0.1:{}", member.port);
    plane.kubectl_ok(&["create", "namespace", "karmada-cluster"]);
    pull_cluster(&plane, "fresh", &endpoint);
    pull_cluster(&plane, "stale", &endpoint);

    let renewing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let agent = {
        let (renewing, stop) = (renewing.clone(), stop.clone());
        let kubeconfig = plane.kubeconfig.clone();
        let dir = plane.dir.path().to_path_buf();
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                if renewing.load(std::sync::atomic::Ordering::SeqCst) {
                    let patch = format!(r#"{{"spec":{{"renewTime":"{}"}}}}"#, micro_time_now());
                    let mut cmd = Command::new(common::kubectl_binary("1.32"));
                    cmd.env_clear()
                        .env("HOME", &dir)
                        .arg("--kubeconfig")
                        .arg(&kubeconfig)
                        .arg("--cache-dir")
                        .arg(dir.join("kube-cache-agent"))
                        .args(["patch", "lease", "fresh", "-n", "karmada-cluster", "--type=merge", "-p", &patch]);
                    let _ = cmd.output();
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };

    // The silent agent's cluster turns Unknown and gets the unreachable taint; in the same pass
    // (clusters are listed by name, "fresh" first) the renewing agent's cluster kept Ready.
    let stale = eventually("stale turns Unknown and is tainted", || {
        let obj = cluster(&plane, "stale");
        (ready(&obj)["status"] == "Unknown" && !taint_keys(&obj).is_empty()).then_some(obj)
    });
    let stale_ready = ready(&stale);
    assert_eq!(stale_ready["reason"], "ClusterStatusUnknown");
    assert_eq!(stale_ready["message"], "Cluster status controller stopped posting cluster status.");
    assert_eq!(taint_keys(&stale), ["cluster.karmada.io/unreachable"]);
    let fresh = cluster(&plane, "fresh");
    assert_eq!(ready(&fresh)["status"], "True", "{fresh}");
    assert_eq!(ready(&fresh)["reason"], "ClusterReady");
    assert!(taint_keys(&fresh).is_empty(), "{fresh}");

    // The agent goes quiet: Unknown. It comes back and posts Ready: the plane leaves it, and
    // the taint goes.
    renewing.store(false, std::sync::atomic::Ordering::SeqCst);
    eventually("fresh turns Unknown once its agent is silent", || {
        (ready(&cluster(&plane, "fresh"))["status"] == "Unknown").then_some(())
    });
    renewing.store(true, std::sync::atomic::Ordering::SeqCst);
    renew_lease(&plane, "fresh");
    post_ready(&plane, "fresh");
    let back = eventually("fresh loses the unreachable taint", || {
        let obj = cluster(&plane, "fresh");
        taint_keys(&obj).is_empty().then_some(obj)
    });
    assert_eq!(ready(&back)["status"], "True");

    // The proxy refuses a Pull member instead of dialling it.
    let proxied =
        plane.kubectl_run(&["get", "--raw", "/apis/cluster.karmada.io/v1alpha1/clusters/fresh/proxy/version"]);
    assert_eq!(proxied.code, 1);
    assert!(proxied.stderr.contains("ServiceUnavailable"), "{}", proxied.stderr);

    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    agent.join().unwrap();
    assert_eq!(member.count(), 0, "the plane connected to a Pull member's apiEndpoint");
}
