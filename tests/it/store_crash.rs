//! Crash safety: a writer process killed with SIGKILL at an arbitrary moment leaves a
//! consistent database holding every acknowledged write, and the revision continues.
//!
//! The parent re-executes the test binary with `CRASH_CHILD_ENV` set, which turns
//! `crash_child_writer` into a writer that never stops: several tasks create, update and delete
//! keys (and a task compacts) while printing `TRY` before each write and `ACK` after it
//! returned. The parent kills it after some acknowledgements, reopens the database and checks
//! every key against the acknowledged writes. A kill -9 keeps the OS page cache, so this
//! proves crash consistency and acknowledgement-after-commit, not power-loss durability (that
//! part is SQLite's `synchronous=FULL` contract).

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use karmadactl_store::sqlite::{SqliteOptions, SqliteStore};
use karmadactl_store::{ListOptions, Revision, Store};

const CRASH_CHILD_ENV: &str = "KARMADACTL_STORE_CRASH_CHILD";
const TASKS: usize = 8;

/// The writer process. A no-op unless re-executed by `kill_9_keeps_every_acknowledged_write`.
#[test]
fn crash_child_writer() {
    let Ok(spec) = std::env::var(CRASH_CHILD_ENV) else { return };
    let (db, round) = spec.split_once('|').expect("spec is <db>|<round>");
    let round: usize = round.parse().expect("round");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(child(Path::new(db), round));
}

/// Prints one protocol line; exits quietly if the parent is gone.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

