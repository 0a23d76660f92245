//! Context selection, file references, base64 data and redaction.

use base64::Engine as _;

use super::put;
use crate::{KubeconfigError, LoadRules, parse, resolve};

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

const CA: &str = "-----BEGIN CERTIFICATE-----\nQ0EgZGF0YQ==\n-----END CERTIFICATE-----\n";
const CERT: &str = "-----BEGIN CERTIFICATE-----\nY2xpZW50\n-----END CERTIFICATE-----\n";
const KEY: &str = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n-----END PRIVATE KEY-----\n";

fn kc(text: &str) -> kube::config::Kubeconfig {
    parse(std::path::Path::new("test"), text.as_bytes()).unwrap()
}

fn two_contexts() -> String {
    format!(
        "current-context: one
clusters:
- name: c1
  cluster:
    server: https://one:6443
    certificate-authority-data: {ca}
    tls-server-name: api.one
    proxy-url: http://proxy:3128
- name: c2
  cluster:
    server: https://two:6443
    insecure-skip-tls-verify: true
users:
- name: u1
  user:
    client-certificate-data: {cert}
    client-key-data: {key}
- name: u2
  user:
    token: tok-two
    username: admin
    password: pass-two
contexts:
- name: one
  context: {{cluster: c1, user: u1}}
- name: two
  context: {{cluster: c2, user: u2, namespace: team}}
- name: anonymous
  context: {{cluster: c2}}
- name: broken-cluster
  context: {{cluster: nope, user: u1}}
- name: broken-user
  context: {{cluster: c1, user: nobody}}
",
        ca = b64(CA),
        cert = b64(CERT),
        key = b64(KEY)
    )
}

#[test]
fn kubeconfig_current_context_is_resolved_with_embedded_data() {
    let r = resolve(&kc(&two_contexts()), None).unwrap();
    assert_eq!(r.context_name, "one");
    assert_eq!(r.cluster_name, "c1");
    assert_eq!(r.cluster.server, "https://one:6443");
    assert_eq!(r.cluster.certificate_authority_pem.as_deref(), Some(CA.as_bytes()));
    assert_eq!(r.cluster.tls_server_name.as_deref(), Some("api.one"));
    assert_eq!(r.cluster.proxy_url.as_deref(), Some("http://proxy:3128"));
    assert!(!r.cluster.insecure_skip_tls_verify);
    assert_eq!(r.user_name.as_deref(), Some("u1"));
    assert_eq!(r.user.client_certificate_pem.as_deref(), Some(CERT.as_bytes()));
    assert_eq!(r.user.client_key_pem.as_deref(), Some(KEY.as_bytes()));
    assert_eq!(r.user.token, None);
    assert_eq!(r.namespace, None);
}

#[test]
fn kubeconfig_named_context_wins_over_current() {
    let r = resolve(&kc(&two_contexts()), Some("two")).unwrap();
    assert_eq!(r.cluster_name, "c2");
    assert!(r.cluster.insecure_skip_tls_verify);
    assert_eq!(r.cluster.certificate_authority_pem, None);
    assert_eq!(r.user.token.as_deref(), Some("tok-two"));
    assert_eq!(r.user.username.as_deref(), Some("admin"));
    assert_eq!(r.user.password.as_deref(), Some("pass-two"));
    assert_eq!(r.namespace.as_deref(), Some("team"));
    // An empty context flag means the current context, as in kubectl.
    assert_eq!(resolve(&kc(&two_contexts()), Some("")).unwrap().context_name, "one");
}

#[test]
fn kubeconfig_context_without_user_is_anonymous() {
    let r = resolve(&kc(&two_contexts()), Some("anonymous")).unwrap();
    assert_eq!(r.user_name, None);
    assert_eq!(r.user, Default::default());
}

#[test]
fn kubeconfig_unknown_context_lists_the_available_ones() {
    let err = resolve(&kc(&two_contexts()), Some("three")).unwrap_err();
    assert_eq!(err.to_string(), "context \"three\" does not exist");
    let hint = err.hint().unwrap();
    assert!(hint.contains("\"one\"") && hint.contains("\"two\"") && hint.contains("\"anonymous\""), "{hint}");
}

#[test]
fn kubeconfig_no_current_context_is_an_error() {
    let text = two_contexts().replace("current-context: one\n", "");
    let err = resolve(&kc(&text), None).unwrap_err();
    assert!(matches!(err, KubeconfigError::NoCurrentContext { .. }), "{err:?}");
    assert!(err.hint().unwrap().contains("\"two\""));
}

#[test]
fn kubeconfig_context_with_missing_cluster_or_user_is_an_error() {
    let k = kc(&two_contexts());
    let err = resolve(&k, Some("broken-cluster")).unwrap_err();
    assert_eq!(err.to_string(), "cluster \"nope\" used by context \"broken-cluster\" does not exist in the kubeconfig");
    let err = resolve(&k, Some("broken-user")).unwrap_err();
    assert_eq!(err.to_string(), "user \"nobody\" used by context \"broken-user\" does not exist in the kubeconfig");
}

#[test]
fn kubeconfig_cluster_without_server_is_an_error() {
    let err = resolve(
        &kc("current-context: x\nclusters:\n- name: c\n  cluster: {}\ncontexts:\n- name: x\n  context: {cluster: c}\n"),
        None,
    )
    .unwrap_err();
    assert!(matches!(err, KubeconfigError::NoServer { ref cluster } if cluster == "c"), "{err:?}");
}

