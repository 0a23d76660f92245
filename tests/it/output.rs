//! Golden tests for `karmadactl::output`: our tables, JSON, YAML, names and ages against the real
//! kubectl 1.32, byte for byte.
//!
//! kubectl prints tables without a server for `config get-contexts`; for everything else these
//! tests start a small fake API server on loopback (plain HTTP, legacy discovery, fixed objects)
//! and compare `kubectl get` with what our renderers make of the very objects the server serves.
//! kubectl runs with a temporary HOME, its own cache dir and a scrubbed environment. A missing
//! kubectl.1.32 fails the tests; it never skips them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::thread;

use jiff::{SignedDuration, Timestamp};
use karmadactl::output::{
    List, OutputFormat, Table, TableOptions, age, labels_cell, object_name, resource_name, to_json, to_yaml,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// kubectl

/// kubectl.1.32: `$KUBECTL_1_32`, else on PATH, else next to the resolved `kubectl` dispatcher.
fn kubectl_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("KUBECTL_1_32") {
        return PathBuf::from(path);
    }
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path_var) {
        let direct = dir.join("kubectl.1.32");
        if direct.is_file() {
            return direct;
        }
        if let Ok(real) = std::fs::canonicalize(dir.join("kubectl")) {
            let sibling = real.with_file_name("kubectl.1.32");
            if sibling.is_file() {
                return sibling;
            }
        }
    }
    panic!(
        "kubectl.1.32 was not found (not on PATH, not next to the `kubectl` dispatcher, \
         KUBECTL_1_32 unset). These golden tests compare karmadactl's output with the real \
         kubectl 1.32: install it (the Google Cloud SDK ships kubectl.1.32 next to its kubectl) \
         or point KUBECTL_1_32 at the binary."
    );
}

/// kubectl with a private HOME and cache, and nothing from the caller's environment.
struct Kubectl {
    binary: PathBuf,
    home: tempfile::TempDir,
}

impl Kubectl {
    fn new() -> Self {
        Self { binary: kubectl_binary(), home: tempfile::tempdir().expect("temp dir") }
    }

    fn home(&self) -> &Path {
        self.home.path()
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.env_clear().env("HOME", self.home()).args(args);
        cmd
    }

