//! A cache of objects kept as their JSON text, for the kinds the engine holds by the tens of
//! thousands (resource templates and Works). Decoded to `serde_json::Value`, a 2 KiB template
//! takes ~17 KiB of heap (every JSON object is a BTreeMap whose nodes are ~600 bytes even with
//! one key); as text it takes its own size. An object is decoded when a controller reads it,
//! which costs a JSON parse (~10–20 µs for a few KiB) per reconcile, and the names and labels
//! the fan-out paths filter on are kept decoded beside the text so those paths parse nothing.
//!
//! It is fed by the same watcher events as kube's reflector `Store` and answers the same way:
//! a relist replaces the contents once complete, and readers wait for the first list.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::{Arc, RwLock};

use kube::Resource;
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Namespace (none for cluster-scoped objects), then name: the order relists are reported in.
type Key = (Option<Box<str>>, Box<str>);

struct Entry {
    labels: Arc<[(Box<str>, Box<str>)]>,
    json: Arc<[u8]>,
}

/// What the fan-out paths read of an object without decoding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    pub namespace: Option<String>,
    pub name: String,
    labels: Arc<[(Box<str>, Box<str>)]>,
}

impl Meta {
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels.iter().find(|(k, _)| &**k == key).map(|(_, v)| &**v)
    }
}

#[derive(Default)]
struct Shared {
    objects: RwLock<BTreeMap<Key, Entry>>,
}

/// The reading side, cheap to clone.
pub struct CompactStore<K> {
    shared: Arc<Shared>,
    ready: tokio::sync::watch::Receiver<bool>,
    kind: PhantomData<fn() -> K>,
}

impl<K> Clone for CompactStore<K> {
    fn clone(&self) -> Self {
        Self { shared: self.shared.clone(), ready: self.ready.clone(), kind: PhantomData }
    }
}

/// The writing side, owned by the watcher's stream.
pub struct Writer<K> {
    shared: Arc<Shared>,
    ready: tokio::sync::watch::Sender<bool>,
    /// A relist in progress: it replaces the contents once complete.
    buffer: Option<BTreeMap<Key, Entry>>,
    kind: PhantomData<fn() -> K>,
}

impl<K> Default for Writer<K> {
    fn default() -> Self {
        Self { shared: Arc::default(), ready: tokio::sync::watch::channel(false).0, buffer: None, kind: PhantomData }
    }
}

/// The writer went before the first list was complete.
#[derive(Debug, thiserror::Error)]
#[error("the cache's writer went before its first list")]
pub struct WriterDropped;

fn key_of<K: Resource>(o: &K) -> Key {
    let meta = o.meta();
    (meta.namespace.as_deref().map(Into::into), meta.name.as_deref().unwrap_or_default().into())
}

fn entry_of<K: Resource + Serialize>(o: &K) -> Option<Entry> {
    let json = match serde_json::to_vec(o) {
        Ok(json) => json,
        Err(e) => {
            tracing::warn!(error = %e, "an object could not be cached as JSON");
            return None;
        }
    };
    let labels = o.meta().labels.iter().flatten().map(|(k, v)| (k.as_str().into(), v.as_str().into())).collect();
    Some(Entry { labels, json: json.into() })
}

impl<K: Resource + Serialize> Writer<K> {
    pub fn as_reader(&self) -> CompactStore<K> {
        CompactStore { shared: self.shared.clone(), ready: self.ready.subscribe(), kind: PhantomData }
    }

    /// Takes in one watcher event, as kube's reflector does. Its objects may be of another
    /// type than the readers decode (`RawObject` for `DynamicObject`): what is kept is their
    /// JSON text.
    pub fn apply_watcher_event<E: Resource + Serialize>(&mut self, event: &watcher::Event<E>) {
        match event {
            watcher::Event::Init => self.buffer = Some(BTreeMap::new()),
            watcher::Event::InitApply(o) => {
                if let Some(entry) = entry_of(o) {
                    self.buffer.get_or_insert_with(BTreeMap::new).insert(key_of(o), entry);
                }
            }
            watcher::Event::InitDone => {
                let listed = self.buffer.take().unwrap_or_default();
                *self.shared.objects.write().unwrap_or_else(|e| e.into_inner()) = listed;
                self.ready.send_replace(true);
            }
            watcher::Event::Apply(o) => {
                if let Some(entry) = entry_of(o) {
                    self.shared.objects.write().unwrap_or_else(|e| e.into_inner()).insert(key_of(o), entry);
                }
            }
            watcher::Event::Delete(o) => {
                self.shared.objects.write().unwrap_or_else(|e| e.into_inner()).remove(&key_of(o));
            }
        }
    }
}

