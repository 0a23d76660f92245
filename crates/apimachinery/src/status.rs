//! API errors as metav1.Status objects, with k8s.io/apimachinery/pkg/api/errors' exact messages.

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde_json::{Map, Value, json};

use super::field::{Cause, CauseType, aggregate, go_quote};

/// The conflict detail kube-apiserver uses when a resourceVersion precondition fails.
pub const OPTIMISTIC_LOCK_ERROR_MSG: &str =
    "the object has been modified; please apply your changes to the latest version and try again";

/// metav1.StatusReason values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatusReason {
    /// No reason (the field is omitted).
    Unknown,
    /// 401: the caller is not authenticated.
    Unauthorized,
    /// 403: the caller may not do this.
    Forbidden,
    /// 404: the object does not exist.
    NotFound,
    /// 409: the object already exists.
    AlreadyExists,
    /// 409: the update conflicts (usually a stale resourceVersion).
    Conflict,
    /// 410: the content is gone (deprecated in favour of Expired).
    Gone,
    /// 422: the object fails validation.
    Invalid,
    /// 500: the server could not finish in time; retry.
    ServerTimeout,
    /// 500: stored data could not be read.
    StoreReadError,
    /// 504: the request timed out.
    Timeout,
    /// 429: too many requests.
    TooManyRequests,
    /// 400: the request is malformed.
    BadRequest,
    /// 405: the verb is not supported on this resource.
    MethodNotAllowed,
    /// 406: no acceptable response media type.
    NotAcceptable,
    /// 413: the request body is too large.
    RequestEntityTooLarge,
    /// 415: the request body media type is not supported.
    UnsupportedMediaType,
    /// 500: an internal error.
    InternalError,
    /// 410: the requested resourceVersion has expired.
    Expired,
    /// 503: the service is unavailable.
    ServiceUnavailable,
}

impl StatusReason {
    /// The wire value; empty for [`StatusReason::Unknown`].
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unknown => "",
            Self::Unauthorized => "Unauthorized",
            Self::Forbidden => "Forbidden",
            Self::NotFound => "NotFound",
            Self::AlreadyExists => "AlreadyExists",
            Self::Conflict => "Conflict",
            Self::Gone => "Gone",
            Self::Invalid => "Invalid",
            Self::ServerTimeout => "ServerTimeout",
            Self::StoreReadError => "StorageReadError",
            Self::Timeout => "Timeout",
            Self::TooManyRequests => "TooManyRequests",
            Self::BadRequest => "BadRequest",
            Self::MethodNotAllowed => "MethodNotAllowed",
            Self::NotAcceptable => "NotAcceptable",
            Self::RequestEntityTooLarge => "RequestEntityTooLarge",
            Self::UnsupportedMediaType => "UnsupportedMediaType",
            Self::InternalError => "InternalError",
            Self::Expired => "Expired",
            Self::ServiceUnavailable => "ServiceUnavailable",
        }
    }
}

/// metav1.StatusDetails; empty strings and a zero retry are omitted on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Details {
    /// The object name, if the error is about one object.
    pub name: String,
    /// The API group of the resource or kind.
    pub group: String,
    /// The resource (plural) or, for Invalid, the kind.
    pub kind: String,
    /// The object UID, when known.
    pub uid: String,
    /// Field-level causes.
    pub causes: Vec<Cause>,
    /// Seconds a client should wait before retrying; 0 means unset.
    pub retry_after_seconds: i32,
}

impl Details {
    fn for_resource(group: &str, resource: &str, name: &str) -> Self {
        Self { name: name.into(), group: group.into(), kind: resource.into(), ..Self::default() }
    }

    /// The JSON form (Go's omitempty rules).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        for (k, v) in [("name", &self.name), ("group", &self.group), ("kind", &self.kind), ("uid", &self.uid)] {
            if !v.is_empty() {
                m.insert(k.into(), Value::String(v.clone()));
            }
        }
        if !self.causes.is_empty() {
            let causes = self.causes.iter().map(cause_json).collect();
            m.insert("causes".into(), Value::Array(causes));
        }
        if self.retry_after_seconds != 0 {
            m.insert("retryAfterSeconds".into(), json!(self.retry_after_seconds));
        }
        Value::Object(m)
    }
}

