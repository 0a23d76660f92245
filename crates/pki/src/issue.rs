//! Serving and client certificates issued by a CA, with keys generated here.

use std::net::IpAddr;

use rcgen::{ExtendedKeyUsagePurpose, IsCa, KeyUsagePurpose, SanType};

use super::ca::{base_params, dns_sans};
use super::{CertificateAuthority, ExtendedKeyUsage, KeyAlgorithm, PkiError, PrivateKey, Subject, Validity, der};

/// What a leaf certificate should say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeafSpec {
    /// CN and O; for client certificates the user name and the groups.
    pub subject: Subject,
    /// Empty names are skipped; duplicates are removed and the rest sorted, as upstream does.
    pub dns_names: Vec<String>,
    /// Duplicates are removed; order is kept, as upstream does.
    pub ip_addresses: Vec<IpAddr>,
    /// At least one is required.
    pub extended_key_usages: Vec<ExtendedKeyUsage>,
    pub validity: Validity,
    /// Used by [`CertificateAuthority::issue`], which generates the key.
    pub key_algorithm: KeyAlgorithm,
}

impl LeafSpec {
    /// A TLS serving certificate (`serverAuth`) for these names.
    pub fn server(
        common_name: impl Into<String>,
        dns_names: Vec<String>,
        ip_addresses: Vec<IpAddr>,
        validity: Validity,
    ) -> Self {
        LeafSpec {
            subject: Subject::new(common_name),
            dns_names,
            ip_addresses,
            extended_key_usages: vec![ExtendedKeyUsage::ServerAuth],
            validity,
            key_algorithm: KeyAlgorithm::default(),
        }
    }

    /// A client certificate (`clientAuth`) for `user` in `groups` (CN = user, one O per group).
    pub fn client(user: impl Into<String>, groups: Vec<String>, validity: Validity) -> Self {
        LeafSpec {
            subject: Subject { common_name: user.into(), organizations: groups },
            dns_names: Vec::new(),
            ip_addresses: Vec::new(),
            extended_key_usages: vec![ExtendedKeyUsage::ClientAuth],
            validity,
            key_algorithm: KeyAlgorithm::default(),
        }
    }
}

/// A certificate together with the key generated for it.
#[derive(Debug)]
pub struct IssuedCertificate {
    pub cert_pem: String,
    pub key: PrivateKey,
}

impl IssuedCertificate {
    /// The key as PKCS#8 PEM.
    pub fn key_pem(&self) -> String {
        self.key.to_pem()
    }
}

impl CertificateAuthority {
    /// Generates a key of `spec.key_algorithm` and a certificate for it signed by this CA:
    /// key usages digitalSignature and keyEncipherment, CA:FALSE, a random serial.
    pub fn issue(&self, spec: &LeafSpec) -> Result<IssuedCertificate, PkiError> {
        let key = PrivateKey::generate(spec.key_algorithm)?;
        let cert_pem = self.issue_for_key(spec, &key)?;
        Ok(IssuedCertificate { cert_pem, key })
    }

    /// Like [`CertificateAuthority::issue`] for an existing key (renewing a certificate
    /// without changing its key); `spec.key_algorithm` is ignored.
    pub(crate) fn issue_for_key(&self, spec: &LeafSpec, key: &PrivateKey) -> Result<String, PkiError> {
        let common_name = &spec.subject.common_name;
        let mut params = leaf_params(&spec.validity, &spec.extended_key_usages, common_name)?;
        params.subject_alt_names = dns_sans(&spec.dns_names)?;
        let mut ips: Vec<IpAddr> = Vec::new();
        for ip in &spec.ip_addresses {
            if !ips.contains(ip) {
                ips.push(*ip);
            }
        }
        params.subject_alt_names.extend(ips.into_iter().map(SanType::IpAddress));
        let name = der::encode_name(&spec.subject);
        self.sign(params, key.key_pair(), &name, None, common_name)
    }
}

