//! Field-level validation errors shaped like k8s.io/apimachinery/pkg/util/validation/field.

use std::fmt;

/// The machine-readable type of a cause (metav1.CauseType); rendered as the cause's `reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CauseType {
    /// `FieldValueNotFound`: a referenced value does not exist.
    NotFound,
    /// `FieldValueRequired`: a required value is missing.
    Required,
    /// `FieldValueDuplicate`: a value that must be unique is repeated.
    Duplicate,
    /// `FieldValueInvalid`: a malformed value.
    Invalid,
    /// `FieldValueNotSupported`: a value outside an enumeration.
    NotSupported,
    /// `FieldValueForbidden`: a well-formed value that is not allowed here.
    Forbidden,
    /// `FieldValueTooLong`: a value longer than allowed.
    TooLong,
    /// `FieldValueTooMany`: a list with too many items.
    TooMany,
    /// `InternalError`: a failure not caused by the input.
    Internal,
    /// `FieldValueTypeInvalid`: a value of the wrong JSON type.
    TypeInvalid,
    /// `UnexpectedServerResponse`: used by clients for unparseable responses.
    UnexpectedServerResponse,
    /// `FieldManagerConflict`: a server-side apply ownership conflict.
    FieldManagerConflict,
    /// `ResourceVersionTooLarge`: a read asked for a resourceVersion the server has not reached.
    ResourceVersionTooLarge,
}

impl CauseType {
    /// The wire value (metav1.CauseType).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotFound => "FieldValueNotFound",
            Self::Required => "FieldValueRequired",
            Self::Duplicate => "FieldValueDuplicate",
            Self::Invalid => "FieldValueInvalid",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Forbidden => "FieldValueForbidden",
            Self::TooLong => "FieldValueTooLong",
            Self::TooMany => "FieldValueTooMany",
            Self::Internal => "InternalError",
            Self::TypeInvalid => "FieldValueTypeInvalid",
            Self::UnexpectedServerResponse => "UnexpectedServerResponse",
            Self::FieldManagerConflict => "FieldManagerConflict",
            Self::ResourceVersionTooLarge => "ResourceVersionTooLarge",
        }
    }

    /// The human prefix of a field error body (field.ErrorType.String()).
    fn label(self) -> &'static str {
        match self {
            Self::NotFound => "Not found",
            Self::Required => "Required value",
            Self::Duplicate => "Duplicate value",
            Self::Invalid | Self::TypeInvalid => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::Forbidden => "Forbidden",
            Self::TooLong => "Too long",
            Self::TooMany => "Too many",
            Self::Internal => "Internal error",
            Self::UnexpectedServerResponse => "Unexpected server response",
            Self::FieldManagerConflict => "Conflict",
            Self::ResourceVersionTooLarge => "Too large resource version",
        }
    }
}

/// An offending value as Go's field.Error prints it: strings quoted, scalars bare,
/// anything else as JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// A string, printed with Go's `%q`.
    Str(String),
    /// An integer, printed bare.
    Int(i64),
    /// A boolean, printed bare.
    Bool(bool),
    /// A pre-rendered JSON document (Go marshals non-scalar values with encoding/json).
    Json(String),
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Str(s) => f.write_str(&go_quote(s)),
            Self::Int(i) => write!(f, "{i}"),
            Self::Bool(b) => write!(f, "{b}"),
            Self::Json(j) => f.write_str(j),
        }
    }
}

impl From<&str> for BadValue {
    fn from(s: &str) -> Self {
        Self::Str(s.to_string())
    }
}
impl From<String> for BadValue {
    fn from(s: String) -> Self {
        Self::Str(s)
    }
}
impl From<&String> for BadValue {
    fn from(s: &String) -> Self {
        Self::Str(s.clone())
    }
}
impl From<i64> for BadValue {
    fn from(i: i64) -> Self {
        Self::Int(i)
    }
}
impl From<i32> for BadValue {
    fn from(i: i32) -> Self {
        Self::Int(i64::from(i))
    }
}
impl From<bool> for BadValue {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}
impl From<&serde_json::Value> for BadValue {
    fn from(v: &serde_json::Value) -> Self {
        match v {
            serde_json::Value::String(s) => Self::Str(s.clone()),
            serde_json::Value::Bool(b) => Self::Bool(*b),
            other => Self::Json(other.to_string()),
        }
    }
}
impl From<serde_json::Value> for BadValue {
    fn from(v: serde_json::Value) -> Self {
        Self::from(&v)
    }
}
impl From<&[String]> for BadValue {
    fn from(v: &[String]) -> Self {
        Self::Json(serde_json::Value::from(v.to_vec()).to_string())
    }
}

