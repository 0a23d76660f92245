//! The etcd v3 backend: the store's keys and revisions are etcd's own, so several control
//! plane replicas can share one etcd cluster.
//!
//! etcd's revision is the store revision (a key's `mod_revision` is its `resourceVersion`).
//! Writes are transactions that compare `create_revision` (create, "the key has no live
//! value") or `mod_revision` (update and conditional delete), and read the key in the `else`
//! branch so a refusal can say why without a second round trip. Watches are etcd watches with
//! `prev_kv`. Compaction is etcd compaction; etcd does not say what its compacted revision is,
//! so the store remembers the revisions it compacted itself and learns other compactions from
//! etcd's refusals.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use etcd_client::{
    Certificate, Client, Compare, CompareOp, ConnectOptions, DeleteOptions, GetOptions, GetResponse, Identity,
    KvClient, TlsOptions, Txn, TxnOp, TxnOpResponse, TxnResponse,
};
use futures::future::BoxFuture;

use super::datastore::{EtcdConfig, EtcdTls};
use super::{KeyValue, ListOptions, ListPage, Revision, Store, StoreError, WatchStream};

mod errors;
mod keys;
mod revision;
mod watch;

use errors::{Refusal, classify, retryable, write_error};
use keys::Namespace;

/// The etcd-backed store. Cheap to clone internally (the etcd client multiplexes one HTTP/2
/// connection per member).
pub struct EtcdStore {
    client: Client,
    ns: Namespace,
    /// The highest revision seen in any etcd answer: after this store's own write returns, it
    /// is at least that write's revision.
    current: Arc<AtomicI64>,
    /// The highest revision known to be compacted (by this store, or learnt from etcd).
    compacted: Arc<AtomicI64>,
    /// Raises `current` as other clients write; stopped with the store.
    follower: Option<tokio::task::JoinHandle<()>>,
    /// Why the last write failed for lack of space, until a write succeeds again.
    no_space: std::sync::Mutex<Option<String>>,
}

impl Drop for EtcdStore {
    fn drop(&mut self) {
        if let Some(follower) = self.follower.take() {
            follower.abort();
        }
    }
}

/// How long to wait for etcd to answer when the store opens.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one request may take before it fails (watch streams are not limited by it: it
/// bounds the wait for the stream to open).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest etcd answer accepted. tonic's default (4 MiB) is far below what a list of a
/// large collection, or a watch catching up on up to a thousand revisions in one answer, can
/// be; kube-apiserver accepts up to 2 GiB from etcd too.
pub(super) const MAX_ANSWER_BYTES: usize = i32::MAX as usize;
/// Attempts of one request while members are unreachable; the client picks a member per
/// attempt, so with one member of three down a retry almost always lands on a live one.
const ATTEMPTS: u32 = 20;

impl EtcdStore {
    /// Connects to etcd and reads its current and compacted revisions.
    pub async fn connect(config: &EtcdConfig) -> Result<Arc<EtcdStore>, StoreError> {
        if config.endpoints.is_empty() {
            return Err(StoreError::backend(std::io::Error::other("no etcd endpoint was given")));
        }
        let mut options = ConnectOptions::new().with_connect_timeout(CONNECT_TIMEOUT).with_timeout(REQUEST_TIMEOUT);
        if let Some(tls) = &config.tls {
            options = options.with_tls(tls_options(tls)?);
        }
        let client = tokio::time::timeout(CONNECT_TIMEOUT, Client::connect(&config.endpoints, Some(options)))
            .await
            .map_err(|_| unreachable(&config.endpoints))?
            .map_err(StoreError::backend)?;
        let mut store = EtcdStore {
            client,
            ns: Namespace::new(&config.prefix),
            current: Arc::new(AtomicI64::new(0)),
            compacted: Arc::new(AtomicI64::new(0)),
            follower: None,
            no_space: std::sync::Mutex::new(None),
        };
        let current = tokio::time::timeout(CONNECT_TIMEOUT, store.fetch_current())
            .await
            .map_err(|_| unreachable(&config.endpoints))??;
        store.current.fetch_max(current, Ordering::AcqRel);
        store.learn_compacted().await?;
        store.follower = Some(revision::follow(store.client.clone(), store.ns.clone(), Arc::clone(&store.current)));
        Ok(Arc::new(store))
    }

    fn kv(&self) -> KvClient {
        self.client.kv_client().max_decoding_message_size(MAX_ANSWER_BYTES)
    }