/// A new cache and its writer.
pub fn store<K: Resource + Serialize>() -> (CompactStore<K>, Writer<K>) {
    let writer = Writer::default();
    (writer.as_reader(), writer)
}

impl<K: Resource + DeserializeOwned> CompactStore<K> {
    fn decode(json: &[u8]) -> Option<Arc<K>> {
        match serde_json::from_slice(json) {
            Ok(o) => Some(Arc::new(o)),
            // It was encoded from this type: only a bug gets here.
            Err(e) => {
                tracing::warn!(error = %e, "a cached object could not be decoded");
                None
            }
        }
    }

    /// The object `r` names, decoded.
    pub fn get(&self, r: &ObjectRef<K>) -> Option<Arc<K>>
    where
        K::DynamicType: Eq + std::hash::Hash + Clone,
    {
        self.get_as::<K>(r).map(Arc::new)
    }

    /// The object `r` names, decoded as `T`: a view of the fields a reader needs, whose
    /// decoding skips the rest of the text without building it.
    pub fn get_as<T: DeserializeOwned>(&self, r: &ObjectRef<K>) -> Option<T>
    where
        K::DynamicType: Eq + std::hash::Hash + Clone,
    {
        let key: Key = (r.namespace.as_deref().map(Into::into), r.name.as_str().into());
        let json = self.shared.objects.read().unwrap_or_else(|e| e.into_inner()).get(&key).map(|e| e.json.clone())?;
        match serde_json::from_slice(&json) {
            Ok(view) => Some(view),
            Err(e) => {
                tracing::warn!(error = %e, "a cached object could not be decoded");
                None
            }
        }
    }

    /// The names and labels of every object, in key order, decoding none.
    pub fn metas(&self) -> Vec<Meta> {
        let objects = self.shared.objects.read().unwrap_or_else(|e| e.into_inner());
        objects
            .iter()
            .map(|((ns, name), e)| Meta {
                namespace: ns.as_deref().map(String::from),
                name: name.to_string(),
                labels: e.labels.clone(),
            })
            .collect()
    }

    /// Every object whose JSON text `keep` accepts, decoded, in key order. The text is
    /// snapshotted under the lock and decoded outside it.
    pub fn filtered(&self, keep: impl Fn(&Meta, &[u8]) -> bool) -> Vec<Arc<K>> {
        self.texts(keep).iter().filter_map(|json| Self::decode(json)).collect()
    }

    /// Calls `f` with every object in key order, decoding one at a time: a pass over all of
    /// them never holds them all decoded.
    pub fn for_each(&self, mut f: impl FnMut(Arc<K>)) {
        self.for_each_as::<K>(|o| f(Arc::new(o)));
    }

    /// [`CompactStore::for_each`], decoding each object as `T`.
    pub fn for_each_as<T: DeserializeOwned>(&self, mut f: impl FnMut(T)) {
        for json in self.texts(|_, _| true) {
            match serde_json::from_slice(&json) {
                Ok(o) => f(o),
                Err(e) => tracing::warn!(error = %e, "a cached object could not be decoded"),
            }
        }
    }

    /// Every object, decoded, in key order. Holds them all decoded: for small sets only.
    pub fn state(&self) -> Vec<Arc<K>> {
        self.filtered(|_, _| true)
    }

    fn texts(&self, keep: impl Fn(&Meta, &[u8]) -> bool) -> Vec<Arc<[u8]>> {
        let objects = self.shared.objects.read().unwrap_or_else(|e| e.into_inner());
        objects
            .iter()
            .filter(|((ns, name), e)| {
                let meta = Meta {
                    namespace: ns.as_deref().map(String::from),
                    name: name.to_string(),
                    labels: e.labels.clone(),
                };
                keep(&meta, &e.json)
            })
            .map(|(_, e)| e.json.clone())
            .collect()
    }
}

