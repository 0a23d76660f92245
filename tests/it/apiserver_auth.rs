//! Authentication and authorization of the embedded API server, judged by kubectl 1.32:
//! anonymous users, bootstrap tokens (valid and expired), service-account tokens with and
//! without a RoleBinding, TokenRequest tokens, and a client certificate without bindings.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::plane::Plane;
use base64::Engine;
use karmadactl::kubeconfig::{KubeconfigBuilder, write_file};
use karmadactl_pki::{CertificateAuthority, LeafSpec, Validity};
use rustls::pki_types::pem::PemObject;

/// A kubeconfig for the plane that trusts its CA, with the given credentials.
fn kubeconfig_for(
    plane: &Plane,
    name: &str,
    configure: impl FnOnce(KubeconfigBuilder) -> KubeconfigBuilder,
) -> PathBuf {
    let builder =
        KubeconfigBuilder::new("plane", name, plane.url.clone()).certificate_authority(plane.ca_pem().into_bytes());
    let kc = configure(builder).build();
    let path = plane.dir.path().join(format!("{name}.kubeconfig"));
    write_file(&path, &kc).unwrap();
    path
}

/// kubectl 1.32 with another kubeconfig (the admin one is not used).
fn kubectl_as(plane: &Plane, kubeconfig: &PathBuf, args: &[&str]) -> common::Run {
    kubectl_version_as(plane, "1.32", kubeconfig, args)
}

fn kubectl_version_as(plane: &Plane, version: &str, kubeconfig: &PathBuf, args: &[&str]) -> common::Run {
    let mut cmd = std::process::Command::new(common::kubectl_binary(version));
    cmd.env_clear()
        .env("HOME", plane.dir.path())
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .arg("--cache-dir")
        .arg(plane.dir.path().join(format!("cache-{}", kubeconfig.file_stem().unwrap().to_string_lossy())))
        .args(args);
    common::run(cmd)
}

/// kubectl prompts for a username when a kubeconfig user has no credentials, so anonymous
/// access is judged by kube-rs with a client that sends none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_may_read_version_and_health_only() {
    use k8s_openapi::api::core::v1::ConfigMap;
    let plane = Plane::start();
    let mut cfg = kube::Config::new(plane.url.parse().unwrap());
    let ca = rustls::pki_types::CertificateDer::from_pem_slice(plane.ca_pem().as_bytes()).unwrap();
    cfg.root_cert = Some(vec![ca.to_vec()]);
    let client = kube::Client::try_from(cfg).unwrap();
    let version = client.apiserver_version().await.unwrap();
    assert_eq!(version.git_version, "v1.33.0");
    let ready = client.request_text(http::Request::get("/readyz").body(vec![]).unwrap()).await.unwrap();
    assert_eq!(ready, "ok");
    let cms: kube::Api<ConfigMap> = kube::Api::namespaced(client, "default");
    let err = cms.list(&Default::default()).await.unwrap_err();
    match err {
        kube::Error::Api(e) => {
            assert_eq!(e.code, 403);
            assert_eq!(
                e.message,
                "configmaps is forbidden: User \"system:anonymous\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"default\""
            );
        }
        other => panic!("expected a 403, got {other:?}"),
    }
}

fn bootstrap_secret(id: &str, secret: &str, expiration: Option<&str>) -> String {
    let exp = expiration.map(|e| format!("  expiration: \"{e}\"\n")).unwrap_or_default();
    format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: bootstrap-token-{id}\n  namespace: kube-system\ntype: bootstrap.kubernetes.io/token\nstringData:\n  token-id: {id}\n  token-secret: {secret}\n  usage-bootstrap-authentication: \"true\"\n  usage-bootstrap-signing: \"true\"\n  auth-extra-groups: system:bootstrappers:karmada:default-cluster-token\n{exp}"
    )
}