    /// Sends a range request, again on another member when one was unreachable.
    async fn range(&self, key: Vec<u8>, options: GetOptions) -> Result<GetResponse, etcd_client::Error> {
        let mut attempt = 0;
        loop {
            match self.kv().get(key.clone(), Some(options.clone())).await {
                Err(err) if attempt + 1 < ATTEMPTS && retryable(&err, true) => attempt += 1,
                other => return other,
            }
            tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
        }
    }

    /// Sends a write transaction, again only when it could not reach etcd at all.
    async fn write(&self, txn: Txn) -> Result<TxnResponse, StoreError> {
        let mut attempt = 0;
        loop {
            match self.kv().txn(txn.clone()).await {
                Err(err) if attempt + 1 < ATTEMPTS && retryable(&err, false) => attempt += 1,
                other => return self.note_write(other.map_err(write_error)),
            }
            tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
        }
    }

    /// Remembers whether etcd is refusing writes for lack of space, for [`Store::health`].
    fn note_write(&self, result: Result<TxnResponse, StoreError>) -> Result<TxnResponse, StoreError> {
        let mut slot = self.no_space.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match &result {
            Ok(_) => *slot = None,
            Err(err @ StoreError::NoSpace { .. }) => *slot = Some(err.to_string()),
            Err(_) => {}
        }
        result
    }

    fn seen(&self, revision: Revision) {
        self.current.fetch_max(revision, Ordering::AcqRel);
    }

    fn header_revision(&self, header: Option<&etcd_client::ResponseHeader>) -> Revision {
        let revision = header.map_or(0, |h| h.revision());
        self.seen(revision);
        revision
    }

    /// etcd's current revision, asked of etcd (a one-key count, the cheapest read).
    async fn fetch_current(&self) -> Result<Revision, StoreError> {
        let resp =
            self.range(self.ns.probe_key(), GetOptions::new().with_count_only()).await.map_err(StoreError::backend)?;
        Ok(self.header_revision(resp.header()))
    }

