//! Cron schedules as Kubernetes and Karmada read them: the five standard fields (minute, hour,
//! day of month, month, day of week) with `*`, `?`, ranges, steps, lists and month and weekday
//! names, or one of the descriptors `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`
//! and `@hourly`; and IANA time zones as Go's `time.LoadLocation` names them.
//!
//! The grammar and the meaning are those of `robfig/cron`'s standard parser, which runs
//! CronJobs and (through gocron) CronFederatedHPA rules, narrowed to what Karmada's webhook
//! (`gronx`) also accepts, so that a schedule accepted here is one upstream would both admit
//! and run: no seconds field, no `@every`, no `L`/`W`/`#`, no `TZ=` prefix. [`next`] has the
//! next-fire computation, daylight-saving transitions included.

mod next;
#[cfg(test)]
mod tests;

use jiff::tz::TimeZone;

/// Longest schedule looked at: real ones are a few dozen characters, and parsing work (and
/// the message quoting it) stays bounded.
pub const MAX_SCHEDULE_LEN: usize = 1024;
/// Longest time zone name looked up (IANA names are under 40 characters).
pub const MAX_TIME_ZONE_LEN: usize = 255;

/// Set on a field written `*` or `?` (without a step above 1): with it, the day fields combine
/// with AND rather than OR, as in `robfig/cron`.
const STAR: u64 = 1 << 63;

/// A parsed schedule: one bit per allowed value of each field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    minute: u64,
    hour: u64,
    dom: u64,
    month: u64,
    dow: u64,
}

struct Bounds {
    min: u32,
    max: u32,
    names: &'static [(&'static str, u32)],
}

const MINUTES: Bounds = Bounds { min: 0, max: 59, names: &[] };
const HOURS: Bounds = Bounds { min: 0, max: 23, names: &[] };
const DOM: Bounds = Bounds { min: 1, max: 31, names: &[] };
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[("sun", 0), ("mon", 1), ("tue", 2), ("wed", 3), ("thu", 4), ("fri", 5), ("sat", 6)],
};

/// The descriptors both upstream parsers know, as the five fields they stand for.
const DESCRIPTORS: &[(&str, &str)] = &[
    ("@yearly", "0 0 1 1 *"),
    ("@annually", "0 0 1 1 *"),
    ("@monthly", "0 0 1 * *"),
    ("@weekly", "0 0 * * 0"),
    ("@daily", "0 0 * * *"),
    ("@hourly", "0 * * * *"),
];

impl std::str::FromStr for Schedule {
    type Err = String;

    /// Parses a schedule; the error says what is wrong in `robfig/cron`'s words.
    fn from_str(spec: &str) -> Result<Self, String> {
        if spec.is_empty() {
            return Err("empty spec string".into());
        }
        if spec.len() > MAX_SCHEDULE_LEN {
            return Err(format!("longer than {MAX_SCHEDULE_LEN} characters"));
        }
        let spec = if spec.starts_with('@') {
            DESCRIPTORS
                .iter()
                .find(|(name, _)| *name == spec)
                .map(|(_, fields)| *fields)
                .ok_or_else(|| format!("unrecognized descriptor: {spec}"))?
        } else {
            spec
        };
        let fields: Vec<&str> = spec.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(format!("expected exactly 5 fields, found {}: {spec}", fields.len()));
        }
        Ok(Schedule {
            minute: field(fields[0], &MINUTES)?,
            hour: field(fields[1], &HOURS)?,
            dom: field(fields[2], &DOM)?,
            month: field(fields[3], &MONTHS)?,
            dow: field(fields[4], &DOW)?,
        })
    }
}

/// One field: a comma-separated list of ranges.
fn field(text: &str, bounds: &Bounds) -> Result<u64, String> {
    let mut bits = 0;
    for part in text.split(',') {
        bits |= range(part, bounds)?;
    }
    Ok(bits)
}

/// `*`, `?`, `N`, `N-M`, each optionally with `/step` (`N/step` meaning `N-max/step`).
fn range(expr: &str, b: &Bounds) -> Result<u64, String> {
    let (span, step) = match expr.split_once('/') {
        Some((span, step)) if !step.contains('/') => (span, Some(number(step)?)),
        Some(_) => return Err(format!("too many slashes: {expr}")),
        None => (expr, None),
    };
    let (start, mut end, mut star) = if span == "*" || span == "?" {
        (b.min, b.max, true)
    } else {
        match span.split_once('-') {
            Some((lo, hi)) if !hi.contains('-') => (value(lo, b)?, value(hi, b)?, false),
            Some(_) => return Err(format!("too many hyphens: {expr}")),
            None => {
                let v = value(span, b)?;
                (v, v, false)
            }
        }
    };
    let step = match step {
        Some(s) => {
            if !span.contains('-') {
                end = b.max;
            }
            if s > 1 {
                star = false;
            }
            s
        }
        None => 1,
    };
    if start < b.min {
        return Err(format!("beginning of range ({start}) below minimum ({}): {expr}", b.min));
    }
    if end > b.max {
        return Err(format!("end of range ({end}) above maximum ({}): {expr}", b.max));
    }
    if start > end {
        return Err(format!("beginning of range ({start}) beyond end of range ({end}): {expr}"));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    let mut bits = if star { STAR } else { 0 };
    for v in (start..=end).step_by(step as usize) {
        bits |= 1 << v;
    }
    Ok(bits)
}

/// A number or, where the field has them, a name (any case).
fn value(text: &str, b: &Bounds) -> Result<u32, String> {
    let lower = text.to_ascii_lowercase();
    match b.names.iter().find(|(name, _)| *name == lower) {
        Some((_, v)) => Ok(*v),
        None => number(text),
    }
}

fn number(text: &str) -> Result<u32, String> {
    if text.is_empty() || text.len() > 9 || !text.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("failed to parse int from {text}"));
    }
    text.parse().map_err(|_| format!("failed to parse int from {text}"))
}

/// A time zone by IANA name as Go's `time.LoadLocation` resolves it: "" and "UTC" are UTC,
/// "Local" is this process's zone, anything else comes from the time zone database; an
/// unknown name is refused with Go's message.
pub fn time_zone(name: &str) -> Result<TimeZone, String> {
    match name {
        "" | "UTC" => return Ok(TimeZone::UTC),
        "Local" => return Ok(TimeZone::system()),
        _ => {}
    }
    // Go refuses paths outright rather than looking them up.
    if name.len() > MAX_TIME_ZONE_LEN || name.starts_with('/') || name.starts_with('\\') || name.contains("..") {
        return Err("time: invalid location name".into());
    }
    jiff::tz::db().get(name).map_err(|_| format!("unknown time zone {name}"))
}
