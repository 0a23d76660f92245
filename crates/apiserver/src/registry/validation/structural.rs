//! Walks an object alongside its structural schema: pruning, defaulting, and the checks JSON
//! Schema cannot express (list-type uniqueness, embedded resources).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::field::{FieldError, child, index};
use super::unknown::prune_metadata;

fn flag(s: &Value, key: &str) -> bool {
    s.get(key).and_then(Value::as_bool) == Some(true)
}

/// The schema for a key of an object: from `properties`, else a schema-valued
/// `additionalProperties`.
pub(crate) fn field_schema<'a>(s: &'a Value, key: &str) -> Option<&'a Value> {
    s.get("properties").and_then(|p| p.get(key)).or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
}

/// [`prune`] from the root of an object, leaving alone top-level fields equal to those of `old`
/// (the stored copy, already pruned).
pub fn prune_root(v: &mut Value, s: &Value, old: Option<&Value>, out: &mut Vec<String>) {
    prune_at(v, s, "", true, old, out);
}

/// Removes fields the schema does not know, recording their paths. At the root and in embedded
/// resources `apiVersion` and `kind` are always kept and `metadata` is pruned to `ObjectMeta`.
pub fn prune(v: &mut Value, s: &Value, path: &str, root: bool, out: &mut Vec<String>) {
    prune_at(v, s, path, root, None, out);
}

fn prune_at(v: &mut Value, s: &Value, path: &str, root: bool, old: Option<&Value>, out: &mut Vec<String>) {
    let resource = root || flag(s, "x-kubernetes-embedded-resource");
    let keep_unknown =
        flag(s, "x-kubernetes-preserve-unknown-fields") || s.get("additionalProperties") == Some(&Value::Bool(true));
    match v {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                let p = child(path, &k);
                if resource && (k == "apiVersion" || k == "kind") {
                    continue;
                }
                let Some(value) = map.get_mut(&k) else { continue };
                if old.and_then(|o| o.get(&k)) == Some(&*value) {
                    continue;
                }
                if resource && k == "metadata" {
                    prune_metadata(value, &p, out);
                } else if let Some(fs) = field_schema(s, &k) {
                    prune(value, fs, &p, false, out);
                } else if !keep_unknown {
                    map.remove(&k);
                    out.push(p);
                }
            }
        }
        Value::Array(items) => {
            if let Some(is) = s.get("items").filter(|i| i.is_object()) {
                for (i, item) in items.iter_mut().enumerate() {
                    prune(item, is, &index(path, i), false, out);
                }
            }
        }
        _ => {}
    }
}

/// Applies `default:` values to absent fields, and replaces nulls in non-nullable fields with
/// their default or drops them (kube does this since 1.20). Root `metadata` is left alone.
pub fn default(v: &mut Value, s: &Value, root: bool) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = s.get("properties") {
                for (k, ps) in props {
                    if root && k == "metadata" {
                        continue;
                    }
                    fill(map, k, ps);
                }
            }
            if let Some(addl) = s.get("additionalProperties").filter(|a| a.is_object()) {
                let keys: Vec<String> = map.keys().cloned().collect();
                for k in keys {
                    fill(map, &k, addl);
                }
            }
            for (k, value) in map.iter_mut() {
                if root && k == "metadata" {
                    continue;
                }
                if let Some(fs) = field_schema(s, k) {
                    default(value, fs, false);
                }
            }
        }
        Value::Array(items) => {
            if let Some(is) = s.get("items").filter(|i| i.is_object()) {
                for item in items.iter_mut() {
                    // Dropping a list item would shift indices, so nulls only take a default.
                    if item.is_null()
                        && !flag(is, "nullable")
                        && let Some(d) = is.get("default")
                    {
                        *item = d.clone();
                    }
                    default(item, is, false);
                }
            }
        }
        _ => {}
    }
}

fn fill(map: &mut Map<String, Value>, key: &str, schema: &Value) {
    let default = schema.get("default");
    match map.get(key) {
        None => {
            if let Some(d) = default {
                map.insert(key.to_string(), d.clone());
            }
        }
        Some(Value::Null) if !flag(schema, "nullable") => match default {
            Some(d) => {
                map.insert(key.to_string(), d.clone());
            }
            None => {
                map.remove(key);
            }
        },
        Some(_) => {}
    }
}

