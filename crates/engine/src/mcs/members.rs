//! Watches in members: the EndpointSlices kube's endpointslice controller keeps, in members
//! that export or provide a Service, and the ServiceExports of members that were given one (the
//! CRD may be missing elsewhere). Started when a pass first needs them, stopped when none does.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use futures::FutureExt;
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject};
use kube::runtime::reflector::Store;
use kube::runtime::watcher;
use tokio::task::JoinHandle;

use super::kinds;
use crate::context::{Engine, follow_config, follow_dynamic};

/// One member's watches.
struct Member {
    /// The Cluster's uid and generation the watches were started for: a re-joined or edited
    /// Cluster (new endpoint or credentials) gets new watches.
    spec_key: (Option<String>, Option<i64>),
    slices: Store<EndpointSlice>,
    exports: Option<Store<DynamicObject>>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Member {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

#[derive(Default)]
pub struct Watches {
    members: Mutex<HashMap<String, Member>>,
}

impl Watches {
    /// Watches exactly the `wanted` members (Push mode ones), with ServiceExports in
    /// `exporting` ones.
    pub async fn keep(&self, engine: &Arc<Engine>, wanted: &BTreeSet<String>, exporting: &BTreeSet<String>) {
        let clusters = engine.caches.clusters.state();
        let spec_key = |name: &str| {
            let c = clusters.iter().find(|c| c.name_any() == name);
            c.map(|c| (c.uid(), c.metadata.generation))
        };
        self.lock().retain(|name, m| {
            wanted.contains(name)
                && (m.exports.is_some() || !exporting.contains(name))
                && spec_key(name).as_ref() == Some(&m.spec_key)
        });
        for name in wanted {
            if self.lock().contains_key(name) || !kinds::is_push(engine, name) {
                continue;
            }
            let Some(key) = spec_key(name) else { continue };
            let cluster = clusters.iter().find(|c| c.name_any() == *name);
            let client = match engine.members.client_for(engine, name, cluster.map(|c| c.as_ref())).await {
                Ok(c) => c,
                Err(e) => {
                    tracing::debug!(cluster = %name, error = %e, "no client for the member's EndpointSlices yet");
                    continue;
                }
            };
            let wake = engine.mcs_wake.clone();
            let selector = format!("{}={}", kinds::LABEL_MANAGED_BY, kinds::MANAGED_BY_KUBE);
            // Registered under the lock a pass reads the member with, so a pass the first list
            // wakes finds the member's stores (else it would keep stale slices until the next
            // change in that member).
            let mut members = self.lock();
            let (slices, task) = follow_config(
                Api::<EndpointSlice>::all(client.clone()),
                watcher::Config::default().labels(&selector),
                move |_: &EndpointSlice, _| wake.notify_one(),
            );
            let mut tasks = vec![task];
            let exports = exporting.contains(name).then(|| {
                let wake = engine.mcs_wake.clone();
                let resource = kinds::service_export();
                let (store, task) = follow_dynamic(
                    Api::all_with(client.clone(), &resource),
                    resource,
                    watcher::Config::default(),
                    move |_: &DynamicObject, _| wake.notify_one(),
                );
                tasks.push(task);
                store
            });
            members.insert(name.clone(), Member { spec_key: key, slices, exports, tasks });
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Member>> {
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The member's slices of the Service `namespace/name`, once its watch has listed them;
    /// None before that (a pass then keeps what it made from them).
    pub fn slices_of(&self, cluster: &str, namespace: &str, name: &str) -> Option<Vec<Arc<EndpointSlice>>> {
        let members = self.lock();
        let store = &members.get(cluster)?.slices;
        listed(store)?;
        Some(
            store
                .state()
                .into_iter()
                .filter(|s| {
                    s.namespace().as_deref() == Some(namespace)
                        && s.labels().get(kinds::LABEL_SERVICE_NAME).map(String::as_str) == Some(name)
                })
                .collect(),
        )
    }

    /// The member's ServiceExports (namespace, name) once listed; None before that.
    pub fn exports_of(&self, cluster: &str) -> Option<Vec<(String, String)>> {
        let members = self.lock();
        let store = members.get(cluster)?.exports.as_ref()?;
        listed(store)?;
        Some(
            store
                .state()
                .iter()
                .filter(|e| e.metadata.deletion_timestamp.is_none())
                .map(|e| (e.namespace().unwrap_or_default(), e.name_any()))
                .collect(),
        )
    }
}

/// Some once the store holds its first list.
fn listed<K>(store: &Store<K>) -> Option<()>
where
    K: kube::Resource + Clone + 'static,
    K::DynamicType: Eq + std::hash::Hash + Clone,
{
    store.wait_until_ready().now_or_never()?.ok()
}
