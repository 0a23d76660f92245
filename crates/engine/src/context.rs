//! What the engine's controllers share: one API client, caches of every Karmada object they
//! read (kept by watchers, as informers are), caches of resource templates per kind, and the
//! queues through which a change to one object wakes the controllers that depend on it.

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::{
    ClusterOverridePolicy, ClusterPropagationPolicy, OverridePolicy, PropagationPolicy,
};
use karmadactl_karmada_api::work::{ClusterResourceBinding, ResourceBinding, Work};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, Resource};
use serde::de::DeserializeOwned;
use tokio::task::JoinHandle;

use super::compact_store::{self, CompactStore};
use super::queue::Queue;
use super::raw_object::RawObject;

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

/// The templates of one kind: how to reach them and a cache kept by a watcher (compact: the
/// engine may hold tens of thousands of templates).
#[derive(Clone)]
pub struct TemplateSource {
    pub resource: ApiResource,
    pub namespaced: bool,
    pub store: CompactStore<DynamicObject>,
}

pub struct Caches {
    pub clusters: Store<Cluster>,
    pub propagation_policies: Store<PropagationPolicy>,
    pub cluster_propagation_policies: Store<ClusterPropagationPolicy>,
    pub override_policies: Store<OverridePolicy>,
    pub cluster_override_policies: Store<ClusterOverridePolicy>,
    pub bindings: Store<ResourceBinding>,
    pub cluster_bindings: Store<ClusterResourceBinding>,
    /// Compact: one per workload and member, the largest set the engine holds.
    pub works: CompactStore<Work>,
    pub namespaces: Store<k8s_openapi::api::core::v1::Namespace>,
    pub federated_quotas: Store<karmadactl_karmada_api::policy::quota::FederatedResourceQuota>,
}

pub struct Queues {
    pub detect: Arc<Queue<TemplateKey>>,
    pub schedule: Arc<Queue<BindingKey>>,
    pub binding: Arc<Queue<BindingKey>>,
    pub binding_status: Arc<Queue<BindingKey>>,
    pub execute: Arc<Queue<WorkKey>>,
    pub work_status: Arc<Queue<WorkKey>>,
    pub namespace_sync: Arc<Queue<String>>,
    /// Bindings with application failover.
    pub application_failover: Arc<Queue<BindingKey>>,
    /// Bindings with eviction tasks (served only with the `GracefulEviction` gate).
    pub graceful_eviction: Arc<Queue<BindingKey>>,
    /// FederatedResourceQuotas (namespace, name).
    pub federated_quota: Arc<Queue<crate::federated_quota::QuotaKey>>,
}

impl Queues {
    /// Whether a queue on the way from a template to its member copies (detection,
    /// scheduling, the binding controller, execution) has keys waiting or being handled.
    pub fn propagating(&self) -> bool {
        self.detect.is_busy() || self.schedule.is_busy() || self.binding.is_busy() || self.execute.is_busy()
    }
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
    /// The resource interpreter every controller asks about a kind (its user customizations
    /// kept by [`super::interpreter_config`]).
    pub interpreter: Arc<karmadactl_interpreter::Interpreter>,
    /// Feature gates and failover flags.
    pub config: super::config::EngineConfig,
    /// Wakes the multi-cluster services pass ([`super::mcs`]).
    pub mcs_wake: Arc<tokio::sync::Notify>,
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
    let stream = into_cache(watcher(api, config).default_backoff(), writer);
    (reader.clone(), tokio::spawn(drive(stream, reader, on)))
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
    let stream = into_cache(watcher(api, config).default_backoff(), writer);
    (reader.clone(), tokio::spawn(drive(stream, reader, on)))
}

