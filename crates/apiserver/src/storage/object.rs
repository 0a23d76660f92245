//! Object semantics shared by every verb: metadata fields the server owns (uid,
//! resourceVersion, creationTimestamp, generation), status handling, and timestamps.

use serde_json::{Map, Value};

/// Now, in the RFC 3339 form with whole seconds that Kubernetes uses for metav1.Time.
pub fn now_rfc3339() -> String {
    let now = jiff::Timestamp::now();
    jiff::Timestamp::from_second(now.as_second()).unwrap_or(now).to_string()
}

/// The `metadata` map of an object, created if missing.
pub fn meta_mut(obj: &mut Value) -> &mut Map<String, Value> {
    if !obj.get("metadata").is_some_and(Value::is_object) {
        obj["metadata"] = Value::Object(Map::new());
    }
    match obj.get_mut("metadata") {
        Some(Value::Object(m)) => m,
        // Just made sure it is an object.
        _ => unreachable!("metadata was set to an object above"),
    }
}

/// Whether `obj` carries a deletionTimestamp: it is going, held only by its finalizers.
pub fn marked_for_deletion(obj: &Value) -> bool {
    obj.get("metadata").and_then(|m| m.get("deletionTimestamp")).is_some()
}

pub fn meta_str<'a>(obj: &'a Value, field: &str) -> Option<&'a str> {
    obj.get("metadata")?.get(field)?.as_str()
}

/// The object's labels as a sorted map (empty when none).
pub fn labels(obj: &Value) -> std::collections::BTreeMap<String, String> {
    obj.get("metadata")
        .and_then(|m| m.get("labels"))
        .and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string()))).collect())
        .unwrap_or_default()
}

/// The finalizers of an object.
pub fn finalizers(obj: &Value) -> Vec<String> {
    obj.get("metadata")
        .and_then(|m| m.get("finalizers"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// A Namespace's `spec.finalizers`: what must finish (emptying it) before it is deleted.
pub fn namespace_finalizers(obj: &Value) -> Vec<String> {
    obj.get("spec")
        .and_then(|m| m.get("finalizers"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// Sets `metadata.resourceVersion` for an object read from the store (the store's value never
/// holds it: the revision is the version).
pub fn with_resource_version(mut obj: Value, revision: i64) -> Value {
    meta_mut(&mut obj).insert("resourceVersion".into(), Value::String(revision.to_string()));
    obj
}

/// The bytes to store: the object without `resourceVersion` (the store's revision is it) and
/// without `selfLink` (deprecated and never set by kube-apiserver since 1.20).
pub fn to_stored_bytes(obj: &Value) -> bytes::Bytes {
    let mut obj = obj.clone();
    let meta = meta_mut(&mut obj);
    meta.remove("resourceVersion");
    meta.remove("selfLink");
    bytes::Bytes::from(serde_json::to_vec(&obj).unwrap_or_default())
}

/// Whether anything outside metadata and status changed: that is what bumps `generation`.
pub fn spec_changed(old: &Value, new: &Value) -> bool {
    let strip = |v: &Value| -> Value {
        let mut v = v.clone();
        if let Value::Object(m) = &mut v {
            m.remove("metadata");
            m.remove("status");
            m.remove("apiVersion");
            m.remove("kind");
        }
        v
    };
    strip(old) != strip(new)
}

/// Parses a resourceVersion string as kube-apiserver does (a non-negative integer).
pub fn parse_resource_version(rv: &str) -> Option<i64> {
    rv.parse::<i64>().ok().filter(|v| *v >= 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn marked_for_deletion_means_a_deletion_timestamp() {
        assert!(!marked_for_deletion(&json!({"metadata": {"name": "a"}})));
        assert!(!marked_for_deletion(&json!({})));
        assert!(marked_for_deletion(&json!({"metadata": {"name": "a", "deletionTimestamp": "2026-01-01T00:00:00Z"}})));
    }

    #[test]
    fn generation_tracks_spec_only() {
        let a = json!({"metadata": {"labels": {"a": "1"}}, "spec": {"replicas": 1}, "status": {"x": 1}});
        let mut b = a.clone();
        b["metadata"]["labels"]["a"] = json!("2");
        b["status"]["x"] = json!(2);
        assert!(!spec_changed(&a, &b));
        b["spec"]["replicas"] = json!(2);
        assert!(spec_changed(&a, &b));
        let cm_old = json!({"metadata": {}, "data": {"k": "v"}});
        let cm_new = json!({"metadata": {}, "data": {"k": "w"}});
        assert!(spec_changed(&cm_old, &cm_new));
    }

    #[test]
    fn stored_bytes_drop_the_version() {
        let obj = json!({"metadata": {"name": "x", "resourceVersion": "7", "selfLink": "/x"}});
        let stored: Value = serde_json::from_slice(&to_stored_bytes(&obj)).unwrap();
        assert_eq!(stored, json!({"metadata": {"name": "x"}}));
        assert_eq!(meta_str(&with_resource_version(stored, 9), "resourceVersion"), Some("9"));
    }

    #[test]
    fn timestamps_have_whole_seconds() {
        let t = now_rfc3339();
        assert!(t.ends_with('Z') && !t.contains('.'), "{t}");
    }
}
