//! The embedded store backend: SQLite in WAL mode, one group-committing writer thread, a pool
//! of read connections and an in-process watch hub.
//!
//! A write returns only after its transaction is committed (and, with
//! [`Synchronous::Full`], fsynced). Its revision is then visible to `get`/`list` on any
//! connection (read-your-writes), and its event is published to watchers right after the
//! writers of the batch are answered.

use std::fs::File;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use futures::future::BoxFuture;
use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use super::watch::{self, History, Hub};
use super::{KeyValue, ListOptions, ListPage, Revision, Store, StoreError, WatchStream};

mod health;
mod read;
mod schema;
mod writer;

pub use schema::Synchronous;

use read::Readers;
use writer::{Request, Shared, Writer};

/// Tuning of a [`SqliteStore`]. The defaults suit the control plane.
#[derive(Debug, Clone)]
pub struct SqliteOptions {
    /// Whether a commit waits for the WAL to reach the disk (the default) or only for the OS.
    pub synchronous: Synchronous,
    /// Most writes applied in one transaction (one fsync).
    pub max_batch: usize,
    /// Write requests that may wait for the writer before callers are slowed down.
    pub queue: usize,
    /// Commits a watcher may fall behind before it gets `WatcherTooSlow`.
    pub watch_buffer: usize,
    /// Idle read connections kept open.
    pub read_connections: usize,
    /// Revisions compacted per transaction, so writes interleave with a long compaction.
    pub compaction_step: Revision,
}

impl Default for SqliteOptions {
    fn default() -> Self {
        SqliteOptions {
            synchronous: Synchronous::Full,
            max_batch: 512,
            queue: 4096,
            watch_buffer: 1024,
            read_connections: 8,
            compaction_step: 1000,
        }
    }
}

/// Counters of the writer thread, for tests and metrics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Write requests (create, update, delete) answered, successful or not.
    pub writes: u64,
    /// Of those, the ones refused (conflict, missing key, ...) or failed.
    pub failed_writes: u64,
    /// Transactions committed with changes. With `Synchronous::Full` each is one WAL fsync, so
    /// `writes / commits` is the group-commit factor.
    pub commits: u64,
    /// The most requests applied in one transaction.
    pub largest_batch: u64,
    /// Compaction steps committed.
    pub compaction_steps: u64,
    /// Watch streams currently open.
    pub watchers: usize,
}

/// The SQLite store. Open with [`SqliteStore::open`]; dropping the last `Arc` finishes the
/// queued writes, stops the writer thread and ends every watch with `Closed`.
pub struct SqliteStore {
    path: PathBuf,
    tx: Option<mpsc::Sender<Request>>,
    writer: Option<std::thread::JoinHandle<()>>,
    shared: Arc<Shared>,
    readers: Arc<Readers>,
    hub: Hub,
    compaction_step: Revision,
    /// Held for the store's lifetime: a second process (or a second open in this one) would
    /// hand out the same revisions. The OS releases it if the process dies.
    _lock: File,
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
enum OpenError {
    #[error("could not open the store database {}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error(
        "the store database {} is already open in another process or store (the lock on {} is held); stop the other karmadactl control plane first",
        path.display(),
        lock.display()
    )]
    Locked { path: PathBuf, lock: PathBuf },
}

fn open_error(path: &Path, err: StoreError) -> StoreError {
    let source = match err {
        StoreError::Backend(inner) => inner,
        other => Box::new(other),
    };
    StoreError::backend(OpenError::Open { path: path.to_path_buf(), source })
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and starts the writer thread.
    /// The revision continues from the last write in the file. Blocking: call it at startup.
    pub fn open(path: &Path, opts: SqliteOptions) -> Result<Arc<SqliteStore>, StoreError> {
        let lock = lock_file(path)?;
        private_files(path).map_err(|e| open_error(path, StoreError::backend(e)))?;
        let mut conn = Connection::open(path).map_err(|e| open_error(path, StoreError::backend(e)))?;
        let (max_id, compacted) = schema::init_writer(&mut conn, opts.synchronous).map_err(|e| open_error(path, e))?;
        // A compaction may have removed the newest rows (tombstones), so the revision continues
        // from whichever is higher. Like etcd, an empty store is at revision 1: Kubernetes gives
        // resourceVersion "0" a meaning of its own ("any"), so no state is ever called 0.
        let current = max_id.max(compacted).max(1);
        let shared = Arc::new(Shared::default());
        shared.current.store(current, Ordering::Release);
        shared.compacted.store(compacted, Ordering::Release);

        let (tx, rx) = mpsc::channel(opts.queue.max(1));
        let hub = Hub::new(opts.watch_buffer);
        let writer = Writer {
            conn,
            rx,
            shared: Arc::clone(&shared),
            hub: hub.clone(),
            max_batch: opts.max_batch.max(1),
            path: path.to_path_buf(),
            synchronous: opts.synchronous,
        };
        let handle = std::thread::Builder::new()
            .name("store-writer".to_string())
            .spawn(move || writer.run())
            .map_err(|e| open_error(path, StoreError::backend(e)))?;
        tracing::debug!(path = %path.display(), revision = current, compacted, "opened the store");
        Ok(Arc::new(SqliteStore {
            path: path.to_path_buf(),
            tx: Some(tx),
            writer: Some(handle),
            shared,
            readers: Arc::new(Readers::new(path.to_path_buf(), opts.read_connections)),
            hub,
            compaction_step: opts.compaction_step.max(1),
            _lock: lock,
        }))
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The writer's counters.
    pub fn stats(&self) -> StoreStats {
        let s = &self.shared;
        StoreStats {
            writes: s.writes.load(Ordering::Relaxed),
            failed_writes: s.failed_writes.load(Ordering::Relaxed),
            commits: s.commits.load(Ordering::Relaxed),
            largest_batch: s.largest_batch.load(Ordering::Relaxed),
            compaction_steps: s.compaction_steps.load(Ordering::Relaxed),
            // The store's own hub keeps no receiver, so every receiver is a watch stream.
            watchers: self.hub.watchers(),
        }
    }

    /// Sends a request to the writer and waits for its answer.
    async fn submit<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Request,
    ) -> Result<T, StoreError> {
        let tx = self.tx.as_ref().ok_or(StoreError::Closed)?;
        let (reply, answer) = oneshot::channel();
        tx.send(make(reply)).await.map_err(|_| StoreError::Closed)?;
        // The writer answers every request it takes; it drops a reply only when applying the
        // batch panicked (it keeps running) or the thread is gone.
        answer.await.map_err(|_| {
            StoreError::backend(std::io::Error::other("the store writer failed before it could answer this write"))
        })?
    }
}

