//! The Karmada reconcile engine: resource templates and policies in the plane become Works in
//! the execution namespaces and objects in member clusters, and member status flows back.
//!
//! Like karmada-controller-manager and karmada-scheduler, its controllers are clients of the
//! API server: watchers keep caches ([`context`]), and a change to one object queues the keys
//! of the controllers that depend on it ([`wakes`] has the table of which change wakes which).
//!
//! Each file is named after its upstream counterpart:
//!
//! * `detector` (the resource detector): templates × propagation policies → ResourceBindings.
//! * `scheduling` (karmada-scheduler's loop, with the pure `scheduler`): bindings → target
//!   clusters and replicas.
//! * `binding` (the binding controller, with the pure `overrides`): bindings → one Work per
//!   target cluster.
//! * `dependencies_distributor`: `propagateDeps` → attached bindings for what a workload
//!   refers to.
//! * `namespace_sync` (the namespace sync controller): every plane namespace → a Work per
//!   cluster.
//! * `execution` (the execution controller): Works → objects in Push members; with
//!   `execution::work_status` (the work status controller): their status back into the Works.
//! * `application_failover` (the application failover controllers): bindings whose workload
//!   stays unhealthy on a cluster → an eviction task for that cluster, with `state_preservation`
//!   carrying state to the new clusters.
//! * `cluster_taint_policy` (the ClusterTaintPolicy controller): Clusters' conditions ×
//!   ClusterTaintPolicies → taints on the Clusters.
//! * `taint_manager` (the NoExecute taint manager): bindings on clusters with NoExecute taints
//!   they do not tolerate → eviction tasks and a new schedule.
//! * `graceful_eviction` (the graceful eviction controllers): ends a binding's eviction tasks
//!   once the evicted copy may go, so the binding controller deletes its Work.
//! * `binding_status` (the binding status controllers): Works' status → the binding's and the
//!   template's status.
//! * `federated_quota` (the FederatedResourceQuota sync and status controllers): static
//!   assignments → a ResourceQuota Work per assigned cluster; those Works' status → the
//!   quota's aggregated status.
//! * `federated_hpa` (the FederatedHPA controller): every sync period, the metrics of a
//!   template's pods in its members → the template's replicas, with kube's HPA algorithm.
//! * `workload_rebalancer`: WorkloadRebalancers → `rescheduleTriggeredAt` on the bindings of
//!   the workloads they list, which the scheduler answers with a fresh assignment.
//! * `interpreter_config` (the declarative config manager): the plane's
//!   ResourceInterpreterCustomizations → the resource interpreter every controller asks
//!   ([`interpreted`]) for replicas, revised manifests, retention, status and health;
//!   `webhook_config` (the webhook config manager) does the same for the
//!   ResourceInterpreterWebhookConfigurations.
//! * `cron_federated_hpa` (the CronFederatedHPA controller): each rule's timer, on the
//!   engine's [`clock`], sets the workload template's replicas or a FederatedHPA's min/max at
//!   the rule's fire times and records the executions in the status.
//! * `mcs` (the ServiceExport, EndpointSlice and ServiceImport controllers and the
//!   MultiClusterService ones): exported Services' EndpointSlices → the plane, and from there
//!   to the members that import them or consume a CrossCluster MultiClusterService.
//!
//! This crate depends on `karmada-api`, `apimachinery` and `interpreter` of this workspace only: it reaches the
//! plane through the API (a `kube::Client`) as upstream's controllers do, never through the API
//! server's internals, and nothing below the `plane` crate depends on it. The CLI uses a few of
//! its pure parts (generated names, the dependencies distributor's rules, readiness).

pub mod agent;
pub(crate) mod application_failover;
pub(crate) mod binding;
pub(crate) mod binding_status;
pub(crate) mod bindings;
pub(crate) mod claim_metadata;
pub mod clock;
pub mod cluster_taint_policy;
pub(crate) mod compact_store;
pub mod config;
pub(crate) mod context;
pub(crate) mod cron_federated_hpa;
pub mod dependencies_distributor;
pub(crate) mod detector;
pub mod error;
pub(crate) mod events;
pub mod execution;
pub(crate) mod federated_hpa;
pub(crate) mod federated_quota;
pub mod graceful_eviction;
pub(crate) mod interpreted;
pub(crate) mod interpreter_config;
pub(crate) mod matching;
pub(crate) mod mcs;
pub mod names;
pub(crate) mod namespace_sync;
pub(crate) mod overrides;
pub(crate) mod preemption;
pub(crate) mod queue;
pub(crate) mod raw_object;
pub mod scheduler;
pub(crate) mod scheduling;
pub mod state_preservation;
pub mod taint_manager;
pub(crate) mod wakes;
pub(crate) mod webhook_config;
pub(crate) mod work_index;
pub(crate) mod workload_affinity;
pub(crate) mod workload_rebalancer;

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use kube::api::Api;
use kube::runtime::reflector::Store;
use kube::{Client, ResourceExt};

