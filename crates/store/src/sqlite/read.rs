//! Read paths (get, list, watch history) on a small pool of read-only connections.
//!
//! Reads never go through the writer thread: in WAL mode a reader sees the last committed
//! state without waiting for the writer. A list or a watch history page runs on tokio's
//! blocking pool with a connection taken from the pool, inside one read transaction so
//! everything it returns comes from one snapshot. A point read by key is one indexed SELECT
//! (its own snapshot) and runs on the caller's thread when a connection is idle.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures::future::BoxFuture;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior};

use super::super::watch::{History, HistoryPage};
use super::super::{Event, EventKind, KeyValue, ListOptions, ListPage, Revision, StoreError, prefix_end};
use super::schema;

/// Idle read connections, reopened on demand. Opening costs little next to a query, so the
/// pool only saves churn; it is not a limit on concurrent readers.
pub(super) struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    max_idle: usize,
}

impl Readers {
    pub fn new(path: PathBuf, max_idle: usize) -> Self {
        Readers { path, idle: Mutex::new(Vec::new()), max_idle }
    }

    fn take(&self) -> Result<Connection, StoreError> {
        // A poisoned lock only means another reader panicked while holding it; the Vec of
        // connections is still valid.
        let idle = self.idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
        if let Some(conn) = idle {
            return Ok(conn);
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&self.path, flags).map_err(StoreError::backend)?;
        schema::init_reader(&conn)?;
        Ok(conn)
    }

    fn give_back(&self, conn: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if idle.len() < self.max_idle {
            idle.push(conn);
        }
    }

    /// Runs the single statement `f` on the caller's thread with an idle connection, or as
    /// [`Readers::run`] when none is idle (opening one reads the schema, too long to hold a
    /// runtime thread for). A point read is a few pages of the key index and one row; handing
    /// it to the blocking pool and back cost more than the read itself (two thread wake-ups
    /// per read in a profile of a member taking Deployments), and WAL readers never wait for
    /// the writer.
    pub async fn run_point<T, F>(self: &Arc<Self>, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let idle = self.idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
        match idle {
            Some(conn) => {
                let result = f(&conn);
                self.give_back(conn);
                result
            }
            None => self.run(move |tx| f(tx)).await,
        }
    }

    /// Runs `f` in a read transaction on the blocking pool.
    pub async fn run<T, F>(self: &Arc<Self>, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
    {
        let this = Arc::clone(self);
        let joined = tokio::task::spawn_blocking(move || {
            let mut conn = this.take()?;
            let result = {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred).map_err(StoreError::backend)?;
                f(&tx)
                // Dropping `tx` rolls the read transaction back, releasing the snapshot.
            };
            this.give_back(conn);
            result
        })
        .await;
        joined.unwrap_or_else(|e| Err(StoreError::backend(e)))
    }
}

impl History for Readers {
    fn history_page(
        self: Arc<Self>,
        prefix: String,
        after: Revision,
        bound: Revision,
        limit: usize,
    ) -> BoxFuture<'static, Result<HistoryPage, StoreError>> {
        Box::pin(async move { self.run(move |tx| history(tx, &prefix, after, bound, limit)).await })
    }
}

/// The latest row of one key.
///
/// Bound values sit inside CAST wherever the planner could read them (an equality that also
/// orders the scan, a LIMIT): SQLite then plans on the value, and every new value expires the
/// cached statement, so each call compiled its SQL again. The cast keeps the same plan.
const GET_SQL: &str =
    "SELECT value, create_revision, id, deleted FROM log WHERE key = CAST(?1 AS TEXT) ORDER BY id DESC LIMIT 1";

/// The live value of `key`: one statement, so it reads one snapshot with or without a
/// transaction around it.
pub(super) fn get(conn: &Connection, key: &str) -> Result<Option<KeyValue>, StoreError> {
    let mut stmt = conn.prepare_cached(GET_SQL).map_err(StoreError::backend)?;
    let row = stmt
        .query_row([key], |row| {
            Ok((row.get::<_, Vec<u8>>(0)?, row.get::<_, i64>(1)?, row.get::<_, i64>(2)?, row.get::<_, bool>(3)?))
        })
        .optional()
        .map_err(StoreError::backend)?;
    Ok(match row {
        Some((value, create_revision, mod_revision, false)) => {
            Some(KeyValue { key: key.to_string(), value: Bytes::from(value), create_revision, mod_revision })
        }
        _ => None,
    })
}

/// How many keys after `?1` (below `?2`) are live at revision `?3`. Grouping the
/// `(key, id, deleted)` index by key finds each key's latest row, and SQLite gives the bare
/// `deleted` the value from the row `MAX(id)` picked, so the count never reads the table:
/// a page of 500 Deployments with a remainder of thousands reads index pages only.
fn count_sql(bounded: bool) -> String {
    let upper = if bounded { "AND key < ?2" } else { "AND ?2 IS NULL" };
    format!(
        "SELECT COUNT(*) FROM (SELECT deleted, MAX(id) FROM log WHERE key > ?1 {upper} AND id <= ?3 GROUP BY key) \
         WHERE deleted = 0"
    )
}

