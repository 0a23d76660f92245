//! Unit tests for request_info.rs, one per URL shape (cases follow requestinfo_test.go).

use super::*;

struct Want<'a> {
    verb: &'a str,
    prefix: &'a str,
    group: &'a str,
    version: &'a str,
    namespace: &'a str,
    resource: &'a str,
    sub: &'a str,
    name: &'a str,
    parts: &'a [&'a str],
}

fn check(method: &str, url: &str, w: Want<'_>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let got = RequestInfo::parse(method, path, query);
    let want = RequestInfo {
        is_resource_request: true,
        path: path.to_string(),
        verb: w.verb.into(),
        api_prefix: w.prefix.into(),
        api_group: w.group.into(),
        api_version: w.version.into(),
        namespace: w.namespace.into(),
        resource: w.resource.into(),
        subresource: w.sub.into(),
        name: w.name.into(),
        parts: w.parts.iter().map(|p| p.to_string()).collect(),
        error: None,
    };
    assert_eq!(got, want, "{method} {url}");
}

fn core<'a>(verb: &'a str, namespace: &'a str, resource: &'a str, name: &'a str, parts: &'a [&'a str]) -> Want<'a> {
    Want { verb, prefix: "api", group: "", version: "v1", namespace, resource, sub: "", name, parts }
}

#[test]
fn core_group_verbs() {
    check("GET", "/api/v1/namespaces", core("list", "", "namespaces", "", &["namespaces"]));
    check("GET", "/api/v1/namespaces/other", core("get", "other", "namespaces", "other", &["namespaces", "other"]));
    check("GET", "/api/v1/namespaces/other/pods", core("list", "other", "pods", "", &["pods"]));
    check("GET", "/api/v1/namespaces/other/pods/foo", core("get", "other", "pods", "foo", &["pods", "foo"]));
    check("HEAD", "/api/v1/namespaces/other/pods/foo", core("get", "other", "pods", "foo", &["pods", "foo"]));
    check("GET", "/api/v1/pods", core("list", "", "pods", "", &["pods"]));
    check("POST", "/api/v1/namespaces/other/pods", core("create", "other", "pods", "", &["pods"]));
    check("PUT", "/api/v1/namespaces/other/pods/foo", core("update", "other", "pods", "foo", &["pods", "foo"]));
    check("PATCH", "/api/v1/namespaces/other/pods/foo", core("patch", "other", "pods", "foo", &["pods", "foo"]));
    check("DELETE", "/api/v1/namespaces/other/pods/foo", core("delete", "other", "pods", "foo", &["pods", "foo"]));
    check("DELETE", "/api/v1/namespaces/other/pods", core("deletecollection", "other", "pods", "", &["pods"]));
    check("OPTIONS", "/api/v1/pods/foo", core("", "", "pods", "foo", &["pods", "foo"]));
}

#[test]
fn watch_forms() {
    check("GET", "/api/v1/namespaces/other/pods?watch=true", core("watch", "other", "pods", "", &["pods"]));
    check("GET", "/api/v1/namespaces/other/pods?watch=1", core("watch", "other", "pods", "", &["pods"]));
    check("GET", "/api/v1/namespaces/other/pods?watch=False", core("list", "other", "pods", "", &["pods"]));
    check("GET", "/api/v1/namespaces/other/pods?watch=0", core("list", "other", "pods", "", &["pods"]));
    check("GET", "/api/v1/watch/pods", core("watch", "", "pods", "", &["pods"]));
    check("GET", "/api/v1/watch/namespaces/other/pods", core("watch", "other", "pods", "", &["pods"]));
    check("GET", "/api/v1/watch/namespaces/other/pods/foo", core("watch", "other", "pods", "foo", &["pods", "foo"]));
    // A pinned name makes a list/watch of one object.
    check(
        "GET",
        "/api/v1/namespaces/other/pods?fieldSelector=metadata.name%3Dfoo&watch=true",
        core("watch", "other", "pods", "foo", &["pods"]),
    );
    check("GET", "/api/v1/pods?fieldSelector=metadata.name%3D..", core("list", "", "pods", "", &["pods"]));
    check(
        "GET",
        "/api/v1/pods?fieldSelector=metadata.name%3Dfoo&labelSelector=a%20b",
        core("list", "", "pods", "", &["pods"]),
    );
}

#[test]
fn namespace_subresources_and_subresources() {
    check(
        "PUT",
        "/api/v1/namespaces/other/finalize",
        Want {
            sub: "finalize",
            ..core("update", "other", "namespaces", "other", &["namespaces", "other", "finalize"])
        },
    );
    check(
        "GET",
        "/api/v1/namespaces/other/status",
        Want { sub: "status", ..core("get", "other", "namespaces", "other", &["namespaces", "other", "status"]) },
    );
    check(
        "PUT",
        "/api/v1/namespaces/other/pods/foo/status",
        Want { sub: "status", ..core("update", "other", "pods", "foo", &["pods", "foo", "status"]) },
    );
    check(
        "GET",
        "/api/v1/namespaces/other/pods/foo/log",
        Want { sub: "log", ..core("get", "other", "pods", "foo", &["pods", "foo", "log"]) },
    );
}

#[test]
fn named_groups_and_cluster_scope() {
    let apps = |verb, namespace, resource, sub, name, parts| Want {
        verb,
        prefix: "apis",
        group: "apps",
        version: "v1",
        namespace,
        resource,
        sub,
        name,
        parts,
    };
    check("GET", "/apis/apps/v1/namespaces/d/deployments", apps("list", "d", "deployments", "", "", &["deployments"]));
    check(
        "PUT",
        "/apis/apps/v1/namespaces/d/deployments/x/scale",
        apps("update", "d", "deployments", "scale", "x", &["deployments", "x", "scale"]),
    );
    let karmada = |verb, sub, name, parts| Want {
        verb,
        prefix: "apis",
        group: "cluster.karmada.io",
        version: "v1alpha1",
        namespace: "",
        resource: "clusters",
        sub,
        name,
        parts,
    };
    check("GET", "/apis/cluster.karmada.io/v1alpha1/clusters", karmada("list", "", "", &["clusters"]));
    check("DELETE", "/apis/cluster.karmada.io/v1alpha1/clusters/m1", karmada("delete", "", "m1", &["clusters", "m1"]));
    check(
        "GET",
        "/apis/cluster.karmada.io/v1alpha1/clusters/m1/proxy/api/v1/pods",
        karmada("get", "proxy", "m1", &["clusters", "m1", "proxy", "api", "v1", "pods"]),
    );
}

#[test]
fn legacy_proxy_verb_has_no_subresource() {
    check(
        "GET",
        "/api/v1/proxy/namespaces/other/pods/foo/bar",
        core("proxy", "other", "pods", "foo", &["pods", "foo", "bar"]),
    );
}

#[test]
fn non_resource_paths() {
    for (method, path, prefix) in [
        ("GET", "/healthz", ""),
        ("GET", "/version", ""),
        ("GET", "/", ""),
        ("GET", "/api", ""),
        ("GET", "/api/v1", ""),
        ("GET", "/apis", ""),
        ("GET", "/apis/apps", ""),
        ("GET", "/apis/apps/v1", "apis"),
        ("GET", "/openapi/v3/apis/apps/v1", ""),
        ("POST", "/livez", ""),
    ] {
        let got = RequestInfo::parse(method, path, "");
        assert!(!got.is_resource_request, "{path}");
        assert_eq!(got.verb, method.to_ascii_lowercase(), "{path}");
        assert_eq!(got.path, path);
        assert_eq!(got.api_prefix, prefix, "{path}");
        assert!(got.resource.is_empty() && got.parts.is_empty(), "{path}");
    }
}

#[test]
fn decoding_and_errors() {
    let got = RequestInfo::parse("GET", "/api/v1/namespaces/a%20b/configmaps/c%3Ad", "");
    assert_eq!((got.namespace.as_str(), got.name.as_str()), ("a b", "c:d"));
    assert_eq!(got.path, "/api/v1/namespaces/a b/configmaps/c:d");
    let got = RequestInfo::parse("GET", "/api/v1/watch", "");
    assert!(got.is_resource_request && got.error.is_some());
    let got = RequestInfo::parse("GET", "/api/v1/pods/%zz", "");
    assert_eq!(got.name, "%zz");
}
