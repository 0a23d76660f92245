//! `karmadactl join` against a real Karmada plane and simulated members (`controlplane serve
//! --profile kubernetes`): the objects §5 of the upstream reference lists, duplicate refusal,
//! dry runs, connection failures that leave the plane untouched, and rollback.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common;
use crate::common::Run;
use crate::common::plane::Plane;
use base64::Engine as _;
use serde_json::{Value, json};

fn member(name: &str) -> Plane {
    Plane::start_with(&["--profile", "kubernetes", "--kubeconfig-context", name])
}

/// `karmadactl join <name> --kubeconfig <plane> --cluster-kubeconfig <member kubeconfig> <extra>`.
fn join(plane: &Plane, name: &str, member_kubeconfig: &Path, extra: &[&str]) -> Run {
    let mut cmd = common::karmadactl(plane.dir.path());
    cmd.args(["join", name, "--kubeconfig"])
        .arg(&plane.kubeconfig)
        .arg("--cluster-kubeconfig")
        .arg(member_kubeconfig)
        .args(extra);
    common::run(cmd)
}

/// `kubectl get <args> -o json`, or `None` when the object does not exist.
fn get(cluster: &Plane, args: &[&str]) -> Option<Value> {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "json", "--ignore-not-found"]);
    let out = cluster.kubectl_ok(&all);
    (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
}

fn must_get(cluster: &Plane, args: &[&str]) -> Value {
    get(cluster, args).unwrap_or_else(|| panic!("{args:?} exists"))
}

/// `kubectl get <list args> -o json` (an empty list too).
fn list(cluster: &Plane, args: &[&str]) -> Value {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "json"]);
    serde_json::from_str(&cluster.kubectl_ok(&all)).expect("kubectl prints JSON")
}

fn names(cluster: &Plane, args: &[&str]) -> Vec<String> {
    let v = list(cluster, args);
    v["items"].as_array().unwrap().iter().map(|i| i["metadata"]["name"].as_str().unwrap().to_string()).collect()
}

fn decoded(secret: &Value, key: &str) -> Vec<u8> {
    let text = secret["data"][key].as_str().unwrap_or_else(|| panic!("data.{key} in {secret}"));
    base64::engine::general_purpose::STANDARD.decode(text).unwrap()
}

fn system_label(obj: &Value) -> Option<&str> {
    obj["metadata"]["labels"]["karmada.io/system"].as_str()
}

/// The resourceVersions of everything join touches on both sides, to show a refused join
/// changed nothing.
fn versions(plane: &Plane, members: &[&Plane]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut add = |prefix: &str, list: Value| {
        for item in list["items"].as_array().unwrap() {
            let key = format!(
                "{prefix}/{}/{}/{}",
                item["kind"].as_str().unwrap_or_default(),
                item["metadata"]["namespace"].as_str().unwrap_or_default(),
                item["metadata"]["name"].as_str().unwrap()
            );
            out.insert(key, item["metadata"]["resourceVersion"].as_str().unwrap().to_string());
        }
    };
    add("plane", list(plane, &["clusters,namespaces"]));
    add("plane", list(plane, &["secrets,serviceaccounts", "-A"]));
    for (i, m) in members.iter().enumerate() {
        add(&format!("member{i}"), list(m, &["namespaces,clusterroles,clusterrolebindings"]));
        add(&format!("member{i}"), list(m, &["secrets,serviceaccounts", "-A"]));
    }
    out
}

