//! The Karmada reconcile engine: resource templates and policies in the plane become Works in
//! the execution namespaces and objects in member clusters, and member status flows back.
//!
//! Like karmada-controller-manager and karmada-scheduler, its controllers are clients of the
//! API server: watchers keep caches ([`context`]), and a change to one object queues the keys
//! of the controllers that depend on it.
//!
//! * `detector`: templates × propagation policies → ResourceBindings.
//! * `scheduling` (with the pure `scheduler`): bindings → target clusters and replicas.
//! * `render` (with the pure `overrides`): bindings → one Work per target cluster.
//! * `dependencies`: `propagateDeps` → attached bindings for what a workload refers to.
//! * `namespaces`: every plane namespace → a Work per cluster.
//! * `execution`: Works → objects in Push members, and their status back into the Works.
//! * `aggregate`: Works' status → the binding's and the template's status.

pub mod agent;
pub mod aggregate;
pub mod bindings;
pub mod claim_metadata;
pub mod context;
pub mod dependencies;
pub mod detector;
pub mod events;
pub mod execution;
pub mod matching;
pub mod names;
pub mod namespaces;
pub mod overrides;
pub mod queue;
pub mod render;
pub mod scheduler;
pub mod scheduling;
pub mod work_index;
pub mod workload;

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use k8s_openapi::api::core::v1::Namespace;
use kube::api::Api;
use kube::runtime::reflector::Store;
use kube::runtime::reflector::store::WriterDropped;
use kube::{Client, ResourceExt};

use context::{BindingKey, Caches, Engine, Queues, Scope, WorkKey, follow};
use queue::Queue;

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;

/// Workers per controller: the API server is local, so a few concurrent requests keep it busy.
pub(crate) const WORKERS: usize = 4;

/// Workers applying Works to members. An apply waits mostly on the member (its commit reaches
/// the disk before it answers), and Works of different members go to different servers, so
/// more of them in flight keep the cores busy where four left a quarter of the CPU idle.
pub(crate) const EXECUTION_WORKERS: usize = 16;

