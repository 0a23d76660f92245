//! The per-command context rules.

use super::{put, simple};
use crate::rules::*;
use crate::{KubeconfigError, LoadRules, parse};

fn kc(text: &str) -> kube::config::Kubeconfig {
    parse(std::path::Path::new("test"), text.as_bytes()).unwrap()
}

/// Context names deliberately differ from their cluster names.
const MEMBERS: &str = "current-context: kind-member1
clusters:
- name: member1
  cluster: {server: https://m1:6443}
- name: member2
  cluster: {server: https://m2:6443}
- name: karmada
  cluster: {server: https://karmada:5443, certificate-authority-data: Q0E=}
contexts:
- name: kind-member1
  context: {cluster: member1}
- name: kind-member2
  context: {cluster: member2}
- name: karmada-apiserver
  context: {cluster: karmada}
";

#[test]
fn kubeconfig_empty_flags_mean_current_context_for_factory_join_host_unregister() {
    assert_eq!(factory_context(""), ContextChoice::Current);
    assert_eq!(factory_context("karmada-apiserver"), ContextChoice::Named("karmada-apiserver".into()));
    assert_eq!(join_cluster_context(""), ContextChoice::Current);
    assert_eq!(join_cluster_context("kind-member2"), ContextChoice::Named("kind-member2".into()));
    assert_eq!(host_context(""), ContextChoice::Current);
    assert_eq!(host_context("kind-host"), ContextChoice::Named("kind-host".into()));
    assert_eq!(unregister_cluster_context(""), ContextChoice::Current);
    assert_eq!(ContextChoice::Current.as_deref(), None);
    assert_eq!(ContextChoice::Named("x".into()).as_deref(), Some("x"));
}

#[test]
fn kubeconfig_unjoin_and_promote_default_to_the_context_named_like_the_cluster() {
    assert_eq!(unjoin_cluster_context("", "member1"), ContextChoice::Named("member1".into()));
    assert_eq!(unjoin_cluster_context("kind-member1", "member1"), ContextChoice::Named("kind-member1".into()));
    assert_eq!(promote_cluster_context("", "member2"), ContextChoice::Named("member2".into()));
    assert_eq!(promote_cluster_context("ctx", "member2"), ContextChoice::Named("ctx".into()));
}

#[test]
fn kubeconfig_join_and_unjoin_pick_different_contexts_for_the_same_kubeconfig() {
    let k = kc(MEMBERS);
    let join = crate::resolve(&k, join_cluster_context("").as_deref()).unwrap();
    assert_eq!(join.context_name, "kind-member1");
    // There is no context named `member1`, so unjoin's default fails where join's succeeds.
    let err = crate::resolve(&k, unjoin_cluster_context("", "member1").as_deref()).unwrap_err();
    assert_eq!(err.to_string(), "context \"member1\" does not exist");
}

#[test]
fn kubeconfig_register_cluster_name_is_the_cluster_of_the_chosen_context() {
    let k = kc(MEMBERS);
    // Cluster name, not context name.
    assert_eq!(register_default_cluster_name(&k, &host_context("")).unwrap(), "member1");
    // Our fix: `--context` is honoured.
    assert_eq!(register_default_cluster_name(&k, &host_context("kind-member2")).unwrap(), "member2");
    let err = register_default_cluster_name(&k, &host_context("nope")).unwrap_err();
    assert!(matches!(err, KubeconfigError::ContextNotFound { .. }), "{err:?}");
    let no_current = kc(&MEMBERS.replace("current-context: kind-member1\n", ""));
    assert!(matches!(
        register_default_cluster_name(&no_current, &host_context("")),
        Err(KubeconfigError::NoCurrentContext { .. })
    ));
}

#[test]
fn kubeconfig_register_command_prefers_the_unnamed_cluster() {
    let text = format!("{MEMBERS}- name: \"\"\n  context: {{cluster: member2}}\n").replace(
        "clusters:\n",
        "clusters:\n- name: \"\"\n  cluster: {server: https://cluster-info:5443, certificate-authority-data: SU5GTw==}\n",
    );
    let k = kc(&text);
    let t = register_command_cluster(&k, &factory_context("karmada-apiserver")).unwrap();
    assert_eq!(t.cluster_name, "");
    assert_eq!(t.cluster.server, "https://cluster-info:5443");
    assert_eq!(t.cluster.certificate_authority_pem.as_deref(), Some(&b"INFO"[..]));
}

#[test]
fn kubeconfig_register_command_uses_karmada_context_then_current() {
    let k = kc(MEMBERS);
    let t = register_command_cluster(&k, &factory_context("karmada-apiserver")).unwrap();
    assert_eq!(t.cluster_name, "karmada");
    assert_eq!(t.cluster.server, "https://karmada:5443");
    assert_eq!(t.cluster.certificate_authority_pem.as_deref(), Some(&b"CA"[..]));
    let t = register_command_cluster(&k, &factory_context("")).unwrap();
    assert_eq!(t.cluster_name, "member1");
    let err = register_command_cluster(&k, &factory_context("missing")).unwrap_err();
    assert_eq!(err.to_string(), "context \"missing\" does not exist");
}

#[test]
fn kubeconfig_register_command_works_with_kubeconfig_env() {
    // Upstream quirk 10 fixed: the same loader is used, so KUBECONFIG works without --kubeconfig.
    let dir = tempfile::tempdir().unwrap();
    let a = put(dir.path(), "a", &simple("karmada", "https://karmada:5443", None));
    let b = put(dir.path(), "b", &simple("other", "https://other:6443", Some("other")));
    let rules =
        LoadRules { explicit_path: None, env_kubeconfig: Some(std::env::join_paths([&a, &b]).unwrap()), home: None };
    let loaded = rules.load().unwrap();
    let t = register_command_cluster(loaded.config(), &factory_context("karmada")).unwrap();
    assert_eq!(t.cluster.server, "https://karmada:5443");
    let t = register_command_cluster(loaded.config(), &factory_context("")).unwrap();
    assert_eq!(t.cluster.server, "https://other:6443");
}
