//! Sending a change to one object, as kubectl's resource helper does: a JSON merge patch
//! computed from the object before and after the change, with the command's field manager
//! and `--dry-run=server`.

use serde_json::{Map, Value};

use super::pairs::DryRun;
use super::{Failure, Target};

/// PATCHes the target with `content_type` and returns the object the server answered with.
pub async fn patch(
    client: &kube::Client,
    target: &Target,
    content_type: &str,
    body: Vec<u8>,
    dry_run: DryRun,
    field_manager: &str,
    subresource: Option<&str>,
) -> Result<Value, Failure> {
    let mut query = form_urlencoded::Serializer::new(String::new());
    if dry_run == DryRun::Server {
        query.append_pair("dryRun", "All");
    }
    if !field_manager.is_empty() {
        query.append_pair("fieldManager", field_manager);
    }
    let mut path = target.path();
    if let Some(sub) = subresource {
        path = format!("{path}/{sub}");
    }
    let query = query.finish();
    if !query.is_empty() {
        path = format!("{path}?{query}");
    }
    let req = http::Request::patch(path)
        .header(http::header::CONTENT_TYPE, content_type)
        .body(body)
        .map_err(|e| Failure::Plain(e.to_string()))?;
    client.request::<Value>(req).await.map_err(Failure::from_kube)
}

/// The `--list` lines for one object's labels or annotations (`what`): with a heading naming
/// the object when several were selected, as kubectl prints them.
pub fn listing(what: &str, object: &Value, field: &str, single: bool) -> String {
    let text = |p: &str| object.pointer(p).and_then(Value::as_str).unwrap_or_default();
    let mut out = String::new();
    let indent = if single { "" } else { " " };
    if !single {
        let group = crate::output::group_of(text("/apiVersion"));
        out.push_str(&format!("Listing {what} for {}.{group}/{}:\n", text("/kind"), text("/metadata/name")));
    }
    if let Some(map) = object.pointer(&format!("/metadata/{field}")).and_then(Value::as_object) {
        for (k, v) in map {
            out.push_str(&format!("{indent}{k}={}\n", v.as_str().unwrap_or_default()));
        }
    }
    out
}

/// Sets `metadata.resourceVersion`, or removes it for an empty value (as kubectl's accessor).
pub fn set_resource_version(object: &mut Value, version: &str) {
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        if version.is_empty() {
            meta.remove("resourceVersion");
        } else {
            meta.insert("resourceVersion".into(), Value::String(version.into()));
        }
    }
}

/// The string map at `metadata.<field>` (labels, annotations), empty when absent.
pub fn string_map(object: &Value, field: &str) -> std::collections::BTreeMap<String, String> {
    object
        .pointer(&format!("/metadata/{field}"))
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
        .unwrap_or_default()
}

/// Replaces `metadata.<field>` with `map` (an empty map stays, as kubectl's accessor leaves it).
pub fn set_string_map(object: &mut Value, field: &str, map: &std::collections::BTreeMap<String, String>) {
    if let Some(meta) = object.as_object_mut().map(|o| o.entry("metadata").or_insert_with(|| Value::Object(Map::new())))
        && let Some(meta) = meta.as_object_mut()
    {
        let value = map.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
        meta.insert(field.to_string(), Value::Object(value));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn listings_head_each_object_when_several() {
        let obj = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"a": "b"}}});
        assert_eq!(listing("labels", &obj, "labels", true), "a=b\n");
        assert_eq!(listing("labels", &obj, "labels", false), "Listing labels for ConfigMap./c:\n a=b\n");
    }
}
