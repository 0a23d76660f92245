//! PKI: keys, CAs, leaf certificates, CSR signing, CA pins, PEM files, bootstrap tokens and
//! JWS. It owns every cryptographic decision of the project (algorithms, validity, the exact
//! DER of names) and depends on no other crate of this workspace; `init`, `token`, `register`
//! and the API server's authenticators use it, and it must never depend on any of them.

#![forbid(unsafe_code)]

// A library for `init`, `token`, `register` and the embedded control plane; nothing here
// prints. Times are `jiff::Timestamp`s; PEM travels as `&str`/`String`.
//
// Certificates are built by rcgen, but the subject, the issuer (and, for CSRs, the public key)
// are written as exact DER bytes by the `der` module: rcgen keeps one value per attribute type,
// so it cannot express a client certificate with several `O` (groups), and chain building in Go
// compares the issuer bytes with the CA subject bytes.

mod ca;
mod csr;
mod der;
mod files;
mod inspect;
mod issue;
pub mod jws;
mod key;
mod pem;
mod pem_go;
mod pin;
mod random;
pub mod signer;
pub mod token;
mod validity;

pub use ca::{CaSpec, CertificateAuthority};
pub use csr::{CsrInfo, KeyUsage, create_csr, inspect_csr};
pub use files::{PemPair, cert_path, key_path, read_pair, write_cert, write_key, write_pair, write_private_pair};
pub use inspect::{
    CertificateInfo, ExtendedKeyUsage, Subject, count_der_certificates, inspect_certificate, inspect_certificates,
};
pub use issue::{IssuedCertificate, LeafSpec};
pub use key::{KeyAlgorithm, PrivateKey};
pub use pem_go::{GoPemBlock, go_pem_blocks};
pub use pin::{CaPin, ca_cert_hash, ca_cert_hashes};
pub use validity::Validity;

use std::path::PathBuf;

