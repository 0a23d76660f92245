//! The namespaces this server knows to be active, so that creating an object does not read its
//! namespace from the store every time; kube-apiserver's NamespaceLifecycle admission answers
//! from its informer cache the same way.
//!
//! Only "active" is trusted. A namespace the cache does not know, or knows as terminating, is
//! read from the store, so a namespace created a moment ago is found and a refusal is always
//! current. A namespace deleted through this server is read live for a while after the DELETE
//! (kube's force-live-lookup), because the cache learns of the deletion only when the watch
//! delivers it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use karmadactl_store::{Event, EventKind};
use serde_json::Value;

use crate::loops::namespace::PREFIX;
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

/// How long after a DELETE a namespace is read live; kube-apiserver uses the same 30 s.
const LIVE_LOOKUP_FOR: Duration = Duration::from_secs(30);

#[derive(Default)]
pub struct ActiveNamespaces {
    active: RwLock<HashSet<String>>,
    live_until: Mutex<HashMap<String, Instant>>,
}

impl ActiveNamespaces {
    /// Whether `name` is known to accept new content without reading the store.
    pub fn known_active(&self, name: &str) -> bool {
        {
            let mut live = self.live_until.lock().unwrap_or_else(|p| p.into_inner());
            match live.get(name) {
                Some(until) if *until > Instant::now() => return false,
                Some(_) => {
                    live.remove(name);
                }
                None => {}
            }
        }
        self.active.read().unwrap_or_else(|p| p.into_inner()).contains(name)
    }

    /// A DELETE of `name` is under way here: read it live until the cache has surely caught up.
    pub fn deleting(&self, name: &str) {
        let now = Instant::now();
        let mut live = self.live_until.lock().unwrap_or_else(|p| p.into_inner());
        live.retain(|_, until| *until > now);
        live.insert(name.to_string(), now + LIVE_LOOKUP_FOR);
        drop(live);
        self.active.write().unwrap_or_else(|p| p.into_inner()).remove(name);
    }

    fn replace(&self, names: HashSet<String>) {
        *self.active.write().unwrap_or_else(|p| p.into_inner()) = names;
    }

    fn set(&self, name: &str, active: bool) {
        let mut set = self.active.write().unwrap_or_else(|p| p.into_inner());
        if active {
            set.insert(name.to_string());
        } else {
            set.remove(name);
        }
    }
}

/// Keeps `state.namespaces` current (run with `loops::follow::run` over the namespaces'
/// prefix, `loops::namespace::PREFIX`).
pub struct Follow;

impl crate::loops::follow::Follower for Follow {
    async fn resync(&self, state: &Arc<ApiState>, objects: Vec<Value>) {
        let names = objects
            .iter()
            .filter(|o| !object::marked_for_deletion(o))
            .filter_map(|o| object::meta_str(o, "name").map(str::to_string))
            .collect();
        state.namespaces.replace(names);
    }

    async fn event(&self, state: &Arc<ApiState>, event: Event) {
        let Some(name) = event.kv.key.strip_prefix(PREFIX) else { return };
        let active = match event.kind {
            EventKind::Deleted => false,
            _ => store_access::decode(&event.kv).is_ok_and(|o| !object::marked_for_deletion(&o)),
        };
        state.namespaces.set(name, active);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_active_namespaces_outside_a_delete_are_known() {
        let cache = ActiveNamespaces::default();
        assert!(!cache.known_active("a"), "unknown until the watch reports it");
        cache.replace(["a".to_string(), "b".to_string()].into());
        assert!(cache.known_active("a") && cache.known_active("b"));
        cache.set("b", false);
        assert!(!cache.known_active("b"), "terminating");

        cache.deleting("a");
        assert!(!cache.known_active("a"));
        // A late event from before the DELETE does not make it trusted again.
        cache.set("a", true);
        assert!(!cache.known_active("a"));
        // Once the live-lookup window has passed, the cache answers again.
        cache.live_until.lock().unwrap().insert("a".into(), Instant::now() - Duration::from_secs(1));
        assert!(cache.known_active("a"));
        assert!(cache.live_until.lock().unwrap().is_empty(), "expired windows are dropped");
    }
}
