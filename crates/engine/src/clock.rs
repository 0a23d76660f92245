//! The engine's clock: what time it is for controllers that act at wall-clock instants (the
//! CronFederatedHPA rules), and sleeping until such an instant. Real time by default; a plane
//! started for a test may set it to start at a chosen instant, from which it advances in real
//! time (`controlplane serve --engine-clock-start`, hidden and test-only). Only the instants
//! controllers compare schedules with move; timeouts, leases and certificates keep real time.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

/// Longest single sleep: a long wait is split so that a wall clock set forward or back (NTP, a
/// suspended machine) is noticed within this bound rather than at the end of a day's sleep.
const MAX_SLEEP: Duration = Duration::from_secs(60);

/// Real time shifted by a fixed offset (zero for the real clock).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    offset: SignedDuration,
}

impl Clock {
    /// The system's clock.
    pub fn real() -> Self {
        Self::default()
    }

    /// A clock that reads `start` now and advances in real time from here.
    pub fn starting_at(start: Timestamp) -> Self {
        Self { offset: start.duration_since(Timestamp::now()) }
    }

    /// Whether this is the system's clock.
    pub fn is_real(&self) -> bool {
        self.offset.is_zero()
    }

    pub fn now(&self) -> Timestamp {
        Timestamp::now().checked_add(self.offset).unwrap_or(Timestamp::MAX)
    }

    /// Returns once this clock reads `at` or later.
    pub async fn sleep_until(&self, at: Timestamp) {
        loop {
            let left = at.duration_since(self.now());
            if left <= SignedDuration::ZERO {
                return;
            }
            let left = Duration::try_from(left).unwrap_or(MAX_SLEEP);
            tokio::time::sleep(left.min(MAX_SLEEP)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_started_clock_reads_its_start_and_advances() {
        let start: Timestamp = "2026-03-10T00:59:55Z".parse().unwrap();
        let clock = Clock::starting_at(start);
        assert!(!clock.is_real() && Clock::real().is_real());
        let first = clock.now();
        assert!(first >= start && first.duration_since(start) < SignedDuration::from_secs(5), "{first}");
        std::thread::sleep(Duration::from_millis(20));
        assert!(clock.now() > first);
        let real = Clock::real().now().duration_since(Timestamp::now());
        assert!(real.abs() < SignedDuration::from_secs(1));
    }

    #[tokio::test]
    async fn sleep_until_returns_at_the_instant_on_that_clock() {
        let clock = Clock::starting_at("2001-01-01T00:00:00Z".parse().unwrap());
        let target = clock.now().checked_add(SignedDuration::from_millis(150)).unwrap();
        clock.sleep_until(target).await;
        assert!(clock.now() >= target);
        // An instant already past returns at once.
        let before = std::time::Instant::now();
        clock.sleep_until("2000-01-01T00:00:00Z".parse().unwrap()).await;
        assert!(before.elapsed() < Duration::from_millis(50));
    }
}
