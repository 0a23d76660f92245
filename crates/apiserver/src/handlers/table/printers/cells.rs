//! Reading object fields and formatting the cell values several printers share: ages, label
//! maps and selectors (`labels.FormatLabels`, `metav1.FormatLabelSelector`), container lists.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector as K8sLabelSelector;
use karmadactl_apimachinery::LabelSelector;
use serde_json::Value;

use karmadactl_apimachinery::human_duration::{UNKNOWN_AGE, human_duration};

/// The string at a JSON pointer, or "" (Go's zero value) when missing or not a string.
pub fn text<'v>(obj: &'v Value, pointer: &str) -> &'v str {
    obj.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// The integer at a JSON pointer, or `default` when missing.
pub fn int_or(obj: &Value, pointer: &str, default: i64) -> i64 {
    obj.pointer(pointer).and_then(Value::as_i64).unwrap_or(default)
}

/// The integer at a JSON pointer, or 0.
pub fn int(obj: &Value, pointer: &str) -> i64 {
    int_or(obj, pointer, 0)
}

/// How many entries the array or map at a JSON pointer has.
pub fn count(obj: &Value, pointer: &str) -> i64 {
    match obj.pointer(pointer) {
        Some(Value::Array(a)) => a.len() as i64,
        Some(Value::Object(m)) => m.len() as i64,
        _ => 0,
    }
}

/// The array at a JSON pointer (empty when missing).
pub fn items<'v>(obj: &'v Value, pointer: &str) -> &'v [Value] {
    obj.pointer(pointer).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// The object's name.
pub fn name(obj: &Value) -> Value {
    Value::String(text(obj, "/metadata/name").to_string())
}

/// A timestamp field, or None when missing, empty or unparsable (Go's zero time).
pub fn timestamp(obj: &Value, pointer: &str) -> Option<Timestamp> {
    obj.pointer(pointer).and_then(Value::as_str).and_then(|s| s.parse().ok())
}

/// `translateTimestampSince`: the human duration from `at` to now, `<unknown>` for no time.
pub fn since(at: Option<Timestamp>, now: Timestamp) -> String {
    at.map_or_else(|| UNKNOWN_AGE.to_string(), |t| human_duration(now.duration_since(t)))
}

/// The AGE cell: the time since `metadata.creationTimestamp`.
pub fn age(obj: &Value, now: Timestamp) -> Value {
    Value::String(since(timestamp(obj, "/metadata/creationTimestamp"), now))
}

/// `duration.HumanDuration` of a whole number of seconds.
pub fn seconds(secs: i64) -> String {
    human_duration(SignedDuration::from_secs(secs))
}

/// `labels.FormatLabels`: `k=v,k2=v2` sorted by key, or `<none>`.
pub fn format_labels(map: Option<&Value>) -> String {
    let Some(Value::Object(m)) = map else { return "<none>".to_string() };
    if m.is_empty() {
        return "<none>".to_string();
    }
    let mut pairs: Vec<(&String, &str)> = m.iter().map(|(k, v)| (k, v.as_str().unwrap_or(""))).collect();
    pairs.sort();
    pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

/// `metav1.LabelSelectorAsSelector(sel).String()`: "" for a missing or empty selector,
/// `Err` for one that is not a valid selector.
fn selector_string(sel: Option<&Value>) -> Result<String, ()> {
    let Some(sel) = sel.filter(|s| !s.is_null()) else { return Ok(String::new()) };
    let typed: K8sLabelSelector = serde_json::from_value(sel.clone()).map_err(|_| ())?;
    LabelSelector::from_label_selector(&typed).map(|s| s.to_string()).map_err(|_| ())
}

/// `metav1.FormatLabelSelector`: the selector, `<none>` when it selects by nothing, `<error>`
/// when it is not valid.
pub fn format_label_selector(sel: Option<&Value>) -> String {
    match selector_string(sel) {
        Ok(s) if s.is_empty() => "<none>".to_string(),
        Ok(s) => s,
        Err(()) => "<error>".to_string(),
    }
}

/// The selector as the Deployment printer shows it: empty when none, `<invalid>` when bad.
pub fn selector_or_invalid(sel: Option<&Value>) -> String {
    selector_string(sel).unwrap_or_else(|()| "<invalid>".to_string())
}

/// `layoutContainerCells`: container names and images, comma-separated.
pub fn containers(obj: &Value, pointer: &str) -> (Value, Value) {
    let list = items(obj, pointer);
    let names: Vec<&str> = list.iter().map(|c| text(c, "/name")).collect();
    let images: Vec<&str> = list.iter().map(|c| text(c, "/image")).collect();
    (Value::String(names.join(",")), Value::String(images.join(",")))
}

/// The text, or kube's `<none>` when it is empty.
pub fn or_none(s: &str) -> String {
    if s.is_empty() { "<none>".to_string() } else { s.to_string() }
}

/// The status (`True`, `False`, `Unknown`) of the first condition of a type, if any.
pub fn condition_status<'v>(obj: &'v Value, pointer: &str, type_: &str) -> Option<&'v str> {
    items(obj, pointer).iter().find(|c| text(c, "/type") == type_).map(|c| text(c, "/status"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels_and_selectors() {
        assert_eq!(format_labels(Some(&json!({"b": "2", "a": "1"}))), "a=1,b=2");
        assert_eq!(format_labels(Some(&json!({}))), "<none>");
        assert_eq!(format_labels(None), "<none>");
        let sel = json!({"matchLabels": {"app": "web"}, "matchExpressions": [
            {"key": "tier", "operator": "In", "values": ["b", "a"]},
            {"key": "canary", "operator": "DoesNotExist"}
        ]});
        assert_eq!(format_label_selector(Some(&sel)), "app=web,!canary,tier in (a,b)");
        assert_eq!(format_label_selector(Some(&json!({}))), "<none>");
        assert_eq!(format_label_selector(None), "<none>");
        let bad = json!({"matchExpressions": [{"key": "k", "operator": "In"}]});
        assert_eq!(format_label_selector(Some(&bad)), "<error>");
        assert_eq!(selector_or_invalid(Some(&bad)), "<invalid>");
        assert_eq!(selector_or_invalid(None), "");
    }

    #[test]
    fn ages() {
        let now: Timestamp = "2024-05-01T12:00:00Z".parse().unwrap();
        let obj = json!({"metadata": {"creationTimestamp": "2024-04-29T09:00:00Z"}});
        assert_eq!(age(&obj, now), json!("2d3h"));
        assert_eq!(age(&json!({}), now), json!("<unknown>"));
        assert_eq!(seconds(3600), "60m");
    }

    #[test]
    fn containers_and_conditions() {
        let obj = json!({"spec": {"containers": [{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:2"}]},
            "status": {"conditions": [{"type": "Ready", "status": "True"}]}});
        assert_eq!(containers(&obj, "/spec/containers"), (json!("a,b"), json!("x:1,y:2")));
        assert_eq!(condition_status(&obj, "/status/conditions", "Ready"), Some("True"));
        assert_eq!(condition_status(&obj, "/status/conditions", "Other"), None);
    }
}
