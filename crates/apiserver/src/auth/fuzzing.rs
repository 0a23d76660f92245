//! Fuzz bodies for the credential parsers that every request reaches before it is authenticated:
//! bearer tokens (bootstrap tokens and service-account JWTs) and the detached JWS signatures of
//! `kube-public/cluster-info`. Shared by the `fuzz/` targets and the proptest unit tests below.
//!
//! Each body panics only when a property is violated, which is what a fuzzer reports.

use std::sync::OnceLock;

use jiff::Timestamp;
use karmadactl_pki::jws::{sign_detached, verify_detached};
use karmadactl_pki::token::BootstrapToken;
use karmadactl_pki::{KeyAlgorithm, PrivateKey};

use super::authn::{BearerKind, ServiceAccountTokens, bearer_kind, key_id_for};

/// A token signer with a key made once per process, so every input is checked against it.
fn tokens() -> &'static ServiceAccountTokens {
    static TOKENS: OnceLock<ServiceAccountTokens> = OnceLock::new();
    TOKENS.get_or_init(|| {
        let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).expect("the OS random generator works");
        let key_id = key_id_for(&key);
        ServiceAccountTokens::new(&key, "https://kubernetes.default.svc".into(), key_id).expect("a P-256 key signs")
    })
}

/// The token ID and secret the cluster-info signature is checked against.
const TOKEN_ID: &str = "abcdef";
const TOKEN_SECRET: &str = "0123456789abcdef";

/// Treats the input as a bearer token and as a cluster-info signature:
/// - classifying it never panics, and a bootstrap token is recognised only in its exact shape,
///   which prints back unchanged;
/// - nothing the fuzzer writes verifies as a service-account token (it holds no key);
/// - only the real signature verifies as cluster-info's JWS.
pub fn credential_body(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match bearer_kind(text) {
        BearerKind::Bootstrap { id } => {
            let token = BootstrapToken::parse(text).expect("classified as a bootstrap token, so it parses");
            assert_eq!(token.id(), id);
            assert_eq!(token.to_string(), text, "a bootstrap token prints as it was written");
        }
        BearerKind::Jwt | BearerKind::Unknown => {
            assert!(
                BootstrapToken::parse(text).is_err(),
                "{text:?} parses as a bootstrap token but was not classified so"
            );
        }
    }
    assert!(tokens().verify(text, Timestamp::now()).is_err(), "{text:?} verified as a service-account token");
    let content = "cluster-info kubeconfig";
    let real = sign_detached(content, TOKEN_ID, TOKEN_SECRET);
    assert_eq!(
        verify_detached(content, text, TOKEN_ID, TOKEN_SECRET),
        text == real,
        "{text:?} against the JWS of {content:?}"
    );
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_real_token_and_signature_pass_the_body() {
        credential_body(b"abcdef.0123456789abcdef");
        credential_body(sign_detached("cluster-info kubeconfig", TOKEN_ID, TOKEN_SECRET).as_bytes());
        credential_body(b"eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn credential_body_holds_on_token_shaped_text(s in "[a-z0-9]{0,7}\\.?[a-z0-9A-Z_-]{0,17}(\\.[A-Za-z0-9_-]{0,12}){0,2}") {
            credential_body(s.as_bytes());
        }

        #[test]
        fn credential_body_holds_on_random_bytes(b in proptest::collection::vec(any::<u8>(), 0..60)) {
            credential_body(&b);
        }
    }
}
