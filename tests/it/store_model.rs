//! Property test: random operation sequences against SqliteStore and a simple in-memory model.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use karmadactl_store::sqlite::{SqliteOptions, SqliteStore, Synchronous};
use karmadactl_store::{EventKind, KeyValue, ListOptions, Revision, Store, StoreError};
use proptest::prelude::*;

/// Few keys, with prefixes that nearly collide, so operations meet each other often.
const KEYS: [&str; 6] =
    ["/registry/a/x", "/registry/a/y", "/registry/ab/z", "/registry/a/x/sub", "/registry/b/x", "/registry/a"];
const PREFIXES: [&str; 5] = ["", "/registry/a/", "/registry/a", "/registry/b/", "/registry/a/x"];

#[derive(Debug, Clone)]
enum Op {
    Create(usize, u8),
    /// `right`: use the key's actual revision; otherwise `wrong`.
    Update(usize, u8, bool, Revision),
    Delete(usize, Option<(bool, Revision)>),
    Get(usize),
    List {
        prefix: usize,
        at: Option<u16>,
        limit: Option<usize>,
    },
    Watch {
        prefix: usize,
        after: u16,
    },
    Compact(u16),
    Reopen,
}

fn op() -> impl Strategy<Value = Op> {
    let key = 0..KEYS.len();
    prop_oneof![
        4 => (key.clone(), any::<u8>()).prop_map(|(k, v)| Op::Create(k, v)),
        4 => (key.clone(), any::<u8>(), any::<bool>(), 0..40i64).prop_map(|(k, v, r, w)| Op::Update(k, v, r, w)),
        2 => (key.clone(), proptest::option::of((any::<bool>(), 0..40i64))).prop_map(|(k, e)| Op::Delete(k, e)),
        2 => key.prop_map(Op::Get),
        3 => (0..PREFIXES.len(), proptest::option::of(any::<u16>()), proptest::option::of(1..4usize))
            .prop_map(|(prefix, at, limit)| Op::List { prefix, at, limit }),
        2 => (0..PREFIXES.len(), any::<u16>()).prop_map(|(prefix, after)| Op::Watch { prefix, after }),
        1 => any::<u16>().prop_map(Op::Compact),
        1 => Just(Op::Reopen),
    ]
}

/// One write as the model remembers it; `value: None` is a delete.
#[derive(Debug, Clone)]
struct Write {
    rev: Revision,
    key: String,
    value: Option<Bytes>,
    create_revision: Revision,
}

#[derive(Default)]
struct Model {
    rev: Revision,
    compacted: Revision,
    log: Vec<Write>,
}

impl Model {
    /// The live values at `rev`.
    fn snapshot(&self, rev: Revision) -> BTreeMap<String, KeyValue> {
        let mut state = BTreeMap::new();
        for w in self.log.iter().take_while(|w| w.rev <= rev) {
            match &w.value {
                Some(value) => {
                    let kv = KeyValue {
                        key: w.key.clone(),
                        value: value.clone(),
                        create_revision: w.create_revision,
                        mod_revision: w.rev,
                    };
                    state.insert(w.key.clone(), kv);
                }
                None => {
                    state.remove(&w.key);
                }
            }
        }
        state
    }

    fn live(&self, key: &str) -> Option<KeyValue> {
        self.snapshot(self.rev).remove(key)
    }

    fn write(&mut self, key: &str, value: Option<Bytes>, create_revision: Revision) -> Revision {
        self.rev += 1;
        self.log.push(Write { rev: self.rev, key: key.to_string(), value, create_revision });
        self.rev
    }

    /// The events a watch from `after` on `prefix` must replay: (kind, revision, kv, prev).
    fn events(&self, prefix: &str, after: Revision) -> Vec<(EventKind, Revision, KeyValue, Option<KeyValue>)> {
        let mut state: BTreeMap<String, KeyValue> = BTreeMap::new();
        let mut out = Vec::new();
        for w in &self.log {
            let prev = state.get(&w.key).cloned();
            let event = match &w.value {
                Some(value) => {
                    let kv = KeyValue {
                        key: w.key.clone(),
                        value: value.clone(),
                        create_revision: w.create_revision,
                        mod_revision: w.rev,
                    };
                    state.insert(w.key.clone(), kv.clone());
                    let kind = if prev.is_none() { EventKind::Created } else { EventKind::Updated };
                    (kind, w.rev, kv, prev)
                }
                None => {
                    state.remove(&w.key);
                    let last = prev.clone().expect("the model deletes only live keys");
                    (EventKind::Deleted, w.rev, KeyValue { mod_revision: w.rev, ..last }, prev)
                }
            };
            if w.rev > after && w.key.starts_with(prefix) {
                out.push(event);
            }
        }
        out
    }
}

/// Picks a revision in `0..=max` from a random number.
fn pick(n: u16, max: Revision) -> Revision {
    Revision::from(n) % (max + 1)
}

fn options() -> SqliteOptions {
    // Durability is not under test here; the crash test covers it.
    SqliteOptions { synchronous: Synchronous::Normal, compaction_step: 3, ..SqliteOptions::default() }
}

fn open(dir: &tempfile::TempDir) -> Arc<SqliteStore> {
    SqliteStore::open(&dir.path().join("state.db"), options()).expect("open")
}

/// Opens the store again after its handle was dropped. A process another test is starting at
/// that moment holds a copy of the lock file's descriptor until it execs (the lock belongs to
/// the open file, which a fork shares), so a refusal as locked is retried for a moment.
async fn reopen(dir: &tempfile::TempDir) -> Arc<SqliteStore> {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        match SqliteStore::open(&dir.path().join("state.db"), options()) {
            Err(e) if format!("{e:?}").contains("Locked") && std::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            other => return other.expect("reopen"),
        }
    }
}

