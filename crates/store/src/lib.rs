//! The control plane's durable store: a narrow, revisioned key-value interface (kine/etcd style).
//!
//! Every object the API server keeps is one key (`/registry/<group>/<resource>/<ns>/<name>`)
//! holding opaque bytes. One global revision counts every write; it is the objects'
//! `resourceVersion`. The interface is deliberately small (create, compare-and-swap update,
//! delete, get, list at a revision, watch from a revision, compact) so that several backends
//! can implement it and all of them are held to one shared `conformance` suite.
//!
//! * [`sqlite`]: the embedded backend (SQLite in WAL mode, group commit, in-process watch hub).
//! * `etcd` (cargo feature `etcd`): an etcd v3 cluster, for several replicas sharing one store.
//! * [`datastore`]: choosing and opening a backend (`--datastore`).
//! * [`compactor`]: the background task that forgets old history but keeps a resume window.
//! * `conformance` (cargo feature `testing`): the behaviour every backend must show, as plain
//!   async functions, for each backend's test file.
//!
//! This crate depends on no other crate of this workspace: it stores bytes and knows nothing
//! of objects. The API server builds on it, and it must never depend on the API server, the
//! engine or the CLI.

#![forbid(unsafe_code)]

use std::any::Any;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use futures::future::BoxFuture;

pub mod compactor;
#[cfg(feature = "testing")]
pub mod conformance;
pub mod datastore;
#[cfg(feature = "etcd")]
pub mod etcd;
pub mod sqlite;
mod watch;

pub use compactor::{CompactionPolicy, spawn_compactor};
pub use datastore::{Datastore, EtcdConfig, EtcdTls};

/// A point in the store's history. Strictly increasing across all keys and always positive for
/// a written value; watching from 0 means "from the very beginning".
pub type Revision = i64;

/// One key's value as of some revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyValue {
    pub key: String,
    pub value: Bytes,
    /// The revision that created the key (a delete followed by a create starts again).
    pub create_revision: Revision,
    /// The revision of the last write to the key.
    pub mod_revision: Revision,
}

/// What a write did to a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Created,
    Updated,
    Deleted,
}

/// One committed write, as a watcher sees it.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: EventKind,
    /// The write's revision (equal to `kv.mod_revision`).
    pub revision: Revision,
    /// The current value; for `Deleted` the last value before deletion (its `mod_revision` is
    /// the delete's revision).
    pub kv: KeyValue,
    /// The value before this write: `None` for `Created`, the previous value (with its own
    /// `mod_revision`) for `Updated` and `Deleted`.
    pub prev: Option<KeyValue>,
    /// Shared by every clone of this event; see [`EventMemo`].
    pub memo: EventMemo,
}

impl Event {
    pub fn new(kind: EventKind, revision: Revision, kv: KeyValue, prev: Option<KeyValue>) -> Self {
        Event { kind, revision, kv, prev, memo: EventMemo::default() }
    }
}

/// What consumers derive from one event, made once and shared by every clone of the event.
/// The hub hands each watcher its own clone of a commit's events, and a thousand watchers of
/// one resource need the same encoding of it: the first one to need it leaves it here. The
/// store never looks inside; the consumer picks the type.
#[derive(Clone, Default)]
pub struct EventMemo(Arc<OnceLock<Arc<dyn Any + Send + Sync>>>);

impl EventMemo {
    /// The `T` kept for this event, made by `init` if nothing was kept yet; `None` when a
    /// value of another type was kept first.
    pub fn get_or_init<T: Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> Option<Arc<T>> {
        let kept = self.0.get_or_init(|| Arc::new(init()));
        Arc::clone(kept).downcast::<T>().ok()
    }
}

impl std::fmt::Debug for EventMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() { "EventMemo(kept)" } else { "EventMemo(empty)" })
    }
}

