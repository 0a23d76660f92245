//! kubectl's human-readable durations: AGE columns and the `token list` TTL.
//!
//! Ports of `k8s.io/apimachinery/pkg/util/duration`. Both take the duration as Go does (signed,
//! nanosecond precision) because the sign and truncation rules matter at the edges: anything
//! from −1.999 s up to 0 is shown as `0s` to tolerate clock skew, and −2 s or less is `<invalid>`.

use jiff::{SignedDuration, Timestamp};

/// What kubectl shows in an AGE cell for an object without a creation timestamp.
pub const UNKNOWN_AGE: &str = "<unknown>";

/// Whole seconds truncated toward zero, as Go's `int(d.Seconds())`, or the `<invalid>` / `0s`
/// text for negative durations.
fn non_negative_seconds(d: SignedDuration) -> Result<i64, &'static str> {
    match d.as_secs() {
        s if s < -1 => Err("<invalid>"),
        s if s < 0 => Err("0s"),
        s => Ok(s),
    }
}

/// `duration.HumanDuration`: about 2–3 significant figures (`90s`, `2m5s`, `10m`, `3h20m`,
/// `47h`, `6d5h`, `400d`, `3y20d`, `9y`), as kubectl prints AGE.
pub fn human_duration(d: SignedDuration) -> String {
    let seconds = match non_negative_seconds(d) {
        Ok(s) => s,
        Err(text) => return text.to_owned(),
    };
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        return match seconds % 60 {
            0 => format!("{minutes}m"),
            s => format!("{minutes}m{s}s"),
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 8 {
        return match minutes % 60 {
            0 => format!("{hours}h"),
            m => format!("{hours}h{m}m"),
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let days = hours / 24;
    if hours < 24 * 8 {
        return match hours % 24 {
            0 => format!("{days}d"),
            h => format!("{days}d{h}h"),
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{days}d");
    }
    let years = days / 365;
    if hours < 24 * 365 * 8 {
        return match days % 365 {
            0 => format!("{years}y"),
            d => format!("{years}y{d}d"),
        };
    }
    format!("{years}y")
}

/// `duration.ShortHumanDuration`: one unit only (`59s`, `59m`, `23h`, `364d`, `2y`). Used for the
/// TTL column of `token list`. Its thresholds are 60 s, 60 min, 24 h and 365 d.
pub fn short_human_duration(d: SignedDuration) -> String {
    let seconds = match non_negative_seconds(d) {
        Ok(s) => s,
        Err(text) => return text.to_owned(),
    };
    if seconds < 60 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 60 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 24 {
        return format!("{hours}h");
    }
    if hours < 24 * 365 {
        return format!("{}d", hours / 24);
    }
    format!("{}y", hours / 24 / 365)
}

/// The AGE cell of an object created at `created`, seen at `now`.
pub fn age(created: Timestamp, now: Timestamp) -> String {
    human_duration(now.duration_since(created))
}

/// The AGE cell when the creation timestamp may be missing (`<unknown>`, as kubectl prints).
pub fn age_or_unknown(created: Option<Timestamp>, now: Timestamp) -> String {
    created.map_or_else(|| UNKNOWN_AGE.to_owned(), |c| age(c, now))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: i64) -> SignedDuration {
        SignedDuration::from_secs(s)
    }

    const MIN: i64 = 60;
    const HOUR: i64 = 3600;
    const DAY: i64 = 24 * HOUR;
    const YEAR: i64 = 365 * DAY;

    /// Every threshold of `HumanDuration`, on both sides, plus the upstream unit-test values.
    #[test]
    fn human_duration_thresholds() {
        let cases: &[(SignedDuration, &str)] = &[
            (SignedDuration::from_millis(-2001), "<invalid>"),
            (secs(-2), "<invalid>"),
            (SignedDuration::from_millis(-1999), "0s"),
            (secs(-1), "0s"),
            (SignedDuration::from_millis(-1), "0s"),
            (secs(0), "0s"),
            (SignedDuration::from_millis(999), "0s"),
            (secs(1), "1s"),
            (secs(70), "70s"),
            (secs(119), "119s"),
            (SignedDuration::from_millis(119_999), "119s"),
            (secs(120), "2m"),
            (secs(121), "2m1s"),
            (secs(5 * MIN + 5), "5m5s"),
            (secs(9 * MIN + 59), "9m59s"),
            (secs(10 * MIN), "10m"),
            (secs(10 * MIN + 59), "10m"),
            (secs(179 * MIN + 59), "179m"),
            (secs(3 * HOUR), "3h"),
            (secs(3 * HOUR + MIN), "3h1m"),
            (secs(3 * HOUR + 20 * MIN), "3h20m"),
            (secs(7 * HOUR + 59 * MIN + 59), "7h59m"),
            (secs(8 * HOUR), "8h"),
            (secs(8 * HOUR + 59 * MIN), "8h"),
            (secs(47 * HOUR + 59 * MIN), "47h"),
            (secs(48 * HOUR), "2d"),
            (secs(48 * HOUR + HOUR), "2d1h"),
            (secs(6 * DAY + 5 * HOUR), "6d5h"),
            (secs(7 * DAY + 23 * HOUR + 59 * MIN), "7d23h"),
            (secs(8 * DAY), "8d"),
            (secs(8 * DAY + 23 * HOUR), "8d"),
            (secs(400 * DAY), "400d"),
            (secs(2 * YEAR - 1), "729d"),
            (secs(2 * YEAR), "2y"),
            (secs(2 * YEAR + DAY), "2y1d"),
            (secs(3 * YEAR + 20 * DAY), "3y20d"),
            (secs(8 * YEAR - 1), "7y364d"),
            (secs(8 * YEAR), "8y"),
            (secs(8 * YEAR + 200 * DAY), "8y"),
            (secs(9 * YEAR + 364 * DAY), "9y"),
            (secs(100 * YEAR), "100y"),
        ];
        for (d, want) in cases {
            assert_eq!(human_duration(*d), *want, "HumanDuration({d:?})");
        }
    }

    /// Every threshold of `ShortHumanDuration`, on both sides.
    #[test]
    fn short_human_duration_thresholds() {
        let cases: &[(SignedDuration, &str)] = &[
            (secs(-2), "<invalid>"),
            (SignedDuration::from_millis(-1999), "0s"),
            (secs(-1), "0s"),
            (secs(0), "0s"),
            (secs(59), "59s"),
            (secs(60), "1m"),
            (secs(119), "1m"),
            (secs(59 * MIN + 59), "59m"),
            (secs(HOUR), "1h"),
            (secs(23 * HOUR + 59 * MIN + 59), "23h"),
            (secs(DAY), "1d"),
            (secs(DAY - 1), "23h"),
            (secs(47 * HOUR), "1d"),
            (secs(364 * DAY + 23 * HOUR), "364d"),
            (secs(YEAR), "1y"),
            (secs(2 * YEAR - 1), "1y"),
            (secs(2 * YEAR), "2y"),
            (secs(10 * YEAR + 100 * DAY), "10y"),
        ];
        for (d, want) in cases {
            assert_eq!(short_human_duration(*d), *want, "ShortHumanDuration({d:?})");
        }
    }

    #[test]
    fn a_fresh_bootstrap_token_shows_23h() {
        // `token create` defaults to 24h; a moment later `token list` shows 23h, as upstream.
        assert_eq!(short_human_duration(secs(24 * HOUR - 5)), "23h");
    }

    #[test]
    fn age_is_measured_from_creation_to_now() {
        let created: Timestamp = "2020-01-01T00:00:00Z".parse().expect("valid timestamp");
        let now: Timestamp = "2020-01-01T03:20:30Z".parse().expect("valid timestamp");
        assert_eq!(age(created, now), "3h20m");
        // A creation time in the future (clock skew) beyond 1 s is invalid, as in kubectl.
        assert_eq!(age(now, created), "<invalid>");
        assert_eq!(age_or_unknown(None, now), "<unknown>");
        assert_eq!(age_or_unknown(Some(created), now), "3h20m");
        // Years are 365 days, so the leap days of 2020 and 2024 show up as days.
        let later: Timestamp = "2026-01-01T00:00:00Z".parse().expect("valid timestamp");
        assert_eq!(age(created, later), "6y2d");
    }
}