/// A list page: for each key in range its latest row at or below the snapshot, walked in key
/// order through the `(key, id, deleted)` index so a page stops early; superseded rows and
/// tombstones are passed over in the index, without reading their values. CAST: see [`GET_SQL`].
fn page_sql(after_exclusive: bool, bounded: bool) -> String {
    let lower = if after_exclusive { "l.key > ?1" } else { "l.key >= ?1" };
    let upper = if bounded { "AND l.key < ?2" } else { "AND ?2 IS NULL" };
    format!(
        "SELECT l.key, l.value, l.create_revision, l.id FROM log l \
         WHERE {lower} {upper} AND l.id <= ?3 AND l.deleted = 0 \
           AND l.id = (SELECT MAX(m.id) FROM log m WHERE m.key = l.key AND m.id <= ?3) \
         ORDER BY l.key LIMIT CAST(?4 AS INTEGER)"
    )
}

/// One list page at revision `rev` (already validated against the current revision).
pub(super) fn list(
    tx: &Transaction<'_>,
    prefix: &str,
    opts: &ListOptions,
    rev: Revision,
) -> Result<ListPage, StoreError> {
    let compacted = schema::read_compacted(tx)?;
    if rev < compacted {
        return Err(StoreError::Compacted { requested: rev, compacted });
    }
    let upper = prefix_end(prefix);
    // Continue after `start_after` only when it lies inside the prefix range; before the range
    // it changes nothing, after the range the page is empty anyway.
    let (lower, exclusive) = match &opts.start_after {
        Some(after) if after.as_str() >= prefix => (after.as_str(), true),
        _ => (prefix, false),
    };
    let limit = opts.limit.filter(|&n| n > 0);
    let mut stmt = tx.prepare_cached(&page_sql(exclusive, upper.is_some())).map_err(StoreError::backend)?;
    // One extra row tells whether more remain. SQLite treats a negative LIMIT as no limit.
    let fetch: i64 = limit.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX - 1).saturating_add(1));
    let rows = stmt
        .query_map(rusqlite::params![lower, upper, rev, fetch], |row| {
            Ok(KeyValue {
                key: row.get(0)?,
                value: Bytes::from(row.get::<_, Vec<u8>>(1)?),
                create_revision: row.get(2)?,
                mod_revision: row.get(3)?,
            })
        })
        .map_err(StoreError::backend)?;
    let mut items = rows.collect::<Result<Vec<_>, _>>().map_err(StoreError::backend)?;

    let more = limit.is_some_and(|n| items.len() > n);
    if !more {
        return Ok(ListPage { items, revision: rev, continue_after: None, remaining: None });
    }
    if let Some(n) = limit {
        items.truncate(n);
    }
    let last = items.last().map(|kv| kv.key.clone());
    let remaining = match &last {
        _ if opts.skip_remaining_count => None,
        Some(last) => {
            let mut stmt = tx.prepare_cached(&count_sql(upper.is_some())).map_err(StoreError::backend)?;
            Some(
                stmt.query_row(rusqlite::params![last, upper, rev], |row| row.get::<_, i64>(0))
                    .map_err(StoreError::backend)?,
            )
        }
        None => Some(0),
    };
    Ok(ListPage { items, revision: rev, continue_after: last, remaining })
}

/// Watch history rows with their previous values. CAST: see [`GET_SQL`].
fn history_sql(bounded: bool) -> String {
    let upper_sql = if bounded { "AND l.key < ?4" } else { "AND ?4 IS NULL" };
    format!(
        "SELECT l.id, l.key, l.value, l.create_revision, l.prev_revision, l.deleted, p.value, p.create_revision \
         FROM log l LEFT JOIN log p ON p.id = l.prev_revision \
         WHERE l.id > ?1 AND l.id <= ?2 AND l.key >= ?3 {upper_sql} \
         ORDER BY l.id LIMIT CAST(?5 AS INTEGER)"
    )
}

/// Watch history: events under `prefix` with `after < revision <= bound`, oldest first.
pub(super) fn history(
    tx: &Transaction<'_>,
    prefix: &str,
    after: Revision,
    bound: Revision,
    limit: usize,
) -> Result<HistoryPage, StoreError> {
    let compacted = schema::read_compacted(tx)?;
    let upper = prefix_end(prefix);
    let mut stmt = tx.prepare_cached(&history_sql(upper.is_some())).map_err(StoreError::backend)?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = stmt
        .query_map(rusqlite::params![after, bound, prefix, upper, limit], |row| {
            let id: i64 = row.get(0)?;
            let key: String = row.get(1)?;
            let value = Bytes::from(row.get::<_, Vec<u8>>(2)?);
            let create_revision: i64 = row.get(3)?;
            let prev_revision: i64 = row.get(4)?;
            let deleted: bool = row.get(5)?;
            let prev_value: Option<Vec<u8>> = row.get(6)?;
            let prev_create: Option<i64> = row.get(7)?;
            let kv = KeyValue { key, value, create_revision, mod_revision: id };
            let event = if deleted {
                // A tombstone carries the deleted value, which is also the previous value.
                let prev = KeyValue { mod_revision: prev_revision, ..kv.clone() };
                Event::new(EventKind::Deleted, id, kv, Some(prev))
            } else if create_revision == id {
                Event::new(EventKind::Created, id, kv, None)
            } else {
                let prev = match (prev_value, prev_create) {
                    (Some(value), Some(create_revision)) => Some(KeyValue {
                        key: kv.key.clone(),
                        value: Bytes::from(value),
                        create_revision,
                        mod_revision: prev_revision,
                    }),
                    // Compaction keeps the previous row of every row above the compacted
                    // revision, so this only happens to a page racing a compaction, which the
                    // caller detects through `compacted`.
                    _ => None,
                };
                Event::new(EventKind::Updated, id, kv, prev)
            };
            Ok(event)
        })
        .map_err(StoreError::backend)?;
    let events = rows.collect::<Result<Vec<_>, _>>().map_err(StoreError::backend)?;
    Ok(HistoryPage { events, compacted })
}

