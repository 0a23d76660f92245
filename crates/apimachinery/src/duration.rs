//! Go `time.Duration` text: parsing (`time.ParseDuration`) and formatting (`Duration.String`).
//!
//! Upstream flags such as `--ttl 24h0m0s`, `--wait 1m0s` or `--cert-validity-period 8760h0m0s`
//! are Go durations, and their defaults appear in help text in Go's format, so both directions
//! are ported exactly, error texts included (`time: invalid duration "x"`).
//!
//! A Go duration is a signed count of nanoseconds in an `i64`. [`SignedGoDuration`] keeps that
//! representation (negative values parse, like Go's flag package allows), and [`GoDuration`]
//! wraps a [`std::time::Duration`] for flags whose value can only be zero or positive: it rejects
//! a negative value when parsed. Commands that must report their own upstream message for a
//! negative value (e.g. "--wait must be greater than 0") take a [`SignedGoDuration`] and check
//! [`SignedGoDuration::is_negative`] themselves.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

const NANOSECOND: u64 = 1;
const MICROSECOND: u64 = 1_000 * NANOSECOND;
const MILLISECOND: u64 = 1_000 * MICROSECOND;
const SECOND: u64 = 1_000 * MILLISECOND;
const MINUTE: u64 = 60 * SECOND;
const HOUR: u64 = 60 * MINUTE;

/// `1 << 63`: the magnitude of Go's most negative duration, one past its most positive.
const MAGNITUDE_LIMIT: u64 = 1 << 63;

/// Why a duration string was rejected. The first three messages are Go's, word for word.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Not Go duration syntax, or outside Go's range of ±2562047h47m16.854775807s.
    #[error("time: invalid duration {}", go_quote(.input))]
    Invalid { input: String },
    /// A number without a unit, such as `30` (only a bare `0` is allowed).
    #[error("time: missing unit in duration {}", go_quote(.input))]
    MissingUnit { input: String },
    /// A unit other than ns, us, µs, μs, ms, s, m or h.
    #[error("time: unknown unit {} in duration {}", go_quote(.unit), go_quote(.input))]
    UnknownUnit { unit: String, input: String },
    /// A negative value where only zero or positive durations make sense.
    #[error("invalid duration {}: the value must not be negative; give a duration such as 5m0s", go_quote(.input))]
    Negative { input: String },
}

