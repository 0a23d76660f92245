//! Client certificates: CN is the user, every O a group, as kube-apiserver's x509 authenticator.

// rustls has already verified the chain against the plane's CA (and the clientAuth usage);
// this only reads the subject, and checks the validity period again so that a caller handing
// in a certificate from elsewhere cannot skip it.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use jiff::Timestamp;
use sha2::{Digest, Sha256};

use super::user::{CREDENTIAL_ID_KEY, UserInfo};
use crate::auth::AuthError;

/// The user a verified client certificate (DER of the leaf) names, checked against the clock.
pub fn user_from_client_cert(leaf_der: &[u8]) -> Result<UserInfo, AuthError> {
    user_from_client_cert_at(leaf_der, Timestamp::now())
}

/// [`user_from_client_cert`] at `now`.
pub fn user_from_client_cert_at(leaf_der: &[u8], now: Timestamp) -> Result<UserInfo, AuthError> {
    read_client_cert(leaf_der)?.user_at(now)
}

/// What a verified client certificate says, read once: a connection presents the same
/// certificate for all its requests, and reading it (DER parsing, a SHA-256) was a visible
/// share of the plane's CPU per request. The clock is still checked at every request.
#[derive(Debug, Clone)]
pub struct ClientCertIdentity {
    not_before: Timestamp,
    not_after: Timestamp,
    /// None when the certificate has no common name (no user).
    user: Option<UserInfo>,
}

impl ClientCertIdentity {
    /// When the certificate stops being valid.
    pub fn not_after(&self) -> Timestamp {
        self.not_after
    }

    /// The user, if the certificate is valid at `now`.
    pub fn user_at(&self, now: Timestamp) -> Result<UserInfo, AuthError> {
        if !(self.not_before <= now && now <= self.not_after) {
            return Err(AuthError::CertificateNotValidNow {
                not_before: self.not_before.to_string(),
                not_after: self.not_after.to_string(),
            });
        }
        self.user.clone().ok_or(AuthError::NoCommonName)
    }
}

/// Reads the user and validity period of a verified client certificate (DER of the leaf).
pub fn read_client_cert(leaf_der: &[u8]) -> Result<ClientCertIdentity, AuthError> {
    // karmadactl_pki reads certificates from PEM; wrapping costs far less than the TLS handshake.
    let pem = format!("-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n", STANDARD.encode(leaf_der));
    let info = karmadactl_pki::inspect_certificate(&pem).map_err(|_| AuthError::InvalidCertificate)?;
    let user = (!info.subject.common_name.is_empty()).then(|| {
        // kube 1.32+ names the credential by the certificate's SHA-256 fingerprint.
        let fingerprint: String = Sha256::digest(leaf_der).iter().map(|b| format!("{b:02x}")).collect();
        UserInfo {
            name: info.subject.common_name,
            uid: String::new(),
            groups: info.subject.organizations,
            extra: [(CREDENTIAL_ID_KEY.to_owned(), vec![format!("X509SHA256={fingerprint}")])].into(),
        }
        .with_authenticated_group()
    });
    Ok(ClientCertIdentity { not_before: info.not_before, not_after: info.not_after, user })
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_pki::{CaSpec, CertificateAuthority, LeafSpec, Validity};

    fn der_of(pem: &str) -> Vec<u8> {
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        STANDARD.decode(body).unwrap()
    }

    fn ca() -> CertificateAuthority {
        let now = Timestamp::now();
        let validity = Validity::new(now, now + jiff::SignedDuration::from_hours(24)).unwrap();
        CertificateAuthority::generate(&CaSpec::new("karmada", validity)).unwrap()
    }

    #[test]
    fn cn_is_user_and_every_o_a_group() {
        let ca = ca();
        let now = Timestamp::now();
        let validity = Validity::new(now, now + jiff::SignedDuration::from_hours(1)).unwrap();
        let spec = LeafSpec::client("system:admin", vec!["system:masters".into(), "ops".into()], validity);
        let der = der_of(&ca.issue(&spec).unwrap().cert_pem);
        let user = user_from_client_cert(&der).unwrap();
        assert_eq!(user.name, "system:admin");
        assert_eq!(user.groups, vec!["system:masters", "ops", "system:authenticated"]);
        assert!(user.extra[CREDENTIAL_ID_KEY][0].starts_with("X509SHA256="));
        let later = now + jiff::SignedDuration::from_hours(2);
        assert!(matches!(user_from_client_cert_at(&der, later), Err(AuthError::CertificateNotValidNow { .. })));
    }

    #[test]
    fn garbage_and_missing_cn() {
        assert_eq!(user_from_client_cert(b"nope"), Err(AuthError::InvalidCertificate));
        let ca = ca();
        let now = Timestamp::now();
        let validity = Validity::new(now, now + jiff::SignedDuration::from_hours(1)).unwrap();
        let der = der_of(&ca.issue(&LeafSpec::client("", vec!["g".into()], validity)).unwrap().cert_pem);
        assert_eq!(user_from_client_cert(&der), Err(AuthError::NoCommonName));
    }
}
