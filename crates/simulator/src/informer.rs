//! Watch-fed caches of the dependents the simulated controllers look up (pods, ReplicaSets),
//! filed by the uid of their controller, as kube-controller-manager's informers are: an owner's
//! reconcile finds its dependents in memory. Listing them from the API server instead made the
//! server read every object of the namespace for each reconcile, and a member holding a
//! thousand Deployments spent most of its CPU on those lists.
//!
//! Each cache also feeds its owners' controllers (`subscribe`) and whoever else follows the
//! kind (`changes`, `store`): one watch per kind, as kube-controller-manager's shared
//! informers, where each loop used to keep a watch of its own and every pod event was sent and
//! decoded four times. A change reaches a subscriber only after the cache holds it, so a
//! reconcile a dependent's change triggered sees it.
//! What a controller has just created or deleted may not be in the cache yet. It says so first
//! (`expect_creation`, `expect_deletion`, as kube-controller-manager's ControllerExpectations)
//! and [`Informer::owned_by`] answers `None` for that owner until the cache has caught up, so a
//! stale cache never makes a controller create a pod twice.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::{Stream, StreamExt};
use kube::runtime::reflector::{self, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, Client, Resource, ResourceExt};
use serde::de::DeserializeOwned;
use tokio::sync::mpsc;

/// How long a controller waits for the cache to show what it created or deleted before acting
/// on what the cache holds anyway (a missed event must not stop an owner for good).
pub const EXPECTATION_TIMEOUT: Duration = Duration::from_secs(10);

type Key = (String, String);

pub struct Informer<K: Resource<DynamicType = ()> + Clone + 'static> {
    state: Mutex<State<K>>,
    subscribers: Mutex<Vec<mpsc::UnboundedSender<Change<K>>>>,
    /// Every object of the kind, for the controllers and loops that look objects up by name.
    store: Store<K>,
}

/// One change the cache took in.
pub struct Change<K> {
    pub object: Arc<K>,
    /// The object is gone (its last state).
    pub deleted: bool,
}

impl<K> Clone for Change<K> {
    fn clone(&self) -> Self {
        Self { object: self.object.clone(), deleted: self.deleted }
    }
}

struct State<K: Resource<DynamicType = ()> + Clone + 'static> {
    /// Keeps [`Informer::store`].
    writer: reflector::store::Writer<K>,
    /// Reads it back: the store's copy of an object is the one handed on (the writer clones
    /// what it is given).
    reader: Store<K>,
    /// Controller uid → (namespace, name) → object.
    by_owner: HashMap<String, BTreeMap<Key, Arc<K>>>,
    /// Which controller uid each cached object is filed under.
    filed: HashMap<Key, String>,
    expectations: HashMap<String, Expectation>,
    /// The keys listed since a relist began; the others are gone when it ends.
    relisted: Option<HashSet<Key>>,
    /// What the relist under way took in, handed on when it ends.
    listed: Vec<Change<K>>,
    /// The first list has ended: an empty answer means there are none, not "not read yet".
    synced: bool,
}

#[derive(Default)]
struct Expectation {
    creations: usize,
    /// Uids of dependents being deleted.
    deletions: HashSet<String>,
    since: Option<Instant>,
}

impl Expectation {
    fn met(&self) -> bool {
        (self.creations == 0 && self.deletions.is_empty())
            || self.since.is_some_and(|t| t.elapsed() >= EXPECTATION_TIMEOUT)
    }
}