async fn child(db: &Path, round: usize) {
    let opts = SqliteOptions { compaction_step: 10, ..SqliteOptions::default() };
    let store = SqliteStore::open(db, opts).expect("child open");
    // Never outlive a parent that failed to kill us.
    let deadline = Instant::now() + Duration::from_secs(60);
    let compactor = {
        let store = Arc::clone(&store);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(3)).await;
                let target = store.current_revision() - 40;
                if target > store.compacted_revision() {
                    store.compact(target).await.expect("compact");
                }
            }
        })
    };
    let mut tasks = Vec::new();
    for t in 0..TASKS {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let key = |i: usize| format!("/crash/r{round}/t{t}/k{i}");
            let mut revs: HashMap<usize, Revision> = HashMap::new();
            for i in 0.. {
                if Instant::now() > deadline {
                    std::process::exit(0);
                }
                let value = format!("r{round}t{t}i{i}");
                say(&format!("TRY {t} C {} {value}", key(i)));
                let rev = store.create(&key(i), Bytes::from(value)).await.expect("create");
                say(&format!("ACK {t} {rev}"));
                revs.insert(i, rev);
                if i >= 1 {
                    let value = format!("r{round}t{t}i{}u", i - 1);
                    say(&format!("TRY {t} U {} {value}", key(i - 1)));
                    let rev = store.update(&key(i - 1), Bytes::from(value), revs[&(i - 1)]).await.expect("update");
                    say(&format!("ACK {t} {rev}"));
                    revs.insert(i - 1, rev);
                }
                if i >= 2 && i % 2 == 0 {
                    say(&format!("TRY {t} D {} -", key(i - 2)));
                    let (rev, _) = store.delete(&key(i - 2), None).await.expect("delete");
                    say(&format!("ACK {t} {rev}"));
                }
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    compactor.abort();
}

/// A write announced by `TRY`.
#[derive(Debug, Clone)]
struct Try {
    op: char,
    key: String,
    value: String,
}

/// What the parent knows: acknowledged state per key, and each task's unacknowledged write.
#[derive(Default)]
struct Acked {
    /// key -> Some((value, mod_revision)) when live, None when deleted.
    keys: BTreeMap<String, Option<(String, Revision)>>,
    pending: HashMap<usize, Try>,
    max_rev: Revision,
    acks: usize,
}

impl Acked {
    fn line(&mut self, line: &str) {
        // The test harness prints `test crash_child_writer ... ` without a newline first.
        let start = ["TRY ", "ACK "].iter().filter_map(|m| line.find(m)).min().unwrap_or(0);
        let parts: Vec<&str> = line[start..].split(' ').collect();
        match parts.as_slice() {
            ["TRY", t, op, key, value] => {
                let t: usize = t.parse().expect("task");
                let op = op.chars().next().expect("op");
                self.pending.insert(t, Try { op, key: key.to_string(), value: value.to_string() });
            }
            ["ACK", t, rev] => {
                let t: usize = t.parse().expect("task");
                let rev: Revision = rev.parse().expect("revision");
                let w = self.pending.remove(&t).expect("ACK follows TRY");
                // Tasks print concurrently, so ACKs need not arrive in revision order.
                self.max_rev = self.max_rev.max(rev);
                self.acks += 1;
                let state = if w.op == 'D' { None } else { Some((w.value, rev)) };
                self.keys.insert(w.key, state);
            }
            // A line cut short by the kill; only the last one can be.
            _ => {}
        }
    }
}

/// Runs one child until `acks` writes were acknowledged, kills it, and returns everything it
/// acknowledged (including lines still in the pipe).
fn run_child(db: &Path, round: usize, acks: usize, known: &mut Acked) {
    let exe = std::env::current_exe().expect("test binary");
    // The harness names a test by its module path within the binary: `store_crash::crash_child_writer`.
    let module = module_path!().split_once("::").expect("a module of the test binary").1;
    let mut child = Command::new(exe)
        .args(["--exact", &format!("{module}::crash_child_writer"), "--nocapture", "--test-threads=1"])
        .env(CRASH_CHILD_ENV, format!("{}|{round}", db.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn the writer");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let start = known.acks;
    while known.acks - start < acks {
        match lines.next() {
            Some(Ok(line)) => known.line(&line),
            other => panic!("the writer stopped early: {other:?}"),
        }
    }
    // SIGKILL on Unix: no destructor, no flush, no orderly shutdown.
    child.kill().expect("kill -9");
    for line in lines.map_while(Result::ok) {
        known.line(&line);
    }
    let status = child.wait().expect("wait");
    assert!(!status.success(), "the writer was killed, not finished: {status:?}");
}

async fn verify(db: &Path, known: &Acked) -> Arc<SqliteStore> {
    {
        let conn = rusqlite::Connection::open(db).expect("sqlite");
        let check: String = conn.query_row("PRAGMA integrity_check", [], |row| row.get(0)).expect("integrity");
        assert_eq!(check, "ok");
    }
    let store = SqliteStore::open(db, SqliteOptions::default()).expect("reopen after the kill");
    let current = store.current_revision();
    assert!(current >= known.max_rev, "revision {current} is behind acknowledged {}", known.max_rev);

    let pending: HashMap<&str, &Try> = known.pending.values().map(|t| (t.key.as_str(), t)).collect();
    for (key, state) in &known.keys {
        let got = store.get(key).await.expect("get");
        let got = got.map(|kv| (String::from_utf8(kv.value.to_vec()).expect("utf-8"), kv.mod_revision));
        if got.as_ref() == state.as_ref() {
            continue;
        }
        // Only the one write in flight at the kill may have landed without its ACK.
        let w = pending.get(key.as_str()).unwrap_or_else(|| panic!("{key}: acknowledged {state:?}, found {got:?}"));
        match (w.op, &got) {
            ('D', None) => {}
            // Its revision may be below other tasks' acknowledged ones (same batch), but it
            // must follow the key's acknowledged write.
            ('U', Some((value, rev))) if *value == w.value && state.as_ref().is_some_and(|(_, r)| rev > r) => {}
            _ => panic!("{key}: acknowledged {state:?}, in flight {w:?}, found {got:?}"),
        }
    }
    // Nothing appeared that was neither acknowledged nor in flight.
    let page = store.list("/crash/", ListOptions::default()).await.expect("list");
    for kv in &page.items {
        let acked_live = matches!(known.keys.get(&kv.key), Some(Some(_)));
        let in_flight_create = pending.get(kv.key.as_str()).is_some_and(|w| w.op == 'C');
        assert!(acked_live || in_flight_create, "unexpected key {} at revision {}", kv.key, kv.mod_revision);
    }
    // The snapshot at the compacted revision is still readable: compaction steps are atomic.
    let compacted = store.compacted_revision();
    store
        .list("/crash/", ListOptions { revision: Some(compacted), ..ListOptions::default() })
        .await
        .expect("list at the compacted revision");
    store
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_keeps_every_acknowledged_write() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("state.db");
    let mut known = Acked::default();
    // Kill after different amounts of work so the kill lands at different moments.
    for (round, acks) in [40, 300, 900, 150].into_iter().enumerate() {
        let db2 = db.clone();
        let mut round_known = std::mem::take(&mut known);
        round_known = tokio::task::spawn_blocking(move || {
            run_child(&db2, round, acks, &mut round_known);
            round_known
        })
        .await
        .expect("child round");
        known = round_known;

        let in_flight = known.pending.len();
        let store = verify(&db, &known).await;
        eprintln!(
            "round {round}: {} acknowledged writes so far, {in_flight} in flight at the kill, revision {}, compacted {}",
            known.acks,
            store.current_revision(),
            store.compacted_revision()
        );
        // Writes go on from the last revision, and the next child continues from there.
        let before = store.current_revision();
        let rev =
            store.create(&format!("/parent/after-round-{round}"), Bytes::from_static(b"x")).await.expect("create");
        assert_eq!(rev, before + 1);
        known.max_rev = rev;
        // The in-flight writes of this round are settled now: re-read every key they may have
        // touched so the next round compares against what is really there.
        let mut keys: Vec<String> = known.keys.keys().cloned().collect();
        keys.extend(known.pending.drain().map(|(_, w)| w.key));
        for key in keys {
            let got = store.get(&key).await.expect("get");
            let state = got.map(|kv| (String::from_utf8(kv.value.to_vec()).expect("utf-8"), kv.mod_revision));
            known.keys.insert(key, state);
        }
        drop(store);
    }
    assert!(known.acks >= 1390);
}
