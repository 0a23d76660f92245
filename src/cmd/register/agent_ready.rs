//! Whether an agent will ever register the member: a simulated member runs no image, so a
//! karmada-agent Deployment there reports Running and does nothing; and `register` counts
//! itself done only when the plane holds the Cluster and it is Ready, whichever way the agent
//! runs.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Node;
use karmadactl_karmada_api::cluster::Cluster;
use kube::api::{Api, ListParams};
use kube::{Client, ResourceExt};

use karmadactl_simulator::SIMULATED_LABEL;

/// True when the member's nodes carry the simulator's label. A member that does not let us
/// list nodes is taken as real: the check only refuses what it knows cannot work.
pub async fn member_is_simulated(member: &Client) -> bool {
    let nodes: Api<Node> = Api::all(member.clone());
    let selector = format!("{SIMULATED_LABEL}=true");
    match nodes.list(&ListParams::default().labels(&selector).limit(1)).await {
        Ok(list) => !list.items.is_empty(),
        Err(e) => {
            tracing::debug!(error = %e, "cannot list the member's nodes; assuming it is a real cluster");
            false
        }
    }
}

/// The refusal for a Deployment agent on a simulated member, with the way out.
pub fn simulated_member_error(cluster: &str, parent: &str) -> crate::error::UsageError {
    crate::error::UsageError::with_hint(
        format!(
            "cluster {cluster} is a simulated member (its nodes carry the label {SIMULATED_LABEL}=true): its pods \
             report Running but run no image, so a karmada-agent Deployment there would never register the cluster"
        ),
        format!(
            "run the agent built into this binary on this machine instead: repeat the command with \
             '--agent-mode local' (see '{parent} register --help')."
        ),
    )
}

/// Why the wait for the Cluster ended without it.
pub enum NotReady {
    /// The deadline passed; the Cluster's Ready condition as last seen, if any.
    Timeout { last: Option<String> },
    /// `still_running` said the agent is gone.
    AgentGone,
}

/// Waits until the plane holds `cluster` with Ready=True, asked with the agent's own
/// credentials. `still_running` is asked between polls (a local agent may exit).
pub async fn wait_cluster_ready(
    agent: &Client,
    cluster: &str,
    timeout: Duration,
    still_running: &dyn Fn() -> bool,
) -> Result<(), NotReady> {
    let clusters: Api<Cluster> = Api::all(agent.clone());
    let deadline = Instant::now() + timeout;
    let mut last = None;
    loop {
        if let Ok(Some(c)) = clusters.get_opt(cluster).await {
            if karmadactl_engine::execution::is_ready(&c) {
                return Ok(());
            }
            last = Some(ready_condition(&c));
        }
        if !still_running() {
            return Err(NotReady::AgentGone);
        }
        if Instant::now() >= deadline {
            return Err(NotReady::Timeout { last });
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn ready_condition(c: &Cluster) -> String {
    let ready =
        c.status.as_ref().and_then(|s| s.conditions.as_ref()).and_then(|cs| cs.iter().find(|c| c.type_ == "Ready"));
    match ready {
        Some(r) => format!("cluster {} is Ready={} ({})", c.name_any(), r.status, r.message),
        None => format!("cluster {} exists but reports no Ready condition yet", c.name_any()),
    }
}