impl<K> CompactStore<K> {
    pub fn len(&self) -> usize {
        self.shared.objects.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Turns true once the first list is in; any number of tasks may wait on it (kube's
    /// `Store::wait_until_ready` wakes only the task that polled it last). The wait fails
    /// when the writer goes first.
    pub fn listed(&self) -> tokio::sync::watch::Receiver<bool> {
        self.ready.clone()
    }

    /// Waits for the first list to be complete.
    pub async fn wait_until_ready(&self) -> Result<(), WriterDropped> {
        let mut ready = self.ready.clone();
        ready.wait_for(|r| *r).await.map(|_| ()).map_err(|_| WriterDropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_karmada_api::work::Work;
    use serde_json::json;

    fn work(ns: &str, name: &str, label: Option<&str>) -> Work {
        let labels = label.map(|l| json!({"app": l})).unwrap_or(json!({}));
        serde_json::from_value(json!({
            "apiVersion": "work.karmada.io/v1alpha1", "kind": "Work",
            "metadata": {"name": name, "namespace": ns, "labels": labels},
            "spec": {"workload": {"manifests": [{"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "v"}}]}},
        }))
        .unwrap()
    }

    #[tokio::test]
    async fn objects_come_back_whole_and_a_relist_replaces_the_contents_once_complete() {
        let (store, mut writer) = store::<Work>();
        writer.apply_watcher_event(&watcher::Event::<Work>::Init);
        writer.apply_watcher_event(&watcher::Event::InitApply(work("b", "x", Some("one"))));
        writer.apply_watcher_event(&watcher::Event::InitApply(work("a", "y", None)));
        assert!(store.is_empty(), "a list is not served before it is complete");
        writer.apply_watcher_event(&watcher::Event::<Work>::InitDone);
        store.wait_until_ready().await.unwrap();

        let got = store.get(&ObjectRef::new("x").within("b")).unwrap();
        assert_eq!(*got, work("b", "x", Some("one")));
        assert!(store.get(&ObjectRef::new("x").within("a")).is_none());
        let metas = store.metas();
        let names: Vec<_> = metas.iter().map(|m| (m.namespace.clone().unwrap(), m.name.clone())).collect();
        assert_eq!(names, [("a".to_string(), "y".to_string()), ("b".into(), "x".into())]);
        assert_eq!(metas[1].label("app"), Some("one"));
        assert_eq!(metas[0].label("app"), None);

        // A relist without `a/y` drops it; until complete the old contents stay.
        writer.apply_watcher_event(&watcher::Event::<Work>::Init);
        writer.apply_watcher_event(&watcher::Event::InitApply(work("b", "x", Some("two"))));
        assert_eq!(store.len(), 2);
        writer.apply_watcher_event(&watcher::Event::<Work>::InitDone);
        let all = store.state();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].metadata.labels.as_ref().unwrap()["app"], "two");

        writer.apply_watcher_event(&watcher::Event::Apply(work("c", "z", None)));
        writer.apply_watcher_event(&watcher::Event::Delete(work("b", "x", None)));
        let mut seen = vec![];
        store.for_each(|w| seen.push(w.metadata.name.clone().unwrap()));
        assert_eq!(seen, ["z"]);
        let with_configmap = store.filtered(|_, json| std::str::from_utf8(json).unwrap().contains("ConfigMap"));
        assert_eq!(with_configmap.len(), 1);
        assert!(store.filtered(|m, _| m.name == "nothing").is_empty());
    }

    #[tokio::test]
    async fn waiting_readers_learn_the_writer_went() {
        let (store, writer) = store::<Work>();
        drop(writer);
        assert!(store.wait_until_ready().await.is_err());
    }

    /// Every apply waiting for a member's first list goes on once it is in, not only the one
    /// that looked last.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_waiter_hears_of_the_first_list() {
        let (store, mut writer) = store::<Work>();
        let listed = store.listed();
        let waiters: Vec<_> = (0..16)
            .map(|_| {
                let mut listed = listed.clone();
                tokio::spawn(async move { listed.wait_for(|done| *done).await.is_ok() })
            })
            .collect();
        tokio::task::yield_now().await;
        assert!(!*listed.borrow(), "nothing was listed yet");
        writer.apply_watcher_event(&watcher::Event::<Work>::Init);
        writer.apply_watcher_event(&watcher::Event::<Work>::InitDone);
        // A waiter that is never woken would hold this forever; 30 s only bounds the failure.
        let woken = tokio::time::timeout(std::time::Duration::from_secs(30), futures::future::join_all(waiters))
            .await
            .expect("every waiter is woken once the first list is in");
        assert_eq!(woken.iter().filter(|w| matches!(w, Ok(true))).count(), 16);
    }

    #[tokio::test]
    async fn a_watcher_that_goes_before_its_first_list_never_reports_one() {
        let (store, writer) = store::<Work>();
        let mut listed = store.listed();
        drop(writer);
        assert!(listed.wait_for(|done| *done).await.is_err(), "the signal ends without turning true");
    }
}
