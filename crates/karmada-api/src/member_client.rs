//! A kube-rs client for a member built from what join stored in the control plane: the
//! Cluster's `spec.apiEndpoint` (and `proxyURL`, `insecureSkipTLSVerification`) and the Secret
//! `spec.secretRef` names (`token`, `caBundle`). Shared by the cluster controller's status
//! probe, the engine acting in members and the API server's cluster proxy, which sit on
//! different sides of the API; it lives with the `Cluster` type because it reads nothing but
//! a Cluster and its Secret, so none of them has to import another.

use std::time::Duration;

use base64::Engine;
use k8s_openapi::api::core::v1::Secret;
use kube::config::{AuthInfo, Kubeconfig, NamedAuthInfo, NamedCluster, NamedContext};
use kube::{Api, Client};

use crate::cluster::{Cluster, ClusterSyncMode};

/// Why the plane never builds a client for a Pull member.
pub const PULL_MODE: &str =
    "the cluster is in Pull mode: its karmada-agent connects to the control plane, which never dials the member";

/// The Cluster's endpoint, or why it has none usable. A Pull cluster has none for the plane:
/// its endpoint is where the agent reaches its own cluster, often from inside it, and its
/// credentials belong to the agent; every client for a member is built through here.
pub fn endpoint(cluster: &Cluster) -> Result<String, String> {
    if cluster.spec.sync_mode == ClusterSyncMode::Pull {
        return Err(PULL_MODE.into());
    }
    cluster
        .spec
        .api_endpoint
        .clone()
        .filter(|e| !e.is_empty())
        .ok_or_else(|| "the cluster has no spec.apiEndpoint".into())
}

/// A client for the member; the first string says which credentials it was built from, so a
/// changed secret gets a new client. `read_timeout` is `None` for callers that watch; `retry`
/// turns on kube-rs's retries of 429/503/504 answers (a proxy leaves them to its caller).
pub async fn client_from_secret(
    cluster: &Cluster,
    secret: &Secret,
    connect_timeout: Duration,
    read_timeout: Option<Duration>,
    retry: bool,
) -> Result<(String, Client), String> {
    let endpoint = endpoint(cluster)?;
    let secret_name = || {
        let ns = secret.metadata.namespace.as_deref().unwrap_or_default();
        format!("{ns}/{}", secret.metadata.name.as_deref().unwrap_or_default())
    };
    let data = secret.data.clone().unwrap_or_default();
    let Some(token) = data.get("token").map(|t| String::from_utf8_lossy(&t.0).into_owned()).filter(|t| !t.is_empty())
    else {
        return Err(format!("the cluster's secret {} has no token", secret_name()));
    };
    let insecure = cluster.spec.insecure_skip_tls_verification.unwrap_or(false);
    let ca = data.get("caBundle").map(|c| base64::engine::general_purpose::STANDARD.encode(&c.0));
    let kubeconfig = Kubeconfig {
        clusters: vec![NamedCluster {
            name: "member".into(),
            cluster: Some(kube::config::Cluster {
                server: Some(endpoint.clone()),
                insecure_skip_tls_verify: Some(insecure),
                certificate_authority_data: if insecure { None } else { ca },
                proxy_url: cluster.spec.proxy_url.clone().filter(|p| !p.is_empty()),
                ..Default::default()
            }),
            other: Default::default(),
        }],
        auth_infos: vec![NamedAuthInfo {
            name: "member".into(),
            auth_info: Some(AuthInfo { token: Some(token.into()), ..Default::default() }),
            other: Default::default(),
        }],
        contexts: vec![NamedContext {
            name: "member".into(),
            context: Some(kube::config::Context {
                cluster: "member".into(),
                user: Some("member".into()),
                ..Default::default()
            }),
            other: Default::default(),
        }],
        current_context: Some("member".into()),
        ..Default::default()
    };
    let mut cfg = kube::Config::from_custom_kubeconfig(kubeconfig, &kube::config::KubeConfigOptions::default())
        .await
        .map_err(|e| format!("cannot use the cluster's endpoint and secret: {e}"))?;
    cfg.connect_timeout = Some(connect_timeout);
    cfg.read_timeout = read_timeout;
    cfg.default_retry = retry;
    let client = Client::try_from(cfg).map_err(|e| format!("cannot build a client for the cluster: {e}"))?;
    let version = secret.metadata.resource_version.clone().unwrap_or_default();
    Ok((format!("{endpoint}|{version}|{insecure}"), client))
}

/// A client for a Push member from the Cluster's endpoint and the Secret its `spec.secretRef`
/// names, read through `plane`; the first string says which credentials it was built from, so
/// a changed secret gets a new client, and the error says why no client can be made.
/// `read_timeout` is `None` for callers that watch.
pub async fn member_client(
    plane: &Client,
    cluster: &Cluster,
    connect_timeout: Duration,
    read_timeout: Option<Duration>,
) -> Result<(String, Client), String> {
    endpoint(cluster)?;
    let Some(secret_ref) = cluster.spec.secret_ref.as_ref() else {
        return Err("the cluster has no spec.secretRef".into());
    };
    let secrets: Api<Secret> = Api::namespaced(plane.clone(), &secret_ref.namespace);
    let secret = match secrets.get_opt(&secret_ref.name).await {
        Ok(Some(s)) => s,
        Ok(None) => {
            return Err(format!("the cluster's secret {}/{} does not exist", secret_ref.namespace, secret_ref.name));
        }
        Err(e) => return Err(format!("cannot read the cluster's secret: {e}")),
    };
    client_from_secret(cluster, &secret, connect_timeout, read_timeout, true).await
}