use context::{Caches, Engine, Queues, Scope, WorkKey, follow, follow_compact};
use error::ReconcileError;
use queue::Queue;

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::work::Work;

pub(crate) use wakes::on_fleet_change;

/// Workers per controller: the API server is local, so a few concurrent requests keep it busy.
pub(crate) const WORKERS: usize = 4;

/// Workers applying Works to members. An apply waits mostly on the member (its commit reaches
/// the disk before it answers), and Works of different members go to different servers, so
/// more of them in flight keep the cores busy where four left a quarter of the CPU idle.
pub(crate) const EXECUTION_WORKERS: usize = 16;

/// Runs the engine until the client's server goes away. `after_initial_lists` runs once the
/// caches hold their first lists, when the buffers those went through are free (the plane
/// hands its memory back to the OS there).
pub async fn run(client: Client, config: config::EngineConfig, after_initial_lists: fn()) {
    let slot: Slot = Arc::new(OnceLock::new());
    let queues = Queues {
        detect: Queue::new(),
        schedule: Queue::new(),
        binding: Queue::new(),
        binding_status: Queue::new(),
        execute: Queue::new(),
        work_status: Queue::new(),
        namespace_sync: Queue::new(),
        application_failover: Queue::new(),
        graceful_eviction: Queue::new(),
        federated_quota: Queue::new(),
    };
    let mut tasks = vec![];

    // One watch per kind; what each event wakes is in `wakes`.
    let cluster_wakes = wakes::ClusterWakes::default();
    // Quotas look at a cluster when it first appears, as upstream's sync controller reacts to
    // Cluster creation only: status heartbeats do not rescan every quota's Works.
    let quota_clusters = Mutex::new(std::collections::HashSet::new());
    let on_cluster = move |e: &Arc<Engine>, c: &Cluster, deleted| {
        cluster_wakes.on_cluster(e, c, deleted);
        let mut seen = quota_clusters.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if deleted {
            seen.remove(&c.name_any());
        } else if seen.insert(c.name_any()) {
            federated_quota::on_cluster(e, c);
        }
    };
    let (clusters, t) = follow(Api::all(client.clone()), when_up(&slot, on_cluster));
    tasks.push(t);
    let (propagation_policies, t) = follow(Api::all(client.clone()), when_up(&slot, wakes::on_propagation_policy));
    tasks.push(t);
    let (cluster_propagation_policies, t) =
        follow(Api::all(client.clone()), when_up(&slot, wakes::on_propagation_policy));
    tasks.push(t);
    let (override_policies, t) = follow(Api::all(client.clone()), when_up(&slot, wakes::on_override_policy));
    tasks.push(t);
    let (cluster_override_policies, t) = follow(Api::all(client.clone()), when_up(&slot, wakes::on_override_policy));
    tasks.push(t);
    let binding_wakes = Arc::new(wakes::BindingWakes::default());
    let w = binding_wakes.clone();
    let on_binding = move |e: &Arc<Engine>, b: &_, deleted| w.on_resource_binding(e, b, deleted);
    let (bindings, t) = follow(Api::all(client.clone()), when_up(&slot, on_binding));
    tasks.push(t);
    let on_cluster_binding =
        move |e: &Arc<Engine>, b: &_, deleted| binding_wakes.on_cluster_resource_binding(e, b, deleted);
    let (cluster_bindings, t) = follow(Api::all(client.clone()), when_up(&slot, on_cluster_binding));
    tasks.push(t);
    let work_index = Arc::new(work_index::WorkIndex::default());
    let index = work_index.clone();
    let on_work = when_up(&slot, wakes::on_work);
    let (works, t) = follow_compact(Api::<Work>::all(client.clone()), move |w: &Work, deleted| {
        // Kept whether or not the engine is up yet, so no Work the cache has is missing from it.
        index.update(w, deleted);
        on_work(w, deleted);
    });
    tasks.push(t);
    let (namespace_store, t) = follow(Api::all(client.clone()), when_up(&slot, wakes::on_namespace));
    tasks.push(t);
    let (federated_quotas, t) = follow(Api::all(client.clone()), when_up(&slot, federated_quota::on_quota));
    tasks.push(t);
    let interpreter = Arc::new(karmadactl_interpreter::Interpreter::standard());
    let up = slot.clone();
    let (customizations, t) =
        interpreter_config::follow(&client, interpreter.clone(), move || up.get().and_then(Weak::upgrade));
    tasks.push(t);
    let up = slot.clone();
    let (_, t) = webhook_config::follow(&client, interpreter.clone(), move || up.get().and_then(Weak::upgrade));
    tasks.push(t);

    let engine = Arc::new(Engine {
        client,
        scope: Scope::Plane,
        caches: Caches {
            clusters,
            propagation_policies,
            cluster_propagation_policies,
            override_policies,
            cluster_override_policies,
            bindings,
            cluster_bindings,
            works,
            namespaces: namespace_store.clone(),
            federated_quotas: federated_quotas.clone(),
        },
        queues,
        templates: Mutex::new(HashMap::new()),
        starting: Mutex::new(Default::default()),
        tasks: Mutex::new(tasks),
        members: execution::members::Members::default(),
        written: Mutex::new(HashMap::new()),
        applied: execution::Applied::default(),
        work_index,
        interpreter,
        config,
        mcs_wake: Default::default(),
    });
    let _ = slot.set(Arc::downgrade(&engine));

    let c = &engine.caches;
    let ready: Vec<Ready> = vec![
        ready(c.clusters.clone()),
        ready(c.propagation_policies.clone()),
        ready(c.cluster_propagation_policies.clone()),
        ready(c.override_policies.clone()),
        ready(c.cluster_override_policies.clone()),
        ready(c.bindings.clone()),
        ready(c.cluster_bindings.clone()),
        ready_compact(c.works.clone()),
        ready(c.namespaces.clone()),
        ready(c.federated_quotas.clone()),
        // Templates are first interpreted after this, with the user's customizations loaded.
        ready(customizations),
    ];
    if !futures::future::join_all(ready).await.into_iter().all(|r| r) {
        return;
    }
    // The initial lists were decoded into the caches; the buffers they went through are free.
    after_initial_lists();

    // Everything already in the store is looked at once.
    detector::on_policy_change(&engine);
    for b in engine.all_bindings() {
        wakes::on_binding(&engine, &b);
    }
    // In key order, as the watcher reports its list (see `context::drive`): one member's
    // Works together.
    let works: Vec<WorkKey> = engine
        .caches
        .works
        .metas()
        .into_iter()
        .map(|w| WorkKey { namespace: w.namespace.unwrap_or_default(), name: w.name })
        .collect();
    execution::start_watchers(&engine);
    workload_rebalancer::start(&engine);
    for key in works {
        engine.queues.execute.add(key);
    }
    for n in namespace_store.state() {
        engine.queues.namespace_sync.add(n.name_any());
    }
    for q in federated_quotas.state() {
        federated_quota::on_quota(&engine, &q, false);
    }

    // Stopped with the engine, with the member watches it holds.
    engine.spawn(mcs::start(&engine));
    engine.spawn(federated_hpa::start(&engine));
    engine.spawn(cron_federated_hpa::start(&engine));
    let mut workers = vec![];
    for i in 0..WORKERS {
        workers.push(worker(
            &engine,
            |e| e.queues.detect.clone(),
            |e, k| async move { detector::reconcile(&e, &k).await },
        ));
        workers.push(worker(
            &engine,
            |e| e.queues.binding.clone(),
            |e, k| async move { binding::reconcile(&e, &k).await },
        ));
        workers.push(worker_when(
            &engine,
            |e| e.queues.binding_status.clone(),
            status_hold(i == 0),
            |e, k| async move { binding_status::reconcile(&e, &k).await },
        ));
        // The queue never hands one binding to two workers, so scheduling in parallel keeps
        // each binding's decisions in order.
        workers.push(worker(
            &engine,
            |e| e.queues.schedule.clone(),
            |e, k| async move { scheduling::reconcile(&e, &k).await.map_err(ReconcileError::from) },
        ));
    }
    // One worker: a pass reads the caches and only now and then writes a binding.
    let unhealthy_since = Arc::new(application_failover::UnhealthySince::default());
    workers.push(worker(
        &engine,
        |e| e.queues.application_failover.clone(),
        move |e, k| {
            let since = unhealthy_since.clone();
            async move { application_failover::reconcile(&e, &since, &k).await }
        },
    ));
    if engine.config.features.graceful_eviction {
        workers.push(worker(
            &engine,
            |e| e.queues.graceful_eviction.clone(),
            |e, k| async move { graceful_eviction::reconcile(&e, &k).await.map_err(ReconcileError::from) },
        ));
    }
    if engine.config.features.failover {
        workers.push(cluster_taint_policy::start(&engine));
    }
    if engine.config.failover.taint_manager_runs(&engine.config.features) {
        workers.extend(taint_manager::start(&engine));
    }
    workers.extend(execution_workers(&engine));
    workers.push(worker(
        &engine,
        |e| e.queues.namespace_sync.clone(),
        |e, k: String| async move { namespace_sync::reconcile(&e, &k).await.map_err(ReconcileError::from) },
    ));
    workers.push(worker(
        &engine,
        |e| e.queues.federated_quota.clone(),
        |e, k| async move { federated_quota::reconcile(&e, &k).await },
    ));
    futures::future::join_all(workers).await;
}

