//! The SQLite schema (a kine-style append-only log) and the connection settings.
//!
//! `log` holds one row per write; its `id` *is* the revision. The current value of a key is
//! its latest row unless that row is a tombstone (`deleted = 1`). The snapshot at revision `r`
//! is, for each key, its latest row with `id <= r`, tombstones excluded. A tombstone keeps the
//! deleted value so a watch replay can report it. `prev_revision` points at the key's previous
//! row (0 when there is none), which gives watch replays their `prev` value and lets
//! compaction find superseded rows without scanning the whole table.
//!
//! ```text
//! sqlite3 state.db "SELECT id, key, create_revision, prev_revision, deleted FROM log ORDER BY id"
//! ```

use rusqlite::{Connection, OptionalExtension};

use super::super::{Revision, StoreError};

/// The schema version this code writes; a newer database is refused rather than damaged.
const SCHEMA_VERSION: i64 = 1;

const CREATE: &str = "
CREATE TABLE IF NOT EXISTS log (
    id              INTEGER PRIMARY KEY,
    key             TEXT    NOT NULL,
    value           BLOB    NOT NULL,
    create_revision INTEGER NOT NULL,
    prev_revision   INTEGER NOT NULL,
    deleted         INTEGER NOT NULL
);
-- `deleted` in the index lets lists skip superseded rows and tombstones without reading
-- the row (and its value) from the table. It replaces the (key, id) index of earlier versions;
-- an older karmadactl opening this database recreates its own index and still works.
CREATE INDEX IF NOT EXISTS log_key_id_deleted ON log (key, id, deleted);
DROP INDEX IF EXISTS log_key_id;
CREATE TABLE IF NOT EXISTS meta (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (name, value) VALUES ('compacted_revision', 0);
";

/// How hard a commit waits for the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    /// Every commit fsyncs the WAL before the write is acknowledged: an acknowledged write
    /// survives a power cut. The default and the honest choice for a control plane.
    #[default]
    Full,
    /// The WAL is fsynced only at checkpoints: acknowledged writes survive a process crash
    /// (kill -9) but the last ones may be lost on power failure. For tests and benchmarks.
    Normal,
}

/// Settings shared by every connection.
fn common(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(StoreError::backend)?;
    Ok(())
}

/// Prepares the writer connection: WAL, durability, schema. Returns (max id, compacted).
pub(super) fn init_writer(conn: &mut Connection, sync: Synchronous) -> Result<(Revision, Revision), StoreError> {
    common(conn)?;
    // WAL lets readers run next to the writer without blocking it, and a commit is one append
    // plus (with FULL) one fsync of the WAL.
    let mode: String =
        conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0)).map_err(StoreError::backend)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::backend(SchemaError(format!(
            "the database refused write-ahead logging (journal mode is {mode:?}); it must be on a local file system"
        ))));
    }
    let sync_pragma = match sync {
        Synchronous::Full => "PRAGMA synchronous = FULL",
        Synchronous::Normal => "PRAGMA synchronous = NORMAL",
    };
    conn.execute_batch(sync_pragma).map_err(StoreError::backend)?;

    let tx = conn.transaction().map_err(StoreError::backend)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |row| row.get(0)).map_err(StoreError::backend)?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::backend(SchemaError(format!(
            "the database has schema version {version} but this karmadactl understands only up to {SCHEMA_VERSION}; use a newer karmadactl"
        ))));
    }
    tx.execute_batch(CREATE).map_err(StoreError::backend)?;
    tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}")).map_err(StoreError::backend)?;
    let max_id: Revision =
        tx.query_row("SELECT COALESCE(MAX(id), 0) FROM log", [], |row| row.get(0)).map_err(StoreError::backend)?;
    let compacted = read_compacted(&tx)?;
    tx.commit().map_err(StoreError::backend)?;
    Ok((max_id, compacted))
}

/// Prepares a read connection. `query_only` makes a bug in a read path unable to write.
pub(super) fn init_reader(conn: &Connection) -> Result<(), StoreError> {
    common(conn)?;
    conn.execute_batch("PRAGMA query_only = 1").map_err(StoreError::backend)?;
    Ok(())
}

/// The compacted revision as stored (in the caller's transaction, so it matches its snapshot).
pub(super) fn read_compacted(conn: &Connection) -> Result<Revision, StoreError> {
    let value: Option<Revision> = conn
        .prepare_cached("SELECT value FROM meta WHERE name = 'compacted_revision'")
        .and_then(|mut stmt| stmt.query_row([], |row| row.get(0)).optional())
        .map_err(StoreError::backend)?;
    Ok(value.unwrap_or(0))
}

/// A database this code cannot use as it is.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct SchemaError(String);

#[cfg(test)]
mod tests {
    use super::*;

    fn indexes(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log' ORDER BY name")
            .unwrap();
        stmt.query_map([], |row| row.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
    }

    /// A database written by an earlier version, with the `(key, id)` index, gets the index
    /// with `deleted` and keeps its rows.
    #[test]
    fn the_earlier_index_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let old = Connection::open(&path).unwrap();
        old.execute_batch(
            "CREATE TABLE log (id INTEGER PRIMARY KEY, key TEXT NOT NULL, value BLOB NOT NULL, \
             create_revision INTEGER NOT NULL, prev_revision INTEGER NOT NULL, deleted INTEGER NOT NULL);
             CREATE INDEX log_key_id ON log (key, id);
             INSERT INTO log VALUES (1, '/registry/pods/ns/a', x'7b7d', 1, 0, 0);
             PRAGMA user_version = 1;",
        )
        .unwrap();
        drop(old);
        let mut conn = Connection::open(&path).unwrap();
        let (max_id, _) = init_writer(&mut conn, Synchronous::Normal).unwrap();
        assert_eq!(max_id, 1);
        assert_eq!(indexes(&conn), ["log_key_id_deleted"]);
    }
}
