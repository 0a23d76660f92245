//! The behaviour every [`Store`] backend must show, as plain async functions (kine-style).
//!
//! Each function takes a fresh, empty store and panics (through `assert!`) when the backend
//! misbehaves: this is test code that lives in the library so every backend's test file can
//! run the same suite. [`store_conformance_tests!`](crate::store_conformance_tests) turns the
//! whole suite into `#[tokio::test]`s in one line:
//!
//! ```text
//! async fn fresh() -> (tempfile::TempDir, Arc<dyn Store>) { ... }
//! karmadactl_store::store_conformance_tests!(fresh);
//! ```
//!
//! Keys and revisions are relative to what the functions wrote themselves, except that a store
//! must start empty (`watch(.., 0)` sees every event).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;

use super::{Event, EventKind, KeyValue, ListOptions, Revision, Store, StoreError, WatchStream};

/// Generates one `#[tokio::test]` per conformance function. `$fresh` is an async fn returning
/// `(guard, Arc<dyn Store>)`; the guard (a temp dir, a server) is dropped after the test.
#[macro_export]
macro_rules! store_conformance_tests {
    ($fresh:path) => {
        $crate::store_conformance_tests!(@each $fresh;
            create_and_get,
            create_existing_key_fails,
            update_checks_revision,
            delete_with_and_without_expected,
            revisions_strictly_increase,
            reads_see_every_returned_write,
            list_prefix_does_not_bleed,
            list_at_older_revision,
            list_paging_is_consistent,
            watch_from_zero_sees_all_events,
            watch_from_middle_revision,
            watch_filters_by_prefix,
            watch_history_then_live_without_gap,
            compaction_forgets_history,
            concurrent_creates,
        );
    };
    (@each $fresh:path; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() {
                let (_guard, store) = $fresh().await;
                $crate::conformance::$name(store).await;
            }
        )*
    };
}

const WAIT: Duration = Duration::from_secs(30);

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

fn kv(key: &str, value: &str, create_revision: Revision, mod_revision: Revision) -> KeyValue {
    KeyValue { key: key.to_string(), value: b(value), create_revision, mod_revision }
}

/// The next event of a watch; panics on an error, an end or a 30 s silence.
pub async fn next_event(stream: &mut WatchStream) -> Event {
    match tokio::time::timeout(WAIT, stream.next()).await {
        Ok(Some(Ok(event))) => event,
        Ok(Some(Err(err))) => panic!("the watch failed: {err}"),
        Ok(None) => panic!("the watch ended"),
        Err(_) => panic!("no watch event within {WAIT:?}"),
    }
}

async fn next_events(stream: &mut WatchStream, n: usize) -> Vec<Event> {
    let mut events = Vec::with_capacity(n);
    for _ in 0..n {
        events.push(next_event(stream).await);
    }
    events
}

/// Asserts that nothing arrives on the watch for a short while.
async fn assert_quiet(stream: &mut WatchStream) {
    if let Ok(item) = tokio::time::timeout(Duration::from_millis(200), stream.next()).await {
        panic!("expected no watch event, got {item:?}");
    }
}

/// Asserts that watching from `after` is refused as compacted, at once or as the first item.
async fn assert_watch_compacted(store: &Arc<dyn Store>, prefix: &str, after: Revision) {
    match store.watch(prefix, after) {
        Err(StoreError::Compacted { requested, .. }) => assert_eq!(requested, after),
        Err(err) => panic!("watch from compacted revision {after}: expected Compacted, got {err}"),
        Ok(mut stream) => match tokio::time::timeout(WAIT, stream.next()).await {
            Ok(Some(Err(StoreError::Compacted { .. }))) => {}
            other => panic!("watch from compacted revision {after}: expected Compacted, got {other:?}"),
        },
    }
}

async fn list_all(store: &Arc<dyn Store>, prefix: &str) -> Vec<KeyValue> {
    store.list(prefix, ListOptions::default()).await.expect("list").items
}

fn keys(items: &[KeyValue]) -> Vec<&str> {
    items.iter().map(|kv| kv.key.as_str()).collect()
}

