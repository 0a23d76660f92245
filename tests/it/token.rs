//! `karmadactl token create|list|delete` against a real Karmada plane, checked with kubectl:
//! the Secret's fields, the register command (its endpoint and the CA pin, computed here with
//! openssl), the cluster-info signature, authentication with the token, the token cleaner, and
//! bad input that changes nothing.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;
use crate::common::Run;
use crate::common::plane::Plane;
use base64::Engine as _;
use serde_json::Value;

const DEFAULT_GROUP: &str = "system:bootstrappers:karmada:default-cluster-token";

/// `karmadactl token <args> --kubeconfig <plane>`.
fn token(plane: &Plane, args: &[&str]) -> Run {
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.arg("token").args(args).arg("--kubeconfig").arg(&plane.kubeconfig);
    common::run(cmd)
}

fn token_ok(plane: &Plane, args: &[&str]) -> String {
    let out = token(plane, args);
    assert_eq!(out.code, 0, "token {args:?} failed:\nstdout: {}\nstderr: {}", out.stdout, out.stderr);
    out.stdout
}

/// The data of `kube-system/bootstrap-token-<id>`, decoded, or `None` when it does not exist.
fn secret(plane: &Plane, id: &str) -> Option<(Value, BTreeMap<String, String>)> {
    let name = format!("bootstrap-token-{id}");
    let out = plane.kubectl_ok(&["get", "secret", &name, "-n", "kube-system", "-o", "json", "--ignore-not-found"]);
    if out.trim().is_empty() {
        return None;
    }
    let object: Value = serde_json::from_str(&out).unwrap();
    let data = object["data"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let bytes = base64::engine::general_purpose::STANDARD.decode(v.as_str().unwrap()).unwrap();
            (k.clone(), String::from_utf8(bytes).unwrap())
        })
        .collect();
    Some((object, data))
}

/// Names of the bootstrap token Secrets in the plane.
fn token_secrets(plane: &Plane) -> Vec<String> {
    let out = plane.kubectl_ok(&[
        "get",
        "secrets",
        "-n",
        "kube-system",
        "--field-selector",
        "type=bootstrap.kubernetes.io/token",
        "-o",
        "jsonpath={.items[*].metadata.name}",
    ]);
    out.split_whitespace().map(str::to_string).collect()
}

/// The keys of `kube-public/cluster-info`'s data.
fn cluster_info_keys(plane: &Plane) -> Vec<String> {
    let out = plane.kubectl_ok(&["get", "configmap", "cluster-info", "-n", "kube-public", "-o", "json"]);
    let cm: Value = serde_json::from_str(&out).unwrap();
    cm["data"].as_object().unwrap().keys().cloned().collect()
}

/// Polls `check` until it holds, failing with `what` after a generous deadline.
fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A kubeconfig for the plane whose user authenticates with `bearer` only.
fn token_kubeconfig(plane: &Plane, bearer: &str) -> std::path::PathBuf {
    let ca = base64::engine::general_purpose::STANDARD.encode(plane.ca_pem());
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: plane\n  cluster:\n    server: {}\n    certificate-authority-data: {ca}\nusers:\n- name: bootstrap\n  user:\n    token: {bearer}\ncontexts:\n- name: bootstrap\n  context:\n    cluster: plane\n    user: bootstrap\ncurrent-context: bootstrap\n",
        plane.url
    );
    plane.file(&format!("bootstrap-{}.kubeconfig", &bearer[..6]), &text)
}

/// `sha256:<hex>` of the CA's SubjectPublicKeyInfo, computed by openssl as kubeadm documents.
fn openssl_ca_hash(ca_pem: &str, dir: &Path) -> String {
    let ca = dir.join("ca-for-hash.crt");
    std::fs::write(&ca, ca_pem).unwrap();
    let script =
        format!("openssl x509 -pubkey -noout -in '{}' | openssl pkey -pubin -outform der | sha256sum", ca.display());
    let out = Command::new("bash").args(["-o", "pipefail", "-c", &script]).output().expect("bash runs");
    assert!(out.status.success(), "openssl failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    format!("sha256:{}", text.split_whitespace().next().unwrap())
}

fn is_token(s: &str) -> bool {
    let ok = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase());
    s.split_once('.').is_some_and(|(id, secret)| ok(id, 6) && ok(secret, 16))
}