impl<K> Informer<K>
where
    K: Resource<DynamicType = ()> + Clone + DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
{
    pub fn new() -> Arc<Self> {
        let (store, writer) = reflector::store();
        Arc::new(Self {
            store,
            state: Mutex::new(State {
                reader: writer.as_reader(),
                writer,
                by_owner: HashMap::new(),
                filed: HashMap::new(),
                expectations: HashMap::new(),
                relisted: None,
                listed: Vec::new(),
                synced: false,
            }),
            subscribers: Mutex::new(Vec::new()),
        })
    }

    /// Every object the cache takes in or lets go, after it holds it: the trigger stream of a
    /// controller of the kind or of its owners. Subscribe before [`Informer::run`] starts.
    pub fn subscribe(&self) -> impl Stream<Item = Arc<K>> + Send + 'static {
        self.changes().map(|c| c.object)
    }

    /// Like [`Informer::subscribe`], saying which objects are gone.
    pub fn changes(&self) -> impl Stream<Item = Change<K>> + Send + 'static {
        let (tx, rx) = mpsc::unbounded_channel();
        self.subscribers.lock().expect("not poisoned").push(tx);
        futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|c| (c, rx)) })
    }

    /// Every object of the kind by name; ready once the first list has ended.
    pub fn store(&self) -> Store<K> {
        self.store.clone()
    }

    /// Keeps the cache from a watch of every object of the kind until the server goes away.
    pub async fn run(self: Arc<Self>, client: Client) {
        let api: Api<K> = Api::all(client);
        // Nothing simulated reads managedFields; without them a cached pod is half the size to
        // keep, copy and drop.
        let mut stream = watcher(api, watcher::Config::default())
            .default_backoff()
            .modify(|o| o.meta_mut().managed_fields = None)
            .boxed();
        while let Some(event) = stream.next().await {
            let event = match event {
                Ok(event) => event,
                Err(e) => {
                    tracing::debug!(error = %e, "simulated informer watch error; the watcher retries");
                    continue;
                }
            };
            let changes = self.lock().take_in(event);
            for change in changes {
                self.publish(change);
            }
        }
    }

    /// The cached dependents `owner_uid` controls, or `None` before the first list or while
    /// something it created or deleted has not reached the cache.
    pub fn owned_by(&self, owner_uid: &str) -> Option<Vec<Arc<K>>> {
        let state = self.lock();
        if !state.synced || state.expectations.get(owner_uid).is_some_and(|e| !e.met()) {
            return None;
        }
        Some(state.by_owner.get(owner_uid).map(|m| m.values().cloned().collect()).unwrap_or_default())
    }

    /// `owner_uid` is about to create one dependent.
    pub fn expect_creation(&self, owner_uid: &str) {
        let mut state = self.lock();
        let e = state.expectations.entry(owner_uid.to_string()).or_default();
        e.creations += 1;
        e.since = Some(Instant::now());
    }

    /// The creation announced did not happen.
    pub fn creation_failed(&self, owner_uid: &str) {
        if let Some(e) = self.lock().expectations.get_mut(owner_uid) {
            e.creations = e.creations.saturating_sub(1);
        }
    }

    /// `owner_uid` is about to delete the dependent with `uid`.
    pub fn expect_deletion(&self, owner_uid: &str, uid: &str) {
        let mut state = self.lock();
        let e = state.expectations.entry(owner_uid.to_string()).or_default();
        e.deletions.insert(uid.to_string());
        e.since = Some(Instant::now());
    }

    /// The deletion announced did not happen.
    pub fn deletion_failed(&self, owner_uid: &str, uid: &str) {
        if let Some(e) = self.lock().expectations.get_mut(owner_uid) {
            e.deletions.remove(uid);
        }
    }

    fn publish(&self, change: Change<K>) {
        let mut subscribers = self.subscribers.lock().expect("not poisoned");
        subscribers.retain(|s| s.send(change.clone()).is_ok());
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State<K>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The uid of `o`'s controller, if it has one.
fn controller_uid<K: Resource>(o: &K) -> Option<String> {
    o.meta().owner_references.iter().flatten().find(|r| r.controller == Some(true)).map(|r| r.uid.clone())
}

fn key_of<K: Resource>(o: &K) -> Key {
    (o.namespace().unwrap_or_default(), o.name_any())
}

impl<K: Resource<DynamicType = ()> + Clone + 'static> State<K> {
    /// Takes in one watch event: the store, then the cache; says what to hand on.
    fn take_in(&mut self, event: watcher::Event<K>) -> Vec<Change<K>> {
        self.writer.apply_watcher_event(&event);
        match event {
            watcher::Event::Init => {
                self.relisted = Some(HashSet::new());
                self.listed.clear();
                Vec::new()
            }
            // A relist's objects reach the store at its end (kube-rs swaps the whole list in
            // then), so they are handed on then too: a controller triggered earlier would look
            // its object up in the store and not find it.
            watcher::Event::InitApply(o) => {
                let change = self.file(Arc::new(o), true);
                self.listed.push(change);
                Vec::new()
            }
            watcher::Event::InitDone => {
                self.end_relist();
                std::mem::take(&mut self.listed)
            }
            watcher::Event::Apply(o) => {
                let stored = self.reader.get(&reflector::ObjectRef::from_obj(&o));
                vec![self.file(stored.unwrap_or_else(|| Arc::new(o)), false)]
            }
            watcher::Event::Delete(o) => {
                self.remove(&o);
                vec![Change { object: Arc::new(o), deleted: true }]
            }
        }
    }

    /// Files `o` under its controller and says what changed.
    fn file(&mut self, o: Arc<K>, relisting: bool) -> Change<K> {
        let key = key_of(o.as_ref());
        if relisting && let Some(seen) = self.relisted.as_mut() {
            seen.insert(key.clone());
        }
        let owner = controller_uid(o.as_ref());
        let previous = self.filed.get(&key).cloned();
        if let Some(p) = &previous
            && Some(p) != owner.as_ref()
        {
            self.unfile(&key, p);
        }
        let Some(owner) = owner else { return Change { object: o, deleted: false } };
        let entry = self.by_owner.entry(owner.clone()).or_default();
        let new = entry.insert(key.clone(), o.clone()).is_none();
        self.filed.insert(key, owner.clone());
        if let Some(e) = self.expectations.get_mut(&owner) {
            if new {
                e.creations = e.creations.saturating_sub(1);
            }
            if o.meta().deletion_timestamp.is_some()
                && let Some(uid) = o.meta().uid.as_deref()
            {
                e.deletions.remove(uid);
            }
            if e.creations == 0 && e.deletions.is_empty() {
                self.expectations.remove(&owner);
            }
        }
        Change { object: o, deleted: false }
    }

    fn remove(&mut self, o: &K) {
        let key = key_of(o);
        if let Some(owner) = self.filed.get(&key).cloned() {
            self.unfile(&key, &owner);
            if let Some(e) = self.expectations.get_mut(&owner) {
                if let Some(uid) = o.meta().uid.as_deref() {
                    e.deletions.remove(uid);
                }
                if e.creations == 0 && e.deletions.is_empty() {
                    self.expectations.remove(&owner);
                }
            }
        }
    }

    fn unfile(&mut self, key: &Key, owner: &str) {
        self.filed.remove(key);
        if let Some(m) = self.by_owner.get_mut(owner) {
            m.remove(key);
            if m.is_empty() {
                self.by_owner.remove(owner);
            }
        }
    }

    /// A relist ended: what it did not list is gone.
    fn end_relist(&mut self) {
        self.synced = true;
        let Some(seen) = self.relisted.take() else { return };
        let gone: Vec<(Key, String)> =
            self.filed.iter().filter(|(k, _)| !seen.contains(*k)).map(|(k, o)| (k.clone(), o.clone())).collect();
        for (key, owner) in gone {
            self.unfile(&key, &owner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::Pod;
    use kube::runtime::reflector::ObjectRef;
    use serde_json::json;

    fn pod(name: &str, owner: &str, uid: &str) -> Pod {
        serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": "default", "uid": uid,
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs",
                    "uid": owner, "controller": true}]}
        }))
        .unwrap()
    }

    fn names(found: Option<Vec<Arc<Pod>>>) -> Option<Vec<String>> {
        found.map(|v| v.iter().map(|p| p.name_any()).collect())
    }

    #[test]
    fn an_owner_waits_until_its_creations_and_deletions_are_cached() {
        let informer = Informer::<Pod>::new();
        assert!(informer.owned_by("rs-1").is_none(), "nothing is known before the first list");
        informer.lock().end_relist();
        informer.lock().file(Arc::new(pod("a", "rs-1", "u-a")), false);
        assert_eq!(names(informer.owned_by("rs-1")), Some(vec!["a".to_string()]));

        informer.expect_creation("rs-1");
        assert_eq!(names(informer.owned_by("rs-1")), None, "the new pod is not cached yet");
        informer.lock().file(Arc::new(pod("b", "rs-1", "u-b")), false);
        assert_eq!(names(informer.owned_by("rs-1")), Some(vec!["a".to_string(), "b".to_string()]));

        informer.expect_deletion("rs-1", "u-a");
        assert_eq!(names(informer.owned_by("rs-1")), None, "the deletion is not cached yet");
        informer.lock().remove(&pod("a", "rs-1", "u-a"));
        assert_eq!(names(informer.owned_by("rs-1")), Some(vec!["b".to_string()]));

        informer.expect_creation("rs-1");
        informer.creation_failed("rs-1");
        assert!(informer.owned_by("rs-1").is_some(), "a failed creation is not waited for");
        assert_eq!(names(informer.owned_by("other")), Some(vec![]));
    }

    #[test]
    fn a_relist_hands_its_objects_on_once_the_store_holds_them() {
        let informer = Informer::<Pod>::new();
        let a = pod("a", "rs-1", "u-a");
        let mut state = informer.lock();
        assert!(state.take_in(watcher::Event::Init).is_empty());
        assert!(state.take_in(watcher::Event::InitApply(a.clone())).is_empty(), "held until the list ends");
        let handed = state.take_in(watcher::Event::InitDone);
        drop(state);
        assert_eq!(handed.iter().map(|c| c.object.name_any()).collect::<Vec<_>>(), ["a"]);
        assert!(informer.store().get(&ObjectRef::from_obj(&a)).is_some(), "in the store when handed on");
        let mut state = informer.lock();
        let b = pod("b", "rs-1", "u-b");
        let handed = state.take_in(watcher::Event::Apply(b.clone()));
        assert!(handed.len() == 1 && !handed[0].deleted);
        let handed = state.take_in(watcher::Event::Delete(b));
        assert!(handed.len() == 1 && handed[0].deleted);
    }

    #[test]
    fn a_relist_drops_what_it_did_not_list_and_an_adopted_pod_moves() {
        let informer = Informer::<Pod>::new();
        informer.lock().file(Arc::new(pod("a", "rs-1", "u-a")), false);
        informer.lock().file(Arc::new(pod("b", "rs-1", "u-b")), false);
        informer.lock().relisted = Some(HashSet::new());
        informer.lock().file(Arc::new(pod("b", "rs-2", "u-b")), true);
        informer.lock().end_relist();
        assert_eq!(names(informer.owned_by("rs-1")), Some(vec![]));
        assert_eq!(names(informer.owned_by("rs-2")), Some(vec!["b".to_string()]));
    }
}