#[test]
fn kubeconfig_relative_file_references_resolve_against_the_kubeconfig_dir() {
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), "cfg/pki/ca.crt", CA);
    put(dir.path(), "cfg/pki/client.crt", CERT);
    put(dir.path(), "cfg/pki/client.key", KEY);
    put(dir.path(), "cfg/token", "  file-token\n");
    let path = put(
        dir.path(),
        "cfg/config",
        "current-context: x
clusters:
- name: c
  cluster: {server: https://c:1, certificate-authority: pki/ca.crt}
users:
- name: cert
  user: {client-certificate: pki/client.crt, client-key: ./pki/client.key}
- name: tok
  user: {tokenFile: token}
contexts:
- name: x
  context: {cluster: c, user: cert}
- name: y
  context: {cluster: c, user: tok}
",
    );
    // The test's working directory is the crate root, not `cfg/`: only resolution against the
    // kubeconfig's directory finds these files.
    let loaded = LoadRules::default().with_explicit_path(&path).load().unwrap();
    let x = loaded.resolve(None).unwrap();
    assert_eq!(x.cluster.certificate_authority_pem.as_deref(), Some(CA.as_bytes()));
    assert_eq!(x.user.client_certificate_pem.as_deref(), Some(CERT.as_bytes()));
    assert_eq!(x.user.client_key_pem.as_deref(), Some(KEY.as_bytes()));
    let y = loaded.resolve(Some("y")).unwrap();
    assert_eq!(y.user.token.as_deref(), Some("file-token"));
}

#[test]
fn kubeconfig_embedded_data_wins_over_file_and_token_over_token_file() {
    let text = format!(
        "current-context: x
clusters:
- name: c
  cluster: {{server: https://c:1, certificate-authority-data: {ca}, certificate-authority: /nonexistent/ca.crt}}
users:
- name: u
  user: {{token: inline, tokenFile: /nonexistent/token}}
contexts:
- name: x
  context: {{cluster: c, user: u}}
",
        ca = b64(CA)
    );
    let r = resolve(&kc(&text), None).unwrap();
    assert_eq!(r.cluster.certificate_authority_pem.as_deref(), Some(CA.as_bytes()));
    assert_eq!(r.user.token.as_deref(), Some("inline"));
}

#[test]
fn kubeconfig_unreadable_reference_names_the_file() {
    let text = "current-context: x
clusters:
- name: c
  cluster: {server: https://c:1, certificate-authority: /nonexistent/dir/ca.crt}
contexts:
- name: x
  context: {cluster: c}
";
    let err = resolve(&kc(text), None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot read the certificate-authority file \"/nonexistent/dir/ca.crt\" of cluster \"c\""
    );
    assert!(err.hint().is_some());
}

#[test]
fn kubeconfig_bad_base64_is_reported_without_the_data() {
    let bad_ca = "current-context: x\nclusters:\n- name: c\n  cluster: {server: https://c:1, certificate-authority-data: 'not*base64'}\ncontexts:\n- name: x\n  context: {cluster: c}\n";
    let err = resolve(&kc(bad_ca), None).unwrap_err();
    assert_eq!(err.to_string(), "the certificate-authority-data of cluster \"c\" is not valid base64");

    let bad_key = format!(
        "current-context: x\nclusters:\n- name: c\n  cluster: {{server: https://c:1}}\nusers:\n- name: u\n  user: {{client-certificate-data: {}, client-key-data: 'TOPSECRET*KEY'}}\ncontexts:\n- name: x\n  context: {{cluster: c, user: u}}\n",
        b64(CERT)
    );
    let err = resolve(&kc(&bad_key), None).unwrap_err();
    assert_eq!(err.to_string(), "the client-key-data of user \"u\" is not valid base64");
    assert!(!format!("{err:?}{}", err.hint().unwrap()).contains("TOPSECRET"));
}

#[test]
fn kubeconfig_base64_with_line_breaks_is_accepted() {
    let encoded = b64(CA);
    let (head, tail) = encoded.split_at(20);
    let text = format!(
        "current-context: x\nclusters:\n- name: c\n  cluster:\n    server: https://c:1\n    certificate-authority-data: \"{head}\\n{tail}\"\ncontexts:\n- name: x\n  context: {{cluster: c}}\n"
    );
    let r = resolve(&kc(&text), None).unwrap();
    assert_eq!(r.cluster.certificate_authority_pem.as_deref(), Some(CA.as_bytes()));
}

#[test]
fn kubeconfig_half_a_client_certificate_is_an_error() {
    let text = format!(
        "current-context: x\nclusters:\n- name: c\n  cluster: {{server: https://c:1}}\nusers:\n- name: u\n  user: {{client-certificate-data: {}}}\ncontexts:\n- name: x\n  context: {{cluster: c, user: u}}\n",
        b64(CERT)
    );
    let err = resolve(&kc(&text), None).unwrap_err();
    assert_eq!(err.to_string(), "user \"u\" has a client certificate but no client key");
}

#[test]
fn kubeconfig_resolved_debug_hides_token_key_and_password() {
    let k = kc(&two_contexts());
    let one = format!("{:?}", resolve(&k, Some("one")).unwrap());
    let two = format!("{:?}", resolve(&k, Some("two")).unwrap());
    assert!(one.contains("client_key_pem: Some(<redacted>)"), "{one}");
    assert!(!one.contains("c2VjcmV0") && !one.contains("PRIVATE KEY"), "{one}");
    // No PEM appears as a list of byte values either ("-----" is 45, 45, ...).
    assert!(!one.contains("45, 45"), "{one}");
    assert!(one.contains("certificate_authority_pem: Some(<67 bytes>)"), "{one}");
    assert!(two.contains("token: Some(<redacted>)"), "{two}");
    assert!(!two.contains("tok-two") && !two.contains("pass-two"), "{two}");
    assert!(two.contains("admin"), "the user name is not secret: {two}");
}
