//! Store watches as etcd watches: one etcd watch per store watch, with `prev_kv` so updates
//! and deletes carry the value they replaced.
//!
//! If the connection to an etcd member breaks, the watch is opened again from the last
//! revision it delivered (on another member, if that one is gone), so a member failure does
//! not end the API server's watches. Only compaction (the client must relist) or etcd staying
//! unreachable ends the stream.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use etcd_client::{Client, EventType, WatchOptions};

use super::keys::Namespace;
use crate::{Event, EventKind, KeyValue, Revision, StoreError, WatchStream};

/// Consecutive failed attempts to (re)open a watch before the stream ends with an error.
const MAX_RETRIES: u32 = 10;

/// Everything one watch needs, detached from the store.
pub(super) struct Watch {
    pub client: Client,
    pub ns: Namespace,
    pub prefix: String,
    /// Deliver events with a revision above this.
    pub after: Revision,
    pub current: Arc<AtomicI64>,
    pub compacted: Arc<AtomicI64>,
}

pub(super) fn stream(w: Watch) -> WatchStream {
    Box::pin(async_stream::stream! {
        let mut cursor = w.after;
        let mut failures = 0u32;
        let (key, end) = w.ns.prefix_range(&w.prefix);
        loop {
            let options = WatchOptions::new().with_range(end.clone()).with_start_revision(cursor + 1).with_prev_key();
            let opened = w.client.watch_client().max_decoding_message_size(super::MAX_ANSWER_BYTES).watch(key.clone(), Some(options)).await;
            let mut etcd = match opened {
                Ok(etcd) => etcd,
                Err(err) => {
                    failures += 1;
                    if failures > MAX_RETRIES {
                        yield Err(StoreError::backend(err));
                        return;
                    }
                    tokio::time::sleep(backoff(failures)).await;
                    continue;
                }
            };
            loop {
                let resp = match etcd.message().await {
                    Ok(Some(resp)) => resp,
                    // The stream broke or the member went away: open it again from `cursor`.
                    Ok(None) | Err(_) => break,
                };
                if resp.canceled() {
                    let compacted = resp.compact_revision();
                    if compacted > 0 {
                        w.compacted.fetch_max(compacted, Ordering::AcqRel);
                        yield Err(StoreError::Compacted { requested: cursor, compacted });
                    } else {
                        let reason = format!("etcd cancelled the watch: {}", resp.cancel_reason());
                        yield Err(StoreError::backend(std::io::Error::other(reason)));
                    }
                    return;
                }
                failures = 0;
                if let Some(header) = resp.header() {
                    w.current.fetch_max(header.revision(), Ordering::AcqRel);
                }
                for event in resp.events() {
                    let Some(event) = convert(&w.ns, event) else { continue };
                    cursor = event.revision;
                    w.current.fetch_max(cursor, Ordering::AcqRel);
                    yield Ok(event);
                }
            }
            failures += 1;
            if failures > MAX_RETRIES {
                yield Err(StoreError::backend(std::io::Error::other("the etcd watch stream kept breaking")));
                return;
            }
            tokio::time::sleep(backoff(failures)).await;
        }
    })
}

fn backoff(failures: u32) -> Duration {
    Duration::from_millis(100 * u64::from(failures.min(10)))
}

/// The store's event for one etcd event. A put that created the key (its create and mod
/// revisions agree) is `Created`; a delete carries the last value with the delete's revision.
fn convert(ns: &Namespace, event: &etcd_client::Event) -> Option<Event> {
    let kv = event.kv()?;
    let revision = kv.mod_revision();
    let prev = event.prev_kv().map(|p| ns.key_value(p));
    Some(match event.event_type() {
        EventType::Put if kv.create_revision() == revision => {
            Event::new(EventKind::Created, revision, ns.key_value(kv), None)
        }
        EventType::Put => Event::new(EventKind::Updated, revision, ns.key_value(kv), prev),
        EventType::Delete => {
            // etcd's delete event holds only the key; the value is the previous one. Without a
            // previous value (compacted away) the event still says which key went.
            let last = match &prev {
                Some(p) => KeyValue { mod_revision: revision, ..p.clone() },
                None => KeyValue { mod_revision: revision, ..ns.key_value(kv) },
            };
            Event::new(EventKind::Deleted, revision, last, prev)
        }
    })
}