    /// stdout of a command that must succeed.
    fn stdout(&self, args: &[&str]) -> String {
        let out = self.command(args).output().expect("kubectl runs");
        assert!(out.status.success(), "kubectl {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("kubectl prints UTF-8")
    }

    /// `kubectl get …` against a fake server.
    fn get(&self, server: &FakeServer, args: &[&str]) -> String {
        let cache = self.home().join("cache");
        let mut all = vec![
            "--server",
            server.url.as_str(),
            "--cache-dir",
            cache.to_str().expect("UTF-8 temp path"),
            "-n",
            "default",
            "get",
        ];
        all.extend_from_slice(args);
        self.stdout(&all)
    }
}

/// Shows both texts with visible line ends when they differ.
#[track_caller]
fn assert_same(ours: &str, kubectl: &str, what: &str) {
    if ours != kubectl {
        panic!(
            "{what}: our output differs from kubectl's.\n--- ours ---\n{}\n--- kubectl ---\n{}",
            ours.replace('\n', "$\n"),
            kubectl.replace('\n', "$\n")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Tables without a server: `kubectl config get-contexts`

/// (name, cluster, user, namespace) — short names (< 3 characters, so the 6-column minimum
/// applies), a long cluster name, an empty last column (trailing padding), CJK text.
const CONTEXTS: &[(&str, &str, &str, &str)] = &[
    ("a", "c1", "u", ""),
    ("bb", "a-very-long-cluster-name-indeed", "u", "ns"),
    ("ccc", "", "", ""),
    ("karmada-apiserver-with-a-long-context-name", "karmada-apiserver", "karmada-admin", "kube-system"),
    ("中文名", "x", "", "n"),
];
const CURRENT_CONTEXT: &str = "a";

fn write_kubeconfig(dir: &Path) -> PathBuf {
    let contexts: Vec<Value> = CONTEXTS
        .iter()
        .map(|(name, cluster, user, namespace)| {
            json!({"name": name, "context": {"cluster": cluster, "user": user, "namespace": namespace}})
        })
        .collect();
    let config = json!({
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": CURRENT_CONTEXT,
        "clusters": [{"name": "c1", "cluster": {"server": "https://127.0.0.1:6443"}}],
        "users": [{"name": "u", "user": {}}],
        "contexts": contexts,
    });
    let path = dir.join("kubeconfig.json");
    std::fs::write(&path, config.to_string()).expect("write kubeconfig");
    path
}

/// The get-contexts table as karmadactl would build it (kubectl sorts contexts by name).
fn contexts_table(only: Option<&str>) -> Table {
    let mut rows: Vec<_> = CONTEXTS.iter().filter(|c| only.is_none_or(|n| n == c.0)).collect();
    rows.sort_by_key(|c| c.0);
    let mut table = Table::new(["CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE"]);
    for (name, cluster, user, namespace) in rows {
        let current = if *name == CURRENT_CONTEXT { "*" } else { "" };
        table.push_row([current, name, cluster, user, namespace]);
    }
    table
}

#[test]
fn table_matches_kubectl_config_get_contexts() {
    let kubectl = Kubectl::new();
    let config = write_kubeconfig(kubectl.home());
    let config = config.to_str().expect("UTF-8 temp path");

    let theirs = kubectl.stdout(&["config", "get-contexts", "--kubeconfig", config]);
    assert_same(&contexts_table(None).render(TableOptions::default()), &theirs, "get-contexts");

    let theirs = kubectl.stdout(&["config", "get-contexts", "--kubeconfig", config, "--no-headers"]);
    let options = TableOptions { no_headers: true, ..TableOptions::default() };
    assert_same(&contexts_table(None).render(options), &theirs, "get-contexts --no-headers");

    for name in ["a", "bb", "中文名"] {
        let theirs = kubectl.stdout(&["config", "get-contexts", "--kubeconfig", config, name]);
        let ours = contexts_table(Some(name)).render(TableOptions::default());
        assert_same(&ours, &theirs, &format!("get-contexts {name}"));
    }
}

// ---------------------------------------------------------------------------------------------
// Without a server: `create --dry-run=client`

#[test]
fn name_matches_kubectl_create_dry_run() {
    let kubectl = Kubectl::new();
    let theirs =
        kubectl.stdout(&["create", "configmap", "demo", "--from-literal=a=b", "--dry-run=client", "-o", "name"]);
    assert_same(&format!("{}\n", resource_name("ConfigMap", "", "demo")), &theirs, "configmap");
    let theirs = kubectl.stdout(&["create", "deployment", "nginx", "--image=nginx", "--dry-run=client", "-o", "name"]);
    assert_same(&format!("{}\n", resource_name("Deployment", "apps", "nginx")), &theirs, "deploy");
}

/// kubectl prints a typed object in struct order (kind first); so do we for typed values.
#[test]
fn json_of_a_typed_object_matches_kubectl_create_dry_run() {
    #[derive(serde::Serialize)]
    struct Meta {
        name: &'static str,
        #[serde(rename = "creationTimestamp")]
        creation_timestamp: Option<&'static str>,
    }
    #[derive(serde::Serialize)]
    struct ConfigMap {
        kind: &'static str,
        #[serde(rename = "apiVersion")]
        api_version: &'static str,
        metadata: Meta,
        data: BTreeMap<&'static str, &'static str>,
    }
    let data = BTreeMap::from([("a", "b"), ("html", "<a&b>"), ("n", "123"), ("empty", "")]);
    let literals: Vec<String> = data.iter().map(|(k, v)| format!("--from-literal={k}={v}")).collect();
    let mut args = vec!["create", "configmap", "demo", "--dry-run=client", "-o", "json"];
    args.extend(literals.iter().map(String::as_str));

    let theirs = Kubectl::new().stdout(&args);
    let ours = to_json(&ConfigMap {
        kind: "ConfigMap",
        api_version: "v1",
        metadata: Meta { name: "demo", creation_timestamp: None },
        data,
    })
    .expect("serializable");
    assert_same(&ours, &theirs, "create configmap -o json");
}

#[test]
fn unknown_output_format_message_starts_like_kubectls() {
    let kubectl = Kubectl::new();
    let out = kubectl
        .command(&["create", "configmap", "demo", "--dry-run=client", "-o", "xml"])
        .output()
        .expect("kubectl runs");
    assert!(!out.status.success());
    let theirs = String::from_utf8_lossy(&out.stderr).into_owned();
    let ours = format!("error: {}", "xml".parse::<OutputFormat>().expect_err("xml is unknown"));
    // kubectl lists its template printers too; the sentence up to the list is the same.
    let prefix = "error: unable to match a printer suitable for the output format \"xml\", allowed formats are: ";
    assert!(theirs.starts_with(prefix), "kubectl said: {theirs}");
    assert!(ours.starts_with(prefix), "we said: {ours}");
    assert_eq!(ours, format!("{prefix}json,name,wide,yaml"));
}

// ---------------------------------------------------------------------------------------------
// A fake API server

/// A loopback HTTP server with legacy discovery for `configmaps` (plain lists, so kubectl prints
/// its own NAME/AGE table) and `services` (server-side `Table`s with a wide-only column).
struct FakeServer {
    url: String,
}

struct Objects {
    configmaps: Vec<Value>,
    /// Served by name only, never in the list (its strings exercise JSON escaping).
    extra: Vec<Value>,
    services: Value,
}

impl FakeServer {
    fn start(objects: Objects) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let url = format!("http://{}", listener.local_addr().expect("local addr"));
        let objects = Arc::new(objects);
        // The accept loop lives as long as the test process; every response closes its
        // connection, so no state is shared between requests.
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let objects = Arc::clone(&objects);
                thread::spawn(move || serve(stream, &objects));
            }
        });
        Self { url }
    }
}

