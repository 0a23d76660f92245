//! Certificate authorities: generating or loading a CA, and the signing step all certificates share.

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, IsCa, Issuer, KeyIdMethod, KeyPair, KeyUsagePurpose,
    PublicKeyData, SanType, SerialNumber, SigningKey,
};

use super::inspect::{self, CertificateInfo, Subject};
use super::{KeyAlgorithm, PkiError, PrivateKey, Validity, der, pem, pin, random};

/// What a new self-signed CA looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaSpec {
    pub subject: Subject,
    pub validity: Validity,
    pub key_algorithm: KeyAlgorithm,
    /// DNS subject alternative names. Upstream puts the CA's common name here; most CAs have none.
    pub dns_names: Vec<String>,
}

impl CaSpec {
    /// A CA named `common_name` with an ECDSA P-256 key and no organizations.
    pub fn new(common_name: impl Into<String>, validity: Validity) -> Self {
        CaSpec {
            subject: Subject::new(common_name),
            validity,
            key_algorithm: KeyAlgorithm::default(),
            dns_names: Vec::new(),
        }
    }
}

/// A CA certificate with its private key, ready to issue certificates.
/// `Debug` shows the subject, never the key.
pub struct CertificateAuthority {
    cert_pem: String,
    info: CertificateInfo,
    /// The CA's subject Name, byte for byte, to use as the issuer of what it signs.
    subject_der: Vec<u8>,
    /// The CA's subject key identifier; leaves get it as authority key identifier.
    key_id: Option<Vec<u8>>,
    spki_der: Vec<u8>,
    key: PrivateKey,
}

impl std::fmt::Debug for CertificateAuthority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertificateAuthority")
            .field("subject", &self.info.subject)
            .field("not_after", &self.info.not_after)
            .field("key", &self.key)
            .finish()
    }
}

impl CertificateAuthority {
    /// Generates a key and a self-signed CA certificate: CA:TRUE, key usages digitalSignature,
    /// keyEncipherment and keyCertSign, a random serial, and exactly `spec.validity`.
    pub fn generate(spec: &CaSpec) -> Result<Self, PkiError> {
        let key = PrivateKey::generate(spec.key_algorithm)?;
        let common_name = &spec.subject.common_name;
        let mut params = base_params(&spec.validity)?;
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages =
            vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment, KeyUsagePurpose::KeyCertSign];
        params.subject_alt_names = dns_sans(&spec.dns_names)?;
        let draft = params.self_signed(key.key_pair()).map_err(|e| sign_error(common_name, e))?;
        let name = der::encode_name(&spec.subject);
        let replacement = der::Replacement { issuer: &name, subject: &name, spki: None };
        let cert_der = resign(draft.der(), &replacement, key.key_pair(), common_name)?;
        Self::from_parts(&cert_der, key)
    }

    /// Loads a CA from its certificate and key (PEM). The first certificate in `cert_pem` is the
    /// CA; it must say CA:TRUE and match the key.
    pub fn from_pem(cert_pem: &str, key_pem: &str) -> Result<Self, PkiError> {
        let cert_der = pem::first_der(cert_pem, "CA certificate", &["CERTIFICATE"])?;
        let key = PrivateKey::from_pem(key_pem)?;
        Self::from_parts(&cert_der, key)
    }

    fn from_parts(cert_der: &[u8], key: PrivateKey) -> Result<Self, PkiError> {
        let info = inspect::info_from_der(cert_der)?;
        let cert = inspect::parse_der(cert_der)?;
        if !info.is_ca {
            return Err(PkiError::NotCa { subject: cert.subject().to_string() });
        }
        if cert.public_key().subject_public_key.data.as_ref() != key.key_pair().der_bytes() {
            return Err(PkiError::KeyMismatch { subject: cert.subject().to_string() });
        }
        let key_id = cert.iter_extensions().find_map(|ext| match ext.parsed_extension() {
            x509_parser::extensions::ParsedExtension::SubjectKeyIdentifier(id) => Some(id.0.to_vec()),
            _ => None,
        });
        Ok(CertificateAuthority {
            cert_pem: pem::encode("CERTIFICATE", cert_der),
            subject_der: cert.subject().as_raw().to_vec(),
            spki_der: cert.public_key().raw.to_vec(),
            key_id,
            info,
            key,
        })
    }

    /// The CA certificate as PEM.
    pub fn cert_pem(&self) -> &str {
        &self.cert_pem
    }

    /// The CA private key as PKCS#8 PEM.
    pub fn key_pem(&self) -> String {
        self.key.to_pem()
    }

    /// The CA private key.
    pub fn key(&self) -> &PrivateKey {
        &self.key
    }

    /// Subject, validity and the rest of the CA certificate.
    pub fn info(&self) -> &CertificateInfo {
        &self.info
    }

    /// The pin `sha256:<hex>` of this CA, as `--discovery-token-ca-cert-hash` takes it.
    pub fn ca_cert_hash(&self) -> String {
        pin::hash_spki(&self.spki_der)
    }

    /// Builds `params` for `subject_key` with rcgen, then writes the exact subject Name (and
    /// the requester's SubjectPublicKeyInfo when given) and this CA's subject as issuer, and
    /// signs. The result is checked against the CA key before it is returned.
    pub(crate) fn sign(
        &self,
        mut params: CertificateParams,
        subject_key: &impl PublicKeyData,
        subject_name: &[u8],
        subject_spki: Option<&[u8]>,
        common_name: &str,
    ) -> Result<String, PkiError> {
        params.use_authority_key_identifier_extension = self.key_id.is_some();
        let mut issuer_params = CertificateParams::default();
        issuer_params.distinguished_name = DistinguishedName::new();
        issuer_params.key_identifier_method = KeyIdMethod::PreSpecified(self.key_id.clone().unwrap_or_default());
        let issuer = Issuer::new(issuer_params, self.key.key_pair());
        let draft = params.signed_by(subject_key, &issuer).map_err(|e| sign_error(common_name, e))?;
        let replacement = der::Replacement { issuer: &self.subject_der, subject: subject_name, spki: subject_spki };
        let cert_der = resign(draft.der(), &replacement, self.key.key_pair(), common_name)?;
        self.check_signed_by_me(&cert_der, common_name)?;
        Ok(pem::encode("CERTIFICATE", &cert_der))
    }

    /// A rewrite bug would otherwise only show up when a TLS peer rejects the certificate.
    fn check_signed_by_me(&self, cert_der: &[u8], common_name: &str) -> Result<(), PkiError> {
        use x509_parser::prelude::FromDer;
        let (_, ca_spki) = x509_parser::x509::SubjectPublicKeyInfo::from_der(&self.spki_der)
            .map_err(|e| sign_error(common_name, e))?;
        let cert = inspect::parse_der(cert_der)?;
        cert.verify_signature(Some(&ca_spki)).map_err(|e| sign_error(common_name, e))
    }
}