/// Parses Go's duration syntax into signed nanoseconds, exactly as `time.ParseDuration` does:
/// `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, or `0` alone, with units ns, us, µs, μs, ms, s, m, h.
pub(crate) fn parse_go_duration(input: &str) -> Result<i64, DurationError> {
    let invalid = || DurationError::Invalid { input: input.to_owned() };
    let mut s = input;
    let mut negative = false;
    if let Some(rest) = s.strip_prefix('-') {
        negative = true;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('+') {
        s = rest;
    }
    // Go's special case: a bare zero needs no unit.
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        let bytes = s.as_bytes();
        if !(bytes[0] == b'.' || bytes[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let before = s.len();
        let (whole, rest) = leading_int(s).ok_or_else(invalid)?;
        s = rest;
        let has_whole = before != s.len();

        let mut fraction: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut has_fraction = false;
        if let Some(rest) = s.strip_prefix('.') {
            let before = rest.len();
            let (f, sc, rest) = leading_fraction(rest);
            fraction = f;
            scale = sc;
            has_fraction = before != rest.len();
            s = rest;
        }
        if !has_whole && !has_fraction {
            // Digits are missing on both sides of the point, e.g. ".s".
            return Err(invalid());
        }

        // The unit runs up to the next digit or point. Both are ASCII, so the split is on a
        // character boundary.
        let unit_len = s.bytes().position(|c| c == b'.' || c.is_ascii_digit()).unwrap_or(s.len());
        if unit_len == 0 {
            return Err(DurationError::MissingUnit { input: input.to_owned() });
        }
        let (unit_text, rest) = s.split_at(unit_len);
        s = rest;
        let unit = unit_nanos(unit_text)
            .ok_or_else(|| DurationError::UnknownUnit { unit: unit_text.to_owned(), input: input.to_owned() })?;
        if whole > MAGNITUDE_LIMIT / unit {
            return Err(invalid());
        }
        let mut value = whole * unit;
        if fraction > 0 {
            // Go computes the fraction in float64 (nanosecond-accurate for fractions of hours);
            // the same arithmetic gives the same rounding. The product is below `unit`, so the
            // conversion back to u64 cannot saturate.
            value += (fraction as f64 * (unit as f64 / scale)) as u64;
            if value > MAGNITUDE_LIMIT {
                return Err(invalid());
            }
        }
        // Go adds in uint64 and can wrap when both terms are exactly 2^63, accepting e.g.
        // "9223372036854775808ns9223372036854775808ns" as 0s; that input is rejected here.
        total = total.checked_add(value).filter(|t| *t <= MAGNITUDE_LIMIT).ok_or_else(invalid)?;
    }
    if negative {
        // total <= 2^63, so the negation fits in an i64 (2^63 itself is i64::MIN).
        return Ok((total as i64).wrapping_neg());
    }
    i64::try_from(total).map_err(|_| invalid())
}

/// Formats signed nanoseconds exactly like Go's `Duration.String`: `24h0m0s`, `1m30s`, `1.5s`,
/// `500ms`, `1.1µs`, `7ns`, `0s`, `-1h0m0s`.
pub fn format_go_duration(nanos: i64) -> String {
    format_magnitude(u128::from(nanos.unsigned_abs()), nanos < 0)
}

/// Go's `Duration.format`, on a u128 magnitude so that any [`Duration`] can be printed.
fn format_magnitude(magnitude: u128, negative: bool) -> String {
    let second = u128::from(SECOND);
    let mut out = String::new();
    if magnitude < second {
        // Below one second Go switches to a smaller unit so the leading digit is non-zero.
        let (precision, unit) = match magnitude {
            0 => return "0s".to_owned(),
            m if m < u128::from(MICROSECOND) => (0, "ns"),
            m if m < u128::from(MILLISECOND) => (3, "µs"),
            _ => (6, "ms"),
        };
        let (whole, fraction) = split_fraction(magnitude, precision);
        out.push_str(&whole.to_string());
        out.push_str(&fraction);
        out.push_str(unit);
    } else {
        let (whole_seconds, fraction) = split_fraction(magnitude, 9);
        let seconds = whole_seconds % 60;
        let minutes_total = whole_seconds / 60;
        // Go stops at hours because days vary in length.
        if minutes_total > 0 {
            let hours = minutes_total / 60;
            if hours > 0 {
                out.push_str(&format!("{hours}h"));
            }
            out.push_str(&format!("{}m", minutes_total % 60));
        }
        out.push_str(&format!("{seconds}{fraction}s"));
    }
    if negative {
        out.insert(0, '-');
    }
    out
}

/// Go's `fmtFrac`: splits `value / 10^precision` into the integer part and the fraction text
/// (`.5`, `.001`), trailing zeros and a bare point omitted.
fn split_fraction(value: u128, precision: u32) -> (u128, String) {
    let divisor = 10u128.pow(precision);
    let whole = value / divisor;
    let fraction = value % divisor;
    if fraction == 0 {
        return (whole, String::new());
    }
    let digits = format!("{fraction:0width$}", width = precision as usize);
    (whole, format!(".{}", digits.trim_end_matches('0')))
}

/// Go's `leadingInt`: the leading `[0-9]*` as a number, or `None` past 2^63.
fn leading_int(s: &str) -> Option<(u64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let mut x: u64 = 0;
    for c in s.as_bytes()[..digits].iter() {
        if x > MAGNITUDE_LIMIT / 10 {
            return None;
        }
        x = x * 10 + u64::from(c - b'0');
        if x > MAGNITUDE_LIMIT {
            return None;
        }
    }
    Some((x, &s[digits..]))
}

/// Go's `leadingFraction`: the leading `[0-9]*` after a point as `(digits, 10^count)`; digits
/// beyond 63 bits of precision are consumed but ignored, never an error.
fn leading_fraction(s: &str) -> (u64, f64, &str) {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let mut x: u64 = 0;
    let mut scale = 1.0;
    let mut overflow = false;
    for c in s.as_bytes()[..digits].iter() {
        if overflow {
            continue;
        }
        if x > (MAGNITUDE_LIMIT - 1) / 10 {
            overflow = true;
            continue;
        }
        let y = x * 10 + u64::from(c - b'0');
        if y > MAGNITUDE_LIMIT {
            overflow = true;
            continue;
        }
        x = y;
        scale *= 10.0;
    }
    (x, scale, &s[digits..])
}

/// Nanoseconds per unit, for the units Go accepts (µ as U+00B5 micro sign or U+03BC mu).
fn unit_nanos(unit: &str) -> Option<u64> {
    Some(match unit {
        "ns" => NANOSECOND,
        "us" | "\u{b5}s" | "\u{3bc}s" => MICROSECOND,
        "ms" => MILLISECOND,
        "s" => SECOND,
        "m" => MINUTE,
        "h" => HOUR,
        _ => return None,
    })
}

/// Go's `time.quote`: double quotes; `"` and `\` escaped; every byte of a non-ASCII or control
/// character written as `\xNN`.
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c.is_ascii() && c >= ' ' {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{byte:02x}"));
            }
        }
    }
    out.push('"');
    out
}

