//! YAML layout, file modes, atomic replacement and merging into an existing file.

use std::os::unix::fs::PermissionsExt as _;

use super::put;
use crate::{
    Credential, KubeconfigBuilder, LoadRules, merge_entries, merge_into_file, parse, resolve, to_yaml, write_file,
};

const CA: &[u8] = b"-----BEGIN CERTIFICATE-----\nQ0E=\n-----END CERTIFICATE-----\n";

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn kubeconfig_yaml_uses_kubectls_key_order() {
    let kc = KubeconfigBuilder::new("karmada-apiserver", "karmada-admin", "https://10.0.0.1:5443")
        .context("karmada-apiserver")
        .certificate_authority(CA)
        .client_certificate(b"CERT".to_vec(), b"KEY".to_vec())
        .build();
    let yaml = to_yaml(&kc).unwrap();
    let expected = "\
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tClEwRT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
    server: https://10.0.0.1:5443
  name: karmada-apiserver
contexts:
- context:
    cluster: karmada-apiserver
    user: karmada-admin
  name: karmada-apiserver
current-context: karmada-apiserver
kind: Config
preferences: {}
users:
- name: karmada-admin
  user:
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
";
    assert_eq!(yaml, expected);
}

#[test]
fn kubeconfig_built_config_round_trips_through_the_resolver() {
    let kc = KubeconfigBuilder::new("c", "u", "https://[::1]:5443")
        .certificate_authority(CA)
        .token("abcdef.0123456789abcdef")
        .namespace("karmada-system")
        .tls_server_name("karmada-apiserver")
        .build();
    let back = parse(std::path::Path::new("x"), to_yaml(&kc).unwrap().as_bytes()).unwrap();
    let r = resolve(&back, None).unwrap();
    assert_eq!(r.context_name, "u@c");
    assert_eq!(r.cluster.server, "https://[::1]:5443");
    assert_eq!(r.cluster.certificate_authority_pem.as_deref(), Some(CA));
    assert_eq!(r.cluster.tls_server_name.as_deref(), Some("karmada-apiserver"));
    assert_eq!(r.user.token.as_deref(), Some("abcdef.0123456789abcdef"));
    assert_eq!(r.namespace.as_deref(), Some("karmada-system"));
}

#[test]
fn kubeconfig_yaml_quotes_names_go_yaml_would_misread() {
    // Go's YAML 1.1 reader turns `on`, `y` and `123` into booleans and numbers; an empty name
    // must stay a string too (cluster-info uses a cluster named "").
    let kc = KubeconfigBuilder::new("", "on", "https://h:1").context("y").token("123").build();
    let yaml = to_yaml(&kc).unwrap();
    assert!(yaml.contains("name: \"\"\n"), "{yaml}");
    assert!(yaml.contains("name: \"on\"\n"), "{yaml}");
    assert!(yaml.contains("name: \"y\"\n"), "{yaml}");
    assert!(yaml.contains("token: \"123\"\n"), "{yaml}");
}

#[test]
fn kubeconfig_insecure_builder_has_no_credentials() {
    let kc = KubeconfigBuilder::new("karmada-apiserver", "token-bootstrap-client", "https://1.2.3.4:5443")
        .insecure_skip_tls_verify(true)
        .build();
    let yaml = to_yaml(&kc).unwrap();
    assert!(yaml.contains("    insecure-skip-tls-verify: true\n"), "{yaml}");
    assert!(yaml.contains("- name: token-bootstrap-client\n  user: {}\n"), "{yaml}");
    assert!(!yaml.contains("certificate-authority"), "{yaml}");
}

#[test]
fn kubeconfig_builder_debug_hides_secrets() {
    let b = KubeconfigBuilder::new("c", "u", "https://h:1").token("super-secret-token");
    assert!(!format!("{b:?}").contains("super-secret"));
    let b = KubeconfigBuilder::new("c", "u", "https://h:1")
        .client_certificate(b"CERT".to_vec(), b"PRIVATE-KEY-BYTES".to_vec());
    let debug = format!("{b:?}");
    assert!(debug.contains("key_pem: <redacted>"), "{debug}");
    assert!(!debug.contains("80, 82, 73"), "key bytes as numbers: {debug}");
    assert_eq!(format!("{:?}", Credential::Token("t0ken".into())), "Token(<redacted>)");
}

