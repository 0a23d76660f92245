//! Reading a certificate's subject, names, validity and usages, e.g. for expiry checks.

use std::net::IpAddr;

use jiff::{SignedDuration, Timestamp};
use x509_parser::certificate::X509Certificate;
use x509_parser::extensions::GeneralName;
use x509_parser::x509::X509Name;

use super::{PkiError, pem};

/// A certificate subject as Kubernetes reads it: the common name is the user, the
/// organizations are the groups.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Subject {
    /// `CN`; empty when the certificate has none.
    pub common_name: String,
    /// Every `O`, in order.
    pub organizations: Vec<String>,
}

impl Subject {
    /// A subject with only a common name.
    pub fn new(common_name: impl Into<String>) -> Self {
        Subject { common_name: common_name.into(), organizations: Vec::new() }
    }

    /// The same subject with these organizations (groups).
    pub fn with_organizations<I, S>(mut self, organizations: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.organizations = organizations.into_iter().map(Into::into).collect();
        self
    }
}

/// The extended key usages this crate issues and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExtendedKeyUsage {
    /// TLS server authentication (`serverAuth`, 1.3.6.1.5.5.7.3.1).
    ServerAuth,
    /// TLS client authentication (`clientAuth`, 1.3.6.1.5.5.7.3.2).
    ClientAuth,
}

/// What a certificate says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateInfo {
    pub subject: Subject,
    pub issuer: Subject,
    /// The serial number as lowercase hex without separators.
    pub serial: String,
    pub dns_names: Vec<String>,
    pub ip_addresses: Vec<IpAddr>,
    pub email_addresses: Vec<String>,
    pub uris: Vec<String>,
    pub not_before: Timestamp,
    pub not_after: Timestamp,
    /// Basic constraints say `CA:TRUE`.
    pub is_ca: bool,
    /// `serverAuth` and `clientAuth` when present; other purposes are not listed.
    pub extended_key_usages: Vec<ExtendedKeyUsage>,
}

impl CertificateInfo {
    /// Time left until `not_after`; negative once expired.
    pub fn remaining(&self, now: Timestamp) -> SignedDuration {
        now.duration_until(self.not_after)
    }

    /// Whether `now` is past `not_after`.
    pub fn is_expired(&self, now: Timestamp) -> bool {
        now > self.not_after
    }

    /// Whether `now` lies within `not_before..=not_after`.
    pub fn is_valid_at(&self, now: Timestamp) -> bool {
        self.not_before <= now && now <= self.not_after
    }
}

/// Reads the first certificate in `pem_text`.
pub fn inspect_certificate(pem_text: &str) -> Result<CertificateInfo, PkiError> {
    let der = pem::first_der(pem_text, "certificate", &["CERTIFICATE"])?;
    info_from_der(&der)
}

/// Reads every certificate in `pem_text` (a CA bundle), in order.
pub fn inspect_certificates(pem_text: &str) -> Result<Vec<CertificateInfo>, PkiError> {
    pem::ders(pem_text, "certificate bundle", &["CERTIFICATE"])?.iter().map(|d| info_from_der(d)).collect()
}

/// How many certificates `der` holds back to back, as Go's `x509.ParseCertificates` reads a
/// CERTIFICATE block (zero for no bytes); an error when any of them does not parse.
pub fn count_der_certificates(mut der: &[u8]) -> Result<usize, PkiError> {
    let mut count = 0;
    while !der.is_empty() {
        let (rest, _) = x509_parser::parse_x509_certificate(der).map_err(|e| invalid(e.to_string()))?;
        der = rest;
        count += 1;
    }
    Ok(count)
}

/// Parses DER, refusing trailing bytes.
pub(crate) fn parse_der(der: &[u8]) -> Result<X509Certificate<'_>, PkiError> {
    let (rest, cert) = x509_parser::parse_x509_certificate(der).map_err(|e| invalid(e.to_string()))?;
    if !rest.is_empty() {
        return Err(invalid("trailing bytes after the certificate".into()));
    }
    Ok(cert)
}

fn invalid(reason: String) -> PkiError {
    PkiError::InvalidCertificate { source: reason.into() }
}