    /// Finds etcd's compacted revision: the lowest revision a read may still ask for. etcd
    /// 3.4 has no call that reports it, but it refuses reads below it, so a binary search of
    /// one-key reads between what is known and the current revision finds it in a few dozen
    /// round trips. Done when the store opens and when etcd refuses a revision this store
    /// believed readable (another replica compacted).
    async fn learn_compacted(&self) -> Result<Revision, StoreError> {
        let probe = self.ns.probe_key();
        // `low` is known readable (or the first revision), `high` is known readable.
        let mut low = self.compacted.load(Ordering::Acquire).max(1);
        let mut high = self.current.load(Ordering::Acquire).max(1);
        let readable = |revision: Revision| {
            let probe = probe.clone();
            async move {
                match self.range(probe, GetOptions::new().with_count_only().with_revision(revision)).await {
                    Ok(_) => Ok(true),
                    Err(err) => match classify(err) {
                        Refusal::Compacted => Ok(false),
                        // Raced the current revision downwards: cannot happen, treat as readable.
                        Refusal::FutureRevision => Ok(true),
                        Refusal::Other(err) => Err(StoreError::backend(err)),
                    },
                }
            }
        };
        if readable(low).await? {
            return Ok(self.compacted.load(Ordering::Acquire));
        }
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if readable(mid).await? {
                high = mid;
            } else {
                low = mid;
            }
        }
        self.compacted.fetch_max(high, Ordering::AcqRel);
        Ok(self.compacted.load(Ordering::Acquire))
    }

    /// The `Compacted` error for a read at `requested`, with the compacted revision as etcd
    /// now has it.
    async fn compacted_error(&self, requested: Revision) -> StoreError {
        match self.learn_compacted().await {
            Ok(compacted) => StoreError::Compacted { requested, compacted },
            Err(err) => err,
        }
    }

    async fn future_error(&self, requested: Revision) -> StoreError {
        match self.fetch_current().await {
            Ok(current) => StoreError::FutureRevision { requested, current },
            Err(err) => err,
        }
    }

    fn to_kv(&self, kv: &etcd_client::KeyValue) -> KeyValue {
        self.ns.key_value(kv)
    }

    /// The key as the `else` branch of a write transaction read it.
    fn read_in_else(&self, ops: &[TxnOpResponse]) -> Option<KeyValue> {
        ops.iter().find_map(|op| match op {
            TxnOpResponse::Get(get) => get.kvs().first().map(|kv| self.to_kv(kv)),
            _ => None,
        })
    }

    async fn do_create(&self, key: String, value: Bytes) -> Result<Revision, StoreError> {
        let k = self.ns.key(&key);
        let txn = Txn::new()
            .when([Compare::create_revision(k.clone(), CompareOp::Equal, 0)])
            .and_then([TxnOp::put(k.clone(), value.to_vec(), None)])
            .or_else([TxnOp::get(k, None)]);
        let resp = self.write(txn).await?;
        let revision = self.header_revision(resp.header());
        if resp.succeeded() { Ok(revision) } else { Err(StoreError::AlreadyExists { key }) }
    }

    async fn do_update(&self, key: String, value: Bytes, expected: Revision) -> Result<Revision, StoreError> {
        let k = self.ns.key(&key);
        // A missing key has mod_revision 0: also require a live key, so `expected == 0` can
        // never create one.
        let txn = Txn::new()
            .when([
                Compare::create_revision(k.clone(), CompareOp::Greater, 0),
                Compare::mod_revision(k.clone(), CompareOp::Equal, expected),
            ])
            .and_then([TxnOp::put(k.clone(), value.to_vec(), None)])
            .or_else([TxnOp::get(k, None)]);
        let resp = self.write(txn).await?;
        let revision = self.header_revision(resp.header());
        if resp.succeeded() {
            return Ok(revision);
        }
        match self.read_in_else(&resp.op_responses()) {
            Some(actual) => Err(StoreError::Conflict { key, expected, actual: actual.mod_revision }),
            None => Err(StoreError::NotFound { key }),
        }
    }

    async fn do_delete(&self, key: String, expected: Option<Revision>) -> Result<(Revision, KeyValue), StoreError> {
        let k = self.ns.key(&key);
        let mut when = vec![Compare::create_revision(k.clone(), CompareOp::Greater, 0)];
        if let Some(expected) = expected {
            when.push(Compare::mod_revision(k.clone(), CompareOp::Equal, expected));
        }
        let txn = Txn::new()
            .when(when)
            .and_then([TxnOp::delete(k.clone(), Some(DeleteOptions::new().with_prev_key()))])
            .or_else([TxnOp::get(k, None)]);
        let resp = self.write(txn).await?;
        let revision = self.header_revision(resp.header());
        let ops = resp.op_responses();
        if !resp.succeeded() {
            return match (self.read_in_else(&ops), expected) {
                (Some(actual), Some(expected)) => {
                    Err(StoreError::Conflict { key, expected, actual: actual.mod_revision })
                }
                _ => Err(StoreError::NotFound { key }),
            };
        }
        let deleted = ops.iter().find_map(|op| match op {
            TxnOpResponse::Delete(del) => del.prev_kvs().first().map(|kv| self.to_kv(kv)),
            _ => None,
        });
        // The compare proved the key live inside the transaction, so etcd returned it.
        deleted.map(|kv| (revision, kv)).ok_or(StoreError::NotFound { key })
    }

    async fn do_get(&self, key: String) -> Result<Option<KeyValue>, StoreError> {
        let resp = self.range(self.ns.key(&key), GetOptions::new()).await.map_err(StoreError::backend)?;
        self.header_revision(resp.header());
        Ok(resp.kvs().first().map(|kv| self.to_kv(kv)))
    }

    async fn do_list(&self, prefix: String, opts: ListOptions) -> Result<ListPage, StoreError> {
        let requested = opts.revision.map(|r| r.max(0));
        if requested == Some(0) {
            // etcd reads revision 0 as "latest"; the store means the empty state before the
            // first write, which is only there while nothing is compacted.
            let compacted = self.compacted.load(Ordering::Acquire);
            if compacted > 0 {
                return Err(StoreError::Compacted { requested: 0, compacted });
            }
            return Ok(ListPage { items: Vec::new(), revision: 0, continue_after: None, remaining: None });
        }
        let (start, end) = self.ns.prefix_range(&prefix);
        let start = match &opts.start_after {
            // Strictly after the last key of the previous page.
            Some(after) => {
                let mut key = self.ns.key(after);
                key.push(0);
                key.max(start)
            }
            None => start,
        };
        let mut get = GetOptions::new().with_range(end);
        if let Some(revision) = requested {
            get = get.with_revision(revision);
        }
        if let Some(limit) = opts.limit.filter(|l| *l > 0) {
            get = get.with_limit(i64::try_from(limit).unwrap_or(i64::MAX));
        }
        let resp = match self.range(start, get).await {
            Ok(resp) => resp,
            Err(err) => {
                let requested = requested.unwrap_or(0);
                return Err(match classify(err) {
                    Refusal::Compacted => self.compacted_error(requested).await,
                    Refusal::FutureRevision => self.future_error(requested).await,
                    Refusal::Other(err) => StoreError::backend(err),
                });
            }
        };
        let current = self.header_revision(resp.header());
        let items: Vec<KeyValue> = resp.kvs().iter().map(|kv| self.to_kv(kv)).collect();
        let (continue_after, remaining) = if resp.more() {
            let left = resp.count() - items.len() as i64;
            (items.last().map(|kv| kv.key.clone()), Some(left))
        } else {
            (None, None)
        };
        Ok(ListPage { items, revision: requested.unwrap_or(current), continue_after, remaining })
    }

    async fn do_compact(&self, upto: Revision) -> Result<(), StoreError> {
        if upto <= self.compacted.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut attempt = 0;
        let result = loop {
            match self.kv().compact(upto, None).await {
                // Compacting twice to one revision is refused as "compacted", handled below.
                Err(err) if attempt + 1 < ATTEMPTS && retryable(&err, true) => attempt += 1,
                other => break other,
            }
            tokio::time::sleep(Duration::from_millis(50 * u64::from(attempt))).await;
        };
        match result {
            Ok(resp) => {
                self.header_revision(resp.header());
                self.compacted.fetch_max(upto, Ordering::AcqRel);
                Ok(())
            }
            Err(err) => match classify(err) {
                // Someone compacted further already: nothing left to do but learn how far.
                Refusal::Compacted => self.learn_compacted().await.map(|_| ()),
                Refusal::FutureRevision => Err(self.future_error(upto).await),
                Refusal::Other(err) => Err(StoreError::backend(err)),
            },
        }
    }
}

