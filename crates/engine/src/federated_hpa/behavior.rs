//! Scaling behavior (kube's `normalizeDesiredReplicasWithBehaviors`, as upstream lifts it):
//! the stabilization windows keep the highest recommendation of the scale-down window and the
//! lowest of the scale-up one, then the policies cap how many replicas may be added or removed
//! per period, counting the scale events this FHPA already made, then min/max clamp.
//! Each step's reason and message are kube's, for the AbleToScale and ScalingLimited
//! conditions.
//!
//! Pure: the history lives in [`History`], and `now` is given, so it is tested without
//! sleeping.

use std::time::{Duration, Instant};

/// One direction's rules, with the webhook's defaults already filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    pub stabilization_window: Duration,
    pub select: Select,
    pub policies: Vec<Policy>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    Max,
    Min,
    Disabled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Pods (true) or Percent.
    pub pods: bool,
    pub value: i32,
    pub period: Duration,
}

impl Rules {
    /// kube's scale-up default: max(4 pods, 100 %) per 15 s, no window.
    pub fn default_up() -> Self {
        let period = Duration::from_secs(15);
        Self {
            stabilization_window: Duration::ZERO,
            select: Select::Max,
            policies: vec![Policy { pods: true, value: 4, period }, Policy { pods: false, value: 100, period }],
        }
    }

    /// kube's scale-down default: 100 % per 15 s, with the controller's window.
    pub fn default_down(window: Duration) -> Self {
        Self {
            stabilization_window: window,
            select: Select::Max,
            policies: vec![Policy { pods: false, value: 100, period: Duration::from_secs(15) }],
        }
    }

    fn longest_period(&self) -> Duration {
        self.policies.iter().map(|p| p.period).max().unwrap_or_default()
    }
}

/// A change this FHPA made: how many replicas and when.
#[derive(Debug, Clone, Copy)]
struct ScaleEvent {
    change: i32,
    at: Instant,
    outdated: bool,
}

/// What one FHPA remembers between syncs (kube keeps the same per HPA, in memory).
#[derive(Debug, Default)]
pub struct History {
    recommendations: Vec<(Instant, i32)>,
    up: Vec<ScaleEvent>,
    down: Vec<ScaleEvent>,
}

/// The outcome with the reasons for the conditions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    pub replicas: i32,
    /// AbleToScale's reason and message.
    pub able: (&'static str, &'static str),
    /// ScalingLimited: whether limited, reason and message.
    pub limited: (bool, &'static str, &'static str),
}

/// The arguments of one normalization.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub min: i32,
    pub max: i32,
    pub current: i32,
}

impl History {
    /// kube's `recordInitialRecommendation`: a fresh FHPA starts from the current count.
    pub fn start(&mut self, current: i32, now: Instant) {
        if self.recommendations.is_empty() {
            self.recommendations.push((now, current));
        }
    }

    /// Stabilizes `desired`, then applies the rate limits and the bounds.
    pub fn normalize(&mut self, up: &Rules, down: &Rules, b: Bounds, desired: i32, now: Instant) -> Normalized {
        let stabilized = self.stabilize(up, down, b.current, desired, now);
        let able = if stabilized == desired {
            ("ReadyForNewScale", "recommended size matches current size")
        } else if desired >= b.current {
            (
                "ScaleUpStabilized",
                "recent recommendations were lower than current one, applying the lowest recent recommendation",
            )
        } else {
            (
                "ScaleDownStabilized",
                "recent recommendations were higher than current one, applying the highest recent recommendation",
            )
        };
        let (replicas, reason, message) = self.rate_limit(up, down, b, stabilized, now);
        Normalized { replicas, able, limited: (replicas != stabilized, reason, message) }
    }