pub(crate) fn info_from_der(der: &[u8]) -> Result<CertificateInfo, PkiError> {
    let cert = parse_der(der)?;
    let names = cert
        .subject_alternative_name()
        .map_err(|e| invalid(format!("bad subject alternative names: {e}")))?
        .map(|ext| SubjectAltNames::from_general_names(&ext.value.general_names))
        .unwrap_or_default();
    let is_ca = cert
        .basic_constraints()
        .map_err(|e| invalid(format!("bad basic constraints: {e}")))?
        .is_some_and(|bc| bc.value.ca);
    let eku = cert
        .extended_key_usage()
        .map_err(|e| invalid(format!("bad extended key usage: {e}")))?
        .map(|ext| {
            let mut v = Vec::new();
            if ext.value.server_auth {
                v.push(ExtendedKeyUsage::ServerAuth);
            }
            if ext.value.client_auth {
                v.push(ExtendedKeyUsage::ClientAuth);
            }
            v
        })
        .unwrap_or_default();
    let validity = cert.validity();
    Ok(CertificateInfo {
        subject: subject_of(cert.subject()).map_err(invalid)?,
        issuer: subject_of(cert.issuer()).map_err(invalid)?,
        serial: cert.raw_serial().iter().map(|b| format!("{b:02x}")).collect(),
        dns_names: names.dns_names,
        ip_addresses: names.ip_addresses,
        email_addresses: names.email_addresses,
        uris: names.uris,
        not_before: timestamp(validity.not_before.timestamp()).map_err(invalid)?,
        not_after: timestamp(validity.not_after.timestamp()).map_err(invalid)?,
        is_ca,
        extended_key_usages: eku,
    })
}

fn timestamp(seconds: i64) -> Result<Timestamp, String> {
    Timestamp::from_second(seconds).map_err(|e| format!("validity time out of range: {e}"))
}

/// CN and O values; a value that is not a string is an error rather than skipped, so nobody
/// reads fewer groups than a certificate really carries.
pub(crate) fn subject_of(name: &X509Name<'_>) -> Result<Subject, String> {
    let text = |attr: &x509_parser::x509::AttributeTypeAndValue<'_>| {
        attr.as_str().map(str::to_owned).map_err(|e| format!("a name attribute is not a string: {e}"))
    };
    let common_name = match name.iter_common_name().next() {
        Some(cn) => text(cn)?,
        None => String::new(),
    };
    let organizations = name.iter_organization().map(text).collect::<Result<Vec<_>, _>>()?;
    Ok(Subject { common_name, organizations })
}

/// Subject alternative names by kind; kinds not listed here are ignored.
#[derive(Debug, Default)]
pub(crate) struct SubjectAltNames {
    pub(crate) dns_names: Vec<String>,
    pub(crate) ip_addresses: Vec<IpAddr>,
    pub(crate) email_addresses: Vec<String>,
    pub(crate) uris: Vec<String>,
    /// Names of other kinds (directory names, other names, ...), described for error messages.
    pub(crate) others: Vec<String>,
}

impl SubjectAltNames {
    pub(crate) fn from_general_names(names: &[GeneralName<'_>]) -> Self {
        let mut out = SubjectAltNames::default();
        for name in names {
            match name {
                GeneralName::DNSName(d) => out.dns_names.push((*d).to_owned()),
                GeneralName::RFC822Name(e) => out.email_addresses.push((*e).to_owned()),
                GeneralName::URI(u) => out.uris.push((*u).to_owned()),
                GeneralName::IPAddress(bytes) => match ip_from_bytes(bytes) {
                    Some(ip) => out.ip_addresses.push(ip),
                    None => out.others.push(format!("an IP address of {} bytes", bytes.len())),
                },
                other => out.others.push(format!("{other:?}")),
            }
        }
        out
    }
}

fn ip_from_bytes(bytes: &[u8]) -> Option<IpAddr> {
    if let Ok(v4) = <[u8; 4]>::try_from(bytes) {
        return Some(IpAddr::from(v4));
    }
    <[u8; 16]>::try_from(bytes).ok().map(IpAddr::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_a_clear_error() {
        let e = inspect_certificate("no pem here").unwrap_err();
        assert!(e.to_string().contains("no PEM block labelled CERTIFICATE"), "{e}");
        let text = pem::encode("CERTIFICATE", b"not a certificate");
        let e = inspect_certificate(&text).unwrap_err();
        assert_eq!(e.to_string(), "the certificate could not be parsed");
    }

    #[test]
    fn ip_sans_of_both_families() {
        assert_eq!(ip_from_bytes(&[10, 0, 0, 1]), Some("10.0.0.1".parse().unwrap()));
        let mut v6 = [0u8; 16];
        v6[15] = 1;
        assert_eq!(ip_from_bytes(&v6), Some("::1".parse().unwrap()));
        assert_eq!(ip_from_bytes(&[1, 2, 3]), None);
    }
}