#[cfg(test)]
mod tests {
    use rusqlite::{Connection, StatementStatus, TransactionBehavior};

    use super::*;
    use crate::sqlite::schema::{self, Synchronous};

    /// A store whose log holds `rows` (key, tombstone) as revisions 1, 2, …, and a read
    /// connection to it.
    fn store_with(rows: &[(String, bool)]) -> (tempfile::TempDir, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let mut writer = Connection::open(&path).unwrap();
        schema::init_writer(&mut writer, Synchronous::Normal).unwrap();
        for (id, (key, deleted)) in (1i64..).zip(rows) {
            writer
                .execute(
                    "INSERT INTO log (id, key, value, create_revision, prev_revision, deleted) VALUES (?1, ?2, x'7b7d', ?1, 0, ?3)",
                    rusqlite::params![id, key, deleted],
                )
                .unwrap();
        }
        let conn = Connection::open(&path).unwrap();
        schema::init_reader(&conn).unwrap();
        (dir, conn)
    }

    /// The cached read statements run with new values without being compiled again.
    #[test]
    fn cached_reads_are_not_recompiled_for_new_values() {
        let rows: Vec<_> = (1..=20).map(|id| (format!("/registry/pods/ns/p{}", id % 5), false)).collect();
        let (_dir, mut conn) = store_with(&rows);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred).unwrap();
        for round in 0..4usize {
            assert!(get(&tx, &format!("/registry/pods/ns/p{round}")).unwrap().is_some());
            let opts = ListOptions { limit: Some(round + 1), ..Default::default() };
            let page = list(&tx, "/registry/pods/", &opts, 20).unwrap();
            assert_eq!(page.items.len(), round + 1);
            let events = history(&tx, "/registry/pods/", round as i64, 20, round + 2).unwrap();
            assert_eq!(events.events.len(), round + 2);
        }
        let reprepares = |sql: &str| tx.prepare_cached(sql).unwrap().get_status(StatementStatus::RePrepare);
        assert_eq!(reprepares(GET_SQL), 0, "get");
        assert_eq!(reprepares(&page_sql(false, true)), 0, "list");
        assert_eq!(reprepares(&history_sql(true)), 0, "history");
    }

    /// The remaining count of a page is exact over superseded rows and tombstones, and it is
    /// answered from the `(key, id, deleted)` index alone.
    #[test]
    fn remaining_count_reads_only_the_index() {
        // Keys k0..k9, each written twice; k1, k4 and k7 then deleted, k7 after the snapshot.
        let mut rows: Vec<_> =
            (0..2).flat_map(|_| (0..10).map(|k| (format!("/registry/pods/ns/k{k}"), false))).collect();
        rows.push(("/registry/pods/ns/k1".into(), true));
        rows.push(("/registry/pods/ns/k4".into(), true));
        let snapshot = 22;
        rows.push(("/registry/pods/ns/k7".into(), true));
        let (_dir, mut conn) = store_with(&rows);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred).unwrap();
        let opts = ListOptions { limit: Some(2), ..Default::default() };
        let page = list(&tx, "/registry/pods/", &opts, snapshot).unwrap();
        let keys: Vec<_> = page.items.iter().map(|kv| kv.key.as_str()).collect();
        assert_eq!(keys, ["/registry/pods/ns/k0", "/registry/pods/ns/k2"]);
        // k3, k5, k6, k7 (deleted only after the snapshot), k8, k9.
        assert_eq!(page.remaining, Some(6));
        let now = list(&tx, "/registry/pods/", &opts, 23).unwrap();
        assert_eq!(now.remaining, Some(5));

        let plan: Vec<String> = tx
            .prepare(&format!("EXPLAIN QUERY PLAN {}", count_sql(true)))
            .unwrap()
            .query_map(rusqlite::params!["/registry/pods/ns/k2", "/registry/pods0", snapshot], |row| row.get(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(plan.iter().any(|step| step.contains("COVERING INDEX log_key_id_deleted")), "{plan:?}");
        assert!(!plan.iter().any(|step| step.contains("PRIMARY KEY")), "the count reads the table: {plan:?}");
    }
}
