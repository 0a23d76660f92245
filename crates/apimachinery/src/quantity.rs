//! `resource.Quantity` arithmetic: enough to add up capacities and requests exactly
//! (`8`, `500m`, `32Gi`, `1.5`, `2e3`) and print the sum the way Kubernetes does.
//!
//! Values are held as whole nano-units in an i128, which holds every quantity Kubernetes can
//! express for CPU, memory, storage and counts without rounding.

use std::fmt;

/// A quantity; `binary` remembers whether it was written with a power-of-two suffix, which is
/// how Kubernetes chooses the format of a sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quantity {
    nanos: i128,
    binary: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {0:?}")]
pub struct QuantityError(pub String);

const NANO: i128 = 1_000_000_000;

impl Quantity {
    pub fn zero() -> Self {
        Self::default()
    }

    pub fn from_units(units: i64) -> Self {
        Self { nanos: i128::from(units) * NANO, binary: false }
    }

    pub fn parse(text: &str) -> Result<Self, QuantityError> {
        let bad = || QuantityError(text.to_string());
        let s = text.trim();
        let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-')).unwrap_or(s.len());
        let (number, suffix) = s.split_at(split);
        let (negative, digits) = match number.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, number.strip_prefix('+').unwrap_or(number)),
        };
        if digits.is_empty() || digits == "." {
            return Err(bad());
        }
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if !whole.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        // The number as an integer and a power of ten: 1.5 = 15 × 10^-1.
        let mantissa: i128 = format!("{whole}{frac}").parse().map_err(|_| bad())?;
        let mut exp10: i32 = -(frac.len() as i32);
        let (multiplier, binary) = match suffix {
            "" => (1, false),
            "Ki" => (1 << 10, true),
            "Mi" => (1 << 20, true),
            "Gi" => (1 << 30, true),
            "Ti" => (1 << 40, true),
            "Pi" => (1 << 50, true),
            "Ei" => (1 << 60, true),
            "n" => (exp(&mut exp10, -9), false),
            "u" => (exp(&mut exp10, -6), false),
            "m" => (exp(&mut exp10, -3), false),
            "k" => (exp(&mut exp10, 3), false),
            "M" => (exp(&mut exp10, 6), false),
            "G" => (exp(&mut exp10, 9), false),
            "T" => (exp(&mut exp10, 12), false),
            "P" => (exp(&mut exp10, 15), false),
            "E" => (exp(&mut exp10, 18), false),
            other => {
                let e = other.strip_prefix(['e', 'E']).ok_or_else(bad)?;
                let e: i32 = e.parse().map_err(|_| bad())?;
                (exp(&mut exp10, e), false)
            }
        };
        // Nano-units: shift by 9 more decimal places; anything finer than a nano-unit rounds
        // up, as Kubernetes rounds quantities up to its smallest scale.
        let shift = exp10.checked_add(9).ok_or_else(bad)?;
        let scaled = if shift >= 0 {
            mantissa.checked_mul(10i128.checked_pow(shift as u32).ok_or_else(bad)?).ok_or_else(bad)?
        } else {
            let div = 10i128.checked_pow(shift.unsigned_abs()).unwrap_or(i128::MAX);
            // Rounded up without `mantissa + div - 1`, which overflows for tiny exponents.
            mantissa / div + i128::from(mantissa % div != 0)
        };
        let nanos = scaled.checked_mul(multiplier).ok_or_else(bad)?;
        Ok(Self { nanos: if negative { -nanos } else { nanos }, binary })
    }

    #[must_use]
    pub fn plus(self, other: Self) -> Self {
        // The sum keeps the first operand's format, as Kubernetes' Quantity.Add does, except
        // that a zero start takes the other's.
        let binary = if self.nanos == 0 { other.binary } else { self.binary };
        Self { nanos: self.nanos.saturating_add(other.nanos), binary }
    }

    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    /// The exact value in nano-units.
    pub fn nanos(&self) -> i128 {
        self.nanos
    }

    /// The value in milli-units (CPU is compared in millicores).
    pub fn millis(&self) -> i128 {
        self.nanos / 1_000_000
    }
}

fn exp(exp10: &mut i32, by: i32) -> i128 {
    // Saturating: an exponent past i32 is refused as too large (or rounds to one nano-unit).
    *exp10 = exp10.saturating_add(by);
    1
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.nanos;
        if self.binary && n % NANO == 0 {
            let units = n / NANO;
            for (suffix, shift) in [("Ei", 60), ("Pi", 50), ("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10)] {
                let size = 1i128 << shift;
                if units != 0 && units % size == 0 {
                    return write!(f, "{}{suffix}", units / size);
                }
            }
            return write!(f, "{units}");
        }
        if n % NANO == 0 {
            let units = n / NANO;
            for (suffix, size) in [("E", 18), ("P", 15), ("T", 12), ("G", 9), ("M", 6), ("k", 3)] {
                let size = 10i128.pow(size);
                if units != 0 && units % size == 0 && !self.binary {
                    return write!(f, "{}{suffix}", units / size);
                }
            }
            return write!(f, "{units}");
        }
        if n % 1_000_000 == 0 {
            return write!(f, "{}m", n / 1_000_000);
        }
        if n % 1_000 == 0 {
            return write!(f, "{}u", n / 1_000);
        }
        write!(f, "{n}n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }

    #[test]
    fn parses_and_prints_the_common_forms() {
        for (input, printed) in [
            ("8", "8"),
            ("500m", "500m"),
            ("32Gi", "32Gi"),
            ("1.5", "1500m"),
            ("2e3", "2k"),
            ("1k", "1k"),
            ("110", "110"),
            ("100Mi", "100Mi"),
            ("0", "0"),
            ("1024Ki", "1Mi"),
            ("0.1", "100m"),
        ] {
            assert_eq!(q(input).to_string(), printed, "{input}");
        }
        assert_eq!(q("-1").millis(), -1000);
        // Exponents far beyond any resource neither overflow nor panic.
        assert_eq!(q("5e-100").to_string(), "1n");
        assert!(Quantity::parse("1e2147483647").is_err());
        assert_eq!(q("1e-2147483648").to_string(), "1n");
    }

    #[test]
    fn sums_keep_the_first_operands_format() {
        assert_eq!(q("8").plus(q("500m")).to_string(), "8500m");
        assert_eq!(q("32Gi").plus(q("32Gi")).to_string(), "64Gi");
        assert_eq!(Quantity::zero().plus(q("1Gi")).plus(q("512Mi")).to_string(), "1536Mi");
        assert_eq!(q("100m").plus(q("200m")).millis(), 300);
    }

    #[test]
    fn rejects_garbage() {
        for bad in ["", "abc", "1.2.3", "5Xi", "--1", "."] {
            assert!(Quantity::parse(bad).is_err(), "{bad}");
        }
    }
}