/// How to list.
#[derive(Debug, Clone, Default)]
pub struct ListOptions {
    /// `None` reads the latest state; `Some(r)` reads the snapshot at revision `r` (a negative
    /// `r` counts as 0).
    pub revision: Option<Revision>,
    /// Continue after this key (exclusive), as returned in [`ListPage::continue_after`].
    pub start_after: Option<String>,
    /// At most this many items; `None` (or `Some(0)`) means no limit.
    pub limit: Option<usize>,
    /// Leave [`ListPage::remaining`] unset: the caller does not need it, or knows it from the
    /// page before. Counting what remains can cost more than reading the page.
    pub skip_remaining_count: bool,
}

/// One page of a list, in key order.
#[derive(Debug, Clone)]
pub struct ListPage {
    pub items: Vec<KeyValue>,
    /// The snapshot revision the page was read at; pass it back as [`ListOptions::revision`] to
    /// read the next page from the same snapshot.
    pub revision: Revision,
    /// `Some(last key of this page)` when more items remain.
    pub continue_after: Option<String>,
    /// How many items remain after this page, when more remain (like Kubernetes'
    /// `remainingItemCount`, which is unset on the last page).
    pub remaining: Option<i64>,
}

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `create` found a live value under the key.
    #[error("the key {key:?} already exists; read it and update it instead of creating it again")]
    AlreadyExists { key: String },
    /// The key has no live value (never written, or deleted).
    #[error("the key {key:?} does not exist")]
    NotFound { key: String },
    /// A compare-and-swap expected another revision: someone else wrote the key in between.
    #[error(
        "the key {key:?} was last modified at revision {actual}, not at revision {expected} as the write expected; read it again and retry"
    )]
    Conflict { key: String, expected: Revision, actual: Revision },
    /// The revision asked for is older than the compacted revision, so its history is gone.
    #[error(
        "revision {requested} has been compacted (history is kept only from revision {compacted}); list again at the latest revision"
    )]
    Compacted { requested: Revision, compacted: Revision },
    /// The revision asked for is newer than the store's current revision.
    #[error("revision {requested} is newer than the store's current revision {current}")]
    FutureRevision { requested: Revision, current: Revision },
    /// The watcher fell so far behind the writes that events meant for it were dropped.
    #[error(
        "the watcher fell too far behind the writes and its events were dropped; list again and watch from the list's revision"
    )]
    WatcherTooSlow,
    /// The backend has no room for the write (a full disk, or etcd's space quota); nothing was
    /// written. Writes succeed again once space is freed, without a restart.
    #[error("the datastore is out of disk space: {detail}")]
    NoSpace { detail: String },
    /// The store has been shut down.
    #[error("the store is closed")]
    Closed,
    /// The storage backend failed (I/O, a corrupt database, a full disk); the cause is chained.
    #[error("the storage backend failed")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl StoreError {
    /// Wraps a backend failure, keeping it as the cause.
    pub fn backend(err: impl std::error::Error + Send + Sync + 'static) -> Self {
        StoreError::Backend(Box::new(err))
    }
}

/// An endless stream of events; it ends after an `Err` item.
pub type WatchStream = futures::stream::BoxStream<'static, Result<Event, StoreError>>;