fn cause_json(c: &Cause) -> Value {
    let mut m = Map::new();
    if let Some(t) = c.cause_type {
        m.insert("reason".into(), Value::String(t.as_str().into()));
    }
    if !c.message.is_empty() {
        m.insert("message".into(), Value::String(c.message.clone()));
    }
    if !c.field.is_empty() {
        m.insert("field".into(), Value::String(c.field.clone()));
    }
    Value::Object(m)
}

/// `resource` or `resource.group`, as schema.GroupResource.String() prints it.
pub fn qualified_resource(group: &str, resource: &str) -> String {
    if group.is_empty() { resource.to_string() } else { format!("{resource}.{group}") }
}

/// `Kind` or `Kind.group`, as schema.GroupKind.String() prints it.
pub fn qualified_kind(group: &str, kind: &str) -> String {
    if group.is_empty() { kind.to_string() } else { format!("{kind}.{group}") }
}

/// The authorization filter escapes `&`, `<` and `>` so a denial never looks like HTML.
fn sanitize_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// An error the API server answers with a Status body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// The HTTP status code (also the Status `code`).
    pub code: u16,
    /// The Status `reason`.
    pub reason: StatusReason,
    /// The Status `message`, exactly as kube-apiserver words it.
    pub message: String,
    /// The Status `details`; `Some` wherever Go sets a (possibly empty) details object.
    /// Boxed to keep `Result<_, ApiError>` small.
    pub details: Option<Box<Details>>,
}

impl ApiError {
    /// A Status with no details.
    pub fn new(code: u16, reason: StatusReason, message: impl Into<String>) -> Self {
        Self { code, reason, message: message.into(), details: None }
    }

    fn with_details(code: u16, reason: StatusReason, message: String, details: Details) -> Self {
        Self { code, reason, message, details: Some(Box::new(details)) }
    }

    /// 404 NotFound: `deployments.apps "x" not found`.
    pub fn not_found(group: &str, resource: &str, name: &str) -> Self {
        let msg = format!("{} {} not found", qualified_resource(group, resource), go_quote(name));
        Self::with_details(404, StatusReason::NotFound, msg, Details::for_resource(group, resource, name))
    }

    /// 409 AlreadyExists: `configmaps "x" already exists`.
    pub fn already_exists(group: &str, resource: &str, name: &str) -> Self {
        let msg = format!("{} {} already exists", qualified_resource(group, resource), go_quote(name));
        Self::with_details(409, StatusReason::AlreadyExists, msg, Details::for_resource(group, resource, name))
    }

    /// 409 Conflict: `Operation cannot be fulfilled on <qr> "x": <detail>`; pass
    /// [`OPTIMISTIC_LOCK_ERROR_MSG`] for a stale resourceVersion.
    pub fn conflict(group: &str, resource: &str, name: &str, detail: &str) -> Self {
        let msg = format!(
            "Operation cannot be fulfilled on {} {}: {detail}",
            qualified_resource(group, resource),
            go_quote(name)
        );
        Self::with_details(409, StatusReason::Conflict, msg, Details::for_resource(group, resource, name))
    }

    /// 409 Conflict from server-side apply (apierrors.NewApplyConflict): the message names the
    /// conflicting fields, one `FieldManagerConflict` cause each.
    pub(crate) fn apply_conflict(message: String, causes: Vec<Cause>) -> Self {
        Self::with_details(409, StatusReason::Conflict, message, Details { causes, ..Details::default() })
    }

    /// 422 Invalid: `Deployment.apps "x" is invalid: [a: ..., b: ...]` (no brackets for one cause).
    pub fn invalid(group: &str, kind: &str, name: &str, causes: Vec<Cause>) -> Self {
        let qk = qualified_kind(group, kind);
        let msg = if causes.is_empty() {
            format!("{qk} {} is invalid", go_quote(name))
        } else {
            format!("{qk} {} is invalid: {}", go_quote(name), aggregate(&causes))
        };
        let details =
            Details { name: name.into(), group: group.into(), kind: kind.into(), causes, ..Details::default() };
        Self::with_details(422, StatusReason::Invalid, msg, details)
    }

    /// 400 BadRequest with the given message.
    pub fn bad_request(msg: impl Into<String>) -> Self {
        Self::new(400, StatusReason::BadRequest, msg)
    }

    /// 401 Unauthorized, as the authentication filter sends it.
    pub fn unauthorized() -> Self {
        Self::new(401, StatusReason::Unauthorized, "Unauthorized")
    }

