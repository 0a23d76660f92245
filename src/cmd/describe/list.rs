//! Reading a whole collection in pages of `--chunk-size`, following `continue` tokens as
//! kubectl's `FollowContinue` does, with a bound on the number of pages.

use serde_json::Value;

use super::targets::Failure;

/// The most pages read for one collection, so a server that always answers with a `continue`
/// token cannot keep the command reading forever.
const MAX_PAGES: usize = 10_000;

/// Every item of `collection` (a path), with `query` pairs added to each request.
pub async fn items(
    client: &kube::Client,
    collection: &str,
    query: &[(&str, &str)],
    chunk_size: i64,
) -> Result<Vec<Value>, Failure> {
    let mut out = Vec::new();
    let mut next = String::new();
    for _ in 0..MAX_PAGES {
        let mut q = form_urlencoded::Serializer::new(String::new());
        for (k, v) in query.iter().filter(|(_, v)| !v.is_empty()) {
            q.append_pair(k, v);
        }
        if chunk_size > 0 {
            q.append_pair("limit", &chunk_size.to_string());
        }
        if !next.is_empty() {
            q.append_pair("continue", &next);
        }
        let q = q.finish();
        let path = if q.is_empty() { collection.to_string() } else { format!("{collection}?{q}") };
        let request = http::Request::get(path).body(Vec::new()).map_err(|e| Failure::Other(e.to_string()))?;
        let page: Value = client.request(request).await.map_err(Failure::from_kube)?;
        out.extend(page["items"].as_array().cloned().unwrap_or_default());
        next = page["metadata"]["continue"].as_str().unwrap_or_default().to_string();
        if next.is_empty() {
            break;
        }
    }
    Ok(out)
}
