//! Keeps the store's idea of etcd's current revision fresh when other clients write.
//!
//! `current_revision` is synchronous, so it is a number the store keeps. Its own writes and
//! reads raise it; writes by other control plane replicas sharing the etcd would not, and the
//! API server refuses a `resourceVersion` newer than the current revision ("Too large resource
//! version"). So one background watch over the whole key namespace raises it as any write
//! commits, like kube-apiserver's watch cache follows etcd.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use etcd_client::{Client, WatchOptions};
use tokio::task::JoinHandle;

use super::keys::Namespace;

pub(super) fn follow(client: Client, ns: Namespace, current: Arc<AtomicI64>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let (key, end) = ns.prefix_range("");
        loop {
            let from = current.load(Ordering::Acquire) + 1;
            let options = WatchOptions::new().with_range(end.clone()).with_start_revision(from);
            if let Ok(mut stream) = client
                .watch_client()
                .max_decoding_message_size(super::MAX_ANSWER_BYTES)
                .watch(key.clone(), Some(options))
                .await
            {
                while let Ok(Some(resp)) = stream.message().await {
                    if resp.canceled() {
                        // Compacted past `from`: start again from the current revision.
                        break;
                    }
                    let newest = resp.events().iter().filter_map(|e| e.kv()).map(|kv| kv.mod_revision()).max();
                    if let Some(revision) = newest {
                        current.fetch_max(revision, Ordering::AcqRel);
                    }
                }
            }
            // The member went away or the watch was cancelled: reopen shortly, elsewhere.
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    })
}
