//! The store conformance suite and SQLite-specific behaviour (group commit, reopen, watch hub).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::StreamExt;
use karmadactl_store::conformance::next_event;
use karmadactl_store::sqlite::{SqliteOptions, SqliteStore, Synchronous};
use karmadactl_store::{CompactionPolicy, ListOptions, Store, StoreError, spawn_compactor};

async fn fresh() -> (tempfile::TempDir, Arc<dyn Store>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(&dir.path().join("state.db"), SqliteOptions::default()).expect("open");
    (dir, store)
}

karmadactl_store::store_conformance_tests!(fresh);

fn open(dir: &tempfile::TempDir, opts: SqliteOptions) -> Arc<SqliteStore> {
    SqliteStore::open(&dir.path().join("state.db"), opts).expect("open")
}

fn b(s: &str) -> Bytes {
    Bytes::copy_from_slice(s.as_bytes())
}

/// Runs `writers` tasks doing `per_writer` creates each; returns creates per second.
async fn create_load(store: &Arc<SqliteStore>, tag: &str, writers: usize, per_writer: usize) -> f64 {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for t in 0..writers {
        let store = Arc::clone(store);
        let tag = tag.to_string();
        tasks.push(tokio::spawn(async move {
            for i in 0..per_writer {
                store.create(&format!("/registry/load/{tag}/{t}/{i}"), b("{}")).await.expect("create");
            }
        }));
    }
    for task in tasks {
        task.await.expect("writer");
    }
    (writers * per_writer) as f64 / started.elapsed().as_secs_f64()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn group_commit_batches_concurrent_writes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions::default());

    let before = store.stats();
    let single = create_load(&store, "single", 1, 100).await;
    let after_single = store.stats();
    assert_eq!(after_single.writes - before.writes, 100);
    assert_eq!(after_single.commits - before.commits, 100, "a lone writer commits every write at once");

    let concurrent = create_load(&store, "many", 64, 50).await;
    let end = store.stats();
    let writes = end.writes - after_single.writes;
    let commits = end.commits - after_single.commits;
    assert_eq!(writes, 3200);
    assert!(commits < writes / 4, "64 concurrent writers should share commits: {commits} commits for {writes} writes");
    assert!(end.largest_batch > 1);
    eprintln!(
        "group commit: 1 writer {single:.0} creates/s (1 commit each); 64 writers {concurrent:.0} creates/s \
         ({writes} writes in {commits} commits, largest batch {})",
        end.largest_batch
    );
    // Loose on purpose (other tests share the CPU, and a tmpfs makes fsync free): measured here
    // with real fsyncs it is about 15x; it must at least be clearly more.
    assert!(concurrent > single * 1.5, "64 writers: {concurrent:.0}/s vs 1 writer: {single:.0}/s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn conflicts_in_a_batch_do_not_fail_the_others() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions::default());
    let rev = store.create("/registry/k", b("0")).await.expect("create");
    // 32 concurrent compare-and-swaps on one key from the same revision: exactly one wins,
    // and the concurrent creates of other keys, in the same batches, all succeed.
    let mut tasks = Vec::new();
    for i in 0..32 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let cas = store.update("/registry/k", b(&i.to_string()), rev).await;
            let create = store.create(&format!("/registry/other/{i}"), b("x")).await;
            (cas, create)
        }));
    }
    let mut wins = 0;
    for task in tasks {
        let (cas, create) = task.await.expect("task");
        create.expect("an unrelated create in the same batch");
        match cas {
            Ok(_) => wins += 1,
            Err(StoreError::Conflict { expected, actual, .. }) => assert!(expected == rev && actual > rev),
            Err(err) => panic!("unexpected error: {err}"),
        }
    }
    assert_eq!(wins, 1);
    assert_eq!(store.stats().failed_writes, 31);
    let page = store.list("/registry/other/", ListOptions::default()).await.expect("list");
    assert_eq!(page.items.len(), 32);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopening_continues_the_revision_and_keeps_the_data() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (r1, r2, last) = {
        let store = open(&dir, SqliteOptions::default());
        let r1 = store.create("/registry/a", b("a")).await.expect("create");
        let r2 = store.update("/registry/a", b("a2"), r1).await.expect("update");
        store.create("/registry/b", b("b")).await.expect("create");
        let (last, _) = store.delete("/registry/b", None).await.expect("delete");
        // Compacting away the newest row (the tombstone) must not make revisions restart lower.
        store.compact(last).await.expect("compact");
        (r1, r2, last)
    };
    let store = open(&dir, SqliteOptions::default());
    assert_eq!(store.current_revision(), last);
    assert_eq!(store.compacted_revision(), last);
    let a = store.get("/registry/a").await.expect("get").expect("a survives");
    assert_eq!((a.value, a.create_revision, a.mod_revision), (b("a2"), r1, r2));
    assert_eq!(store.get("/registry/b").await.expect("get"), None);
    let next = store.create("/registry/c", b("c")).await.expect("create");
    assert_eq!(next, last + 1);
}