#[test]
fn kubeconfig_write_creates_parents_0700_and_file_0600() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new/nested/karmada-apiserver.config");
    let kc = KubeconfigBuilder::new("c", "u", "https://h:1").token("t").build();
    write_file(&path, &kc).unwrap();
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&dir.path().join("new")), 0o700);
    assert_eq!(mode(&dir.path().join("new/nested")), 0o700);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), to_yaml(&kc).unwrap());
}

#[test]
fn kubeconfig_write_replaces_an_existing_file_and_leaves_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = put(dir.path(), "config", "old content");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let kc = KubeconfigBuilder::new("c", "u", "https://h:1").build();
    write_file(&path, &kc).unwrap();
    assert_eq!(mode(&path), 0o600, "a replaced file gets the new, private mode");
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("apiVersion: v1\n"));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("config")]);
}

#[test]
fn kubeconfig_write_to_a_directory_fails_and_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("taken")).unwrap();
    let kc = KubeconfigBuilder::new("c", "u", "https://h:1").build();
    let err = write_file(&dir.path().join("taken"), &kc).unwrap_err();
    assert!(err.to_string().starts_with("cannot write the kubeconfig file"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

const EXISTING: &str = "apiVersion: v1
kind: Config
current-context: old
preferences:
  colors: true
clusters:
- name: old
  cluster:
    server: https://old:6443
    certificate-authority: pki/ca.crt
    x-unknown-cluster-field: kept
- name: karmada
  cluster:
    server: https://stale:5443
users:
- name: old
  user:
    token: old-token
contexts:
- name: old
  context: {cluster: old, user: old}
x-unknown-top-level: also-kept
";

#[test]
fn kubeconfig_merge_into_file_replaces_same_names_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = put(dir.path(), "config", EXISTING);
    let new = KubeconfigBuilder::new("karmada", "karmada-admin", "https://fresh:5443")
        .context("karmada")
        .token("new-token")
        .build();
    merge_into_file(&path, &new, false).unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("x-unknown-cluster-field: kept"), "{text}");
    assert!(text.contains("x-unknown-top-level: also-kept"), "{text}");
    assert!(text.contains("certificate-authority: pki/ca.crt"), "relative paths stay relative: {text}");
    assert!(text.contains("colors: true"), "{text}");
    assert_eq!(mode(&path), 0o600);

    let kc = parse(&path, text.as_bytes()).unwrap();
    assert_eq!(kc.current_context.as_deref(), Some("old"));
    let names: Vec<_> = kc.clusters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["old", "karmada"], "replaced in place, not duplicated");
    let r = resolve(&kc, Some("karmada")).unwrap();
    assert_eq!(r.cluster.server, "https://fresh:5443");
    assert_eq!(r.user.token.as_deref(), Some("new-token"));
    let old = LoadRules::default().with_explicit_path(&path).load().unwrap();
    assert_eq!(old.config().auth_infos.len(), 2);

    merge_into_file(&path, &new, true).unwrap();
    let kc = parse(&path, &std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(kc.current_context.as_deref(), Some("karmada"));
}

#[test]
fn kubeconfig_merge_into_missing_file_creates_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/config");
    let new = KubeconfigBuilder::new("c", "u", "https://h:1").build();
    merge_into_file(&path, &new, true).unwrap();
    let kc = parse(&path, &std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(kc.current_context.as_deref(), Some("u@c"));
    assert_eq!(kc.kind.as_deref(), Some("Config"));
    assert_eq!(mode(&path), 0o600);
}

#[test]
fn kubeconfig_merge_into_malformed_file_refuses_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = put(dir.path(), "config", "clusters: [\n");
    let new = KubeconfigBuilder::new("c", "u", "https://h:1").build();
    assert!(merge_into_file(&path, &new, true).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "clusters: [\n");
}

#[test]
fn kubeconfig_merge_entries_sets_current_only_when_asked() {
    let mut base = parse(std::path::Path::new("x"), EXISTING.as_bytes()).unwrap();
    let new = KubeconfigBuilder::new("n", "n", "https://n:1").context("n").build();
    merge_entries(&mut base, &new, false);
    assert_eq!(base.current_context.as_deref(), Some("old"));
    assert_eq!(base.contexts.len(), 2);
    merge_entries(&mut base, &new, true);
    assert_eq!(base.current_context.as_deref(), Some("n"));
    assert_eq!(base.contexts.len(), 2);
}
