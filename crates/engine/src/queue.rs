//! A work queue of object keys, as client-go's: a key queued several times before a worker
//! takes it is handled once, a key is never handled by two workers at once (one queued while
//! being handled comes back when the handling ends), and a failed key either comes back after a
//! growing delay or, when the error policy says it would fail the same way again, waits until
//! something queues it (see [`super::error`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

use super::error::Action;

/// First delay after a failure, doubled per further failure up to [`RETRY_MAX`].
const RETRY_FIRST: Duration = Duration::from_millis(50);
/// First delay after a conflict with another writer (client-go's `DefaultRetry` step).
const CONFLICT_RETRY_FIRST: Duration = Duration::from_millis(10);
const RETRY_MAX: Duration = Duration::from_secs(10);

/// The delay before the `failures`-th retry (counted from 1).
fn backoff(first: Duration, failures: u32) -> Duration {
    first.saturating_mul(1 << failures.saturating_sub(1).min(10)).min(RETRY_MAX)
}

pub struct Queue<K> {
    inner: Mutex<Inner<K>>,
    notify: Notify,
}

struct Inner<K> {
    pending: VecDeque<K>,
    queued: HashSet<K>,
    processing: HashSet<K>,
    /// Keys added while being processed.
    dirty: HashSet<K>,
    failures: HashMap<K, u32>,
    /// Keys whose last failure was permanent, waiting for a change to queue them again.
    parked: HashSet<K>,
    /// Keys [`Queue::add_batched`] will queue when their window ends.
    batching: HashSet<K>,
}