async fn run(ops: Vec<Op>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = open(&dir);
    // Like etcd, an empty store is at revision 1; the first write gets 2.
    let mut m = Model { rev: 1, ..Model::default() };
    assert_eq!(store.current_revision(), 1);
    for op in ops {
        match op {
            Op::Create(k, v) => {
                let key = KEYS[k];
                let got = store.create(key, Bytes::from(vec![v])).await;
                if m.live(key).is_some() {
                    assert!(matches!(got, Err(StoreError::AlreadyExists { .. })), "{op:?}: {got:?}");
                } else {
                    let rev = m.rev + 1;
                    m.write(key, Some(Bytes::from(vec![v])), rev);
                    assert_eq!(got.expect("create"), rev, "revisions are dense");
                }
            }
            Op::Update(k, v, right, wrong) => {
                let key = KEYS[k];
                let live = m.live(key);
                let expected = match (&live, right) {
                    (Some(kv), true) => kv.mod_revision,
                    _ => wrong,
                };
                let got = store.update(key, Bytes::from(vec![v]), expected).await;
                match live {
                    None => assert!(matches!(got, Err(StoreError::NotFound { .. })), "{op:?}: {got:?}"),
                    Some(kv) if kv.mod_revision != expected => match got {
                        Err(StoreError::Conflict { actual, .. }) => assert_eq!(actual, kv.mod_revision),
                        other => panic!("{op:?}: expected Conflict, got {other:?}"),
                    },
                    Some(kv) => {
                        let rev = m.write(key, Some(Bytes::from(vec![v])), kv.create_revision);
                        assert_eq!(got.expect("update"), rev);
                    }
                }
            }
            Op::Delete(k, expect) => {
                let key = KEYS[k];
                let live = m.live(key);
                let expected = expect.map(|(right, wrong)| match (&live, right) {
                    (Some(kv), true) => kv.mod_revision,
                    _ => wrong,
                });
                let got = store.delete(key, expected).await;
                match live {
                    None => assert!(matches!(got, Err(StoreError::NotFound { .. })), "{op:?}: {got:?}"),
                    Some(kv) if expected.is_some_and(|e| e != kv.mod_revision) => {
                        assert!(matches!(got, Err(StoreError::Conflict { .. })), "{op:?}: {got:?}");
                    }
                    Some(kv) => {
                        let rev = m.write(key, None, kv.create_revision);
                        assert_eq!(got.expect("delete"), (rev, kv));
                    }
                }
            }
            Op::Get(k) => {
                assert_eq!(store.get(KEYS[k]).await.expect("get"), m.live(KEYS[k]), "{op:?}");
            }
            Op::List { prefix, at, limit } => {
                let prefix = PREFIXES[prefix];
                let rev = at.map_or(m.rev, |n| pick(n, m.rev));
                let want: Vec<KeyValue> =
                    m.snapshot(rev).into_values().filter(|kv| kv.key.starts_with(prefix)).collect();
                let mut opts =
                    ListOptions { revision: at.map(|_| rev), start_after: None, limit, ..ListOptions::default() };
                let mut got = Vec::new();
                loop {
                    let page = store.list(prefix, opts.clone()).await;
                    if rev < m.compacted {
                        assert!(matches!(page, Err(StoreError::Compacted { .. })), "{op:?}: {page:?}");
                        break;
                    }
                    let page = page.expect("list");
                    assert_eq!(page.revision, rev);
                    got.extend(page.items);
                    match page.continue_after {
                        Some(last) => {
                            assert_eq!(page.remaining, Some((want.len() - got.len()) as i64));
                            opts = ListOptions {
                                revision: Some(page.revision),
                                start_after: Some(last),
                                limit,
                                ..ListOptions::default()
                            };
                        }
                        None => {
                            assert_eq!(got, want, "{op:?} at {rev}");
                            break;
                        }
                    }
                }
            }
            Op::Watch { prefix, after } => {
                let prefix = PREFIXES[prefix];
                let after = pick(after, m.rev);
                if after < m.compacted {
                    match store.watch(prefix, after) {
                        Err(StoreError::Compacted { .. }) => {}
                        other => panic!("{op:?}: expected Compacted, got {:?}", other.map(|_| "a stream")),
                    }
                    continue;
                }
                let mut stream = store.watch(prefix, after).expect("watch");
                for (kind, rev, kv, prev) in m.events(prefix, after) {
                    let event = tokio::time::timeout(Duration::from_secs(10), stream.next())
                        .await
                        .expect("event in time")
                        .expect("stream open")
                        .expect("event");
                    assert_eq!((event.kind, event.revision, &event.kv, &event.prev), (kind, rev, &kv, &prev), "{op:?}");
                }
            }
            Op::Compact(n) => {
                let upto = pick(n, m.rev);
                store.compact(upto).await.expect("compact");
                m.compacted = m.compacted.max(upto);
                assert_eq!(store.compacted_revision(), m.compacted);
            }
            Op::Reopen => {
                drop(store);
                store = reopen(&dir).await;
                assert_eq!(store.current_revision(), m.rev, "the revision continues after reopening");
                assert_eq!(store.compacted_revision(), m.compacted);
            }
        }
        assert_eq!(store.current_revision(), m.rev);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn sqlite_store_matches_the_model(ops in proptest::collection::vec(op(), 1..60)) {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(run(ops));
    }
}
