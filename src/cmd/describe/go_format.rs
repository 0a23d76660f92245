//! Values as kubectl's describers print them from Go types: times in `RFC1123Z`, quantities in
//! their canonical form, booleans as `True`/`False`, label selectors as `LabelSelectorAsSelector`
//! turns them into text, and ages counted from now.

use karmadactl_apimachinery::LabelSelector;
use karmadactl_apimachinery::quantity::Quantity;
use serde_json::Value;

/// Go's `time.RFC1123Z` (`Mon, 02 Jan 2006 15:04:05 -0700`), in UTC as the server sends it; an
/// unset time is Go's zero time.
pub fn rfc1123z(v: &Value) -> String {
    match v.as_str().unwrap_or_default().parse::<jiff::Timestamp>() {
        Ok(t) => t.strftime("%a, %d %b %Y %H:%M:%S +0000").to_string(),
        Err(_) => "Mon, 01 Jan 0001 00:00:00 +0000".into(),
    }
}

/// `translateTimestampSince`: how long ago, or `<unknown>` without a time.
pub fn age(v: &Value) -> String {
    match v.as_str().and_then(|s| s.parse::<jiff::Timestamp>().ok()) {
        Some(t) => crate::output::human_duration(jiff::Timestamp::now().duration_since(t)),
        None => "<unknown>".into(),
    }
}

/// `Quantity.String()`: the canonical form of a quantity as the server may have stored it
/// (`0.5` → `500m`); text that is not a quantity as it is.
pub fn quantity(text: &str) -> String {
    Quantity::parse(text).map(|q| q.to_string()).unwrap_or_else(|_| text.to_string())
}

/// A quantity field, zero when unset or not a quantity.
pub fn quantity_of(v: &Value) -> Quantity {
    v.as_str().and_then(|s| Quantity::parse(s).ok()).unwrap_or_default()
}

/// `printBool`.
pub fn bool_word(value: bool) -> &'static str {
    if value { "True" } else { "False" }
}

/// `metav1.LabelSelectorAsSelector(s).String()`: a missing selector selects nothing and an empty
/// one everything, both printed as nothing; a selector that cannot be read is an error.
pub fn selector(v: &Value) -> Result<String, String> {
    if v.is_null() {
        return Ok(String::new());
    }
    let parsed: k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector =
        serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    LabelSelector::from_label_selector(&parsed).map(|s| s.to_string()).map_err(|e| e.to_string())
}

/// `metav1.FormatLabelSelector`: `<none>` for an empty result, `<error>` for a bad selector.
pub fn format_selector(v: &Value) -> String {
    match selector(v) {
        Ok(s) if s.is_empty() => "<none>".into(),
        Ok(s) => s,
        Err(_) => "<error>".into(),
    }
}

/// `labels.FormatLabels`: `k=v` pairs in key order joined by `,`, `<none>` when empty.
pub fn format_labels(v: &Value) -> String {
    let pairs = super::meta::string_map(Some(v));
    if pairs.is_empty() {
        return "<none>".into();
    }
    pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

/// An intOrString as Go's `IntOrString.String()` prints it.
pub fn int_or_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.as_i64().unwrap_or_default().to_string(),
    }
}

/// `metav1.GetControllerOf` printed as `Kind/name`, or nothing.
pub fn controller(object: &Value) -> Option<String> {
    let refs = object["metadata"]["ownerReferences"].as_array()?;
    let owner = refs.iter().find(|r| r["controller"].as_bool() == Some(true))?;
    Some(format!("{}/{}", owner["kind"].as_str().unwrap_or_default(), owner["name"].as_str().unwrap_or_default()))
}

/// The UID of the object's controller, if it has one.
pub fn controller_uid(object: &Value) -> Option<&str> {
    let refs = object["metadata"]["ownerReferences"].as_array()?;
    refs.iter().find(|r| r["controller"].as_bool() == Some(true))?["uid"].as_str()
}
