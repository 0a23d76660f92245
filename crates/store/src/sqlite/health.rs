//! Whether the SQLite store can write, and how it finds out that it can again.
//!
//! A write can fail for a reason that outlives the request: the disk is full, or the file
//! system reports an I/O error. The writer then remembers the failure (so /readyz and /livez
//! report it) and, while no write comes to prove otherwise, probes the database with a
//! one-page write every [`PROBE_INTERVAL`]. The first write or probe that commits clears the
//! failure: freeing space brings the store back without a restart.

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode};

use super::super::StoreError;

/// How often a failing writer with nothing to do tries a write of its own.
pub(super) const PROBE_INTERVAL: Duration = Duration::from_millis(500);
/// How often a failing writer looks for queued requests between probes.
pub(super) const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// The last write failure that has not been followed by a successful write.
#[derive(Default)]
pub(super) struct Health(Mutex<Option<String>>);

impl Health {
    pub fn failure(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    pub fn failed(&self, reason: String) {
        let mut slot = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.is_none() {
            tracing::warn!(%reason, "the store cannot write; it keeps trying and recovers by itself once it can");
        }
        *slot = Some(reason);
    }

    pub(crate) fn recovered(&self) {
        let mut slot = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.take().is_some() {
            tracing::warn!("the store can write again");
        }
    }
}

/// The store error a SQLite failure is reported as: a full disk gets its own, clear error.
pub(super) fn storage_error(err: &Arc<rusqlite::Error>) -> StoreError {
    if is_disk_full(err) {
        StoreError::NoSpace { detail: err.to_string() }
    } else {
        StoreError::Backend(Box::new(Arc::clone(err)))
    }
}

pub(super) fn is_disk_full(err: &rusqlite::Error) -> bool {
    err.sqlite_error_code() == Some(ErrorCode::DiskFull)
}

/// One real write that changes nothing: it rewrites a row with its own value, so the commit
/// appends a page to the WAL and fails exactly when a client's write would.
pub(super) fn probe(conn: &Connection) -> rusqlite::Result<()> {
    let result =
        conn.execute_batch("BEGIN IMMEDIATE; UPDATE meta SET value = value WHERE name = 'compacted_revision'; COMMIT");
    if result.is_err() && !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    result
}