/// Takes the exclusive lock next to the database (`<db>.lock`).
fn lock_file(path: &Path) -> Result<File, StoreError> {
    let mut lock_path = path.as_os_str().to_owned();
    lock_path.push(".lock");
    let lock_path = PathBuf::from(lock_path);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(PRIVATE_FILE_MODE)
        .open(&lock_path)
        .map_err(|e| open_error(path, StoreError::backend(e)))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(StoreError::backend(OpenError::Locked { path: path.to_path_buf(), lock: lock_path }))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(open_error(path, StoreError::backend(e))),
    }
}

/// The database holds every object, secrets and bootstrap tokens included: only its owner
/// may read it.
const PRIVATE_FILE_MODE: u32 = 0o600;

/// Creates the database file owner-only before SQLite opens it, and narrows the mode of an
/// existing one and of its `-wal` and `-shm` files. SQLite creates the WAL and shared-memory
/// files with the database file's mode, so they follow it.
fn private_files(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    File::options().create(true).truncate(false).write(true).mode(PRIVATE_FILE_MODE).open(path)?;
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        match std::fs::set_permissions(&name, std::fs::Permissions::from_mode(PRIVATE_FILE_MODE)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        // Closing the channel lets the writer finish what is queued and return; joining makes
        // "dropped" mean "the database is closed", so it can be reopened at once.
        self.tx.take();
        if let Some(handle) = self.writer.take()
            && handle.join().is_err()
        {
            tracing::error!("the store writer thread panicked");
        }
    }
}

impl Store for SqliteStore {
    fn create(&self, key: &str, value: Bytes) -> BoxFuture<'_, Result<Revision, StoreError>> {
        let key = key.to_string();
        Box::pin(self.submit(move |reply| Request::Create { key, value, reply }))
    }

    fn update(&self, key: &str, value: Bytes, expected: Revision) -> BoxFuture<'_, Result<Revision, StoreError>> {
        let key = key.to_string();
        Box::pin(self.submit(move |reply| Request::Update { key, value, expected, reply }))
    }

    fn delete(&self, key: &str, expected: Option<Revision>) -> BoxFuture<'_, Result<(Revision, KeyValue), StoreError>> {
        let key = key.to_string();
        Box::pin(self.submit(move |reply| Request::Delete { key, expected, reply }))
    }

    fn get(&self, key: &str) -> BoxFuture<'_, Result<Option<KeyValue>, StoreError>> {
        let key = key.to_string();
        Box::pin(self.readers.run_point(move |conn| read::get(conn, &key)))
    }

    fn list(&self, prefix: &str, opts: ListOptions) -> BoxFuture<'_, Result<ListPage, StoreError>> {
        let prefix = prefix.to_string();
        // The current revision is set only after its commit, so a snapshot taken now holds
        // every row up to it; rows committed meanwhile are above it and filtered out.
        let current = self.current_revision();
        let rev = opts.revision.map_or(current, |r| r.max(0));
        Box::pin(async move {
            if rev > current {
                return Err(StoreError::FutureRevision { requested: rev, current });
            }
            self.readers.run(move |tx| read::list(tx, &prefix, &opts, rev)).await
        })
    }

    fn watch(&self, prefix: &str, after: Revision) -> Result<WatchStream, StoreError> {
        let after = after.max(0);
        let compacted = self.compacted_revision();
        if after < compacted {
            return Err(StoreError::Compacted { requested: after, compacted });
        }
        // Subscribe first, then read the bound: see the watch module for why this is gap-free.
        let rx = self.hub.subscribe();
        let bound = self.shared.current.load(Ordering::SeqCst);
        let history: Arc<dyn History> = Arc::clone(&self.readers) as Arc<dyn History>;
        Ok(watch::stream(history, rx, prefix.to_string(), after, bound))
    }

    fn current_revision(&self) -> Revision {
        self.shared.current.load(Ordering::Acquire)
    }

    fn compacted_revision(&self) -> Revision {
        self.shared.compacted.load(Ordering::Acquire)
    }

    fn health(&self) -> Result<(), String> {
        self.shared.health.failure().map_or(Ok(()), Err)
    }

    fn compact(&self, upto: Revision) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let current = self.current_revision();
            if upto > current {
                return Err(StoreError::FutureRevision { requested: upto, current });
            }
            loop {
                let done = self.compacted_revision();
                if done >= upto {
                    return Ok(());
                }
                let step = upto.min(done.saturating_add(self.compaction_step));
                self.submit(move |reply| Request::Compact { upto: step, reply }).await?;
            }
        })
    }
}
