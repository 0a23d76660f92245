//! Kubeconfig writing and merging, judged by the real kubectl 1.32.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use karmadactl::kubeconfig::{
    Kubeconfig, KubeconfigBuilder, LoadRules, LoadedKubeconfig, https_server_url, merge_entries, write_file,
};
use serde_json::Value;

const CA: &str = "-----BEGIN CERTIFICATE-----\nTUlJQmZha2VDQQ==\n-----END CERTIFICATE-----\n";
const CERT: &str = "-----BEGIN CERTIFICATE-----\nTUlJQmNsaWVudA==\n-----END CERTIFICATE-----\n";
const KEY: &str = "-----BEGIN PRIVATE KEY-----\nTUlJRXZrZXk=\n-----END PRIVATE KEY-----\n";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// kubectl.1.32 lives next to the file `kubectl` on PATH resolves to (the Cloud SDK layout).
/// Missing kubectl is a failure, not a skip: these tests are the only check against kubectl.
fn kubectl() -> PathBuf {
    let mut tried = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join("kubectl");
            if let Ok(real) = std::fs::canonicalize(&candidate)
                && let Some(real_dir) = real.parent()
            {
                let versioned = real_dir.join("kubectl.1.32");
                if versioned.is_file() {
                    return versioned;
                }
                tried.push(versioned);
            }
        }
    }
    let fallback = PathBuf::from("/usr/lib/google-cloud-sdk/bin/kubectl.1.32");
    if fallback.is_file() {
        return fallback;
    }
    tried.push(fallback);
    panic!(
        "kubectl.1.32 was not found (looked at {tried:?}); these tests need it to check kubeconfig files. \
         Install the Google Cloud SDK kubectl component (`gcloud components install kubectl`) or put kubectl.1.32 next to kubectl on PATH."
    );
}

/// Runs `kubectl config view --raw -o json` with a private HOME and cache dir, so the user's
/// own ~/.kube/config never takes part. `kubeconfig_env` is KUBECONFIG (or none).
fn kubectl_view(tmp: &Path, args: &[&std::ffi::OsStr], kubeconfig_env: Option<&OsString>) -> Value {
    let home = tmp.join("kubectl-home");
    std::fs::create_dir_all(&home).unwrap();
    let mut cmd = Command::new(kubectl());
    cmd.env_remove("KUBECONFIG").env("HOME", &home).current_dir(&home);
    if let Some(list) = kubeconfig_env {
        cmd.env("KUBECONFIG", list);
    }
    cmd.args(["config", "view", "--raw", "-o", "json"]).args(args).arg("--cache-dir").arg(home.join("cache"));
    let out = cmd.output().expect("kubectl.1.32 could not be started");
    assert!(out.status.success(), "kubectl failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("kubectl printed JSON")
}

fn by_name<'a>(view: &'a Value, list: &str) -> BTreeMap<String, &'a Value> {
    view[list]
        .as_array()
        .map(|items| items.iter().map(|i| (i["name"].as_str().unwrap().to_string(), i)).collect())
        .unwrap_or_default()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn kubeconfig_written_by_builder_is_read_back_by_kubectl() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("data/nested/karmada-apiserver.config");
    let server = https_server_url("172.18.0.2", 32443);
    let kc = KubeconfigBuilder::new("karmada-apiserver", "karmada-admin", server.as_str())
        .context("karmada-apiserver")
        .certificate_authority(CA)
        .client_certificate(CERT, KEY)
        .build();
    write_file(&path, &kc).unwrap();

    assert_eq!(mode(&path), 0o600, "the kubeconfig holds a private key");
    assert_eq!(mode(&tmp.path().join("data")), 0o700);
    assert_eq!(mode(&tmp.path().join("data/nested")), 0o700);

    let view = kubectl_view(tmp.path(), &["--kubeconfig".as_ref(), path.as_os_str()], None);
    assert_eq!(view["current-context"], "karmada-apiserver");
    let clusters = by_name(&view, "clusters");
    assert_eq!(clusters.len(), 1);
    let cluster = &clusters["karmada-apiserver"]["cluster"];
    assert_eq!(cluster["server"], server.as_str());
    assert_eq!(cluster["certificate-authority-data"], b64(CA.as_bytes()).as_str());
    let contexts = by_name(&view, "contexts");
    assert_eq!(contexts["karmada-apiserver"]["context"]["cluster"], "karmada-apiserver");
    assert_eq!(contexts["karmada-apiserver"]["context"]["user"], "karmada-admin");
    let users = by_name(&view, "users");
    let user = &users["karmada-admin"]["user"];
    assert_eq!(user["client-certificate-data"], b64(CERT.as_bytes()).as_str());
    assert_eq!(user["client-key-data"], b64(KEY.as_bytes()).as_str());
}

