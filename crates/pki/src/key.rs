//! Private keys: generation (ECDSA P-256 or RSA-3072) and PEM encoding and decoding.

use std::fmt;

use rcgen::KeyPair;
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::der::Encode;
use rsa::pkcs8::{AlgorithmIdentifierRef, EncodePrivateKey, ObjectIdentifier, PrivateKeyInfo};

use super::{PkiError, pem, random};

/// The kind of key to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyAlgorithm {
    /// ECDSA on NIST P-256, signing with SHA-256. Small and fast; Go, kubeadm and Karmada accept it.
    #[default]
    EcdsaP256,
    /// RSA with a 3072-bit modulus, signing with PKCS#1 v1.5 and SHA-256: what upstream
    /// `karmadactl init` generates. Takes seconds in debug builds.
    Rsa3072,
}

impl fmt::Display for KeyAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeyAlgorithm::EcdsaP256 => "ECDSA P-256",
            KeyAlgorithm::Rsa3072 => "RSA-3072",
        })
    }
}

/// A private key able to sign certificates. `Debug` never shows key material.
pub struct PrivateKey {
    pair: KeyPair,
}

const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP256R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const SECP384R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");

impl PrivateKey {
    /// Generates a new key from the operating system's random generator.
    pub fn generate(algorithm: KeyAlgorithm) -> Result<Self, PkiError> {
        let pair = match algorithm {
            KeyAlgorithm::EcdsaP256 => KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256)
                .map_err(|e| PkiError::GenerateKey { algorithm, source: Box::new(e) })?,
            KeyAlgorithm::Rsa3072 => generate_rsa(3072)?,
        };
        Ok(PrivateKey { pair })
    }

    /// Loads an unencrypted key: PKCS#8 `PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY` (what upstream
    /// karmadactl and older Go tools write) or SEC1 `EC PRIVATE KEY` (what Go and
    /// `openssl ecparam -genkey` write). Other blocks, such as `EC PARAMETERS`, are skipped.
    pub fn from_pem(pem_text: &str) -> Result<Self, PkiError> {
        let block = pem::blocks(pem_text, "private key")?
            .into_iter()
            .find(|b| b.label.ends_with("PRIVATE KEY"))
            .ok_or(PkiError::MissingPem { what: "private key", expected: "PRIVATE KEY" })?;
        let pkcs8 = match block.label.as_str() {
            "PRIVATE KEY" => block.contents,
            "RSA PRIVATE KEY" => {
                let key =
                    rsa::RsaPrivateKey::from_pkcs1_der(&block.contents).map_err(|e| invalid_key(e.to_string()))?;
                key.to_pkcs8_der().map_err(|e| invalid_key(e.to_string()))?.as_bytes().to_vec()
            }
            "EC PRIVATE KEY" => return sec1_to_key(&block.contents),
            other => return Err(invalid_key(format!("unsupported PEM label {other:?}"))),
        };
        let pair = KeyPair::try_from(pkcs8.as_slice()).map_err(|e| invalid_key(e.to_string()))?;
        Ok(PrivateKey { pair })
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) for every algorithm,
    /// RSA included. Upstream writes RSA keys as PKCS#1 `RSA PRIVATE KEY`; Go, openssl and
    /// Karmada read both, and [`PrivateKey::from_pem`] reads both.
    pub fn to_pem(&self) -> String {
        self.pair.serialize_pem()
    }

    /// The public key as PEM `PUBLIC KEY` (SubjectPublicKeyInfo), e.g. for service-account
    /// token verification.
    pub fn public_key_pem(&self) -> String {
        self.pair.public_key_pem()
    }

    /// The rcgen key pair, for signing requests in this module tree.
    pub(super) fn pair(&self) -> &KeyPair {
        &self.pair
    }

    /// The DER SubjectPublicKeyInfo of the public key.
    pub fn public_key_der(&self) -> Vec<u8> {
        rcgen::PublicKeyData::subject_public_key_info(&self.pair)
    }

    /// Whether the DER certificate `cert_der` carries this key's public key, as Go's
    /// `tls.X509KeyPair` checks before it accepts a pair.
    pub fn matches_certificate(&self, cert_der: &[u8]) -> Result<bool, PkiError> {
        let cert = super::inspect::parse_der(cert_der)?;
        Ok(cert.public_key().subject_public_key.data.as_ref() == rcgen::PublicKeyData::der_bytes(&self.pair))
    }

    /// A short name of the key type, e.g. "ECDSA P-256" or "RSA".
    pub fn algorithm_name(&self) -> &'static str {
        let alg = self.pair.algorithm();
        if alg == &rcgen::PKCS_ECDSA_P256_SHA256 {
            "ECDSA P-256"
        } else if alg == &rcgen::PKCS_ECDSA_P384_SHA384 {
            "ECDSA P-384"
        } else if alg == &rcgen::PKCS_ED25519 {
            "Ed25519"
        } else {
            "RSA"
        }
    }

    pub(crate) fn key_pair(&self) -> &KeyPair {
        &self.pair
    }

    /// The private key as PKCS#8 DER, for signers outside this crate (service-account tokens)
    /// that load it into their own signing library.
    pub fn pkcs8_der(&self) -> Vec<u8> {
        self.pair.serialize_der()
    }
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey").field("algorithm", &self.algorithm_name()).finish_non_exhaustive()
    }
}