    /// 403 Forbidden from the authorization filter, e.g. `configmaps "x" is forbidden: User "bob"
    /// cannot get resource "configmaps" in API group "" in the namespace "default"`.
    /// An empty namespace gives the `at the cluster scope` form.
    pub fn forbidden(
        user: &str,
        verb: &str,
        group: &str,
        resource: &str,
        subresource: &str,
        namespace: &str,
        name: &str,
    ) -> Self {
        let full = if subresource.is_empty() { resource.to_string() } else { format!("{resource}/{subresource}") };
        let scope = if namespace.is_empty() {
            "at the cluster scope".to_string()
        } else {
            format!("in the namespace {}", go_quote(namespace))
        };
        let why = format!(
            "User {} cannot {verb} resource {} in API group {} {scope}",
            go_quote(user),
            go_quote(&full),
            go_quote(group)
        );
        Self::forbidden_message(group, resource, name, &sanitize_html(&why))
    }

    /// 403 Forbidden for a non-resource URL: `forbidden: User "x" cannot get path "/foo"`.
    pub fn forbidden_path(user: &str, verb: &str, path: &str) -> Self {
        let why = format!("User {} cannot {verb} path {}", go_quote(user), go_quote(path));
        Self::forbidden_message("", "", "", &sanitize_html(&why))
    }

    /// 403 Forbidden with a free-form reason (apierrors.NewForbidden), as admission uses it.
    pub fn forbidden_message(group: &str, resource: &str, name: &str, why: &str) -> Self {
        let msg = if group.is_empty() && resource.is_empty() {
            format!("forbidden: {why}")
        } else if name.is_empty() {
            format!("{} is forbidden: {why}", qualified_resource(group, resource))
        } else {
            format!("{} {} is forbidden: {why}", qualified_resource(group, resource), go_quote(name))
        };
        Self::with_details(403, StatusReason::Forbidden, msg, Details::for_resource(group, resource, name))
    }

    /// 405 MethodNotAllowed: `<verb> is not supported on resources of kind "deployments.apps"`.
    /// `resource` is the qualified resource ([`qualified_resource`]); resource names contain
    /// no dots, so the group is everything after the first one.
    pub fn method_not_supported(resource: &str, verb: &str) -> Self {
        let (plural, group) = resource.split_once('.').unwrap_or((resource, ""));
        let msg = format!("{verb} is not supported on resources of kind {}", go_quote(resource));
        Self::with_details(405, StatusReason::MethodNotAllowed, msg, Details::for_resource(group, plural, ""))
    }

    /// 410 with reason Expired and the given message. kube-apiserver only emits Expired for
    /// 410s today (NewGone is deprecated); clients treat both alike.
    pub fn gone(msg: impl Into<String>) -> Self {
        Self::new(410, StatusReason::Expired, msg)
    }

    /// 410 Expired for a watch/list from a compacted revision: `too old resource version: X (Y)`,
    /// where Y is the oldest revision still available minus one, as the watch cache says.
    pub fn resource_expired(requested: impl std::fmt::Display, oldest: impl std::fmt::Display) -> Self {
        Self::gone(format!("too old resource version: {requested} ({oldest})"))
    }

    /// 413: `Request entity too large: limit is <limit>`, as the body reader says.
    pub fn request_entity_too_large(limit: u64) -> Self {
        Self::request_entity_too_large_msg(&format!("limit is {limit}"))
    }

    /// 413: `Request entity too large: <msg>`.
    pub(crate) fn request_entity_too_large_msg(msg: &str) -> Self {
        Self::new(413, StatusReason::RequestEntityTooLarge, format!("Request entity too large: {msg}"))
    }

    /// 415 from content negotiation. kube names only the accepted types, never the offending
    /// `content_type`; the argument is kept so callers can pass what they have.
    pub fn unsupported_media_type(_content_type: &str, accepted: &[&str]) -> Self {
        let msg = format!(
            "the body of the request was in an unknown format - accepted media types include: {}",
            accepted.join(", ")
        );
        Self::new(415, StatusReason::UnsupportedMediaType, msg)
    }

    /// 406 from content negotiation: `only the following media types are accepted: ...`.
    pub fn not_acceptable(accepted: &[&str]) -> Self {
        let msg = format!("only the following media types are accepted: {}", accepted.join(", "));
        Self::new(406, StatusReason::NotAcceptable, msg)
    }