#[test]
fn kubeconfig_with_token_ipv6_and_yaml11_names_is_read_back_by_kubectl() {
    // Go's YAML 1.1 reader would turn unquoted `on`, `y` or `123` into booleans and numbers and
    // then refuse the file; an IPv6 server needs brackets.
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("config");
    let server = https_server_url("::1", 5443);
    let kc = KubeconfigBuilder::new("on", "y", server.as_str())
        .context("123")
        .certificate_authority(CA)
        .token("abcdef.0123456789abcdef")
        .namespace("no")
        .build();
    write_file(&path, &kc).unwrap();
    let view = kubectl_view(tmp.path(), &["--kubeconfig".as_ref(), path.as_os_str()], None);
    assert_eq!(view["current-context"], "123");
    assert_eq!(by_name(&view, "clusters")["on"]["cluster"]["server"], "https://[::1]:5443");
    let ctx = &by_name(&view, "contexts")["123"]["context"];
    assert_eq!(ctx["cluster"], "on");
    assert_eq!(ctx["user"], "y");
    assert_eq!(ctx["namespace"], "no");
    assert_eq!(by_name(&view, "users")["y"]["user"]["token"], "abcdef.0123456789abcdef");
}

/// A kubeconfig with several entries, written with our writer. `current` may be `Some("")`.
fn multi(entries: &[(&str, &str, &str)], current: Option<&str>) -> Kubeconfig {
    let mut kc = Kubeconfig::default();
    for (name, server, token) in entries {
        let one = KubeconfigBuilder::new(*name, *name, *server).context(*name).token(*token).namespace(*token).build();
        merge_entries(&mut kc, &one, false);
    }
    kc.current_context = current.map(str::to_string);
    kc
}

/// Our loader's view in the same shape as kubectl's: (contexts, clusters, users, current).
type Summary = (BTreeMap<String, (String, String, String)>, BTreeMap<String, String>, BTreeMap<String, String>, String);

fn summarise_ours(loaded: &LoadedKubeconfig) -> Summary {
    let kc = loaded.config();
    let mut contexts = BTreeMap::new();
    for c in &kc.contexts {
        let body = c.context.clone().unwrap();
        contexts
            .insert(c.name.clone(), (body.cluster, body.user.unwrap_or_default(), body.namespace.unwrap_or_default()));
    }
    let clusters = kc
        .clusters
        .iter()
        .map(|c| (c.name.clone(), c.cluster.as_ref().and_then(|c| c.server.clone()).unwrap_or_default()))
        .collect();
    // Tokens come out through the resolver, the way commands will read them.
    let users = kc
        .contexts
        .iter()
        .map(|c| {
            let r = loaded.resolve(Some(&c.name)).unwrap();
            (r.user_name.unwrap(), r.user.token.unwrap())
        })
        .collect();
    (contexts, clusters, users, kc.current_context.clone().unwrap_or_default())
}

fn summarise_kubectl(view: &Value) -> Summary {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let contexts = by_name(view, "contexts")
        .into_iter()
        .map(|(n, c)| (n, (s(&c["context"]["cluster"]), s(&c["context"]["user"]), s(&c["context"]["namespace"]))))
        .collect();
    let clusters = by_name(view, "clusters").into_iter().map(|(n, c)| (n, s(&c["cluster"]["server"]))).collect();
    let users = by_name(view, "users").into_iter().map(|(n, u)| (n, s(&u["user"]["token"]))).collect();
    (contexts, clusters, users, s(&view["current-context"]))
}