/// [`follow`] into a [`CompactStore`].
pub fn follow_compact<K>(api: Api<K>, on: impl Fn(&K, bool) + Send + 'static) -> (CompactStore<K>, JoinHandle<()>)
where
    K: Resource + Clone + DeserializeOwned + serde::Serialize + Debug + Send + Sync + 'static,
    K::DynamicType: Default + Eq + Hash + Clone,
{
    let (reader, writer) = compact_store::store();
    let stream = into_compact(watcher(api, watcher::Config::default()).default_backoff(), writer);
    (reader.clone(), tokio::spawn(drive(stream, reader, on)))
}

/// [`follow_dynamic`] into a [`CompactStore`]: every object of `resource` that `client`
/// reaches. The watch events are taken in as text ([`RawObject`]), which is what the cache
/// keeps, and `on` sees them so: their metadata decoded, the rest not.
pub fn follow_dynamic_compact(
    client: Client,
    resource: &ApiResource,
    config: watcher::Config,
    on: impl Fn(&RawObject, bool) + Send + 'static,
) -> (CompactStore<DynamicObject>, JoinHandle<()>) {
    let api: Api<RawObject> = Api::all_with(client, resource);
    let (reader, writer) = compact_store::store();
    let stream = into_compact(watcher(api, config).default_backoff(), writer);
    (reader.clone(), tokio::spawn(drive(stream, AsRaw(reader.clone()), on)))
}

/// A cache of `DynamicObject`s read back as [`RawObject`]s, for [`drive`] after a relist.
struct AsRaw(CompactStore<DynamicObject>);

impl Listed<RawObject> for AsRaw {
    fn each_in_key_order(&self, f: &mut dyn FnMut(&RawObject)) {
        self.0.for_each_as(|o: RawObject| f(&o));
    }
}

/// [`into_cache`] for a [`CompactStore`]; the events' objects are kept as their text.
fn into_compact<K, E, S>(events: S, mut writer: compact_store::Writer<K>) -> impl futures::Stream<Item = S::Item>
where
    K: Resource + serde::Serialize,
    E: Resource + serde::Serialize,
    S: futures::Stream<Item = Result<watcher::Event<E>, watcher::Error>>,
{
    events.modify(drop_managed_fields).map(move |event| {
        if let Ok(event) = &event {
            writer.apply_watcher_event(event);
        }
        event
    })
}

/// A cache `drive` reads a complete list back from.
trait Listed<K> {
    /// Calls `f` with every cached object in key order.
    fn each_in_key_order(&self, f: &mut dyn FnMut(&K));
}

impl<K> Listed<K> for Store<K>
where
    K: Resource + Clone + 'static,
    K::DynamicType: Eq + Hash + Clone,
{
    fn each_in_key_order(&self, f: &mut dyn FnMut(&K)) {
        let mut listed = self.state();
        listed.sort_unstable_by(|a, b| key_of(a.as_ref()).cmp(&key_of(b.as_ref())));
        for o in listed {
            f(&o);
        }
    }
}

impl<K: Resource + DeserializeOwned> Listed<K> for CompactStore<K> {
    /// Decodes one object at a time, so a relist never holds them all decoded.
    fn each_in_key_order(&self, f: &mut dyn FnMut(&K)) {
        self.for_each(|o| f(&o));
    }
}

/// Feeds watch events into the cache behind `writer`, passing them on once it holds them.
fn into_cache<K, S>(events: S, writer: reflector::store::Writer<K>) -> impl futures::Stream<Item = S::Item>
where
    K: Resource + Clone + 'static,
    K::DynamicType: Eq + Hash + Clone,
    S: futures::Stream<Item = Result<watcher::Event<K>, watcher::Error>>,
{
    events.modify(drop_managed_fields).reflect(writer)
}

/// The engine never reads managedFields, and they are often as large as the rest of an object:
/// the caches would hold them for every template, binding and Work. Every write the engine
/// makes from a cached object leaves them out rather than empty, which a server reads as
/// "keep the stored ones" (a status write ignores them anyway).
fn drop_managed_fields<K: Resource>(o: &mut K) {
    o.meta_mut().managed_fields = None;
}

/// Calls `on` for each change. Objects of a (re)list are reported once the list is complete,
/// because the cache only holds them from then on; they are read back from the cache then
/// rather than kept here too, which would hold a second copy of everything listed.
///
/// They are reported in key order, not the cache's hash order: the Works of one member then
/// sit together in the execution queue, so after a restart the applies in flight go to one
/// member at a time and share its commits (a member commits the writes that wait together
/// once) instead of each reaching the disk alone.
async fn drive<K, S>(stream: S, cache: impl Listed<K>, on: impl Fn(&K, bool))
where
    S: futures::Stream<Item = Result<watcher::Event<K>, watcher::Error>>,
{
    let mut stream = std::pin::pin!(stream);
    while let Some(event) = stream.next().await {
        match event {
            Ok(watcher::Event::Apply(o)) => on(&o, false),
            Ok(watcher::Event::Delete(o)) => on(&o, true),
            Ok(watcher::Event::Init | watcher::Event::InitApply(_)) => {}
            // The cache was replaced with the list when this event went through it.
            Ok(watcher::Event::InitDone) => cache.each_in_key_order(&mut |o| on(o, false)),
            Err(e) => tracing::debug!(error = %e, "engine watch error; the watcher retries"),
        }
    }
}

/// An object's place in key order: namespace, then name.
fn key_of<K: Resource>(o: &K) -> (Option<&str>, Option<&str>) {
    (o.meta().namespace.as_deref(), o.meta().name.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::ResourceExt;
    use serde_json::json;

    fn work(name: &str, rv: &str) -> Work {
        serde_json::from_value(json!({
            "apiVersion": "work.karmada.io/v1alpha1",
            "kind": "Work",
            "metadata": {
                "name": name, "namespace": "karmada-es-a", "resourceVersion": rv,
                "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
                                   "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}],
            },
            "spec": {},
        }))
        .unwrap()
    }

    #[tokio::test]
    async fn a_list_is_reported_in_key_order() {
        let (cache, writer) = compact_store::store::<Work>();
        let mut listed = vec![];
        for ns in ["karmada-es-c", "karmada-es-b", "karmada-es-a"] {
            for i in (0..10).rev() {
                let mut w = work(&format!("w{i}"), "1");
                w.metadata.namespace = Some(ns.into());
                listed.push(Ok(watcher::Event::InitApply(w)));
            }
        }
        let events = futures::stream::iter(
            std::iter::once(Ok(watcher::Event::Init)).chain(listed).chain([Ok(watcher::Event::InitDone)]),
        );
        let seen: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
        let record = seen.clone();
        drive(into_compact(events, writer), cache, move |w: &Work, _| {
            record.lock().unwrap().push((w.namespace().unwrap_or_default(), w.name_any()));
        })
        .await;
        let seen = seen.lock().unwrap().clone();
        let mut sorted = seen.clone();
        sorted.sort();
        assert_eq!(seen.len(), 30);
        assert_eq!(seen, sorted);
    }

    #[tokio::test]
    async fn the_cache_holds_no_managed_fields_and_a_list_is_reported_once_complete() {
        let (cache, writer) = compact_store::store::<Work>();
        let events = futures::stream::iter(vec![
            Ok(watcher::Event::Init),
            Ok(watcher::Event::InitApply(work("a", "1"))),
            Ok(watcher::Event::InitApply(work("b", "2"))),
            Ok(watcher::Event::InitDone),
            Ok(watcher::Event::Apply(work("a", "3"))),
            Ok(watcher::Event::Delete(work("b", "2"))),
        ]);
        // (name, resourceVersion, deleted, objects cached) per call.
        type Seen = Vec<(String, String, bool, usize)>;
        let seen: Arc<Mutex<Seen>> = Arc::default();
        let record = seen.clone();
        let reader = cache.clone();
        drive(into_compact(events, writer), cache.clone(), move |w: &Work, deleted| {
            assert!(w.metadata.managed_fields.is_none(), "{} reached the follower with managedFields", w.name_any());
            let rv = w.metadata.resource_version.clone().unwrap_or_default();
            record.lock().unwrap().push((w.name_any(), rv, deleted, reader.len()));
        })
        .await;
        let seen = seen.lock().unwrap().clone();
        // Each listed object is reported with the whole list cached.
        assert_eq!(
            seen,
            [
                ("a".into(), "1".into(), false, 2),
                ("b".into(), "2".into(), false, 2),
                ("a".into(), "3".into(), false, 2),
                ("b".into(), "2".into(), true, 1),
            ]
        );
        let cached = cache.state();
        assert_eq!(cached.len(), 1);
        assert_eq!(cached[0].metadata.resource_version.as_deref(), Some("3"));
        assert!(cached[0].metadata.managed_fields.is_none());
    }
}
