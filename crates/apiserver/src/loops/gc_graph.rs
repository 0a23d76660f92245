//! The garbage collector's view of ownership: every object's uid, ownerReferences and deletion
//! state, plus the uids of owners seen deleted (tombstones). `plan` turns one snapshot into the
//! writes that move the store toward kube-controller-manager's rules.
//!
//! An owner counts as gone only when this graph saw an object with that uid and then saw it go
//! (a tombstone). A reference to a uid never seen (a wrong uid under a live owner's name, say)
//! proves nothing, so its dependent is never deleted for it.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::handlers::resource::propagation::{FOREGROUND_FINALIZER, ORPHAN_FINALIZER, Propagation};
use crate::storage::object;

#[derive(Debug, Clone, PartialEq)]
pub struct OwnerRef {
    pub uid: String,
    pub block: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub key: String,
    pub uid: String,
    pub rev: i64,
    pub owners: Vec<OwnerRef>,
    pub finalizers: Vec<String>,
    pub deleting: bool,
}

/// The parts of a stored object the graph reads; the rest of the object is skipped without
/// being built, as every object is read at start and every write after.
#[derive(serde::Deserialize)]
struct StoredObject {
    metadata: StoredMeta,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredMeta {
    uid: Option<String>,
    owner_references: Option<Vec<StoredOwner>>,
    finalizers: Option<Vec<String>>,
    #[serde(default)]
    deletion_timestamp: Present,
}

/// Whether a field is there at all, as the rest of the server reads `deletionTimestamp` (an
/// `Option` would take a null for absent).
#[derive(Default)]
struct Present(bool);

impl<'de> serde::Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Present(true))
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredOwner {
    uid: Option<String>,
    block_owner_deletion: Option<bool>,
}

impl Node {
    /// The node of an object as the store holds it (`rev` is the store's revision of it);
    /// `None` for an object without uid.
    pub fn from_stored(key: &str, bytes: &[u8], rev: i64) -> Option<Node> {
        let Ok(StoredObject { metadata: meta }) = serde_json::from_slice::<StoredObject>(bytes) else {
            // Not shaped as the API server writes objects: read it as any JSON.
            let obj = serde_json::from_slice::<Value>(bytes).ok()?;
            return Node::from_object(key, &object::with_resource_version(obj, rev));
        };
        let uid = meta.uid.filter(|u| !u.is_empty())?;
        let owners = meta
            .owner_references
            .unwrap_or_default()
            .into_iter()
            .filter_map(|r| {
                let uid = r.uid.filter(|u| !u.is_empty())?;
                Some(OwnerRef { uid, block: r.block_owner_deletion.unwrap_or(false) })
            })
            .collect();
        Some(Node {
            key: key.to_string(),
            uid,
            rev,
            owners,
            finalizers: meta.finalizers.unwrap_or_default(),
            deleting: meta.deletion_timestamp.0,
        })
    }