/// A Go duration that cannot be negative, for flags like `--ttl` or `--cert-validity-period`.
///
/// Parses Go syntax (a negative value is [`DurationError::Negative`]) and displays like Go, so
/// `GoDuration::from_str("24h")` displays as `24h0m0s`. Usable directly as a clap value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GoDuration(pub Duration);

impl GoDuration {
    pub const fn from_secs(secs: u64) -> Self {
        Self(Duration::from_secs(secs))
    }

    pub const fn as_std(&self) -> Duration {
        self.0
    }

    pub const fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
}

impl FromStr for GoDuration {
    type Err = DurationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let nanos = parse_go_duration(s)?;
        let nanos = u64::try_from(nanos).map_err(|_| DurationError::Negative { input: s.to_owned() })?;
        Ok(Self(Duration::from_nanos(nanos)))
    }
}

impl fmt::Display for GoDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_magnitude(self.0.as_nanos(), false))
    }
}

impl From<Duration> for GoDuration {
    fn from(d: Duration) -> Self {
        Self(d)
    }
}

impl From<GoDuration> for Duration {
    fn from(d: GoDuration) -> Self {
        d.0
    }
}

/// A Go duration as Go stores it: signed nanoseconds. Negative values parse, as with Go's flag
/// package, so a command can reject them with its own upstream message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SignedGoDuration(pub i64);

impl SignedGoDuration {
    pub const fn from_nanos(nanos: i64) -> Self {
        Self(nanos)
    }

    pub const fn as_nanos(&self) -> i64 {
        self.0
    }

    pub const fn is_negative(&self) -> bool {
        self.0 < 0
    }

    /// The value as a [`Duration`], or `None` when it is negative.
    pub fn to_std(&self) -> Option<Duration> {
        u64::try_from(self.0).ok().map(Duration::from_nanos)
    }

    /// The value as a jiff duration, for timestamp arithmetic (`now + ttl`).
    pub fn to_jiff(&self) -> jiff::SignedDuration {
        jiff::SignedDuration::from_nanos(self.0)
    }
}

impl FromStr for SignedGoDuration {
    type Err = DurationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_go_duration(s).map(Self)
    }
}

