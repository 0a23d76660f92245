//! The in-process watch hub: one broadcast per commit, history-then-live streams per watcher.
//!
//! The writer publishes each commit's events once, as one shared `Arc<[Event]>`, into a
//! bounded ring (`tokio::sync::broadcast`). A watcher is only a ring cursor plus a prefix
//! filter, so a thousand watchers cost a thousand cursors, not a thousand database reads per
//! commit. A watcher that the ring overtakes gets `WatcherTooSlow` and must relist.
//!
//! Gap-free resume: a new watcher subscribes to the ring *first*, then reads the current
//! revision `bound`, then reads history `(after, bound]` from the backend and finally the live
//! events with revision > `bound`. The writer sets the current revision after a commit and
//! publishes after that, so every commit is either ≤ `bound` (and visible to the history
//! read, which starts later) or published after the subscription (and so in the ring).

use std::sync::Arc;

use futures::future::BoxFuture;
use tokio::sync::broadcast;

use super::{Event, Revision, StoreError, WatchStream};

/// The events of one commit, in revision order.
pub(crate) type Batch = Arc<[Event]>;

/// One page of history read by a backend.
pub(crate) struct HistoryPage {
    /// Events with `after < revision <= bound` under the prefix, in revision order.
    pub events: Vec<Event>,
    /// The compacted revision in the same snapshot as `events`.
    pub compacted: Revision,
}

/// Where a watcher reads the history that happened before it subscribed.
pub(crate) trait History: Send + Sync + 'static {
    /// At most `limit` events under `prefix` with `after < revision <= bound`, read in one
    /// snapshot together with the compacted revision.
    fn history_page(
        self: Arc<Self>,
        prefix: String,
        after: Revision,
        bound: Revision,
        limit: usize,
    ) -> BoxFuture<'static, Result<HistoryPage, StoreError>>;
}

/// The sending side, owned by the store and its writer.
#[derive(Clone)]
pub(crate) struct Hub {
    tx: broadcast::Sender<Batch>,
}

impl Hub {
    /// `capacity` is the number of commits a watcher may fall behind before it is dropped.
    pub fn new(capacity: usize) -> Self {
        // broadcast::channel panics on 0; one commit is the smallest meaningful ring.
        let (tx, _) = broadcast::channel(capacity.max(1));
        Hub { tx }
    }

    /// Publishes one commit's events. No receiver is not an error: nobody is watching.
    pub(crate) fn publish(&self, events: Batch) {
        let _ = self.tx.send(events);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Batch> {
        self.tx.subscribe()
    }

    pub fn watchers(&self) -> usize {
        self.tx.receiver_count()
    }
}

/// How many history events a watcher reads per query; bounds the memory of a resume.
const HISTORY_PAGE: usize = 512;

/// Builds a watcher's stream. `rx` must have been subscribed before `bound` was read (see the
/// module doc).
pub(crate) fn stream(
    history: Arc<dyn History>,
    mut rx: broadcast::Receiver<Batch>,
    prefix: String,
    after: Revision,
    bound: Revision,
) -> WatchStream {
    let s = async_stream::stream! {
        // Phase 1: history, paged, each page checked against compaction in its own snapshot.
        let mut cursor = after;
        loop {
            if cursor >= bound {
                break;
            }
            let page = match Arc::clone(&history).history_page(prefix.clone(), cursor, bound, HISTORY_PAGE).await {
                Ok(page) => page,
                Err(err) => {
                    yield Err(err);
                    return;
                }
            };
            if page.compacted > cursor {
                // Rows in (cursor, compacted] may be gone: resuming here would leave a gap.
                yield Err(StoreError::Compacted { requested: cursor, compacted: page.compacted });
                return;
            }
            let full = page.events.len() >= HISTORY_PAGE;
            for event in page.events {
                cursor = event.revision;
                yield Ok(event);
            }
            if !full {
                break;
            }
        }
        // Phase 2: live events. Anything at or below `bound` was (or will never be) in history.
        let floor = bound.max(cursor);
        loop {
            match rx.recv().await {
                Ok(batch) => {
                    for event in batch.iter() {
                        if event.revision > floor && event.kv.key.starts_with(prefix.as_str()) {
                            yield Ok(event.clone());
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    yield Err(StoreError::WatcherTooSlow);
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => {
                    yield Err(StoreError::Closed);
                    return;
                }
            }
        }
    };
    Box::pin(s)
}