/// The workers of the execution and Work-status queues (the plane's and an agent's).
pub(crate) fn execution_workers(engine: &Arc<Engine>) -> Vec<tokio::task::JoinHandle<()>> {
    let mut workers = vec![];
    for _ in 0..EXECUTION_WORKERS {
        workers.push(worker(
            engine,
            |e| e.queues.execute.clone(),
            |e, k| async move { execution::reconcile(&e, &k).await },
        ));
    }
    for i in 0..WORKERS {
        workers.push(worker_when(
            engine,
            |e| e.queues.work_status.clone(),
            status_hold(i == 0),
            |e, k| async move { execution::work_status::reconcile(&e, &k).await },
        ));
    }
    workers
}

/// Whether a cache's first list completed (false: its watcher went first).
type Ready = futures::future::BoxFuture<'static, bool>;

fn ready<K>(store: Store<K>) -> Ready
where
    K: kube::Resource + Clone + Send + Sync + 'static,
    K::DynamicType: Eq + Hash + Clone + Send + Sync,
{
    Box::pin(async move { store.wait_until_ready().await.is_ok() })
}

fn ready_compact<K: 'static>(store: compact_store::CompactStore<K>) -> Ready {
    Box::pin(async move { store.wait_until_ready().await.is_ok() })
}

