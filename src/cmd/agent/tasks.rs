//! The Pull-mode agent built into this binary (`karmadactl agent`): it runs beside one member
//! cluster, dials the control plane with the credentials `register` obtained, and
//!
//! * registers the member as a `Pull` Cluster (spec.id = the member's kube-system UID),
//! * renews the cluster's Lease, from which the plane judges that the agent is alive,
//! * reports the member's status as the plane's cluster status controller does for Push members,
//! * applies the Works of `karmada-es-<cluster>` to the member and reports their status back,
//!   removing what it applied when a Work is deleted.
//!
//! The plane never opens a connection to the member: everything here is the agent dialling out.

use std::time::Duration;

use kube::Client;

use super::{lease, registration, status};

/// How one agent runs, as upstream karmada-agent's flags say it.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    pub cluster_name: String,
    /// Written to the Cluster's spec.apiEndpoint when the agent registers it.
    pub api_endpoint: String,
    pub provider: Option<String>,
    pub region: Option<String>,
    pub zones: Vec<String>,
    /// How often the member's status is reported.
    pub status_update_frequency: Duration,
    /// How long the Lease holds without renewal; it is renewed four times per duration.
    pub lease_duration: Duration,
}

/// Runs until a task fails for good or `shutdown` resolves.
pub async fn run(
    plane: Client,
    member: Client,
    config: AgentConfig,
    shutdown: impl std::future::Future<Output = ()>,
) -> anyhow::Result<()> {
    let cluster = registration::ensure(&plane, &member, &config).await?;
    tracing::info!(cluster = %config.cluster_name, "registered; applying Works from the control plane");
    let lease = tokio::spawn(lease::renew(plane.clone(), cluster.clone(), config.lease_duration));
    let status = tokio::spawn(status::report(plane.clone(), member.clone(), config.clone()));
    let engine = tokio::spawn(karmadactl_engine::agent::run(plane, member, config.cluster_name.clone()));
    tokio::select! {
        _ = shutdown => {}
        r = lease => r?,
        r = status => r?,
        r = engine => r?,
    }
    Ok(())
}
