//! The plane's own request counters, read from its `/metrics` by a benchmark.

use std::collections::HashMap;

/// The plane's write requests so far (every verb but get, list and watch), by the labels of
/// `apiserver_request_total` (verb, resource, subresource, code).
pub async fn writes(plane: &kube::Client) -> HashMap<String, u64> {
    let request = http::Request::get("/metrics").body(vec![]).unwrap();
    let text = plane.request_text(request).await.unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("apiserver_request_total{"))
        .filter_map(|l| l.rsplit_once("} "))
        .filter(|(labels, _)| !["get", "list", "watch"].iter().any(|v| labels.contains(&format!("verb=\"{v}\""))))
        .filter_map(|(labels, n)| Some((labels.to_string(), n.parse().ok()?)))
        .collect()
}

/// Writes counted in `after` and not in `before`, by labels, most first.
pub fn since(before: &HashMap<String, u64>, after: HashMap<String, u64>) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = after
        .into_iter()
        .map(|(k, n)| {
            let was = before.get(&k).copied().unwrap_or(0);
            (k, n.saturating_sub(was))
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    out.sort_by_key(|w| std::cmp::Reverse(w.1));
    out
}