impl<K: Clone + Eq + Hash + Send + 'static> Queue<K> {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            inner: Mutex::new(Inner {
                pending: VecDeque::new(),
                queued: HashSet::new(),
                processing: HashSet::new(),
                dirty: HashSet::new(),
                failures: HashMap::new(),
                parked: HashSet::new(),
                batching: HashSet::new(),
            }),
            notify: Notify::new(),
        })
    }

    pub fn add(&self, key: K) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.parked.remove(&key);
        if inner.processing.contains(&key) {
            inner.dirty.insert(key);
            return;
        }
        if inner.queued.insert(key.clone()) {
            inner.pending.push_back(key);
            drop(inner);
            self.notify.notify_one();
        }
    }

    /// The next key, waiting for one.
    pub async fn next(&self) -> K {
        loop {
            let notified = self.notify.notified();
            {
                let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(key) = inner.pending.pop_front() {
                    inner.queued.remove(&key);
                    inner.processing.insert(key.clone());
                    if !inner.pending.is_empty() {
                        self.notify.notify_one();
                    }
                    return key;
                }
            }
            notified.await;
        }
    }

    /// Whether keys are waiting for a worker or being handled.
    pub fn is_busy(&self) -> bool {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        !inner.pending.is_empty() || !inner.processing.is_empty()
    }

    /// The key was handled: its failure count starts again.
    pub fn done(&self, key: &K) {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).failures.remove(key);
        self.release(key);
    }

    /// Processing ended; a key added meanwhile is queued now.
    fn release(&self, key: &K) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.processing.remove(key);
        if inner.dirty.remove(key) {
            drop(inner);
            self.add(key.clone());
        }
    }

    /// The key failed: it comes back after 50 ms, doubling per failure up to 10 s.
    pub fn retry(self: &Arc<Self>, key: K) {
        self.retry_after(key, RETRY_FIRST);
    }

    /// The key failed: it comes back after `first`, doubling per failure up to 10 s.
    fn retry_after(self: &Arc<Self>, key: K, first: Duration) {
        let delay = {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let n = inner.failures.entry(key.clone()).or_insert(0);
            *n = n.saturating_add(1);
            backoff(first, *n)
        };
        self.release(&key);
        self.add_after(key, delay);
    }

    /// The key failed in a way that a retry would repeat: it is not queued again until
    /// [`Queue::add`] (its object changed) or [`Queue::wake_parked`] (something it depends on
    /// changed). Its backoff starts again then, as the next failure has a new cause.
    pub fn park(&self, key: K) {
        {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            inner.failures.remove(&key);
            // Added while being handled: the change came after the read that failed, so the key
            // is handled again (by `release`) instead of waiting.
            if !inner.dirty.contains(&key) {
                inner.parked.insert(key.clone());
            }
        }
        self.release(&key);
    }

    /// Queues again the parked keys that `matches` picks: an object they conflicted with
    /// changed.
    pub fn wake_parked(&self, matches: impl Fn(&K) -> bool) {
        let woken: Vec<K> = {
            let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            inner.parked.iter().filter(|k| matches(k)).cloned().collect()
        };
        for key in woken {
            self.add(key);
        }
    }

    /// Hands keys to `handle` one at a time until it returns `None` (its owner is gone):
    /// `Ok` marks the key done; an error is retried after a backoff or parked, as `policy`
    /// decides.
    ///
    /// A key that needs no change is handled without ever awaiting, and [`Queue::next`] does not
    /// await while keys are pending; so after a restart, when every object is queued and
    /// nothing needs changing, a worker would keep its runtime thread until its queue is empty,
    /// starving the API server and the workers that do talk to it. Each key spends from the
    /// task's cooperative budget, so the worker yields once the budget is used up.
    pub async fn serve<F, Fut, E>(self: &Arc<Self>, handle: F, policy: impl Fn(&E) -> Action)
    where
        K: std::fmt::Debug,
        F: FnMut(K) -> Option<Fut>,
        Fut: std::future::Future<Output = Result<(), E>>,
        E: std::fmt::Display,
    {
        self.serve_when(|| std::future::ready(()), handle, policy).await;
    }

    /// [`Queue::serve`], awaiting `gate` before taking each key: a worker that should give way
    /// to others leaves the keys to the queue's other workers meanwhile.
    pub async fn serve_when<G, GFut, F, Fut, E>(self: &Arc<Self>, gate: G, mut handle: F, policy: impl Fn(&E) -> Action)
    where
        K: std::fmt::Debug,
        G: Fn() -> GFut,
        GFut: std::future::Future<Output = ()>,
        F: FnMut(K) -> Option<Fut>,
        Fut: std::future::Future<Output = Result<(), E>>,
        E: std::fmt::Display,
    {
        loop {
            gate().await;
            let key = self.next().await;
            let Some(work) = handle(key.clone()) else { return };
            match work.await {
                Ok(()) => self.done(&key),
                Err(e) => {
                    let action = policy(&e);
                    tracing::debug!(key = ?key, error = %e, ?action, "engine: reconcile failed");
                    self.failed(key, action);
                }
            }
            tokio::task::coop::consume_budget().await;
        }
    }

    /// Does what the error policy decided for a failed key.
    pub fn failed(self: &Arc<Self>, key: K, action: Action) {
        match action {
            Action::Backoff => self.retry(key),
            Action::Conflict => self.retry_after(key, CONFLICT_RETRY_FIRST),
            Action::AwaitChange => self.park(key),
        }
    }

    /// Queues `key` when `window` has passed, taking every further `add_batched` of it in the
    /// meantime into that one: a burst of changes is handled once, after it (as kube's
    /// endpoints controllers batch pod changes for `--endpoint-updates-batch-period`). A key
    /// already waiting in the queue needs nothing more, as its handling reads the newest state.
    pub fn add_batched(self: &Arc<Self>, key: K, window: Duration) {
        {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            if inner.queued.contains(&key) || !inner.batching.insert(key.clone()) {
                return;
            }
        }
        let queue = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(window).await;
            queue.inner.lock().unwrap_or_else(|e| e.into_inner()).batching.remove(&key);
            queue.add(key);
        });
    }

    pub fn add_after(self: &Arc<Self>, key: K, delay: Duration) {
        let queue = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            queue.add(key);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ReconcileError, policy};

    #[tokio::test]
    async fn a_key_queued_twice_is_handled_once() {
        let q = Queue::new();
        q.add("a");
        q.add("b");
        q.add("a");
        assert_eq!(q.next().await, "a");
        assert_eq!(q.next().await, "b");
        q.done(&"a");
        q.done(&"b");
        q.add("a");
        assert_eq!(q.next().await, "a");
    }

    /// A worker behind a closed gate leaves every key to the queue's other worker, and takes
    /// its share again once the gate opens.
    #[tokio::test]
    async fn a_gated_worker_takes_no_key_while_its_gate_is_closed() {
        let q = Queue::<u32>::new();
        let open = Arc::new(tokio::sync::watch::channel(false).0);
        let handled: Arc<Mutex<Vec<(&str, u32)>>> = Arc::default();
        let spawn_worker = |name: &'static str, gated: bool| {
            let (q, handled, open) = (q.clone(), handled.clone(), open.subscribe());
            tokio::spawn(async move {
                q.serve_when(
                    move || {
                        let mut open = open.clone();
                        async move {
                            if gated {
                                let _ = open.wait_for(|o| *o).await;
                            }
                        }
                    },
                    |k| {
                        let handled = handled.clone();
                        Some(async move {
                            handled.lock().unwrap().push((name, k));
                            // Long enough that the other worker would take the next key.
                            tokio::time::sleep(Duration::from_millis(5)).await;
                            Ok::<(), ReconcileError>(())
                        })
                    },
                    policy,
                )
                .await;
            })
        };
        let gated = spawn_worker("gated", true);
        let free = spawn_worker("free", false);
        for k in 0..20 {
            q.add(k);
        }
        while handled.lock().unwrap().len() < 20 || q.is_busy() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(handled.lock().unwrap().iter().all(|(w, _)| *w == "free"), "the gated worker took a key");
        open.send_replace(true);
        handled.lock().unwrap().clear();
        for k in 20..60 {
            q.add(k);
        }
        while handled.lock().unwrap().len() < 40 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(handled.lock().unwrap().iter().any(|(w, _)| *w == "gated"), "the open gate let the worker work");
        gated.abort();
        free.abort();
    }

    #[tokio::test(start_paused = true)]
    async fn a_burst_of_batched_adds_is_handled_once_after_its_window() {
        let q = Queue::new();
        let window = Duration::from_secs(1);
        let start = tokio::time::Instant::now();
        q.add_batched("a", window);
        tokio::time::sleep(Duration::from_millis(400)).await;
        q.add_batched("a", window);
        q.add_batched("b", window);
        assert_eq!(q.next().await, "a");
        assert_eq!(start.elapsed(), window, "the window counts from the first change");
        q.done(&"a");
        assert_eq!(q.next().await, "b");
        assert_eq!(start.elapsed(), Duration::from_millis(1400));
        q.done(&"b");
        // A key already waiting in the queue is not batched again.
        q.add("c");
        q.add_batched("c", window);
        assert_eq!(q.next().await, "c");
        q.done(&"c");
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(q.inner.lock().unwrap().pending.is_empty());
    }

    #[tokio::test]
    async fn a_key_added_while_processed_waits_for_the_end() {
        let q = Queue::new();
        q.add("a");
        assert_eq!(q.next().await, "a");
        q.add("a");
        q.add("b");
        assert_eq!(q.next().await, "b");
        q.done(&"a");
        assert_eq!(q.next().await, "a");
    }

    /// Keys that complete without awaiting must still let other tasks on the thread run before
    /// the queue is drained.
    #[tokio::test(flavor = "current_thread")]
    async fn a_worker_with_many_ready_keys_lets_other_tasks_run() {
        const KEYS: usize = 10_000;
        let q = Queue::new();
        for k in 0..KEYS {
            q.add(k);
        }
        let handled = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen_by_other = Arc::new(Mutex::new(None));
        let worker = {
            let q = q.clone();
            let handled = handled.clone();
            tokio::spawn(async move {
                q.serve(
                    |_k: usize| {
                        handled.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        Some(async { Ok::<(), String>(()) })
                    },
                    |_| Action::Backoff,
                )
                .await
            })
        };
        // Spawned after the worker, so it runs only when the worker gives the thread up.
        let other = {
            let handled = handled.clone();
            let seen = seen_by_other.clone();
            tokio::spawn(async move {
                *seen.lock().unwrap() = Some(handled.load(std::sync::atomic::Ordering::SeqCst));
            })
        };
        other.await.unwrap();
        let seen = seen_by_other.lock().unwrap().expect("the other task ran");
        assert!(seen > 0, "the worker had not started when the other task ran");
        assert!(seen < KEYS, "the other task ran only after all {KEYS} keys were handled");
        // The worker waits for more keys forever.
        worker.abort();
    }

    #[tokio::test]
    async fn retried_keys_come_back() {
        let q = Queue::new();
        q.retry("x");
        assert_eq!(tokio::time::timeout(Duration::from_secs(5), q.next()).await, Ok("x"));
    }

    /// Alive tasks on this test's runtime: a retry's delayed add is one.
    fn timers() -> usize {
        tokio::runtime::Handle::current().metrics().num_alive_tasks()
    }

    fn invalid() -> ReconcileError {
        let status = kube::core::Status::failure("spec.replicas: Invalid value: -1", "Invalid").with_code(422);
        ReconcileError::MemberRefused {
            doing: "applying Deployment nginx".into(),
            source: kube::Error::Api(Box::new(status)),
        }
    }

    fn unavailable() -> ReconcileError {
        let status = kube::core::Status::failure("etcdserver: leader changed", "ServiceUnavailable").with_code(503);
        ReconcileError::Plane(kube::Error::Api(Box::new(status)))
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_permanent_error_is_not_requeued() {
        let q = Queue::new();
        q.add("bad");
        let key = q.next().await;
        q.failed(key, policy(&invalid()));
        assert_eq!(timers(), 0, "no delayed add was scheduled");
        let inner = q.inner.lock().unwrap();
        assert!(inner.pending.is_empty() && inner.queued.is_empty() && inner.processing.is_empty());
        assert!(inner.parked.contains("bad"));
        assert!(inner.failures.is_empty(), "a parked key keeps no backoff");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_transient_error_backs_off_and_is_requeued() {
        let q = Queue::new();
        q.add("busy");
        let key = q.next().await;
        q.failed(key, policy(&unavailable()));
        assert_eq!(timers(), 1, "a delayed add was scheduled");
        for failures in 1..=3u32 {
            {
                let inner = q.inner.lock().unwrap();
                assert_eq!(inner.failures.get("busy"), Some(&failures), "the backoff grows");
                assert!(inner.parked.is_empty());
            }
            // The delayed add brings it back; 30 s only bounds a failure.
            let key = tokio::time::timeout(Duration::from_secs(30), q.next()).await;
            assert_eq!(key, Ok("busy"));
            q.failed("busy", policy(&unavailable()));
        }
        assert_eq!(tokio::time::timeout(Duration::from_secs(30), q.next()).await, Ok("busy"));
        q.done(&"busy");
        assert!(q.inner.lock().unwrap().failures.is_empty(), "success resets the backoff");
    }

    #[test]
    fn conflicts_are_retried_sooner_than_other_failures_and_both_grow_to_ten_seconds() {
        let ms = |d: Duration| d.as_millis();
        assert_eq!([1, 2, 3].map(|n| ms(backoff(CONFLICT_RETRY_FIRST, n))), [10, 20, 40]);
        assert_eq!([1, 2, 3].map(|n| ms(backoff(RETRY_FIRST, n))), [50, 100, 200]);
        assert_eq!(backoff(RETRY_FIRST, 9), RETRY_MAX);
        assert_eq!(backoff(CONFLICT_RETRY_FIRST, 50), RETRY_MAX);
    }

    #[tokio::test]
    async fn a_conflict_is_requeued_and_counted_as_a_failure() {
        let q = Queue::new();
        q.add("raced");
        let key = q.next().await;
        q.failed(key, Action::Conflict);
        assert_eq!(q.inner.lock().unwrap().failures.get("raced"), Some(&1));
        assert_eq!(tokio::time::timeout(Duration::from_secs(30), q.next()).await, Ok("raced"));
        q.done(&"raced");
        assert!(q.inner.lock().unwrap().failures.is_empty());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_change_requeues_a_key_that_failed_permanently() {
        let q = Queue::new();
        q.add("bad");
        q.add("other");
        let key = q.next().await;
        q.failed(key, policy(&invalid()));
        // Its object changed: the watch queues it again.
        q.add("bad");
        assert_eq!(q.next().await, "other");
        assert_eq!(q.next().await, "bad");
        assert!(q.inner.lock().unwrap().parked.is_empty());
        q.failed("bad", policy(&invalid()));
        // Something it conflicted with changed.
        q.wake_parked(|k| *k == "unrelated");
        assert!(q.inner.lock().unwrap().pending.is_empty());
        q.wake_parked(|k| *k == "bad");
        assert_eq!(q.next().await, "bad");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_change_during_a_failing_reconcile_is_not_lost() {
        let q = Queue::new();
        q.add("bad");
        let key = q.next().await;
        q.add("bad");
        q.failed(key, policy(&invalid()));
        assert_eq!(q.next().await, "bad");
        assert!(q.inner.lock().unwrap().parked.is_empty());
    }
}
