//! `/apis/cluster.karmada.io/v1alpha1/clusters/<name>/proxy/<path>`: forwards the request to the
//! member with the credentials join stored for it (`spec.secretRef`), impersonating the caller
//! (`Impersonate-User` / `Impersonate-Group`) so the member's own RBAC decides what the caller
//! may do there. The plane's RBAC for `clusters/proxy` has already been checked by the
//! dispatcher. Responses stream, so watches through the proxy work; a WebSocket or SPDY/3.1
//! upgrade the member accepts (`pods/exec`, `pods/attach`) joins the caller's connection to the
//! member's.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::response::Response;
use k8s_openapi::api::core::v1::Secret;
use karmadactl_apimachinery::{ApiError, RequestInfo, StatusReason};
use karmadactl_karmada_api::cluster::Cluster;

use crate::auth::UserInfo;
use crate::registry::Subresource;
use karmadactl_karmada_api::member_client as credentials;

use crate::state::ApiState;
use crate::storage::store_access;

const GROUP: &str = "cluster.karmada.io";
/// How long reaching a member may take before the caller gets a 503.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Member clients by cluster, reused (with their connections) while the credentials they were
/// built from are unchanged.
#[derive(Default)]
pub struct MemberClients(Mutex<HashMap<String, (String, kube::Client)>>);

/// Whether the request is for the proxy subresource of a Cluster.
pub fn is_proxy(info: &RequestInfo) -> bool {
    info.is_resource_request
        && info.api_group == GROUP
        && info.resource == "clusters"
        && info.subresource == "proxy"
        && !info.name.is_empty()
        && info.namespace.is_empty()
}

/// Forwards the request; errors before the member answers are the plane's own Status.
pub async fn serve(
    state: &ApiState,
    user: &UserInfo,
    info: &RequestInfo,
    mut parts: Parts,
    body: bytes::Bytes,
) -> Result<Response, ApiError> {
    // The protocol asked for, passed on as asked: `Upgrade` is hop-by-hop, so it is set again.
    let upgrading = match () {
        () if crate::websocket::is_upgrade(&parts.headers) => Some("websocket"),
        () if karmadactl_apimachinery::spdy::is_upgrade(&parts.headers) => Some(karmadactl_apimachinery::spdy::UPGRADE),
        () => None,
    };
    let caller_upgrade = parts.extensions.remove::<hyper::upgrade::OnUpgrade>();
    let served = state.lookup(GROUP, &info.api_version, "clusters");
    if !served.is_some_and(|def| def.subresources.iter().any(|s| matches!(s, Subresource::Proxy))) {
        return Err(ApiError::new(404, StatusReason::NotFound, "the server could not find the requested resource"));
    }
    let name = info.name.as_str();
    let cluster: Cluster = store_access::get_typed(state, GROUP, "clusters", None, name)
        .await
        .ok_or_else(|| ApiError::not_found(GROUP, "clusters", name))?;
    let client = member_client(state, &cluster, name).await?;

    let mut req = http::Request::builder()
        .method(parts.method.clone())
        .uri(member_path_and_query(parts.uri.path(), parts.uri.query()));
    if let Some(headers) = req.headers_mut() {
        forward_headers(&parts.headers, headers, user);
        if let Some(protocol) = upgrading {
            headers.insert(axum::http::header::CONNECTION, HeaderValue::from_static("Upgrade"));
            headers.insert(axum::http::header::UPGRADE, HeaderValue::from_static(protocol));
        }
    }
    let req = req
        .body(kube::client::Body::from(body))
        .map_err(|e| ApiError::bad_request(format!("the request cannot be forwarded: {e}")))?;
    let resp = client.send(req).await.map_err(|e| {
        ApiError::service_unavailable(format!(
            "error trying to reach cluster({name}): {}",
            karmadactl_apimachinery::with_causes(&e)
        ))
    })?;
    if upgrading.is_some() && resp.status() == axum::http::StatusCode::SWITCHING_PROTOCOLS {
        return join_upgrade(caller_upgrade, resp, name, state.config.min_request_timeout * 2);
    }
    let (mut rparts, rbody) = resp.into_parts();
    strip_hop_by_hop(&mut rparts.headers);
    Ok(Response::from_parts(rparts, Body::new(rbody)))
}

