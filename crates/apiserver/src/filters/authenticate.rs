//! Who sent a request: the verified client certificate, else the bearer token (bootstrap token
//! or service-account JWT, each checked against the objects it refers to), else anonymous.
//! The order and the outcomes are kube-apiserver's, and so is keeping a token's success for
//! 10 s ([`super::token_cache`], emptied whenever a Secret or ServiceAccount changes).
//! A request with neither credential but the dashboard's session cookie acts as the session's
//! user, and only when it also carries the dashboard's anti-CSRF header.

use axum::http::HeaderMap;
use k8s_openapi::api::core::v1::{Secret, ServiceAccount};
use karmadactl_apimachinery::ApiError;

use crate::auth::{BearerKind, ServiceAccountTokenKind, UserInfo, authenticate_bootstrap_token, bearer_kind};

use crate::state::ApiState;
use crate::storage::store_access;
use crate::transport::listener::ConnInfo;

pub async fn authenticate(
    state: &ApiState,
    conn: Option<&ConnInfo>,
    headers: &HeaderMap,
) -> Result<UserInfo, ApiError> {
    if let Some(cert) = conn.and_then(|c| c.client_cert.as_ref()) {
        // rustls already verified the chain against the plane's CA.
        let identity = cert.as_ref().as_ref().map_err(|_| ApiError::unauthorized())?;
        return identity.user_at(jiff::Timestamp::now()).map_err(|_| ApiError::unauthorized());
    }
    let Some(value) = headers.get(axum::http::header::AUTHORIZATION) else {
        return dashboard_session(state, headers).await;
    };
    let value = value.to_str().map_err(|_| ApiError::unauthorized())?;
    // As kube-apiserver: only `Bearer <token>` is a credential. Any other scheme (kubectl sends
    // `Basic` when a kubeconfig names just a username) or an empty token identifies nobody, so
    // the request is anonymous and RBAC decides what `system:anonymous` may do.
    let token = match value.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() => token.trim(),
        _ => return Ok(UserInfo::anonymous()),
    };
    authenticate_bearer(state, token).await
}

/// The user of the dashboard session the cookie names; anonymous without a cookie.
async fn dashboard_session(state: &ApiState, headers: &HeaderMap) -> Result<UserInfo, ApiError> {
    use crate::dashboard::{Credential, has_csrf_header, session_cookie};
    let Some(secret) = session_cookie(headers) else {
        return Ok(UserInfo::anonymous());
    };
    if !has_csrf_header(headers) {
        return Err(crate::dashboard::login::csrf_refused());
    }
    match state.dashboard.lookup(secret, std::time::Instant::now()) {
        None => Err(ApiError::unauthorized()),
        Some(Credential::User(user)) => Ok(user),
        Some(Credential::Token(token)) => authenticate_bearer(state, &token).await,
    }
}

/// Authenticates a bearer token, through the cache of recent successes.
pub async fn authenticate_bearer(state: &ApiState, token: &str) -> Result<UserInfo, ApiError> {
    let started = std::time::Instant::now();
    let epoch = match state.token_cache.get(token, started) {
        Ok(user) => return Ok(user),
        Err(epoch) => epoch,
    };
    let user = authenticate_token(state, token).await?;
    state.token_cache.insert(token, &user, started, epoch);
    Ok(user)
}

/// A bound token lives only as long as the Secret, Pod or Node it is bound to (and that
/// object's UID), as kube-apiserver's service-account token validator checks.
async fn check_bound_object(
    state: &ApiState,
    token: &str,
    claims: &crate::auth::authn::ServiceAccountClaims,
) -> Result<(), crate::auth::AuthError> {
    use crate::auth::authn::BoundObject;
    let ns = Some(claims.namespace.as_str());
    match claims.bound_object() {
        None => Ok(()),
        Some(BoundObject::Secret { name, .. }) => {
            let secret: Option<Secret> = store_access::get_typed(state, "", "secrets", ns, name).await;
            claims.check_secret(token, secret.as_ref())
        }
        Some(BoundObject::Pod { name, .. }) => {
            let pod: Option<k8s_openapi::api::core::v1::Pod> =
                store_access::get_typed(state, "", "pods", ns, name).await;
            claims.check_pod(pod.as_ref())
        }
        Some(BoundObject::Node { name, .. }) => {
            let node: Option<k8s_openapi::api::core::v1::Node> =
                store_access::get_typed(state, "", "nodes", None, name).await;
            claims.check_node(node.as_ref())
        }
    }
}

/// Checks a bearer token against what it refers to (its Secret, its ServiceAccount).
async fn authenticate_token(state: &ApiState, token: &str) -> Result<UserInfo, ApiError> {
    let now = jiff::Timestamp::now();
    match bearer_kind(token) {
        BearerKind::Bootstrap { id } => {
            let secret: Option<Secret> =
                store_access::get_typed(state, "", "secrets", Some("kube-system"), &format!("bootstrap-token-{id}"))
                    .await;
            authenticate_bootstrap_token(token, secret.as_ref(), now).map_err(|_| ApiError::unauthorized())
        }
        BearerKind::Jwt => {
            let claims = state.sa_tokens.verify(token, now).map_err(|_| ApiError::unauthorized())?;
            let sa: Option<ServiceAccount> =
                store_access::get_typed(state, "", "serviceaccounts", Some(&claims.namespace), &claims.name).await;
            claims.check_service_account(sa.as_ref()).map_err(|_| ApiError::unauthorized())?;
            if matches!(claims.kind, ServiceAccountTokenKind::Legacy { .. }) {
                let secret_name = claims.secret_name().unwrap_or_default().to_string();
                let secret: Option<Secret> =
                    store_access::get_typed(state, "", "secrets", Some(&claims.namespace), &secret_name).await;
                claims.check_secret(token, secret.as_ref()).map_err(|_| ApiError::unauthorized())?;
            }
            check_bound_object(state, token, &claims).await.map_err(|_| ApiError::unauthorized())?;
            Ok(claims.user_info())
        }
        BearerKind::Unknown => Err(ApiError::unauthorized()),
    }
}
