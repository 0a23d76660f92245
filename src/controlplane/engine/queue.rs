//! A work queue of object keys, as client-go's: a key queued several times before a worker
//! takes it is handled once, a key is never handled by two workers at once (one queued while
//! being handled comes back when the handling ends), and a failed key comes back after a
//! growing delay.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

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
            }),
            notify: Notify::new(),
        })
    }

    pub fn add(&self, key: K) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
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
        let delay = {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let n = inner.failures.entry(key.clone()).or_insert(0);
            *n = n.saturating_add(1);
            Duration::from_millis(50u64.saturating_mul(1 << (*n - 1).min(8))).min(Duration::from_secs(10))
        };
        self.release(&key);
        self.add_after(key, delay);
    }

    /// Hands keys to `handle` one at a time until it returns `None` (its owner is gone):
    /// `Ok` marks the key done, `Err` retries it.
    ///
    /// A key that needs no change is handled without ever awaiting, and [`Queue::next`] does not
    /// await while keys are pending; so after a restart, when every object is queued and
    /// nothing needs changing, a worker would keep its runtime thread until its queue is empty,
    /// starving the API server and the workers that do talk to it. Each key spends from the
    /// task's cooperative budget, so the worker yields once the budget is used up.
    pub async fn serve<F, Fut>(self: &Arc<Self>, mut handle: F)
    where
        K: std::fmt::Debug,
        F: FnMut(K) -> Option<Fut>,
        Fut: std::future::Future<Output = Result<(), String>>,
    {
        loop {
            let key = self.next().await;
            let Some(work) = handle(key.clone()) else { return };
            match work.await {
                Ok(()) => self.done(&key),
                Err(e) => {
                    tracing::debug!(key = ?key, error = %e, "engine: will retry");
                    self.retry(key);
                }
            }
            tokio::task::coop::consume_budget().await;
        }
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
                q.serve(|_k: usize| {
                    handled.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    Some(async { Ok(()) })
                })
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
}