#[test]
fn create_writes_the_secret_the_token_authenticates_and_list_shows_it() {
    let plane = Plane::start();
    let before = jiff::Timestamp::now();
    let default = token_ok(&plane, &["create"]);
    let default = default.trim().to_string();
    assert!(is_token(&default), "stdout is the token alone: {default:?}");
    let id = &default[..6];

    let (object, data) = secret(&plane, id).expect("the Secret exists");
    assert_eq!(object["type"], "bootstrap.kubernetes.io/token");
    assert!(object["metadata"]["labels"].is_null(), "no labels: {object}");
    let keys: Vec<&str> = data.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "auth-extra-groups",
            "expiration",
            "token-id",
            "token-secret",
            "usage-bootstrap-authentication",
            "usage-bootstrap-signing"
        ]
    );
    assert_eq!(data["token-id"], id);
    assert_eq!(data["token-secret"], &default[7..]);
    assert_eq!(data["auth-extra-groups"], DEFAULT_GROUP);
    assert_eq!(data["usage-bootstrap-signing"], "true");
    assert_eq!(data["usage-bootstrap-authentication"], "true");
    let expiration: jiff::Timestamp = data["expiration"].parse().expect("RFC 3339");
    assert!(data["expiration"].ends_with('Z'), "UTC: {}", data["expiration"]);
    let ttl = expiration.duration_since(before).as_secs();
    assert!((24 * 3600 - 60..=24 * 3600).contains(&ttl), "expires 24h after creation, got {ttl}s");

    let flagged = token_ok(
        &plane,
        &[
            "create",
            "--ttl",
            "0",
            "--usages",
            "authentication",
            "--groups",
            "system:bootstrappers:team-a,system:bootstrappers:team-b",
            "--description",
            "for member1",
        ],
    );
    let flagged = flagged.trim().to_string();
    let (_, data) = secret(&plane, &flagged[..6]).expect("the Secret exists");
    let keys: Vec<&str> = data.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["auth-extra-groups", "description", "token-id", "token-secret", "usage-bootstrap-authentication"]
    );
    assert_eq!(data["auth-extra-groups"], "system:bootstrappers:team-a,system:bootstrappers:team-b");
    assert_eq!(data["description"], "for member1");

    // The token is a credential of the plane: it authenticates as system:bootstrap:<id>.
    let kc = token_kubeconfig(&plane, &flagged);
    let who = plane.kubectl_as(&kc, &["auth", "whoami", "-o", "json"]);
    assert_eq!(who.code, 0, "{}", who.stderr);
    let who: Value = serde_json::from_str(&who.stdout).unwrap();
    assert_eq!(who["status"]["userInfo"]["username"], format!("system:bootstrap:{}", &flagged[..6]));
    let groups = who["status"]["userInfo"]["groups"].as_array().unwrap();
    assert!(groups.iter().any(|g| g == "system:bootstrappers:team-a"), "{groups:?}");
    // A wrong secret for the same ID is refused.
    let forged = format!("{}.0000000000000000", &flagged[..6]);
    let refused = plane.kubectl_as(&token_kubeconfig(&plane, &forged), &["get", "configmaps"]);
    assert_ne!(refused.code, 0);
    assert!(refused.stderr.contains("You must be logged in to the server"), "{}", refused.stderr);

    // The table: upstream's header, one row per token.
    let table = token_ok(&plane, &["list"]);
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split("   ").map(str::trim).filter(|s| !s.is_empty()).collect();
    assert_eq!(header, ["TOKEN", "TTL", "EXPIRES", "USAGES", "DESCRIPTION", "EXTRA GROUPS"]);
    let rows: BTreeMap<String, Vec<String>> = lines
        .map(|l| {
            let cells: Vec<String> = l.split_whitespace().map(str::to_string).collect();
            (cells[0].clone(), cells)
        })
        .collect();
    assert_eq!(rows.len(), 2, "{table}");
    let row = &rows[&default];
    assert_eq!(row[1], "23h", "{table}");
    assert_eq!(row[2], data_expiration(&plane, id));
    assert_eq!(row[3], "authentication,signing");
    assert_eq!(row[4], "<none>");
    assert_eq!(row[5], DEFAULT_GROUP);
    let row = &rows[&flagged];
    assert_eq!(
        row[1..],
        [
            "<forever>",
            "<never>",
            "authentication",
            "for",
            "member1",
            "system:bootstrappers:team-a,system:bootstrappers:team-b"
        ]
    );

    // -o json: a v1 List of kubeadm's BootstrapToken objects.
    let json: Value = serde_json::from_str(&token_ok(&plane, &["list", "-o", "json"])).unwrap();
    assert_eq!(json["kind"], "List");
    let items = json["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    let item = items.iter().find(|i| i["token"] == flagged.as_str()).expect("the flagged token is listed");
    assert_eq!(item["kind"], "BootstrapToken");
    assert_eq!(item["description"], "for member1");
    assert_eq!(item["usages"], serde_json::json!(["authentication"]));
    assert!(item.get("expires").is_none(), "{item}");
    let item = items.iter().find(|i| i["token"] == default.as_str()).expect("the default token is listed");
    assert_eq!(item["expires"], data_expiration(&plane, id).as_str());
    assert_eq!(item["groups"], serde_json::json!([DEFAULT_GROUP]));
    let yaml = token_ok(&plane, &["list", "-o", "yaml"]);
    assert!(yaml.contains(&format!("token: {flagged}")), "{yaml}");
}