#[test]
fn join_creates_the_member_and_plane_objects_and_refuses_duplicates() {
    let plane = Plane::start();
    let m1 = member("member1");
    let m2 = member("member2");

    // A dry run reads both sides, prints the plan and creates nothing anywhere.
    let before = versions(&plane, &[&m1]);
    let dry = join(&plane, "member1", &m1.kubeconfig, &["--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let lines: Vec<&str> = dry.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "namespace/karmada-cluster would be created in the member cluster",
            "serviceaccount/karmada-impersonator would be created in namespace karmada-cluster in the member cluster",
            "serviceaccount/karmada-member1 would be created in namespace karmada-cluster in the member cluster",
            "clusterrole.rbac.authorization.k8s.io/karmada-controller-manager:karmada-member1 would be created in the member cluster",
            "clusterrolebinding.rbac.authorization.k8s.io/karmada-controller-manager:karmada-member1 would be created in the member cluster",
            "secret/karmada-impersonator would be created in namespace karmada-cluster in the member cluster",
            "secret/karmada-member1 would be created in namespace karmada-cluster in the member cluster",
            "namespace/karmada-cluster would be created in the Karmada control plane",
            "secret/member1-impersonator would be created in namespace karmada-cluster in the Karmada control plane",
            "secret/member1 would be created in namespace karmada-cluster in the Karmada control plane",
            "cluster.cluster.karmada.io/member1 would be created in the Karmada control plane",
        ]
    );
    assert_eq!(versions(&plane, &[&m1]), before, "a dry run changes nothing");
    assert!(get(&m1, &["namespace", "karmada-cluster"]).is_none());
    assert!(get(&plane, &["namespace", "karmada-cluster"]).is_none());

    let out = join(&plane, "member1", &m1.kubeconfig, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "cluster(member1) is joined successfully\n");

    // Member side.
    let ns = must_get(&m1, &["namespace", "karmada-cluster"]);
    assert_eq!(system_label(&ns), Some("true"));
    for sa in ["karmada-impersonator", "karmada-member1"] {
        let obj = must_get(&m1, &["serviceaccount", sa, "-n", "karmada-cluster"]);
        assert_eq!(system_label(&obj), Some("true"), "{sa}");
    }
    let role_name = "karmada-controller-manager:karmada-member1";
    let role = must_get(&m1, &["clusterrole", role_name]);
    assert_eq!(system_label(&role), Some("true"));
    assert_eq!(
        role["rules"],
        json!([
            {"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]},
            {"nonResourceURLs": ["*"], "verbs": ["get"]},
        ])
    );
    let binding = must_get(&m1, &["clusterrolebinding", role_name]);
    assert_eq!(system_label(&binding), Some("true"));
    assert_eq!(
        binding["roleRef"],
        json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role_name})
    );
    assert_eq!(
        binding["subjects"],
        json!([{"kind": "ServiceAccount", "name": "karmada-member1", "namespace": "karmada-cluster"}])
    );
    let member_secret = |name: &str| {
        let s = must_get(&m1, &["secret", name, "-n", "karmada-cluster"]);
        assert_eq!(s["type"], "kubernetes.io/service-account-token");
        assert_eq!(s["metadata"]["annotations"]["kubernetes.io/service-account.name"], name);
        assert!(!decoded(&s, "token").is_empty());
        s
    };
    let own_token = member_secret("karmada-member1");
    let impersonator_token = member_secret("karmada-impersonator");

    // Plane side.
    let cluster = must_get(&plane, &["cluster", "member1"]);
    let kube_system_uid = must_get(&m1, &["namespace", "kube-system"])["metadata"]["uid"].clone();
    assert_eq!(
        cluster["spec"],
        json!({
            "syncMode": "Push",
            "apiEndpoint": m1.url,
            "id": kube_system_uid,
            "secretRef": {"namespace": "karmada-cluster", "name": "member1"},
            "impersonatorSecretRef": {"namespace": "karmada-cluster", "name": "member1-impersonator"},
        })
    );
    assert_eq!(system_label(&must_get(&plane, &["namespace", "karmada-cluster"])), Some("true"));
    let owner = json!([{
        "apiVersion": "cluster.karmada.io/v1alpha1",
        "kind": "Cluster",
        "name": "member1",
        "uid": cluster["metadata"]["uid"],
        "controller": true,
        "blockOwnerDeletion": true,
    }]);
    let secret = must_get(&plane, &["secret", "member1", "-n", "karmada-cluster"]);
    assert_eq!(system_label(&secret), Some("true"));
    assert_eq!(secret["metadata"]["ownerReferences"], owner);
    let keys: Vec<&String> = secret["data"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["caBundle", "token"]);
    assert_eq!(decoded(&secret, "token"), decoded(&own_token, "token"));
    assert_eq!(decoded(&secret, "caBundle"), decoded(&own_token, "ca.crt"));
    assert_eq!(String::from_utf8(decoded(&secret, "caBundle")).unwrap(), m1.ca_pem());
    let imp = must_get(&plane, &["secret", "member1-impersonator", "-n", "karmada-cluster"]);
    assert_eq!(system_label(&imp), Some("true"));
    assert_eq!(imp["metadata"]["ownerReferences"], owner);
    let keys: Vec<&String> = imp["data"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["token"]);
    assert_eq!(decoded(&imp, "token"), decoded(&impersonator_token, "token"));

    // A second member with the optional attributes.
    let out = join(
        &plane,
        "member2",
        &m2.kubeconfig,
        &["--cluster-provider", "acme", "--cluster-region", "eu-1", "--cluster-zones", "z1,z2"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let spec = &must_get(&plane, &["cluster", "member2"])["spec"];
    assert_eq!(
        (&spec["provider"], &spec["region"], &spec["zones"]),
        (&json!("acme"), &json!("eu-1"), &json!(["z1", "z2"]))
    );
    assert_eq!(spec["apiEndpoint"], m2.url.as_str());

    let table = plane.kubectl_ok(&["get", "clusters"]);
    let listed: Vec<&str> = table.lines().skip(1).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(listed, ["member1", "member2"], "{table}");

    // Again, under the same name; under a new name with the same member (same kube-system
    // uid); and another member under a taken name: all refused, nothing changes.
    let before = versions(&plane, &[&m1, &m2]);
    let m1_uid = kube_system_uid.as_str().unwrap();
    let m2_uid = must_get(&m2, &["namespace", "kube-system"])["metadata"]["uid"].as_str().unwrap().to_string();
    for (name, kubeconfig, id) in [
        ("member1", &m1.kubeconfig, m1_uid),
        ("member3", &m1.kubeconfig, m1_uid),
        ("member1", &m2.kubeconfig, m2_uid.as_str()),
    ] {
        let out = join(&plane, name, kubeconfig, &[]);
        assert_eq!(out.code, 1, "join {name} with {}: {}", kubeconfig.display(), out.stdout);
        assert!(
            out.stderr
                .starts_with(&format!("error: the cluster ID {id} or the cluster name {name} has been registered\n")),
            "{}",
            out.stderr
        );
        assert_eq!(out.stdout, "");
    }
    assert_eq!(versions(&plane, &[&m1, &m2]), before, "refused joins change nothing");
    assert_eq!(names(&plane, &["clusters"]), ["member1", "member2"]);
}

/// A copy of `kubeconfig` with the first line starting with `key:` given `value`.
fn edited_kubeconfig(dir: &Path, name: &str, kubeconfig: &Path, edits: &[(&str, String)]) -> PathBuf {
    let mut text = std::fs::read_to_string(kubeconfig).unwrap();
    for (key, value) in edits {
        let line = text.lines().find(|l| l.trim_start().starts_with(&format!("{key}:"))).expect("key in kubeconfig");
        let indent = &line[..line.len() - line.trim_start().len()];
        text = text.replacen(line, &format!("{indent}{key}: {value}"), 1);
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn b64(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// The plane holds nothing join would have made.
fn assert_plane_untouched(plane: &Plane) {
    assert_eq!(names(plane, &["clusters"]), Vec::<String>::new());
    assert!(get(plane, &["namespace", "karmada-cluster"]).is_none());
    let secrets = list(plane, &["secrets", "-A", "-l", "karmada.io/system=true"]);
    assert_eq!(secrets["items"], json!([]));
}

#[test]
fn join_fails_before_touching_the_plane_when_the_member_cannot_be_reached() {
    let plane = Plane::start();
    let m1 = member("member1");
    let dir = tempfile::tempdir().unwrap();

    // The member's kubeconfig with another cluster's CA.
    let wrong_ca = edited_kubeconfig(
        dir.path(),
        "wrong-ca",
        &m1.kubeconfig,
        &[("certificate-authority-data", b64(&plane.ca_pem()))],
    );
    let out = join(&plane, "member1", &wrong_ca, &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with(&format!(
            "error: the member cluster's certificate is not signed by the CA in {}",
            wrong_ca.display()
        )),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("\nhint: "), "{}", out.stderr);
    assert_plane_untouched(&plane);

    // A client certificate signed by the member's CA that expired yesterday.
    let ca = karmadactl_pki::CertificateAuthority::from_pem(
        &std::fs::read_to_string(m1.data_dir.join("pki/ca.crt")).unwrap(),
        &std::fs::read_to_string(m1.data_dir.join("pki/ca.key")).unwrap(),
    )
    .unwrap();
    let now = jiff::Timestamp::now();
    let validity = karmadactl_pki::Validity::new(
        now - jiff::SignedDuration::from_hours(48),
        now - jiff::SignedDuration::from_hours(24),
    )
    .unwrap();
    let spec = karmadactl_pki::LeafSpec::client("member1-admin", vec!["system:masters".into()], validity);
    let cert = ca.issue(&spec).unwrap();
    let expired = edited_kubeconfig(
        dir.path(),
        "expired",
        &m1.kubeconfig,
        &[("client-certificate-data", b64(&cert.cert_pem)), ("client-key-data", b64(&cert.key_pem()))],
    );
    let out = join(&plane, "member1", &expired, &[]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("client certificate expired"), "{}", out.stderr);
    assert!(out.stderr.contains(&expired.display().to_string()), "{}", out.stderr);
    assert_plane_untouched(&plane);

    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = format!("https://127.0.0.1:{port}");
    let closed = edited_kubeconfig(dir.path(), "closed", &m1.kubeconfig, &[("server", server.clone())]);
    let out = join(&plane, "member1", &closed, &[]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.starts_with(&format!("error: cannot reach {server}: connection refused\n")), "{}", out.stderr);
    assert_plane_untouched(&plane);

    // Credentials the member does not know (401), and an account without rights there (403).
    let token_kubeconfig = |name: &str, token: &str| {
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: m\n  cluster:\n    server: {}\n    certificate-authority-data: {}\nusers:\n- name: u\n  user:\n    token: {token}\ncontexts:\n- name: m\n  context:\n    cluster: m\n    user: u\ncurrent-context: m\n",
            m1.url,
            b64(&m1.ca_pem())
        );
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let unknown = token_kubeconfig("unknown-token", "not-a-token-the-member-issued");
    let out = join(&plane, "member1", &unknown, &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with(&format!(
            "error: the member cluster at {} did not accept the credentials of user u in {} (401 Unauthorized)\n",
            m1.url,
            unknown.display()
        )),
        "{}",
        out.stderr
    );
    assert_plane_untouched(&plane);

    m1.kubectl_ok(&["create", "serviceaccount", "nobody", "-n", "default"]);
    m1.create(
        &json!({"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/service-account-token",
                "metadata": {"name": "nobody", "namespace": "default",
                             "annotations": {"kubernetes.io/service-account.name": "nobody"}}})
        .to_string(),
    );
    let token = wait_for_token(&m1, "default", "nobody");
    let powerless = token_kubeconfig("powerless", &token);
    let out = join(&plane, "member1", &powerless, &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: reading namespace kube-system in the member cluster was forbidden (403)"),
        "{}",
        out.stderr
    );
    assert_plane_untouched(&plane);

    // None of these wrote to the member either.
    assert!(get(&m1, &["namespace", "karmada-cluster"]).is_none());
}

/// The token the member's token controller puts into a service-account token Secret.
fn wait_for_token(cluster: &Plane, ns: &str, name: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        if let Some(secret) = get(cluster, &["secret", name, "-n", ns])
            && secret["data"]["token"].is_string()
        {
            return String::from_utf8(decoded(&secret, "token")).unwrap();
        }
        assert!(std::time::Instant::now() < deadline, "no token in secret {ns}/{name}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_plane_side_failure_removes_what_the_run_created() {
    let plane = Plane::start();
    let m1 = member("member1");
    // A user who may make the namespace and the Secrets but not the Cluster; join impersonates
    // it with --karmada-as.
    plane.create(
        &json!({
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRole",
            "metadata": {"name": "no-clusters"},
            "rules": [
                {"apiGroups": [""], "resources": ["namespaces", "secrets"], "verbs": ["get", "list", "create", "delete", "patch"]},
                {"apiGroups": ["cluster.karmada.io"], "resources": ["clusters"], "verbs": ["get", "list"]},
            ],
        })
        .to_string(),
    );
    plane.create(
        &json!({
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": "no-clusters"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "no-clusters"},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "limited"}],
        })
        .to_string(),
    );
    // The plane's authorizer follows RBAC objects asynchronously; wait until the grant shows.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while plane.kubectl_run(&["get", "clusters", "--as", "limited"]).code != 0 {
        assert!(std::time::Instant::now() < deadline, "the role for user limited never took effect");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let out = join(&plane, "member1", &m1.kubeconfig, &["--karmada-as", "limited"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stderr.contains("creating cluster member1 in the Karmada control plane was forbidden"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("were removed again"), "{}", out.stderr);
    assert_plane_untouched(&plane);

    // The same join as the administrator succeeds; the member-side objects are reused.
    let out = join(&plane, "member1", &m1.kubeconfig, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(names(&plane, &["clusters"]), ["member1"]);
}

#[test]
fn join_shows_the_wait_for_a_silent_member_on_a_terminal_only() {
    let plane = Plane::start();
    let dir = tempfile::tempdir().unwrap();
    // Accepts connections (the kernel's backlog) and never answers them.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("https://{}", silent.local_addr().unwrap());
    let member = edited_kubeconfig(dir.path(), "silent", &plane.kubeconfig, &[("server", server.clone())]);
    let waiting = format!("contacting member cluster member1 at {server}");

    // On a terminal (script(1) gives the command a pty): the wait is shown while it lasts.
    let command = format!(
        "'{}' join member1 --kubeconfig '{}' --cluster-kubeconfig '{}'",
        common::bin().display(),
        plane.kubeconfig.display(),
        member.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("HOME", dir.path())
        .env_remove("KUBECONFIG")
        .output()
        .expect("script(1) runs");
    let tty = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{tty}");
    assert!(tty.contains(&waiting), "{tty}");
    assert!(tty.contains("error: "), "{tty}");
    assert_plane_untouched(&plane);

    // Piped: nothing but the error, as upstream prints.
    let piped = join(&plane, "member1", &member, &[]);
    assert_eq!(piped.code, 1, "{}", piped.stderr);
    assert!(!piped.stderr.contains("contacting"), "{}", piped.stderr);
    assert!(piped.stderr.starts_with("error: "), "{}", piped.stderr);
    assert_eq!(piped.stdout, "");
    drop(silent);
}