/// Create, then get: the value and both revisions come back; a missing key is `None`.
pub async fn create_and_get(store: Arc<dyn Store>) {
    let key = "/registry/core/configmaps/default/a";
    assert_eq!(store.get(key).await.expect("get"), None);
    // Even an empty store lists at a positive revision: "0" is special to Kubernetes clients.
    let empty = store.list("", ListOptions::default()).await.expect("list");
    assert!(empty.items.is_empty());
    assert!(empty.revision > 0, "an empty store must list at a positive revision, got {}", empty.revision);
    let r1 = store.create(key, b("v1")).await.expect("create");
    assert!(r1 > 0, "the first revision must be positive, got {r1}");
    assert_eq!(store.current_revision(), r1);
    assert_eq!(store.get(key).await.expect("get"), Some(kv(key, "v1", r1, r1)));

    // Values are opaque bytes: empty and non-UTF-8 values round-trip.
    let r2 = store.create("/registry/core/configmaps/default/empty", Bytes::new()).await.expect("create");
    let binary = Bytes::from_static(&[0, 159, 146, 150, 255]);
    let r3 = store.create("/registry/core/configmaps/default/bin", binary.clone()).await.expect("create");
    let got = store.get("/registry/core/configmaps/default/empty").await.expect("get").expect("present");
    assert_eq!((got.value.len(), got.mod_revision), (0, r2));
    let got = store.get("/registry/core/configmaps/default/bin").await.expect("get").expect("present");
    assert_eq!((got.value, got.mod_revision), (binary, r3));
}

/// A second create of a live key is refused and changes nothing.
pub async fn create_existing_key_fails(store: Arc<dyn Store>) {
    let key = "/registry/core/secrets/ns/s";
    let r1 = store.create(key, b("first")).await.expect("create");
    match store.create(key, b("second")).await {
        Err(StoreError::AlreadyExists { key: k }) => assert_eq!(k, key),
        other => panic!("expected AlreadyExists, got {other:?}"),
    }
    assert_eq!(store.current_revision(), r1, "a refused write must not use a revision");
    assert_eq!(store.get(key).await.expect("get"), Some(kv(key, "first", r1, r1)));
}

/// Update is a compare-and-swap on `mod_revision`; a conflict reports the actual revision.
pub async fn update_checks_revision(store: Arc<dyn Store>) {
    let key = "/registry/apps/deployments/ns/d";
    let r1 = store.create(key, b("v1")).await.expect("create");
    let r2 = store.update(key, b("v2"), r1).await.expect("update with the right revision");
    assert!(r2 > r1);
    assert_eq!(store.get(key).await.expect("get"), Some(kv(key, "v2", r1, r2)));

    match store.update(key, b("v3"), r1).await {
        Err(StoreError::Conflict { key: k, expected, actual }) => {
            assert_eq!((k.as_str(), expected, actual), (key, r1, r2));
        }
        other => panic!("expected Conflict, got {other:?}"),
    }
    match store.update("/registry/apps/deployments/ns/missing", b("x"), r2).await {
        Err(StoreError::NotFound { key: k }) => assert_eq!(k, "/registry/apps/deployments/ns/missing"),
        other => panic!("expected NotFound, got {other:?}"),
    }
    assert_eq!(store.get(key).await.expect("get"), Some(kv(key, "v2", r1, r2)));
    assert_eq!(store.current_revision(), r2);
}

/// Delete with a wrong, a right and no expected revision; deleted keys are gone and can be
/// created again with a new `create_revision`.
pub async fn delete_with_and_without_expected(store: Arc<dyn Store>) {
    let a = "/registry/core/pods/ns/a";
    let r1 = store.create(a, b("v1")).await.expect("create");
    let r2 = store.update(a, b("v2"), r1).await.expect("update");
    match store.delete(a, Some(r1)).await {
        Err(StoreError::Conflict { expected, actual, .. }) => assert_eq!((expected, actual), (r1, r2)),
        other => panic!("expected Conflict, got {other:?}"),
    }
    assert!(store.get(a).await.expect("get").is_some(), "a refused delete must keep the key");

    let (r3, deleted) = store.delete(a, Some(r2)).await.expect("delete with the right revision");
    assert!(r3 > r2);
    assert_eq!(deleted, kv(a, "v2", r1, r2), "delete returns the value as it was before");
    assert_eq!(store.get(a).await.expect("get"), None);
    match store.delete(a, None).await {
        Err(StoreError::NotFound { key }) => assert_eq!(key, a),
        other => panic!("expected NotFound, got {other:?}"),
    }
    match store.update(a, b("v3"), r2).await {
        Err(StoreError::NotFound { .. }) => {}
        other => panic!("update of a deleted key: expected NotFound, got {other:?}"),
    }

    let other = "/registry/core/pods/ns/b";
    let r4 = store.create(other, b("b")).await.expect("create");
    let (r5, deleted) = store.delete(other, None).await.expect("unconditional delete");
    assert!(r5 > r4);
    assert_eq!(deleted, kv(other, "b", r4, r4));

    let r6 = store.create(a, b("again")).await.expect("create after delete");
    assert_eq!(store.get(a).await.expect("get"), Some(kv(a, "again", r6, r6)));
}

