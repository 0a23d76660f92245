//! The writer thread: group commit of concurrent writes into one durable SQLite transaction.
//!
//! rusqlite is synchronous and SQLite admits one writer at a time, so one `std::thread` owns
//! the only writing connection. Callers send requests over a bounded channel and wait on a
//! oneshot for their own result. The thread takes every request already queued (up to
//! `max_batch`), applies them in order inside one transaction and commits once: one WAL fsync
//! for the whole batch. While it waits for the disk, new requests queue up and form the next
//! batch, so the batch size (and throughput) grows with the number of concurrent writers
//! without adding any delay for a lone writer.
//!
//! A logical failure (conflict, missing key) only answers that request; the others in the batch
//! still commit. Only a failure of SQLite itself (disk full, I/O error) fails the whole batch;
//! the writer then keeps running and probes until it can write again (see [`super::health`]).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Instant;

use bytes::Bytes;
use rusqlite::{Connection, OptionalExtension};
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::{mpsc, oneshot};

use super::super::watch::Hub;
use super::super::{Event, EventKind, KeyValue, Revision, StoreError};
use super::health::{self, Health, storage_error};
use super::schema::{self, Synchronous};

type Reply<T> = oneshot::Sender<Result<T, StoreError>>;

/// One write request.
pub(super) enum Request {
    Create {
        key: String,
        value: Bytes,
        reply: Reply<Revision>,
    },
    Update {
        key: String,
        value: Bytes,
        expected: Revision,
        reply: Reply<Revision>,
    },
    Delete {
        key: String,
        expected: Option<Revision>,
        reply: Reply<(Revision, KeyValue)>,
    },
    /// One compaction step up to `upto`; the store splits a large compaction into steps so
    /// writes are not held up behind one long transaction.
    Compact {
        upto: Revision,
        reply: Reply<()>,
    },
}

/// State the writer publishes to the rest of the store.
#[derive(Default)]
pub(super) struct Shared {
    /// The revision of the last committed write. Set after the commit, before publishing.
    pub current: AtomicI64,
    pub compacted: AtomicI64,
    pub writes: AtomicU64,
    pub failed_writes: AtomicU64,
    pub commits: AtomicU64,
    pub largest_batch: AtomicU64,
    pub compaction_steps: AtomicU64,
    pub health: Health,
}

pub(super) struct Writer {
    pub conn: Connection,
    pub rx: mpsc::Receiver<Request>,
    pub shared: Arc<Shared>,
    pub hub: Hub,
    pub max_batch: usize,
    /// The database, to open the writing connection again when it stops working.
    pub path: PathBuf,
    pub synchronous: Synchronous,
}

/// The latest row of a key.
struct Row {
    id: Revision,
    create_revision: Revision,
    deleted: bool,
    value: Bytes,
}

impl Row {
    fn kv(&self, key: &str) -> KeyValue {
        KeyValue {
            key: key.to_string(),
            value: self.value.clone(),
            create_revision: self.create_revision,
            mod_revision: self.id,
        }
    }
}

/// What one transaction has done so far.
struct Txn {
    /// The last revision handed out (committed or in this transaction).
    last: Revision,
    compacted: Revision,
    events: Vec<Event>,
    compaction_steps: u64,
}

/// A processed request waiting for the commit before it is answered.
enum Done {
    Rev(Reply<Revision>, Result<Revision, StoreError>),
    Delete(Reply<(Revision, KeyValue)>, Result<(Revision, KeyValue), StoreError>),
    Unit(Reply<()>, Result<(), StoreError>),
}

/// The outcome of one request: `Err` is a failure of SQLite, `Ok(Err)` a logical refusal.
type Step<T> = rusqlite::Result<Result<T, StoreError>>;

impl Done {
    fn failed(req: Request, err: &Arc<rusqlite::Error>) -> Done {
        match req {
            Request::Create { reply, .. } | Request::Update { reply, .. } => Done::Rev(reply, Err(storage_error(err))),
            Request::Delete { reply, .. } => Done::Delete(reply, Err(storage_error(err))),
            Request::Compact { reply, .. } => Done::Unit(reply, Err(storage_error(err))),
        }
    }

    /// Replaces the outcome with `err`: the transaction that held the write did not commit.
    fn fail(self, err: &Arc<rusqlite::Error>) -> Done {
        match self {
            Done::Rev(reply, _) => Done::Rev(reply, Err(storage_error(err))),
            Done::Delete(reply, _) => Done::Delete(reply, Err(storage_error(err))),
            Done::Unit(reply, _) => Done::Unit(reply, Err(storage_error(err))),
        }
    }

