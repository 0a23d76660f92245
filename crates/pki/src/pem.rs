//! Splitting PEM text into labelled DER blocks, and writing PEM.

use base64::Engine;
use x509_parser::pem::Pem;

use super::PkiError;

/// All PEM blocks in `input`, in order. Text around the blocks is ignored, as openssl does.
/// `what` names the input in errors ("certificate", "CA bundle", ...).
pub(crate) fn blocks(input: &str, what: &'static str) -> Result<Vec<Pem>, PkiError> {
    Pem::iter_from_buffer(input.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PkiError::InvalidPem { what, source: Box::new(e) })
}

/// The DER of every block whose label is one of `labels`; fails if there is none.
pub(crate) fn ders(input: &str, what: &'static str, labels: &[&'static str]) -> Result<Vec<Vec<u8>>, PkiError> {
    let found: Vec<Vec<u8>> =
        blocks(input, what)?.into_iter().filter(|p| labels.contains(&p.label.as_str())).map(|p| p.contents).collect();
    if found.is_empty() {
        return Err(PkiError::MissingPem { what, expected: labels[0] });
    }
    Ok(found)
}

/// The DER of the first block whose label is one of `labels`.
pub(crate) fn first_der(input: &str, what: &'static str, labels: &[&'static str]) -> Result<Vec<u8>, PkiError> {
    let mut all = ders(input, what, labels)?;
    // `ders` never returns an empty list, so there is a first element to take.
    Ok(all.swap_remove(0))
}

/// PEM text with 64-character lines and a trailing newline, as openssl and Go write it.
pub(crate) fn encode(label: &str, der: &[u8]) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in b64.as_bytes().chunks(64) {
        // Base64 output is ASCII, so every chunk is valid UTF-8.
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_picks_labels() {
        let der: Vec<u8> = (0..100u8).collect();
        let text = format!("junk\n{}{}", encode("EC PARAMETERS", &[6, 1, 0]), encode("CERTIFICATE", &der));
        assert_eq!(first_der(&text, "certificate", &["CERTIFICATE"]).unwrap(), der);
        assert!(text.lines().all(|l| l.len() <= 64));
    }

    #[test]
    fn missing_and_broken_blocks_are_errors() {
        let e = first_der("hello", "certificate", &["CERTIFICATE"]).unwrap_err();
        assert_eq!(e.to_string(), "the certificate holds no PEM block labelled CERTIFICATE");
        let broken = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n";
        assert!(matches!(first_der(broken, "certificate", &["CERTIFICATE"]), Err(PkiError::InvalidPem { .. })));
        let unterminated = "-----BEGIN CERTIFICATE-----\nAAAA\n";
        assert!(matches!(first_der(unterminated, "certificate", &["CERTIFICATE"]), Err(PkiError::InvalidPem { .. })));
    }
}