fn serve(mut stream: TcpStream, objects: &Objects) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut accept = String::new();
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => {
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("accept")
                {
                    accept = value.trim().to_owned();
                }
            }
        }
    }
    let target = request_line.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split('?').next().unwrap_or(target);
    let (status, body) = route(path, &accept, objects);
    let body = body.to_string();
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.as_bytes()));
}

fn route(path: &str, accept: &str, objects: &Objects) -> (&'static str, Value) {
    const OK: &str = "200 OK";
    let resource = |name: &str, kind: &str| {
        json!({"name": name, "singularName": kind.to_lowercase(), "namespaced": true, "kind": kind,
               "verbs": ["get", "list"]})
    };
    match path {
        "/version" => (OK, json!({"major": "1", "minor": "32", "gitVersion": "v1.32.5"})),
        "/api" => (
            OK,
            json!({"kind": "APIVersions", "versions": ["v1"],
                   "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]}),
        ),
        "/apis" => (OK, json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": []})),
        "/api/v1" => (
            OK,
            json!({"kind": "APIResourceList", "groupVersion": "v1",
                   "resources": [resource("configmaps", "ConfigMap"), resource("services", "Service")]}),
        ),
        "/api/v1/namespaces/default/configmaps" => (
            OK,
            json!({"kind": "ConfigMapList", "apiVersion": "v1", "metadata": {"resourceVersion": "7"},
                   "items": objects.configmaps}),
        ),
        "/api/v1/namespaces/default/services" if accept.contains("as=Table") => (OK, objects.services.clone()),
        _ => {
            let name = path.strip_prefix("/api/v1/namespaces/default/configmaps/");
            let found = name.and_then(|name| {
                objects.configmaps.iter().chain(&objects.extra).find(|o| o["metadata"]["name"] == name)
            });
            match found {
                Some(object) => (OK, object.clone()),
                None => (
                    "404 Not Found",
                    json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
                           "reason": "NotFound", "code": 404, "message": format!("{path} not found")}),
                ),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures for the fake server

fn rfc3339(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Ages chosen mid-bucket so that a second passing between our clock and kubectl's cannot
/// change the text, except the seconds-precision one, which the test allows to tick.
fn config_maps(now: Timestamp) -> Vec<Value> {
    let ago = |secs: i64| rfc3339(now - SignedDuration::from_secs(secs));
    const MIN: i64 = 60;
    const HOUR: i64 = 3600;
    const DAY: i64 = 24 * HOUR;
    const YEAR: i64 = 365 * DAY;
    let cm = |name: &str, created: Option<String>, labels: Value, data: Value| {
        let mut meta = json!({"name": name, "namespace": "default", "resourceVersion": "5",
                              "uid": format!("uid-{name}"), "labels": labels});
        if let Some(created) = created {
            meta["creationTimestamp"] = json!(created);
        }
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data})
    };
    vec![
        cm("a", Some(ago(3 * HOUR + 20 * MIN + 30)), json!({"zz": "1", "app": "x"}), json!({"k": "v"})),
        cm(
            "a-much-longer-name",
            Some(ago(150)),
            json!({"app.kubernetes.io/name": "n", "app": "y"}),
            json!({"n": "123", "t": "true", "y": "y", "e": "", "ml": "l1\nl2\n", "ml2": "l1\nl2",
                   "ts": "2020-01-01T00:00:00Z", "version": "1.0", "html": "<a&b>", "path": "/etc/x",
                   "caBundle": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM1ekNDQWMrZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwKY201bGRHVnpNQjRYRFRJeU1ERXdNVEF3TURBd01Gb1hEVE15TURFd01UQXdNREF3TUZvd0ZURVRNQkVHQTFVRQ==",
                   "url": "https://example.com/a/very/long/path/that/goes/on/and/on/and/on/well/past/eighty/columns/index.html"}),
        ),
        cm("b", Some(ago(400 * DAY + 5 * HOUR)), json!({}), json!({})),
        cm("c", Some(ago(3 * YEAR + 20 * DAY + 12 * HOUR)), json!({}), json!({})),
        cm("d", Some(ago(6 * DAY + 5 * HOUR + 30 * MIN)), json!({}), json!({})),
        cm("e", Some(ago(10 * MIN + 30)), json!({}), json!({})),
        cm("f", Some(ago(47 * HOUR + 30 * MIN)), json!({}), json!({})),
        cm("g", None, json!({}), json!({})),
        cm(
            "keys",
            Some(ago(9 * YEAR)),
            json!({}),
            json!({"a10": "v", "a2": "v", "a1": "v", "B": "v", "b": "v", "_x": "v", "1": "v",
                   "10": "v", "2": "v", "a~": "v", "a-": "v", "a.b": "v", "x00": "v", "x0": "v",
                   "x01": "v", "z09": "v", "z9": "v", "z010": "v", "z10": "v"}),
        ),
    ]
}

/// An object whose strings and numbers exercise Go's JSON escaping and float spelling.
fn exotic(now: Timestamp) -> Value {
    json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "exotic", "namespace": "default", "creationTimestamp": rfc3339(now)},
        "data": {"html": "<script>&amp;</script>", "sep": "\u{2028}\u{2029}", "ctl": "a\u{1}b\u{7}",
                 "ws": "tab\there\r\n", "quote": "\"q\" \\", "intl": "中文 é 😀", "empty": ""},
        "extra": {"big": 1e21, "small": 1e-7, "half": 1.5, "int": 100, "neg": -3,
                  "nested": [[1, 2], [{"a": []}], {}], "nil": null, "yes": true}
    })
}

/// A server-side Table for services: `Selector` has priority 1 (wide only).
fn services_table(now: Timestamp) -> Value {
    let row = |name: &str, ip: &str, selector: &str, labels: Value| {
        json!({"cells": [name, "ClusterIP", ip, selector, "5m"],
               "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                          "metadata": {"name": name, "namespace": "default", "labels": labels,
                                       "creationTimestamp": rfc3339(now)}}})
    };
    let column = |name: &str, priority: u8| json!({"name": name, "type": "string", "format": "", "description": "", "priority": priority});
    json!({
        "kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {"resourceVersion": "9"},
        "columnDefinitions": [column("Name", 0), column("Type", 0), column("Cluster-IP", 0),
                              column("Selector", 1), column("Age", 0)],
        "rows": [row("kubernetes", "10.0.0.1", "<none>", json!({"component": "apiserver", "provider": "kubernetes"})),
                 row("karmada-apiserver-long", "10.96.123.45", "app=karmada-apiserver", json!({}))]
    })
}