/// A dotted field path (`metadata.labels`, `spec.containers[0]`, `data[key]`) as field.Path prints it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldPath(String);

impl FieldPath {
    /// A path with one root element.
    pub fn new(root: &str) -> Self {
        Self(root.to_string())
    }
    /// `self.name` (or `name` at the root).
    pub fn child(&self, name: &str) -> Self {
        if self.0.is_empty() { Self(name.to_string()) } else { Self(format!("{}.{name}", self.0)) }
    }
    /// `self[i]`.
    pub fn index(&self, i: usize) -> Self {
        Self(format!("{}[{i}]", self.0))
    }
    /// `self[key]`.
    pub fn key(&self, key: &str) -> Self {
        Self(format!("{}[{key}]", self.0))
    }
    /// The rendered path.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl From<FieldPath> for String {
    fn from(p: FieldPath) -> Self {
        p.0
    }
}
impl From<&FieldPath> for String {
    fn from(p: &FieldPath) -> Self {
        p.0.clone()
    }
}

/// One field error / Status cause: `{reason, message, field}` on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    /// The cause type (`reason` on the wire); `None` for untyped causes such as internal errors.
    pub cause_type: Option<CauseType>,
    /// The error body without the field, e.g. `Invalid value: "x": must be ...`.
    pub message: String,
    /// The field path, e.g. `metadata.name`; empty when not about one field.
    pub field: String,
}

impl fmt::Display for Cause {
    /// `field: message`, as field.Error.Error() does (even when the field is empty).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl Cause {
    fn typed(t: CauseType, path: impl Into<String>, value: Option<&BadValue>, detail: &str) -> Self {
        let mut message = t.label().to_string();
        if let Some(v) = value {
            message = format!("{message}: {v}");
        }
        if !detail.is_empty() {
            message = format!("{message}: {detail}");
        }
        Self { cause_type: Some(t), message, field: path.into() }
    }

    /// `Required value`.
    pub fn required(path: impl Into<String>) -> Self {
        Self::typed(CauseType::Required, path, None, "")
    }
    /// `Required value: <detail>`.
    pub fn required_detail(path: impl Into<String>, detail: &str) -> Self {
        Self::typed(CauseType::Required, path, None, detail)
    }
    /// `Invalid value: <value>: <detail>`.
    pub fn invalid(path: impl Into<String>, value: impl Into<BadValue>, detail: &str) -> Self {
        Self::typed(CauseType::Invalid, path, Some(&value.into()), detail)
    }
    /// `Invalid value: <value>: <detail>` with the `FieldValueTypeInvalid` type.
    pub fn type_invalid(path: impl Into<String>, value: impl Into<BadValue>, detail: &str) -> Self {
        Self::typed(CauseType::TypeInvalid, path, Some(&value.into()), detail)
    }
    /// `Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported(path: impl Into<String>, value: impl Into<BadValue>, valid: &[&str]) -> Self {
        let detail = if valid.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = valid.iter().map(|v| go_quote(v)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::typed(CauseType::NotSupported, path, Some(&value.into()), &detail)
    }
    /// `Duplicate value: <value>`.
    pub fn duplicate(path: impl Into<String>, value: impl Into<BadValue>) -> Self {
        Self::typed(CauseType::Duplicate, path, Some(&value.into()), "")
    }
    /// `Not found: <value>`.
    pub fn not_found(path: impl Into<String>, value: impl Into<BadValue>) -> Self {
        Self::typed(CauseType::NotFound, path, Some(&value.into()), "")
    }
    /// `Too long: may not be more than <max> bytes` (the value itself is never echoed).
    pub fn too_long(path: impl Into<String>, max: usize) -> Self {
        let unit = if max == 1 { "byte" } else { "bytes" };
        Self::typed(CauseType::TooLong, path, None, &format!("may not be more than {max} {unit}"))
    }
    /// `Too many: <actual>: must have at most <max> items`.
    pub fn too_many(path: impl Into<String>, actual: usize, max: usize) -> Self {
        let unit = if max == 1 { "item" } else { "items" };
        let actual = BadValue::Int(i64::try_from(actual).unwrap_or(i64::MAX));
        Self::typed(CauseType::TooMany, path, Some(&actual), &format!("must have at most {max} {unit}"))
    }
    /// `Forbidden: <detail>`.
    pub fn forbidden(path: impl Into<String>, detail: &str) -> Self {
        Self::typed(CauseType::Forbidden, path, None, detail)
    }
    /// `Internal error: <detail>`.
    pub fn internal(path: impl Into<String>, detail: &str) -> Self {
        Self::typed(CauseType::Internal, path, None, detail)
    }
}