    fn is_write(&self) -> bool {
        !matches!(self, Done::Unit(..))
    }

    fn is_err(&self) -> bool {
        match self {
            Done::Rev(_, r) => r.is_err(),
            Done::Delete(_, r) => r.is_err(),
            Done::Unit(_, r) => r.is_err(),
        }
    }

    fn send(self) {
        // A caller that stopped waiting (its future was dropped) is not an error: the write
        // happened, like an etcd request whose client went away.
        match self {
            Done::Rev(reply, r) => drop(reply.send(r)),
            Done::Delete(reply, r) => drop(reply.send(r)),
            Done::Unit(reply, r) => drop(reply.send(r)),
        }
    }
}

impl Writer {
    /// Runs until every sender is gone, then returns (the store is closing).
    pub fn run(mut self) {
        let mut batch = Vec::with_capacity(self.max_batch);
        while let Some(first) = self.next_request() {
            batch.push(first);
            while batch.len() < self.max_batch {
                match self.rx.try_recv() {
                    Ok(req) => batch.push(req),
                    Err(_) => break,
                }
            }
            // A panic must not take the writer down with it: the store would answer "closed"
            // to every later write until a restart. The batch's callers see their replies
            // dropped; the next batch starts from a clean connection.
            let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.apply(&mut batch)));
            if applied.is_err() {
                batch.clear();
                if !self.conn.is_autocommit() {
                    let _ = self.conn.execute_batch("ROLLBACK");
                }
                self.shared.health.failed("the store writer failed while applying a batch of writes".to_string());
            }
        }
    }

    /// The next request; `None` once every sender is gone. While the store is failing, probes
    /// between polls of the queue so that it recovers even when nobody writes.
    fn next_request(&mut self) -> Option<Request> {
        let mut last_probe = Instant::now();
        while self.shared.health.failure().is_some() {
            match self.rx.try_recv() {
                Ok(req) => return Some(req),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => {}
            }
            if last_probe.elapsed() >= health::PROBE_INTERVAL {
                self.probe();
                last_probe = Instant::now();
            } else {
                std::thread::sleep(health::POLL_INTERVAL);
            }
        }
        self.rx.blocking_recv()
    }

    /// Tries one write of its own; on a failure other than a full disk, opens the connection
    /// again in case this one is what broke.
    fn probe(&mut self) {
        let err = match health::probe(&self.conn) {
            Ok(()) => return self.shared.health.recovered(),
            Err(err) => err,
        };
        if health::is_disk_full(&err) {
            return self.shared.health.failed(err.to_string());
        }
        let reopened = rusqlite::Connection::open(&self.path)
            .map_err(StoreError::backend)
            .and_then(|mut conn| schema::init_writer(&mut conn, self.synchronous).map(|_| conn));
        match reopened {
            Ok(conn) => {
                tracing::info!(path = %self.path.display(), "reopened the store's writing connection");
                self.conn = conn;
            }
            Err(reopen) => self.shared.health.failed(format!("{err}; reopening the database failed: {reopen}")),
        }
    }

    fn apply(&mut self, batch: &mut Vec<Request>) {
        let size = batch.len() as u64;
        let base_compacted = self.shared.compacted.load(Ordering::Acquire);
        let mut txn = Txn {
            last: self.shared.current.load(Ordering::Acquire),
            compacted: base_compacted,
            events: Vec::new(),
            compaction_steps: 0,
        };
        let mut done = Vec::with_capacity(batch.len());

        if let Err(err) = self.conn.execute_batch("BEGIN IMMEDIATE") {
            let err = Arc::new(err);
            tracing::error!(error = %err, "the store could not start a write transaction");
            self.shared.health.failed(err.to_string());
            done.extend(batch.drain(..).map(|req| Done::failed(req, &err)));
            self.finish(done, size, false);
            return;
        }

        let mut aborted: Option<Arc<rusqlite::Error>> = None;
        for req in batch.drain(..) {
            if let Some(err) = &aborted {
                done.push(Done::failed(req, err));
                continue;
            }
            match self.exec(req, &mut txn) {
                Ok(d) => done.push(d),
                Err((d, err)) => {
                    done.push(d);
                    // Statement errors leave the transaction open; I/O errors and a full disk
                    // may make SQLite roll the whole transaction back.
                    if self.conn.is_autocommit() {
                        aborted = Some(err);
                    }
                }
            }
        }

        let result = match aborted {
            Some(err) => Err(err),
            None => self.conn.execute_batch("COMMIT").map_err(Arc::new),
        };
        match result {
            Ok(()) => {
                let dirty = !txn.events.is_empty() || txn.compacted != base_compacted;
                self.shared.current.store(txn.last, Ordering::Release);
                self.shared.compacted.store(txn.compacted, Ordering::Release);
                self.shared.compaction_steps.fetch_add(txn.compaction_steps, Ordering::Relaxed);
                if dirty {
                    self.shared.health.recovered();
                }
                // Writers hear back before watchers: publishing wakes every watcher, and with
                // a thousand of them the writers' replies would queue behind all of those.
                self.finish(done, size, dirty);
                if !txn.events.is_empty() {
                    self.hub.publish(Arc::from(txn.events));
                }
            }
            Err(err) => {
                tracing::error!(error = %err, requests = size, "the store could not commit a batch of writes");
                self.shared.health.failed(err.to_string());
                if !self.conn.is_autocommit() {
                    // Leave no half transaction behind for the next batch. If even the rollback
                    // fails the next BEGIN fails too and reports it.
                    let _ = self.conn.execute_batch("ROLLBACK");
                }
                let done = done.into_iter().map(|d| d.fail(&err)).collect();
                self.finish(done, size, false);
            }
        }
    }

    fn finish(&self, done: Vec<Done>, size: u64, committed: bool) {
        let s = &self.shared;
        if committed {
            s.commits.fetch_add(1, Ordering::Relaxed);
        }
        s.largest_batch.fetch_max(size, Ordering::Relaxed);
        for d in done {
            if d.is_write() {
                s.writes.fetch_add(1, Ordering::Relaxed);
                if d.is_err() {
                    s.failed_writes.fetch_add(1, Ordering::Relaxed);
                }
            }
            d.send();
        }
    }

    /// Applies one request. On a SQLite failure returns the failed answer and the error.
    #[allow(clippy::result_large_err)]
    fn exec(&self, req: Request, txn: &mut Txn) -> Result<Done, (Done, Arc<rusqlite::Error>)> {
        match req {
            Request::Create { key, value, reply } => match self.create(txn, key, value) {
                Ok(r) => Ok(Done::Rev(reply, r)),
                Err(e) => {
                    let e = Arc::new(e);
                    Err((Done::Rev(reply, Err(storage_error(&e))), e))
                }
            },
            Request::Update { key, value, expected, reply } => match self.update(txn, key, value, expected) {
                Ok(r) => Ok(Done::Rev(reply, r)),
                Err(e) => {
                    let e = Arc::new(e);
                    Err((Done::Rev(reply, Err(storage_error(&e))), e))
                }
            },
            Request::Delete { key, expected, reply } => match self.delete(txn, key, expected) {
                Ok(r) => Ok(Done::Delete(reply, r)),
                Err(e) => {
                    let e = Arc::new(e);
                    Err((Done::Delete(reply, Err(storage_error(&e))), e))
                }
            },
            Request::Compact { upto, reply } => match self.compact(txn, upto) {
                Ok(r) => Ok(Done::Unit(reply, r)),
                Err(e) => {
                    let e = Arc::new(e);
                    Err((Done::Unit(reply, Err(storage_error(&e))), e))
                }
            },
        }
    }

    fn latest(&self, key: &str) -> rusqlite::Result<Option<Row>> {
        self.conn
            .prepare_cached(
                // CAST: see `read::GET_SQL`.
                "SELECT id, create_revision, deleted, value FROM log WHERE key = CAST(?1 AS TEXT) ORDER BY id DESC LIMIT 1",
            )?
            .query_row([key], |row| {
                Ok(Row {
                    id: row.get(0)?,
                    create_revision: row.get(1)?,
                    deleted: row.get(2)?,
                    value: Bytes::from(row.get::<_, Vec<u8>>(3)?),
                })
            })
            .optional()
    }

    fn insert(
        &self,
        id: Revision,
        key: &str,
        value: &[u8],
        create_revision: Revision,
        prev_revision: Revision,
        deleted: bool,
    ) -> rusqlite::Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO log (id, key, value, create_revision, prev_revision, deleted) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(rusqlite::params![id, key, value, create_revision, prev_revision, deleted])?;
        Ok(())
    }

    fn create(&self, txn: &mut Txn, key: String, value: Bytes) -> Step<Revision> {
        let latest = self.latest(&key)?;
        if latest.as_ref().is_some_and(|row| !row.deleted) {
            return Ok(Err(StoreError::AlreadyExists { key }));
        }
        let rev = txn.last + 1;
        // A create after a delete points at the tombstone so compaction can find it.
        self.insert(rev, &key, &value, rev, latest.map_or(0, |row| row.id), false)?;
        txn.last = rev;
        let kv = KeyValue { key, value, create_revision: rev, mod_revision: rev };
        txn.events.push(Event::new(EventKind::Created, rev, kv, None));
        Ok(Ok(rev))
    }

    fn update(&self, txn: &mut Txn, key: String, value: Bytes, expected: Revision) -> Step<Revision> {
        let Some(row) = self.latest(&key)?.filter(|row| !row.deleted) else {
            return Ok(Err(StoreError::NotFound { key }));
        };
        if row.id != expected {
            return Ok(Err(StoreError::Conflict { key, expected, actual: row.id }));
        }
        let rev = txn.last + 1;
        self.insert(rev, &key, &value, row.create_revision, row.id, false)?;
        txn.last = rev;
        let prev = row.kv(&key);
        let kv = KeyValue { key, value, create_revision: row.create_revision, mod_revision: rev };
        txn.events.push(Event::new(EventKind::Updated, rev, kv, Some(prev)));
        Ok(Ok(rev))
    }

    fn delete(&self, txn: &mut Txn, key: String, expected: Option<Revision>) -> Step<(Revision, KeyValue)> {
        let Some(row) = self.latest(&key)?.filter(|row| !row.deleted) else {
            return Ok(Err(StoreError::NotFound { key }));
        };
        if let Some(expected) = expected
            && row.id != expected
        {
            return Ok(Err(StoreError::Conflict { key, expected, actual: row.id }));
        }
        let rev = txn.last + 1;
        // The tombstone keeps the deleted value so a watch replay can report it.
        self.insert(rev, &key, &row.value, row.create_revision, row.id, true)?;
        txn.last = rev;
        let prev = row.kv(&key);
        let kv = KeyValue { mod_revision: rev, ..prev.clone() };
        txn.events.push(Event::new(EventKind::Deleted, rev, kv, Some(prev.clone())));
        Ok(Ok((rev, prev)))
    }

    /// Compacts from the current compacted revision `lo` to `upto`, keeping for every key its
    /// latest row at or below `upto` unless that row is a tombstone.
    ///
    /// Invariant (holds after every step): each key has at most one row at or below the
    /// compacted revision, and it is not a tombstone. So the rows superseded by this step are
    /// exactly the `prev_revision` targets of the rows in `(lo, upto]`, plus the tombstones in
    /// that range: two primary-key range queries, no table scan.
    fn compact(&self, txn: &mut Txn, upto: Revision) -> Step<()> {
        let lo = txn.compacted;
        if upto <= lo {
            return Ok(Ok(()));
        }
        if upto > txn.last {
            return Ok(Err(StoreError::FutureRevision { requested: upto, current: txn.last }));
        }
        // A savepoint makes the step all or nothing without failing the rest of the batch.
        self.conn.execute_batch("SAVEPOINT compact_step")?;
        let step = (|| -> rusqlite::Result<()> {
            self.conn
                .prepare_cached(
                    "DELETE FROM log WHERE id IN \
                     (SELECT prev_revision FROM log WHERE id > ?1 AND id <= ?2 AND prev_revision > 0)",
                )?
                .execute([lo, upto])?;
            self.conn
                .prepare_cached("DELETE FROM log WHERE id > ?1 AND id <= ?2 AND deleted = 1")?
                .execute([lo, upto])?;
            self.conn
                .prepare_cached("UPDATE meta SET value = ?1 WHERE name = 'compacted_revision'")?
                .execute([upto])?;
            Ok(())
        })();
        match step {
            Ok(()) => self.conn.execute_batch("RELEASE compact_step")?,
            Err(err) => {
                // Best effort: if the rollback fails too, SQLite has already ended the
                // transaction and the caller sees that through `is_autocommit`.
                let _ = self.conn.execute_batch("ROLLBACK TO compact_step; RELEASE compact_step");
                return Err(err);
            }
        }
        txn.compacted = upto;
        txn.compaction_steps += 1;
        Ok(Ok(()))
    }
}