fn start_server(now: Timestamp) -> FakeServer {
    FakeServer::start(Objects { configmaps: config_maps(now), extra: vec![exotic(now)], services: services_table(now) })
}

fn labels_of(object: &Value) -> Vec<(&str, &str)> {
    object["metadata"]["labels"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), v.as_str().unwrap_or(""))).collect())
        .unwrap_or_default()
}

fn created_of(object: &Value) -> Option<Timestamp> {
    object["metadata"]["creationTimestamp"].as_str().map(|t| t.parse().expect("RFC 3339"))
}

// ---------------------------------------------------------------------------------------------
// Against the fake server

#[test]
fn json_and_yaml_lists_match_kubectl_get() {
    let now = Timestamp::now();
    let server = start_server(now);
    let kubectl = Kubectl::new();
    let list = List::new(config_maps(now));

    let theirs = kubectl.get(&server, &["configmaps", "-o", "json"]);
    assert_same(&to_json(&list).expect("serializable"), &theirs, "get -o json");

    let theirs = kubectl.get(&server, &["configmaps", "-o", "yaml"]);
    assert_same(&to_yaml(&list).expect("serializable"), &theirs, "get -o yaml");
}

#[test]
fn json_and_yaml_of_one_object_match_kubectl_get() {
    let now = Timestamp::now();
    let server = start_server(now);
    let kubectl = Kubectl::new();
    for object in config_maps(now) {
        let name = object["metadata"]["name"].as_str().expect("named").to_owned();
        let theirs = kubectl.get(&server, &["configmap", &name, "-o", "json"]);
        assert_same(&to_json(&object).expect("serializable"), &theirs, &format!("{name} json"));
        let theirs = kubectl.get(&server, &["configmap", &name, "-o", "yaml"]);
        assert_same(&to_yaml(&object).expect("serializable"), &theirs, &format!("{name} yaml"));
    }
}