/// Passes the member's 101 on and, once both sides have switched, copies bytes both ways until
/// either side closes, or for `limit` at most (twice the minimum request timeout, as a
/// simulated member bounds its exec sessions): a member that never closes cannot hold the
/// plane's connection and task forever.
fn join_upgrade(
    caller: Option<hyper::upgrade::OnUpgrade>,
    mut member: http::Response<kube::client::Body>,
    name: &str,
    limit: std::time::Duration,
) -> Result<Response, ApiError> {
    let Some(caller) = caller else {
        return Err(ApiError::bad_request(format!(
            "unable to upgrade the connection to cluster({name}): HTTP/1.1 is required"
        )));
    };
    let member_upgrade = hyper::upgrade::on(&mut member);
    tokio::spawn(async move {
        let (Ok(caller), Ok(member)) = tokio::join!(caller, member_upgrade) else { return };
        use tokio::io::AsyncWriteExt;
        let (mut caller_rd, mut caller_wr) = tokio::io::split(hyper_util::rt::TokioIo::new(caller));
        let (mut member_rd, mut member_wr) = tokio::io::split(hyper_util::rt::TokioIo::new(member));
        // The member's bytes decide the end: a failed write towards a member that already
        // closed must not cut off its last frames (the exit status) on their way to the caller.
        let down = async {
            let _ = tokio::io::copy(&mut member_rd, &mut caller_wr).await;
            let _ = caller_wr.shutdown().await;
        };
        let up = async {
            let _ = tokio::io::copy(&mut caller_rd, &mut member_wr).await;
            let _ = member_wr.shutdown().await;
            std::future::pending::<()>().await;
        };
        let joined = async {
            tokio::select! {
                () = down => {}
                () = up => {}
            }
        };
        let _ = tokio::time::timeout(limit, joined).await;
    });
    let (rparts, _) = member.into_parts();
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = rparts.status;
    *resp.headers_mut() = rparts.headers;
    Ok(resp)
}

async fn member_client(state: &ApiState, cluster: &Cluster, name: &str) -> Result<kube::Client, ApiError> {
    let unavailable = |why: String| ApiError::service_unavailable(format!("cluster({name}) cannot be reached: {why}"));
    credentials::endpoint(cluster).map_err(unavailable)?;
    if cluster.spec.api_endpoint.as_deref().unwrap_or("").is_empty() {
        return Err(unavailable("the cluster has no spec.apiEndpoint".into()));
    }
    let Some(secret_ref) = cluster.spec.secret_ref.as_ref() else {
        return Err(unavailable("the cluster has no spec.secretRef".into()));
    };
    let secret: Secret =
        store_access::get_typed(state, "", "secrets", Some(&secret_ref.namespace), &secret_ref.name).await.ok_or_else(
            || unavailable(format!("the cluster's secret {}/{} does not exist", secret_ref.namespace, secret_ref.name)),
        )?;
    let identity = format!(
        "{}|{}|{:?}|{:?}",
        cluster.spec.api_endpoint.as_deref().unwrap_or_default(),
        secret.metadata.resource_version.as_deref().unwrap_or_default(),
        cluster.spec.insecure_skip_tls_verification,
        cluster.spec.proxy_url,
    );
    if let Ok(cache) = state.member_clients.0.lock()
        && let Some((known, client)) = cache.get(name)
        && *known == identity
    {
        return Ok(client.clone());
    }
    // No read timeout: watches through the proxy are long.
    let (_, client) =
        credentials::client_from_secret(cluster, &secret, CONNECT_TIMEOUT, None, false).await.map_err(unavailable)?;
    if let Ok(mut cache) = state.member_clients.0.lock() {
        cache.insert(name.to_string(), (identity, client.clone()));
    }
    Ok(client)
}