/// Every successful write gets a revision greater than all before it, across keys.
pub async fn revisions_strictly_increase(store: Arc<dyn Store>) {
    let mut last = store.current_revision();
    let mut check = |rev: Revision| {
        assert!(rev > last, "revision {rev} does not follow {last}");
        last = rev;
    };
    for i in 0..10 {
        let key = format!("/registry/core/configmaps/ns/k{i}");
        let r = store.create(&key, b("a")).await.expect("create");
        check(r);
        let r = store.update(&key, b("b"), r).await.expect("update");
        check(r);
        if i % 2 == 0 {
            let (r, _) = store.delete(&key, None).await.expect("delete");
            check(r);
        }
    }
    assert_eq!(store.current_revision(), last);
}

/// Read-your-writes: as soon as a write returns, get and list see it (from any task).
pub async fn reads_see_every_returned_write(store: Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for t in 0..8 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let prefix = format!("/registry/ryw/t{t}/");
            for i in 0..20 {
                let key = format!("{prefix}{i:03}");
                let rev = store.create(&key, b("x")).await.expect("create");
                let got = store.get(&key).await.expect("get").expect("a created key is visible");
                assert_eq!(got.mod_revision, rev);
                let page = store.list(&prefix, ListOptions::default()).await.expect("list");
                assert!(page.revision >= rev, "list revision {} is older than write {rev}", page.revision);
                assert_eq!(page.items.len(), i + 1);
                let rev2 = store.update(&key, b("y"), rev).await.expect("update");
                let got = store.get(&key).await.expect("get").expect("present");
                assert_eq!((got.mod_revision, got.value), (rev2, b("y")));
            }
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
}

/// A prefix ending in `/` never matches a sibling such as `deploymentsX/`.
pub async fn list_prefix_does_not_bleed(store: Arc<dyn Store>) {
    for key in [
        "/registry/apps/deployments/ns2/b",
        "/registry/apps/deployments/ns1/a",
        "/registry/apps/deploymentsX/ns1/c",
        "/registry/apps/deployment",
        "/registry/apps/deployments0",
        "/registry/core/pods/ns1/p",
    ] {
        store.create(key, b(key)).await.expect("create");
    }
    store.create("/registry/apps/deployments/ns3/gone", b("x")).await.expect("create");
    store.delete("/registry/apps/deployments/ns3/gone", None).await.expect("delete");

    let items = list_all(&store, "/registry/apps/deployments/").await;
    assert_eq!(keys(&items), ["/registry/apps/deployments/ns1/a", "/registry/apps/deployments/ns2/b"]);
    assert!(items.iter().all(|kv| kv.value == b(&kv.key)));
    assert_eq!(list_all(&store, "/registry/apps/").await.len(), 5);
    assert_eq!(list_all(&store, "").await.len(), 6);
    assert_eq!(list_all(&store, "/registry/batch/").await.len(), 0);
}

/// A list at an older revision shows that snapshot: old values, deleted keys, no later keys.
pub async fn list_at_older_revision(store: Arc<dyn Store>) {
    let (a, b_key, c) = ("/registry/x/a", "/registry/x/b", "/registry/x/c");
    let r1 = store.create(a, b("a1")).await.expect("create");
    let r2 = store.create(b_key, b("b1")).await.expect("create");
    let r3 = store.update(a, b("a2"), r1).await.expect("update");
    let (r4, _) = store.delete(b_key, None).await.expect("delete");
    let r5 = store.create(c, b("c1")).await.expect("create");

    let at = |rev: Revision| ListOptions { revision: Some(rev), ..ListOptions::default() };
    let page = store.list("/registry/x/", at(r2)).await.expect("list at r2");
    assert_eq!(page.revision, r2);
    assert_eq!(page.items, [kv(a, "a1", r1, r1), kv(b_key, "b1", r2, r2)]);
    let page = store.list("/registry/x/", at(r3)).await.expect("list at r3");
    assert_eq!(page.items, [kv(a, "a2", r1, r3), kv(b_key, "b1", r2, r2)]);
    let page = store.list("/registry/x/", at(r4)).await.expect("list at r4");
    assert_eq!(page.items, [kv(a, "a2", r1, r3)]);
    let page = store.list("/registry/x/", ListOptions::default()).await.expect("list latest");
    assert_eq!(page.revision, r5);
    assert_eq!(page.items, [kv(a, "a2", r1, r3), kv(c, "c1", r5, r5)]);

    match store.list("/registry/x/", at(r5 + 10)).await {
        Err(StoreError::FutureRevision { requested, current }) => assert_eq!((requested, current), (r5 + 10, r5)),
        other => panic!("expected FutureRevision, got {other:?}"),
    }
}

