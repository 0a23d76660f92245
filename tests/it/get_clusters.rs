//! `karmadactl get` across clusters and the plane's cluster proxy it reads members through, on
//! a `local up` playground (the plane and two simulated members, one kubeconfig with the
//! contexts karmada-apiserver, member1 and member2). Real kubectl is the judge of the proxy.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;
use crate::common::Run;
use serde_json::Value;

const PROXY: &str = "/apis/cluster.karmada.io/v1alpha1/clusters";

/// A playground in a scratch HOME; brought down when dropped.
struct Playground {
    home: tempfile::TempDir,
    kubeconfig: PathBuf,
}

impl Playground {
    fn up() -> Self {
        let home = tempfile::tempdir().expect("temp dir");
        let dir = home.path().join("playground");
        let mut cmd = common::karmadactl(home.path());
        cmd.args(["local", "up", "--members", "2", "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
        let run = common::run(cmd);
        assert_eq!(run.code, 0, "local up failed: {}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).expect("local up prints JSON");
        let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().expect("a kubeconfig path"));
        Playground { home, kubeconfig }
    }

    fn dir(&self) -> PathBuf {
        self.home.path().join("playground")
    }

    fn karmadactl(&self, args: &[&str]) -> Run {
        let mut cmd = common::karmadactl(self.home.path());
        cmd.args(args).arg("--kubeconfig").arg(&self.kubeconfig);
        common::run(cmd)
    }

    /// `karmadactl get ...`, which must succeed.
    fn get_ok(&self, args: &[&str]) -> Run {
        let mut all = vec!["get"];
        all.extend_from_slice(args);
        let run = self.karmadactl(&all);
        assert_eq!(run.code, 0, "karmadactl {all:?} failed:\nstdout: {}\nstderr: {}", run.stdout, run.stderr);
        run
    }

    fn kubectl_with(&self, kubeconfig: &Path, args: &[&str]) -> Run {
        let mut cmd = Command::new(common::kubectl_binary("1.33"));
        cmd.env_clear()
            .env("HOME", self.home.path())
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .arg("--cache-dir")
            .arg(self.home.path().join("kube-cache"))
            .args(args);
        common::run(cmd)
    }

    fn kubectl(&self, args: &[&str]) -> Run {
        self.kubectl_with(&self.kubeconfig, args)
    }

    /// Waits until the `nobody` service account may `verb` `resource` in the plane (`context` "")
    /// or a member: authorizers follow RBAC objects from the store, so a new binding takes effect
    /// a moment after it is written.
    fn wait_authorized(&self, context: &str, verb: &str, resource: &str, extra: &[&str]) {
        let mut args = vec!["auth", "can-i", verb, resource, "--as=system:serviceaccount:default:nobody"];
        if !context.is_empty() {
            args.extend(["--context", context]);
        }
        args.extend_from_slice(extra);
        common::eventually(&format!("nobody may {verb} {resource} in {context:?}"), || {
            (self.kubectl(&args).stdout.trim() == "yes").then_some(())
        });
    }

    fn kubectl_ok(&self, args: &[&str]) -> String {
        let run = self.kubectl(args);
        assert_eq!(run.code, 0, "kubectl {args:?} failed:\n{}", run.stderr);
        run.stdout
    }

    /// A kubeconfig for a service account of the plane with no rights but its own: a token user
    /// on the plane's cluster entry.
    fn service_account_kubeconfig(&self, name: &str) -> PathBuf {
        self.kubectl_ok(&["create", "serviceaccount", name, "-n", "default"]);
        let token = self.kubectl_ok(&["create", "token", name, "-n", "default"]);
        let cluster = self.kubectl_ok(&[
            "config",
            "view",
            "-o",
            "jsonpath={.contexts[?(@.name==\"karmada-apiserver\")].context.cluster}",
        ]);
        let path = self.home.path().join(format!("{name}.kubeconfig"));
        std::fs::copy(&self.kubeconfig, &path).expect("copy the kubeconfig");
        for args in [
            vec!["config", "set-credentials", name, &format!("--token={}", token.trim())],
            vec!["config", "set-context", name, &format!("--cluster={}", cluster.trim()), &format!("--user={name}")],
            vec!["config", "use-context", name],
        ] {
            let run = self.kubectl_with(&path, &args);
            assert_eq!(run.code, 0, "kubectl {args:?}: {}", run.stderr);
        }
        path
    }
}

impl Drop for Playground {
    fn drop(&mut self) {
        let dir = self.dir();
        let mut cmd = common::karmadactl(self.home.path());
        cmd.args(["local", "down", "--force", "--data-dir", dir.to_str().unwrap()]);
        let _ = common::run(cmd);
    }
}

/// The names in a NamespaceList.
fn namespace_names(list: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(list).expect("a JSON list");
    let mut names: Vec<String> = v["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn the_proxy_forwards_to_the_member_as_the_caller() {
    let pg = Playground::up();
    pg.kubectl_ok(&["--context", "member1", "create", "namespace", "only-in-member1"]);

    // The admin reads member1's namespaces through the plane: the member's list, not the plane's.
    let through = pg.kubectl_ok(&["get", "--raw", &format!("{PROXY}/member1/proxy/api/v1/namespaces")]);
    let direct = pg.kubectl_ok(&["--context", "member1", "get", "namespaces", "-o", "json"]);
    assert_eq!(namespace_names(&through), namespace_names(&direct));
    assert!(namespace_names(&through).contains(&"only-in-member1".to_string()));
    let plane = pg.kubectl_ok(&["get", "namespaces", "-o", "json"]);
    assert!(!namespace_names(&plane).contains(&"only-in-member1".to_string()));
    let other = pg.kubectl_ok(&["get", "--raw", &format!("{PROXY}/member2/proxy/api/v1/namespaces")]);
    assert!(!namespace_names(&other).contains(&"only-in-member1".to_string()));

    // Watches stream through the proxy (the member ends the watch after timeoutSeconds).
    let watch =
        pg.kubectl_ok(&["get", "--raw", &format!("{PROXY}/member1/proxy/api/v1/namespaces?watch=1&timeoutSeconds=1")]);
    let events: Vec<Value> =
        serde_json::Deserializer::from_str(&watch).into_iter::<Value>().map(|e| e.expect("a watch event")).collect();
    assert!(
        events.iter().any(|e| e["type"] == "ADDED" && e["object"]["metadata"]["name"] == "only-in-member1"),
        "{watch}"
    );

    // An unknown cluster is the plane's 404.
    let missing = pg.kubectl(&["get", "--raw", &format!("{PROXY}/member9/proxy/api")]);
    assert_ne!(missing.code, 0);
    assert!(missing.stderr.contains(r#"clusters.cluster.karmada.io "member9" not found"#), "{}", missing.stderr);

    // A plane user without clusters/proxy rights is refused by the plane.
    let nobody = pg.service_account_kubeconfig("nobody");
    let path = format!("{PROXY}/member1/proxy/api/v1/namespaces");
    let denied = pg.kubectl_with(&nobody, &["get", "--raw", &path]);
    assert_ne!(denied.code, 0);
    assert!(
        denied.stderr.contains(r#"cannot get resource "clusters/proxy" in API group "cluster.karmada.io""#),
        "{}",
        denied.stderr
    );

    // With proxy rights in the plane, the member's RBAC decides: the caller is impersonated.
    pg.kubectl_ok(&[
        "create",
        "clusterrolebinding",
        "nobody-proxy",
        "--clusterrole=cluster-proxy-admin",
        "--serviceaccount=default:nobody",
    ]);
    pg.wait_authorized("", "get", "clusters.cluster.karmada.io", &["--subresource=proxy"]);
    let member_denied = pg.kubectl_with(&nobody, &["get", "--raw", &path]);
    assert_ne!(member_denied.code, 0);
    assert!(
        member_denied.stderr.contains(
            r#"namespaces is forbidden: User "system:serviceaccount:default:nobody" cannot list resource "namespaces""#
        ),
        "{}",
        member_denied.stderr
    );
    pg.kubectl_ok(&[
        "--context",
        "member1",
        "create",
        "clusterrolebinding",
        "nobody-view",
        "--clusterrole=view",
        "--serviceaccount=default:nobody",
    ]);
    pg.wait_authorized("member1", "list", "namespaces", &[]);
    let allowed = pg.kubectl_with(&nobody, &["get", "--raw", &path]);
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    assert_eq!(namespace_names(&allowed.stdout), namespace_names(&direct));
    // member2 grants nothing to that user.
    let elsewhere = pg.kubectl_with(&nobody, &["get", "--raw", &format!("{PROXY}/member2/proxy/api/v1/namespaces")]);
    assert_ne!(elsewhere.code, 0);
    assert!(elsewhere.stderr.contains("namespaces is forbidden"), "{}", elsewhere.stderr);
}

/// A table's lines as whitespace-split cells.
fn rows(table: &str) -> Vec<Vec<String>> {
    table.lines().map(|l| l.split_whitespace().map(str::to_string).collect()).collect()
}

/// (NAME, CLUSTER, ADOPTION) of each data row of a deployments table.
fn name_cluster_adoption(table: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> =
        rows(table).into_iter().skip(1).map(|r| (r[0].clone(), r[1].clone(), r[r.len() - 1].clone())).collect();
    out.sort();
    out
}

fn triple(n: &str, c: &str, a: &str) -> (String, String, String) {
    (n.to_string(), c.to_string(), a.to_string())
}

/// Deployments in the plane and in each member, one of them labelled as managed by Karmada.
fn deployments(pg: &Playground) {
    pg.kubectl_ok(&["create", "deployment", "in-plane", "--image=nginx"]);
    pg.kubectl_ok(&["--context", "member1", "create", "deployment", "web1", "--image=nginx"]);
    pg.kubectl_ok(&["--context", "member2", "create", "deployment", "web2", "--image=busybox"]);
    pg.kubectl_ok(&["--context", "member2", "label", "deployment", "web2", "karmada.io/managed=true"]);
    pg.kubectl_ok(&["--context", "member2", "create", "namespace", "team"]);
    pg.kubectl_ok(&["--context", "member2", "create", "deployment", "api", "-n", "team", "--image=busybox"]);
}

#[test]
fn get_merges_rows_from_the_plane_and_the_members() {
    let pg = Playground::up();
    deployments(&pg);

    let both = pg.get_ok(&["deploy", "-C", "member1,member2", "--operation-scope", "all"]);
    assert_eq!(rows(&both.stdout)[0], ["NAME", "CLUSTER", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "ADOPTION"]);
    assert_eq!(
        name_cluster_adoption(&both.stdout),
        [triple("in-plane", "Karmada", "-"), triple("web1", "member1", "N"), triple("web2", "member2", "Y")]
    );

    // The default scope is the plane only; members leaves it out; -C narrows the members.
    let plane = pg.get_ok(&["deployments"]);
    assert_eq!(name_cluster_adoption(&plane.stdout), [triple("in-plane", "Karmada", "-")]);
    let members = pg.get_ok(&["deployments.apps", "--operation-scope", "members"]);
    assert_eq!(
        name_cluster_adoption(&members.stdout),
        [triple("web1", "member1", "N"), triple("web2", "member2", "Y")]
    );
    let one = pg.get_ok(&["deployment", "-s", "all", "-C", "member1"]);
    assert_eq!(
        name_cluster_adoption(&one.stdout),
        [triple("in-plane", "Karmada", "-"), triple("web1", "member1", "N")]
    );

    // -o wide shows the Deployment's wide columns before ADOPTION; --show-labels adds LABELS last.
    let wide = pg.get_ok(&["deploy", "-s", "members", "-C", "member2", "-o", "wide", "--show-labels"]);
    let wide = rows(&wide.stdout);
    assert_eq!(
        wide[0],
        [
            "NAME",
            "CLUSTER",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR",
            "ADOPTION",
            "LABELS"
        ]
    );
    assert_eq!(wide[1][0], "web2");
    assert_eq!(wide[1][7], "busybox");
    assert_eq!(wide[1][9..], ["Y", "app=web2,karmada.io/managed=true"]);

    // -A adds NAMESPACE first; -l filters; -n reads another namespace.
    let all_ns = pg.get_ok(&["deploy", "-s", "members", "-A"]);
    let all_ns = rows(&all_ns.stdout);
    assert_eq!(all_ns[0][..3], ["NAMESPACE", "NAME", "CLUSTER"]);
    let mut found: Vec<(String, String, String)> =
        all_ns[1..].iter().map(|r| (r[0].clone(), r[1].clone(), r[2].clone())).collect();
    found.sort();
    assert_eq!(
        found,
        [triple("default", "web1", "member1"), triple("default", "web2", "member2"), triple("team", "api", "member2")]
    );
    let labelled = pg.get_ok(&["deploy", "-s", "members", "-l", "karmada.io/managed=true"]);
    assert_eq!(name_cluster_adoption(&labelled.stdout), [triple("web2", "member2", "Y")]);
    let team = pg.get_ok(&["deploy", "-s", "all", "-n", "team"]);
    assert_eq!(name_cluster_adoption(&team.stdout), [triple("api", "member2", "N")]);

    // -o name and -o json print each source's objects, without a cluster column.
    let names = pg.get_ok(&["deploy", "-s", "all", "-o", "name"]);
    let mut names: Vec<&str> = names.stdout.lines().collect();
    names.sort();
    assert_eq!(names, ["deployment.apps/in-plane", "deployment.apps/web1", "deployment.apps/web2"]);
    let json = pg.get_ok(&["deploy", "-s", "all", "-o", "json"]);
    let lists: Vec<Value> =
        serde_json::Deserializer::from_str(&json.stdout).into_iter::<Value>().map(|v| v.expect("JSON")).collect();
    assert_eq!(lists.len(), 3, "one List per source: {}", json.stdout);
    let mut items: Vec<(String, String)> = lists
        .iter()
        .flat_map(|l| {
            assert_eq!(l["kind"], "List");
            l["items"].as_array().unwrap().clone()
        })
        .inspect(|i| {
            // As kubectl, managedFields only with --show-managed-fields.
            assert!(i["metadata"].get("managedFields").is_none(), "{i}");
        })
        .map(|i| (i["kind"].as_str().unwrap().to_string(), i["metadata"]["name"].as_str().unwrap().to_string()))
        .collect();
    items.sort();
    assert_eq!(
        items,
        [
            ("Deployment".to_string(), "in-plane".to_string()),
            ("Deployment".to_string(), "web1".to_string()),
            ("Deployment".to_string(), "web2".to_string())
        ]
    );

    let managed =
        pg.get_ok(&["deploy", "web1", "-s", "members", "-C", "member1", "-o", "json", "--show-managed-fields"]);
    let web1: Value = serde_json::from_str(&managed.stdout).expect("one object");
    assert_eq!(web1["metadata"]["name"], "web1");
    assert!(web1["metadata"]["managedFields"].is_array(), "{web1}");

    // Two types: one table each, names prefixed with their kind, a blank line between.
    let two = pg.get_ok(&["deploy,cm", "-s", "members", "-C", "member1", "-l", "app=web1"]);
    assert!(two.stdout.contains("deployment.apps/web1"), "{}", two.stdout);
    let empty = pg.get_ok(&["deploy", "-s", "members", "-n", "nowhere"]);
    assert_eq!(empty.stdout, "");
    assert!(empty.stderr.contains("No resources found in nowhere namespace."), "{}", empty.stderr);
}

#[test]
fn get_rejects_unknown_clusters_types_and_objects() {
    let pg = Playground::up();
    deployments(&pg);

    let unknown_cluster = pg.karmadactl(&["get", "deploy", "-s", "all", "-C", "member1,member9"]);
    assert_eq!(unknown_cluster.code, 1);
    assert!(unknown_cluster.stderr.contains("error: clusters don't exist: member9"), "{}", unknown_cluster.stderr);
    assert_eq!(unknown_cluster.stdout, "");

    let unknown_type = pg.karmadactl(&["get", "invalidresource", "-s", "all"]);
    assert_eq!(unknown_type.code, 1);
    assert!(
        unknown_type.stderr.contains(r#"the server doesn't have a resource type "invalidresource""#),
        "{}",
        unknown_type.stderr
    );
    assert!(
        unknown_type.stderr.contains(r#"cluster(member2): the server doesn't have a resource type "invalidresource""#),
        "{}",
        unknown_type.stderr
    );

    // A name that exists in one member only: that member's row, and the other's error.
    let partly = pg.karmadactl(&["get", "deploy", "web1", "-s", "members"]);
    assert_eq!(partly.code, 1);
    assert_eq!(name_cluster_adoption(&partly.stdout), [triple("web1", "member1", "N")]);
    assert!(partly.stderr.contains(r#"cluster(member2): deployments.apps "web1" not found"#), "{}", partly.stderr);
    let ignored = pg.get_ok(&["deploy", "web1", "-s", "members", "--ignore-not-found"]);
    assert_eq!(name_cluster_adoption(&ignored.stdout), [triple("web1", "member1", "N")]);

    // With the plane too, as upstream: the rows that exist, one error per source without the
    // object (the plane and member2 here), exit 1; --ignore-not-found makes it exit 0.
    let all = pg.karmadactl(&["get", "deploy", "web1", "-s", "all"]);
    assert_eq!(all.code, 1, "{}", all.stderr);
    assert_eq!(name_cluster_adoption(&all.stdout), [triple("web1", "member1", "N")]);
    assert_eq!(
        all.stderr,
        "error: deployments.apps \"web1\" not found\ncluster(member2): deployments.apps \"web1\" not found\n"
    );
    let all_ignored = pg.get_ok(&["deploy", "web1", "-s", "all", "--ignore-not-found"]);
    assert_eq!(name_cluster_adoption(&all_ignored.stdout), [triple("web1", "member1", "N")]);
    assert_eq!(all_ignored.stderr, "");

    let no_type = pg.karmadactl(&["get"]);
    assert_eq!(no_type.code, 1);
    assert!(no_type.stderr.contains("You must specify the type of resource to get."), "{}", no_type.stderr);
}

#[test]
fn a_pull_member_is_skipped_with_one_line_not_a_failed_connection_test() {
    let pg = Playground::up();
    deployments(&pg);
    // What an agent registers: a Pull Cluster without credentials for the plane.
    let pull = pg.dir().join("pull-cluster.yaml");
    std::fs::write(
        &pull,
        "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: pm1\nspec:\n  syncMode: Pull\n  apiEndpoint: https://127.0.0.1:1\n",
    )
    .unwrap();
    pg.kubectl_ok(&["create", "-f", pull.to_str().unwrap()]);

    for scope in ["members", "all"] {
        let run = pg.get_ok(&["deploy", "-s", scope]);
        assert!(name_cluster_adoption(&run.stdout).contains(&triple("web1", "member1", "N")), "{}", run.stdout);
        assert_eq!(
            run.stderr,
            "skipped Pull mode member cluster(pm1): the control plane has no credentials to proxy to a Pull member \
             (upstream reaches them only through apiserver-network-proxy); read it with the member's own kubeconfig\n",
        );
    }
    // Named on its own, it is the same line and nothing else.
    let only = pg.get_ok(&["deploy", "-s", "members", "-C", "pm1"]);
    assert_eq!(only.stdout, "");
    assert!(only.stderr.starts_with("skipped Pull mode member cluster(pm1): "), "{}", only.stderr);
    assert!(!only.stderr.contains("basic connection test"), "{}", only.stderr);
}

#[test]
fn a_stopped_member_is_a_warning_and_the_others_still_print() {
    let pg = Playground::up();
    deployments(&pg);
    let member2 = pg.dir().join("members/member2");
    let mut stop = common::karmadactl(pg.home.path());
    stop.args(["local", "member", "stop", "member2", "--data-dir", member2.to_str().unwrap()]);
    let stopped = common::run(stop);
    assert_eq!(stopped.code, 0, "{}", stopped.stderr);

    let run = pg.get_ok(&["deploy", "-s", "all"]);
    assert_eq!(
        name_cluster_adoption(&run.stdout),
        [triple("in-plane", "Karmada", "-"), triple("web1", "member1", "N")]
    );
    let warnings: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{}", run.stderr);
    assert!(
        warnings[0].starts_with(
            "warning: basic connection test to cluster(member2) failed, please check authorization or network: "
        ),
        "{}",
        warnings[0]
    );

    // The proxy itself answers 503 for the stopped member.
    let raw = pg.kubectl(&["get", "--raw", &format!("{PROXY}/member2/proxy/api")]);
    assert_ne!(raw.code, 0);
    assert!(raw.stderr.contains("ServiceUnavailable"), "{}", raw.stderr);
}

/// Reads a child's stdout lines on a thread, so the test can wait for a line without blocking.
fn lines_of(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("piped stdout");
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The next line containing `needle`; fails the test if the child prints none within `limit`.
fn wait_for_line(rx: &std::sync::mpsc::Receiver<String>, needle: &str, seen: &mut Vec<String>) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                seen.push(line.clone());
                if line.contains(needle) {
                    return line;
                }
            }
            Err(_) => panic!("no line with {needle:?}; got {seen:?}"),
        }
    }
}

#[test]
fn watch_follows_one_member_through_the_proxy() {
    let pg = Playground::up();
    pg.kubectl_ok(&["--context", "member1", "create", "configmap", "before", "--from-literal=a=b"]);
    let mut cmd = common::karmadactl(pg.home.path());
    cmd.args(["get", "configmaps", "-s", "members", "-C", "member1", "-w", "--kubeconfig"])
        .arg(&pg.kubeconfig)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().expect("karmadactl get -w starts");
    let rx = lines_of(&mut child);
    let mut seen = Vec::new();
    let header = wait_for_line(&rx, "NAME", &mut seen);
    assert_eq!(header.split_whitespace().collect::<Vec<_>>(), ["NAME", "CLUSTER", "DATA", "AGE", "ADOPTION"]);
    let listed = wait_for_line(&rx, "before", &mut seen);
    assert_eq!(listed.split_whitespace().nth(1), Some("member1"));

    pg.kubectl_ok(&["--context", "member1", "create", "configmap", "after", "--from-literal=a=b"]);
    let added = wait_for_line(&rx, "after", &mut seen);
    let cells: Vec<&str> = added.split_whitespace().collect();
    assert_eq!((cells[0], cells[1], cells[cells.len() - 1]), ("after", "member1", "N"));
    let _ = child.kill();
    let _ = child.wait();

    // Several sources at once are refused, not interleaved.
    let refused = pg.karmadactl(&["get", "configmaps", "-s", "all", "-w"]);
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("--watch reads one source"), "{}", refused.stderr);
}
