//! Physical limits below the HTTP layer: raw SQLite commits with a full fsync, the store on
//! its own (no HTTP, no JSON) to see what group commit buys, and a tokio broadcast fan-out
//! (the floor of the watch hub).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use bytes::Bytes;
use karmadactl_store::Store as _;
use karmadactl_store::sqlite::{SqliteOptions, SqliteStore};

/// One insert + commit per write, single-threaded.
pub struct SqliteFloor {
    /// Commit latencies, sorted; in the paced run, from each commit's scheduled time.
    pub sorted: Vec<Duration>,
    pub per_sec: f64,
}

/// Raw SQLite in WAL mode with `synchronous=FULL` (one WAL fsync per commit, as the store
/// uses), the store's table layout, in `dir` (on the same disk as the control plane's data).
pub struct RawSqlite {
    conn: rusqlite::Connection,
    next: u64,
}

impl RawSqlite {
    pub fn open(dir: &Path) -> anyhow::Result<RawSqlite> {
        let path = dir.join("raw.db");
        let conn = rusqlite::Connection::open(&path).with_context(|| format!("opening {}", path.display()))?;
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).context("WAL mode")?;
        anyhow::ensure!(mode.eq_ignore_ascii_case("wal"), "SQLite refused WAL mode in {}", dir.display());
        conn.execute_batch(
            "PRAGMA synchronous = FULL;
             CREATE TABLE log (id INTEGER PRIMARY KEY, key TEXT NOT NULL, value BLOB NOT NULL,
                 create_revision INTEGER NOT NULL, prev_revision INTEGER NOT NULL, deleted INTEGER NOT NULL);
             CREATE INDEX log_key_id ON log (key, id);",
        )
        .context("creating the raw table")?;
        Ok(RawSqlite { conn, next: 0 })
    }

    /// One write in its own transaction: BEGIN, INSERT, COMMIT (the WAL fsync).
    fn commit(&mut self, value: &[u8]) -> anyhow::Result<()> {
        let key = format!("/registry/configmaps/raw/c-{}", self.next);
        self.next += 1;
        self.conn.execute_batch("BEGIN IMMEDIATE").context("BEGIN")?;
        self.conn
            .prepare_cached(
                "INSERT INTO log (key, value, create_revision, prev_revision, deleted) VALUES (?1, ?2, 0, 0, 0)",
            )
            .and_then(|mut insert| insert.execute(rusqlite::params![key, value]))
            .context("INSERT")?;
        self.conn.execute_batch("COMMIT").context("COMMIT")?;
        Ok(())
    }

    /// As many commits as one thread can do in `duration`, back to back.
    pub fn flat_out(&mut self, value: &[u8], duration: Duration) -> anyhow::Result<SqliteFloor> {
        let mut sorted = Vec::new();
        let started = Instant::now();
        while started.elapsed() < duration {
            let t = Instant::now();
            self.commit(value)?;
            sorted.push(t.elapsed());
        }
        let per_sec = sorted.len() as f64 / started.elapsed().as_secs_f64();
        sorted.sort();
        Ok(SqliteFloor { sorted, per_sec })
    }

    /// Commits paced at `rate` per second for `duration`, latency from each commit's scheduled
    /// time: the same open loop as the API's durable-create figure, so a checkpoint stall is
    /// charged to every write that waited behind it here too.
    pub fn paced(&mut self, value: &[u8], rate: f64, duration: Duration) -> anyhow::Result<SqliteFloor> {
        let n = (rate * duration.as_secs_f64()).round() as u64;
        let start = Instant::now();
        let mut sorted = Vec::with_capacity(n as usize);
        for i in 0..n {
            let at = start + Duration::from_secs_f64(i as f64 / rate);
            let now = Instant::now();
            if at > now {
                std::thread::sleep(at - now);
            }
            self.commit(value)?;
            sorted.push(at.elapsed());
        }
        let per_sec = sorted.len() as f64 / start.elapsed().as_secs_f64();
        sorted.sort();
        Ok(SqliteFloor { sorted, per_sec })
    }
}

