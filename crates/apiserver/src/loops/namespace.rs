//! kube-controller-manager's namespace controller: a namespace being deleted is emptied (every
//! namespaced object in it is deleted, honouring the objects' own finalizers), then its
//! `kubernetes` spec finalizer is removed, and the namespace goes once nothing else holds it.
//!
//! It follows namespaces in the store and works on the terminating ones, retrying every second
//! while content remains (objects waiting for their own finalizers). Every write is conditional
//! on the revision read, so a namespace recreated meanwhile is never touched.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use karmadactl_apimachinery::ApiError;
use karmadactl_store::{Event, EventKind};
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::handlers::resource::delete::{Target, delete_one};
use crate::state::ApiState;
use crate::{storage::object, storage::store_access};

use super::follow::{self, Follower};

pub const PREFIX: &str = "/registry/core/namespaces/";
/// The spec finalizer this controller owns.
pub const FINALIZER: &str = "kubernetes";
/// How often terminating namespaces with content left are looked at again.
const RETRY: Duration = Duration::from_secs(1);

/// Runs until the store closes.
pub async fn run(state: Arc<ApiState>) {
    let terminating = Arc::new(Terminating::default());
    let worker = tokio::spawn(work(state.clone(), terminating.clone()));
    let (tx, _rx) = tokio::sync::oneshot::channel();
    follow::run(state, PREFIX.into(), terminating, tx).await;
    worker.abort();
}

/// Names of the namespaces marked for deletion, as last seen.
#[derive(Default)]
struct Terminating {
    names: Mutex<BTreeSet<String>>,
    wake: Notify,
}

fn is_terminating(obj: &Value) -> bool {
    object::marked_for_deletion(obj) && object::namespace_finalizers(obj).iter().any(|f| f == FINALIZER)
}

impl Follower for Arc<Terminating> {
    async fn resync(&self, _state: &Arc<ApiState>, objects: Vec<Value>) {
        let names = objects
            .iter()
            .filter(|o| is_terminating(o))
            .filter_map(|o| object::meta_str(o, "name").map(str::to_string))
            .collect();
        *self.names.lock().unwrap_or_else(|p| p.into_inner()) = names;
        self.wake.notify_one();
    }

    async fn event(&self, _state: &Arc<ApiState>, event: Event) {
        let Some(name) = event.kv.key.strip_prefix(PREFIX).map(str::to_string) else { return };
        let terminating = match event.kind {
            EventKind::Deleted => false,
            _ => store_access::decode(&event.kv).is_ok_and(|o| is_terminating(&o)),
        };
        let mut names = self.names.lock().unwrap_or_else(|p| p.into_inner());
        if terminating {
            names.insert(name);
            drop(names);
            self.wake.notify_one();
        } else {
            names.remove(&name);
        }
    }
}

async fn work(state: Arc<ApiState>, terminating: Arc<Terminating>) {
    loop {
        let names: Vec<String> = terminating.names.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect();
        for name in &names {
            if let Err(e) = finish(&state, name).await {
                tracing::warn!(namespace = %name, error = %e.message, "namespace controller: cleanup failed; retrying");
            }
        }
        if names.is_empty() {
            terminating.wake.notified().await;
        } else {
            let _ = tokio::time::timeout(RETRY, terminating.wake.notified()).await;
        }
    }
}

/// Deletes what is left in `name`; once nothing is, removes the `kubernetes` finalizer.
async fn finish(state: &ApiState, name: &str) -> Result<(), ApiError> {
    let Some((ns, rev)) = store_access::get(state, "", "namespaces", None, name).await? else { return Ok(()) };
    if !is_terminating(&ns) {
        return Ok(());
    }
    if delete_content(state, name).await? > 0 {
        return Ok(());
    }
    let mut done = ns.clone();
    let rest: Vec<String> = object::namespace_finalizers(&ns).into_iter().filter(|f| f != FINALIZER).collect();
    done["spec"]["finalizers"] = json!(rest);
    let key = store_access::key("", "namespaces", None, name);
    let held = !rest.is_empty() || !object::finalizers(&done).is_empty();
    let result = if held {
        state.store.update(&key, object::to_stored_bytes(&done), rev).await.map(|_| ())
    } else {
        state.store.delete(&key, Some(rev)).await.map(|_| ())
    };
    match result {
        // Changed meanwhile: the event brings it back with fresh information.
        Ok(()) | Err(karmadactl_store::StoreError::Conflict { .. }) => Ok(()),
        Err(karmadactl_store::StoreError::NotFound { .. }) => Ok(()),
        Err(e) => Err(store_access::store_error(e, "", "namespaces", name)),
    }
}

/// Asks every namespaced object in `namespace` to go; returns how many are still there.
async fn delete_content(state: &ApiState, namespace: &str) -> Result<usize, ApiError> {
    let resources: BTreeSet<(String, String)> = {
        let registry = state.registry.read().unwrap_or_else(|p| p.into_inner());
        registry.resources().iter().filter(|d| d.namespaced).map(|d| (d.group.clone(), d.plural.clone())).collect()
    };
    let mut remaining = 0;
    for (group, plural) in &resources {
        let prefix = store_access::prefix(group, plural, Some(namespace));
        let (objects, _) = store_access::list_all(state, &prefix).await?;
        for obj in &objects {
            let Some(name) = object::meta_str(obj, "name") else { continue };
            if object::marked_for_deletion(obj) {
                remaining += 1;
                continue;
            }
            let target = Target { group, plural, ns: Some(namespace), name };
            match delete_one(state, &target, None, None, false).await {
                // Held by its own finalizers: it goes when they are done.
                Ok(after) if object::marked_for_deletion(&after) => remaining += 1,
                Ok(_) => {}
                Err(e) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(remaining)
}