#[tokio::test]
async fn a_second_open_of_the_same_database_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions::default());
    let err = match SqliteStore::open(&dir.path().join("state.db"), SqliteOptions::default()) {
        Ok(_) => panic!("two stores on one database would hand out the same revisions"),
        Err(err) => err,
    };
    let chain = error_chain(&err);
    assert!(chain.contains("already open"), "{chain}");
    drop(store);
    open(&dir, SqliteOptions::default());
}

#[tokio::test]
async fn open_failures_name_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("missing-dir").join("state.db");
    let err = match SqliteStore::open(&path, SqliteOptions::default()) {
        Ok(_) => panic!("opening in a missing directory must fail"),
        Err(err) => err,
    };
    let chain = error_chain(&err);
    assert!(chain.contains("missing-dir"), "{chain}");

    // Not a database: refused with the path, not a panic.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![0x42u8; 8192]).expect("write");
    let err = match SqliteStore::open(&junk, SqliteOptions::default()) {
        Ok(_) => panic!("a file that is not a database must be refused"),
        Err(err) => err,
    };
    assert!(error_chain(&err).contains("junk.db"), "{}", error_chain(&err));
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut out = err.to_string();
    let mut cause = err.source();
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

#[tokio::test]
async fn unusual_keys_are_stored_as_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions::default());
    let long = format!("/registry/{}", "x".repeat(10_000));
    for key in ["", "/", "/registry/ü/日本/\u{10FFFF}", "/registry/nul\0inside", long.as_str()] {
        let rev = store.create(key, b(key)).await.expect("create");
        let got = store.get(key).await.expect("get").expect("present");
        assert_eq!((got.key.as_str(), got.mod_revision), (key, rev));
    }
    let page = store.list("/registry/\u{10FFFF}", ListOptions::default()).await.expect("list");
    assert!(page.items.is_empty());
    let page = store.list("/registry/ü/", ListOptions::default()).await.expect("list");
    assert_eq!(page.items.len(), 1);
    assert_eq!(store.list("", ListOptions::default()).await.expect("list").items.len(), 5);
    // Negative revisions are clamped rather than trusted.
    let page = store.list("", ListOptions { revision: Some(-3), ..ListOptions::default() }).await.expect("list");
    assert!(page.items.is_empty());
    let mut stream = store.watch("/registry/nul", -10).expect("watch");
    assert_eq!(next_event(&mut stream).await.kv.key, "/registry/nul\0inside");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_that_falls_behind_is_told_to_relist() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions { watch_buffer: 4, ..SqliteOptions::default() });
    let mut slow = store.watch("/registry/", store.current_revision()).expect("watch");
    // Sequential writes: one commit each, so 20 commits overrun a ring of 4.
    for i in 0..20 {
        store.create(&format!("/registry/s/{i}"), b("x")).await.expect("create");
    }
    let mut saw_too_slow = false;
    while let Some(item) = tokio::time::timeout(Duration::from_secs(10), slow.next()).await.expect("no hang") {
        match item {
            Ok(_) => assert!(!saw_too_slow, "no events after WatcherTooSlow"),
            Err(StoreError::WatcherTooSlow) => saw_too_slow = true,
            Err(err) => panic!("unexpected error: {err}"),
        }
    }
    assert!(saw_too_slow);
    // A fresh watch from the last revision still works.
    let mut stream = store.watch("/registry/", store.current_revision()).expect("watch");
    let rev = store.create("/registry/s/after", b("x")).await.expect("create");
    assert_eq!(next_event(&mut stream).await.revision, rev);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_watchers_are_cheap() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions::default());
    let start = store.current_revision();
    let mut streams = Vec::new();
    for i in 0..1000 {
        streams.push(store.watch(&format!("/registry/ns{}/", i % 10), start).expect("watch"));
    }
    assert_eq!(store.stats().watchers, 1000);
    let began = Instant::now();
    for i in 0..100 {
        store.create(&format!("/registry/ns{}/k{i}", i % 10), b("x")).await.expect("create");
    }
    // Each watcher sees exactly the 10 events of its prefix.
    let mut readers = Vec::new();
    for (i, mut stream) in streams.into_iter().enumerate() {
        readers.push(tokio::spawn(async move {
            for j in 0..10 {
                let event = next_event(&mut stream).await;
                assert_eq!(event.kv.key, format!("/registry/ns{}/k{}", i % 10, j * 10 + i % 10));
            }
        }));
    }
    for reader in readers {
        reader.await.expect("reader");
    }
    eprintln!("1000 watchers x 100 writes delivered in {:?}", began.elapsed());
    assert_eq!(store.stats().watchers, 0, "finished streams release their slot");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_end_with_closed_when_the_store_closes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions::default());
    let mut stream = store.watch("/registry/", 0).expect("watch");
    drop(store);
    match tokio::time::timeout(Duration::from_secs(10), stream.next()).await.expect("no hang") {
        Some(Err(StoreError::Closed)) => {}
        other => panic!("expected Closed, got {other:?}"),
    }
    assert!(stream.next().await.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compaction_removes_superseded_rows_from_the_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions { compaction_step: 7, ..SqliteOptions::default() });
    let mut rev = store.create("/registry/hot", b("0")).await.expect("create");
    for i in 1..50 {
        rev = store.update("/registry/hot", b(&i.to_string()), rev).await.expect("update");
    }
    for i in 0..10 {
        store.create(&format!("/registry/tmp/{i}"), b("x")).await.expect("create");
        store.delete(&format!("/registry/tmp/{i}"), None).await.expect("delete");
    }
    let keep = store.create("/registry/keep", b("k")).await.expect("create");
    let current = store.current_revision();
    store.compact(current).await.expect("compact");
    assert!(store.stats().compaction_steps >= 10, "compaction ran in steps of 7 revisions");

    // Inspect the file the way an operator would: one row per live key is left.
    let conn = rusqlite::Connection::open(dir.path().join("state.db")).expect("sqlite");
    let mut stmt = conn.prepare("SELECT id, key, deleted FROM log ORDER BY id").expect("prepare");
    let rows: Vec<(i64, String, bool)> = stmt
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(rows, [(rev, "/registry/hot".to_string(), false), (keep, "/registry/keep".to_string(), false)]);
    let compacted: i64 =
        conn.query_row("SELECT value FROM meta WHERE name = 'compacted_revision'", [], |row| row.get(0)).expect("meta");
    assert_eq!(compacted, current);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_compactor_keeps_a_window_of_history() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open(&dir, SqliteOptions { synchronous: Synchronous::Normal, ..SqliteOptions::default() });
    let policy = CompactionPolicy {
        interval: Duration::from_millis(20),
        keep_for: Duration::from_millis(300),
        keep_revisions: 10,
    };
    let keep_for = policy.keep_for;
    let spawned = Instant::now();
    let handle = spawn_compactor(Arc::clone(&store) as Arc<dyn Store>, policy);
    let mut rev = store.create("/registry/k", b("0")).await.expect("create");
    for i in 0..40 {
        rev = store.update("/registry/k", b(&i.to_string()), rev).await.expect("update");
    }
    // Nothing is compacted inside the time window, even though 41 > 10 revisions exist.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let early = store.compacted_revision();
    assert!(early == 0 || spawned.elapsed() >= keep_for, "compacted to {early} inside the window");
    let deadline = Instant::now() + Duration::from_secs(10);
    while store.compacted_revision() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let compacted = store.compacted_revision();
    assert!(compacted > 0, "the compactor never ran");
    assert!(compacted <= rev - 10, "compacted {compacted} with current {rev}: the newest 10 must stay");
    // The kept window still serves a resume.
    let mut stream = store.watch("/registry/", rev - 10).expect("watch inside the window");
    assert_eq!(next_event(&mut stream).await.revision, rev - 9);
    handle.abort();
}

/// Prints creates/s and commits for 1..256 concurrent writers (`cargo test -- --ignored`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check; run it with --ignored --nocapture"]
async fn throughput_report() {
    for sync in [Synchronous::Full, Synchronous::Normal] {
        for writers in [1, 4, 16, 64, 256] {
            let dir = tempfile::tempdir().expect("temp dir");
            let store = open(&dir, SqliteOptions { synchronous: sync, ..SqliteOptions::default() });
            let per_writer = (2000 / writers).max(20);
            let rate = create_load(&store, "t", writers, per_writer).await;
            let s = store.stats();
            eprintln!(
                "{sync:?} {writers:>3} writers: {rate:>7.0} creates/s, {} writes in {} commits ({:.1} per commit)",
                s.writes,
                s.commits,
                s.writes as f64 / s.commits.max(1) as f64
            );
        }
    }
}
