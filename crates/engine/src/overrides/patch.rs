//! The three JSON patch operations overriders use (RFC 6902 `add`, `remove`, `replace` at an
//! RFC 6901 JSON pointer), with errors that say which path failed and why. Upstream builds
//! evanphx/json-patch documents for every overrider; the semantics here are the same: `add`
//! needs the parent to exist (and sets or inserts), `remove` and `replace` need the target.

use serde_json::Value;

use karmadactl_karmada_api::policy::overrides::OverriderOperator;

/// Applies one operation to `doc`. `value` is ignored by `remove`; a missing value for `add` or
/// `replace` is JSON `null`, as upstream marshals an empty `apiextensions.JSON`.
pub fn apply_op(doc: &mut Value, op: OverriderOperator, path: &str, value: Option<&Value>) -> Result<(), String> {
    let tokens = parse_pointer(path)?;
    let value = value.cloned().unwrap_or(Value::Null);
    let Some((last, parents)) = tokens.split_last() else {
        // The empty pointer is the whole document.
        return match op {
            OverriderOperator::Add | OverriderOperator::Replace => {
                *doc = value;
                Ok(())
            }
            OverriderOperator::Remove => Err("cannot remove the whole document (path \"\")".into()),
        };
    };
    let verb = verb(op);
    let parent = walk(doc, parents).ok_or_else(|| format!("cannot {verb} {path}: the path does not exist"))?;
    match parent {
        Value::Object(map) => match op {
            OverriderOperator::Add => {
                map.insert(last.clone(), value);
            }
            OverriderOperator::Replace => match map.get_mut(last) {
                Some(slot) => *slot = value,
                None => return Err(format!("cannot replace {path}: the path does not exist")),
            },
            OverriderOperator::Remove => {
                if map.remove(last).is_none() {
                    return Err(format!("cannot remove {path}: the path does not exist"));
                }
            }
        },
        Value::Array(items) => {
            let len = items.len();
            let index = if op == OverriderOperator::Add && last == "-" { Some(len) } else { array_index(last) };
            let limit = if op == OverriderOperator::Add { len } else { len.saturating_sub(1) };
            let Some(i) = index.filter(|i| *i <= limit && (op == OverriderOperator::Add || len > 0)) else {
                return Err(format!("cannot {verb} {path}: index {last:?} is out of range for an array of {len}"));
            };
            match op {
                OverriderOperator::Add => items.insert(i, value),
                OverriderOperator::Replace => items[i] = value,
                OverriderOperator::Remove => {
                    items.remove(i);
                }
            }
        }
        other => {
            return Err(format!("cannot {verb} {path}: the parent is a {}, not an object or array", kind(other)));
        }
    }
    Ok(())
}

/// The value at `path`, if the pointer is well formed and the value exists.
pub fn get<'a>(doc: &'a Value, path: &str) -> Result<Option<&'a Value>, String> {
    let tokens = parse_pointer(path)?;
    let mut cur = doc;
    for t in &tokens {
        cur = match cur {
            Value::Object(m) => match m.get(t) {
                Some(v) => v,
                None => return Ok(None),
            },
            Value::Array(a) => match array_index(t).and_then(|i| a.get(i)) {
                Some(v) => v,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
    }
    Ok(Some(cur))
}

/// Splits an RFC 6901 pointer into unescaped reference tokens.
pub fn parse_pointer(path: &str) -> Result<Vec<String>, String> {
    if path.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(format!("JSON pointer {path:?} must be empty or start with a \"/\""));
    };
    rest.split('/').map(|t| unescape(t).ok_or_else(|| format!("JSON pointer {path:?} has an invalid escape"))).collect()
}

fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

fn walk<'a>(doc: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    let mut cur = doc;
    for t in tokens {
        cur = match cur {
            Value::Object(m) => m.get_mut(t)?,
            Value::Array(a) => a.get_mut(array_index(t)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// An array index token: decimal digits without a leading zero (except `0` itself).
fn array_index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

fn verb(op: OverriderOperator) -> &'static str {
    match op {
        OverriderOperator::Add => "add",
        OverriderOperator::Remove => "remove",
        OverriderOperator::Replace => "replace",
    }
}

/// A JSON type's name for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use OverriderOperator::{Add, Remove, Replace};
    use serde_json::json;

    #[test]
    fn add_remove_replace_on_objects_and_arrays() {
        let mut doc = json!({"a": {"b": 1}, "l": [1, 2]});
        apply_op(&mut doc, Add, "/a/c", Some(&json!("x"))).unwrap();
        apply_op(&mut doc, Add, "/l/-", Some(&json!(3))).unwrap();
        apply_op(&mut doc, Add, "/l/0", Some(&json!(0))).unwrap();
        apply_op(&mut doc, Replace, "/a/b", Some(&json!(2))).unwrap();
        apply_op(&mut doc, Remove, "/l/1", None).unwrap();
        apply_op(&mut doc, Add, "/k~1v", None).unwrap();
        assert_eq!(doc, json!({"a": {"b": 2, "c": "x"}, "l": [0, 2, 3], "k/v": null}));
        apply_op(&mut doc, Replace, "", Some(&json!({}))).unwrap();
        assert_eq!(doc, json!({}));
    }

    #[test]
    fn missing_targets_are_errors() {
        let mut doc = json!({"a": {"b": 1}, "l": [1]});
        assert_eq!(
            apply_op(&mut doc, Replace, "/a/x", Some(&json!(1))).unwrap_err(),
            "cannot replace /a/x: the path does not exist"
        );
        assert_eq!(
            apply_op(&mut doc, Remove, "/a/x", None).unwrap_err(),
            "cannot remove /a/x: the path does not exist"
        );
        assert_eq!(
            apply_op(&mut doc, Add, "/x/y", Some(&json!(1))).unwrap_err(),
            "cannot add /x/y: the path does not exist"
        );
        assert_eq!(
            apply_op(&mut doc, Replace, "/l/1", Some(&json!(1))).unwrap_err(),
            "cannot replace /l/1: index \"1\" is out of range for an array of 1"
        );
        assert_eq!(
            apply_op(&mut doc, Add, "/a/b/c", Some(&json!(1))).unwrap_err(),
            "cannot add /a/b/c: the parent is a number, not an object or array"
        );
        assert_eq!(
            apply_op(&mut doc, Add, "a", Some(&json!(1))).unwrap_err(),
            "JSON pointer \"a\" must be empty or start with a \"/\""
        );
        assert_eq!(doc, json!({"a": {"b": 1}, "l": [1]}));
    }

    #[test]
    fn get_follows_pointers() {
        let doc = json!({"a": [{"b": "x"}]});
        assert_eq!(get(&doc, "/a/0/b").unwrap(), Some(&json!("x")));
        assert_eq!(get(&doc, "/a/1/b").unwrap(), None);
        assert_eq!(get(&doc, "/a/01").unwrap(), None);
        assert!(get(&doc, "a").is_err());
    }
}