    /// 429 with the given message and Retry-After seconds (apierrors.NewTooManyRequests).
    pub fn too_many_requests(msg: &str, retry_after_seconds: i32) -> Self {
        let details = Details { retry_after_seconds, ..Details::default() };
        Self::with_details(429, StatusReason::TooManyRequests, msg.to_string(), details)
    }

    /// 500: `Internal error occurred: <msg>`, with the message as an untyped cause.
    pub fn internal(msg: &str) -> Self {
        let cause = Cause { cause_type: None, message: msg.to_string(), field: String::new() };
        let details = Details { causes: vec![cause], ..Details::default() };
        Self::with_details(500, StatusReason::InternalError, format!("Internal error occurred: {msg}"), details)
    }

    /// 500 ServerTimeout: `The <op> operation against <qr> could not be completed at this time,
    /// please try again.`
    pub fn server_timeout(group: &str, resource: &str, operation: &str, retry_after_seconds: i32) -> Self {
        let msg = format!(
            "The {operation} operation against {} could not be completed at this time, please try again.",
            qualified_resource(group, resource)
        );
        let details = Details { retry_after_seconds, ..Details::for_resource(group, resource, operation) };
        Self::with_details(500, StatusReason::ServerTimeout, msg, details)
    }

    /// 503 ServiceUnavailable with the given message.
    pub fn service_unavailable(msg: impl Into<String>) -> Self {
        Self::new(503, StatusReason::ServiceUnavailable, msg)
    }

    /// 504 Timeout: `Timeout: <msg>`.
    pub fn timeout(msg: &str) -> Self {
        Self::with_details(504, StatusReason::Timeout, format!("Timeout: {msg}"), Details::default())
    }

    /// storage.NewTooLargeResourceVersionError as the watch cache answers a read of a
    /// resourceVersion it has not reached: 504 Timeout, retry after a second, with the
    /// `ResourceVersionTooLarge` cause client-go's reflector looks for.
    pub fn too_large_resource_version(requested: i64, current: i64) -> Self {
        let cause = Cause {
            cause_type: Some(CauseType::ResourceVersionTooLarge),
            message: "Too large resource version".into(),
            field: String::new(),
        };
        let details = Details { causes: vec![cause], retry_after_seconds: 1, ..Details::default() };
        let msg = format!("Timeout: Too large resource version: {requested}, current: {current}");
        Self::with_details(504, StatusReason::Timeout, msg, details)
    }

    /// The Status object as JSON: `{"kind":"Status","apiVersion":"v1","metadata":{},...}`.
    pub fn to_status_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("kind".into(), json!("Status"));
        m.insert("apiVersion".into(), json!("v1"));
        m.insert("metadata".into(), json!({}));
        m.insert("status".into(), json!("Failure"));
        if !self.message.is_empty() {
            m.insert("message".into(), json!(self.message));
        }
        if self.reason != StatusReason::Unknown {
            m.insert("reason".into(), json!(self.reason.as_str()));
        }
        if let Some(d) = &self.details {
            m.insert("details".into(), d.to_json());
        }
        m.insert("code".into(), json!(self.code));
        Value::Object(m)
    }

    /// The Status as the typed k8s-openapi struct.
    pub fn to_status(&self) -> metav1::Status {
        let non_empty = |s: &str| (!s.is_empty()).then(|| s.to_string());
        metav1::Status {
            code: Some(i32::from(self.code)),
            message: non_empty(&self.message),
            reason: non_empty(self.reason.as_str()),
            status: Some("Failure".into()),
            metadata: Default::default(),
            details: self.details.as_ref().map(|d| metav1::StatusDetails {
                name: non_empty(&d.name),
                group: non_empty(&d.group),
                kind: non_empty(&d.kind),
                uid: non_empty(&d.uid),
                retry_after_seconds: (d.retry_after_seconds != 0).then_some(d.retry_after_seconds),
                causes: (!d.causes.is_empty()).then(|| {
                    d.causes
                        .iter()
                        .map(|c| metav1::StatusCause {
                            reason: c.cause_type.map(|t| t.as_str().to_string()),
                            message: non_empty(&c.message),
                            field: non_empty(&c.field),
                        })
                        .collect()
                }),
            }),
        }
    }
}

#[cfg(test)]
#[path = "status_tests.rs"]
mod tests;
