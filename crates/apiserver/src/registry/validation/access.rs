//! Small read helpers over `serde_json::Value`, so checks read like the Go they mirror.

use serde_json::{Map, Value};

/// The value at a path of object keys, if every step exists.
pub fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |cur, k| cur.get(k))
}

/// The string at a path; None when absent or not a string.
pub fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path).and_then(Value::as_str)
}

/// The list at a path; empty when absent or not a list.
pub fn list_at<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    at(v, path).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// The object at a path; None when absent or not an object.
pub fn map_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Map<String, Value>> {
    at(v, path).and_then(Value::as_object)
}

/// Whether the path holds something other than null, an empty list, map or string.
pub fn is_set(v: &Value, path: &[&str]) -> bool {
    match at(v, path) {
        None | Some(Value::Null) => false,
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(m)) => !m.is_empty(),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// Renders a list of strings as Go's `%#v` of a `[]string`.
pub fn go_string_slice(items: &[Value]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| super::field::go_quote(i.as_str().unwrap_or_default())).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}
