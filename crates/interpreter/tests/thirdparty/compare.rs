//! How an answer is compared with a case's expected output, as upstream's thirdparty_test.go
//! compares: objects field by field with `{{EXCLUDE}}` fields left out and integers and floats
//! apart, typed answers (requirements, components, dependencies) with quantities by value and
//! empty lists and maps equal to absent ones, dependency and component lists in sorted order.

use karmadactl_apimachinery::quantity::Quantity;
use serde_json::Value;

const EXCLUDE: &str = "{{EXCLUDE}}";

/// Whether two JSON values are equal: an integer equals only an integer and a float only a
/// float, as upstream's unstructured objects hold int64 and float64 apart.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.is_f64() == y.is_f64() && x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// `expected` and `actual` with the fields `expected` marks `{{EXCLUDE}}` removed from both.
pub fn excluding(expected: &Value, actual: &Value) -> (Value, Value) {
    let mut expected = expected.clone();
    let mut actual = actual.clone();
    let mut paths = Vec::new();
    collect(&mut expected, &mut Vec::new(), &mut paths);
    for path in paths {
        remove(&mut actual, &path);
    }
    (expected, actual)
}

fn collect(value: &mut Value, path: &mut Vec<String>, found: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(m) => {
            let marked: Vec<String> =
                m.iter().filter(|(_, v)| v.as_str() == Some(EXCLUDE)).map(|(k, _)| k.clone()).collect();
            for k in marked {
                m.remove(&k);
                let mut p = path.clone();
                p.push(k);
                found.push(p);
            }
            for (k, v) in m.iter_mut() {
                path.push(k.clone());
                collect(v, path, found);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                path.push(i.to_string());
                collect(v, path, found);
                path.pop();
            }
        }
        _ => {}
    }
}

fn remove(value: &mut Value, path: &[String]) {
    let Some((last, parents)) = path.split_last() else { return };
    let mut at = value;
    for p in parents {
        let next = match at {
            Value::Object(m) => m.get_mut(p),
            Value::Array(a) => p.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
            _ => None,
        };
        let Some(next) = next else { return };
        at = next;
    }
    if let Value::Object(m) = at {
        m.remove(last);
    }
}

/// A typed answer in comparable form: quantities (`resourceRequest` values) by value, empty
/// lists and maps dropped, lists of named things sorted.
pub fn typed(value: &Value) -> Value {
    match value {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !is_empty(v))
                .map(|(k, v)| if k == "resourceRequest" { (k.clone(), quantities(v)) } else { (k.clone(), typed(v)) })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(typed).collect()),
        other => other.clone(),
    }
}

fn is_empty(v: &Value) -> bool {
    v.is_null() || v.as_array().is_some_and(Vec::is_empty) || v.as_object().is_some_and(|m| m.is_empty())
}

fn quantities(v: &Value) -> Value {
    let Some(m) = v.as_object() else { return v.clone() };
    Value::Object(
        m.iter()
            .map(|(k, q)| {
                let text = match q {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let nanos = Quantity::parse(&text).map(|q| q.nanos().to_string()).unwrap_or(text);
                (k.clone(), Value::String(nanos))
            })
            .collect(),
    )
}

/// A list sorted by the given fields, as upstream sorts dependencies and components.
pub fn sorted(list: &Value, fields: &[&str]) -> Value {
    let mut items = list.as_array().cloned().unwrap_or_default();
    let key = |v: &Value| fields.iter().map(|f| v[*f].as_str().unwrap_or_default().to_string()).collect::<Vec<_>>();
    items.sort_by_key(key);
    Value::Array(items)
}
