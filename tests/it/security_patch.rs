//! Patches and reads that used to take the plane down or corrupt what it stores, against the
//! real binary: amplifying patches are refused before memory grows, strategic directives keep
//! objects whole, patched objects stay in their namespace, write options and watch timeouts are
//! bounded, and reads from the future get kube's 504.

use std::time::Duration;

use crate::common::plane::Plane;
use crate::common::raw_api::send;
use http::{Method, Request};
use kube::Client;
use serde_json::{Value, json};

const CMS: &str = "/api/v1/namespaces/default/configmaps";
const GENERIC_422: &str = "the server rejected our request due to an error in our request";
/// The plane's peak resident memory after the attacks must stay below this.
const MAX_PEAK_RSS_KIB: u64 = 512 * 1024;

async fn client(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    let mut cfg = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default()).await.unwrap();
    // The answers themselves are under test: no client-side retries of 504s.
    cfg.default_retry = false;
    Client::try_from(cfg).unwrap()
}

async fn get(c: &Client, path: &str) -> (u16, Value) {
    send(c, Method::GET, path, "application/json", vec![]).await
}

async fn patch(c: &Client, path: &str, content_type: &str, body: impl Into<Vec<u8>>) -> (u16, Value) {
    send(c, Method::PATCH, path, content_type, body.into()).await
}

async fn create_cm(c: &Client, obj: Value) -> Value {
    let (code, body) = send(c, Method::POST, CMS, "application/json", obj.to_string().into_bytes()).await;
    assert_eq!(code, 201, "{body}");
    body
}

#[track_caller]
fn assert_status(code: u16, body: &Value, want: u16, reason: &str, message: &str) {
    assert_eq!(code, want, "{body}");
    assert_eq!(body["kind"], "Status", "{body}");
    assert_eq!(body["code"], want, "{body}");
    assert_eq!(body["reason"], reason, "{body}");
    assert_eq!(body["message"], message, "{body}");
}

