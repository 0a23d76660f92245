//! kube-controller-manager's garbage collector: follows every object under `/registry/`,
//! keeps the ownership graph (gc_graph.rs) and applies its plan whenever something changed,
//! and every few seconds to retry writes that failed. It writes to the store directly, each
//! write conditional on the revision it planned from, so a changed or recreated object is never
//! touched on stale information.
//!
//! Deleted owners that still have dependents are remembered under `/gc/tombstones/<uid>` so a
//! restarted plane still knows those owners are gone, and for a while after their last
//! dependent went (`TOMBSTONE_RETENTION`), for dependents created from a stale cache. An owner deleted while the plane is
//! stopping, before the collector saw the event, is not remembered: its dependents stay.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use karmadactl_store::{EventKind, KeyValue, StoreError};
use tokio::sync::Notify;

use crate::state::ApiState;
use crate::storage::store_access;

use super::gc_apply::apply;
use super::gc_graph::{Action, Graph, Node};

const PREFIX: &str = "/registry/";
pub const TOMBSTONES: &str = "/gc/tombstones/";
/// Objects read per page when the collector lists the store.
const LIST_PAGE: usize = 500;
/// How often the plan is re-run without a change, so failed writes are retried.
const RETRY: Duration = Duration::from_secs(5);

/// Runs until the store closes.
pub async fn run(state: Arc<ApiState>) {
    let graph = Arc::new(Mutex::new(Graph::default()));
    let wake = Arc::new(Notify::new());
    let worker = tokio::spawn(work(state.clone(), graph.clone(), wake.clone()));
    follow(&state, &graph, &wake).await;
    worker.abort();
}

fn node(kv: &KeyValue) -> Option<Node> {
    Node::from_stored(&kv.key, &kv.value, kv.mod_revision)
}

async fn follow(state: &Arc<ApiState>, graph: &Mutex<Graph>, wake: &Notify) {
    loop {
        let listed = async {
            let (tombs, _) = store_access::list_all_stored(state, TOMBSTONES).await?;
            // The graph keeps a few names of each object: reading the whole store in one piece
            // held every object's bytes at once, the largest allocation of a restart.
            let mut nodes = Vec::new();
            let rev =
                store_access::for_each_stored(state, PREFIX, Some(LIST_PAGE), |kv| nodes.extend(node(&kv))).await?;
            Ok::<_, karmadactl_apimachinery::ApiError>((tombs, nodes, rev))
        };
        let (tombs, nodes, rev) = match listed.await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(error = %e.message, "garbage collector: listing failed; retrying");
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let gone = {
            let mut g = graph.lock().unwrap_or_else(|p| p.into_inner());
            g.tombstones.extend(tombs.iter().filter_map(|kv| kv.key.strip_prefix(TOMBSTONES).map(str::to_string)));
            g.replace(nodes)
        };
        for uid in gone {
            remember(state, &uid).await;
        }
        wake.notify_one();
        let mut events = match state.store.watch(PREFIX, rev) {
            Ok(s) => s,
            Err(StoreError::Closed) => return,
            Err(_) => continue,
        };
        while let Some(ev) = events.next().await {
            let ev = match ev {
                Ok(ev) => ev,
                Err(StoreError::Closed) => return,
                Err(_) => break,
            };
            let (tombstone, replan) = {
                let mut g = graph.lock().unwrap_or_else(|p| p.into_inner());
                match (ev.kind, node(&ev.kv)) {
                    (_, None) => (None, false),
                    (EventKind::Created | EventKind::Updated, Some(n)) => {
                        let replan = g.needs_plan(&n);
                        g.upsert(n);
                        (None, replan)
                    }
                    (EventKind::Deleted, Some(n)) => {
                        let was = n.matters();
                        let tomb = g.remove(&n.key, &n.uid);
                        let replan = was || tomb.is_some();
                        (tomb, replan)
                    }
                }
            };
            if let Some(uid) = tombstone {
                remember(state, &uid).await;
            }
            // Planning walks the whole graph, so only writes that can change the plan wake the
            // worker (see `Graph::needs_plan`).
            if replan {
                wake.notify_one();
            }
        }
    }
}

/// Persists a tombstone (an owner seen deleted while dependents still reference it).
async fn remember(state: &ApiState, uid: &str) {
    let key = format!("{TOMBSTONES}{uid}");
    match state.store.create(&key, bytes::Bytes::from_static(b"{}")).await {
        Ok(_) | Err(StoreError::AlreadyExists { .. }) => {}
        Err(e) => tracing::warn!(%uid, error = %e, "garbage collector: could not record a deleted owner"),
    }
}

async fn work(state: Arc<ApiState>, graph: Arc<Mutex<Graph>>, wake: Arc<Notify>) {
    loop {
        let _ = tokio::time::timeout(RETRY, wake.notified()).await;
        let plan = graph.lock().unwrap_or_else(|p| p.into_inner()).plan();
        for action in plan {
            if let Action::ForgetTombstone { uid } = &action {
                graph.lock().unwrap_or_else(|p| p.into_inner()).forget(uid);
            }
            if let Err(e) = apply(&state, &action).await {
                tracing::debug!(?action, error = %e.message, "garbage collector: a write did not apply; retrying later");
            }
        }
    }
}