/// Runs the engine until the client's server goes away.
pub async fn run(client: Client) {
    let slot: Arc<OnceLock<Weak<Engine>>> = Arc::new(OnceLock::new());
    let with = |slot: &Arc<OnceLock<Weak<Engine>>>| {
        let slot = slot.clone();
        move || slot.get().and_then(Weak::upgrade)
    };
    let queues = Queues {
        detect: Queue::new(),
        schedule: Queue::new(),
        render: Queue::new(),
        aggregate: Queue::new(),
        execute: Queue::new(),
        reflect: Queue::new(),
        namespaces: Queue::new(),
    };
    let mut tasks = vec![];

    let get = with(&slot);
    let fingerprints: Mutex<HashMap<String, String>> = Mutex::new(HashMap::new());
    let (clusters, t) = follow(Api::<Cluster>::all(client.clone()), move |c: &Cluster, deleted| {
        let Some(engine) = get() else { return };
        let name = c.name_any();
        let print = if deleted { String::new() } else { fingerprint(c) };
        let changed =
            fingerprints.lock().unwrap_or_else(|e| e.into_inner()).insert(name.clone(), print.clone()) != Some(print);
        if deleted {
            engine.members.forget(&name);
        }
        if changed {
            on_fleet_change(&engine, &name);
        }
    });
    tasks.push(t);

    let get = with(&slot);
    let (propagation_policies, t) = follow(Api::all(client.clone()), move |_: &_, _| {
        if let Some(engine) = get() {
            detector::on_policy_change(&engine);
        }
    });
    tasks.push(t);
    let get = with(&slot);
    let (cluster_propagation_policies, t) = follow(Api::all(client.clone()), move |_: &_, _| {
        if let Some(engine) = get() {
            detector::on_policy_change(&engine);
        }
    });
    tasks.push(t);
    let get = with(&slot);
    let (override_policies, t) = follow(Api::all(client.clone()), move |_: &_, _| {
        if let Some(engine) = get() {
            render_all(&engine);
        }
    });
    tasks.push(t);
    let get = with(&slot);
    let (cluster_override_policies, t) = follow(Api::all(client.clone()), move |_: &_, _| {
        if let Some(engine) = get() {
            render_all(&engine);
        }
    });
    tasks.push(t);

    let get = with(&slot);
    let (bindings, t) =
        follow(Api::all(client.clone()), move |b: &karmadactl_karmada_api::work::ResourceBinding, deleted| {
            if let Some(engine) = get() {
                let b = bindings::AnyBinding::Namespaced(Arc::new(b.clone()));
                engine.binding_cached(&b.key(), b.meta(), deleted);
                on_binding(&engine, &b);
            }
        });
    tasks.push(t);
    let get = with(&slot);
    let (cluster_bindings, t) =
        follow(Api::all(client.clone()), move |b: &karmadactl_karmada_api::work::ClusterResourceBinding, deleted| {
            if let Some(engine) = get() {
                let b = bindings::AnyBinding::Cluster(Arc::new(b.clone()));
                engine.binding_cached(&b.key(), b.meta(), deleted);
                on_binding(&engine, &b);
            }
        });
    tasks.push(t);

    let get = with(&slot);
    let work_index = Arc::new(work_index::WorkIndex::default());
    let index = work_index.clone();
    let (works, t) = follow(Api::<Work>::all(client.clone()), move |w: &Work, deleted| {
        // Kept whether or not the engine is up yet, so no Work the cache has is missing from it.
        index.update(w, deleted);
        let Some(engine) = get() else { return };
        let key = WorkKey { namespace: w.namespace().unwrap_or_default(), name: w.name_any() };
        engine.queues.execute.add(key);
        if let Some(b) = binding_of_work(w) {
            if deleted {
                engine.queues.render.add(b.clone());
            }
            engine.queues.aggregate.add(b);
        } else if deleted
            && w.labels().contains_key(names::NAMESPACE_SYNC_LABEL)
            && let Some(ns) = w
                .spec
                .workload
                .as_ref()
                .and_then(|m| m.manifests.as_ref()?.first()?["metadata"]["name"].as_str().map(String::from))
        {
            engine.queues.namespaces.add(ns);
        }
    });
    tasks.push(t);

    let get = with(&slot);
    let (namespace_store, t) = follow(Api::<Namespace>::all(client.clone()), move |n: &Namespace, _| {
        if let Some(engine) = get() {
            engine.queues.namespaces.add(n.name_any());
        }
    });
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
        },
        queues,
        templates: Mutex::new(HashMap::new()),
        starting: Mutex::new(Default::default()),
        tasks: Mutex::new(tasks),
        members: execution::members::Members::default(),
        written: Mutex::new(HashMap::new()),
        applied: execution::Applied::default(),
        work_index,
    });
    let _ = slot.set(Arc::downgrade(&engine));

    let c = &engine.caches;
    let ready: Vec<futures::future::BoxFuture<'static, Result<(), WriterDropped>>> = vec![
        ready(c.clusters.clone()),
        ready(c.propagation_policies.clone()),
        ready(c.cluster_propagation_policies.clone()),
        ready(c.override_policies.clone()),
        ready(c.cluster_override_policies.clone()),
        ready(c.bindings.clone()),
        ready(c.cluster_bindings.clone()),
        ready(c.works.clone()),
        ready(c.namespaces.clone()),
    ];
    if futures::future::join_all(ready).await.into_iter().any(|r| r.is_err()) {
        return;
    }
    // The initial lists were decoded into the caches; the buffers they went through are free.
    crate::controlplane::freed_memory::release();

    // Everything already in the store is looked at once.
    detector::on_policy_change(&engine);
    for b in engine.all_bindings() {
        on_binding(&engine, &b);
    }
    // In key order, as the watcher reports its list (see `context::drive`): one member's
    // Works together.
    let mut works: Vec<WorkKey> = engine
        .caches
        .works
        .state()
        .iter()
        .map(|w| WorkKey { namespace: w.namespace().unwrap_or_default(), name: w.name_any() })
        .collect();
    works.sort_unstable_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    execution::start_watchers(&engine);
    for key in works {
        engine.queues.execute.add(key);
    }
    for n in namespace_store.state() {
        engine.queues.namespaces.add(n.name_any());
    }

    let mut workers = vec![];
    for _ in 0..WORKERS {
        workers.push(worker(
            &engine,
            |e| e.queues.detect.clone(),
            |e, k| async move { detector::reconcile(&e, &k).await.map_err(|e| e.to_string()) },
        ));
        workers.push(worker(
            &engine,
            |e| e.queues.render.clone(),
            |e, k| async move { render::reconcile(&e, &k).await.map_err(|e| e.to_string()) },
        ));
        workers.push(worker(
            &engine,
            |e| e.queues.aggregate.clone(),
            |e, k| async move { aggregate::reconcile(&e, &k).await.map_err(|e| e.to_string()) },
        ));
        // The queue never hands one binding to two workers, so scheduling in parallel keeps
        // each binding's decisions in order.
        workers.push(worker(
            &engine,
            |e| e.queues.schedule.clone(),
            |e, k| async move { scheduling::reconcile(&e, &k).await.map_err(|e| e.to_string()) },
        ));
    }
    workers.extend(execution_workers(&engine));
    workers.push(worker(
        &engine,
        |e| e.queues.namespaces.clone(),
        |e, k: String| async move { namespaces::reconcile(&e, &k).await.map_err(|e| e.to_string()) },
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
    for _ in 0..WORKERS {
        workers.push(worker(
            engine,
            |e| e.queues.reflect.clone(),
            |e, k| async move { execution::reflect::reconcile(&e, &k).await },
        ));
    }
    workers
}

fn ready<K>(store: Store<K>) -> futures::future::BoxFuture<'static, Result<(), WriterDropped>>
where
    K: kube::Resource + Clone + Send + Sync + 'static,
    K::DynamicType: Eq + Hash + Clone + Send + Sync,
{
    Box::pin(async move { store.wait_until_ready().await })
}

/// A worker loop over one queue.
fn worker<K, F, Fut>(
    engine: &Arc<Engine>,
    queue: impl Fn(&Engine) -> Arc<Queue<K>>,
    handle: F,
) -> tokio::task::JoinHandle<()>
where
    K: Clone + Eq + Hash + Send + Sync + std::fmt::Debug + 'static,
    F: Fn(Arc<Engine>, K) -> Fut + Send + 'static,
    Fut: Future<Output = Result<(), String>> + Send,
{
    let q = queue(engine);
    let weak = Arc::downgrade(engine);
    tokio::spawn(async move {
        q.serve(move |key| {
            let engine = weak.upgrade()?;
            Some(handle(engine, key))
        })
        .await
    })
}

/// What of a Cluster placement and overrides depend on; status probes that change nothing
/// of it do not wake every binding.
fn fingerprint(c: &Cluster) -> String {
    let ready = execution::is_ready(c);
    serde_json::json!([c.labels(), c.spec, c.metadata.deletion_timestamp, ready, c.uid()]).to_string()
}

pub(crate) fn on_fleet_change(engine: &Arc<Engine>, cluster: &str) {
    for b in engine.all_bindings() {
        let key = b.key();
        engine.queues.schedule.add(key.clone());
        engine.queues.render.add(key);
    }
    let es = wellknown::execution_space(cluster);
    for w in engine.caches.works.state() {
        if w.namespace().as_deref() == Some(es.as_str()) {
            engine.queues.execute.add(WorkKey { namespace: es.clone(), name: w.name_any() });
        }
    }
    for n in engine.caches.namespaces.state() {
        engine.queues.namespaces.add(n.name_any());
    }
}

fn render_all(engine: &Engine) {
    for b in engine.all_bindings() {
        engine.queues.render.add(b.key());
    }
}

fn on_binding(engine: &Arc<Engine>, b: &bindings::AnyBinding) {
    detector::follow_binding_kinds(engine, b);
    let key = b.key();
    engine.queues.schedule.add(key.clone());
    engine.queues.render.add(key.clone());
    engine.queues.aggregate.add(key);
}

/// The binding a Work belongs to, from the annotations the binding controller sets.
fn binding_of_work(w: &Work) -> Option<BindingKey> {
    let a = w.annotations();
    if let Some(name) = a.get(names::RB_NAME_ANNOTATION) {
        return Some(BindingKey { namespace: a.get(names::RB_NAMESPACE_ANNOTATION).cloned(), name: name.clone() });
    }
    a.get(names::CRB_NAME_ANNOTATION).map(|name| BindingKey { namespace: None, name: name.clone() })
}
