//! The engine as a Pull member's agent runs it: only the execution and Work-status
//! controllers, for the Works in the member's own execution namespace, with the agent's
//! credentials in the plane (which may read nothing else) and its own client for the member.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::api::Api;
use kube::runtime::reflector;
use kube::runtime::watcher;
use kube::{Client, ResourceExt};

use super::context::{Caches, Engine, Queues, Scope, WorkKey, follow_compact, follow_config};
use super::queue::Queue;
use super::{execution, execution_workers, on_fleet_change};

/// Applies `cluster`'s Works to the member until the plane connection is dropped for good.
pub async fn run(plane: Client, member: Client, cluster: String) {
    let slot: Arc<OnceLock<Weak<Engine>>> = Arc::new(OnceLock::new());
    let with = |slot: &Arc<OnceLock<Weak<Engine>>>| {
        let slot = slot.clone();
        move || slot.get().and_then(Weak::upgrade)
    };
    let mut tasks = vec![];

    // The agent's role lets it list and watch Clusters; it follows only its own.
    let get = with(&slot);
    let own = cluster.clone();
    let clusters_api: Api<Cluster> = Api::all(plane.clone());
    let config = watcher::Config::default().fields(&format!("metadata.name={cluster}"));
    let (clusters, t) = follow_config(clusters_api, config, move |_c: &Cluster, _| {
        if let Some(engine) = get() {
            on_fleet_change(&engine, &own);
        }
    });
    tasks.push(t);

    // Upstream's agent interprets member objects with the plane's customizations too (health,
    // reflected status, retain).
    let interpreter = Arc::new(karmadactl_interpreter::Interpreter::standard());
    let (_, t) = super::interpreter_config::follow(&plane, interpreter.clone(), with(&slot));
    tasks.push(t);
    let (_, t) = super::webhook_config::follow(&plane, interpreter.clone(), with(&slot));
    tasks.push(t);

    let get = with(&slot);
    let space = wellknown::execution_space(&cluster);
    let (works, t) = follow_compact(Api::<Work>::namespaced(plane.clone(), &space), move |w: &Work, _| {
        if let Some(engine) = get() {
            engine.queues.execute.add(WorkKey { namespace: w.namespace().unwrap_or_default(), name: w.name_any() });
        }
    });
    tasks.push(t);

    let engine = Arc::new(Engine {
        client: plane,
        scope: Scope::Agent { cluster: cluster.clone() },
        caches: Caches {
            clusters,
            propagation_policies: reflector::store().0,
            cluster_propagation_policies: reflector::store().0,
            override_policies: reflector::store().0,
            cluster_override_policies: reflector::store().0,
            bindings: reflector::store().0,
            cluster_bindings: reflector::store().0,
            works,
            namespaces: reflector::store().0,
            federated_quotas: reflector::store().0,
        },
        queues: Queues {
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
        },
        templates: Mutex::new(HashMap::new()),
        starting: Mutex::new(Default::default()),
        tasks: Mutex::new(tasks),
        members: execution::members::Members::fixed(&cluster, member),
        written: Mutex::new(HashMap::new()),
        applied: execution::Applied::default(),
        // Only the binding and namespace controllers look Works up by it; an agent runs neither.
        work_index: Default::default(),
        interpreter,
        // An agent runs no failover controller; upstream's agent has none either.
        config: Default::default(),
        // An agent runs no multi-cluster service pass: the plane does that.
        mcs_wake: Default::default(),
    });
    let _ = slot.set(Arc::downgrade(&engine));
    if engine.caches.works.wait_until_ready().await.is_err() || engine.caches.clusters.wait_until_ready().await.is_err()
    {
        return;
    }
    for w in engine.caches.works.metas() {
        engine.queues.execute.add(WorkKey { namespace: w.namespace.unwrap_or_default(), name: w.name });
    }
    futures::future::join_all(execution_workers(&engine)).await;
}
