//! Certificate signing requests: inspecting them and signing them with a CA.

// The request is parsed and its self-signature verified with x509-parser, the same calls
// rcgen's `CertificateSigningRequestParams::from_der` makes. rcgen's parser itself is not used:
// it keeps one value per attribute type (a request for several groups would lose all but one),
// rejects multi-valued RDNs (how Go encodes several `O`), and rejects requested extensions it
// does not know, although the signer ignores those anyway.

use std::net::IpAddr;

use rcgen::{PublicKeyData, SanType, SignatureAlgorithm};
use x509_parser::certification_request::X509CertificationRequest;
use x509_parser::extensions::ParsedExtension;
use x509_parser::prelude::FromDer;

use super::inspect::{SubjectAltNames, subject_of};
use super::issue::leaf_params;
use super::{CertificateAuthority, ExtendedKeyUsage, PkiError, Subject, Validity, pem};

/// What a certificate signing request asks for; an approver decides from this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsrInfo {
    pub subject: Subject,
    pub dns_names: Vec<String>,
    pub ip_addresses: Vec<IpAddr>,
    pub email_addresses: Vec<String>,
    pub uris: Vec<String>,
    /// The request asks for basic constraints CA:TRUE (it never gets them).
    pub requests_ca: bool,
    /// The requester's DER SubjectPublicKeyInfo.
    pub public_key_der: Vec<u8>,
}

/// Key usages a signer may grant to a request's key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyUsage {
    DigitalSignature,
    KeyEncipherment,
}

/// A verified request: what it asks for, plus the exact subject bytes to copy.
struct ParsedCsr {
    info: CsrInfo,
    subject_der: Vec<u8>,
    /// Subject alternative names of kinds that cannot be copied, described.
    other_names: Vec<String>,
}

const LABELS: &[&str] = &["CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"];

/// A PEM certificate signing request for `subject` (one `O` per organization, no SANs), signed
/// by `key`, as a client asking for a client certificate sends it.
pub fn create_csr(key: &super::PrivateKey, subject: &Subject) -> Result<String, PkiError> {
    let mut params = rcgen::CertificateParams::default();
    let mut dn = rcgen::DistinguishedName::new();
    for o in &subject.organizations {
        dn.push(rcgen::DnType::OrganizationName, o.as_str());
    }
    dn.push(rcgen::DnType::CommonName, subject.common_name.as_str());
    params.distinguished_name = dn;
    let request = params.serialize_request(key.pair()).map_err(|e| PkiError::InvalidCsr { source: Box::new(e) })?;
    request.pem().map_err(|e| PkiError::InvalidCsr { source: Box::new(e) })
}

/// Parses the first request in `csr_pem` and verifies its signature.
pub fn inspect_csr(csr_pem: &str) -> Result<CsrInfo, PkiError> {
    parse(csr_pem).map(|p| p.info)
}

fn parse(csr_pem: &str) -> Result<ParsedCsr, PkiError> {
    let der = pem::first_der(csr_pem, "certificate signing request", LABELS)?;
    let invalid = |reason: String| PkiError::InvalidCsr { source: reason.into() };
    let (rest, csr) = X509CertificationRequest::from_der(&der).map_err(|e| invalid(e.to_string()))?;
    if !rest.is_empty() {
        return Err(invalid("trailing bytes after the request".into()));
    }
    csr.verify_signature().map_err(|e| PkiError::CsrSignature { source: Box::new(e) })?;
    let request = &csr.certification_request_info;
    let mut names = SubjectAltNames::default();
    let mut requests_ca = false;
    for ext in csr.requested_extensions().into_iter().flatten() {
        match ext {
            ParsedExtension::SubjectAlternativeName(san) => {
                let more = SubjectAltNames::from_general_names(&san.general_names);
                names.dns_names.extend(more.dns_names);
                names.ip_addresses.extend(more.ip_addresses);
                names.email_addresses.extend(more.email_addresses);
                names.uris.extend(more.uris);
                names.others.extend(more.others);
            }
            ParsedExtension::BasicConstraints(bc) => requests_ca |= bc.ca,
            ParsedExtension::ParseError { error } => {
                return Err(invalid(format!("a requested extension is malformed: {error}")));
            }
            _ => {}
        }
    }
    Ok(ParsedCsr {
        info: CsrInfo {
            subject: subject_of(&request.subject).map_err(invalid)?,
            dns_names: names.dns_names,
            ip_addresses: names.ip_addresses,
            email_addresses: names.email_addresses,
            uris: names.uris,
            requests_ca,
            public_key_der: request.subject_pki.raw.to_vec(),
        },
        subject_der: request.subject.as_raw().to_vec(),
        other_names: names.others,
    })
}