fn data_expiration(plane: &Plane, id: &str) -> String {
    secret(plane, id).unwrap().1["expiration"].clone()
}

#[test]
fn register_command_names_the_plane_and_its_ca_and_the_token_is_signed_until_deleted() {
    let plane = Plane::start();
    let expected_hash = openssl_ca_hash(&plane.ca_pem(), plane.dir.path());
    let endpoint = plane.url.strip_prefix("https://").unwrap();

    // With --kubeconfig, and with only KUBECONFIG set (upstream needs the flag).
    let flag = token_ok(&plane, &["create", "--print-register-command"]);
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.args(["token", "create", "--print-register-command"]).env("KUBECONFIG", &plane.kubeconfig);
    let env = common::run(cmd);
    assert_eq!(env.code, 0, "{}", env.stderr);
    for out in [&flag, &env.stdout] {
        let words: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(words.len(), 9, "{out}");
        assert_eq!(words[..3], ["karmadactl", "register", endpoint], "{out}");
        assert_eq!(words[3], "--token");
        assert!(is_token(words[4]), "{out}");
        assert_eq!(words[5], "--discovery-token-ca-cert-hash");
        assert_eq!(words[6], expected_hash, "{out}");
        // The plane listens on 127.0.0.1: no Pod could reach it, so the agent runs here.
        assert_eq!(words[7..], ["--agent-mode", "local"], "{out}");
    }
    let first = flag.split_whitespace().nth(4).unwrap().to_string();
    let second = env.stdout.split_whitespace().nth(4).unwrap().to_string();
    assert_ne!(first, second);

    // The command returns once the bootstrap signer has signed cluster-info for the token, so
    // the printed command works at once; deleting a token drops its signature.
    let (a, b) = (&first[..6], &second[..6]);
    assert_eq!(env.stderr, "", "no warning about a missing signature");
    let keys = cluster_info_keys(&plane);
    assert!(keys.contains(&format!("jws-kubeconfig-{a}")) && keys.contains(&format!("jws-kubeconfig-{b}")), "{keys:?}");
    assert_eq!(token_ok(&plane, &["delete", a]), format!("bootstrap token \"{a}\" deleted\n"));
    assert!(secret(&plane, a).is_none());
    eventually("the deleted token's signature is gone", || {
        !cluster_info_keys(&plane).contains(&format!("jws-kubeconfig-{a}"))
    });
    assert!(cluster_info_keys(&plane).contains(&format!("jws-kubeconfig-{b}")));
}

