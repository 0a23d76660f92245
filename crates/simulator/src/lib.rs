//! The workload simulator of a simulated member cluster: it plays kube-controller-manager,
//! kube-scheduler and the kubelets of a few pretend nodes, so Deployments, StatefulSets,
//! DaemonSets and Jobs report ready, ResourceQuotas what they hold, and Services have
//! EndpointSlices, as they would on a real cluster. Nothing runs: no container is started, pod
//! IPs route nowhere. It is a simulation for trying Karmada's scheduling and propagation, not a
//! Kubernetes cluster.
//!
//! Each controller is a client of the API server (kube-rs watchers), like the token controller.
//! It only ever deletes pods, ReplicaSets and EndpointSlices it can prove it controls (controller
//! ownerReference uid); removing dependents of a deleted owner is the garbage collector's job.
//!
//! It depends on no crate of this workspace: only kube-rs and the Kubernetes types. The `plane`
//! crate starts it for a simulated member; `SIMULATED_LABEL` marks such members everywhere.

pub mod attach;
mod daemonsets;
mod deployments;
mod endpointslices;
pub mod exec;
mod informer;
mod jobs;
pub mod logs;
pub mod metrics;
mod nodes;
mod owned;
mod pods;
mod quotas;
mod readiness;
mod replicasets;
mod settle;
mod statefulsets;
mod status;
mod unread;

pub use nodes::SIMULATED_LABEL;
pub use readiness::PODS_READY_ANNOTATION;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::StreamExt;
use informer::Informer;
use k8s_openapi::api::apps::v1::ReplicaSet;
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::controller::{self, Action};
use kube::runtime::{Controller, watcher};
use kube::{Api, Client, Resource};
use serde::de::DeserializeOwned;
use tokio::task::JoinHandle;

/// What the simulated cluster looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulationConfig {
    /// How many nodes the cluster pretends to have.
    pub nodes: u32,
    /// How long a pod stays Pending before it reports Running and Ready.
    pub pod_ready_delay: Duration,
    /// Capacity (and allocatable) of each node, as Kubernetes quantities.
    pub node_cpu: String,
    pub node_memory: String,
    pub node_pods: u32,
    pub node_ephemeral_storage: String,
}

impl Default for SimulationConfig {
    fn default() -> Self {
        Self {
            nodes: 3,
            pod_ready_delay: Duration::from_millis(500),
            node_cpu: "8".into(),
            node_memory: "32Gi".into(),
            node_pods: 110,
            node_ephemeral_storage: "100Gi".into(),
        }
    }
}

/// What every simulated controller shares.
pub(crate) struct Sim {
    pub client: Client,
    pub config: SimulationConfig,
    /// The server's Kubernetes version, reported as each node's kubelet version.
    pub version: String,
    pub node_names: Vec<String>,
    next_node: AtomicUsize,
    /// The member's pods and ReplicaSets as the owners' controllers look them up.
    pub pods: Arc<Informer<Pod>>,
    pub replicasets: Arc<Informer<ReplicaSet>>,
    /// Owners whose status write waits for their new pods to turn ready.
    pub holds: settle::Holds,
}

impl Sim {
    /// The scheduler's choice for a new pod: the nodes in turn, which spreads replicas.
    pub fn pick_node(&self) -> String {
        let i = self.next_node.fetch_add(1, Ordering::Relaxed);
        self.node_names.get(i % self.node_names.len().max(1)).cloned().unwrap_or_default()
    }

    /// Index of a node (for its address ranges), when it is one of ours.
    pub fn node_index(&self, name: &str) -> Option<usize> {
        self.node_names.iter().position(|n| n == name)
    }
}