impl Store for EtcdStore {
    fn create(&self, key: &str, value: Bytes) -> BoxFuture<'_, Result<Revision, StoreError>> {
        Box::pin(self.do_create(key.to_string(), value))
    }

    fn update(&self, key: &str, value: Bytes, expected: Revision) -> BoxFuture<'_, Result<Revision, StoreError>> {
        Box::pin(self.do_update(key.to_string(), value, expected))
    }

    fn delete(&self, key: &str, expected: Option<Revision>) -> BoxFuture<'_, Result<(Revision, KeyValue), StoreError>> {
        Box::pin(self.do_delete(key.to_string(), expected))
    }

    fn get(&self, key: &str) -> BoxFuture<'_, Result<Option<KeyValue>, StoreError>> {
        Box::pin(self.do_get(key.to_string()))
    }

    fn list(&self, prefix: &str, opts: ListOptions) -> BoxFuture<'_, Result<ListPage, StoreError>> {
        Box::pin(self.do_list(prefix.to_string(), opts))
    }

    fn watch(&self, prefix: &str, after: Revision) -> Result<WatchStream, StoreError> {
        let after = after.max(0);
        let compacted = self.compacted.load(Ordering::Acquire);
        if after < compacted {
            return Err(StoreError::Compacted { requested: after, compacted });
        }
        Ok(watch::stream(watch::Watch {
            client: self.client.clone(),
            ns: self.ns.clone(),
            prefix: prefix.to_string(),
            after,
            current: Arc::clone(&self.current),
            compacted: Arc::clone(&self.compacted),
        }))
    }

    fn current_revision(&self) -> Revision {
        self.current.load(Ordering::Acquire)
    }

    fn health(&self) -> Result<(), String> {
        self.no_space.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone().map_or(Ok(()), Err)
    }

    fn compacted_revision(&self) -> Revision {
        self.compacted.load(Ordering::Acquire)
    }

    fn compact(&self, upto: Revision) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(self.do_compact(upto))
    }
}

fn unreachable(endpoints: &[String]) -> StoreError {
    StoreError::backend(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("etcd did not answer within {CONNECT_TIMEOUT:?} at {}", endpoints.join(",")),
    ))
}

fn tls_options(tls: &EtcdTls) -> Result<TlsOptions, StoreError> {
    let read = |path: &PathBuf| {
        std::fs::read(path).map_err(|err| {
            StoreError::backend(std::io::Error::new(err.kind(), format!("reading {}: {err}", path.display())))
        })
    };
    let mut options = TlsOptions::new();
    if let Some(ca) = &tls.ca_file {
        options = options.ca_certificate(Certificate::from_pem(read(ca)?));
    }
    match (&tls.cert_file, &tls.key_file) {
        (Some(cert), Some(key)) => options = options.identity(Identity::from_pem(read(cert)?, read(key)?)),
        (None, None) => {}
        _ => {
            return Err(StoreError::backend(std::io::Error::other(
                "an etcd client certificate needs both its certificate and key file",
            )));
        }
    }
    Ok(options)
}