/// Pages read at the first page's revision stay consistent while writes go on, and
/// `remaining` counts what is left.
pub async fn list_paging_is_consistent(store: Arc<dyn Store>) {
    let prefix = "/registry/core/configmaps/";
    let key = |i: usize| format!("{prefix}ns/k{i:02}");
    let mut revs = BTreeMap::new();
    for i in 0..10 {
        revs.insert(i, store.create(&key(i), b(&format!("v{i}"))).await.expect("create"));
    }
    let first = store.list(prefix, ListOptions { limit: Some(4), ..ListOptions::default() }).await.expect("page 1");
    let snapshot = first.revision;
    assert_eq!(keys(&first.items), [key(0), key(1), key(2), key(3)]);
    assert_eq!(first.continue_after.as_deref(), Some(key(3).as_str()));
    assert_eq!(first.remaining, Some(6));

    // Writes between pages must not show in later pages of the same snapshot.
    store.delete(&key(5), None).await.expect("delete");
    store.create(&format!("{prefix}ns/k05b"), b("new")).await.expect("create");
    store.update(&key(7), b("changed"), revs[&7]).await.expect("update");

    let page = |after: Option<String>| ListOptions {
        revision: Some(snapshot),
        start_after: after,
        limit: Some(4),
        ..ListOptions::default()
    };
    let second = store.list(prefix, page(first.continue_after.clone())).await.expect("page 2");
    assert_eq!(second.revision, snapshot);
    assert_eq!(keys(&second.items), [key(4), key(5), key(6), key(7)]);
    assert_eq!(second.items[3].value, b("v7"));
    assert_eq!(second.remaining, Some(2));
    let third = store.list(prefix, page(second.continue_after.clone())).await.expect("page 3");
    assert_eq!(keys(&third.items), [key(8), key(9)]);
    assert_eq!((third.continue_after, third.remaining), (None, None));

    // An exact fit has no next page.
    let all = store
        .list(prefix, ListOptions { revision: Some(snapshot), limit: Some(10), ..ListOptions::default() })
        .await
        .expect("list");
    assert_eq!((all.items.len(), all.continue_after), (10, None));

    // The latest state has the writes.
    let latest = list_all(&store, prefix).await;
    assert_eq!(latest.len(), 10);
    assert!(latest.iter().any(|kv| kv.key.ends_with("k05b")));
    assert!(!latest.iter().any(|kv| kv.key == key(5)));
}

/// A watch from 0 replays every event in order, with the previous values.
pub async fn watch_from_zero_sees_all_events(store: Arc<dyn Store>) {
    let (a, b_key) = ("/registry/w/a", "/registry/w/b");
    let r1 = store.create(a, b("a1")).await.expect("create");
    let r2 = store.update(a, b("a2"), r1).await.expect("update");
    let r3 = store.create(b_key, b("b1")).await.expect("create");
    let (r4, _) = store.delete(a, Some(r2)).await.expect("delete");

    let mut stream = store.watch("/registry/w/", 0).expect("watch");
    let events = next_events(&mut stream, 4).await;
    let summary: Vec<_> = events.iter().map(|e| (e.kind, e.revision, e.kv.key.as_str())).collect();
    assert_eq!(
        summary,
        [
            (EventKind::Created, r1, a),
            (EventKind::Updated, r2, a),
            (EventKind::Created, r3, b_key),
            (EventKind::Deleted, r4, a)
        ]
    );
    assert_eq!(events[0].kv, kv(a, "a1", r1, r1));
    assert_eq!(events[0].prev, None);
    assert_eq!(events[1].kv, kv(a, "a2", r1, r2));
    assert_eq!(events[1].prev, Some(kv(a, "a1", r1, r1)));
    assert_eq!(events[3].kv, kv(a, "a2", r1, r4), "a delete event carries the last value at the delete's revision");
    assert_eq!(events[3].prev, Some(kv(a, "a2", r1, r2)));

    // Then live events, built the same way.
    let r5 = store.update(b_key, b("b2"), r3).await.expect("update");
    let (r6, _) = store.delete(b_key, None).await.expect("delete");
    let live = next_events(&mut stream, 2).await;
    assert_eq!((live[0].kind, live[0].revision), (EventKind::Updated, r5));
    assert_eq!(live[0].prev, Some(kv(b_key, "b1", r3, r3)));
    assert_eq!((live[1].kind, live[1].revision), (EventKind::Deleted, r6));
    assert_eq!(live[1].kv, kv(b_key, "b2", r3, r6));
    assert_eq!(live[1].prev, Some(kv(b_key, "b2", r3, r5)));
    assert_quiet(&mut stream).await;
}

