//! Upstream's repair of empty tables (`convertEmptySliceToEmptyStructPartly`): an empty Lua
//! table encodes as `[]`, whether it was an empty list or an empty object. An empty field of
//! the result becomes `{}` where the same field (by path, list indices left out) is an empty
//! object in one of the reference objects, stays `[]` where it is an empty list there, and is
//! removed where neither says.

use std::collections::HashSet;

use serde_json::{Map, Value};

/// Repairs `result`; a result that is wholly empty is `{}` when the caller wants an object.
pub(super) fn repair(result: Value, wants_object: bool, references: &[&Value]) -> Value {
    if result.as_array().is_some_and(Vec::is_empty) {
        return if wants_object { Value::Object(Map::new()) } else { result };
    }
    let mut known = Known::default();
    for reference in references {
        known.collect(reference, &mut Vec::new());
    }
    let mut result = result;
    known.fix(&mut result, &mut Vec::new());
    result
}

/// Paths of the references' empty lists and empty objects.
#[derive(Default)]
struct Known {
    lists: HashSet<String>,
    objects: HashSet<String>,
}

/// A field name as upstream writes it into a path: dots and colons escaped.
fn escaped(key: &str) -> String {
    key.replace('.', "\\.").replace(':', "\\:")
}

impl Known {
    fn collect(&mut self, value: &Value, path: &mut Vec<String>) {
        let children: Vec<(Option<&str>, &Value)> = match value {
            Value::Object(m) => m.iter().map(|(k, v)| (Some(k.as_str()), v)).collect(),
            Value::Array(a) => a.iter().map(|v| (None, v)).collect(),
            _ => return,
        };
        for (key, child) in children {
            if let Some(k) = key {
                path.push(escaped(k));
            }
            match child {
                Value::Array(a) if a.is_empty() => {
                    self.lists.insert(path.join("."));
                }
                Value::Object(m) if m.is_empty() => {
                    self.objects.insert(path.join("."));
                }
                Value::Array(_) | Value::Object(_) => self.collect(child, path),
                _ => {}
            }
            if key.is_some() {
                path.pop();
            }
        }
    }

    /// Turns the empty lists of `value` into objects or removes them, by the references.
    fn fix(&self, value: &mut Value, path: &mut Vec<String>) {
        match value {
            Value::Object(fields) => {
                let mut remove = Vec::new();
                for (k, child) in fields.iter_mut() {
                    path.push(escaped(k));
                    if self.fix_child(child, path) {
                        remove.push(k.clone());
                    }
                    path.pop();
                }
                for k in remove {
                    fields.remove(&k);
                }
            }
            Value::Array(items) => {
                let mut remove = Vec::new();
                for (i, child) in items.iter_mut().enumerate() {
                    if self.fix_child(child, path) {
                        remove.push(i);
                    }
                }
                for i in remove.into_iter().rev() {
                    items.remove(i);
                }
            }
            _ => {}
        }
    }

    /// Fixes one child; true when it is to be removed.
    fn fix_child(&self, child: &mut Value, path: &mut Vec<String>) -> bool {
        if child.as_array().is_some_and(Vec::is_empty) {
            let key = path.join(".");
            if self.objects.contains(&key) {
                *child = Value::Object(Map::new());
                return false;
            }
            return !self.lists.contains(&key);
        }
        self.fix(child, path);
        false
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::repair;

    #[test]
    fn empty_fields_follow_the_references() {
        let desired = json!({"spec": {"aa": {}, "bb": [], "cc": ["x"], "dd": {"ee": {}}}, "items": [{"rules": []}]});
        let result = json!({"spec": {"aa": [], "bb": [], "cc": ["x"], "dd": {"ee": [], "ff": []}}, "items": [{"rules": []}, {"rules": []}]});
        let fixed = repair(result, true, &[&desired]);
        assert_eq!(
            fixed,
            json!({"spec": {"aa": {}, "bb": [], "cc": ["x"], "dd": {"ee": {}}}, "items": [{"rules": []}, {"rules": []}]})
        );
    }

    #[test]
    fn without_references_empty_fields_go_and_an_empty_result_takes_the_wanted_shape() {
        assert_eq!(repair(json!({"a": [], "b": 1}), true, &[]), json!({"b": 1}));
        assert_eq!(repair(json!([]), true, &[]), json!({}));
        assert_eq!(repair(json!([]), false, &[]), json!([]));
        assert_eq!(repair(json!([{"a": []}, []]), false, &[]), json!([{}]));
    }
}
