//! Loading precedence and kubectl's merge rules.

use std::ffi::OsString;

use super::{put, simple};
use crate::{EntryKind, KubeconfigError, LoadRules};

fn env_rules(paths: &[&std::path::Path]) -> LoadRules {
    let joined = std::env::join_paths(paths).unwrap();
    LoadRules { explicit_path: None, env_kubeconfig: Some(joined), home: None }
}

const FIRST: &str = "\
apiVersion: v1
kind: Config
clusters:
- name: shared
  cluster:
    server: https://first:6443
users:
- name: shared
  user:
    token: first-token
contexts:
- name: shared
  context:
    cluster: shared
    user: shared
    namespace: first-ns
";

const SECOND: &str = "\
apiVersion: v1
kind: Config
current-context: shared
clusters:
- name: shared
  cluster:
    server: https://second:6443
    insecure-skip-tls-verify: true
- name: only-second
  cluster:
    server: https://only-second:6443
users:
- name: shared
  user:
    token: second-token
contexts:
- name: shared
  context:
    cluster: only-second
    user: shared
- name: only-second
  context:
    cluster: only-second
";

#[test]
fn kubeconfig_first_file_wins_for_each_entry() {
    let dir = tempfile::tempdir().unwrap();
    let a = put(dir.path(), "a", FIRST);
    let b = put(dir.path(), "b", SECOND);
    let loaded = env_rules(&[&a, &b]).load().unwrap();
    let kc = loaded.config();

    let shared = kc.clusters.iter().find(|c| c.name == "shared").unwrap().cluster.clone().unwrap();
    assert_eq!(shared.server.as_deref(), Some("https://first:6443"));
    // Whole-entry replacement: the second file's extra field must not leak into the first's entry.
    assert_eq!(shared.insecure_skip_tls_verify, None);
    let ctx = kc.contexts.iter().find(|c| c.name == "shared").unwrap().context.clone().unwrap();
    assert_eq!(ctx.cluster, "shared");
    assert_eq!(ctx.namespace.as_deref(), Some("first-ns"));
    // Entries only the second file defines are still there.
    assert!(kc.clusters.iter().any(|c| c.name == "only-second"));
    assert!(kc.contexts.iter().any(|c| c.name == "only-second"));
    assert_eq!(kc.clusters.len(), 2);
    assert_eq!(kc.contexts.len(), 2);

    let resolved = loaded.resolve(Some("shared")).unwrap();
    assert_eq!(resolved.user.token.as_deref(), Some("first-token"));
    assert_eq!(resolved.cluster.server, "https://first:6443");

    assert_eq!(loaded.origin(EntryKind::Cluster, "shared"), Some(a.as_path()));
    assert_eq!(loaded.origin(EntryKind::Cluster, "only-second"), Some(b.as_path()));
    assert_eq!(loaded.origin(EntryKind::User, "shared"), Some(a.as_path()));
    assert_eq!(loaded.files(), &[a, b]);
}

#[test]
fn kubeconfig_current_context_from_first_file_that_sets_it() {
    let dir = tempfile::tempdir().unwrap();
    // First file sets none, second sets `shared`, third sets `third`.
    let a = put(dir.path(), "a", FIRST);
    let b = put(dir.path(), "b", SECOND);
    let c = put(dir.path(), "c", &simple("third", "https://third:1", Some("third")));
    let loaded = env_rules(&[&a, &b, &c]).load().unwrap();
    assert_eq!(loaded.config().current_context.as_deref(), Some("shared"));
    assert_eq!(loaded.current_context_origin(), Some(b.as_path()));

    // Reversed order: the third file is first and wins.
    let loaded = env_rules(&[&c, &b, &a]).load().unwrap();
    assert_eq!(loaded.config().current_context.as_deref(), Some("third"));
}

#[test]
fn kubeconfig_empty_current_context_counts_as_unset() {
    let dir = tempfile::tempdir().unwrap();
    let a = put(dir.path(), "a", &format!("current-context: \"\"\n{FIRST}"));
    let b = put(dir.path(), "b", SECOND);
    let loaded = env_rules(&[&a, &b]).load().unwrap();
    assert_eq!(loaded.config().current_context.as_deref(), Some("shared"));
}

#[test]
fn kubeconfig_missing_and_empty_entries_in_env_are_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let a = put(dir.path(), "a", &simple("a", "https://a:1", Some("a")));
    let mut list = OsString::from(dir.path().join("missing"));
    list.push("::");
    list.push(&a);
    list.push(":");
    let loaded = LoadRules { explicit_path: None, env_kubeconfig: Some(list), home: None }.load().unwrap();
    assert_eq!(loaded.files(), &[a]);
    assert_eq!(loaded.resolve(None).unwrap().cluster.server, "https://a:1");
}

#[test]
fn kubeconfig_env_wins_over_home_and_home_is_the_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    put(&home, ".kube/config", &simple("home", "https://home:1", Some("home")));
    let env = put(dir.path(), "env", &simple("env", "https://env:1", Some("env")));

    let rules = LoadRules { explicit_path: None, env_kubeconfig: Some(env.clone().into()), home: Some(home.clone()) };
    assert_eq!(rules.load().unwrap().resolve(None).unwrap().context_name, "env");

    let rules = LoadRules { explicit_path: None, env_kubeconfig: None, home: Some(home.clone()) };
    assert_eq!(rules.load().unwrap().resolve(None).unwrap().context_name, "home");

    // KUBECONFIG pointing only at missing files does not fall back to the home file.
    let rules =
        LoadRules { explicit_path: None, env_kubeconfig: Some(dir.path().join("nope").into()), home: Some(home) };
    assert!(matches!(rules.load(), Err(KubeconfigError::NoConfiguration { .. })));
}

