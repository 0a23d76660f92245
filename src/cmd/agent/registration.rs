//! The agent's first step: make sure the plane has a Pull Cluster for this member, and that an
//! existing one is this member (same kube-system UID) and not a Push registration.

use std::time::Duration;

use k8s_openapi::api::core::v1::Namespace;
use karmadactl_karmada_api::cluster::{Cluster, ClusterSpec, ClusterSyncMode};
use kube::api::{Api, PostParams};
use kube::{Client, ResourceExt};

use super::AgentConfig;

#[derive(Debug, thiserror::Error)]
pub enum RegistrationError {
    #[error(
        "cluster {name} is already registered for another cluster (its spec.id is {theirs}, this member's is {ours})"
    )]
    OtherCluster { name: String, theirs: String, ours: String },
    #[error("cluster {name} is registered in Push mode; unjoin it before running an agent for it")]
    PushMode { name: String },
    #[error("the control plane refused the agent ({0}); check that register granted this identity its RBAC")]
    Forbidden(String),
}

/// The registered Cluster, created when missing. Transient failures (the plane restarting)
/// are retried; a conflicting registration or missing permission is an error.
pub async fn ensure(plane: &Client, member: &Client, config: &AgentConfig) -> anyhow::Result<Cluster> {
    let id = retry("reading the member's kube-system namespace", || async {
        Api::<Namespace>::all(member.clone()).get("kube-system").await.map(|ns| ns.uid().unwrap_or_default())
    })
    .await?;
    let clusters: Api<Cluster> = Api::all(plane.clone());
    let name = &config.cluster_name;
    loop {
        let existing = retry("reading the Cluster", || clusters.get_opt(name)).await?;
        if let Some(c) = existing {
            if c.spec.sync_mode != ClusterSyncMode::Pull {
                return Err(RegistrationError::PushMode { name: name.clone() }.into());
            }
            match c.spec.id.as_deref() {
                Some(theirs) if !theirs.is_empty() && theirs != id => {
                    return Err(RegistrationError::OtherCluster {
                        name: name.clone(),
                        theirs: theirs.into(),
                        ours: id,
                    }
                    .into());
                }
                _ => return Ok(c),
            }
        }
        let spec = ClusterSpec {
            id: Some(id.clone()),
            sync_mode: ClusterSyncMode::Pull,
            api_endpoint: Some(config.api_endpoint.clone()).filter(|e| !e.is_empty()),
            secret_ref: None,
            impersonator_secret_ref: None,
            insecure_skip_tls_verification: None,
            proxy_url: None,
            proxy_header: None,
            provider: config.provider.clone().filter(|p| !p.is_empty()),
            region: config.region.clone().filter(|r| !r.is_empty()),
            zone: None,
            zones: Some(config.zones.clone()).filter(|z| !z.is_empty()),
            taints: None,
            resource_models: None,
        };
        let mut cluster = Cluster::new(name, spec);
        cluster.status = None;
        match clusters.create(&PostParams::default(), &cluster).await {
            Ok(c) => return Ok(c),
            // Someone else created it meanwhile: look again.
            Err(kube::Error::Api(e)) if e.code == 409 => continue,
            Err(kube::Error::Api(e)) if e.code == 403 => return Err(RegistrationError::Forbidden(e.message).into()),
            Err(e) => {
                tracing::warn!(error = %e, "creating the Cluster failed; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Retries `op` while the failure looks transient (connection trouble, 5xx, 429).
async fn retry<T, F, Fut>(what: &str, op: F) -> anyhow::Result<T>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<T, kube::Error>>,
{
    let mut delay = Duration::from_millis(200);
    loop {
        match op().await {
            Ok(v) => return Ok(v),
            Err(kube::Error::Api(e)) if e.code == 401 || e.code == 403 => {
                return Err(RegistrationError::Forbidden(format!("{what}: {}", e.message)).into());
            }
            Err(kube::Error::Api(e)) if e.code < 500 && e.code != 429 => {
                return Err(anyhow::anyhow!("{what}: {}", e.message));
            }
            Err(e) => {
                tracing::warn!(error = %e, "{what} failed; retrying");
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(Duration::from_secs(10));
            }
        }
    }
}
