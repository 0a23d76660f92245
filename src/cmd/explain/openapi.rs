//! Reading the server's OpenAPI v3 as kubectl's openapi client does: the `/openapi/v3` index of
//! group-versions, then the one document explain needs, at the URL (with its `?hash=`) the
//! index names. Both answers are bounded in size.

use http_body_util::{BodyExt, Limited};
use serde_json::Value;

/// The largest document accepted. kube-apiserver's biggest (`api/v1`) is about 1.5 MiB.
const MAX_DOCUMENT: usize = 64 << 20;

/// `api/v1` or `apis/<group>/<version>`: the index key of a group-version.
pub fn key(group: &str, version: &str) -> String {
    if group.is_empty() { format!("api/{version}") } else { format!("apis/{group}/{version}") }
}

/// The index: each group-version's key and its document's server-relative URL.
pub async fn index(client: &kube::Client) -> Result<Vec<(String, String)>, String> {
    let body = get(client, "/openapi/v3").await?;
    let parsed: Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    let paths = parsed.get("paths").and_then(Value::as_object).ok_or("the index has no paths")?;
    Ok(paths.iter().filter_map(|(k, v)| Some((k.clone(), v.get("serverRelativeURL")?.as_str()?.to_string()))).collect())
}

/// One group-version's document.
pub async fn document(client: &kube::Client, url: &str) -> Result<Vec<u8>, String> {
    get(client, url).await
}

async fn get(client: &kube::Client, url: &str) -> Result<Vec<u8>, String> {
    let request = http::Request::get(url)
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(Vec::new()))
        .map_err(|e| e.to_string())?;
    let response = client.send(request).await.map_err(|e| crate::error::with_causes(&e))?;
    let status = response.status();
    let body = Limited::new(response.into_body(), MAX_DOCUMENT)
        .collect()
        .await
        .map_err(|e| match e.downcast_ref::<http_body_util::LengthLimitError>() {
            Some(_) => format!("the answer is larger than {} MiB", MAX_DOCUMENT >> 20),
            None => e.to_string(),
        })?
        .to_bytes()
        .to_vec();
    if status.is_success() {
        return Ok(body);
    }
    // The server's own words when it sent a Status, as client-go reports them.
    let message = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_string))
        .filter(|m| !m.is_empty());
    Err(match (status, message) {
        (_, Some(m)) => m,
        (http::StatusCode::NOT_FOUND, None) => "the server could not find the requested resource".into(),
        (s, None) => format!("the server answered {s}"),
    })
}
