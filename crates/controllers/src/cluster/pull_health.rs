//! Health of Pull clusters, as karmada-controller-manager's cluster controller monitors it: the
//! plane never dials a Pull member; its karmada-agent writes the Ready condition and renews the
//! Lease `karmada-cluster/<cluster>`. When neither the Lease nor the Ready condition has moved
//! for the grace period (`--cluster-monitor-grace-period`, or the Lease's own
//! `leaseDurationSeconds` when longer), the agent is taken to be gone and Ready becomes
//! `Unknown`; a cluster whose agent never posted Ready gets `Unknown` after the startup grace
//! period. Otherwise Ready is the agent's. The condition taints follow Ready as for Push members.
//!
//! Staleness is measured on the plane's clock, from when the plane last saw the Lease or the
//! condition change (as upstream's probe timestamp), so a member whose clock is off is not
//! declared dead for that alone.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use karmadactl_karmada_api::cluster::{Cluster, ClusterSyncMode};
use kube::api::{ListParams, Patch, PatchParams};
use kube::{Api, Client, ResourceExt};
use serde_json::json;

use super::ClusterControllerConfig;
use super::status::{READY, condition};
use super::taints;

/// Where agents keep their Leases (register's `--cluster-namespace` default).
pub const LEASE_NAMESPACE: &str = karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE;

/// What the plane last saw of a cluster's agent, and when it last changed.
#[derive(Debug, Clone, PartialEq)]
struct Heartbeat {
    uid: String,
    renew_time: Option<String>,
    ready: Option<(String, String)>,
}

#[derive(Debug)]
struct Seen {
    heartbeat: Heartbeat,
    since: Instant,
}

/// Runs until the task is aborted.
pub async fn run(client: Client, config: ClusterControllerConfig) {
    let clusters: Api<Cluster> = Api::all(client.clone());
    let leases: Api<Lease> = Api::namespaced(client, LEASE_NAMESPACE);
    let period = (config.monitor_grace_period / 8).clamp(Duration::from_millis(100), Duration::from_secs(5));
    let mut seen: HashMap<String, Seen> = HashMap::new();
    loop {
        if let Err(e) = pass(&clusters, &leases, config, &mut seen).await {
            tracing::debug!(error = %e, "pull cluster monitor pass failed; retrying");
        }
        tokio::time::sleep(period).await;
    }
}

async fn pass(
    clusters: &Api<Cluster>,
    leases: &Api<Lease>,
    config: ClusterControllerConfig,
    seen: &mut HashMap<String, Seen>,
) -> Result<(), kube::Error> {
    let all = clusters.list(&ListParams::default()).await?;
    // A cluster being removed is watched too: its Works wait for its agent while Ready is
    // True, and a silent agent must not hold them for ever.
    let pull: Vec<&Cluster> = all.items.iter().filter(|c| c.spec.sync_mode == ClusterSyncMode::Pull).collect();
    seen.retain(|name, _| pull.iter().any(|c| c.name_any() == *name));
    let now = Instant::now();
    for cluster in pull {
        let name = cluster.name_any();
        let lease = match leases.get_opt(&name).await {
            Ok(l) => l,
            Err(e) => {
                tracing::debug!(cluster = %name, error = %e, "reading the agent's lease failed");
                continue;
            }
        };
        let ready = ready_condition(cluster);
        let heartbeat = Heartbeat {
            uid: cluster.uid().unwrap_or_default(),
            renew_time: lease.as_ref().and_then(|l| l.spec.as_ref()?.renew_time.as_ref()).map(|t| t.0.to_string()),
            ready: ready.map(|c| (c.status.clone(), c.last_transition_time.0.to_string())),
        };
        let entry = seen.entry(name.clone()).or_insert_with(|| Seen { heartbeat: heartbeat.clone(), since: now });
        if entry.heartbeat != heartbeat {
            *entry = Seen { heartbeat, since: now };
        }
        let silent_for = now.duration_since(entry.since);
        let lease_duration = lease
            .as_ref()
            .and_then(|l| l.spec.as_ref()?.lease_duration_seconds)
            .map_or(Duration::ZERO, |s| Duration::from_secs(u64::try_from(s).unwrap_or(0)));
        let mut current = cluster.clone();
        if let Some(unknown) = verdict(ready, silent_for, config, lease_duration) {
            tracing::info!(cluster = %name, reason = %unknown.reason, "the agent stopped posting the cluster's status");
            match write_ready(clusters, cluster, unknown).await {
                Ok(updated) => current = updated,
                // Changed meanwhile (the agent wrote): the next pass looks again.
                Err(kube::Error::Api(e)) if e.code == 409 || e.code == 404 => continue,
                Err(e) => return Err(e),
            }
        }
        if current.metadata.deletion_timestamp.is_some() {
            continue;
        }
        if let Err(e) = taints::reconcile(clusters, &current).await {
            tracing::debug!(cluster = %name, error = %e, "could not update the condition taints");
        }
    }
    Ok(())
}

