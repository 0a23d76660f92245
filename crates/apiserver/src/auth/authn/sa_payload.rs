//! The JSON of service-account tokens: what is written, and reading it back into claims.

// Payload structs list their fields alphabetically: go-jose merges the claim sets through a Go
// map, so upstream tokens carry keys in that order at every level.

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use super::sa_claims::{BoundObject, ServiceAccountClaims, ServiceAccountTokenKind};
use super::user::split_service_account_username;
use crate::auth::AuthError;

/// go-jose's default leeway for `exp`, `nbf` and `iat`.
const LEEWAY: SignedDuration = SignedDuration::from_secs(60);

pub(super) fn legacy_claims(raw: RawClaims) -> Result<ServiceAccountClaims, AuthError> {
    // Upstream's legacy validator checks these, in this order.
    let missing = |v: Option<String>, reason| v.filter(|s| !s.is_empty()).ok_or(AuthError::InvalidClaims { reason });
    let sub = missing(raw.sub, "sub claim is missing")?;
    let namespace = missing(raw.legacy_namespace, "namespace claim is missing")?;
    let secret_name = missing(raw.legacy_secret_name, "secretName claim is missing")?;
    let name = missing(raw.legacy_sa_name, "serviceAccountName claim is missing")?;
    let uid = missing(raw.legacy_sa_uid, "serviceAccountUID claim is missing")?;
    if split_service_account_username(&sub) != Some((namespace.as_str(), name.as_str())) {
        return Err(AuthError::InvalidClaims { reason: "sub claim is invalid" });
    }
    Ok(ServiceAccountClaims { kind: ServiceAccountTokenKind::Legacy { secret_name }, namespace, name, uid })
}

pub(super) fn bound_claims(raw: RawClaims, now: Timestamp) -> Result<ServiceAccountClaims, AuthError> {
    let time = |secs: Option<f64>| -> Result<Option<Timestamp>, AuthError> {
        // NumericDate may be fractional; whole seconds are what go-jose compares.
        secs.map(|s| Timestamp::from_second(s.floor() as i64))
            .transpose()
            .map_err(|_| AuthError::InvalidClaims { reason: "a time claim is out of range" })
    };
    let (nbf, exp, iat) = (time(raw.nbf)?, time(raw.exp)?, time(raw.iat)?);
    // Nanoseconds in i128 cannot overflow for any Timestamp, unlike Timestamp ± duration.
    let (now_ns, leeway_ns) = (now.as_nanosecond(), LEEWAY.as_nanos());
    let before = |t: Timestamp| now_ns + leeway_ns < t.as_nanosecond();
    if nbf.is_some_and(before) {
        return Err(AuthError::TokenNotValidYet);
    }
    let expiration = exp.ok_or(AuthError::InvalidClaims { reason: "exp claim is missing" })?;
    if now_ns - leeway_ns > expiration.as_nanosecond() {
        return Err(AuthError::TokenExpired);
    }
    if iat.is_some_and(before) {
        return Err(AuthError::IssuedInTheFuture);
    }
    let kube = raw.kubernetes.ok_or(AuthError::InvalidClaims { reason: "kubernetes.io claim is missing" })?;
    if kube.namespace.is_empty() || kube.serviceaccount.name.is_empty() || kube.serviceaccount.uid.is_empty() {
        return Err(AuthError::InvalidClaims { reason: "service account claims are missing" });
    }
    // Kubernetes binds to at most one of these; checked in upstream's order.
    let bound_object = match (kube.secret, kube.pod, kube.node) {
        (Some(s), _, _) => Some(BoundObject::Secret { name: s.name, uid: s.uid }),
        (None, Some(p), _) => Some(BoundObject::Pod { name: p.name, uid: p.uid }),
        (None, None, Some(n)) => Some(BoundObject::Node { name: n.name, uid: n.uid }),
        (None, None, None) => None,
    };
    let audiences = match raw.aud {
        Some(Audience::One(a)) => vec![a],
        Some(Audience::Many(a)) => a,
        None => Vec::new(),
    };
    Ok(ServiceAccountClaims {
        kind: ServiceAccountTokenKind::Bound { audiences, expiration, bound_object, id: raw.jti },
        namespace: kube.namespace,
        name: kube.serviceaccount.name,
        uid: kube.serviceaccount.uid,
    })
}

#[derive(Serialize)]
pub(super) struct LegacyPayload<'a> {
    pub(super) iss: &'a str,
    #[serde(rename = "kubernetes.io/serviceaccount/namespace")]
    pub(super) namespace: &'a str,
    #[serde(rename = "kubernetes.io/serviceaccount/secret.name")]
    pub(super) secret_name: &'a str,
    #[serde(rename = "kubernetes.io/serviceaccount/service-account.name")]
    pub(super) service_account_name: &'a str,
    #[serde(rename = "kubernetes.io/serviceaccount/service-account.uid")]
    pub(super) service_account_uid: &'a str,
    pub(super) sub: String,
}

#[derive(Serialize)]
pub(super) struct BoundPayload<'a> {
    pub(super) aud: &'a [String],
    pub(super) exp: i64,
    pub(super) iat: i64,
    pub(super) iss: &'a str,
    pub(super) jti: String,
    #[serde(rename = "kubernetes.io")]
    pub(super) kubernetes: KubernetesClaims,
    pub(super) nbf: i64,
    pub(super) sub: String,
}

#[derive(Serialize, Deserialize)]
pub(super) struct KubernetesClaims {
    #[serde(default)]
    pub(super) namespace: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) node: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) pod: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub(super) secret: Option<Ref>,
    #[serde(default)]
    pub(super) serviceaccount: Ref,
}

#[derive(Serialize, Deserialize, Default)]
pub(super) struct Ref {
    #[serde(default)]
    pub(super) name: String,
    #[serde(default)]
    pub(super) uid: String,
}

/// `aud` is a string or an array of strings (RFC 7519 §4.1.3).
#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

/// Every claim either kind may carry; which are required depends on `iss`.
#[derive(Deserialize)]
pub(super) struct RawClaims {
    pub(super) iss: Option<String>,
    sub: Option<String>,
    aud: Option<Audience>,
    exp: Option<f64>,
    nbf: Option<f64>,
    iat: Option<f64>,
    jti: Option<String>,
    #[serde(rename = "kubernetes.io")]
    kubernetes: Option<KubernetesClaims>,
    #[serde(rename = "kubernetes.io/serviceaccount/namespace")]
    legacy_namespace: Option<String>,
    #[serde(rename = "kubernetes.io/serviceaccount/secret.name")]
    legacy_secret_name: Option<String>,
    #[serde(rename = "kubernetes.io/serviceaccount/service-account.name")]
    legacy_sa_name: Option<String>,
    #[serde(rename = "kubernetes.io/serviceaccount/service-account.uid")]
    legacy_sa_uid: Option<String>,
}