/// Starts every simulated controller; they run until the server stops.
pub fn spawn(client: Client, config: SimulationConfig, cluster: &str, version: &str) -> Vec<JoinHandle<()>> {
    // At least one node, so every pod has somewhere to be scheduled.
    let node_names = (1..=config.nodes.max(1)).map(|i| format!("{cluster}-node-{i}")).collect();
    let (pods, replicasets) = (Informer::<Pod>::new(), Informer::<ReplicaSet>::new());
    // Every subscription is taken before the caches start, so none misses an event.
    let (rs_pods, sts_pods, ds_pods, job_pods) =
        (pods.subscribe(), pods.subscribe(), pods.subscribe(), pods.subscribe());
    let (kubelet_pods, quota_pods, slice_pods) = (pods.changes(), pods.subscribe(), pods.subscribe());
    let (rs_own, deploy_replicasets) = (replicasets.subscribe(), replicasets.subscribe());
    let replicaset_controller = Controller::for_shared_stream(rs_own, replicasets.store());
    let sim = Arc::new(Sim {
        client: client.clone(),
        config,
        version: version.to_string(),
        node_names,
        next_node: AtomicUsize::new(0),
        pods: pods.clone(),
        replicasets: replicasets.clone(),
        holds: settle::Holds::default(),
    });
    vec![
        tokio::spawn(pods.run(client.clone())),
        tokio::spawn(replicasets.run(client)),
        tokio::spawn(nodes::run(sim.clone())),
        tokio::spawn(endpointslices::run(sim.clone(), slice_pods)),
        tokio::spawn(pods::run(sim.clone(), kubelet_pods)),
        tokio::spawn(run_controller(sim.clone(), replicaset_controller, replicasets::reconcile, rs_pods)),
        tokio::spawn(run_controller(sim.clone(), watched(&sim), deployments::reconcile, deploy_replicasets)),
        tokio::spawn(run_controller(sim.clone(), watched(&sim), statefulsets::reconcile, sts_pods)),
        tokio::spawn(run_controller(sim.clone(), watched(&sim), daemonsets::reconcile, ds_pods)),
        tokio::spawn(quotas::run(sim.clone(), quota_pods)),
        tokio::spawn(run_controller(sim.clone(), watched(&sim), jobs::reconcile, job_pods)),
    ]
}

/// A controller of a kind no one else follows: its own watch.
fn watched<K>(sim: &Sim) -> Controller<K>
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
{
    Controller::new(Api::all(sim.client.clone()), watcher::Config::default())
}

/// How many objects of one kind each simulated controller reconciles at once: the default of
/// kube-controller-manager's `--concurrent-deployment-syncs`, `--concurrent-replicaset-syncs`
/// and the like. kube-rs reconciles every queued object at once unless told otherwise; after a
/// burst of a thousand Deployments that was a thousand requests in flight, each on a
/// connection of its own, which the member's API server could not accept fast enough to
/// answer anyone else (the plane's applies among them).
const CONCURRENT_SYNCS: u16 = 5;

/// Runs one owner kind's control loop: triggered by its own objects and by the objects it
/// controls (pods, or ReplicaSets for Deployments) as their cache takes them in.
async fn run_controller<K, C, F, Fut>(
    sim: Arc<Sim>,
    controller: Controller<K>,
    reconcile: F,
    children: impl futures::Stream<Item = Arc<C>> + Send + 'static,
) where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
    C: Resource<DynamicType = ()> + Send + Sync + 'static,
    F: FnMut(Arc<K>, Arc<Sim>) -> Fut,
    Fut: std::future::Future<Output = Result<Action, kube::Error>> + Send + 'static,
{
    controller
        .with_config(controller::Config::default().concurrency(CONCURRENT_SYNCS))
        .owns_shared_stream(children)
        .run(reconcile, error_policy, sim)
        .for_each(|result| async move {
            if let Err(e) = result {
                tracing::debug!(error = %e, "simulated controller could not reconcile; it retries");
            }
        })
        .await;
}

fn error_policy<K>(_obj: Arc<K>, error: &kube::Error, _sim: Arc<Sim>) -> Action {
    tracing::debug!(error = %error, "simulated controller retries after an error");
    Action::requeue(Duration::from_secs(1))
}

/// After a successful reconcile: wait for a change, with a periodic check as a safety net.
/// Changes arrive as watch events (the watcher relists after an error), so the check is
/// rare: every 30 s, a member holding a thousand Deployments reconciled 70 objects a second
/// with nothing to do, each listing its dependents.
pub(crate) fn done() -> Action {
    Action::requeue(Duration::from_secs(300))
}

/// The dependents' cache has not caught up with this owner's last creations or deletions:
/// their events bring the owner back, or the expectation's timeout does.
pub(crate) fn waiting() -> Action {
    Action::requeue(informer::EXPECTATION_TIMEOUT)
}
