//! Clients for Push members (or an agent's one Pull member), kept per cluster while its
//! endpoint and credentials stay the same, and watchers on the kinds the engine applies there,
//! through which changes to Karmada's copies flow back into the Works' status.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::wellknown;
use kube::api::{ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use kube::{Client, ResourceExt};
use tokio::task::JoinHandle;

use crate::compact_store::CompactStore;
use crate::context::{Engine, WorkKey, follow_dynamic_compact};
use crate::names;

/// How long the changes a member reports of one Work's objects (and the Work's own applies)
/// are gathered before the Work's status is written (see `Queue::add_batched`).
pub(crate) const MEMBER_STATUS_BATCH: Duration = Duration::from_secs(1);

/// How long a member client is used before its credentials are read again.
const CREDENTIALS_TTL: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an apply waits for a member watcher's first list before it reads the object
/// itself. After a restart every Work is applied at once: one list per member and kind
/// instead of one read per object.
const FIRST_LIST_WAIT: Duration = Duration::from_secs(10);

struct Member {
    /// The Cluster's uid and generation the client was made for.
    spec_key: (String, Option<i64>),
    identity: String,
    checked: Instant,
    client: Client,
    watched: HashMap<GroupVersionKind, Watched>,
    /// Kinds whose first list did not come within [`FIRST_LIST_WAIT`]: later applies read
    /// objects themselves until it does, rather than each waiting again.
    slow_lists: HashSet<GroupVersionKind>,
}

impl Drop for Member {
    fn drop(&mut self) {
        for (_, w) in self.watched.drain() {
            w.task.abort();
        }
    }
}

/// A watcher on one kind in one member.
struct Watched {
    resource: ApiResource,
    /// Kept as JSON text: a member copy decoded is several times its size, and the engine
    /// holds one per propagated object (docs/performance.md, "Run: engine at scale after the
    /// restart's heap profile").
    store: CompactStore<DynamicObject>,
    task: JoinHandle<()>,
}

#[derive(Default)]
pub struct Members {
    members: Mutex<HashMap<String, Member>>,
    /// An agent's own member: its client is given, never built from plane secrets, and kinds
    /// are looked up in the member's discovery (the agent may not read the plane's).
    fixed: Option<(String, Client)>,
    /// Resources by kind, from the plane's discovery (the plane serves every kind it
    /// propagates).
    resources: Mutex<HashMap<GroupVersionKind, (ApiResource, bool)>>,
    /// Per cluster, held while its client is built.
    building: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Members {
    /// An agent's view: one member, reached with the client it was started with.
    pub fn fixed(cluster: &str, client: Client) -> Self {
        let member = Member {
            spec_key: Default::default(),
            identity: String::new(),
            checked: Instant::now(),
            client: client.clone(),
            watched: HashMap::new(),
            slow_lists: HashSet::new(),
        };
        Self {
            members: Mutex::new(HashMap::from([(cluster.to_string(), member)])),
            resources: Mutex::default(),
            building: Mutex::default(),
            fixed: Some((cluster.to_string(), client)),
        }
    }

    /// The client for the member `name`; the plane needs its Cluster to build one.
    pub async fn client_for(&self, engine: &Engine, name: &str, cluster: Option<&Cluster>) -> Result<Client, String> {
        if let Some((own, client)) = &self.fixed {
            return if own == name { Ok(client.clone()) } else { Err(format!("this agent serves {own}, not {name}")) };
        }
        match cluster {
            Some(c) => self.client(engine, c).await,
            None => Err(format!("the cluster {name} does not exist")),
        }
    }

    async fn client(&self, engine: &Engine, cluster: &Cluster) -> Result<Client, String> {
        let name = cluster.name_any();
        let spec_key = (cluster.uid().unwrap_or_default(), cluster.metadata.generation);
        if let Some(client) = self.cached(&name, &spec_key) {
            return Ok(client);
        }
        // One build per cluster at a time: after a restart the applies in flight reach a member
        // together, and each would otherwise read its secret and build a client of its own.
        let gate = self.building.lock().unwrap_or_else(|e| e.into_inner()).entry(name.clone()).or_default().clone();
        let _turn = gate.lock().await;
        if let Some(client) = self.cached(&name, &spec_key) {
            return Ok(client);
        }
        let (identity, client) =
            karmadactl_karmada_api::member_client::member_client(&engine.client, cluster, CONNECT_TIMEOUT, None)
                .await?;
        let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        match members.get_mut(&name) {
            Some(m) if m.identity == identity && m.spec_key == spec_key => {
                m.checked = Instant::now();
                Ok(m.client.clone())
            }
            _ => {
                members.insert(
                    name,
                    Member {
                        spec_key,
                        identity,
                        checked: Instant::now(),
                        client: client.clone(),
                        watched: HashMap::new(),
                        slow_lists: HashSet::new(),
                    },
                );
                Ok(client)
            }
        }
    }

    /// The client made for this spec of the cluster, while its credentials are fresh.
    fn cached(&self, name: &str, spec_key: &(String, Option<i64>)) -> Option<Client> {
        let members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        members
            .get(name)
            .filter(|m| m.spec_key == *spec_key && m.checked.elapsed() < CREDENTIALS_TTL)
            .map(|m| m.client.clone())
    }

    /// Forgets a cluster that went away.
    pub fn forget(&self, cluster: &str) {
        if self.fixed.is_some() {
            return;
        }
        self.members.lock().unwrap_or_else(|e| e.into_inner()).remove(cluster);
        self.building.lock().unwrap_or_else(|e| e.into_inner()).remove(cluster);
    }

    /// The plane's resource for a kind, and whether it is namespaced.
    pub async fn resource(&self, engine: &Engine, gvk: &GroupVersionKind) -> Result<(ApiResource, bool), String> {
        if let Some(r) = self.resources.lock().unwrap_or_else(|e| e.into_inner()).get(gvk) {
            return Ok(r.clone());
        }
        let discovery = self.fixed.as_ref().map(|(_, c)| c).unwrap_or(&engine.client);
        let (resource, caps) = kube::discovery::pinned_kind(discovery, gvk)
            .await
            .map_err(|e| format!("the kind {} is not served: {e}", gvk.kind))?;
        let found = (resource, caps.scope == kube::discovery::Scope::Namespaced);
        self.resources.lock().unwrap_or_else(|e| e.into_inner()).insert(gvk.clone(), found.clone());
        Ok(found)
    }

    /// Starts following every object of `gvk` in `cluster` (once per client). Every one, not
    /// only Karmada's copies: knowing what exists lets an apply go without reading the object
    /// first, and shows an object of the same name that Karmada does not manage.
    pub fn watch(&self, engine: &Arc<Engine>, cluster: &str, gvk: &GroupVersionKind, resource: &ApiResource) {
        let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        let Some(member) = members.get_mut(cluster) else {
            return;
        };
        if member.watched.contains_key(gvk) {
            return;
        }
        let weak = Arc::downgrade(engine);
        let space = wellknown::execution_space(cluster);
        let (store, task) =
            follow_dynamic_compact(member.client.clone(), resource, watcher::Config::default(), move |obj, deleted| {
                let Some(engine) = weak.upgrade() else {
                    return;
                };
                let a = obj.annotations();
                if let (Some(ns), Some(name)) =
                    (a.get(names::WORK_NAMESPACE_ANNOTATION), a.get(names::WORK_NAME_ANNOTATION))
                {
                    let key = WorkKey { namespace: ns.clone(), name: name.clone() };
                    if deleted {
                        // Someone removed Karmada's copy in the member: it is applied again.
                        engine.applied.forget(&key);
                        engine.queues.execute.add(key.clone());
                    }
                    // A member reports a rollout in steps a moment apart (the object taken, its
                    // pods started, then ready): the Work's status is written once per burst, which
                    // spares a Work, binding and template status write for each step skipped.
                    engine.queues.work_status.add_batched(key, MEMBER_STATUS_BATCH);
                } else {
                    // An object Karmada does not manage changed or went: a Work that refused to
                    // take it over (a permanent failure, not retried on its own) may apply now.
                    engine.queues.execute.wake_parked(|k| k.namespace == space);
                }
            });
        member.watched.insert(gvk.clone(), Watched { resource: resource.clone(), store, task });
    }

    /// An object as the member's watcher last saw it; `None` when not followed yet.
    pub fn observed(
        &self,
        cluster: &str,
        gvk: &GroupVersionKind,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<Option<Arc<DynamicObject>>> {
        let (resource, store, _) = self.store(cluster, gvk)?;
        Some(store.get(&object_ref(resource, namespace, name)))
    }

    /// What the member holds under this name, once its watcher has listed the kind (waiting
    /// up to [`FIRST_LIST_WAIT`] for that, once per kind); `None` when that is not known.
    pub async fn listed(
        &self,
        cluster: &str,
        gvk: &GroupVersionKind,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<Option<Arc<DynamicObject>>> {
        let (resource, store, slow) = self.store(cluster, gvk)?;
        let mut listed = store.listed();
        let ready = if slow {
            *listed.borrow()
        } else {
            let waited = tokio::time::timeout(FIRST_LIST_WAIT, listed.wait_for(|done| *done)).await;
            let ready = matches!(waited, Ok(Ok(_)));
            if !ready {
                tracing::debug!(cluster, kind = %gvk.kind, "no first list from the member watcher yet; applies read objects themselves");
                let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(m) = members.get_mut(cluster) {
                    m.slow_lists.insert(gvk.clone());
                }
            }
            ready
        };
        ready.then(|| store.get(&object_ref(resource, namespace, name)))
    }

    /// The watcher's resource and cache for `gvk` in `cluster`, and whether
    /// its first list was slow.
    fn store(&self, cluster: &str, gvk: &GroupVersionKind) -> Option<Followed> {
        let members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        let member = members.get(cluster)?;
        let w = member.watched.get(gvk)?;
        Some((w.resource.clone(), w.store.clone(), member.slow_lists.contains(gvk)))
    }
}

type Followed = (ApiResource, CompactStore<DynamicObject>, bool);

fn object_ref(resource: ApiResource, namespace: Option<&str>, name: &str) -> ObjectRef<DynamicObject> {
    let r = ObjectRef::new_with(name, resource);
    match namespace {
        Some(ns) => r.within(ns),
        None => r,
    }
}
