//! The cluster controller of karmada-controller-manager, with the cluster status controller:
//! each Cluster gets the finalizer `karmada.io/cluster-controller` and its execution namespace
//! `karmada-es-<cluster>`; Push members are probed on a period and their status (version, Ready
//! condition, API enablements, node and resource summaries) written to `/status`; Pull members
//! are never dialled: their agent reports, and the plane only watches its Lease
//! (`pull_health`); a Cluster being deleted has its execution namespace removed before the
//! finalizer is released.
//!
//! It is a client of the API server like any controller: a watcher on Clusters drives one
//! probe task per Push cluster.

mod lifecycle;
pub mod probe;
mod pull_health;
pub mod status;
mod taints;

use std::collections::HashMap;
use std::time::Duration;

use futures::StreamExt;
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client, ResourceExt};
use tokio::task::JoinHandle;

use karmadactl_karmada_api::cluster::{Cluster, ClusterSyncMode};

pub use lifecycle::{EXECUTION_SPACE_UID_ANNOTATION, FINALIZER};

/// How often members are probed and how long failures are tolerated, as
/// karmada-controller-manager's `--cluster-status-update-frequency` and
/// `--cluster-failure-threshold`.
#[derive(Debug, Clone, Copy)]
pub struct ClusterControllerConfig {
    /// Time between two probes of a member.
    pub status_update_frequency: Duration,
    /// How long probes must keep failing before Ready turns False.
    pub failure_threshold: Duration,
    /// Longest time one probe request may take.
    pub probe_timeout: Duration,
    /// How long a Pull cluster's agent may be silent (no Lease renewal, no Ready change)
    /// before Ready turns Unknown (`--cluster-monitor-grace-period`).
    pub monitor_grace_period: Duration,
    /// How long a new Pull cluster may go without any Ready condition
    /// (`--cluster-startup-grace-period`).
    pub startup_grace_period: Duration,
}

impl Default for ClusterControllerConfig {
    fn default() -> Self {
        Self {
            status_update_frequency: Duration::from_secs(10),
            failure_threshold: Duration::from_secs(30),
            probe_timeout: Duration::from_secs(5),
            monitor_grace_period: Duration::from_secs(40),
            startup_grace_period: Duration::from_secs(60),
        }
    }
}

/// A running probe task and what it was started for; a changed spec restarts it.
struct Prober {
    generation: Option<i64>,
    /// The task removes the Cluster's resources rather than probing it.
    deleting: bool,
    uid: String,
    task: JoinHandle<()>,
}

/// Runs until the client's server goes away.
pub async fn run(client: Client, config: ClusterControllerConfig) {
    let clusters: Api<Cluster> = Api::all(client.clone());
    let mut stream = watcher(clusters, watcher::Config::default()).default_backoff().boxed();
    let mut probers: HashMap<String, Prober> = HashMap::new();
    let pull_monitor = tokio::spawn(pull_health::run(client.clone(), config));
    while let Some(event) = stream.next().await {
        let event = match event {
            Ok(e) => e,
            Err(e) => {
                tracing::debug!(error = %e, "cluster controller watch error; the watcher retries");
                continue;
            }
        };
        match event {
            watcher::Event::Apply(cluster) | watcher::Event::InitApply(cluster) => {
                reconcile(&client, config, &mut probers, cluster).await;
            }
            watcher::Event::Delete(cluster) => {
                if let Some(p) = probers.remove(&cluster.name_any()) {
                    p.task.abort();
                }
            }
            watcher::Event::Init | watcher::Event::InitDone => {}
        }
    }
    pull_monitor.abort();
    for (_, p) in probers {
        p.task.abort();
    }
}

async fn reconcile(
    client: &Client,
    config: ClusterControllerConfig,
    probers: &mut HashMap<String, Prober>,
    cluster: Cluster,
) {
    let name = cluster.name_any();
    let uid = cluster.uid().unwrap_or_default();
    if cluster.metadata.deletion_timestamp.is_some() {
        if probers.get(&name).is_some_and(|p| p.deleting && p.uid == uid && !p.task.is_finished()) {
            return;
        }
        if let Some(p) = probers.remove(&name) {
            p.task.abort();
        }
        // Deletion may wait on Works in the execution namespace; it runs aside, retrying until
        // the finalizer is released, so other clusters are not held up.
        let task = tokio::spawn(lifecycle::delete_until_released(client.clone(), name.clone(), uid.clone()));
        probers.insert(name, Prober { generation: None, uid, task, deleting: true });
        return;
    }
    if let Err(e) = lifecycle::ensure(client, &cluster).await {
        tracing::warn!(cluster = %name, error = %e, "cluster controller: could not prepare the cluster");
    }
    let wanted = cluster.spec.sync_mode == ClusterSyncMode::Push;
    let generation = cluster.metadata.generation;
    let current = probers.get(&name).map(|p| (p.uid.clone(), p.generation, p.task.is_finished() || p.deleting));
    match (wanted, current) {
        (true, Some((u, g, false))) if u == uid && g == generation => {}
        (true, _) => {
            if let Some(p) = probers.remove(&name) {
                p.task.abort();
            }
            let task = tokio::spawn(probe::run(client.clone(), config, name.clone()));
            probers.insert(name, Prober { generation, uid, task, deleting: false });
        }
        (false, _) => {
            if let Some(p) = probers.remove(&name) {
                p.task.abort();
            }
        }
    }
}
