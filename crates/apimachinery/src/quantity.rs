//! `resource.Quantity` arithmetic: enough to add up capacities and requests exactly
//! (`8`, `500m`, `32Gi`, `1.5`, `2e3`) and print the sum the way Kubernetes does.
//!
//! Values are held as whole nano-units in an i128, which holds every quantity Kubernetes can
//! express for CPU, memory, storage and counts without rounding.

use std::fmt;

/// A quantity; `format` remembers how it was written (a power-of-two suffix, an SI suffix or an
/// exponent), which is how Kubernetes prints it and chooses the format of a sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quantity {
    nanos: i128,
    format: Format,
}

/// Kubernetes' three quantity formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Format {
    /// `Ki`, `Mi`, … (BinarySI).
    Binary,
    /// `m`, `k`, `M`, … or none (DecimalSI).
    #[default]
    DecimalSi,
    /// `e3`, `E-6`, … (DecimalExponent).
    DecimalExponent,
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
        Self { nanos: i128::from(units) * NANO, format: Format::DecimalSi }
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
        let (multiplier, format) = match suffix {
            "" => (1, Format::DecimalSi),
            "Ki" => (1 << 10, Format::Binary),
            "Mi" => (1 << 20, Format::Binary),
            "Gi" => (1 << 30, Format::Binary),
            "Ti" => (1 << 40, Format::Binary),
            "Pi" => (1 << 50, Format::Binary),
            "Ei" => (1 << 60, Format::Binary),
            "n" => (exp(&mut exp10, -9), Format::DecimalSi),
            "u" => (exp(&mut exp10, -6), Format::DecimalSi),
            "m" => (exp(&mut exp10, -3), Format::DecimalSi),
            "k" => (exp(&mut exp10, 3), Format::DecimalSi),
            "M" => (exp(&mut exp10, 6), Format::DecimalSi),
            "G" => (exp(&mut exp10, 9), Format::DecimalSi),
            "T" => (exp(&mut exp10, 12), Format::DecimalSi),
            "P" => (exp(&mut exp10, 15), Format::DecimalSi),
            "E" => (exp(&mut exp10, 18), Format::DecimalSi),
            other => {
                let e = other.strip_prefix(['e', 'E']).ok_or_else(bad)?;
                let e: i32 = e.parse().map_err(|_| bad())?;
                (exp(&mut exp10, e), Format::DecimalExponent)
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
        Ok(Self { nanos: if negative { -nanos } else { nanos }, format })
    }

    #[must_use]
    pub fn plus(self, other: Self) -> Self {
        // The sum keeps the first operand's format, as Kubernetes' Quantity.Add does, except
        // that a zero start takes the other's.
        let format = if self.nanos == 0 { other.format } else { self.format };
        Self { nanos: self.nanos.saturating_add(other.nanos), format }
    }

    /// `self - other`, keeping `self`'s format as Kubernetes' Quantity.Sub does.
    #[must_use]
    pub fn minus(self, other: Self) -> Self {
        let format = if self.nanos == 0 { other.format } else { self.format };
        Self { nanos: self.nanos.saturating_sub(other.nanos), format }
    }

    /// `self × n` (a per-replica request times the replicas), saturating rather than wrapping.
    #[must_use]
    pub fn times(self, n: i64) -> Self {
        Self { nanos: self.nanos.saturating_mul(i128::from(n)), format: self.format }
    }

    /// Compares by value whatever the format (`1Gi` > `1G`, `1` equals `1000m`), as
    /// Kubernetes' Quantity.Cmp does; `==` also compares how the quantities are written.
    pub fn cmp_value(&self, other: &Self) -> std::cmp::Ordering {
        self.nanos.cmp(&other.nanos)
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
    /// Kubernetes' canonical form: a binary quantity as the largest power of 1024 that keeps
    /// it whole (one under 1024 in magnitude, or with a fraction, as DecimalSI); a decimal one as
    /// the largest power of 1000 that keeps it whole, written with an SI suffix or an exponent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.nanos;
        let mut format = self.format;
        if format == Format::Binary && (n.abs() < 1024 * NANO || n % NANO != 0) {
            format = Format::DecimalSi;
        }
        if format == Format::Binary {
            let units = n / NANO;
            for (suffix, shift) in [("Ei", 60), ("Pi", 50), ("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10)] {
                let size = 1i128 << shift;
                if units % size == 0 {
                    return write!(f, "{}{suffix}", units / size);
                }
            }
            return write!(f, "{units}");
        }
        // Powers of 1000 from nano (10^-9) up to exa (10^18), largest first.
        const SCALES: [(i32, &str); 10] =
            [(18, "E"), (15, "P"), (12, "T"), (9, "G"), (6, "M"), (3, "k"), (0, ""), (-3, "m"), (-6, "u"), (-9, "n")];
        for (exponent, si) in SCALES {
            let size = 10i128.pow((exponent + 9) as u32);
            if n % size == 0 && (n != 0 || exponent == 0) {
                let suffix = match (format, exponent) {
                    (_, 0) => String::new(),
                    (Format::DecimalExponent, e) => format!("e{e}"),
                    _ => si.to_string(),
                };
                return write!(f, "{}{suffix}", n / size);
            }
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
            ("2e3", "2e3"),
            ("1.5e3", "1500"),
            ("5e-1", "500e-3"),
            ("2000", "2k"),
            ("1000Mi", "1000Mi"),
            ("1500Mi", "1500Mi"),
            ("0.5Ki", "512"),
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
        assert_eq!(q("5e-100").to_string(), "1e-9");
        assert!(Quantity::parse("1e2147483647").is_err());
        assert_eq!(q("1e-2147483648").to_string(), "1e-9");
    }

    #[test]
    fn sums_keep_the_first_operands_format() {
        assert_eq!(q("8").plus(q("500m")).to_string(), "8500m");
        assert_eq!(q("32Gi").plus(q("32Gi")).to_string(), "64Gi");
        assert_eq!(Quantity::zero().plus(q("1Gi")).plus(q("512Mi")).to_string(), "1536Mi");
        assert_eq!(q("100m").plus(q("200m")).millis(), 300);
    }

    #[test]
    fn differences_products_and_order() {
        assert_eq!(q("2").minus(q("500m")).to_string(), "1500m");
        assert_eq!(Quantity::zero().minus(q("1Gi")).to_string(), "-1Gi");
        assert_eq!(q("250m").times(4).to_string(), "1");
        assert_eq!(q("512Mi").times(3).to_string(), "1536Mi");
        assert_eq!(q("1Gi").cmp_value(&q("1G")), std::cmp::Ordering::Greater);
        assert_eq!(q("1").cmp_value(&q("1000m")), std::cmp::Ordering::Equal);
        // Saturates instead of wrapping to a negative request.
        assert_eq!(q("1E").times(i64::MAX).cmp_value(&q("1E")), std::cmp::Ordering::Greater);
    }

    #[test]
    fn rejects_garbage() {
        for bad in ["", "abc", "1.2.3", "5Xi", "--1", "."] {
            assert!(Quantity::parse(bad).is_err(), "{bad}");
        }
    }
}
