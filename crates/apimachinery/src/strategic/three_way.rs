//! The patch client-side `kubectl apply` sends for an object it applied before (Go's
//! `CreateThreeWayMergePatch`, and `CreateThreeWayJSONMergePatch` when there is no schema):
//! what changed from the live object to the new configuration, without removing what others
//! added, plus what the new configuration dropped compared with the last applied one.
//!
//! Go computes two patches (live → new without deletions, last applied → new with only
//! deletions) and merges them; this walks the three documents once and writes the same
//! directives: `null` for removed fields, `{"<key>": …, "$patch": "delete"}` for removed list
//! items, `$setElementOrder/<field>`, `$deleteFromPrimitiveList/<field>` and `$retainKeys`.

use serde_json::{Map, Value};

use super::keys::{Strategy, TypeSchema};

/// The three-way patch turning `current` into `modified`, deleting what `original` (the last
/// applied configuration, if any) had and `modified` has not. With `schema`, lists with a
/// merge strategy are diffed item by item as a strategic merge patch; with `strategic` false
/// (custom resources), every list is replaced whole, as a JSON merge patch does. An empty map
/// means nothing to send.
pub fn three_way_patch(
    original: Option<&Value>,
    modified: &Value,
    current: &Value,
    schema: Option<&'static TypeSchema>,
    strategic: bool,
) -> Map<String, Value> {
    let empty = Map::new();
    let as_map = |v: Option<&Value>| v.and_then(Value::as_object).cloned().unwrap_or_default();
    let walk = Walk { strategic };
    walk.maps(&as_map(original), modified.as_object().unwrap_or(&empty), &as_map(Some(current)), schema, false)
}

struct Walk {
    strategic: bool,
}

/// Go's `reflect.TypeOf` comparison: numbers are one type, as JSON decodes them.
fn same_type(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

impl Walk {
    fn maps(
        &self,
        original: &Map<String, Value>,
        modified: &Map<String, Value>,
        current: &Map<String, Value>,
        schema: Option<&'static TypeSchema>,
        retain_keys: bool,
    ) -> Map<String, Value> {
        let mut patch = Map::new();
        let empty = Map::new();
        for (key, m) in modified {
            // A JSON merge patch cannot set a null (it means "delete"): kubectl drops them.
            if !self.strategic && m.is_null() {
                continue;
            }
            let meta = if self.strategic { schema.and_then(|s| s.field(key)) } else { None };
            let strategy = meta.map_or(Strategy::None, |f| f.strategy);
            let sub = meta.and_then(|f| f.ty);
            let Some(c) = current.get(key) else {
                patch.insert(key.clone(), m.clone());
                continue;
            };
            if !same_type(c, m) {
                patch.insert(key.clone(), m.clone());
                continue;
            }
            match (c, m) {
                (Value::Object(c), Value::Object(m)) if strategy != Strategy::Replace => {
                    let o = original.get(key).and_then(Value::as_object).unwrap_or(&empty);
                    let diff = self.maps(o, m, c, sub, strategy == Strategy::RetainKeys);
                    if !diff.is_empty() {
                        patch.insert(key.clone(), Value::Object(diff));
                    }
                }
                (Value::Array(c), Value::Array(m)) if strategy.merges_lists() => {
                    let o = original.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
                    let retain = strategy == Strategy::MergeRetainKeys;
                    match meta.and_then(|f| f.merge_key) {
                        Some(merge_key) => self.map_list(&mut patch, key, (o, m, c), merge_key, sub, retain),
                        None => scalar_list(&mut patch, key, o, m, c),
                    }
                }
                _ if c != m => {
                    patch.insert(key.clone(), m.clone());
                }
                _ => {}
            }
        }
        for key in original.keys().filter(|k| !modified.contains_key(*k)) {
            patch.insert(key.clone(), Value::Null);
        }
        let dropped_by =
            |other: &Map<String, Value>| other.iter().any(|(k, v)| !v.is_null() && !modified.contains_key(k));
        if retain_keys && (!patch.is_empty() || dropped_by(current) || dropped_by(original)) {
            let mut keys: Vec<&String> = modified.iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k).collect();
            keys.sort();
            if !keys.is_empty() {
                patch.insert("$retainKeys".into(), keys.into_iter().map(|k| Value::String(k.clone())).collect());
            }
        }
        patch
    }

    /// A list of objects merged by `merge_key`: changed and added items, deleted items, and
    /// the new order when anything changed or the order differs.
    fn map_list(
        &self,
        patch: &mut Map<String, Value>,
        field: &str,
        (original, modified, current): (&[Value], &[Value], &[Value]),
        merge_key: &str,
        item: Option<&'static TypeSchema>,
        retain_keys: bool,
    ) {
        let key_of = |v: &Value| v.get(merge_key).cloned();
        if [original, modified, current].iter().any(|l| l.iter().any(|v| !v.is_object() || key_of(v).is_none())) {
            // Go refuses such lists; replacing the list keeps the command useful.
            if modified != current {
                patch.insert(field.into(), Value::Array(modified.to_vec()));
            }
            return;
        }
        let find = |list: &[Value], k: &Value| list.iter().find(|v| key_of(v).as_ref() == Some(k)).cloned();
        let empty = Map::new();
        let mut items = Vec::new();
        for m in modified {
            let k = key_of(m).unwrap_or_default();
            let m = m.as_object().unwrap_or(&empty);
            match find(current, &k) {
                Some(c) => {
                    let o = find(original, &k).and_then(|o| o.as_object().cloned()).unwrap_or_default();
                    let mut diff = self.maps(&o, m, c.as_object().unwrap_or(&empty), item, retain_keys);
                    if !diff.is_empty() {
                        diff.insert(merge_key.into(), k);
                        items.push(Value::Object(diff));
                    }
                }
                None => items.push(Value::Object(m.clone())),
            }
        }
        for o in original {
            let k = key_of(o).unwrap_or_default();
            if find(modified, &k).is_none() {
                let mut deleted = Map::new();
                deleted.insert(merge_key.into(), k);
                deleted.insert("$patch".into(), Value::String("delete".into()));
                items.push(Value::Object(deleted));
            }
        }
        let same_order =
            current.len() == modified.len() && current.iter().zip(modified).all(|(c, m)| key_of(c) == key_of(m));
        if !items.is_empty() || !same_order {
            let order = modified.iter().map(|m| serde_json::json!({ merge_key: key_of(m) })).collect();
            patch.insert(format!("$setElementOrder/{field}"), Value::Array(order));
        }
        if !items.is_empty() {
            patch.insert(field.into(), Value::Array(items));
        }
    }
}

