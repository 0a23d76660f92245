//! Compact ES256 JWS by hand: `b64url(header).b64url(payload).b64url(r || s)`.

// No JWT crate: the header must be exactly what go-jose writes for kube-apiserver,
// `{"alg":"ES256","kid":"<id>"}`, and verification only has to accept ES256 from one key.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED, EcdsaKeyPair, UnparsedPublicKey};
use serde::Deserialize;

use crate::auth::AuthError;

/// The only algorithm issued and accepted.
pub(super) const ALG: &str = "ES256";

#[derive(Deserialize)]
struct Header {
    alg: Option<String>,
}

/// Signs `payload` (JSON bytes) with `key`, naming `key_id` in the header when not empty.
pub(super) fn sign(key: &EcdsaKeyPair, rng: &SystemRandom, key_id: &str, payload: &[u8]) -> Result<String, AuthError> {
    let header = if key_id.is_empty() {
        format!(r#"{{"alg":"{ALG}"}}"#)
    } else {
        // A key ID is caller-supplied text; JSON-escape it. Serialising a &str cannot fail.
        let kid = serde_json::to_string(key_id).map_err(|_| AuthError::Signing)?;
        format!(r#"{{"alg":"{ALG}","kid":{kid}}}"#)
    };
    let signing_input = format!("{}.{}", URL_SAFE_NO_PAD.encode(header), URL_SAFE_NO_PAD.encode(payload));
    let signature = key.sign(rng, signing_input.as_bytes()).map_err(|_| AuthError::Signing)?;
    Ok(format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(signature.as_ref())))
}

/// Checks the header and the signature against `public_key` (an uncompressed P-256 point) and
/// returns the payload bytes. Nothing from the payload is trusted before this succeeds.
pub(super) fn verify(token: &str, public_key: &[u8]) -> Result<Vec<u8>, AuthError> {
    let mut parts = token.split('.');
    let (Some(header), Some(payload), Some(signature), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(AuthError::MalformedJwt);
    };
    let decode = |part: &str| URL_SAFE_NO_PAD.decode(part).map_err(|_| AuthError::MalformedJwt);
    let parsed: Header = serde_json::from_slice(&decode(header)?).map_err(|_| AuthError::MalformedJwt)?;
    match parsed.alg.as_deref() {
        Some(ALG) => {}
        other => return Err(AuthError::UnsupportedAlgorithm { alg: other.unwrap_or_default().to_owned() }),
    }
    let signature = decode(signature)?;
    // The signing input is the text as sent, so `header.payload` is the token up to the last dot
    // (in bounds: both parts were split out of `token`).
    let signed_len = header.len() + 1 + payload.len();
    UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, public_key)
        .verify(&token.as_bytes()[..signed_len], &signature)
        .map_err(|_| AuthError::InvalidSignature)?;
    decode(payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, KeyPair};

    fn key() -> EcdsaKeyPair {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).unwrap()
    }

    #[test]
    fn round_trip_and_header_bytes() {
        let key = key();
        let token = sign(&key, &SystemRandom::new(), "k1", br#"{"a":1}"#).unwrap();
        let header = token.split('.').next().unwrap();
        assert_eq!(URL_SAFE_NO_PAD.decode(header).unwrap(), br#"{"alg":"ES256","kid":"k1"}"#);
        assert_eq!(verify(&token, key.public_key().as_ref()).unwrap(), br#"{"a":1}"#);
    }

    #[test]
    fn rejects_other_algorithms_and_shapes() {
        let key = key();
        let public = key.public_key().as_ref().to_vec();
        let none = format!("{}.{}.", URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#), URL_SAFE_NO_PAD.encode("{}"));
        assert_eq!(verify(&none, &public), Err(AuthError::UnsupportedAlgorithm { alg: "none".into() }));
        for bad in ["", "a.b", "a.b.c.d", "!!.a.b"] {
            assert_eq!(verify(bad, &public), Err(AuthError::MalformedJwt), "{bad}");
        }
    }
}