/// A worker loop over one queue; failures go through the engine's [`error::policy`].
fn worker<K, F, Fut>(
    engine: &Arc<Engine>,
    queue: impl Fn(&Engine) -> Arc<Queue<K>>,
    handle: F,
) -> tokio::task::JoinHandle<()>
where
    K: Clone + Eq + Hash + Send + Sync + std::fmt::Debug + 'static,
    F: Fn(Arc<Engine>, K) -> Fut + Send + 'static,
    Fut: Future<Output = Result<(), ReconcileError>> + Send,
{
    worker_when(engine, queue, None, handle)
}

/// [`worker`] that, before taking each key, waits while `hold` (if any) is true of the engine.
fn worker_when<K, F, Fut>(
    engine: &Arc<Engine>,
    queue: impl Fn(&Engine) -> Arc<Queue<K>>,
    hold: Option<fn(&Engine) -> bool>,
    handle: F,
) -> tokio::task::JoinHandle<()>
where
    K: Clone + Eq + Hash + Send + Sync + std::fmt::Debug + 'static,
    F: Fn(Arc<Engine>, K) -> Fut + Send + 'static,
    Fut: Future<Output = Result<(), ReconcileError>> + Send,
{
    let q = queue(engine);
    let weak = Arc::downgrade(engine);
    let gate_engine = weak.clone();
    tokio::spawn(async move {
        q.serve_when(
            move || {
                let engine = gate_engine.clone();
                async move {
                    let Some(hold) = hold else { return };
                    while engine.upgrade().is_some_and(|e| hold(&e)) {
                        tokio::time::sleep(GIVE_WAY_POLL).await;
                    }
                }
            },
            move |key| {
                let engine = weak.upgrade()?;
                Some(handle(engine, key))
            },
            error::policy,
        )
        .await
    })
}

/// How often a status worker that gives way looks again whether propagation has caught up.
const GIVE_WAY_POLL: Duration = Duration::from_millis(20);

/// What a worker of a status queue (Work status, binding status) waits for before each key. The
/// first one always works; the others take a key only while no propagation queue has keys
/// waiting or being handled. In a burst the status writes (a Work's, its binding's, its
/// template's: four of a Duplicated workload's eleven writes) would otherwise take CPU from the
/// writes that bring workloads to their members; the status keys wait meanwhile and each is
/// written once with its newest state (docs/differences.md, "Status writes give way to
/// propagation in a burst").
fn status_hold(first: bool) -> Option<fn(&Engine) -> bool> {
    (!first).then_some(|e: &Engine| e.queues.propagating())
}

/// Where the event handlers find the engine, set once it is built.
type Slot = Arc<OnceLock<Weak<Engine>>>;

/// Calls `on` for each event once the engine is up; events before that are covered by the
/// first pass over the caches in [`run`].
fn when_up<K>(slot: &Slot, on: impl Fn(&Arc<Engine>, &K, bool) + Send + 'static) -> impl Fn(&K, bool) + Send + 'static {
    let slot = slot.clone();
    move |object, deleted| {
        if let Some(engine) = slot.get().and_then(Weak::upgrade) {
            on(&engine, object, deleted);
        }
    }
}
