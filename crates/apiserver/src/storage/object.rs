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
/// Written without copying the object (every write stores one).
pub fn to_stored_bytes(obj: &Value) -> bytes::Bytes {
    if !obj.get("metadata").is_some_and(Value::is_object) {
        // Not seen from the handlers, which give every object its metadata; stored with an
        // empty one all the same.
        let mut obj = obj.clone();
        meta_mut(&mut obj);
        return bytes::Bytes::from(serde_json::to_vec(&obj).unwrap_or_default());
    }
    bytes::Bytes::from(serde_json::to_vec(&Stored(obj)).unwrap_or_default())
}

/// An object as [`to_stored_bytes`] writes it: its members in their order, its metadata
/// without the fields the store does not keep.
struct Stored<'a>(&'a Value);

/// Metadata fields never stored.
const NOT_STORED: [&str; 2] = ["resourceVersion", "selfLink"];

impl serde::Serialize for Stored<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let Value::Object(top) = self.0 else { return self.0.serialize(s) };
        let mut out = s.serialize_map(None)?;
        for (key, value) in top {
            match value {
                Value::Object(meta) if key == "metadata" => {
                    out.serialize_entry(key, &StoredMeta(meta))?;
                }
                _ => out.serialize_entry(key, value)?,
            }
        }
        out.end()
    }
}

struct StoredMeta<'a>(&'a Map<String, Value>);

impl serde::Serialize for StoredMeta<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut out = s.serialize_map(None)?;
        for (key, value) in self.0.iter().filter(|(k, _)| !NOT_STORED.contains(&k.as_str())) {
            out.serialize_entry(key, value)?;
        }
        out.end()
    }
}

/// Whether `a` and `b` are the same object apart from `metadata.resourceVersion` (a missing
/// metadata counts as an empty one). Compared member by member, so neither is copied.
pub fn same_but_resource_version(a: &Value, b: &Value) -> bool {
    let (Value::Object(a), Value::Object(b)) = (a, b) else { return a == b };
    let empty = Map::new();
    fn meta<'a>(m: &'a Map<String, Value>, empty: &'a Map<String, Value>) -> Option<&'a Map<String, Value>> {
        match m.get("metadata") {
            Some(Value::Object(meta)) => Some(meta),
            None => Some(empty),
            Some(_) => None,
        }
    }
    let same_but = |a: &Map<String, Value>, b: &Map<String, Value>, skip: &str| {
        a.iter().filter(|(k, _)| *k != skip).count() == b.iter().filter(|(k, _)| *k != skip).count()
            && a.iter().all(|(k, v)| k == skip || b.get(k) == Some(v))
    };
    match (meta(a, &empty), meta(b, &empty)) {
        (Some(ma), Some(mb)) => same_but(a, b, "metadata") && same_but(ma, mb, "resourceVersion"),
        _ => a == b,
    }
}

/// Members of an object that are not its spec.
const NOT_SPEC: [&str; 4] = ["metadata", "status", "apiVersion", "kind"];

/// Whether anything outside metadata and status changed: that is what bumps `generation`.
/// Compared member by member, so neither object is copied.
pub fn spec_changed(old: &Value, new: &Value) -> bool {
    let (Value::Object(old), Value::Object(new)) = (old, new) else { return old != new };
    let missing_from = |a: &Map<String, Value>, b: &Map<String, Value>| {
        a.iter().any(|(k, v)| !NOT_SPEC.contains(&k.as_str()) && b.get(k) != Some(v))
    };
    missing_from(old, new) || missing_from(new, old)
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
    fn stored_bytes_are_the_object_without_server_only_metadata() {
        let obj = json!({"kind": "ConfigMap", "apiVersion": "v1", "data": {"b": "2", "a": [1, {"x": null}]},
            "metadata": {"name": "c", "resourceVersion": "9", "selfLink": "/x", "labels": {"k": "v"}}});
        let mut expected = obj.clone();
        expected["metadata"].as_object_mut().unwrap().retain(|k, _| k != "resourceVersion" && k != "selfLink");
        assert_eq!(to_stored_bytes(&obj), serde_json::to_vec(&expected).unwrap());
        assert_eq!(
            to_stored_bytes(&json!({"kind": "X"})),
            serde_json::to_vec(&json!({"kind": "X", "metadata": {}})).unwrap()
        );
        assert_eq!(to_stored_bytes(&json!({"metadata": 1})), serde_json::to_vec(&json!({"metadata": {}})).unwrap());
    }

    #[test]
    fn spec_changes_and_sameness_compare_the_right_members() {
        let a = json!({"kind": "D", "metadata": {"name": "a", "resourceVersion": "1"}, "spec": {"r": 1}, "status": {"s": 1}});
        let mut b = a.clone();
        b["metadata"]["resourceVersion"] = json!("2");
        b["status"]["s"] = json!(2);
        assert!(!spec_changed(&a, &b));
        assert!(!same_but_resource_version(&a, &b));
        b["status"]["s"] = json!(1);
        assert!(same_but_resource_version(&a, &b));
        b["metadata"]["labels"] = json!({"l": "v"});
        assert!(!same_but_resource_version(&a, &b) && !spec_changed(&a, &b));
        let mut c = a.clone();
        c["spec"]["r"] = json!(2);
        assert!(spec_changed(&a, &c) && !same_but_resource_version(&a, &c));
        let mut d = a.clone();
        d["extra"] = json!(true);
        assert!(spec_changed(&a, &d) && spec_changed(&d, &a));
        assert!(!same_but_resource_version(&a, &d) && !same_but_resource_version(&d, &a));
        d.as_object_mut().unwrap().remove("extra");
        d.as_object_mut().unwrap().remove("kind");
        assert!(!spec_changed(&a, &d));
        assert!(same_but_resource_version(
            &json!({"kind": "X"}),
            &json!({"kind": "X", "metadata": {"resourceVersion": "3"}})
        ));
    }

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