/// A list of scalars merged as a set: the added values, the removed ones, and the new order.
fn scalar_list(patch: &mut Map<String, Value>, field: &str, original: &[Value], modified: &[Value], current: &[Value]) {
    let added: Vec<Value> = modified.iter().filter(|m| !current.contains(m)).cloned().collect();
    let deleted: Vec<Value> = original.iter().filter(|o| !modified.contains(o)).cloned().collect();
    if !added.is_empty() {
        patch.insert(field.into(), Value::Array(added));
    }
    if !deleted.is_empty() {
        patch.insert(format!("$deleteFromPrimitiveList/{field}"), Value::Array(deleted.clone()));
    }
    if !deleted.is_empty() || modified != current {
        patch.insert(format!("$setElementOrder/{field}"), Value::Array(modified.to_vec()));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::strategic::{apply_strategic_merge_patch, schema_for};

    fn patch(original: Option<Value>, modified: Value, current: Value) -> Value {
        let schema = schema_for("apps", "Deployment");
        Value::Object(three_way_patch(original.as_ref(), &modified, &current, schema, true))
    }

    fn deployment(containers: Value) -> Value {
        json!({"spec": {"template": {"spec": {"containers": containers}}}})
    }

    #[test]
    fn nothing_changed_gives_an_empty_patch_and_server_fields_stay() {
        let applied = deployment(json!([{"name": "a", "image": "x"}]));
        let live = deployment(json!([{"name": "a", "image": "x", "imagePullPolicy": "Always"}]));
        assert_eq!(patch(Some(applied.clone()), applied, live), json!({}));
    }

    #[test]
    fn changed_and_removed_items_merge_by_key() {
        let original = deployment(json!([{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]));
        let modified = deployment(json!([{"name": "a", "image": "z"}]));
        let current =
            deployment(json!([{"name": "a", "image": "x", "imagePullPolicy": "Always"}, {"name": "b", "image": "y"}]));
        let p = patch(Some(original), modified, current.clone());
        assert_eq!(
            p,
            deployment(json!([{"name": "a", "image": "z"}, {"name": "b", "$patch": "delete"}]))
                .pointer("/spec")
                .map(|s| {
                    let mut spec = s.clone();
                    spec["template"]["spec"]["$setElementOrder/containers"] = json!([{"name": "a"}]);
                    json!({"spec": spec})
                })
                .unwrap()
        );
        let schema = schema_for("apps", "Deployment");
        let merged = apply_strategic_merge_patch(&current, &serde_json::to_vec(&p).unwrap(), schema).unwrap();
        assert_eq!(merged, deployment(json!([{"name": "a", "image": "z", "imagePullPolicy": "Always"}])));
    }

    #[test]
    fn dropped_fields_become_null_and_retain_keys_clears_strategy_leftovers() {
        let original = json!({"spec": {"replicas": 2, "strategy": {"type": "RollingUpdate"}}});
        let modified = json!({"spec": {"strategy": {"type": "Recreate"}}});
        let current =
            json!({"spec": {"replicas": 2, "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}});
        assert_eq!(
            patch(Some(original), modified, current),
            json!({"spec": {"replicas": null, "strategy": {"$retainKeys": ["type"], "type": "Recreate"}}})
        );
    }

    #[test]
    fn without_a_last_applied_configuration_nothing_is_deleted() {
        let modified = json!({"metadata": {"labels": {"a": "1"}}});
        let current = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
        assert_eq!(patch(None, modified, current), json!({}));
    }

    #[test]
    fn json_merge_replaces_lists_whole() {
        let original = json!({"spec": {"list": [1, 2], "gone": true}});
        let modified = json!({"spec": {"list": [1], "null": null}, "metadata": {"creationTimestamp": null}});
        let current =
            json!({"spec": {"list": [1, 2], "gone": true, "extra": 1}, "metadata": {"creationTimestamp": "t"}});
        let p = three_way_patch(Some(&original), &modified, &current, None, false);
        assert_eq!(Value::Object(p), json!({"spec": {"list": [1], "gone": null}}));
    }

    #[test]
    fn primitive_merge_lists_add_delete_and_order() {
        let original = json!({"metadata": {"finalizers": ["a", "b"]}});
        let modified = json!({"metadata": {"finalizers": ["a", "c"]}});
        let current = json!({"metadata": {"finalizers": ["a", "b", "x"]}});
        assert_eq!(
            patch(Some(original), modified, current),
            json!({"metadata": {"finalizers": ["c"], "$deleteFromPrimitiveList/finalizers": ["b"],
                                "$setElementOrder/finalizers": ["a", "c"]}})
        );
    }
}