#[test]
fn json_escaping_and_floats_match_kubectl_get() {
    let now = Timestamp::now();
    let server = start_server(now);
    let theirs = Kubectl::new().get(&server, &["configmap", "exotic", "-o", "json"]);
    assert_same(&to_json(&exotic(now)).expect("serializable"), &theirs, "exotic json");
}

#[test]
fn names_match_kubectl_get() {
    let now = Timestamp::now();
    let server = start_server(now);
    let theirs = Kubectl::new().get(&server, &["configmaps", "-o", "name"]);
    let ours: String = config_maps(now).iter().map(|o| format!("{}\n", object_name(o).expect("has a kind"))).collect();
    assert_same(&ours, &theirs, "get -o name");
}

/// kubectl computes AGE itself when the server sends a plain list. The seconds-precision age
/// may tick between our clock and kubectl's, so the expected table is built for every second
/// from our `now` to the moment kubectl returned.
#[test]
fn age_and_labels_columns_match_kubectl_get() {
    let now = Timestamp::now();
    let server = start_server(now);
    let kubectl = Kubectl::new();
    let before = Timestamp::now();
    let plain = kubectl.get(&server, &["configmaps"]);
    let labelled = kubectl.get(&server, &["configmaps", "--show-labels"]);
    let headless = kubectl.get(&server, &["configmaps", "--no-headers"]);
    let after = Timestamp::now();

    let objects = config_maps(now);
    let table_at = |at: Timestamp| {
        let mut table = Table::new(["NAME", "AGE"]);
        for o in &objects {
            let age = created_of(o).map_or_else(|| "<unknown>".to_owned(), |c| age(c, at));
            table.push_row([o["metadata"]["name"].as_str().unwrap_or(""), &age]);
        }
        table
    };
    let candidates: Vec<Timestamp> =
        (0..=after.duration_since(before).as_secs() + 1).map(|s| before + SignedDuration::from_secs(s)).collect();
    let matches =
        |theirs: &str, render: &dyn Fn(Timestamp) -> String| candidates.iter().any(|&at| render(at) == theirs);
    let default_options = TableOptions::default();
    assert!(
        matches(&plain, &|at| table_at(at).render(default_options)),
        "AGE table differs.\n--- ours ---\n{}--- kubectl ---\n{plain}",
        table_at(before).render(default_options)
    );
    let headless_options = TableOptions { no_headers: true, ..default_options };
    assert!(
        matches(&headless, &|at| table_at(at).render(headless_options)),
        "--no-headers table differs.\n--- ours ---\n{}--- kubectl ---\n{headless}",
        table_at(before).render(headless_options)
    );
    let with_labels = |at: Timestamp| {
        let mut table = table_at(at);
        table.push_labels_column(objects.iter().map(labels_of));
        table.render(default_options)
    };
    assert!(
        matches(&labelled, &with_labels),
        "--show-labels table differs.\n--- ours ---\n{}--- kubectl ---\n{labelled}",
        with_labels(before)
    );
    // labels_cell is what the LABELS column holds.
    assert!(labelled.contains(&labels_cell([("zz", "1"), ("app", "x")])));
}