/// The requester's public key as rcgen wants it. The algorithm is only a placeholder: the
/// SubjectPublicKeyInfo rcgen writes from it is replaced by the request's exact bytes, and
/// the key identifier is computed from those bytes.
struct RequestedKey {
    spki: Vec<u8>,
    bits: Vec<u8>,
}

impl PublicKeyData for RequestedKey {
    fn subject_public_key_info(&self) -> Vec<u8> {
        self.spki.clone()
    }

    fn der_bytes(&self) -> &[u8] {
        &self.bits
    }

    fn algorithm(&self) -> &'static SignatureAlgorithm {
        &rcgen::PKCS_ECDSA_P256_SHA256
    }
}

impl CertificateAuthority {
    /// Signs the request in `csr_pem` after verifying its signature. The subject (copied byte
    /// for byte) and the DNS, IP, email and URI names come from the request; everything else is
    /// the signer's choice: `validity`, `usages`, key usages digitalSignature and
    /// keyEncipherment, CA:FALSE whatever the request asks, a random serial.
    pub fn sign_csr(
        &self,
        csr_pem: &str,
        validity: &Validity,
        usages: &[ExtendedKeyUsage],
    ) -> Result<String, PkiError> {
        self.sign_csr_with_key_usages(
            csr_pem,
            validity,
            &[KeyUsage::DigitalSignature, KeyUsage::KeyEncipherment],
            usages,
        )
    }

    /// Like [`CertificateAuthority::sign_csr`] with the key usages chosen by the caller, as a
    /// Kubernetes signer derives them from a CertificateSigningRequest's `spec.usages` (none
    /// leaves the extension out).
    pub fn sign_csr_with_key_usages(
        &self,
        csr_pem: &str,
        validity: &Validity,
        key_usages: &[KeyUsage],
        usages: &[ExtendedKeyUsage],
    ) -> Result<String, PkiError> {
        let parsed = parse(csr_pem)?;
        if let Some(other) = parsed.other_names.first() {
            return Err(PkiError::UnsupportedCsrName { reason: other.clone() });
        }
        let info = &parsed.info;
        let common_name = &info.subject.common_name;
        let mut params = leaf_params(validity, usages, common_name)?;
        params.key_usages = key_usages
            .iter()
            .map(|u| match u {
                KeyUsage::DigitalSignature => rcgen::KeyUsagePurpose::DigitalSignature,
                KeyUsage::KeyEncipherment => rcgen::KeyUsagePurpose::KeyEncipherment,
            })
            .collect();
        let ia5 = |kind: &str, value: &String| {
            rcgen::string::Ia5String::try_from(value.as_str())
                .map_err(|_| PkiError::UnsupportedCsrName { reason: format!("the {kind} {value:?} is not ASCII") })
        };
        for name in &info.dns_names {
            params.subject_alt_names.push(SanType::DnsName(ia5("DNS name", name)?));
        }
        for ip in &info.ip_addresses {
            params.subject_alt_names.push(SanType::IpAddress(*ip));
        }
        for email in &info.email_addresses {
            params.subject_alt_names.push(SanType::Rfc822Name(ia5("email address", email)?));
        }
        for uri in &info.uris {
            params.subject_alt_names.push(SanType::URI(ia5("URI", uri)?));
        }
        let key = requested_key(&info.public_key_der)?;
        self.sign(params, &key, &parsed.subject_der, Some(&info.public_key_der), common_name)
    }
}

