//! Which Works belong to which binding (and which are namespace-sync Works of which name), so
//! a controller finds the Works of one binding without going through every Work in the cache:
//! with one binding per workload that scan made each pass over all bindings quadratic.
//!
//! The Work follower keeps it (after the cache has the change); lookups read the objects from
//! the cache and check them again, so an entry the index has not caught up with is never
//! taken for a match.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use karmadactl_karmada_api::work::Work;
use karmadactl_karmada_api::work::workload::WorkStatus;
use kube::ResourceExt;
use kube::runtime::reflector::ObjectRef;
use serde::Deserialize;

use super::compact_store::CompactStore;

use super::context::WorkKey;
use super::names;

/// What a Work is found by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Tag {
    /// A binding's permanent-id label (`resourcebinding…` or `clusterresourcebinding…`) and its value.
    Binding(&'static str, String),
    /// A namespace-sync Work, by its name (the same in every execution namespace).
    NamespaceSync(String),
}

/// A Work's metadata and status without its manifests: what the status controllers read,
/// decoded without building the workload the Work carries.
#[derive(Deserialize)]
pub struct WorkReport {
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub status: Option<WorkStatus>,
}

#[derive(Default)]
pub struct WorkIndex {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    works: HashMap<Tag, HashSet<WorkKey>>,
    /// Each Work's tags, to take it out of the sets it was in when its labels change or it goes.
    tags: HashMap<WorkKey, Vec<Tag>>,
}

fn tags_of(w: &Work) -> Vec<Tag> {
    let labels = w.labels();
    let mut tags: Vec<Tag> = [names::RB_PERMANENT_ID_LABEL, names::CRB_PERMANENT_ID_LABEL]
        .into_iter()
        .filter_map(|l| labels.get(l).map(|id| Tag::Binding(l, id.clone())))
        .collect();
    if labels.contains_key(names::NAMESPACE_SYNC_LABEL) {
        tags.push(Tag::NamespaceSync(w.name_any()));
    }
    tags
}

fn key_of(w: &Work) -> WorkKey {
    WorkKey { namespace: w.namespace().unwrap_or_default(), name: w.name_any() }
}

impl WorkIndex {
    /// Follows a change of `w` (`deleted` when it went).
    pub fn update(&self, w: &Work, deleted: bool) {
        let key = key_of(w);
        let tags = if deleted { vec![] } else { tags_of(w) };
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.set(key, tags);
    }

    /// The cached Works carrying the binding permanent-id `label` with value `id`.
    pub fn of_binding(&self, store: &CompactStore<Work>, label: &'static str, id: &str) -> Vec<Arc<Work>> {
        let tag = Tag::Binding(label, id.to_string());
        self.lookup(store, &tag, |r| store.get(r), |w| w.labels().get(label).map(String::as_str) == Some(id))
    }

    /// The metadata and status of the cached Works carrying the binding permanent-id `label`
    /// with value `id`.
    pub fn reports_of_binding(&self, store: &CompactStore<Work>, label: &'static str, id: &str) -> Vec<WorkReport> {
        let tag = Tag::Binding(label, id.to_string());
        self.lookup(
            store,
            &tag,
            |r| store.get_as::<WorkReport>(r),
            |w| w.metadata.labels.as_ref().and_then(|l| l.get(label)).map(String::as_str) == Some(id),
        )
    }

    /// The cached namespace-sync Works named `name`.
    pub fn namespace_sync(&self, store: &CompactStore<Work>, name: &str) -> Vec<Arc<Work>> {
        let tag = Tag::NamespaceSync(name.to_string());
        self.lookup(
            store,
            &tag,
            |r| store.get(r),
            |w| w.name_any() == name && w.labels().contains_key(names::NAMESPACE_SYNC_LABEL),
        )
    }

