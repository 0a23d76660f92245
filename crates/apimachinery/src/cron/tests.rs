//! Schedules against `robfig/cron`'s results, daylight-saving transitions included.

use jiff::Timestamp;

use super::{Schedule, time_zone};

fn next(spec: &str, tz: &str, after: &str) -> Option<String> {
    let s: Schedule = spec.parse().unwrap();
    let after: Timestamp = after.parse().unwrap();
    s.next(after, &time_zone(tz).unwrap()).map(|t| t.to_string())
}

/// The fire times after `after`, one after another.
fn series(spec: &str, tz: &str, after: &str, n: usize) -> Vec<String> {
    let s: Schedule = spec.parse().unwrap();
    let tz = time_zone(tz).unwrap();
    let mut t: Timestamp = after.parse().unwrap();
    let mut out = vec![];
    for _ in 0..n {
        t = s.next(t, &tz).unwrap();
        out.push(t.to_string());
    }
    out
}

#[test]
fn fields_take_lists_ranges_steps_and_names() {
    assert_eq!(
        series("*/15 9-10 * * MON-fri", "UTC", "2026-11-27T09:50:00Z", 4),
        ["2026-11-27T10:00:00Z", "2026-11-27T10:15:00Z", "2026-11-27T10:30:00Z", "2026-11-27T10:45:00Z"]
    );
    // Friday 27 November 2026: the next weekday 09:00 is Monday.
    assert_eq!(next("0 9 * * 1-5", "UTC", "2026-11-27T09:00:00Z").unwrap(), "2026-11-30T09:00:00Z");
    assert_eq!(
        series("5,35 1 * * *", "UTC", "2026-01-01T00:00:00Z", 2),
        ["2026-01-01T01:05:00Z", "2026-01-01T01:35:00Z"]
    );
    // `N/step` runs from N to the field's end.
    assert_eq!(series("50/5 0 * * *", "UTC", "2026-01-01T00:00:00Z", 3)[2], "2026-01-02T00:50:00Z");
    assert_eq!(next("0 0 1 jan,JUL ?", "UTC", "2026-02-01T00:00:00Z").unwrap(), "2026-07-01T00:00:00Z");
    assert_eq!(next("@hourly", "UTC", "2026-01-01T00:00:00Z").unwrap(), "2026-01-01T01:00:00Z");
    assert_eq!(next("@weekly", "UTC", "2026-11-27T00:00:00Z").unwrap(), "2026-11-29T00:00:00Z");
    assert_eq!(next("@yearly", "UTC", "2026-11-27T00:00:00Z").unwrap(), "2027-01-01T00:00:00Z");
}

#[test]
fn next_is_strictly_after_and_keeps_to_the_time_zone() {
    // 09:00 in Shanghai is 01:00 UTC; from the fire time itself the next is a day on.
    assert_eq!(next("0 9 * * *", "Asia/Shanghai", "2026-03-10T00:59:30Z").unwrap(), "2026-03-10T01:00:00Z");
    assert_eq!(next("0 9 * * *", "Asia/Shanghai", "2026-03-10T01:00:00Z").unwrap(), "2026-03-11T01:00:00Z");
    assert_eq!(next("0 9 * * *", "Asia/Shanghai", "2026-03-10T00:59:59.5Z").unwrap(), "2026-03-10T01:00:00Z");
    // Kolkata is half an hour off UTC.
    assert_eq!(next("0 * * * *", "Asia/Kolkata", "2026-03-10T00:00:00Z").unwrap(), "2026-03-10T00:30:00Z");
}

#[test]
fn day_of_month_and_week_combine_as_upstream() {
    // Both restricted: either matches (the 13th, or a Friday).
    assert_eq!(
        series("0 0 13 * 5", "UTC", "2026-11-01T00:00:00Z", 3),
        ["2026-11-06T00:00:00Z", "2026-11-13T00:00:00Z", "2026-11-20T00:00:00Z"]
    );
    // `*` in one: both must match.
    assert_eq!(next("0 0 13 * *", "UTC", "2026-11-01T00:00:00Z").unwrap(), "2026-11-13T00:00:00Z");
    // `*/2` in day of month is a restriction (a step above 1), so OR applies again.
    assert_eq!(
        series("0 0 */2 * 0", "UTC", "2026-11-01T00:00:00Z", 2),
        ["2026-11-03T00:00:00Z", "2026-11-05T00:00:00Z"]
    );
}

