//! kubectl's generic describer, used for every kind without a describer of its own (custom
//! resources such as Karmada's Cluster, PropagationPolicy or Work): name, namespace, labels and
//! annotations, then every other field of the object as an indented outline with field names
//! turned into words (`apiEndpoint` → `API Endpoint`), then the object's events.

use serde_json::{Map, Value};

use super::events::Events;
use super::meta;
use super::prefix_writer::PrefixWriter;

/// Fields the header already shows, or nobody wants to read.
const SKIP: &[&str] =
    &[".metadata.managedFields", ".metadata.name", ".metadata.namespace", ".metadata.labels", ".metadata.annotations"];

pub fn describe(object: &Value, events: Option<&Events>) -> String {
    let mut w = PrefixWriter::new();
    let metadata = &object["metadata"];
    w.write(0, &format!("Name:\t{}\n", metadata["name"].as_str().unwrap_or_default()));
    w.write(0, &format!("Namespace:\t{}\n", metadata["namespace"].as_str().unwrap_or_default()));
    meta::labels(&mut w, "Labels", &meta::string_map(metadata.get("labels")));
    meta::annotations(&mut w, "Annotations", &meta::string_map(metadata.get("annotations")));
    if let Some(content) = object.as_object() {
        content_lines(&mut w, 0, content, "");
    }
    if let Some(events) = events {
        events.write(&mut w);
    }
    w.finish()
}

/// `printUnstructuredContent`: fields in byte order; maps and lists open a nested level.
fn content_lines(w: &mut PrefixWriter, level: usize, content: &Map<String, Value>, prefix: &str) {
    let mut fields: Vec<&String> = content.keys().collect();
    fields.sort();
    for field in fields {
        let path = format!("{prefix}.{field}");
        if SKIP.contains(&path.as_str()) {
            continue;
        }
        match &content[field] {
            Value::Object(map) => {
                w.write(level, &format!("{}:\n", smart_label(field)));
                content_lines(w, level + 1, map, &path);
            }
            Value::Array(items) => {
                w.write(level, &format!("{}:\n", smart_label(field)));
                for item in items {
                    match item {
                        Value::Object(map) => content_lines(w, level + 1, map, &path),
                        other => w.write(level + 1, &format!("{}\n", go_value(other))),
                    }
                }
            }
            other => w.write(level, &format!("{}:\t{}\n", smart_label(field), go_value(other))),
        }
    }
}

/// A value as Go's `%v` prints what a JSON decoder made of it.
pub fn go_value(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => go_float(f),
            _ => n.to_string(),
        },
        Value::Array(items) => format!("[{}]", items.iter().map(go_value).collect::<Vec<_>>().join(" ")),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let pairs: Vec<String> = keys.into_iter().map(|k| format!("{k}:{}", go_value(&map[k]))).collect();
            format!("map[{}]", pairs.join(" "))
        }
    }
}

/// `%v` of a float64: the shortest digits, in exponent form below 1e-4 or from 1e21 up.
fn go_float(f: f64) -> String {
    let magnitude = f.abs();
    if magnitude != 0.0 && !(1e-4..1e21).contains(&magnitude) {
        let text = format!("{f:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let (sign, digits) = exponent.strip_prefix('-').map_or(("+", exponent), |d| ("-", d));
        return format!("{mantissa}e{sign}{digits:0>2}");
    }
    format!("{f}")
}

/// kubectl's `smartLabelFor`: a field of letters and dashes split into capitalised words,
/// common acronyms upper-cased; any other field as it is.
pub fn smart_label(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    const ACRONYMS: &[&str] = &["API", "URL", "UID", "OSB", "GUID"];
    camel_case_split(field)
        .into_iter()
        .filter(|p| p != "_")
        .map(|part| {
            let upper = part.to_uppercase();
            if ACRONYMS.contains(&upper.as_str()) { upper } else { title(&part) }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Go's `strings.Title` for one run of same-class characters: the first letter upper-cased.
fn title(part: &str) -> String {
    let mut chars = part.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `fatih/camelcase.Split`: runs of lower-case, upper-case, digits and other characters, with
/// the last capital of an upper-case run moved to the lower-case run after it
/// (`APIEndpoint` → `API`, `Endpoint`).
fn camel_case_split(s: &str) -> Vec<String> {
    fn class(c: char) -> u8 {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    }
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in s.chars() {
        let k = class(c);
        match runs.last_mut() {
            Some(run) if k == last => run.push(c),
            _ => runs.push(vec![c]),
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        if runs[i][0].is_uppercase() && runs[i + 1][0].is_lowercase() {
            let moved = runs[i].pop().expect("runs are never empty here");
            runs[i + 1].insert(0, moved);
        }
    }
    runs.into_iter().filter(|r| !r.is_empty()).map(|r| r.into_iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_as_kubectl_words_them() {
        for (field, want) in [
            ("apiEndpoint", "API Endpoint"),
            ("id", "Id"),
            ("uid", "UID"),
            ("resourceVersion", "Resource Version"),
            ("ephemeral-storage", "Ephemeral - Storage"),
            ("APIEnablements", "API Enablements"),
            ("kubernetes.io/os", "kubernetes.io/os"),
            ("v1", "v1"),
            ("readyNum", "Ready Num"),
        ] {
            assert_eq!(smart_label(field), want, "{field}");
        }
    }

    #[test]
    fn values_print_as_go_prints_them() {
        let v: Value = serde_json::json!([1, 1.5, 1e21, 0.00001, true, null, ["a", {"b": 1}]]);
        let shown: Vec<String> = v.as_array().unwrap().iter().map(go_value).collect();
        assert_eq!(shown, ["1", "1.5", "1e+21", "1e-05", "true", "<nil>", "[a map[b:1]]"]);
    }
}