#[test]
fn bootstrap_tokens_authenticate_until_they_expire() {
    let plane = Plane::start();
    let good = plane.file("good.yaml", &bootstrap_secret("abcdef", "0123456789abcdef", None));
    plane.kubectl_ok(&["create", "-f", good.to_str().unwrap()]);
    let expired =
        plane.file("expired.yaml", &bootstrap_secret("zzzzzz", "0123456789abcdef", Some("2020-01-01T00:00:00Z")));
    plane.kubectl_ok(&["create", "-f", expired.to_str().unwrap()]);

    let token = kubeconfig_for(&plane, "bootstrap", |b| b.token("abcdef.0123456789abcdef"));
    let who = kubectl_as(&plane, &token, &["auth", "whoami", "-o", "json"]);
    assert_eq!(who.code, 0, "{}", who.stderr);
    let who: serde_json::Value = serde_json::from_str(&who.stdout).unwrap();
    assert_eq!(who["status"]["userInfo"]["username"], "system:bootstrap:abcdef");
    let groups: Vec<&str> =
        who["status"]["userInfo"]["groups"].as_array().unwrap().iter().map(|g| g.as_str().unwrap()).collect();
    assert!(
        groups.contains(&"system:bootstrappers")
            && groups.contains(&"system:bootstrappers:karmada:default-cluster-token"),
        "{groups:?}"
    );
    let secrets = kubectl_as(&plane, &token, &["get", "secrets", "-n", "kube-system"]);
    assert_ne!(secrets.code, 0);
    assert!(
        secrets.stderr.contains("User \"system:bootstrap:abcdef\" cannot list resource \"secrets\""),
        "{}",
        secrets.stderr
    );

    for (name, bearer) in [
        ("expired", "zzzzzz.0123456789abcdef"),
        ("unknown", "yyyyyy.0123456789abcdef"),
        ("wrong", "abcdef.ffffffffffffffff"),
    ] {
        let kc = kubeconfig_for(&plane, name, |b| b.token(bearer));
        let out = kubectl_as(&plane, &kc, &["get", "configmaps"]);
        assert_ne!(out.code, 0, "{name} token was accepted");
        assert!(out.stderr.contains("You must be logged in to the server"), "{name}: {}", out.stderr);
        assert!(
            !out.stderr.contains("0123456789abcdef") && !out.stderr.contains("ffffffffffffffff"),
            "a secret leaked: {}",
            out.stderr
        );
    }
}

