//! URL → request attributes, as k8s.io/apiserver/pkg/endpoints/request/requestinfo.go derives them.

use super::field_selector::FieldSelector;
use super::names::is_valid_path_segment_name;
use super::selector::LabelSelector;

/// Path segments that act as verbs (`/api/v1/watch/...`, `/api/v1/proxy/...`).
const SPECIAL_VERBS: [&str; 2] = ["proxy", "watch"];
/// Subresources of a namespace itself, as opposed to resources inside it.
const NAMESPACE_SUBRESOURCES: [&str; 2] = ["status", "finalize"];

/// What a request is about, for authorization, admission and routing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestInfo {
    /// Whether the URL names an API resource (as opposed to `/healthz`, `/apis`, discovery...).
    pub is_resource_request: bool,
    /// The decoded URL path.
    pub path: String,
    /// The Kubernetes verb (get, list, watch, create, update, patch, delete, deletecollection,
    /// proxy), or the lowercase HTTP method for non-resource requests.
    pub verb: String,
    /// `api` or `apis` (set whenever the path starts with one and has three or more segments).
    pub api_prefix: String,
    /// The API group; empty for the core group.
    pub api_group: String,
    /// The API version.
    pub api_version: String,
    /// The namespace; for `/api/v1/namespaces/{name}` it is the namespace itself, as upstream.
    pub namespace: String,
    /// The resource (plural).
    pub resource: String,
    /// The subresource (`status`, `scale`, `proxy`, ...).
    pub subresource: String,
    /// The object name; for list/watch also taken from a `metadata.name=` field selector.
    pub name: String,
    /// The path parts starting at the resource: `[resource, name, subresource, rest...]`.
    pub parts: Vec<String>,
    /// Set when upstream would fail to build request info (`/api/v1/watch` with nothing
    /// after it); kube-apiserver answers such requests with a 500.
    pub error: Option<String>,
}

/// Decodes `%XX` escapes like Go's URL.Path (no `+` → space in paths). Invalid escapes are
/// kept literally (Go's server would have rejected the URL before routing).
fn percent_decode(path: &str) -> String {
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (b.get(i + 1).and_then(|c| hex(*c)), b.get(i + 2).and_then(|c| hex(*c)))
        {
            // Two hex digits are at most 0xff, so the narrowing cannot truncate.
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn first_query_value(query: &str, key: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == key).map(|(_, v)| v.into_owned())
}

impl RequestInfo {
    /// Derives request attributes from the HTTP method, the raw (percent-encoded) request path
    /// and the raw query string.
    pub fn parse(method: &str, path: &str, query: &str) -> RequestInfo {
        let path = percent_decode(path);
        let mut info = RequestInfo { path: path.clone(), verb: method.to_ascii_lowercase(), ..RequestInfo::default() };
        let trimmed = path.trim_matches('/');
        let all: Vec<&str> = if trimmed.is_empty() { Vec::new() } else { trimmed.split('/').collect() };
        if all.len() < 3 || !matches!(all[0], "api" | "apis") {
            return info;
        }
        info.api_prefix = all[0].to_string();
        let mut parts = &all[1..];
        if info.api_prefix == "apis" {
            if parts.len() < 3 {
                return info;
            }
            info.api_group = parts[0].to_string();
            parts = &parts[1..];
        }
        // From here `parts` always has at least one element: the length checks above leave two
        // or more before the version, the special-verb check two or more before the verb, and
        // the namespace re-rooting keeps at least one.
        info.is_resource_request = true;
        info.api_version = parts[0].to_string();
        parts = &parts[1..];

        if SPECIAL_VERBS.contains(&parts[0]) {
            if parts.len() < 2 {
                info.error = Some(format!("unable to determine kind and namespace from url, {path}"));
                return info;
            }
            info.verb = parts[0].to_string();
            parts = &parts[1..];
        } else {
            info.verb = match method.to_ascii_uppercase().as_str() {
                "POST" => "create",
                "GET" | "HEAD" => "get",
                "PUT" => "update",
                "PATCH" => "patch",
                "DELETE" => "delete",
                _ => "",
            }
            .to_string();
        }

        // /namespaces/{ns}/{resource}/...: re-root the parts at the resource, unless what follows
        // the namespace name is one of the namespace's own subresources.
        if parts[0] == "namespaces" && parts.len() > 1 {
            info.namespace = parts[1].to_string();
            if parts.len() > 2 && !NAMESPACE_SUBRESOURCES.contains(&parts[2]) {
                parts = &parts[2..];
            }
        }
        info.parts = parts.iter().map(|p| p.to_string()).collect();
        info.resource = parts[0].to_string();
        if let Some(name) = parts.get(1) {
            info.name = name.to_string();
        }
        if parts.len() >= 3 && info.verb != "proxy" {
            info.subresource = parts[2].to_string();
        }

        if info.name.is_empty() && info.verb == "get" {
            info.resolve_list_or_watch(query);
        }
        if info.name.is_empty() && info.verb == "delete" {
            info.verb = "deletecollection".to_string();
        }
        info
    }

    /// A nameless GET is a list or a watch; a `metadata.name=` field selector names the object.
    /// Any `watch` value but `0`/`false` means watch (runtime.Convert_Slice_string_To_bool).
    fn resolve_list_or_watch(&mut self, query: &str) {
        let watch = first_query_value(query, "watch").is_some_and(|v| v != "0" && !v.eq_ignore_ascii_case("false"));
        self.verb = if watch { "watch" } else { "list" }.to_string();
        // Upstream decodes all list options and ignores the selector if any of them is invalid;
        // the selectors are the options that can fail here.
        if first_query_value(query, "labelSelector").is_some_and(|l| LabelSelector::parse(&l).is_err()) {
            return;
        }
        let Some(fs) = first_query_value(query, "fieldSelector") else { return };
        let Ok(fs) = FieldSelector::parse(&fs) else { return };
        if let Some(name) = fs.requires_exact_match("metadata.name")
            && is_valid_path_segment_name(name).is_empty()
        {
            self.name = name.to_string();
        }
    }
}

#[cfg(test)]
#[path = "request_info_tests.rs"]
mod tests;
