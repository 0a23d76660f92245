//! What the engine's controllers share: one API client, caches of every Karmada object they
//! read (kept by watchers, as informers are), caches of resource templates per kind, and the
//! queues through which a change to one object wakes the controllers that depend on it.

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;
use tokio::task::JoinHandle;

use super::queue::Queue;
use crate::karmada::api::cluster::Cluster;
use crate::karmada::api::policy::{ClusterOverridePolicy, ClusterPropagationPolicy, OverridePolicy, PropagationPolicy};
use crate::karmada::api::work::{ClusterResourceBinding, ResourceBinding, Work};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TemplateKey {
    pub gvk: GroupVersionKind,
    pub namespace: Option<String>,
    pub name: String,
}

/// A ResourceBinding (`namespace` set) or ClusterResourceBinding.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BindingKey {
    pub namespace: Option<String>,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkKey {
    pub namespace: String,
    pub name: String,
}

/// The templates of one kind: how to reach them and a cache kept by a watcher.
#[derive(Clone)]
pub struct TemplateSource {
    pub resource: ApiResource,
    pub namespaced: bool,
    pub store: Store<DynamicObject>,
}

pub struct Caches {
    pub clusters: Store<Cluster>,
    pub propagation_policies: Store<PropagationPolicy>,
    pub cluster_propagation_policies: Store<ClusterPropagationPolicy>,
    pub override_policies: Store<OverridePolicy>,
    pub cluster_override_policies: Store<ClusterOverridePolicy>,
    pub bindings: Store<ResourceBinding>,
    pub cluster_bindings: Store<ClusterResourceBinding>,
    pub works: Store<Work>,
    pub namespaces: Store<k8s_openapi::api::core::v1::Namespace>,
}

pub struct Queues {
    pub detect: Arc<Queue<TemplateKey>>,
    pub schedule: Arc<Queue<BindingKey>>,
    pub render: Arc<Queue<BindingKey>>,
    pub aggregate: Arc<Queue<BindingKey>>,
    pub execute: Arc<Queue<WorkKey>>,
    pub reflect: Arc<Queue<WorkKey>>,
    pub namespaces: Arc<Queue<String>>,
}

/// Which clusters this engine executes Works for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The plane's engine: every Push member.
    Plane,
    /// An agent in one Pull member: that cluster only.
    Agent { cluster: String },
}

pub struct Engine {
    pub client: Client,
    pub scope: Scope,
    pub caches: Caches,
    pub queues: Queues,
    pub templates: Mutex<HashMap<GroupVersionKind, TemplateSource>>,
    /// Kinds whose template watcher is being started, so it is started once.
    pub starting: Mutex<std::collections::HashSet<GroupVersionKind>>,
    pub tasks: Mutex<Vec<JoinHandle<()>>>,
    pub members: super::execution::members::Members,
    /// What the engine's own last write of each binding returned, newer than the cache for a
    /// moment after the write.
    pub written: Mutex<HashMap<BindingKey, DynamicObject>>,
    pub applied: super::execution::Applied,
    /// The Works of each binding, kept by the Work follower.
    pub work_index: Arc<super::work_index::WorkIndex>,
}

impl Engine {
    pub fn template_source(&self, gvk: &GroupVersionKind) -> Option<TemplateSource> {
        self.templates.lock().unwrap_or_else(|e| e.into_inner()).get(gvk).cloned()
    }

    /// A template from its kind's cache.
    pub fn template(&self, key: &TemplateKey) -> Option<Arc<DynamicObject>> {
        let source = self.template_source(&key.gvk)?;
        let mut r = ObjectRef::new_with(&key.name, source.resource.clone());
        if let Some(ns) = &key.namespace {
            r = r.within(ns);
        }
        source.store.get(&r)
    }

    pub fn spawn(&self, task: JoinHandle<()>) {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner()).push(task);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        for t in self.tasks.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
            t.abort();
        }
    }
}

/// Keeps a cache of `api` and calls `on` for every change (`true` when the object went).
pub fn follow<K>(api: Api<K>, on: impl Fn(&K, bool) + Send + 'static) -> (Store<K>, JoinHandle<()>)
where
    K: Resource + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    K::DynamicType: Default + Eq + Hash + Clone,
{
    follow_config(api, watcher::Config::default(), on)
}

/// [`follow`] with selectors.
pub fn follow_config<K>(
    api: Api<K>,
    config: watcher::Config,
    on: impl Fn(&K, bool) + Send + 'static,
) -> (Store<K>, JoinHandle<()>)
where
    K: Resource + Clone + DeserializeOwned + Debug + Send + Sync + 'static,
    K::DynamicType: Default + Eq + Hash + Clone,
{
    let (reader, writer) = reflector::store();
    let stream = watcher(api, config).default_backoff().reflect(writer);
    (reader, tokio::spawn(drive(stream, on)))
}

/// [`follow`] for a kind known only at run time.
pub fn follow_dynamic(
    api: Api<DynamicObject>,
    resource: ApiResource,
    config: watcher::Config,
    on: impl Fn(&DynamicObject, bool) + Send + 'static,
) -> (Store<DynamicObject>, JoinHandle<()>) {
    let writer = reflector::store::Writer::new(resource);
    let reader = writer.as_reader();
    let stream = watcher(api, config).default_backoff().reflect(writer);
    (reader, tokio::spawn(drive(stream, on)))
}

/// Calls `on` for each change. Objects of a (re)list are reported once the list is complete,
/// because the cache only holds them from then on.
async fn drive<K, S>(stream: S, on: impl Fn(&K, bool))
where
    S: futures::Stream<Item = Result<watcher::Event<K>, watcher::Error>>,
{
    let mut stream = std::pin::pin!(stream);
    let mut listed = Vec::new();
    while let Some(event) = stream.next().await {
        match event {
            Ok(watcher::Event::Apply(o)) => on(&o, false),
            Ok(watcher::Event::Delete(o)) => on(&o, true),
            Ok(watcher::Event::Init) => listed.clear(),
            Ok(watcher::Event::InitApply(o)) => listed.push(o),
            Ok(watcher::Event::InitDone) => {
                for o in listed.drain(..) {
                    on(&o, false);
                }
            }
            Err(e) => tracing::debug!(error = %e, "engine watch error; the watcher retries"),
        }
    }
}