#[test]
fn delete_by_id_and_full_token_and_refuses_unknown_or_malformed_ones() {
    let plane = Plane::start();
    let one = token_ok(&plane, &["create"]).trim().to_string();
    let two = token_ok(&plane, &["create"]).trim().to_string();
    let three = token_ok(&plane, &["create"]).trim().to_string();
    let all = {
        let mut v = vec![format!("bootstrap-token-{}", &one[..6]), format!("bootstrap-token-{}", &two[..6])];
        v.push(format!("bootstrap-token-{}", &three[..6]));
        v.sort();
        v
    };
    assert_eq!(token_secrets(&plane), all);

    // An unknown ID among known ones: an error, and nothing is deleted.
    let missing = token(&plane, &["delete", &one[..6], "zzzzzz"]);
    assert_eq!(missing.code, 1, "{}", missing.stderr);
    assert!(
        missing.stderr.contains("secrets \"bootstrap-token-zzzzzz\" not found"),
        "names the missing token: {}",
        missing.stderr
    );
    assert!(missing.stderr.contains("hint:"), "{}", missing.stderr);
    assert_eq!(missing.stdout, "");
    assert_eq!(token_secrets(&plane), all);

    // Malformed arguments are refused before the kubeconfig is even read.
    for bad in ["ABCDEF", "abc", "abcdef.short", "abcdef.0123456789abcdeF"] {
        let mut cmd = common::karmadactl(plane.dir.path());
        cmd.args(["token", "delete", &one[..6], bad, "--kubeconfig", "/nonexistent/kubeconfig"]);
        let out = common::run(cmd);
        assert_eq!(out.code, 1, "{bad}: {}", out.stderr);
        assert!(out.stderr.contains("given token didn't match pattern"), "{bad}: {}", out.stderr);
        assert!(!out.stderr.contains("nonexistent"), "{bad}: checked before the kubeconfig: {}", out.stderr);
    }
    assert_eq!(token_secrets(&plane), all);

    // By ID and by full token, in one command.
    let out = token_ok(&plane, &["delete", &one[..6], &two]);
    assert_eq!(out, format!("bootstrap token \"{}\" deleted\nbootstrap token \"{}\" deleted\n", &one[..6], &two[..6]));
    assert_eq!(token_secrets(&plane), [format!("bootstrap-token-{}", &three[..6])]);

    // Deleting it again: not found.
    let again = token(&plane, &["delete", &one]);
    assert_eq!(again.code, 1);
    assert!(again.stderr.contains(&format!("bootstrap-token-{}\" not found", &one[..6])), "{}", again.stderr);

    // A malformed token Secret is reported on stderr and skipped; the list still succeeds.
    plane.kubectl_ok(&[
        "create",
        "secret",
        "generic",
        "bootstrap-token-badbad",
        "-n",
        "kube-system",
        "--type",
        "bootstrap.kubernetes.io/token",
        "--from-literal",
        "token-id=badbad",
    ]);
    let listed = token(&plane, &["list"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(listed.stderr.contains("bootstrap-token-badbad"), "{}", listed.stderr);
    let tokens: Vec<&str> = listed.stdout.lines().skip(1).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(tokens, [three.as_str()]);
}

#[test]
fn bad_ttl_usages_or_groups_create_nothing() {
    let plane = Plane::start();
    let cases: [(&[&str], &str); 5] = [
        (&["--ttl", "forever"], "invalid value \"forever\" for --ttl"),
        (&["--ttl", "-1h"], "must not be negative"),
        (&["--usages", "signing,admin"], "invalid bootstrap token usage string: admin"),
        (&["--groups", "system:masters"], "bootstrap group \"system:masters\" is invalid"),
        (&["--groups", "system:bootstrappers:Team"], "bootstrap group \"system:bootstrappers:Team\" is invalid"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["create"];
        args.extend_from_slice(flags);
        let out = token(&plane, &args);
        assert_eq!(out.code, 1, "{flags:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{flags:?}: {}", out.stderr);
        assert!(out.stderr.contains("hint:"), "{flags:?}: {}", out.stderr);
        assert_eq!(out.stdout, "");
    }
    assert_eq!(token_secrets(&plane), Vec::<String>::new());
    let bad_output = token(&plane, &["list", "-o", "wide"]);
    assert_eq!(bad_output.code, 1);
}

#[test]
fn the_token_cleaner_deletes_expired_tokens_only() {
    let plane = Plane::start();
    let lasting = token_ok(&plane, &["create", "--ttl", "1h"]).trim().to_string();
    // Not a bootstrap token: the cleaner must leave it alone even with an expiration passed.
    plane.create(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: not-a-token\n  namespace: kube-system\ntype: Opaque\nstringData:\n  expiration: \"2000-01-01T00:00:00Z\"\n",
    );
    let short = token_ok(&plane, &["create", "--ttl", "2s"]).trim().to_string();
    let id = &short[..6];
    eventually("the expired token's Secret is deleted", || secret(&plane, id).is_none());
    eventually("the expired token's signature is gone", || {
        !cluster_info_keys(&plane).contains(&format!("jws-kubeconfig-{id}"))
    });
    assert!(secret(&plane, &lasting[..6]).is_some(), "a token with time left stays");
    let other = plane.kubectl_ok(&["get", "secret", "not-a-token", "-n", "kube-system", "-o", "name"]);
    assert_eq!(other.trim(), "secret/not-a-token");
}