    /// kube's `stabilizeRecommendationWithBehaviors`.
    fn stabilize(&mut self, up: &Rules, down: &Rules, current: i32, desired: i32, now: Instant) -> i32 {
        let up_cutoff = now.checked_sub(up.stabilization_window);
        let down_cutoff = now.checked_sub(down.stabilization_window);
        let after = |at: Instant, cutoff: Option<Instant>| cutoff.is_none_or(|c| at > c);
        let (mut up_rec, mut down_rec) = (desired, desired);
        let mut old = None;
        for (i, (at, rec)) in self.recommendations.iter().enumerate() {
            if after(*at, up_cutoff) {
                up_rec = up_rec.min(*rec);
            }
            if after(*at, down_cutoff) {
                down_rec = down_rec.max(*rec);
            }
            if !after(*at, up_cutoff) && !after(*at, down_cutoff) {
                old = Some(i);
            }
        }
        let recommendation = current.max(up_rec).min(down_rec);
        match old {
            Some(i) => self.recommendations[i] = (now, desired),
            None => self.recommendations.push((now, desired)),
        }
        recommendation
    }

    /// kube's `convertDesiredReplicasWithBehaviorRate`.
    fn rate_limit(
        &self,
        up: &Rules,
        down: &Rules,
        b: Bounds,
        desired: i32,
        now: Instant,
    ) -> (i32, &'static str, &'static str) {
        if desired > b.current {
            let limit = self.up_limit(b.current, up, now).max(b.current);
            let (allowed, reason, message) = if b.max > limit {
                (limit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate")
            } else {
                (b.max, "TooManyReplicas", "the desired replica count is more than the maximum replica count")
            };
            if desired > allowed {
                return (allowed, reason, message);
            }
        } else if desired < b.current {
            let limit = self.down_limit(b.current, down, now).min(b.current);
            let (allowed, reason, message) = if b.min < limit {
                (limit, "ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate")
            } else {
                (b.min, "TooFewReplicas", "the desired replica count is less than the minimum replica count")
            };
            if desired < allowed {
                return (allowed, reason, message);
            }
        }
        (desired, "DesiredWithinRange", "the desired count is within the acceptable range")
    }

    fn changed_within(events: &[ScaleEvent], period: Duration, now: Instant) -> i32 {
        let cutoff = now.checked_sub(period);
        events.iter().filter(|e| cutoff.is_none_or(|c| e.at > c)).map(|e| e.change).sum()
    }

    /// kube's `calculateScaleUpLimitWithScalingRules`.
    fn up_limit(&self, current: i32, rules: &Rules, now: Instant) -> i32 {
        let (mut result, pick): (i64, fn(i64, i64) -> i64) = match rules.select {
            Select::Disabled => return current,
            Select::Min => (i64::from(i32::MAX), std::cmp::min),
            Select::Max => (i64::from(i32::MIN), std::cmp::max),
        };
        for p in &rules.policies {
            let start = i64::from(current) - i64::from(Self::changed_within(&self.up, p.period, now))
                + i64::from(Self::changed_within(&self.down, p.period, now));
            let proposed = if p.pods {
                start + i64::from(p.value)
            } else {
                (start as f64 * (1.0 + f64::from(p.value) / 100.0)).ceil() as i64
            };
            result = pick(result, proposed);
        }
        result.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// kube's `calculateScaleDownLimitWithBehaviors`.
    fn down_limit(&self, current: i32, rules: &Rules, now: Instant) -> i32 {
        let (mut result, pick): (i64, fn(i64, i64) -> i64) = match rules.select {
            Select::Disabled => return current,
            Select::Min => (i64::from(i32::MIN), std::cmp::max),
            Select::Max => (i64::from(i32::MAX), std::cmp::min),
        };
        for p in &rules.policies {
            let start = i64::from(current) - i64::from(Self::changed_within(&self.up, p.period, now))
                + i64::from(Self::changed_within(&self.down, p.period, now));
            let proposed = if p.pods {
                start - i64::from(p.value)
            } else {
                (start as f64 * (1.0 - f64::from(p.value) / 100.0)) as i64
            };
            result = pick(result, proposed);
        }
        result.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// kube's `storeScaleEvent`: remembers a change for the policies' periods.
    pub fn record_scale(&mut self, up: &Rules, down: &Rules, previous: i32, new: i32, now: Instant) {
        let (events, rules, change) =
            if new > previous { (&mut self.up, up, new - previous) } else { (&mut self.down, down, previous - new) };
        let longest = rules.longest_period();
        for e in events.iter_mut() {
            if now.checked_sub(longest).is_some_and(|c| e.at <= c) {
                e.outdated = true;
            }
        }
        let event = ScaleEvent { change, at: now, outdated: false };
        match events.iter_mut().find(|e| e.outdated) {
            Some(slot) => *slot = event,
            None => events.push(event),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(current: i32) -> Bounds {
        Bounds { min: 2, max: 10, current }
    }

    #[test]
    fn scale_up_is_capped_by_the_default_policies() {
        let (up, down) = (Rules::default_up(), Rules::default_down(Duration::ZERO));
        let t0 = Instant::now();
        let mut h = History::default();
        h.start(2, t0);
        // From 2, max(2 + 4, 2 × 2) = 6 in one period, though 9 were wanted.
        let n = h.normalize(&up, &down, bounds(2), 9, t0);
        assert_eq!(n.replicas, 6);
        assert_eq!(
            n.limited,
            (true, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate")
        );
        h.record_scale(&up, &down, 2, 6, t0);
        // 5 s later, within the 15 s period: the period started at 2, so still 6 at most.
        let n = h.normalize(&up, &down, bounds(6), 9, t0 + Duration::from_secs(5));
        assert_eq!(n.replicas, 6);
        // After the period, 12 would be allowed, but max is 10.
        let n = h.normalize(&up, &down, bounds(6), 20, t0 + Duration::from_secs(16));
        assert_eq!(n.replicas, 10);
        assert_eq!(n.limited.1, "TooManyReplicas");
    }

    #[test]
    fn the_scale_down_window_keeps_the_highest_recent_recommendation() {
        let (up, down) = (Rules::default_up(), Rules::default_down(Duration::from_secs(10)));
        let t0 = Instant::now();
        let mut h = History::default();
        h.start(8, t0);
        let n = h.normalize(&up, &down, bounds(8), 8, t0);
        assert_eq!(n.able.0, "ReadyForNewScale");
        // Usage fell: 2 is wanted, but 8 was recommended 3 s ago.
        let n = h.normalize(&up, &down, bounds(8), 2, t0 + Duration::from_secs(3));
        assert_eq!(n.replicas, 8);
        assert_eq!(n.able.0, "ScaleDownStabilized");
        // Once the window has passed those, the recommendation goes down to the bound.
        let n = h.normalize(&up, &down, bounds(8), 1, t0 + Duration::from_secs(14));
        assert_eq!(n.replicas, 2);
        assert_eq!(
            n.limited,
            (true, "TooFewReplicas", "the desired replica count is less than the minimum replica count")
        );
    }

    #[test]
    fn select_policy_min_and_disabled() {
        let t0 = Instant::now();
        let period = Duration::from_secs(60);
        let mut down = Rules {
            stabilization_window: Duration::ZERO,
            select: Select::Min,
            policies: vec![Policy { pods: true, value: 1, period }, Policy { pods: false, value: 50, period }],
        };
        let up = Rules::default_up();
        let mut h = History::default();
        // Min change: at most one pod less (not half).
        let n = h.normalize(&up, &down, Bounds { min: 1, max: 10, current: 8 }, 2, t0);
        assert_eq!((n.replicas, n.limited.1), (7, "ScaleDownLimit"));
        h.record_scale(&up, &down, 8, 7, t0);
        // The pod removed in this period counts: the period started at 8, so 7 is the floor.
        let n = h.normalize(&up, &down, Bounds { min: 1, max: 10, current: 7 }, 2, t0 + Duration::from_secs(30));
        assert_eq!(n.replicas, 7);
        down.select = Select::Disabled;
        let n = h.normalize(&up, &down, Bounds { min: 1, max: 10, current: 7 }, 2, t0 + Duration::from_secs(90));
        assert_eq!(n.replicas, 7);
    }
}