/// The plane's peak resident set size (VmHWM) in KiB.
fn peak_rss_kib(plane: &Plane) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", plane.pid().unwrap())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// `n` JSON patch operations copying `data` into itself: each doubles the object.
fn copy_bomb(n: usize) -> String {
    let ops: Vec<String> = (0..n).map(|i| format!(r#"{{"op":"copy","from":"/data","path":"/data/k{i}"}}"#)).collect();
    format!("[{}]", ops.join(","))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn amplifying_patches_are_refused_before_memory_grows() {
    let plane = Plane::start();
    let c = client(&plane).await;
    let cm = create_cm(&c, json!({"metadata": {"name": "bomb"}, "data": {"seed": "x".repeat(100)}})).await;
    let path = format!("{CMS}/bomb");

    // Sixty doublings in a 3 KB request: kube's 422, once the copies pass the 3 MiB budget.
    let bomb = copy_bomb(60);
    assert!(bomb.len() < 4096);
    let (code, body) = patch(&c, &path, "application/json-patch+json", bomb).await;
    assert_status(code, &body, 422, "Invalid", GENERIC_422);
    let (_, now) = get(&c, &path).await;
    assert_eq!((&now["metadata"], &now["data"]), (&cm["metadata"], &cm["data"]), "the object is unchanged");

    // No other patch amplifies, but repeated ones could grow an object without end: any patch
    // or apply result past twice the body limit (3 MiB) is refused. A Deployment, as ConfigMap
    // data is capped at 1 MiB by validation.
    let deployments = "/apis/apps/v1/namespaces/default/deployments";
    let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "grow"},
        "spec": {"selector": {"matchLabels": {"app": "grow"}}, "template": {"metadata": {"labels": {"app": "grow"}},
        "spec": {"containers": [{"name": "c0", "image": "i"}]}}}});
    let (code, body) = send(&c, Method::POST, deployments, "application/json", deployment.to_string().into()).await;
    assert_eq!(code, 201, "{body}");
    let path = format!("{deployments}/grow");
    let big = || "y".repeat(2_900_000);
    let container = |name: &str| json!({"name": name, "image": "i", "args": [big()]});
    let add = |name: &str| json!({"spec": {"template": {"spec": {"containers": [container(name)]}}}}).to_string();
    let smp = "application/strategic-merge-patch+json";
    assert_eq!(patch(&c, &path, smp, add("a")).await.0, 200);
    assert_eq!(patch(&c, &path, smp, add("b")).await.0, 200);
    let (_, grown) = get(&c, &path).await;
    let limit = "Request entity too large: the resulting object would be larger than the limit of 6291456 bytes";
    let (code, body) = patch(&c, &path, smp, add("c")).await;
    assert_status(code, &body, 413, "RequestEntityTooLarge", limit);
    let annotate = json!({"metadata": {"annotations": {"c": big()}}}).to_string();
    let (code, body) = patch(&c, &path, "application/merge-patch+json", annotate).await;
    assert_status(code, &body, 413, "RequestEntityTooLarge", limit);
    let append = json!([{"op": "add", "path": "/spec/template/spec/containers/-", "value": container("c")}]);
    let (code, body) = patch(&c, &path, "application/json-patch+json", append.to_string()).await;
    assert_status(code, &body, 413, "RequestEntityTooLarge", limit);
    let apply = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "grow"},
        "spec": {"template": {"spec": {"containers": [container("c")]}}}});
    let (code, body) =
        patch(&c, &format!("{path}?fieldManager=big"), "application/apply-patch+yaml", apply.to_string()).await;
    assert_status(code, &body, 413, "RequestEntityTooLarge", limit);
    let (_, now) = get(&c, &path).await;
    assert_eq!(now["metadata"]["resourceVersion"], grown["metadata"]["resourceVersion"]);
    assert_eq!(now["spec"]["template"]["spec"]["containers"].as_array().map(Vec::len), Some(3));

    // A YAML alias bomb in an apply body: refused while decoding, nothing created.
    let mut yaml = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aliases\ndata:\n  a: &big \"{}\"\n  list: [",
        "z".repeat(200_000)
    );
    yaml.push_str(&vec!["*big"; 900].join(", "));
    yaml.push_str("]\n");
    let (code, body) = patch(&c, &format!("{CMS}/aliases?fieldManager=y"), "application/apply-patch+yaml", yaml).await;
    assert_eq!(code, 400, "{body}");
    assert!(body["message"].as_str().unwrap().starts_with("error decoding YAML: "), "{body}");
    assert_eq!(get(&c, &format!("{CMS}/aliases")).await.0, 404);

    let peak = peak_rss_kib(&plane);
    assert!(peak < MAX_PEAK_RSS_KIB, "peak RSS {peak} KiB");
    let (code, body) = get(&c, "/readyz").await;
    assert_eq!((code, body), (200, json!("ok")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strategic_directives_and_namespaces_keep_objects_whole() {
    let plane = Plane::start();
    let c = client(&plane).await;
    let original = create_cm(&c, json!({"metadata": {"name": "keep"}, "data": {"a": "1"}})).await;
    let path = format!("{CMS}/keep");

    // `$patch: delete` at the root empties the object; kube then cannot tell its name.
    let out = plane.kubectl_run(&["patch", "cm", "keep", "--type", "strategic", "-p", r#"{"$patch":"delete"}"#]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(
        out.stderr.trim(),
        "Error from server (BadRequest): the name of the object (keep based on URL) was undeterminable: name must be provided"
    );
    let (code, body) = patch(&c, &path, "application/merge-patch+json", r#"{"metadata":{"name":null}}"#).await;
    assert_status(
        code,
        &body,
        400,
        "BadRequest",
        "the name of the object (keep based on URL) was undeterminable: name must be provided",
    );
    let (code, body) = patch(&c, &path, "application/merge-patch+json", r#"{"metadata":{"name":"other"}}"#).await;
    assert_status(
        code,
        &body,
        400,
        "BadRequest",
        "the name of the object (other) does not match the name on the URL (keep)",
    );

    // Moving an object to another namespace by patch or update: kube's 400.
    let moved = "the namespace of the provided object does not match the namespace sent on the request";
    let (code, body) =
        patch(&c, &path, "application/merge-patch+json", r#"{"metadata":{"namespace":"kube-system"}}"#).await;
    assert_status(code, &body, 400, "BadRequest", moved);
    let json_patch = r#"[{"op":"replace","path":"/metadata/namespace","value":"kube-public"}]"#;
    let (code, body) = patch(&c, &path, "application/json-patch+json", json_patch).await;
    assert_status(code, &body, 400, "BadRequest", moved);
    let mut put = original.clone();
    put["metadata"]["namespace"] = json!("kube-system");
    let (code, body) = send(&c, Method::PUT, &path, "application/json", put.to_string().into_bytes()).await;
    assert_status(code, &body, 400, "BadRequest", moved);
    // A patch that drops the kind gets it back, as kube's decoder defaults it.
    let (code, body) = patch(&c, &path, "application/json-patch+json", r#"[{"op":"remove","path":"/kind"}]"#).await;
    assert_eq!(code, 200, "{body}");
    let (_, now) = get(&c, &path).await;
    assert_eq!((&now["metadata"], &now["data"]), (&original["metadata"], &original["data"]), "nothing changed it");
    assert_eq!(get(&c, "/api/v1/namespaces/kube-system/configmaps/keep").await.0, 404);

    // `$patch: replace` at the root: the patch is the new object, typed as the resource.
    let replace = r#"{"$patch":"replace","metadata":{"name":"keep"},"data":{"b":"2"}}"#;
    let (code, body) = patch(&c, &path, "application/strategic-merge-patch+json", replace).await;
    assert_eq!(code, 200, "{body}");
    let (_, now) = get(&c, &path).await;
    assert_eq!((&now["apiVersion"], &now["kind"]), (&json!("v1"), &json!("ConfigMap")));
    assert_eq!(now["data"], json!({"b": "2"}));
    assert_eq!(now["metadata"]["namespace"], "default");

    // Deleting from an absent finalizers list adds nothing: the object stays deletable.
    create_cm(&c, json!({"metadata": {"name": "fin"}})).await;
    let fin = format!("{CMS}/fin");
    let directive = r#"{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/block"]}}"#;
    let (code, body) = patch(&c, &fin, "application/strategic-merge-patch+json", directive).await;
    assert_eq!(code, 200, "{body}");
    assert!(body["metadata"].get("finalizers").is_none(), "{body}");
    let (code, _) = send(&c, Method::DELETE, &fin, "application/json", vec![]).await;
    assert_eq!(code, 200);
    assert_eq!(get(&c, &fin).await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn field_managers_are_bounded_as_kube_bounds_them() {
    let plane = Plane::start();
    let c = client(&plane).await;
    create_cm(&c, json!({"metadata": {"name": "fm"}, "data": {"a": "1"}})).await;
    let path = format!("{CMS}/fm");
    let too_long = "Too long: may not be more than 128 bytes";

    for len in [129, 201] {
        let manager = "m".repeat(len);
        let (code, body) = patch(
            &c,
            &format!("{path}?fieldManager={manager}"),
            "application/merge-patch+json",
            r#"{"data":{"a":"2"}}"#,
        )
        .await;
        let msg = format!("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: {too_long}");
        assert_status(code, &body, 422, "Invalid", &msg);
        assert_eq!(
            body["details"]["causes"][0],
            json!({"reason": "FieldValueTooLong", "message": too_long, "field": "fieldManager"})
        );

        let obj = json!({"metadata": {"name": "created"}});
        let (code, body) = send(
            &c,
            Method::POST,
            &format!("{CMS}?fieldManager={manager}"),
            "application/json",
            obj.to_string().into(),
        )
        .await;
        let msg = format!("CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: {too_long}");
        assert_status(code, &body, 422, "Invalid", &msg);
    }
    let apply = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "fm"}, "data": {"a": "3"}});
    let (code, body) = patch(
        &c,
        &format!("{path}?fieldManager={}", "m".repeat(129)),
        "application/apply-patch+yaml",
        apply.to_string(),
    )
    .await;
    let msg = format!("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: {too_long}");
    assert_status(code, &body, 422, "Invalid", &msg);
    let (code, body) = patch(&c, &format!("{path}?fieldManager=a%07b"), "application/merge-patch+json", "{}").await;
    let msg = "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Invalid value: \"a\\ab\": invalid character U+0007 (at position 1)";
    assert_status(code, &body, 422, "Invalid", msg);
    assert_eq!(get(&c, &format!("{CMS}/created")).await.0, 404);
    let (_, now) = get(&c, &path).await;
    assert_eq!(now["data"]["a"], "1", "no refused write changed the object");

    // 128 bytes is fine, and is what managedFields record.
    let manager = "m".repeat(128);
    let (code, body) =
        patch(&c, &format!("{path}?fieldManager={manager}"), "application/merge-patch+json", r#"{"data":{"a":"4"}}"#)
            .await;
    assert_eq!(code, 200, "{body}");
    let managers: Vec<&str> =
        body["metadata"]["managedFields"].as_array().unwrap().iter().filter_map(|e| e["manager"].as_str()).collect();
    assert!(managers.contains(&manager.as_str()), "{managers:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_timeouts_are_capped_and_future_versions_get_504() {
    let plane = Plane::start_with(&["--min-request-timeout", "2"]);
    let c = client(&plane).await;
    let cm = create_cm(&c, json!({"metadata": {"name": "rv"}})).await;
    let current: i64 = cm["metadata"]["resourceVersion"].as_str().unwrap().parse().unwrap();

    // Asked to stay open for 31 years, the watch ends at twice the minimum (4 s here); the
    // guard only keeps a regression from hanging the suite.
    let req = Request::get(format!("{CMS}?watch=true&timeoutSeconds=999999999")).body(vec![]).unwrap();
    let resp = c.send(req.map(kube::client::Body::from)).await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let ended =
        tokio::time::timeout(Duration::from_secs(120), http_body_util::BodyExt::collect(resp.into_body())).await;
    let events = ended.expect("the server closed the watch").unwrap().to_bytes();
    let first: Value = serde_json::from_slice(events.split(|b| *b == b'\n').next().unwrap()).unwrap();
    assert_eq!((&first["type"], &first["object"]["metadata"]["name"]), (&json!("ADDED"), &json!("rv")));

    // A resourceVersion the store has not reached: kube's 504, which client-go retries.
    let future = current + 1_000_000;
    for query in [
        format!("{CMS}/rv?resourceVersion={future}"),
        format!("{CMS}?resourceVersion={future}"),
        format!("{CMS}?resourceVersion={future}&resourceVersionMatch=Exact"),
        format!("{CMS}?resourceVersion={future}&resourceVersionMatch=NotOlderThan"),
        format!("{CMS}?watch=true&resourceVersion={future}"),
    ] {
        let (code, body) = get(&c, &query).await;
        assert_eq!((code, &body["reason"], &body["code"]), (504, &json!("Timeout"), &json!(504)), "{body}");
        // The plane's own controllers may have written since: the current version only grows.
        let msg = body["message"].as_str().unwrap();
        let prefix = format!("Timeout: Too large resource version: {future}, current: ");
        let now: i64 = msg.strip_prefix(&prefix).unwrap_or_else(|| panic!("{msg}")).parse().unwrap();
        assert!(now >= current && now < future, "{msg}");
        assert_eq!(
            body["details"],
            json!({"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}],
                "retryAfterSeconds": 1}),
            "{query}"
        );
    }
    // The delay is in the header too, where client-go reads it.
    let req = Request::get(format!("{CMS}?resourceVersion={future}")).body(vec![]).unwrap();
    let resp = c.send(req.map(kube::client::Body::from)).await.unwrap();
    assert_eq!(resp.status().as_u16(), 504);
    assert_eq!(resp.headers().get("retry-after").map(|v| v.to_str().unwrap()), Some("1"));
    // The current version itself is fine.
    assert_eq!(get(&c, &format!("{CMS}/rv?resourceVersion={current}")).await.0, 200);
}