/// Waits until the token controller has filled the Secret, and returns the token.
fn service_account_token(plane: &Plane, ns: &str, secret: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let out = plane.kubectl_run(&["get", "secret", secret, "-n", ns, "-o", "jsonpath={.data.token}"]);
        if out.code == 0 && !out.stdout.trim().is_empty() {
            let raw = base64::engine::general_purpose::STANDARD.decode(out.stdout.trim()).unwrap();
            return String::from_utf8(raw).unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the token controller did not fill {ns}/{secret}");
}

#[test]
fn service_account_tokens_are_authorized_by_role_bindings() {
    let plane = Plane::start();
    plane.create("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n");
    plane.create("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: robot\n  namespace: team\n");
    plane.create("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team\ndata:\n  k: v\n");
    let secret = plane.file(
        "sa-secret.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: robot-token\n  namespace: team\n  annotations:\n    kubernetes.io/service-account.name: robot\ntype: kubernetes.io/service-account-token\n",
    );
    plane.kubectl_ok(&["create", "-f", secret.to_str().unwrap()]);
    let filled: serde_json::Value =
        serde_json::from_str(&plane.kubectl_ok(&["get", "secret", "robot-token", "-n", "team", "-o", "json"])).unwrap();
    let token = service_account_token(&plane, "team", "robot-token");
    let ca = base64::engine::general_purpose::STANDARD
        .decode(
            plane.kubectl_ok(&["get", "secret", "robot-token", "-n", "team", "-o", "jsonpath={.data.ca\\.crt}"]).trim(),
        )
        .unwrap();
    assert_eq!(String::from_utf8(ca).unwrap(), plane.ca_pem(), "ca.crt is the plane's CA");
    let _ = filled;

    let kc = kubeconfig_for(&plane, "robot", |b| b.token(token.clone()));
    let denied = kubectl_as(&plane, &kc, &["get", "configmaps", "-n", "team"]);
    assert_ne!(denied.code, 0);
    assert!(
        denied.stderr.contains("User \"system:serviceaccount:team:robot\" cannot list resource \"configmaps\""),
        "{}",
        denied.stderr
    );

    plane.create("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: cm-reader\n  namespace: team\nrules:\n- apiGroups: [\"\"]\n  resources: [configmaps]\n  verbs: [get, list]\n");
    plane.create("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: robot-reads\n  namespace: team\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: cm-reader\nsubjects:\n- kind: ServiceAccount\n  name: robot\n  namespace: team\n");
    // The RBAC snapshot follows the store; give it a moment.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let allowed = kubectl_as(&plane, &kc, &["get", "configmaps", "-n", "team", "-o", "name"]);
        if allowed.code == 0 {
            assert_eq!(allowed.stdout.trim(), "configmap/settings");
            break;
        }
        assert!(Instant::now() < deadline, "the RoleBinding did not take effect: {}", allowed.stderr);
        std::thread::sleep(Duration::from_millis(50));
    }
    let elsewhere = kubectl_as(&plane, &kc, &["get", "configmaps", "-n", "default"]);
    assert_ne!(elsewhere.code, 0, "a RoleBinding grants only in its namespace");

    // A TokenRequest token for the same account works the same way.
    let mut create_token = plane.kubectl();
    create_token.args(["create", "token", "robot", "-n", "team"]);
    let bound = common::run(create_token);
    assert_eq!(bound.code, 0, "{}", bound.stderr);
    let bound = bound.stdout;
    let kc2 = kubeconfig_for(&plane, "robot-bound", |b| b.token(bound.trim().to_string()));
    let who = kubectl_as(&plane, &kc2, &["auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"]);
    assert_eq!(who.stdout.trim(), "system:serviceaccount:team:robot", "{}", who.stderr);

    // Deleting the Secret revokes the legacy token.
    plane.kubectl_ok(&["delete", "secret", "robot-token", "-n", "team"]);
    let revoked = kubectl_as(&plane, &kc, &["get", "configmaps", "-n", "team"]);
    assert!(revoked.stderr.contains("You must be logged in to the server"), "{}", revoked.stderr);
}

#[test]
fn client_certificate_without_bindings_is_authenticated_but_denied() {
    let plane = Plane::start();
    let pki = plane.data_dir.join("pki");
    let ca = CertificateAuthority::from_pem(
        &std::fs::read_to_string(pki.join("ca.crt")).unwrap(),
        &std::fs::read_to_string(pki.join("ca.key")).unwrap(),
    )
    .unwrap();
    let issued = ca
        .issue(&LeafSpec::client("alice", vec!["devs".into()], Validity::from_now(Duration::from_secs(3600)).unwrap()))
        .unwrap();
    let kc = kubeconfig_for(&plane, "alice", |b| {
        b.client_certificate(issued.cert_pem.clone().into_bytes(), issued.key_pem().into_bytes())
    });
    let who = kubectl_as(&plane, &kc, &["auth", "whoami", "-o", "json"]);
    assert_eq!(who.code, 0, "{}", who.stderr);
    let who: serde_json::Value = serde_json::from_str(&who.stdout).unwrap();
    assert_eq!(who["status"]["userInfo"]["username"], "alice");
    assert!(who["status"]["userInfo"]["groups"].as_array().unwrap().iter().any(|g| g == "devs"));
    let denied = kubectl_as(&plane, &kc, &["get", "pods", "-n", "default"]);
    assert!(denied.stderr.contains("User \"alice\" cannot list resource \"pods\""), "{}", denied.stderr);
    let can_i = kubectl_as(&plane, &kc, &["auth", "can-i", "list", "pods"]);
    assert_eq!(can_i.stdout.trim(), "no");
}