    pub fn from_object(key: &str, obj: &Value) -> Option<Node> {
        let uid = object::meta_str(obj, "uid").filter(|u| !u.is_empty())?.to_string();
        let rev = object::meta_str(obj, "resourceVersion").and_then(object::parse_resource_version)?;
        let meta = obj.get("metadata")?;
        let owners = meta
            .get("ownerReferences")
            .and_then(Value::as_array)
            .map(|refs| {
                refs.iter()
                    .filter_map(|r| {
                        let uid = r.get("uid").and_then(Value::as_str).filter(|u| !u.is_empty())?;
                        let block = r.get("blockOwnerDeletion").and_then(Value::as_bool).unwrap_or(false);
                        Some(OwnerRef { uid: uid.to_string(), block })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(Node {
            key: key.to_string(),
            uid,
            rev,
            owners,
            finalizers: object::finalizers(obj),
            deleting: meta.get("deletionTimestamp").is_some(),
        })
    }

    /// Whether this object's deletion can change the collector's plan: it has owners, or it
    /// was being deleted (an owner in foreground or orphan deletion). Writes are judged by
    /// [`Graph::needs_plan`].
    pub fn matters(&self) -> bool {
        !self.owners.is_empty() || self.deleting
    }

    fn waits_for_dependents(&self) -> bool {
        self.deleting && self.finalizers.iter().any(|f| f == FOREGROUND_FINALIZER)
    }

    fn orphans_dependents(&self) -> bool {
        self.deleting && self.finalizers.iter().any(|f| f == ORPHAN_FINALIZER)
    }
}

/// One write the collector makes; each carries the uid and revision it was planned from, so a
/// changed or recreated object is left alone.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Delete { key: String, uid: String, rev: i64, policy: Propagation },
    DropOwners { key: String, uid: String, rev: i64, owners: Vec<String> },
    RemoveFinalizer { key: String, uid: String, rev: i64, finalizer: &'static str },
    ForgetTombstone { uid: String },
}

/// How long a tombstone outlives its owner's last dependent. A controller working from a stale
/// cache may still create a dependent of an owner just deleted (a ReplicaSet replacing the pods
/// the collector removed); kube-controller-manager's collector finds those by looking the owner
/// up, this one by still remembering it. Forgetting at once left such a dependent referencing a
/// uid never seen, which proves nothing, so it stayed.
pub const TOMBSTONE_RETENTION: Duration = Duration::from_secs(300);

#[derive(Debug)]
pub struct Graph {
    pub nodes: HashMap<String, Node>,
    uid_by_key: HashMap<String, String>,
    /// The uids of the objects that reference each owner uid, so that finding an owner's
    /// dependents (on every deletion) does not walk the whole graph.
    dependents_of: HashMap<String, HashSet<String>>,
    pub tombstones: HashSet<String>,
    /// When each tombstone lost its last dependent (or was read back at start).
    unreferenced_since: HashMap<String, Instant>,
    retention: Duration,
}

impl Default for Graph {
    fn default() -> Self {
        Self {
            nodes: HashMap::new(),
            uid_by_key: HashMap::new(),
            dependents_of: HashMap::new(),
            tombstones: HashSet::new(),
            unreferenced_since: HashMap::new(),
            retention: TOMBSTONE_RETENTION,
        }
    }
}

impl Graph {
    pub fn upsert(&mut self, node: Node) {
        if let Some(old_uid) = self.uid_by_key.insert(node.key.clone(), node.uid.clone())
            && old_uid != node.uid
        {
            self.take(&old_uid);
        }
        self.take(&node.uid);
        for r in &node.owners {
            self.dependents_of.entry(r.uid.clone()).or_default().insert(node.uid.clone());
            self.unreferenced_since.remove(&r.uid);
        }
        self.nodes.insert(node.uid.clone(), node);
    }

    /// Removes the node `uid` and its references from the index.
    fn take(&mut self, uid: &str) {
        let Some(old) = self.nodes.remove(uid) else {
            return;
        };
        for r in &old.owners {
            if let Some(deps) = self.dependents_of.get_mut(&r.uid) {
                deps.remove(uid);
                if deps.is_empty() {
                    self.dependents_of.remove(&r.uid);
                    if self.tombstones.contains(&r.uid) {
                        self.unreferenced_since.insert(r.uid.clone(), Instant::now());
                    }
                }
            }
        }
    }

    /// Whether writing `node` can change the plan, asked before it is stored. A plan depends on
    /// each object's owners, finalizers and deletion, and on whether its owners are present,
    /// gone or being deleted. So a write that changes none of those (a status update, most
    /// spec updates) needs no new plan, and neither does an owned object whose owners are all
    /// present and not being deleted: planning walks the whole graph, and most writes at scale
    /// are to owned objects. A case missed here costs only time, as the collector also plans
    /// every few seconds.
    pub fn needs_plan(&self, node: &Node) -> bool {
        let old = self.nodes.get(&node.uid);
        if let Some(o) = old
            && o.owners == node.owners
            && o.finalizers == node.finalizers
            && o.deleting == node.deleting
        {
            return false;
        }
        if node.deleting || old.is_some_and(|o| o.deleting) {
            return true;
        }
        // Recreated under the same name: the object it replaces leaves the graph.
        if self.uid_by_key.get(&node.key).is_some_and(|u| *u != node.uid) {
            return true;
        }
        old.into_iter()
            .flat_map(|o| &o.owners)
            .chain(&node.owners)
            .any(|r| self.nodes.get(&r.uid).is_none_or(|owner| owner.deleting))
    }

    /// Removes the object `uid` deleted from `key`; returns the uid when something still
    /// references it, which makes it a tombstone.
    pub fn remove(&mut self, key: &str, uid: &str) -> Option<String> {
        if self.uid_by_key.get(key).is_some_and(|u| u == uid) {
            self.uid_by_key.remove(key);
        }
        self.take(uid);
        let uid = uid.to_string();
        if self.is_referenced(&uid) {
            self.tombstones.insert(uid.clone());
            return Some(uid);
        }
        None
    }

    /// Replaces the objects with a fresh listing; referenced objects that vanished meanwhile
    /// become tombstones (they were seen, and they are gone). Returns the new tombstones.
    pub fn replace(&mut self, nodes: Vec<Node>) -> Vec<String> {
        let old: Vec<String> = self.nodes.keys().cloned().collect();
        self.nodes.clear();
        self.uid_by_key.clear();
        self.dependents_of.clear();
        for n in nodes {
            self.upsert(n);
        }
        let gone: Vec<String> =
            old.into_iter().filter(|u| !self.nodes.contains_key(u) && self.is_referenced(u)).collect();
        self.tombstones.extend(gone.iter().cloned());
        let now = Instant::now();
        let unreferenced: Vec<String> = self.tombstones.iter().filter(|u| !self.is_referenced(u)).cloned().collect();
        for uid in unreferenced {
            self.unreferenced_since.entry(uid).or_insert(now);
        }
        gone
    }

    /// Drops a tombstone the plan said to forget.
    pub fn forget(&mut self, uid: &str) {
        self.tombstones.remove(uid);
        self.unreferenced_since.remove(uid);
    }

    fn is_referenced(&self, uid: &str) -> bool {
        self.dependents_of.get(uid).is_some_and(|deps| !deps.is_empty())
    }

    fn dependents<'a>(&'a self, uid: &'a str) -> impl Iterator<Item = (&'a Node, &'a OwnerRef)> + 'a {
        self.dependents_of
            .get(uid)
            .into_iter()
            .flatten()
            .filter_map(|d| self.nodes.get(d))
            .filter_map(move |n| n.owners.iter().find(|o| o.uid == uid).map(|o| (n, o)))
    }

    /// The writes this snapshot calls for.
    pub fn plan(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        for node in self.nodes.values() {
            self.plan_owner(node, &mut actions);
            self.plan_dependent(node, &mut actions);
        }
        for uid in &self.tombstones {
            let unreferenced = self.unreferenced_since.get(uid).is_none_or(|t| t.elapsed() >= self.retention);
            if !self.is_referenced(uid) && unreferenced {
                actions.push(Action::ForgetTombstone { uid: uid.clone() });
            }
        }
        actions
    }

    /// An owner being deleted in the foreground or orphaning its dependents.
    fn plan_owner(&self, node: &Node, actions: &mut Vec<Action>) {
        let (key, uid, rev) = (node.key.clone(), node.uid.clone(), node.rev);
        if node.orphans_dependents() {
            let mut any = false;
            for (dep, _) in self.dependents(&node.uid) {
                any = true;
                actions.push(Action::DropOwners {
                    key: dep.key.clone(),
                    uid: dep.uid.clone(),
                    rev: dep.rev,
                    owners: vec![node.uid.clone()],
                });
            }
            if !any {
                actions.push(Action::RemoveFinalizer { key, uid, rev, finalizer: ORPHAN_FINALIZER });
            }
        } else if node.waits_for_dependents() && !self.dependents(&node.uid).any(|(_, r)| r.block) {
            actions.push(Action::RemoveFinalizer { key, uid, rev, finalizer: FOREGROUND_FINALIZER });
        }
    }

    /// A dependent whose owners are all gone or waiting for it is deleted; one that still has a
    /// live owner only loses its references to the others.
    fn plan_dependent(&self, node: &Node, actions: &mut Vec<Action>) {
        let mut released = Vec::new();
        let mut waiting = false;
        let mut live = false;
        for r in &node.owners {
            match self.nodes.get(&r.uid) {
                Some(owner) if owner.waits_for_dependents() => {
                    waiting = true;
                    released.push(r.uid.clone());
                }
                // An owner orphaning its dependents removes its own reference.
                Some(_) => live = true,
                None if self.tombstones.contains(&r.uid) => released.push(r.uid.clone()),
                None => live = true,
            }
        }
        if released.is_empty() {
            return;
        }
        let (key, uid, rev) = (node.key.clone(), node.uid.clone(), node.rev);
        if live {
            actions.push(Action::DropOwners { key, uid, rev, owners: released });
        } else if !node.deleting {
            let has_dependents = self.dependents(&node.uid).next().is_some();
            let policy = if waiting && has_dependents { Propagation::Foreground } else { Propagation::Background };
            actions.push(Action::Delete { key, uid, rev, policy });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(uid: &str, owners: &[(&str, bool)], finalizers: &[&str], deleting: bool) -> Node {
        Node {
            key: format!("/registry/core/configmaps/default/{uid}"),
            uid: uid.into(),
            rev: 1,
            owners: owners.iter().map(|(u, b)| OwnerRef { uid: u.to_string(), block: *b }).collect(),
            finalizers: finalizers.iter().map(|f| f.to_string()).collect(),
            deleting,
        }
    }

    #[test]
    fn stored_objects_read_as_their_json() {
        let key = "/registry/apps/deployments/default/web";
        let objects = [
            serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {
                "name": "web", "uid": "u1", "finalizers": ["a/b"], "deletionTimestamp": "2026-01-01T00:00:00Z",
                "ownerReferences": [{"uid": "o1", "blockOwnerDeletion": true}, {"uid": "o2"}, {"uid": ""}]},
                "spec": {"replicas": 2, "template": {"metadata": {"uid": "not-this-one"}}}}),
            serde_json::json!({"metadata": {"name": "plain", "uid": "u2"}, "data": {"k": "v"}}),
            serde_json::json!({"metadata": {"name": "null-deletion", "uid": "u4", "deletionTimestamp": null}}),
            // Shaped differently from what the API server writes: read as any JSON.
            serde_json::json!({"metadata": {"uid": "u3", "ownerReferences": [{"uid": 7}, {"uid": "o3"}]}}),
        ];
        for obj in objects {
            let bytes = serde_json::to_vec(&obj).expect("json");
            let expected = Node::from_object(key, &object::with_resource_version(obj, 42));
            assert!(expected.is_some());
            assert_eq!(Node::from_stored(key, &bytes, 42), expected);
        }
        assert_eq!(Node::from_stored(key, br#"{"metadata": {"name": "no-uid"}}"#, 1), None);
        assert_eq!(Node::from_stored(key, b"not json", 1), None);
    }

    fn deletes(g: &Graph) -> Vec<String> {
        let mut out: Vec<String> = g
            .plan()
            .into_iter()
            .filter_map(|a| match a {
                Action::Delete { uid, .. } => Some(uid),
                _ => None,
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn only_dependents_of_a_seen_and_deleted_owner_are_deleted() {
        let mut g = Graph::default();
        g.upsert(node("owner", &[], &[], false));
        g.upsert(node("dep", &[("owner", false)], &[], false));
        g.upsert(node("stranger", &[("never-seen", false)], &[], false));
        g.upsert(node("shared", &[("owner", false), ("other", false)], &[], false));
        g.upsert(node("other", &[], &[], false));
        assert!(deletes(&g).is_empty());
        assert_eq!(g.remove("/registry/core/configmaps/default/owner", "owner"), Some("owner".into()));
        assert_eq!(deletes(&g), vec!["dep".to_string()]);
        let drops: Vec<_> = g.plan().into_iter().filter(|a| matches!(a, Action::DropOwners { .. })).collect();
        assert_eq!(drops.len(), 1, "the shared dependent only loses its dead owner: {drops:?}");
    }

    #[test]
    fn a_dependent_created_after_its_owner_went_is_still_collected() {
        // A ReplicaSet deleted, its pod collected, then a replacement pod created from a stale
        // cache: the tombstone is still there, so the new pod goes too.
        let mut g = Graph::default();
        g.upsert(node("rs", &[], &[], false));
        g.upsert(node("pod-1", &[("rs", true)], &[], false));
        assert_eq!(g.remove("/registry/core/configmaps/default/rs", "rs"), Some("rs".into()));
        assert_eq!(deletes(&g), vec!["pod-1".to_string()]);
        g.remove("/registry/core/configmaps/default/pod-1", "pod-1");
        assert!(!g.plan().iter().any(|a| matches!(a, Action::ForgetTombstone { .. })), "kept for a while");
        g.upsert(node("pod-2", &[("rs", true)], &[], false));
        assert_eq!(deletes(&g), vec!["pod-2".to_string()]);
        g.remove("/registry/core/configmaps/default/pod-2", "pod-2");
        g.retention = Duration::ZERO;
        assert!(g.plan().iter().any(|a| matches!(a, Action::ForgetTombstone { uid } if uid == "rs")));
        g.forget("rs");
        assert!(g.tombstones.is_empty() && g.unreferenced_since.is_empty());
    }

    #[test]
    fn foreground_owner_waits_for_blocking_dependents_only() {
        let mut g = Graph::default();
        g.upsert(node("owner", &[], &[FOREGROUND_FINALIZER], true));
        g.upsert(node("blocker", &[("owner", true)], &["example.com/hold"], true));
        g.upsert(node("loose", &[("owner", false)], &[], false));
        let plan = g.plan();
        assert!(!plan.iter().any(|a| matches!(a, Action::RemoveFinalizer { .. })), "{plan:?}");
        assert_eq!(deletes(&g), vec!["loose".to_string()]);
        g.remove("/registry/core/configmaps/default/blocker", "blocker");
        assert!(g.plan().iter().any(|a| matches!(a, Action::RemoveFinalizer { uid, .. } if uid == "owner")));
    }

    #[test]
    fn orphaning_owner_releases_dependents_then_itself() {
        let mut g = Graph::default();
        g.upsert(node("owner", &[], &[ORPHAN_FINALIZER], true));
        g.upsert(node("dep", &[("owner", true)], &[], false));
        let plan = g.plan();
        assert!(plan.iter().any(|a| matches!(a, Action::DropOwners { uid, .. } if uid == "dep")), "{plan:?}");
        assert!(deletes(&g).is_empty());
        g.upsert(node("dep", &[], &[], false));
        assert!(g.plan().iter().any(|a| matches!(a, Action::RemoveFinalizer { uid, .. } if uid == "owner")));
    }

    #[test]
    fn the_dependents_index_follows_every_change() {
        let key = |uid: &str| format!("/registry/core/configmaps/default/{uid}");
        let mut g = Graph::default();
        g.upsert(node("a", &[], &[], false));
        g.upsert(node("b", &[], &[], false));
        g.upsert(node("dep", &[("a", false)], &[], false));
        assert!(g.is_referenced("a") && !g.is_referenced("b"));
        // A rewrite that moves the reference from one owner to the other.
        g.upsert(node("dep", &[("b", false)], &[], false));
        assert!(!g.is_referenced("a") && g.is_referenced("b"));
        assert_eq!(g.remove(&key("a"), "a"), None, "nothing references the deleted owner any more");
        // Recreated under the same name with a new uid: the old object's references go too.
        g.upsert(Node { key: key("dep"), ..node("dep2", &[], &[], false) });
        assert!(!g.is_referenced("b"));
        assert_eq!(g.remove(&key("b"), "b"), None);
        // A fresh listing rebuilds the index from what it holds.
        g.replace(vec![node("c", &[], &[], false), node("d", &[("c", true)], &[], false)]);
        assert!(g.is_referenced("c"));
        assert_eq!(g.dependents("c").map(|(n, r)| (n.uid.as_str(), r.block)).collect::<Vec<_>>(), [("d", true)]);
        assert_eq!(g.remove(&key("d"), "d"), None);
        assert!(!g.is_referenced("c") && g.dependents_of.is_empty());
    }

    #[test]
    fn only_writes_that_can_change_the_plan_need_one() {
        let mut g = Graph::default();
        let owner = node("owner", &[], &[], false);
        assert!(!g.needs_plan(&owner), "an object without owners, not being deleted");
        g.upsert(owner);

        // A dependent of a live owner, then a status write to it (a new revision only).
        let dep = node("dep", &[("owner", true)], &[], false);
        assert!(!g.needs_plan(&dep), "a new dependent of a live owner");
        g.upsert(dep.clone());
        assert!(!g.needs_plan(&Node { rev: 2, ..dep.clone() }), "a write that changes no ownership");

        // A dependent of an owner never seen, or gone, may be garbage.
        assert!(g.needs_plan(&node("stray", &[("elsewhere", false)], &[], false)));
        // Letting go of a live owner changes no plan; being deleted does.
        assert!(!g.needs_plan(&node("dep", &[], &[], false)));
        assert!(g.needs_plan(&node("dep", &[("owner", true)], &[], true)));

        // The owner is being deleted: its dependents and the owner itself matter now.
        let deleting = node("owner", &[], &[FOREGROUND_FINALIZER], true);
        assert!(g.needs_plan(&deleting));
        g.upsert(deleting);
        assert!(g.needs_plan(&node("late", &[("owner", true)], &[], false)), "a new dependent of a deleting owner");
        assert!(!g.needs_plan(&Node { rev: 3, ..dep }), "an unchanged dependent still needs none");
    }
}