impl fmt::Display for SignedGoDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_go_duration(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: i64 = SECOND as i64;
    const MS: i64 = MILLISECOND as i64;
    const US: i64 = MICROSECOND as i64;
    const M: i64 = MINUTE as i64;
    const H: i64 = HOUR as i64;

    /// Go's own `parseDurationTests` table (src/time/time_test.go).
    #[test]
    fn parse_matches_go_test_table() {
        let cases: &[(&str, i64)] = &[
            ("0", 0),
            ("5s", 5 * S),
            ("30s", 30 * S),
            ("1478s", 1478 * S),
            ("-5s", -5 * S),
            ("+5s", 5 * S),
            ("-0", 0),
            ("+0", 0),
            ("5.0s", 5 * S),
            ("5.6s", 5 * S + 600 * MS),
            ("5.s", 5 * S),
            (".5s", 500 * MS),
            ("1.0s", S),
            ("1.00s", S),
            ("1.004s", S + 4 * MS),
            ("1.0040s", S + 4 * MS),
            ("100.00100s", 100 * S + MS),
            ("10ns", 10),
            ("11us", 11 * US),
            ("12\u{b5}s", 12 * US),
            ("12\u{3bc}s", 12 * US),
            ("13ms", 13 * MS),
            ("14s", 14 * S),
            ("15m", 15 * M),
            ("16h", 16 * H),
            ("3h30m", 3 * H + 30 * M),
            ("10.5s4m", 4 * M + 10 * S + 500 * MS),
            ("-2m3.4s", -(2 * M + 3 * S + 400 * MS)),
            ("1h2m3s4ms5us6ns", H + 2 * M + 3 * S + 4 * MS + 5 * US + 6),
            ("39h9m14.425s", 39 * H + 9 * M + 14 * S + 425 * MS),
            ("52763797000ns", 52_763_797_000),
            ("0.3333333333333333333h", 20 * M),
            ("9007199254740993ns", (1 << 53) + 1),
            ("9223372036854775807ns", i64::MAX),
            ("9223372036854775.807us", i64::MAX),
            ("9223372036s854ms775us807ns", i64::MAX),
            ("-9223372036854775808ns", i64::MIN),
            ("-9223372036854775.808us", i64::MIN),
            ("-9223372036s854ms775us808ns", i64::MIN),
            ("-2562047h47m16.854775808s", i64::MIN),
            ("0.100000000000000000000h", 6 * M),
            ("0.830103483285477580700h", 49 * M + 48 * S + 372_539_827),
            // Flag values and defaults used by karmadactl.
            ("24h", 24 * H),
            ("24h0m0s", 24 * H),
            ("1.5h", H + 30 * M),
            ("-3h30m", -(3 * H + 30 * M)),
            ("8760h0m0s", 8760 * H),
            ("5m0s", 5 * M),
            // Go allows a point with no digits after it, and a unit may follow a bare fraction.
            ("1.h.5m", H + 30 * S),
        ];
        for (input, want) in cases {
            assert_eq!(parse_go_duration(input), Ok(*want), "parsing {input:?}");
        }
    }

    /// Go's `parseDurationErrorTests`, with the full error text Go prints.
    #[test]
    fn parse_errors_match_go() {
        let cases: &[(&str, &str)] = &[
            ("", r#"time: invalid duration """#),
            ("3", r#"time: missing unit in duration "3""#),
            ("-", r#"time: invalid duration "-""#),
            ("s", r#"time: invalid duration "s""#),
            (".", r#"time: invalid duration ".""#),
            ("-.", r#"time: invalid duration "-.""#),
            (".s", r#"time: invalid duration ".s""#),
            ("+.s", r#"time: invalid duration "+.s""#),
            ("1d", r#"time: unknown unit "d" in duration "1d""#),
            ("\u{fffd}", r#"time: invalid duration "\xef\xbf\xbd""#),
            ("9223372036854775810ns", r#"time: invalid duration "9223372036854775810ns""#),
            ("9223372036854775808ns", r#"time: invalid duration "9223372036854775808ns""#),
            ("-9223372036854775809ns", r#"time: invalid duration "-9223372036854775809ns""#),
            ("9223372036854776us", r#"time: invalid duration "9223372036854776us""#),
            ("3000000h", r#"time: invalid duration "3000000h""#),
            ("9223372036854775.808us", r#"time: invalid duration "9223372036854775.808us""#),
            ("9223372036854ms775us808ns", r#"time: invalid duration "9223372036854ms775us808ns""#),
            // The unit runs to the next digit or point, so trailing text joins it.
            ("1h ", r#"time: unknown unit "h " in duration "1h ""#),
            ("1µm", r#"time: unknown unit "\xc2\xb5m" in duration "1\xc2\xb5m""#),
            (" 1h", r#"time: invalid duration " 1h""#),
            ("1h-1m", r#"time: unknown unit "h-" in duration "1h-1m""#),
            ("--1h", r#"time: invalid duration "--1h""#),
            ("a\"b\\", r#"time: invalid duration "a\"b\\""#),
            ("x\n", r#"time: invalid duration "x\x0a""#),
            (
                "9223372036854775808ns9223372036854775808ns",
                r#"time: invalid duration "9223372036854775808ns9223372036854775808ns""#,
            ),
        ];
        for (input, want) in cases {
            let err = parse_go_duration(input).expect_err(input);
            assert_eq!(err.to_string(), *want, "parsing {input:?}");
        }
    }

    /// Go's `durationTests` for `Duration.String`.
    #[test]
    fn format_matches_go_test_table() {
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (1, "1ns"),
            (1100, "1.1\u{b5}s"),
            (2200 * US, "2.2ms"),
            (3300 * MS, "3.3s"),
            (4 * M + 5 * S, "4m5s"),
            (4 * M + 5001 * MS, "4m5.001s"),
            (5 * H + 6 * M + 7001 * MS, "5h6m7.001s"),
            (8 * M + 1, "8m0.000000001s"),
            (i64::MAX, "2562047h47m16.854775807s"),
            (i64::MIN, "-2562047h47m16.854775808s"),
            // Defaults as karmadactl's help prints them.
            (24 * H, "24h0m0s"),
            (M, "1m0s"),
            (8760 * H, "8760h0m0s"),
            (5 * M, "5m0s"),
            (1500 * MS, "1.5s"),
            (500 * MS, "500ms"),
            (999_999_999, "999.999999ms"),
            (S, "1s"),
            (59 * S, "59s"),
            (H, "1h0m0s"),
            (-1, "-1ns"),
            (-(H + 30 * M), "-1h30m0s"),
            (-500 * MS, "-500ms"),
            (1001, "1.001\u{b5}s"),
            (10 * US, "10\u{b5}s"),
        ];
        for (nanos, want) in cases {
            assert_eq!(format_go_duration(*nanos), *want, "formatting {nanos}ns");
        }
    }

    #[test]
    fn format_then_parse_round_trips() {
        let samples = [
            0,
            1,
            999,
            1_000,
            123_456_789,
            S,
            61 * S + 1,
            H + 1,
            27 * H + 3 * M + 500 * MS,
            i64::MAX,
            i64::MIN,
            -7,
            -(26 * H),
        ];
        for nanos in samples {
            let text = format_go_duration(nanos);
            assert_eq!(parse_go_duration(&text), Ok(nanos), "round trip of {text}");
        }
    }

    #[test]
    fn parse_then_format_normalises_like_go() {
        for (input, want) in [
            ("24h", "24h0m0s"),
            ("90m", "1h30m0s"),
            ("1.5h", "1h30m0s"),
            ("0", "0s"),
            ("-0", "0s"),
            ("3600s", "1h0m0s"),
            ("1000ms", "1s"),
            ("0.5s", "500ms"),
        ] {
            let parsed: SignedGoDuration = input.parse().expect(input);
            assert_eq!(parsed.to_string(), want, "normalising {input}");
        }
    }

    #[test]
    fn go_duration_rejects_negative_values() {
        let err = "-1h".parse::<GoDuration>().expect_err("negative");
        assert_eq!(err, DurationError::Negative { input: "-1h".into() });
        assert_eq!(
            err.to_string(),
            r#"invalid duration "-1h": the value must not be negative; give a duration such as 5m0s"#
        );
        // Minus zero is zero, which is allowed.
        assert_eq!("-0".parse::<GoDuration>(), Ok(GoDuration::default()));
        assert_eq!("-0s".parse::<GoDuration>(), Ok(GoDuration::default()));
    }

    #[test]
    fn go_duration_parses_and_displays() {
        let ttl: GoDuration = "24h".parse().expect("24h");
        assert_eq!(ttl.as_std(), Duration::from_secs(24 * 3600));
        assert_eq!(ttl.to_string(), "24h0m0s");
        assert_eq!(GoDuration::from_secs(60).to_string(), "1m0s");
        assert!(GoDuration::default().is_zero());
        assert_eq!(GoDuration::default().to_string(), "0s");
        assert_eq!("1.5s".parse::<GoDuration>().map(|d| d.as_std()), Ok(Duration::from_millis(1500)));
        // Beyond Go's range a std Duration still prints in Go's shape.
        assert_eq!(GoDuration(Duration::from_secs(u64::MAX)).to_string(), "5124095576030431h0m15s");
    }

    #[test]
    fn clap_uses_the_types_as_flag_values() {
        use clap::Parser;
        #[derive(Parser)]
        struct Flags {
            #[arg(long, default_value = "24h0m0s")]
            ttl: GoDuration,
            #[arg(long, default_value = "5m0s", allow_hyphen_values = true)]
            wait: SignedGoDuration,
        }
        let flags = Flags::try_parse_from(["t", "--ttl", "1.5h", "--wait", "-1s"]).expect("parses");
        assert_eq!(flags.ttl.to_string(), "1h30m0s");
        assert!(flags.wait.is_negative());
        let defaults = Flags::try_parse_from(["t"]).expect("defaults parse");
        assert_eq!(defaults.ttl.as_std(), Duration::from_secs(24 * 3600));
        assert_eq!(defaults.wait.to_string(), "5m0s");
        let err = Flags::try_parse_from(["t", "--ttl", "1d"]).err().expect("1d is not Go syntax");
        assert!(err.to_string().contains(r#"time: unknown unit "d" in duration "1d""#), "{err}");
    }

    #[test]
    fn signed_go_duration_exposes_sign_and_conversions() {
        let neg: SignedGoDuration = "-1m".parse().expect("-1m");
        assert!(neg.is_negative());
        assert_eq!(neg.as_nanos(), -M);
        assert_eq!(neg.to_std(), None);
        assert_eq!(neg.to_jiff(), jiff::SignedDuration::from_secs(-60));
        assert_eq!(neg.to_string(), "-1m0s");
        let pos = SignedGoDuration::from_nanos(90 * S);
        assert_eq!(pos.to_std(), Some(Duration::from_secs(90)));
        assert!(!pos.is_negative());
    }
}