fn requested_key(spki_der: &[u8]) -> Result<RequestedKey, PkiError> {
    let (_, spki) = x509_parser::x509::SubjectPublicKeyInfo::from_der(spki_der)
        .map_err(|e| PkiError::InvalidCsr { source: Box::new(e) })?;
    Ok(RequestedKey { spki: spki_der.to_vec(), bits: spki.subject_public_key.data.to_vec() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaSpec, KeyAlgorithm, PrivateKey, inspect_certificate};
    use std::time::Duration;

    fn csr_pem(subject: &str, orgs: &[&str], dns: &[&str], ca: bool) -> (String, PrivateKey) {
        let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).unwrap();
        let mut params = rcgen::CertificateParams::new(dns.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        params.distinguished_name = rcgen::DistinguishedName::new();
        params.distinguished_name.push(rcgen::DnType::CommonName, subject);
        for o in orgs {
            params.distinguished_name.push(rcgen::DnType::OrganizationName, *o);
        }
        if ca {
            params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        }
        let csr = params.serialize_request(key.key_pair()).unwrap();
        (csr.pem().unwrap(), key)
    }

    fn ca() -> CertificateAuthority {
        let validity = Validity::from_now(Duration::from_secs(3600)).unwrap();
        CertificateAuthority::generate(&CaSpec::new("signer", validity)).unwrap()
    }

    #[test]
    fn inspect_reports_subject_and_names() {
        let (pem, key) = csr_pem("system:node:a", &["system:nodes"], &["a.example", "10.1.2.3"], true);
        let info = inspect_csr(&pem).unwrap();
        assert_eq!(info.subject, Subject::new("system:node:a").with_organizations(["system:nodes"]));
        assert_eq!(info.dns_names, vec!["a.example"]);
        assert_eq!(info.ip_addresses, vec!["10.1.2.3".parse::<IpAddr>().unwrap()]);
        assert!(info.requests_ca);
        assert_eq!(info.public_key_der, key.public_key_der());
    }

    #[test]
    fn signer_decides_usages_validity_and_ca() {
        let ca = ca();
        let (pem, key) = csr_pem("agent", &["agents"], &["agent.example"], true);
        let validity = Validity::from_now(Duration::from_secs(1234)).unwrap();
        let cert = ca.sign_csr(&pem, &validity, &[ExtendedKeyUsage::ClientAuth]).unwrap();
        let info = inspect_certificate(&cert).unwrap();
        assert!(!info.is_ca);
        assert_eq!(info.not_before, validity.not_before());
        assert_eq!(info.not_after, validity.not_after());
        assert_eq!(info.extended_key_usages, vec![ExtendedKeyUsage::ClientAuth]);
        assert_eq!(info.subject, Subject::new("agent").with_organizations(["agents"]));
        assert_eq!(info.dns_names, vec!["agent.example"]);
        assert_eq!(info.issuer.common_name, "signer");
        let parsed = pem::first_der(&cert, "c", &["CERTIFICATE"]).unwrap();
        let (_, x509) = x509_parser::parse_x509_certificate(&parsed).unwrap();
        assert_eq!(x509.public_key().raw, key.public_key_der().as_slice());
    }

    #[test]
    fn tampered_and_garbage_requests_are_refused() {
        let ca = ca();
        let validity = Validity::from_now(Duration::from_secs(60)).unwrap();
        let (pem_text, _) = csr_pem("agent", &[], &[], false);
        let mut der = pem::first_der(&pem_text, "c", LABELS).unwrap();
        // Flip a byte inside the CN value "agent"; the signature no longer matches.
        let at = der.windows(5).position(|w| w == b"agent").unwrap();
        der[at] = b'b';
        let tampered = pem::encode("CERTIFICATE REQUEST", &der);
        let e = ca.sign_csr(&tampered, &validity, &[ExtendedKeyUsage::ClientAuth]).unwrap_err();
        assert!(matches!(e, PkiError::CsrSignature { .. }), "{e}");
        let garbage = pem::encode("CERTIFICATE REQUEST", b"\x30\x03\x02\x01\x00");
        let e = ca.sign_csr(&garbage, &validity, &[ExtendedKeyUsage::ClientAuth]).unwrap_err();
        assert!(matches!(e, PkiError::InvalidCsr { .. }), "{e}");
        assert_eq!(e.to_string(), "the certificate signing request could not be parsed");
        let e = inspect_csr("not pem").unwrap_err();
        assert!(matches!(e, PkiError::MissingPem { .. }), "{e}");
    }
}