/// The store alone, in this process: `clients` tasks creating keys through `SqliteStore` for
/// `duration`. Returns (creates/s, writes per commit).
pub async fn store_alone(dir: &Path, value: Bytes, clients: usize, duration: Duration) -> anyhow::Result<(f64, f64)> {
    let store = SqliteStore::open(&dir.join("store.db"), SqliteOptions::default()).context("opening the store")?;
    let started = Instant::now();
    let deadline = started + duration;
    let mut tasks = Vec::new();
    for c in 0..clients {
        let (store, value) = (store.clone(), value.clone());
        tasks.push(tokio::spawn(async move {
            let mut i = 0u64;
            while Instant::now() < deadline {
                store.create(&format!("/registry/configmaps/alone/c-{c}-{i}"), value.clone()).await?;
                i += 1;
            }
            anyhow::Ok(())
        }));
    }
    for t in tasks {
        t.await.context("store client task")??;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let stats = store.stats();
    Ok((stats.writes as f64 / elapsed, stats.writes as f64 / stats.commits.max(1) as f64))
}

/// `watchers` tasks on one tokio broadcast channel; `writes` messages sent one at a time (each
/// after every watcher got the previous one). Returns every watcher's delay, sorted.
pub async fn broadcast_fanout(watchers: usize, writes: usize, payload: Bytes) -> Vec<Duration> {
    let (tx, _) = tokio::sync::broadcast::channel::<(Instant, Arc<Bytes>)>(1024);
    let (ack_tx, mut ack_rx) = tokio::sync::mpsc::unbounded_channel::<Duration>();
    let mut tasks = Vec::with_capacity(watchers);
    for _ in 0..watchers {
        let mut rx = tx.subscribe();
        let ack = ack_tx.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..writes {
                let Ok((sent, payload)) = rx.recv().await else { return };
                let delay = sent.elapsed();
                // Touch the payload as a watcher would, so it is not optimised away.
                std::hint::black_box(payload.len());
                let _ = ack.send(delay);
            }
        }));
    }
    drop(ack_tx);
    let payload = Arc::new(payload);
    let mut delays = Vec::with_capacity(watchers * writes);
    for _ in 0..writes {
        let _ = tx.send((Instant::now(), payload.clone()));
        for _ in 0..watchers {
            match tokio::time::timeout(Duration::from_secs(10), ack_rx.recv()).await {
                Ok(Some(d)) => delays.push(d),
                _ => break,
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for t in tasks {
        let _ = t.await;
    }
    delays.sort();
    delays
}

/// Where a LIST's time goes without HTTP: the server's LIST path re-enacted in this process on
/// the plane's own database (after the plane stopped), median of `runs`.
pub struct ListSplit {
    /// Reading every row through the store, in pages of 500.
    pub store: Duration,
    /// The same rows in one unpaged store read (no per-page remaining-items count), as the
    /// handler reads them.
    pub store_unpaged: Duration,
    /// Splicing every stored object into the list document, as the handler does.
    pub splice: Duration,
    /// The way it was done before splicing: decoding every stored object into a JSON value...
    pub decode: Duration,
    /// ...and serialising the list document.
    pub serialize: Duration,
}

pub async fn list_in_process(db: &Path, prefix: &str, runs: usize) -> anyhow::Result<ListSplit> {
    use karmadactl_apiserver::handlers::served_json::ServedType;
    use karmadactl_apiserver::storage::store_access;
    use karmadactl_store::ListOptions;

    let store = SqliteStore::open(db, SqliteOptions::default()).context("opening the plane's store")?;
    let served = ServedType::new("v1", "ConfigMap");
    let mut times: [Vec<Duration>; 5] = Default::default();
    for _ in 0..runs {
        let started = Instant::now();
        let kvs = store.list(prefix, ListOptions::default()).await.context("listing the store")?.items;
        times[1].push(started.elapsed());

        let started = Instant::now();
        let mut paged = Vec::new();
        let mut opts = ListOptions { limit: Some(500), ..ListOptions::default() };
        loop {
            let page = store.list(prefix, opts.clone()).await.context("listing the store")?;
            paged.extend(page.items);
            opts.revision = Some(page.revision);
            match page.continue_after {
                Some(after) => opts.start_after = Some(after),
                None => break,
            }
        }
        std::hint::black_box(paged.len());
        times[0].push(started.elapsed());

        let started = Instant::now();
        let mut body = Vec::new();
        for kv in &kvs {
            store_access::append_served(&mut body, kv, &served)
                .map_err(|e| anyhow::anyhow!("splicing {}: {e:?}", kv.key))?;
            body.push(b',');
        }
        std::hint::black_box(body.len());
        times[2].push(started.elapsed());

        let started = Instant::now();
        let mut items = Vec::with_capacity(kvs.len());
        for kv in &kvs {
            let mut obj = store_access::decode(kv).map_err(|e| anyhow::anyhow!("decoding {}: {e:?}", kv.key))?;
            obj["apiVersion"] = serde_json::Value::String("v1".into());
            obj["kind"] = serde_json::Value::String("ConfigMap".into());
            items.push(obj);
        }
        times[3].push(started.elapsed());
        let started = Instant::now();
        let doc = serde_json::json!({"kind": "ConfigMapList", "apiVersion": "v1", "metadata": {"resourceVersion": "1"}, "items": items});
        let bytes = serde_json::to_vec(&doc).context("serialising")?;
        std::hint::black_box(bytes.len());
        times[4].push(started.elapsed());
    }
    let [store_t, unpaged, splice, decode, serialize] = times.map(|mut v| {
        v.sort();
        super::load::pct(&v, 0.5)
    });
    Ok(ListSplit { store: store_t, store_unpaged: unpaged, splice, decode, serialize })
}

/// A watch event's JSON work, in-process: (encoding it once, as the server does and shares the
/// bytes with every watcher; every one of `watchers` decoding and re-serialising it, as it
/// was done before). Median of 5 each.
pub fn watch_json(stored: &Bytes, watchers: usize) -> anyhow::Result<(Duration, Duration)> {
    use karmadactl_apiserver::handlers::served_json::ServedType;
    use karmadactl_apiserver::storage::store_access;
    use karmadactl_store::KeyValue;

    let kv = KeyValue {
        key: "/registry/core/configmaps/bench-watch/w-0".into(),
        value: stored.clone(),
        create_revision: 2,
        mod_revision: 2,
    };
    let served = ServedType::new("v1", "ConfigMap");
    let median = |mut v: Vec<Duration>| {
        v.sort();
        super::load::pct(&v, 0.5)
    };
    let mut once = Vec::new();
    let mut each = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let mut line = b"{\"type\":\"ADDED\",\"object\":".to_vec();
        store_access::append_served(&mut line, &kv, &served).map_err(|e| anyhow::anyhow!("splicing: {e:?}"))?;
        line.extend_from_slice(b"}\n");
        let shared = Bytes::from(line);
        for _ in 0..watchers {
            std::hint::black_box(shared.clone());
        }
        once.push(started.elapsed());

        let started = Instant::now();
        for _ in 0..watchers {
            let mut obj = store_access::decode(&kv).map_err(|e| anyhow::anyhow!("decoding the event: {e:?}"))?;
            obj["apiVersion"] = serde_json::Value::String("v1".into());
            obj["kind"] = serde_json::Value::String("ConfigMap".into());
            let mut line = serde_json::to_vec(&serde_json::json!({"type": "ADDED", "object": obj}))?;
            line.push(b'\n');
            std::hint::black_box(line);
        }
        each.push(started.elapsed());
    }
    Ok((median(once), median(each)))
}