#[test]
fn kubeconfig_env_merge_matches_kubectl() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("configs");
    let a = dir.join("a");
    let b = dir.join("b");
    let c = dir.join("c");
    // `shared` is in all three files with different servers, tokens and namespaces.
    write_file(&a, &multi(&[("shared", "https://a:1", "token-a"), ("only-a", "https://a:2", "token-a2")], Some("")))
        .unwrap();
    write_file(
        &b,
        &multi(&[("shared", "https://b:1", "token-b"), ("only-b", "https://b:2", "token-b2")], Some("only-b")),
    )
    .unwrap();
    write_file(&c, &multi(&[("shared", "https://c:1", "token-c")], Some("shared"))).unwrap();
    let missing = dir.join("missing");

    let orders: [&[&Path]; 4] = [&[&a, &missing, &b, &c], &[&b, &a], &[&c, &b, &a], &[&a]];
    for order in orders {
        let list = std::env::join_paths(order).unwrap();
        let rules = LoadRules { explicit_path: None, env_kubeconfig: Some(list.clone()), home: None };
        let ours = summarise_ours(&rules.load().unwrap());
        let theirs = summarise_kubectl(&kubectl_view(tmp.path(), &[], Some(&list)));
        assert_eq!(ours, theirs, "KUBECONFIG={list:?}");
    }

    // And the answers are the ones the rule predicts, so the comparison above is not vacuous.
    let list = std::env::join_paths([&a, &b, &c]).unwrap();
    let ours =
        summarise_ours(&LoadRules { explicit_path: None, env_kubeconfig: Some(list), home: None }.load().unwrap());
    assert_eq!(ours.0["shared"], ("shared".into(), "shared".into(), "token-a".into()));
    assert_eq!(ours.1["shared"], "https://a:1");
    assert_eq!(ours.2["shared"], "token-a");
    assert_eq!(ours.3, "only-b", "a's empty current-context counts as unset");
}

#[test]
fn kubeconfig_relative_ca_path_matches_kubectl_flatten() {
    // kubectl --flatten embeds referenced files, resolving relative paths against the
    // kubeconfig's directory; our resolver must read the same bytes.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cfg");
    std::fs::create_dir_all(dir.join("pki")).unwrap();
    std::fs::write(dir.join("pki/ca.crt"), CA).unwrap();
    std::fs::write(dir.join("pki/client.crt"), CERT).unwrap();
    std::fs::write(dir.join("pki/client.key"), KEY).unwrap();
    let path = dir.join("config");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: Config\ncurrent-context: x\nclusters:\n- name: c\n  cluster:\n    server: https://c:6443\n    \
         certificate-authority: pki/ca.crt\nusers:\n- name: u\n  user:\n    client-certificate: pki/client.crt\n    \
         client-key: pki/client.key\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n",
    )
    .unwrap();

    let view = kubectl_view(tmp.path(), &["--kubeconfig".as_ref(), path.as_os_str(), "--flatten".as_ref()], None);
    let decode = |v: &Value| base64::engine::general_purpose::STANDARD.decode(v.as_str().unwrap()).unwrap();
    let kubectl_ca = decode(&by_name(&view, "clusters")["c"]["cluster"]["certificate-authority-data"]);
    let kubectl_key = decode(&by_name(&view, "users")["u"]["user"]["client-key-data"]);

    let ours = LoadRules::default().with_explicit_path(&path).load().unwrap().resolve(None).unwrap();
    assert_eq!(ours.cluster.certificate_authority_pem.as_deref(), Some(kubectl_ca.as_slice()));
    assert_eq!(ours.user.client_key_pem.as_deref(), Some(kubectl_key.as_slice()));
    assert_eq!(kubectl_ca, CA.as_bytes());
}