    fn lookup<T>(
        &self,
        store: &CompactStore<Work>,
        tag: &Tag,
        read: impl Fn(&ObjectRef<Work>) -> Option<T>,
        matches: impl Fn(&T) -> bool,
    ) -> Vec<T> {
        let keys: Vec<WorkKey> = {
            let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            inner.works.get(tag).map(|s| s.iter().cloned().collect()).unwrap_or_default()
        };
        let mut found = vec![];
        let mut gone = vec![];
        for key in keys {
            match read(&object_ref(&key)) {
                Some(w) if matches(&w) => found.push(w),
                Some(_) => {}
                None => gone.push(key),
            }
        }
        if !gone.is_empty() {
            // A Work that went while the watch was down is dropped from the cache by the relist
            // without a deletion event; the index forgets it here. The cache is checked again
            // under the lock because the follower writes the cache before the index, so a Work
            // created again meanwhile is in the cache by now and stays.
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            for key in gone {
                if store.get(&object_ref(&key)).is_none() {
                    inner.set(key, vec![]);
                }
            }
        }
        found
    }
}

impl Inner {
    fn set(&mut self, key: WorkKey, tags: Vec<Tag>) {
        if let Some(old) = self.tags.remove(&key) {
            for tag in old {
                if let Some(set) = self.works.get_mut(&tag) {
                    set.remove(&key);
                    if set.is_empty() {
                        self.works.remove(&tag);
                    }
                }
            }
        }
        if tags.is_empty() {
            return;
        }
        for tag in &tags {
            self.works.entry(tag.clone()).or_default().insert(key.clone());
        }
        self.tags.insert(key, tags);
    }
}