/// A watch from a middle revision starts right after it.
pub async fn watch_from_middle_revision(store: Arc<dyn Store>) {
    let mut revs = Vec::new();
    for i in 0..5 {
        revs.push(store.create(&format!("/registry/m/k{i}"), b("x")).await.expect("create"));
    }
    let mut stream = store.watch("/registry/m/", revs[1]).expect("watch");
    let events = next_events(&mut stream, 3).await;
    assert_eq!(events.iter().map(|e| e.revision).collect::<Vec<_>>(), revs[2..]);
    let r = store.create("/registry/m/k5", b("x")).await.expect("create");
    assert_eq!(next_event(&mut stream).await.revision, r);

    // From the current revision: only what comes next.
    let mut stream = store.watch("/registry/m/", store.current_revision()).expect("watch");
    assert_quiet(&mut stream).await;
    let r = store.create("/registry/m/k6", b("x")).await.expect("create");
    assert_eq!(next_event(&mut stream).await.revision, r);

    // From a revision not written yet: it waits for it, like etcd.
    let mut stream = store.watch("/registry/m/", store.current_revision() + 1).expect("watch");
    store.create("/registry/m/k7", b("x")).await.expect("create");
    let r = store.create("/registry/m/k8", b("x")).await.expect("create");
    let event = next_event(&mut stream).await;
    assert_eq!((event.revision, event.kv.key.as_str()), (r, "/registry/m/k8"));
}

/// Watches see only their prefix, in history and live.
pub async fn watch_filters_by_prefix(store: Arc<dyn Store>) {
    let mine = "/registry/apps/deployments/ns/x";
    store.create(mine, b("1")).await.expect("create");
    store.create("/registry/apps/deploymentsX/ns/y", b("1")).await.expect("create");
    store.create("/registry/core/pods/ns/z", b("1")).await.expect("create");
    let mut stream = store.watch("/registry/apps/deployments/", 0).expect("watch");
    assert_eq!(next_event(&mut stream).await.kv.key, mine);
    store.create("/registry/apps/deploymentsX/ns/y2", b("1")).await.expect("create");
    let r = store.create("/registry/apps/deployments/other/w", b("1")).await.expect("create");
    let event = next_event(&mut stream).await;
    assert_eq!((event.revision, event.kv.key.as_str()), (r, "/registry/apps/deployments/other/w"));
    assert_quiet(&mut stream).await;
}

/// Watches started while writers run get history then live events with no gap and no
/// duplicate: for a single-prefix workload the revisions are consecutive.
pub async fn watch_history_then_live_without_gap(store: Arc<dyn Store>) {
    let prefix = "/registry/gap/";
    let writers = 4;
    let per_writer = 100;
    for i in 0..20 {
        store.create(&format!("{prefix}warm{i}"), b("x")).await.expect("create");
    }
    let start = store.current_revision();
    let mut tasks = Vec::new();
    for t in 0..writers {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            for i in 0..per_writer {
                let key = format!("{prefix}t{t}/k{i}");
                let rev = store.create(&key, b("1")).await.expect("create");
                if i % 3 == 0 {
                    store.update(&key, b("2"), rev).await.expect("update");
                }
            }
        }));
    }
    // Start watchers at different moments during the writes, each from a revision a little in
    // the past, so history and live overlap differently each time.
    let mut watchers = Vec::new();
    for i in 0..12 {
        let current = store.current_revision();
        let after = (current - (i as Revision % 4) * 7).max(start);
        watchers.push((after, store.watch(prefix, after).expect("watch")));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for task in tasks {
        task.await.expect("writer task");
    }
    let end = store.current_revision();
    for (after, mut stream) in watchers {
        let events = next_events(&mut stream, usize::try_from(end - after).unwrap_or(0)).await;
        for (i, event) in events.iter().enumerate() {
            assert_eq!(event.revision, after + 1 + i as Revision, "watch from {after}: gap or duplicate");
        }
        assert_quiet(&mut stream).await;
    }
}