fn invalid_key(reason: String) -> PkiError {
    PkiError::InvalidKey { source: reason.into() }
}

/// ring can load RSA keys but cannot generate them, so the `rsa` crate generates the key and
/// hands it over as PKCS#8; everything after that (signing included) goes through ring.
fn generate_rsa(bits: usize) -> Result<KeyPair, PkiError> {
    let algorithm = KeyAlgorithm::Rsa3072;
    // A failing OS generator cannot be reported through rand_core's `fill_bytes`, so RsaRng
    // panics there; catching it here turns that into an error instead of a crash.
    let generated = std::panic::catch_unwind(|| rsa::RsaPrivateKey::new(&mut random::RsaRng::new(), bits))
        .map_err(|_| PkiError::Random)?
        .map_err(|e| PkiError::GenerateKey { algorithm, source: Box::new(e) })?;
    let der = generated.to_pkcs8_der().map_err(|e| PkiError::GenerateKey { algorithm, source: Box::new(e) })?;
    KeyPair::from_pkcs8_der_and_sign_algo(&der.as_bytes().into(), &rcgen::PKCS_RSA_SHA256)
        .map_err(|e| PkiError::GenerateKey { algorithm, source: Box::new(e) })
}

/// With ring, rcgen loads only PKCS#8, so a SEC1 key is wrapped in a PKCS#8 envelope. The
/// curve is tried as P-256, then P-384; ring refuses the wrong one because the SEC1 key names
/// its curve too.
fn sec1_to_key(sec1: &[u8]) -> Result<PrivateKey, PkiError> {
    let mut last = String::from("the key is neither P-256 nor P-384");
    for curve in [SECP256R1, SECP384R1] {
        let info = PrivateKeyInfo::new(
            AlgorithmIdentifierRef { oid: ID_EC_PUBLIC_KEY, parameters: Some((&curve).into()) },
            sec1,
        );
        let der = info.to_der().map_err(|e| invalid_key(e.to_string()))?;
        match KeyPair::try_from(der.as_slice()) {
            Ok(pair) => return Ok(PrivateKey { pair }),
            Err(e) => last = e.to_string(),
        }
    }
    Err(invalid_key(last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecdsa_is_the_default_and_round_trips_through_pem() {
        let key = PrivateKey::generate(KeyAlgorithm::default()).unwrap();
        assert_eq!(key.algorithm_name(), "ECDSA P-256");
        let pem = key.to_pem();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
        let back = PrivateKey::from_pem(&pem).unwrap();
        assert_eq!(back.public_key_der(), key.public_key_der());
    }

    #[test]
    fn debug_shows_no_key_material() {
        let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).unwrap();
        let body: String = key.to_pem().lines().filter(|l| !l.starts_with("-----")).collect();
        let debug = format!("{key:?}");
        assert_eq!(debug, "PrivateKey { algorithm: \"ECDSA P-256\", .. }");
        assert!(!debug.contains(&body[..16]));
    }

    #[test]
    fn sec1_ec_key_loads() {
        // A SEC1 key written by `openssl ecparam -name prime256v1 -genkey`, with its parameters block.
        let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).unwrap();
        let pkcs8 = pem::first_der(&key.to_pem(), "private key", &["PRIVATE KEY"]).unwrap();
        let info = PrivateKeyInfo::try_from(pkcs8.as_slice()).unwrap();
        let text = format!(
            "{}{}",
            pem::encode("EC PARAMETERS", &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]),
            pem::encode("EC PRIVATE KEY", info.private_key)
        );
        let back = PrivateKey::from_pem(&text).unwrap();
        assert_eq!(back.public_key_der(), key.public_key_der());
    }

    #[test]
    fn bad_keys_are_errors_not_panics() {
        assert!(matches!(PrivateKey::from_pem("nothing"), Err(PkiError::MissingPem { .. })));
        for label in ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"] {
            let text = pem::encode(label, b"garbage");
            assert!(matches!(PrivateKey::from_pem(&text), Err(PkiError::InvalidKey { .. })), "{label}");
        }
        let text = pem::encode("ENCRYPTED PRIVATE KEY", b"garbage");
        let e = PrivateKey::from_pem(&text).unwrap_err();
        assert!(e.to_string().starts_with("the private key could not be loaded"), "{e}");
    }
}