/// The raw (still percent-encoded) path after `.../clusters/<name>/proxy`, with the query.
fn member_path_and_query(raw_path: &str, query: Option<&str>) -> String {
    // `/apis/<group>/<version>/clusters/<name>/proxy/<rest>`: the rest is the seventh piece.
    let rest = raw_path.trim_start_matches('/').splitn(7, '/').nth(6).unwrap_or("");
    match query {
        Some(q) if !q.is_empty() => format!("/{rest}?{q}"),
        _ => format!("/{rest}"),
    }
}

/// The caller's headers minus its credentials, any impersonation it asked of the plane (already
/// applied to `user`) and hop-by-hop headers; plus the impersonation of `user` in the member.
fn forward_headers(from: &HeaderMap, to: &mut HeaderMap, user: &UserInfo) {
    for (name, value) in from {
        let n = name.as_str();
        if n == "authorization" || n == "host" || n == "content-length" || n.starts_with("impersonate-") {
            continue;
        }
        if is_hop_by_hop(n) {
            continue;
        }
        to.append(name.clone(), value.clone());
    }
    if let Ok(v) = HeaderValue::from_str(&user.name) {
        to.insert(HeaderName::from_static("impersonate-user"), v);
    }
    for g in &user.groups {
        if let Ok(v) = HeaderValue::from_str(g) {
            to.append(HeaderName::from_static("impersonate-group"), v);
        }
    }
}

fn is_hop_by_hop(name: &str) -> bool {
    matches!(
        name,
        "connection"
            | "keep-alive"
            | "proxy-connection"
            | "proxy-authenticate"
            | "proxy-authorization"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
    )
}

fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let drop: Vec<HeaderName> = headers.keys().filter(|k| is_hop_by_hop(k.as_str())).cloned().collect();
    for k in drop {
        headers.remove(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_member_path_is_what_follows_proxy() {
        let p = "/apis/cluster.karmada.io/v1alpha1/clusters/member1/proxy/api/v1/namespaces";
        assert_eq!(member_path_and_query(p, Some("watch=1")), "/api/v1/namespaces?watch=1");
        assert_eq!(member_path_and_query("/apis/cluster.karmada.io/v1alpha1/clusters/m/proxy", None), "/");
        assert_eq!(member_path_and_query("/apis/cluster.karmada.io/v1alpha1/clusters/m/proxy/", None), "/");
        assert_eq!(
            member_path_and_query("/apis/cluster.karmada.io/v1alpha1/clusters/m/proxy/api/v1/pods%2Fx", Some("")),
            "/api/v1/pods%2Fx"
        );
    }

    #[test]
    fn the_caller_is_impersonated_and_its_credentials_dropped() {
        let mut from = HeaderMap::new();
        from.insert("authorization", HeaderValue::from_static("Bearer plane-token"));
        from.insert("impersonate-user", HeaderValue::from_static("someone-else"));
        from.insert("accept", HeaderValue::from_static("application/json"));
        from.insert("connection", HeaderValue::from_static("keep-alive"));
        let user = UserInfo {
            name: "alice".into(),
            uid: String::new(),
            groups: vec!["devs".into(), "system:authenticated".into()],
            extra: Default::default(),
        };
        let mut to = HeaderMap::new();
        forward_headers(&from, &mut to, &user);
        assert!(to.get("authorization").is_none());
        assert!(to.get("connection").is_none());
        assert_eq!(to.get("accept").unwrap(), "application/json");
        assert_eq!(to.get_all("impersonate-user").iter().collect::<Vec<_>>(), vec!["alice"]);
        assert_eq!(to.get_all("impersonate-group").iter().collect::<Vec<_>>(), vec!["devs", "system:authenticated"]);
    }
}