/// Params every certificate starts from: explicit validity and a random serial, empty subject
/// (replaced later), SHA-256 key identifiers.
pub(crate) fn base_params(validity: &Validity) -> Result<CertificateParams, PkiError> {
    let mut params = CertificateParams::default();
    let (not_before, not_after) = validity.to_offset_date_times()?;
    params.not_before = not_before;
    params.not_after = not_after;
    params.serial_number = Some(random_serial()?);
    params.distinguished_name = DistinguishedName::new();
    params.key_identifier_method = KeyIdMethod::Sha256;
    Ok(params)
}

/// DNS subject alternative names: empty ones skipped, duplicates removed, sorted (as upstream).
pub(crate) fn dns_sans(names: &[String]) -> Result<Vec<SanType>, PkiError> {
    let mut names: Vec<&String> = names.iter().filter(|n| !n.is_empty()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|n| n.as_str().try_into().map(SanType::DnsName).map_err(|_| PkiError::InvalidDnsName { name: n.clone() }))
        .collect()
}

/// 127 random bits: positive and at most 16 octets, which every X.509 reader accepts
/// (RFC 5280 allows 20).
fn random_serial() -> Result<SerialNumber, PkiError> {
    let mut bytes = [0u8; 16];
    random::fill(&mut bytes).map_err(|_| PkiError::Random)?;
    bytes[0] &= 0x7f;
    if bytes.iter().all(|b| *b == 0) {
        bytes[15] = 1;
    }
    Ok(SerialNumber::from_slice(&bytes))
}

fn resign(draft: &[u8], with: &der::Replacement<'_>, key: &KeyPair, common_name: &str) -> Result<Vec<u8>, PkiError> {
    let rewritten =
        der::rewrite(draft, with).ok_or_else(|| sign_error(common_name, "rcgen's certificate could not be re-read"))?;
    let signature = key.sign(&rewritten.tbs).map_err(|e| sign_error(common_name, e))?;
    Ok(der::assemble(&rewritten, &signature))
}

fn sign_error(common_name: &str, source: impl Into<super::BoxError>) -> PkiError {
    PkiError::Sign { common_name: common_name.to_owned(), source: source.into() }
}
