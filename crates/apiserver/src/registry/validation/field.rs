//! Field errors worded like k8s.io/apimachinery's `field.Error`, since kubectl users know them.

use std::fmt;

use serde_json::Value;

/// What is wrong with a field; mirrors apimachinery's `field.ErrorType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldErrorKind {
    /// The field must be set (`Required value`).
    Required,
    /// The value is malformed or out of range (`Invalid value`).
    Invalid,
    /// The value is not one of an enumerated set (`Unsupported value`).
    NotSupported,
    /// The value must be unique but repeats an earlier one (`Duplicate value`).
    Duplicate,
    /// The value is longer than allowed (`Too long`).
    TooLong,
    /// A list or map holds more entries than allowed (`Too many`).
    TooMany,
    /// The field may not be set here (`Forbidden`).
    Forbidden,
    /// The JSON type is wrong, e.g. a string where an integer belongs (`Invalid value`).
    TypeMismatch,
}

impl FieldErrorKind {
    /// The phrase apimachinery prints for this kind.
    pub fn phrase(self) -> &'static str {
        match self {
            Self::Required => "Required value",
            Self::Invalid | Self::TypeMismatch => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::Duplicate => "Duplicate value",
            Self::TooLong => "Too long",
            Self::TooMany => "Too many",
            Self::Forbidden => "Forbidden",
        }
    }

    /// The `reason` of a `Status` cause (`metav1.CauseType`).
    pub fn reason(self) -> &'static str {
        match self {
            Self::Required => "FieldValueRequired",
            Self::Invalid => "FieldValueInvalid",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Duplicate => "FieldValueDuplicate",
            Self::TooLong => "FieldValueTooLong",
            Self::TooMany => "FieldValueTooMany",
            Self::Forbidden => "FieldValueForbidden",
            Self::TypeMismatch => "FieldValueTypeInvalid",
        }
    }

    /// apimachinery never prints the bad value for these kinds.
    fn hides_value(self) -> bool {
        matches!(self, Self::Required | Self::Forbidden | Self::TooLong)
    }
}

/// One problem with one field of an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Field path as kube prints it: `spec.template.spec.containers[0].name`, `data[key]`.
    pub path: String,
    /// What is wrong.
    pub kind: FieldErrorKind,
    /// The offending value already rendered the way Go's `%v`/`%q`/`%#v` would print it.
    pub value: Option<String>,
    /// Extra explanation appended after the value.
    pub detail: String,
}

impl FieldError {
    /// `path: Required value[: detail]`.
    pub fn required(path: impl Into<String>, detail: impl Into<String>) -> Self {
        Self { path: path.into(), kind: FieldErrorKind::Required, value: None, detail: detail.into() }
    }

    /// `path: Invalid value: <value>: detail`, rendering a JSON value like Go would.
    pub fn invalid(path: impl Into<String>, value: &Value, detail: impl Into<String>) -> Self {
        Self::invalid_raw(path, go_value(value), detail)
    }

    /// Like [`FieldError::invalid`] with a value that is already rendered.
    pub fn invalid_raw(path: impl Into<String>, rendered: impl Into<String>, detail: impl Into<String>) -> Self {
        Self { path: path.into(), kind: FieldErrorKind::Invalid, value: Some(rendered.into()), detail: detail.into() }
    }

