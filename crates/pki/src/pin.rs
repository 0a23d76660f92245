//! CA pins for `--discovery-token-ca-cert-hash`: `sha256:` + hex SHA-256 of the CA's DER SubjectPublicKeyInfo.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

use super::{PkiError, inspect, pem};

/// The pin of the first certificate in `cert_pem`.
pub fn ca_cert_hash(cert_pem: &str) -> Result<String, PkiError> {
    Ok(CaPin::of_certificate(cert_pem)?.to_string())
}

/// The pins of every certificate in `pem_text` (a CA bundle), in order. Upstream prints them
/// comma-joined.
pub fn ca_cert_hashes(pem_text: &str) -> Result<Vec<String>, PkiError> {
    pins_of_bundle(pem_text).map(|pins| pins.iter().map(CaPin::to_string).collect())
}

pub(crate) fn hash_spki(spki_der: &[u8]) -> String {
    CaPin { digest: Sha256::digest(spki_der).into() }.to_string()
}

/// A parsed, valid CA pin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CaPin {
    digest: [u8; 32],
}

impl CaPin {
    /// Parses `sha256:<64 hex digits>`. The algorithm name is case-insensitive and so are
    /// the digits, as in kubeadm.
    pub fn parse(value: &str) -> Result<Self, PkiError> {
        let bad = |reason: String| PkiError::InvalidPin { value: value.to_owned(), reason };
        let Some((format, hex)) = value.split_once(':') else {
            return Err(bad("expected \"sha256:\" followed by 64 hexadecimal digits".into()));
        };
        if !format.eq_ignore_ascii_case("sha256") {
            return Err(bad(format!("unknown hash format {format:?}; the known format is sha256")));
        }
        if hex.len() != 64 {
            return Err(bad(format!(
                "expected 64 hexadecimal digits (a SHA-256 hash), found {} characters",
                hex.len()
            )));
        }
        let mut digest = [0u8; 32];
        for (i, pair) in hex.as_bytes().chunks(2).enumerate() {
            let (Some(hi), Some(lo)) = (hex_value(pair[0]), hex_value(pair[1])) else {
                return Err(bad("the hash contains characters that are not hexadecimal digits".into()));
            };
            digest[i] = hi << 4 | lo;
        }
        Ok(CaPin { digest })
    }

    /// The pin of the first certificate in `cert_pem`.
    pub(crate) fn of_certificate(cert_pem: &str) -> Result<Self, PkiError> {
        let der = pem::first_der(cert_pem, "CA certificate", &["CERTIFICATE"])?;
        Self::of_der(&der)
    }

    fn of_der(der: &[u8]) -> Result<Self, PkiError> {
        let cert = inspect::parse_der(der)?;
        Ok(CaPin { digest: Sha256::digest(cert.tbs_certificate.subject_pki.raw).into() })
    }

    /// Whether any certificate in `pem_text` has this pin (kubeadm accepts a cluster-info CA
    /// bundle when one of its certificates matches).
    pub fn matches_any(&self, pem_text: &str) -> Result<bool, PkiError> {
        Ok(pins_of_bundle(pem_text)?.contains(self))
    }
}

fn pins_of_bundle(pem_text: &str) -> Result<Vec<CaPin>, PkiError> {
    pem::ders(pem_text, "CA bundle", &["CERTIFICATE"])?.iter().map(|d| CaPin::of_der(d)).collect()
}

fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

impl FromStr for CaPin {
    type Err = PkiError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl fmt::Display for CaPin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("sha256:")?;
        self.digest.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn parses_and_prints_lowercase() {
        let pin = CaPin::parse(&format!("SHA256:{}", HEX.to_uppercase())).unwrap();
        assert_eq!(pin.to_string(), format!("sha256:{HEX}"));
        assert_eq!(pin, format!("sha256:{HEX}").parse().unwrap());
    }

    #[test]
    fn rejects_malformed_pins() {
        for bad in [
            HEX.to_string(),
            format!("md5:{HEX}"),
            format!("sha256:{}", &HEX[1..]),
            format!("sha256:{}0", HEX),
            format!("sha256:{}g", &HEX[1..]),
            format!("sha256:{HEX}:x"),
            String::new(),
        ] {
            let e = CaPin::parse(&bad).unwrap_err();
            assert!(e.to_string().starts_with(&format!("invalid discovery token CA certificate hash {bad:?}")), "{e}");
        }
    }

    #[test]
    fn hash_of_spki_bytes() {
        // SHA-256 of the empty input, a known constant.
        assert_eq!(hash_spki(b""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    #[test]
    fn bad_certificates_are_errors() {
        assert!(ca_cert_hash("").is_err());
        assert!(ca_cert_hash(&pem::encode("CERTIFICATE", b"junk")).is_err());
    }
}
