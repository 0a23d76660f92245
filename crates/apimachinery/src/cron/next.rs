//! When a schedule fires next: `robfig/cron`'s `SpecSchedule.Next` on jiff's zoned times, so
//! daylight-saving transitions behave as they do upstream. A wall time skipped by a spring
//! transition does not fire that day; one repeated by an autumn transition fires in each of
//! its two instants (hours are counted in elapsed time, as Go's `Time.Add` does); a day whose
//! midnight a transition skips is entered at its first hour.

use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Span, Timestamp, Zoned};

use super::{STAR, Schedule};

/// How far ahead a match is looked for: a schedule like `0 0 30 2 *` never fires.
const YEARS_AHEAD: i16 = 5;

impl Schedule {
    /// The first fire time strictly after `after`, in `tz`; `None` when none falls within
    /// five years (a date that never exists).
    pub fn next(&self, after: Timestamp, tz: &TimeZone) -> Option<Timestamp> {
        // The upcoming whole second.
        let start = after.checked_add(SignedDuration::from_secs(1)).ok()?;
        let start = Timestamp::new(start.as_second(), 0).ok()?;
        let mut t = start.to_zoned(tz.clone());
        let year_limit = t.year() + YEARS_AHEAD;
        // Once a field moved forward, the finer fields start from their first value.
        let mut added = false;
        'wrap: loop {
            if t.year() > year_limit {
                return None;
            }
            while !bit(self.month, t.month()) {
                if !added {
                    added = true;
                    t = at(tz, t.year(), t.month(), 1, 0, 0)?;
                }
                t = add_civil(&t, Span::new().months(1))?;
                if t.month() == 1 {
                    continue 'wrap;
                }
            }
            while !self.day_matches(&t) {
                if !added {
                    added = true;
                    t = at(tz, t.year(), t.month(), t.day(), 0, 0)?;
                }
                t = add_civil(&t, Span::new().days(1))?;
                // A midnight that a transition skipped: back (or on) to the day's start.
                let h = i64::from(t.hour());
                if h != 0 {
                    let shift = if h > 12 { 24 - h } else { -h };
                    t = t.checked_add(SignedDuration::from_hours(shift)).ok()?;
                }
                if t.day() == 1 {
                    continue 'wrap;
                }
            }
            while !bit(self.hour, t.hour()) {
                if !added {
                    added = true;
                    t = at(tz, t.year(), t.month(), t.day(), t.hour(), 0)?;
                }
                t = t.checked_add(SignedDuration::from_hours(1)).ok()?;
                if t.hour() == 0 {
                    continue 'wrap;
                }
            }
            while !bit(self.minute, t.minute()) {
                if !added {
                    added = true;
                    t = truncate(&t, 60)?;
                }
                t = t.checked_add(SignedDuration::from_mins(1)).ok()?;
                if t.minute() == 0 {
                    continue 'wrap;
                }
            }
            // Schedules fire on the whole minute: second 0 only.
            while t.second() != 0 {
                if !added {
                    added = true;
                    t = truncate(&t, 1)?;
                }
                t = t.checked_add(SignedDuration::from_secs(1)).ok()?;
                if t.second() == 0 {
                    continue 'wrap;
                }
            }
            return Some(t.timestamp());
        }
    }

    /// Day of month and day of week: both must match when either was written `*`, else either
    /// may.
    fn day_matches(&self, t: &Zoned) -> bool {
        let dom = bit(self.dom, t.day());
        let dow = bit(self.dow, t.weekday().to_sunday_zero_offset());
        if self.dom & STAR != 0 || self.dow & STAR != 0 { dom && dow } else { dom || dow }
    }
}

fn bit(bits: u64, value: impl Into<i64>) -> bool {
    let v = value.into();
    (0..64).contains(&v) && bits & (1 << v) != 0
}

/// A wall time in `tz` as Go's `time.Date` resolves it: one a transition skipped or repeated
/// is taken with the offset after the transition or at its first instant, both the earlier
/// reading (02:30 in a spring gap of New York is 01:30 EST).
fn at(tz: &TimeZone, year: i16, month: i8, day: i8, hour: i8, minute: i8) -> Option<Zoned> {
    let dt = DateTime::new(year, month, day, hour, minute, 0, 0).ok()?;
    tz.to_ambiguous_zoned(dt).earlier().ok()
}

/// Calendar arithmetic on the wall time, resolved as [`at`] does (Go's `Time.AddDate`).
fn add_civil(t: &Zoned, span: Span) -> Option<Zoned> {
    let dt = t.datetime().checked_add(span).ok()?;
    t.time_zone().to_ambiguous_zoned(dt).earlier().ok()
}

/// Down to a multiple of `secs` seconds of elapsed time (Go's `Time.Truncate`).
fn truncate(t: &Zoned, secs: i64) -> Option<Zoned> {
    let s = t.timestamp().as_second();
    Timestamp::new(s - s.rem_euclid(secs), 0).ok().map(|ts| ts.to_zoned(t.time_zone().clone()))
}
