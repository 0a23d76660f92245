//! Following a key prefix: read everything once, then every change, relisting whenever the
//! watch is cut (compaction, a slow consumer). The level-triggered base of the plane's caches.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use karmadactl_store::Event;

use crate::state::ApiState;
use crate::storage::store_access;

/// What a follower does with what it sees.
pub trait Follower: Send + Sync + 'static {
    /// The complete current state (on start and after every relist).
    fn resync(
        &self,
        state: &Arc<ApiState>,
        objects: Vec<serde_json::Value>,
    ) -> impl std::future::Future<Output = ()> + Send;
    /// One change after the last resync.
    fn event(&self, state: &Arc<ApiState>, event: Event) -> impl std::future::Future<Output = ()> + Send;
}

/// Runs `follower` over `prefix` until the store closes. `synced` fires after the first resync.
pub async fn run<F: Follower>(
    state: Arc<ApiState>,
    prefix: String,
    follower: F,
    synced: tokio::sync::oneshot::Sender<()>,
) {
    let mut synced = Some(synced);
    loop {
        let (objects, rev) = match store_access::list_all(&state, &prefix).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(%prefix, error = %e.message, "listing for a cache failed; retrying");
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        follower.resync(&state, objects).await;
        if let Some(tx) = synced.take() {
            let _ = tx.send(());
        }
        let mut events = match state.store.watch(&prefix, rev) {
            Ok(s) => s,
            Err(karmadactl_store::StoreError::Closed) => return,
            Err(_) => continue,
        };
        while let Some(ev) = events.next().await {
            match ev {
                Ok(ev) => follower.event(&state, ev).await,
                Err(karmadactl_store::StoreError::Closed) => return,
                Err(_) => break,
            }
        }
    }
}