#[test]
fn dates_that_never_come_have_no_next() {
    assert_eq!(next("0 0 30 2 *", "UTC", "2026-01-01T00:00:00Z"), None);
    // 29 February comes within five years.
    assert_eq!(next("0 0 29 2 *", "UTC", "2026-01-01T00:00:00Z").unwrap(), "2028-02-29T00:00:00Z");
}

#[test]
fn a_wall_time_skipped_by_spring_forward_does_not_fire_that_day() {
    // New York, 8 March 2026: 02:00 EST jumps to 03:00 EDT.
    assert_eq!(
        series("30 2 * * *", "America/New_York", "2026-03-07T12:00:00Z", 2),
        ["2026-03-09T06:30:00Z", "2026-03-10T06:30:00Z"]
    );
    // 03:30 exists that day, one hour of elapsed time closer.
    assert_eq!(next("30 3 * * *", "America/New_York", "2026-03-08T05:00:00Z").unwrap(), "2026-03-08T07:30:00Z");
}

#[test]
fn a_wall_time_repeated_by_fall_back_fires_in_both_instants() {
    // New York, 1 November 2026: 02:00 EDT falls back to 01:00 EST.
    assert_eq!(
        series("30 1 * * *", "America/New_York", "2026-11-01T04:00:00Z", 3),
        ["2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T06:30:00Z"]
    );
    // A daily job outside the repeated hour keeps its wall time across the change.
    assert_eq!(
        series("0 9 * * *", "America/New_York", "2026-10-31T00:00:00Z", 2),
        ["2026-10-31T13:00:00Z", "2026-11-01T14:00:00Z"]
    );
}

#[test]
fn a_day_whose_midnight_is_skipped_starts_at_its_first_hour() {
    // São Paulo, 4 November 2018: midnight jumped to 01:00 (-02).
    assert_eq!(next("0 1 4 11 *", "America/Sao_Paulo", "2018-11-01T12:00:00Z").unwrap(), "2018-11-04T03:00:00Z");
    assert_eq!(next("15 * 4 11 *", "America/Sao_Paulo", "2018-11-01T12:00:00Z").unwrap(), "2018-11-04T03:15:00Z");
}

#[test]
fn malformed_schedules_are_refused_with_upstream_messages() {
    let err = |s: &str| s.parse::<Schedule>().unwrap_err();
    assert_eq!(err(""), "empty spec string");
    assert_eq!(err("0 9 * *"), "expected exactly 5 fields, found 4: 0 9 * *");
    // Seconds (six fields) are not part of the standard syntax.
    assert_eq!(err("0 0 9 * * *"), "expected exactly 5 fields, found 6: 0 0 9 * * *");
    assert_eq!(err("60 * * * *"), "end of range (60) above maximum (59): 60");
    assert_eq!(err("* 24 * * *"), "end of range (24) above maximum (23): 24");
    assert_eq!(err("* * 0 * *"), "beginning of range (0) below minimum (1): 0");
    assert_eq!(err("* * * * 7"), "end of range (7) above maximum (6): 7");
    assert_eq!(err("5-1 * * * *"), "beginning of range (5) beyond end of range (1): 5-1");
    assert_eq!(err("*/0 * * * *"), "step of range should be a positive number: */0");
    assert_eq!(err("1-2-3 * * * *"), "too many hyphens: 1-2-3");
    assert_eq!(err("1/2/3 * * * *"), "too many slashes: 1/2/3");
    assert_eq!(err("x * * * *"), "failed to parse int from x");
    assert_eq!(err("-1 * * * *"), "failed to parse int from ");
    assert_eq!(err("* * * foo *"), "failed to parse int from foo");
    assert_eq!(err("@every 1h"), "unrecognized descriptor: @every 1h");
    assert_eq!(err("@midnight"), "unrecognized descriptor: @midnight");
    assert_eq!(err("0 0 L * *"), "failed to parse int from L");
    assert!(err(&"1,".repeat(600)).starts_with("longer than 1024 characters"));
}

#[test]
fn time_zones_resolve_as_go_loads_them() {
    assert_eq!(time_zone("").unwrap(), jiff::tz::TimeZone::UTC);
    assert_eq!(time_zone("UTC").unwrap(), jiff::tz::TimeZone::UTC);
    assert!(time_zone("Local").is_ok());
    assert_eq!(time_zone("Asia/Shanghai").unwrap().iana_name(), Some("Asia/Shanghai"));
    assert_eq!(time_zone("Mars/Olympus").unwrap_err(), "unknown time zone Mars/Olympus");
    assert_eq!(time_zone("../etc/passwd").unwrap_err(), "time: invalid location name");
    assert_eq!(time_zone("/etc/localtime").unwrap_err(), "time: invalid location name");
}