#[test]
fn kubeconfig_explicit_path_wins_and_must_exist() {
    let dir = tempfile::tempdir().unwrap();
    let env = put(dir.path(), "env", &simple("env", "https://env:1", Some("env")));
    let explicit = put(dir.path(), "explicit", &simple("explicit", "https://explicit:1", Some("explicit")));
    let base = LoadRules { explicit_path: None, env_kubeconfig: Some(env.into()), home: None };

    let loaded = base.clone().with_explicit_path(&explicit).load().unwrap();
    assert_eq!(loaded.files(), &[explicit]);
    assert_eq!(loaded.config().contexts.len(), 1);

    let missing = dir.path().join("does-not-exist");
    let err = base.clone().with_explicit_path(&missing).load().unwrap_err();
    assert!(matches!(err, KubeconfigError::ExplicitPathMissing { .. }), "{err:?}");
    assert!(err.to_string().contains(&missing.display().to_string()), "{err}");
    assert!(err.hint().unwrap().contains("--kubeconfig"));

    // An empty flag value means "not given": KUBECONFIG is used.
    let loaded = base.with_explicit_path("").load().unwrap();
    assert_eq!(loaded.resolve(None).unwrap().context_name, "env");
}

#[test]
fn kubeconfig_nothing_found_is_upstreams_error() {
    let dir = tempfile::tempdir().unwrap();
    let rules = LoadRules { explicit_path: None, env_kubeconfig: None, home: Some(dir.path().to_path_buf()) };
    let err = rules.load().unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("Missing or incomplete configuration info."), "{msg}");
    assert!(msg.contains(".kube/config"), "{msg}");
    let hint = err.hint().unwrap();
    assert!(hint.contains("--kubeconfig") && hint.contains("KUBECONFIG"), "{hint}");

    let rules = LoadRules { explicit_path: None, env_kubeconfig: None, home: None };
    assert!(rules.load().unwrap_err().to_string().starts_with("Missing or incomplete configuration info."));
}

#[test]
fn kubeconfig_malformed_file_names_the_file_without_its_values() {
    let dir = tempfile::tempdir().unwrap();
    let bad = put(
        dir.path(),
        "bad",
        "users:\n- name: u\n  user:\n    token: s3cr3t-token\nclusters:\n- name: c\n  cluster:\n    insecure-skip-tls-verify: \"s3cr3t-value\"\n",
    );
    let err = LoadRules::default().with_explicit_path(&bad).load().unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, KubeconfigError::Parse { .. }), "{err:?}");
    assert!(msg.contains(&bad.display().to_string()), "{msg}");
    assert!(msg.contains("line 8"), "the location helps find the problem: {msg}");
    assert!(!msg.contains("s3cr3t"), "{msg}");

    // A malformed file in KUBECONFIG is an error too (only missing files are skipped).
    let good = put(dir.path(), "good", &simple("g", "https://g:1", Some("g")));
    let err = env_rules(&[&good, &bad]).load().unwrap_err();
    assert!(matches!(err, KubeconfigError::Parse { .. }), "{err:?}");
}

#[test]
fn kubeconfig_duplicate_names_in_one_file_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let dup = put(
        dir.path(),
        "dup",
        "clusters:\n- name: c1\n  cluster: {server: https://a:1}\n- name: c1\n  cluster: {server: https://b:1}\n",
    );
    let err = LoadRules::default().with_explicit_path(&dup).load().unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("the kubeconfig file \"{}\" defines cluster \"c1\" more than once", dup.display())
    );
}

#[test]
fn kubeconfig_empty_file_loads_as_empty_config() {
    let dir = tempfile::tempdir().unwrap();
    let empty = put(dir.path(), "empty", "");
    let loaded = LoadRules::default().with_explicit_path(&empty).load().unwrap();
    assert!(loaded.config().contexts.is_empty());
    assert!(matches!(loaded.resolve(None), Err(KubeconfigError::NoCurrentContext { .. })));
}

#[test]
fn kubeconfig_env_duplicates_are_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let a = put(dir.path(), "a", &simple("a", "https://a:1", Some("a")));
    let loaded = env_rules(&[&a, &a]).load().unwrap();
    assert_eq!(loaded.files().len(), 1);
}

#[test]
fn kubeconfig_loaded_debug_shows_no_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let a = put(dir.path(), "a", &simple("a", "https://a:1", Some("a")));
    let loaded = LoadRules::default().with_explicit_path(&a).load().unwrap();
    let debug = format!("{loaded:?}");
    assert!(debug.contains("\"a\""), "{debug}");
    assert!(!debug.contains("token-a"), "{debug}");
}

#[test]
fn kubeconfig_unreadable_file_is_an_error_naming_it() {
    // A directory stands in for an unreadable file: tests may run as root, where permission
    // bits do not stop reads.
    let dir = tempfile::tempdir().unwrap();
    let not_a_file = dir.path().join("config.d");
    std::fs::create_dir(&not_a_file).unwrap();
    let err = env_rules(&[&not_a_file]).load().unwrap_err();
    assert!(matches!(err, KubeconfigError::Read { .. }), "{err:?}");
    assert_eq!(err.to_string(), format!("cannot read the kubeconfig file \"{}\"", not_a_file.display()));
    assert!(std::error::Error::source(&err).is_some(), "the OS error is kept as the cause");
}
