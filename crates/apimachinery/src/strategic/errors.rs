//! The failures of a strategic merge patch, worded as k8s.io/apimachinery's `mergepatch` errors,
//! and their HTTP answers.
//!
//! kube-apiserver answers the format errors it recognises with 400, lists of lists and a patch
//! that contradicts its `$retainKeys` with 422, and everything else (unknown `$patch` values,
//! missing merge keys, mixed list item types) with a 500 because those are plain Go errors. They
//! are all the client's fault, so this server answers them with 400 and the same message.

use serde_json::Value;

use crate::{ApiError, Cause, CauseType, Details, StatusReason};

/// Why a strategic merge patch could not be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmpError {
    /// The patch is malformed: 400 with the message.
    BadRequest(String),
    /// The patch is well formed but cannot apply: 422 with kube's generic message and this cause.
    Unprocessable(String),
}

impl SmpError {
    pub(crate) fn bad_json_doc() -> Self {
        Self::BadRequest("invalid JSON document".into())
    }

    pub(crate) fn no_list_of_lists() -> Self {
        Self::Unprocessable("lists of lists are not supported".into())
    }

    pub(crate) fn bad_primitive_list() -> Self {
        Self::BadRequest("invalid patch format of primitive list".into())
    }

    pub(crate) fn bad_retain_keys() -> Self {
        Self::BadRequest("invalid patch format of retainKeys".into())
    }

    pub(crate) fn bad_set_element_order() -> Self {
        Self::BadRequest("invalid patch format of setElementOrder list".into())
    }

    pub(crate) fn no_merge_key(item: &Value, key: &str) -> Self {
        Self::BadRequest(format!("map: {} does not contain declared merge key: {key}", go_value(item)))
    }

    pub(crate) fn bad_patch_type(directive: &Value, map: &Value) -> Self {
        Self::BadRequest(format!("unknown patch type: {} in map: {}", go_value(directive), go_value(map)))
    }

    /// `expected a <expected>, but received a <actual's Go type>`.
    pub(crate) fn bad_arg_type(expected: &str, actual: &Value) -> Self {
        Self::BadRequest(format!("expected a {expected}, but received a {}", go_type(actual)))
    }

    pub fn other(msg: impl Into<String>) -> Self {
        Self::BadRequest(msg.into())
    }
}

impl From<SmpError> for ApiError {
    fn from(e: SmpError) -> Self {
        match e {
            SmpError::BadRequest(msg) => ApiError::bad_request(msg),
            SmpError::Unprocessable(msg) => ApiError {
                code: 422,
                reason: StatusReason::Invalid,
                message: "the server rejected our request due to an error in our request".into(),
                details: Some(Box::new(Details {
                    causes: vec![Cause {
                        cause_type: Some(CauseType::UnexpectedServerResponse),
                        message: msg,
                        field: String::new(),
                    }],
                    ..Details::default()
                })),
            },
        }
    }
}

/// The Go type a JSON value decodes to, as `reflect.TypeOf(v).String()` prints it.
pub fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// A value as Go's `%v` prints the decoded form: `map[k:v]` (sorted keys), `[a b]`, raw strings.
pub fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if !n.is_i64() && !n.is_u64() && (f.abs() >= 1e21 || (f != 0.0 && f.abs() < 1e-4)) => {
                // Go's %v switches to exponent form outside [1e-4, 1e21): 1e+21, 1e-05.
                let s = format!("{f:e}");
                match s.split_once('e') {
                    Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e:0>2}"),
                    Some((m, e)) => format!("{m}e-{:0>2}", &e[1..]),
                    None => s,
                }
            }
            // Go prints whole floats without a fraction (100, not 100.0).
            Some(f) if !n.is_i64() && !n.is_u64() && f.fract() == 0.0 => format!("{f:.0}"),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(go_value).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            format!("map[{}]", m.iter().map(|(k, v)| format!("{k}:{}", go_value(v))).collect::<Vec<_>>().join(" "))
        }
    }
}
