//! Certificate validity periods, always chosen explicitly by whoever signs.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use super::PkiError;

/// When a certificate starts and stops being valid.
///
/// Every certificate built here takes one explicitly: rcgen's default would be 1975 to 4096.
/// Both ends are whole seconds, because X.509 times carry no fractions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Validity {
    not_before: Timestamp,
    not_after: Timestamp,
}

impl Validity {
    /// `not_before` to `not_after`; fails unless `not_after` is later and both lie in the years
    /// 1950 to 9999 (what the X.509 time types can express).
    pub fn new(not_before: Timestamp, not_after: Timestamp) -> Result<Self, PkiError> {
        let not_before = whole_seconds(not_before)?;
        let not_after = whole_seconds(not_after)?;
        if not_after <= not_before {
            return Err(PkiError::InvalidValidity {
                reason: format!("not-after {not_after} is not later than not-before {not_before}"),
            });
        }
        for t in [not_before, not_after] {
            let year = t.to_zoned(jiff::tz::TimeZone::UTC).year();
            if !(1950..=9999).contains(&year) {
                return Err(PkiError::InvalidValidity { reason: format!("{t} is outside the years 1950 to 9999") });
            }
        }
        Ok(Validity { not_before, not_after })
    }

    /// `duration` long, starting at `start`.
    pub fn starting_at(start: Timestamp, duration: Duration) -> Result<Self, PkiError> {
        let span = SignedDuration::try_from(duration).map_err(|_| too_long(duration))?;
        let end = start.checked_add(span).map_err(|_| too_long(duration))?;
        Self::new(start, end)
    }

    /// `duration` long, starting now.
    pub fn from_now(duration: Duration) -> Result<Self, PkiError> {
        Self::starting_at(Timestamp::now(), duration)
    }

    /// The first second the certificate is valid.
    pub fn not_before(&self) -> Timestamp {
        self.not_before
    }

    /// The last second the certificate is valid.
    pub fn not_after(&self) -> Timestamp {
        self.not_after
    }

    /// The two ends in rcgen's time type.
    pub(crate) fn to_offset_date_times(self) -> Result<(time::OffsetDateTime, time::OffsetDateTime), PkiError> {
        Ok((to_offset(self.not_before)?, to_offset(self.not_after)?))
    }
}

fn too_long(duration: Duration) -> PkiError {
    PkiError::InvalidValidity { reason: format!("a validity of {duration:?} reaches past the year 9999") }
}

fn whole_seconds(t: Timestamp) -> Result<Timestamp, PkiError> {
    Timestamp::from_second(t.as_second())
        .map_err(|e| PkiError::InvalidValidity { reason: format!("{t} cannot be truncated to seconds: {e}") })
}

fn to_offset(t: Timestamp) -> Result<time::OffsetDateTime, PkiError> {
    time::OffsetDateTime::from_unix_timestamp(t.as_second())
        .map_err(|e| PkiError::InvalidValidity { reason: format!("{t} is out of range: {e}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_empty_and_reversed_periods() {
        let t: Timestamp = "2030-01-01T00:00:00Z".parse().unwrap();
        assert!(matches!(Validity::new(t, t), Err(PkiError::InvalidValidity { .. })));
        let earlier: Timestamp = "2029-01-01T00:00:00Z".parse().unwrap();
        assert!(matches!(Validity::new(t, earlier), Err(PkiError::InvalidValidity { .. })));
        assert!(Validity::new(earlier, t).is_ok());
    }

    #[test]
    fn rejects_years_x509_cannot_express() {
        let early: Timestamp = "1949-12-31T23:59:59Z".parse().unwrap();
        let t: Timestamp = "2030-01-01T00:00:00Z".parse().unwrap();
        assert!(matches!(Validity::new(early, t), Err(PkiError::InvalidValidity { .. })));
    }

    #[test]
    fn truncates_to_whole_seconds() {
        let t: Timestamp = "2030-01-01T00:00:00.75Z".parse().unwrap();
        let v = Validity::starting_at(t, Duration::from_secs(3600)).unwrap();
        assert_eq!(v.not_before().to_string(), "2030-01-01T00:00:00Z");
        assert_eq!(v.not_after().to_string(), "2030-01-01T01:00:00Z");
    }

    #[test]
    fn refuses_durations_past_year_9999() {
        let v = Validity::from_now(Duration::from_secs(u64::MAX));
        assert!(matches!(v, Err(PkiError::InvalidValidity { .. })));
    }
}