    /// `path: Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported(path: impl Into<String>, value: &Value, supported: &[&str]) -> Self {
        let quoted: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
        let detail = if quoted.is_empty() { String::new() } else { format!("supported values: {}", quoted.join(", ")) };
        Self { path: path.into(), kind: FieldErrorKind::NotSupported, value: Some(go_value(value)), detail }
    }

    /// `path: Duplicate value: <value>`.
    pub fn duplicate(path: impl Into<String>, value: &Value) -> Self {
        Self { path: path.into(), kind: FieldErrorKind::Duplicate, value: Some(go_value(value)), detail: String::new() }
    }

    /// `path: Too long: may not be more than <max> bytes`.
    pub fn too_long(path: impl Into<String>, max: usize) -> Self {
        let unit = if max == 1 { "byte" } else { "bytes" };
        Self {
            path: path.into(),
            kind: FieldErrorKind::TooLong,
            value: None,
            detail: format!("may not be more than {max} {unit}"),
        }
    }

    /// `path: Too many: <actual>: must have at most <max> items`.
    pub fn too_many(path: impl Into<String>, actual: usize, max: u64) -> Self {
        Self {
            path: path.into(),
            kind: FieldErrorKind::TooMany,
            value: Some(actual.to_string()),
            detail: format!("must have at most {max} items"),
        }
    }

    /// `path: Forbidden: detail`.
    pub fn forbidden(path: impl Into<String>, detail: impl Into<String>) -> Self {
        Self { path: path.into(), kind: FieldErrorKind::Forbidden, value: None, detail: detail.into() }
    }

    /// A wrong JSON type; `actual` is the JSON type name given (`string`) and `detail` the full
    /// explanation (the CRD and built-in decoders word it differently).
    pub fn type_mismatch(path: impl Into<String>, actual: &str, detail: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            kind: FieldErrorKind::TypeMismatch,
            value: Some(go_quote(actual)),
            detail: detail.into(),
        }
    }

    /// The message without the path, as used in `Status.details.causes[].message`.
    pub fn body(&self) -> String {
        let mut s = self.kind.phrase().to_string();
        if !self.kind.hides_value()
            && let Some(v) = &self.value
        {
            s.push_str(": ");
            s.push_str(v);
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// The full message, `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
    pub fn message(&self) -> String {
        if self.path.is_empty() { self.body() } else { format!("{}: {}", self.path, self.body()) }
    }

    /// The `Status` cause reason for this error.
    pub fn reason(&self) -> &'static str {
        self.kind.reason()
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for FieldError {}

/// Joins field errors the way kube's aggregate error does: `[a, b]` for several, `a` for one.
pub fn join_messages(errors: &[FieldError]) -> String {
    match errors {
        [one] => one.message(),
        many => format!("[{}]", many.iter().map(FieldError::message).collect::<Vec<_>>().join(", ")),
    }
}

/// Go's `%q` for a string. JSON escaping matches it for everything users type.
pub fn go_quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// Renders a JSON value as apimachinery would print an `interface{}` value: `%v` for numbers and
/// booleans, `%q` for strings, `%#v` for maps and slices.
pub fn go_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => go_quote(s),
        Value::Array(items) => {
            format!("[]interface {{}}{{{}}}", items.iter().map(go_inner).collect::<Vec<_>>().join(", "))
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let body: Vec<String> = entries.iter().map(|(k, v)| format!("{}:{}", go_quote(k), go_inner(v))).collect();
            format!("map[string]interface {{}}{{{}}}", body.join(", "))
        }
    }
}

/// Inside `%#v` of a container, nested interface values carry their own type prefix.
fn go_inner(value: &Value) -> String {
    match value {
        Value::Null => "interface {}(nil)".to_string(),
        other => go_value(other),
    }
}

/// Renders a string map as `map[string]string{"a":"b"}` (labels, selectors).
pub fn go_string_map(value: &Value) -> String {
    let mut entries: Vec<(String, String)> = value
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
        .unwrap_or_default();
    entries.sort();
    let body: Vec<String> = entries.iter().map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v))).collect();
    format!("map[string]string{{{}}}", body.join(", "))
}

/// The JSON type name go-openapi reports for a value (`integer` for integral numbers).
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Appends a child field to a path: `spec` + `replicas` = `spec.replicas`.
pub fn child(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
}

/// Appends a list index to a path: `spec.containers[0]`.
pub fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// Appends a map key to a path the way `field.Path.Key` does: `data[key]`.
pub fn key(path: &str, k: &str) -> String {
    format!("{path}[{k}]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_match_apimachinery() {
        assert_eq!(
            FieldError::invalid("spec.replicas", &json!(-1), "must be greater than or equal to 0").message(),
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(FieldError::required("spec.selector", "").message(), "spec.selector: Required value");
        assert_eq!(
            FieldError::not_supported("spec.type", &json!("Foo"), &["ClusterIP", "NodePort"]).message(),
            "spec.type: Unsupported value: \"Foo\": supported values: \"ClusterIP\", \"NodePort\""
        );
        assert_eq!(FieldError::duplicate("a[1].name", &json!("x")).message(), "a[1].name: Duplicate value: \"x\"");
        assert_eq!(FieldError::too_long("spec.x", 15).message(), "spec.x: Too long: may not be more than 15 bytes");
        assert_eq!(FieldError::forbidden("x", "no").message(), "x: Forbidden: no");
        assert_eq!(
            FieldError::type_mismatch(
                "spec.replicas",
                "string",
                "spec.replicas in body must be of type integer: \"string\""
            )
            .message(),
            "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""
        );
        assert_eq!(FieldError::too_many("spec.l", 4, 3).message(), "spec.l: Too many: 4: must have at most 3 items");
    }

    #[test]
    fn go_rendering() {
        assert_eq!(go_string_map(&json!({"b": "2", "a": "1"})), r#"map[string]string{"a":"1", "b":"2"}"#);
        assert_eq!(go_value(&json!({"a": 1})), r#"map[string]interface {}{"a":1}"#);
        assert_eq!(go_value(&json!(["a", 1])), r#"[]interface {}{"a", 1}"#);
        assert_eq!(go_value(&json!(true)), "true");
        assert_eq!(json_type_name(&json!(1.5)), "number");
        assert_eq!(json_type_name(&json!(2)), "integer");
    }

    #[test]
    fn paths() {
        assert_eq!(child("", "spec"), "spec");
        assert_eq!(index(&child("spec", "containers"), 0), "spec.containers[0]");
        assert_eq!(key("data", "a b"), "data[a b]");
        let errs = vec![FieldError::required("a", ""), FieldError::required("b", "")];
        assert_eq!(join_messages(&errs), "[a: Required value, b: Required value]");
    }
}