/// What the signer decides for every leaf, issued here or from a CSR.
pub(crate) fn leaf_params(
    validity: &Validity,
    usages: &[ExtendedKeyUsage],
    common_name: &str,
) -> Result<rcgen::CertificateParams, PkiError> {
    if usages.is_empty() {
        return Err(PkiError::NoExtendedKeyUsage { common_name: common_name.to_owned() });
    }
    let mut params = base_params(validity)?;
    params.is_ca = IsCa::ExplicitNoCa;
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment];
    for usage in usages {
        params.insert_extended_key_usage(match usage {
            ExtendedKeyUsage::ServerAuth => ExtendedKeyUsagePurpose::ServerAuth,
            ExtendedKeyUsage::ClientAuth => ExtendedKeyUsagePurpose::ClientAuth,
        });
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::super::inspect_certificate;
    use super::*;
    use jiff::Timestamp;
    use std::time::Duration;

    fn ca() -> CertificateAuthority {
        let validity = Validity::from_now(Duration::from_secs(3600)).unwrap();
        CertificateAuthority::generate(&super::super::CaSpec::new("test-ca", validity)).unwrap()
    }

    #[test]
    fn ca_is_self_signed_with_explicit_validity() {
        let start: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let validity = Validity::starting_at(start, Duration::from_secs(10 * 365 * 86400)).unwrap();
        let mut spec = super::super::CaSpec::new("karmada", validity);
        spec.subject.organizations = vec!["k".into()];
        let ca = CertificateAuthority::generate(&spec).unwrap();
        let info = inspect_certificate(ca.cert_pem()).unwrap();
        assert!(info.is_ca);
        assert_eq!(info.subject, Subject { common_name: "karmada".into(), organizations: vec!["k".into()] });
        assert_eq!(info.issuer, info.subject);
        assert_eq!(info.not_before, start);
        assert_eq!(info.not_after.to_string(), "2035-12-30T00:00:00Z");
        assert_eq!(ca.info(), &info);
    }

    #[test]
    fn client_certificate_carries_every_group() {
        let ca = ca();
        let validity = Validity::from_now(Duration::from_secs(600)).unwrap();
        let spec = LeafSpec::client("alice", vec!["system:masters".into(), "devs".into(), "".into()], validity);
        let issued = ca.issue(&spec).unwrap();
        let info = inspect_certificate(&issued.cert_pem).unwrap();
        assert_eq!(info.subject.common_name, "alice");
        assert_eq!(info.subject.organizations, vec!["system:masters", "devs", ""]);
        assert_eq!(info.issuer.common_name, "test-ca");
        assert_eq!(info.extended_key_usages, vec![ExtendedKeyUsage::ClientAuth]);
        assert!(!info.is_ca);
        assert_eq!(info.not_after, validity.not_after());
        assert!(info.serial.len() <= 32 && info.serial != "00");
    }

    #[test]
    fn serving_sans_are_deduplicated_like_upstream() {
        let ca = ca();
        let validity = Validity::from_now(Duration::from_secs(600)).unwrap();
        let spec = LeafSpec::server(
            "karmada-apiserver",
            vec!["zeta".into(), "".into(), "alpha".into(), "zeta".into(), "*.ns.svc".into()],
            vec!["10.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap()],
            validity,
        );
        let info = inspect_certificate(&ca.issue(&spec).unwrap().cert_pem).unwrap();
        assert_eq!(info.dns_names, vec!["*.ns.svc", "alpha", "zeta"]);
        let ips: Vec<String> = info.ip_addresses.iter().map(|i| i.to_string()).collect();
        assert_eq!(ips, vec!["10.0.0.2", "127.0.0.1"]);
        assert_eq!(info.extended_key_usages, vec![ExtendedKeyUsage::ServerAuth]);
    }

    #[test]
    fn leaf_needs_an_extended_key_usage_and_ascii_names() {
        let ca = ca();
        let validity = Validity::from_now(Duration::from_secs(600)).unwrap();
        let mut spec = LeafSpec::server("x", vec![], vec![], validity);
        spec.extended_key_usages.clear();
        assert!(matches!(ca.issue(&spec), Err(PkiError::NoExtendedKeyUsage { .. })));
        let spec = LeafSpec::server("x", vec!["bücher.example".into()], vec![], validity);
        assert!(matches!(ca.issue(&spec), Err(PkiError::InvalidDnsName { .. })));
    }

    #[test]
    fn serials_differ() {
        let ca = ca();
        let validity = Validity::from_now(Duration::from_secs(600)).unwrap();
        let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).unwrap();
        let spec = LeafSpec::client("bob", vec![], validity);
        let a = inspect_certificate(&ca.issue_for_key(&spec, &key).unwrap()).unwrap();
        let b = inspect_certificate(&ca.issue_for_key(&spec, &key).unwrap()).unwrap();
        assert_ne!(a.serial, b.serial);
    }

    #[test]
    fn loaded_ca_issues_like_the_original() {
        let original = ca();
        let loaded = CertificateAuthority::from_pem(original.cert_pem(), &original.key_pem()).unwrap();
        assert_eq!(loaded.ca_cert_hash(), original.ca_cert_hash());
        let validity = Validity::from_now(Duration::from_secs(600)).unwrap();
        let cert = loaded.issue(&LeafSpec::client("c", vec![], validity)).unwrap().cert_pem;
        assert_eq!(inspect_certificate(&cert).unwrap().issuer.common_name, "test-ca");
    }

    #[test]
    fn loading_refuses_leaves_and_foreign_keys() {
        let ca = ca();
        let validity = Validity::from_now(Duration::from_secs(600)).unwrap();
        let leaf = ca.issue(&LeafSpec::client("c", vec![], validity)).unwrap();
        let e = CertificateAuthority::from_pem(&leaf.cert_pem, &leaf.key_pem()).unwrap_err();
        assert!(matches!(e, PkiError::NotCa { .. }), "{e}");
        let e = CertificateAuthority::from_pem(ca.cert_pem(), &leaf.key_pem()).unwrap_err();
        assert!(matches!(e, PkiError::KeyMismatch { .. }), "{e}");
        assert_eq!(e.to_string(), "the private key does not match the public key of the certificate \"CN=test-ca\"");
    }
}