/// Server-side tables: mixed-case column names, a wide-only column, `--show-labels`.
#[test]
fn server_side_table_columns_match_kubectl_get() {
    let now = Timestamp::now();
    let server = start_server(now);
    let kubectl = Kubectl::new();
    let source = services_table(now);

    let mut table = Table::new(
        source["columnDefinitions"]
            .as_array()
            .expect("columns")
            .iter()
            .map(|c| c["name"].as_str().expect("column name").to_owned()),
    );
    table.wide_columns = source["columnDefinitions"]
        .as_array()
        .expect("columns")
        .iter()
        .enumerate()
        .filter(|(_, c)| c["priority"].as_u64() != Some(0))
        .map(|(i, _)| i)
        .collect();
    let rows = source["rows"].as_array().expect("rows");
    for row in rows {
        table.push_row(
            row["cells"].as_array().expect("cells").iter().map(|c| c.as_str().expect("string cell").to_owned()),
        );
    }

    let cases: [(&[&str], TableOptions); 4] = [
        (&["services"], TableOptions::new(OutputFormat::Table, false)),
        (&["services", "-o", "wide"], TableOptions::new(OutputFormat::Wide, false)),
        (&["services", "--no-headers"], TableOptions::new(OutputFormat::Table, true)),
        (&["services", "-o", "wide", "--no-headers"], TableOptions::new(OutputFormat::Wide, true)),
    ];
    for (args, options) in cases {
        let theirs = kubectl.get(&server, args);
        assert_same(&table.render(options), &theirs, &format!("{args:?}"));
    }

    table.push_labels_column(rows.iter().map(|r| labels_of(&r["object"])));
    let theirs = kubectl.get(&server, &["services", "-o", "wide", "--show-labels"]);
    assert_same(&table.render(TableOptions::new(OutputFormat::Wide, false)), &theirs, "labels");
}