/// Joins causes as utilerrors.Aggregate prints them: one message bare, several as
/// `[a, b]`, duplicates dropped. Empty input gives an empty string.
pub fn aggregate(causes: &[Cause]) -> String {
    aggregate_messages(causes.iter().map(ToString::to_string))
}

/// [`aggregate`] over already-rendered messages.
pub(crate) fn aggregate_messages(messages: impl IntoIterator<Item = String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for m in messages {
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    match seen.len() {
        0 => String::new(),
        1 => seen.remove(0),
        _ => format!("[{}]", seen.join(", ")),
    }
}

/// Quotes a string as Go's `strconv.Quote` (`%q`) does, so names in messages match
/// kube-apiserver byte for byte. Go's IsPrint is approximated by "not control and not a
/// non-ASCII space".
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            ' ' => out.push(' '),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() || c.is_whitespace() => {
                if (c as u32) < 0x10000 {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_match_apimachinery() {
        assert_eq!(Cause::required("metadata.name").to_string(), "metadata.name: Required value");
        assert_eq!(
            Cause::required_detail("metadata.name", "name or generateName is required").to_string(),
            "metadata.name: Required value: name or generateName is required"
        );
        assert_eq!(
            Cause::invalid("spec.replicas", -1, "must be greater than or equal to 0").to_string(),
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(Cause::invalid("a", "x", "bad").message, "Invalid value: \"x\": bad");
        assert_eq!(
            Cause::not_supported("spec.op", "x", &["a", "b"]).message,
            "Unsupported value: \"x\": supported values: \"a\", \"b\""
        );
        assert_eq!(Cause::duplicate("f", "x").message, "Duplicate value: \"x\"");
        assert_eq!(Cause::too_long("f", 63).message, "Too long: may not be more than 63 bytes");
        assert_eq!(Cause::too_long("f", 1).message, "Too long: may not be more than 1 byte");
        assert_eq!(
            Cause::forbidden("metadata.namespace", "not allowed on this type").message,
            "Forbidden: not allowed on this type"
        );
        assert_eq!(Cause::too_many("f", 5, 3).message, "Too many: 5: must have at most 3 items");
        assert_eq!(Cause::not_found("f", "x").message, "Not found: \"x\"");
        assert_eq!(
            Cause::invalid("f", BadValue::from(&["a".to_string()][..]), "d").message,
            "Invalid value: [\"a\"]: d"
        );
        assert_eq!(Cause::invalid("f", true, "d").message, "Invalid value: true: d");
        assert_eq!(Cause::required("f").cause_type.map(CauseType::as_str), Some("FieldValueRequired"));
    }

    #[test]
    fn paths() {
        let p = FieldPath::new("metadata");
        assert_eq!(p.child("labels").as_str(), "metadata.labels");
        assert_eq!(FieldPath::new("values").index(0).key("k").as_str(), "values[0][k]");
        assert_eq!(FieldPath::default().child("key").as_str(), "key");
    }

    #[test]
    fn aggregates() {
        let a = Cause::required("a");
        let b = Cause::required("b");
        assert_eq!(aggregate(&[]), "");
        assert_eq!(aggregate(std::slice::from_ref(&a)), "a: Required value");
        assert_eq!(aggregate(&[a.clone(), b, a]), "[a: Required value, b: Required value]");
    }

    #[test]
    fn quoting() {
        assert_eq!(go_quote("x"), "\"x\"");
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(go_quote("\n\t\u{1}\u{7f}"), "\"\\n\\t\\x01\\x7f\"");
        assert_eq!(go_quote("héllo ✓"), "\"héllo ✓\"");
        assert_eq!(go_quote("\u{a0}"), "\"\\u00a0\"");
    }
}