/// Compaction refuses old watches and lists, keeps the snapshot at the compacted revision and
/// every current value, and later events still carry their previous values.
pub async fn compaction_forgets_history(store: Arc<dyn Store>) {
    let (a, b_key, c) = ("/registry/c/a", "/registry/c/b", "/registry/c/c");
    let r1 = store.create(a, b("a1")).await.expect("create");
    let r2 = store.update(a, b("a2"), r1).await.expect("update");
    store.create(b_key, b("b1")).await.expect("create");
    let (r4, _) = store.delete(b_key, None).await.expect("delete");
    let r5 = store.create(c, b("c1")).await.expect("create");
    let r6 = store.update(a, b("a3"), r2).await.expect("update");

    store.compact(r5).await.expect("compact");
    assert_eq!(store.compacted_revision(), r5);
    assert_watch_compacted(&store, "/registry/c/", r4).await;
    assert_watch_compacted(&store, "/registry/c/", 0).await;
    let at = |rev: Revision| ListOptions { revision: Some(rev), ..ListOptions::default() };
    match store.list("/registry/c/", at(r4)).await {
        Err(StoreError::Compacted { requested, compacted }) => assert_eq!((requested, compacted), (r4, r5)),
        other => panic!("expected Compacted, got {other:?}"),
    }
    let page = store.list("/registry/c/", at(r5)).await.expect("list at the compacted revision");
    assert_eq!(page.items, [kv(a, "a2", r1, r2), kv(c, "c1", r5, r5)]);
    assert_eq!(list_all(&store, "/registry/c/").await, [kv(a, "a3", r1, r6), kv(c, "c1", r5, r5)]);
    assert_eq!(store.get(a).await.expect("get"), Some(kv(a, "a3", r1, r6)));
    assert_eq!(store.get(b_key).await.expect("get"), None);

    let mut stream = store.watch("/registry/c/", r5).expect("watch from the compacted revision");
    let event = next_event(&mut stream).await;
    assert_eq!((event.kind, event.revision), (EventKind::Updated, r6));
    assert_eq!(event.prev, Some(kv(a, "a2", r1, r2)));

    // Compacting again lower is a no-op; beyond the current revision is refused.
    store.compact(r1).await.expect("compact lower");
    assert_eq!(store.compacted_revision(), r5);
    match store.compact(store.current_revision() + 5).await {
        Err(StoreError::FutureRevision { .. }) => {}
        other => panic!("expected FutureRevision, got {other:?}"),
    }
    // Writes continue normally, including re-creating a key whose tombstone was compacted.
    let r7 = store.create(b_key, b("b2")).await.expect("create after compaction");
    assert!(r7 > r6);
    assert_eq!(store.get(b_key).await.expect("get"), Some(kv(b_key, "b2", r7, r7)));
    store.compact(r7).await.expect("compact to the current revision");
    assert_eq!(list_all(&store, "/registry/c/").await.len(), 3);
}

/// 64 tasks × 100 creates: all succeed, with distinct revisions.
pub async fn concurrent_creates(store: Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for t in 0..64 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let mut revs = Vec::with_capacity(100);
            for i in 0..100 {
                revs.push(store.create(&format!("/registry/many/t{t:02}/k{i:03}"), b("x")).await.expect("create"));
            }
            revs
        }));
    }
    let mut all = HashSet::new();
    for task in tasks {
        for rev in task.await.expect("task") {
            assert!(all.insert(rev), "revision {rev} was handed out twice");
        }
    }
    assert_eq!(all.len(), 6400);
    assert_eq!(all.iter().copied().max(), Some(store.current_revision()));
    assert_eq!(list_all(&store, "/registry/many/").await.len(), 6400);
}