/// The storage interface of the API server. Object safe: used as `Arc<dyn Store>`.
pub trait Store: Send + Sync + 'static {
    /// Creates `key`; fails with `AlreadyExists` when it has a live value. Returns the new
    /// revision once the write is durable.
    fn create(&self, key: &str, value: Bytes) -> BoxFuture<'_, Result<Revision, StoreError>>;
    /// Compare-and-swap on `mod_revision`: replaces the value only if the key was last written
    /// at `expected` (else `Conflict` carrying the actual revision, or `NotFound`).
    fn update(&self, key: &str, value: Bytes, expected: Revision) -> BoxFuture<'_, Result<Revision, StoreError>>;
    /// Deletes `key`; unconditional when `expected` is `None`. Returns the delete's revision and
    /// the deleted value as it was before the delete (its `mod_revision` is the last write's).
    fn delete(&self, key: &str, expected: Option<Revision>) -> BoxFuture<'_, Result<(Revision, KeyValue), StoreError>>;
    /// The live value of `key`, if any. Sees every write that has returned.
    fn get(&self, key: &str) -> BoxFuture<'_, Result<Option<KeyValue>, StoreError>>;
    /// Live values of keys starting with `prefix`, in key order, from one snapshot.
    fn list(&self, prefix: &str, opts: ListOptions) -> BoxFuture<'_, Result<ListPage, StoreError>>;
    /// Every event for keys under `prefix` with revision > `after`, in revision order: first
    /// from history, then live, with no gap and no duplicate. Err(Compacted) at once (or as the
    /// first stream item) when `after` < compacted revision. A watcher that falls too far behind
    /// gets Err(WatcherTooSlow) and the stream ends (the client relists). Like etcd, a watch
    /// from a revision not yet written simply waits for it; negative revisions count as 0.
    fn watch(&self, prefix: &str, after: Revision) -> Result<WatchStream, StoreError>;
    /// The revision of the last durable write.
    fn current_revision(&self) -> Revision;
    /// History at or below this revision may be gone (0 when nothing was compacted).
    fn compacted_revision(&self) -> Revision;
    /// Whether writes currently succeed: `Err(reason)` after a write failed for a reason that
    /// outlives the request (a full disk, an I/O error), until a write succeeds again.
    fn health(&self) -> Result<(), String> {
        Ok(())
    }
    /// Forget history at or below `upto` (never the latest value of a live key).
    fn compact(&self, upto: Revision) -> BoxFuture<'_, Result<(), StoreError>>;
}

/// The smallest string greater than every string starting with `prefix`, or `None` when no
/// such bound exists (empty prefix, or only `char::MAX`). Used as the exclusive upper end of a
/// prefix range, so an index range scan can serve prefix queries.
pub(crate) fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        // UTF-8 byte order is code point order, so bumping the last code point bounds the range.
        let next = (last as u32 + 1..=char::MAX as u32).find_map(char::from_u32);
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_clones_share_one_memo() {
        let kv = KeyValue { key: "/k".into(), value: Bytes::from_static(b"{}"), create_revision: 1, mod_revision: 1 };
        let event = Event::new(EventKind::Created, 1, kv, None);
        let copy = event.clone();
        let mut made = 0;
        let first = event.memo.get_or_init(|| {
            made += 1;
            String::from("encoded")
        });
        let second = copy.memo.get_or_init(|| {
            made += 1;
            String::from("again")
        });
        assert_eq!(made, 1);
        assert_eq!(first.as_deref().map(String::as_str), Some("encoded"));
        assert!(second.is_some_and(|s| Arc::ptr_eq(&s, &first.unwrap())));
        // Another type is refused rather than confused with the kept one.
        assert!(copy.memo.get_or_init(|| 7u32).is_none());
        // A fresh event starts empty.
        let other = Event::new(EventKind::Deleted, 2, copy.kv.clone(), Some(copy.kv.clone()));
        assert_eq!(other.memo.get_or_init(|| 7u32).as_deref(), Some(&7));
    }

    #[test]
    fn prefix_end_bounds_the_prefix_range() {
        assert_eq!(prefix_end("/registry/a/"), Some("/registry/a0".to_string()));
        assert_eq!(prefix_end(""), None);
        assert_eq!(prefix_end("a\u{10FFFF}"), Some("b".to_string()));
        assert_eq!(prefix_end("\u{10FFFF}"), None);
        // Surrogates are skipped: the next scalar value after U+D7FF is U+E000.
        assert_eq!(prefix_end("\u{D7FF}"), Some("\u{E000}".to_string()));
        let end = prefix_end("/registry/apps/deployments/").unwrap_or_default();
        assert!("/registry/apps/deployments/zzz\u{10FFFF}" < end.as_str());
        assert!("/registry/apps/deploymentsX/a" > end.as_str());
    }
}