/// A boxed cause, for errors whose source comes from several crates.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Errors from key generation, certificate issuing and parsing, CA pins and PEM files.
#[derive(Debug, thiserror::Error)]
pub enum PkiError {
    /// The operating system's random number generator failed.
    #[error("the system random number generator failed")]
    Random,
    /// Generating a private key failed.
    #[error("could not generate an {algorithm} private key")]
    GenerateKey {
        algorithm: KeyAlgorithm,
        #[source]
        source: BoxError,
    },
    /// The input holds no PEM block of the kind asked for.
    #[error("the {what} holds no PEM block labelled {expected}")]
    MissingPem { what: &'static str, expected: &'static str },
    /// A PEM block is malformed (bad header, bad base64, missing END line).
    #[error("the {what} is not valid PEM")]
    InvalidPem {
        what: &'static str,
        #[source]
        source: BoxError,
    },
    /// A private key could not be loaded.
    #[error(
        "the private key could not be loaded; supported are unencrypted PKCS#8 \"PRIVATE KEY\" \
         (ECDSA P-256/P-384, Ed25519, RSA 2048 to 8192 bits), PKCS#1 \"RSA PRIVATE KEY\" and \
         SEC1 \"EC PRIVATE KEY\""
    )]
    InvalidKey {
        #[source]
        source: BoxError,
    },
    /// A certificate could not be parsed.
    #[error("the certificate could not be parsed")]
    InvalidCertificate {
        #[source]
        source: BoxError,
    },
    /// The certificate meant to act as a CA is not one.
    #[error("the certificate \"{subject}\" is not a CA certificate (basic constraints CA:TRUE is missing)")]
    NotCa { subject: String },
    /// The private key does not belong to the certificate it came with.
    #[error("the private key does not match the public key of the certificate \"{subject}\"")]
    KeyMismatch { subject: String },
    /// A certificate signing request could not be parsed.
    #[error("the certificate signing request could not be parsed")]
    InvalidCsr {
        #[source]
        source: BoxError,
    },
    /// The CSR's self-signature does not verify, so its sender may not hold the private key.
    #[error("the certificate signing request's signature does not verify against its own public key")]
    CsrSignature {
        #[source]
        source: BoxError,
    },
    /// A certificate signing request asks for a subject alternative name this signer cannot copy.
    #[error("the certificate signing request has a subject alternative name that cannot be copied: {reason}")]
    UnsupportedCsrName { reason: String },
    /// The validity period is empty or outside what X.509 can express.
    #[error("the certificate validity period is invalid: {reason}")]
    InvalidValidity { reason: String },
    /// A DNS subject alternative name is not ASCII.
    #[error("the DNS name {name:?} cannot be put in a certificate: it must be ASCII")]
    InvalidDnsName { name: String },
    /// A leaf certificate was asked for without any extended key usage.
    #[error("the certificate \"{common_name}\" has no extended key usage; ask for serverAuth, clientAuth or both")]
    NoExtendedKeyUsage { common_name: String },
    /// rcgen failed to build or sign a certificate.
    #[error("could not sign the certificate \"{common_name}\"")]
    Sign {
        common_name: String,
        #[source]
        source: BoxError,
    },
    /// A CA pin (`--discovery-token-ca-cert-hash`) is malformed.
    #[error("invalid discovery token CA certificate hash {value:?}: {reason}")]
    InvalidPin { value: String, reason: String },
    /// A certificate or key file name is not a plain file name.
    #[error("invalid certificate file name {name:?}: {reason}")]
    InvalidFileName { name: String, reason: &'static str },
    /// Writing a certificate or key file failed.
    #[error("could not write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Reading a certificate or key file failed.
    #[error("could not read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl PkiError {
    /// What the user can do next, when that is known.
    pub fn hint(&self) -> Option<String> {
        match self {
            PkiError::Random => {
                Some("check that the operating system's random source (getrandom, /dev/urandom) is available.".into())
            }
            PkiError::MissingPem { expected, .. } => Some(format!(
                "pass a PEM file that contains a \"-----BEGIN {expected}-----\" block."
            )),
            PkiError::InvalidPem { .. } => {
                Some("check that the file is PEM text (BEGIN/END lines around base64) and was not truncated.".into())
            }
            PkiError::InvalidKey { .. } => Some(
                "check that the file holds an unencrypted private key; `openssl pkey -in <file> -noout` tells whether it can be read."
                    .into(),
            ),
            PkiError::InvalidCertificate { .. } => {
                Some("`openssl x509 -in <file> -noout -text` shows whether the certificate can be read.".into())
            }
            PkiError::NotCa { .. } => Some("pass the certificate of the issuing CA, not a leaf certificate.".into()),
            PkiError::KeyMismatch { .. } => {
                Some("pass the private key that was created together with this certificate.".into())
            }
            PkiError::InvalidCsr { .. } => {
                Some("`openssl req -in <file> -noout -text -verify` shows whether the request can be read.".into())
            }
            PkiError::CsrSignature { .. } => {
                Some("create the request again, signed with the private key whose public key it carries.".into())
            }
            PkiError::UnsupportedCsrName { .. } => {
                Some("create the request with only DNS, IP, email or URI subject alternative names.".into())
            }
            PkiError::InvalidValidity { .. } => {
                Some("choose a not-after time later than the not-before time, between the years 1950 and 9999.".into())
            }
            PkiError::InvalidDnsName { .. } => Some("use the punycode (xn--) form of internationalised names.".into()),
            PkiError::NoExtendedKeyUsage { .. } => None,
            PkiError::Sign { .. } => None,
            PkiError::InvalidPin { .. } => Some(
                "a CA certificate hash looks like sha256:<64 hex digits>; `karmadactl token create --print-register-command` prints it."
                    .into(),
            ),
            PkiError::InvalidFileName { .. } => Some("use a plain name such as \"ca\" or \"apiserver\".".into()),
            PkiError::Write { source, .. } | PkiError::Read { source, .. } => match source.kind() {
                std::io::ErrorKind::NotFound => Some("check that the path exists and is spelled correctly.".into()),
                std::io::ErrorKind::PermissionDenied => {
                    Some("check the file permissions, or run as a user that may read and write it.".into())
                }
                _ => None,
            },
            PkiError::GenerateKey { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_a_next_step() {
        let e = PkiError::InvalidPin { value: "x".into(), reason: "r".into() };
        assert!(e.to_string().starts_with("invalid discovery token CA certificate hash \"x\""));
        assert!(e.hint().is_some_and(|h| h.contains("sha256:")));
        let e =
            PkiError::Read { path: "/nope/ca.crt".into(), source: std::io::Error::from(std::io::ErrorKind::NotFound) };
        assert_eq!(e.to_string(), "could not read /nope/ca.crt");
        assert!(e.hint().is_some_and(|h| h.contains("path exists")));
    }
}