fn ready_condition(cluster: &Cluster) -> Option<&Condition> {
    cluster.status.as_ref()?.conditions.as_ref()?.iter().find(|c| c.type_ == READY)
}

/// The Ready condition to write after the agent has been silent for `silent_for`, if any.
fn verdict(
    ready: Option<&Condition>,
    silent_for: Duration,
    config: ClusterControllerConfig,
    lease_duration: Duration,
) -> Option<Condition> {
    match ready {
        None if silent_for > config.startup_grace_period => Some(condition(
            None,
            READY,
            "Unknown",
            "ClusterStatusNeverUpdated",
            "Cluster status controller never posted cluster status.",
            None,
        )),
        Some(c) if c.status != "Unknown" && silent_for > config.monitor_grace_period.max(lease_duration) => {
            Some(condition(
                Some(c),
                READY,
                "Unknown",
                "ClusterStatusUnknown",
                "Cluster status controller stopped posting cluster status.",
                c.observed_generation,
            ))
        }
        _ => None,
    }
}

/// Replaces the Ready condition, conditional on the version read so an agent's concurrent
/// write wins.
async fn write_ready(clusters: &Api<Cluster>, cluster: &Cluster, ready: Condition) -> Result<Cluster, kube::Error> {
    let mut conditions: Vec<Condition> = cluster
        .status
        .as_ref()
        .and_then(|s| s.conditions.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.type_ != READY)
        .collect();
    conditions.push(ready);
    let patch = json!({
        "metadata": {"resourceVersion": cluster.metadata.resource_version},
        "status": {"conditions": conditions},
    });
    clusters.patch_status(&cluster.name_any(), &PatchParams::default(), &Patch::Merge(&patch)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ClusterControllerConfig {
        ClusterControllerConfig {
            monitor_grace_period: Duration::from_secs(40),
            startup_grace_period: Duration::from_secs(60),
            ..Default::default()
        }
    }

    fn ready(status: &str) -> Condition {
        condition(None, READY, status, "ClusterReady", "m", Some(3))
    }

    #[test]
    fn ready_turns_unknown_only_after_the_agent_is_silent_for_the_grace_period() {
        let c = config();
        let up = ready("True");
        assert_eq!(verdict(Some(&up), Duration::from_secs(40), c, Duration::from_secs(40)), None);
        let stale = verdict(Some(&up), Duration::from_secs(41), c, Duration::from_secs(40)).unwrap();
        assert_eq!(
            (stale.status.as_str(), stale.reason.as_str(), stale.message.as_str()),
            ("Unknown", "ClusterStatusUnknown", "Cluster status controller stopped posting cluster status.")
        );
        assert_eq!(stale.observed_generation, Some(3));
        // A Lease that promises a longer life is trusted for that long.
        assert_eq!(verdict(Some(&up), Duration::from_secs(41), c, Duration::from_secs(90)), None);
        // A silent agent's False becomes Unknown too; Unknown is not written twice.
        assert_eq!(verdict(Some(&ready("Unknown")), Duration::from_secs(400), c, Duration::ZERO), None);
        assert_eq!(
            verdict(Some(&ready("False")), Duration::from_secs(400), c, Duration::ZERO).map(|c| c.status),
            Some("Unknown".into())
        );
    }

    #[test]
    fn a_cluster_never_reported_gets_unknown_after_the_startup_grace_period() {
        let c = config();
        assert_eq!(verdict(None, Duration::from_secs(60), c, Duration::ZERO), None);
        let never = verdict(None, Duration::from_secs(61), c, Duration::ZERO).unwrap();
        assert_eq!((never.status.as_str(), never.reason.as_str()), ("Unknown", "ClusterStatusNeverUpdated"));
    }
}