/// Checks kube adds on top of the schema: `x-kubernetes-list-type: set|map` uniqueness and the
/// `apiVersion`/`kind` of embedded resources.
pub fn extra_checks(v: &Value, s: &Value, path: &str, errs: &mut Vec<FieldError>) {
    match v {
        Value::Object(map) => {
            if flag(s, "x-kubernetes-embedded-resource") {
                for f in ["apiVersion", "kind"] {
                    if !map.contains_key(f) {
                        errs.push(FieldError::required(child(path, f), "must not be empty"));
                    }
                }
            }
            for (k, value) in map {
                if let Some(fs) = field_schema(s, k) {
                    extra_checks(value, fs, &child(path, k), errs);
                }
            }
        }
        Value::Array(items) => {
            list_uniqueness(items, s, path, errs);
            if let Some(is) = s.get("items").filter(|i| i.is_object()) {
                for (i, item) in items.iter().enumerate() {
                    extra_checks(item, is, &index(path, i), errs);
                }
            }
        }
        _ => {}
    }
}

fn list_uniqueness(items: &[Value], s: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let mut seen = HashSet::new();
    match s.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("set") => {
            for (i, item) in items.iter().enumerate() {
                if !seen.insert(item.to_string()) {
                    errs.push(FieldError::duplicate(index(path, i), item));
                }
            }
        }
        Some("map") => {
            let keys: Vec<&str> = s
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|k| k.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                let id: Map<String, Value> =
                    keys.iter().filter_map(|k| item.get(*k).map(|v| ((*k).to_string(), v.clone()))).collect();
                let id = Value::Object(id);
                if !seen.insert(id.to_string()) {
                    errs.push(FieldError::duplicate(index(path, i), &id));
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "mode": {"type": "string", "default": "Auto"},
                "count": {"type": "integer"},
                "maybe": {"type": "string", "nullable": true},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                    "properties": {"known": {"type": "object", "properties": {"a": {"type": "string"}}}}},
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer", "default": 80}}}},
                "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                    "properties": {"spec": {"type": "object", "properties": {"x": {"type": "string"}}}}}
            }}
        }})
    }

    #[test]
    fn prunes_unknown_fields() {
        let mut obj = json!({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n", "bogus": 1},
            "spec": {"mode": "x", "extra": 1, "free": {"anything": 1, "known": {"a": "b", "drop": 2}},
                "ports": [{"name": "a", "junk": 1}],
                "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"x": "y", "z": 1}}},
            "status": {}});
        let mut out = Vec::new();
        prune(&mut obj, &schema(), "", true, &mut out);
        assert_eq!(
            out,
            [
                "metadata.bogus",
                "spec.extra",
                "spec.free.known.drop",
                "spec.ports[0].junk",
                "spec.template.spec.z",
                "status"
            ]
        );
        assert_eq!(obj["spec"]["free"]["anything"], json!(1));
        assert_eq!(obj["spec"]["template"]["kind"], json!("Pod"));
    }

    #[test]
    fn applies_defaults_and_drops_nulls() {
        let mut obj = json!({"spec": {"count": null, "maybe": null, "ports": [{"name": "a"}]}});
        default(&mut obj, &schema(), true);
        assert_eq!(obj, json!({"spec": {"mode": "Auto", "maybe": null, "ports": [{"name": "a", "port": 80}]}}));
    }

    #[test]
    fn list_types_and_embedded_resources() {
        let obj = json!({"spec": {"tags": ["a", "b", "a"], "ports": [{"name": "x"}, {"name": "x", "port": 1}],
            "template": {"kind": "Pod"}}});
        let mut errs = Vec::new();
        extra_checks(&obj, &schema(), "", &mut errs);
        // Sorted, since map iteration order depends on serde_json's `preserve_order` feature.
        let mut msgs: Vec<String> = errs.iter().map(FieldError::message).collect();
        msgs.sort();
        assert_eq!(
            msgs,
            [
                "spec.ports[1]: Duplicate value: map[string]interface {}{\"name\":\"x\"}",
                "spec.tags[2]: Duplicate value: \"a\"",
                "spec.template.apiVersion: Required value: must not be empty"
            ]
        );
    }
}