fn object_ref(key: &WorkKey) -> ObjectRef<Work> {
    ObjectRef::new(&key.name).within(&key.namespace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compact_store::Writer;
    use kube::runtime::watcher::Event;

    fn work(namespace: &str, name: &str, labels: &[(&str, &str)]) -> Work {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "work.karmada.io/v1alpha1",
            "kind": "Work",
            "metadata": {
                "name": name,
                "namespace": namespace,
                "labels": labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<HashMap<_, _>>(),
            },
            "spec": {},
        }))
        .unwrap()
    }

    /// Applies a change to the cache, then to the index, in the order the follower does.
    fn apply(writer: &mut Writer<Work>, index: &WorkIndex, w: &Work, deleted: bool) {
        let event = if deleted { Event::Delete(w.clone()) } else { Event::Apply(w.clone()) };
        writer.apply_watcher_event(&event);
        index.update(w, deleted);
    }

    fn names(works: &[Arc<Work>]) -> Vec<String> {
        let mut n: Vec<String> = works.iter().map(|w| format!("{}/{}", w.namespace().unwrap(), w.name_any())).collect();
        n.sort();
        n
    }

    const RB: &str = names::RB_PERMANENT_ID_LABEL;
    const CRB: &str = names::CRB_PERMANENT_ID_LABEL;

    #[test]
    fn reports_carry_a_works_metadata_and_status_without_its_manifests() {
        let mut writer = Writer::<Work>::default();
        let store = writer.as_reader();
        let index = WorkIndex::default();
        let mut a = work("karmada-es-a", "w", &[(RB, "one")]);
        a.spec =
            serde_json::from_value(serde_json::json!({"workload": {"manifests": [{"kind": "Deployment"}]}})).unwrap();
        a.status = serde_json::from_value(serde_json::json!({"conditions": [{
            "type": "Applied", "status": "True", "reason": "AppliedSuccessful", "message": "",
            "lastTransitionTime": "2026-01-01T00:00:00Z", "observedGeneration": 3,
        }]}))
        .unwrap();
        let other = work("karmada-es-b", "w", &[(RB, "two")]);
        apply(&mut writer, &index, &a, false);
        apply(&mut writer, &index, &other, false);
        let reports = index.reports_of_binding(&store, RB, "one");
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].metadata.namespace.as_deref(), Some("karmada-es-a"));
        assert_eq!(reports[0].status, a.status);
        assert!(index.reports_of_binding(&store, RB, "three").is_empty());
    }

    #[test]
    fn works_are_found_by_their_binding_until_relabelled_or_deleted() {
        let mut writer = Writer::<Work>::default();
        let store = writer.as_reader();
        let index = WorkIndex::default();
        let a1 = work("karmada-es-a", "w", &[(RB, "one")]);
        let b1 = work("karmada-es-b", "w", &[(RB, "one")]);
        let other = work("karmada-es-a", "x", &[(RB, "two")]);
        let cluster = work("karmada-es-a", "c", &[(CRB, "one")]);
        for w in [&a1, &b1, &other, &cluster] {
            apply(&mut writer, &index, w, false);
        }
        assert_eq!(names(&index.of_binding(&store, RB, "one")), ["karmada-es-a/w", "karmada-es-b/w"]);
        assert_eq!(names(&index.of_binding(&store, RB, "two")), ["karmada-es-a/x"]);
        // The same id under the other binding kind's label is another binding.
        assert_eq!(names(&index.of_binding(&store, CRB, "one")), ["karmada-es-a/c"]);
        assert!(index.of_binding(&store, RB, "three").is_empty());

        // A Work whose label changed moves to the other binding.
        let b1_moved = work("karmada-es-b", "w", &[(RB, "two")]);
        apply(&mut writer, &index, &b1_moved, false);
        assert_eq!(names(&index.of_binding(&store, RB, "one")), ["karmada-es-a/w"]);
        assert_eq!(names(&index.of_binding(&store, RB, "two")), ["karmada-es-a/x", "karmada-es-b/w"]);

        // One that lost the label belongs to none.
        apply(&mut writer, &index, &work("karmada-es-a", "x", &[]), false);
        assert_eq!(names(&index.of_binding(&store, RB, "two")), ["karmada-es-b/w"]);

        apply(&mut writer, &index, &a1, true);
        assert!(index.of_binding(&store, RB, "one").is_empty());
        assert_eq!(names(&index.of_binding(&store, RB, "two")), ["karmada-es-b/w"]);
    }

    #[test]
    fn namespace_sync_works_are_found_by_name() {
        let mut writer = Writer::<Work>::default();
        let store = writer.as_reader();
        let index = WorkIndex::default();
        let sync = names::NAMESPACE_SYNC_LABEL;
        for w in [
            work("karmada-es-a", "ns-web", &[(sync, "u1")]),
            work("karmada-es-b", "ns-web", &[(sync, "u1")]),
            work("karmada-es-a", "ns-db", &[(sync, "u2")]),
            // Same name, but not made by the namespace sync.
            work("karmada-es-c", "ns-web", &[]),
        ] {
            apply(&mut writer, &index, &w, false);
        }
        assert_eq!(names(&index.namespace_sync(&store, "ns-web")), ["karmada-es-a/ns-web", "karmada-es-b/ns-web"]);
        apply(&mut writer, &index, &work("karmada-es-b", "ns-web", &[(sync, "u1")]), true);
        assert_eq!(names(&index.namespace_sync(&store, "ns-web")), ["karmada-es-a/ns-web"]);
    }

    #[test]
    fn a_work_the_cache_dropped_without_an_event_is_not_found_and_is_forgotten() {
        let mut writer = Writer::<Work>::default();
        let store = writer.as_reader();
        let index = WorkIndex::default();
        let gone = work("karmada-es-a", "w", &[(RB, "one")]);
        let kept = work("karmada-es-b", "w", &[(RB, "one")]);
        apply(&mut writer, &index, &gone, false);
        apply(&mut writer, &index, &kept, false);
        // A relist that no longer has `gone` replaces the cache; the follower reports only what is listed.
        writer.apply_watcher_event(&Event::<Work>::Init);
        writer.apply_watcher_event(&Event::InitApply(kept.clone()));
        writer.apply_watcher_event(&Event::<Work>::InitDone);
        index.update(&kept, false);
        assert_eq!(names(&index.of_binding(&store, RB, "one")), ["karmada-es-b/w"]);
        let inner = index.inner.lock().unwrap();
        assert!(!inner.tags.contains_key(&key_of(&gone)));
        assert_eq!(inner.works[&Tag::Binding(RB, "one".into())].len(), 1);
    }
}
