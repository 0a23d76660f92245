//! The background compactor: forgets old history while keeping a window for watch resumes.
//!
//! Watchers that reconnect resume from the last revision they saw; compaction must not pull
//! that revision out from under them too soon. So the compactor keeps at least the last
//! `keep_revisions` revisions *and* at least everything written in the last `keep_for`
//! (like kube-apiserver's 5-minute compaction interval with kine's 1000-revision floor).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::{Revision, Store, StoreError};

/// How much history the compactor keeps and how often it looks.
#[derive(Debug, Clone)]
pub struct CompactionPolicy {
    /// How often to consider compacting.
    pub interval: Duration,
    /// Keep every revision written during at least this long.
    pub keep_for: Duration,
    /// Keep at least this many of the newest revisions.
    pub keep_revisions: Revision,
}

impl Default for CompactionPolicy {
    fn default() -> Self {
        CompactionPolicy {
            interval: Duration::from_secs(60),
            keep_for: Duration::from_secs(5 * 60),
            keep_revisions: 1000,
        }
    }
}

/// Starts the compactor on the current tokio runtime. It runs until the store is closed or the
/// handle is aborted. Failures are logged and retried at the next tick.
pub fn spawn_compactor(store: Arc<dyn Store>, policy: CompactionPolicy) -> JoinHandle<()> {
    tokio::spawn(async move {
        // tokio's interval panics on a zero period.
        let period = policy.interval.max(Duration::from_millis(1));
        let mut ticker = tokio::time::interval(period);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut samples = VecDeque::new();
        loop {
            ticker.tick().await;
            let now = Instant::now();
            let current = store.current_revision();
            let Some(target) = compaction_target(&mut samples, now, current, &policy) else {
                continue;
            };
            if target <= store.compacted_revision() {
                continue;
            }
            match store.compact(target).await {
                Ok(()) => tracing::debug!(revision = target, "compacted the store"),
                Err(StoreError::Closed) => return,
                Err(err) => tracing::warn!(error = %err, revision = target, "could not compact the store"),
            }
        }
    })
}

/// Records `(now, current)` and returns the newest revision that is both older than
/// `keep_for` and at least `keep_revisions` behind `current`, if there is one.
///
/// `samples` remembers what the current revision was at earlier ticks; the revision current at
/// the newest tick that is at least `keep_for` old bounds what may be forgotten, because every
/// later revision was written less than `keep_for` ago.
fn compaction_target(
    samples: &mut VecDeque<(Instant, Revision)>,
    now: Instant,
    current: Revision,
    policy: &CompactionPolicy,
) -> Option<Revision> {
    samples.push_back((now, current));
    let old_enough = |t: &Instant| now.saturating_duration_since(*t) >= policy.keep_for;
    // Drop samples made obsolete by a newer sample that is also old enough.
    while samples.len() >= 2 && samples.get(1).is_some_and(|(t, _)| old_enough(t)) {
        samples.pop_front();
    }
    let (t, aged) = *samples.front()?;
    if !old_enough(&t) {
        return None;
    }
    let target = aged.min(current.saturating_sub(policy.keep_revisions.max(0)));
    (target > 0).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(keep_for: u64, keep_revisions: Revision) -> CompactionPolicy {
        CompactionPolicy { interval: Duration::from_secs(1), keep_for: Duration::from_secs(keep_for), keep_revisions }
    }

    #[test]
    fn nothing_is_compacted_before_the_window_has_passed() {
        let start = Instant::now();
        let mut samples = VecDeque::new();
        let p = policy(300, 10);
        assert_eq!(compaction_target(&mut samples, start, 5000, &p), None);
        assert_eq!(compaction_target(&mut samples, start + Duration::from_secs(299), 6000, &p), None);
    }

    #[test]
    fn the_revision_current_a_window_ago_is_the_bound() {
        let start = Instant::now();
        let mut samples = VecDeque::new();
        let p = policy(300, 10);
        for (secs, rev) in [(0, 100), (60, 200), (120, 300), (360, 900)] {
            let _ = compaction_target(&mut samples, start + Duration::from_secs(secs), rev, &p);
        }
        // At t=420: the newest sample at least 300 s old is t=120 (revision 300).
        let target = compaction_target(&mut samples, start + Duration::from_secs(420), 1000, &p);
        assert_eq!(target, Some(300));
        assert_eq!(samples.front().map(|s| s.1), Some(300), "older samples are pruned");
    }

    #[test]
    fn the_revision_floor_wins_when_it_is_stricter() {
        let start = Instant::now();
        let mut samples = VecDeque::new();
        let p = policy(0, 1000);
        assert_eq!(compaction_target(&mut samples, start, 1500, &p), Some(500));
        assert_eq!(compaction_target(&mut samples, start, 800, &p), None);
    }
}
