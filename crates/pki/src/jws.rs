//! Detached HS256 JWS as Kubernetes' cluster-bootstrap signs `kube-public/cluster-info`.

// Verifiers recompute the whole string and compare, so the protected header must be byte for
// byte what go-jose writes: `{"alg":"HS256","kid":"<token-id>"}`, no spaces and no `typ`. That
// is why no JWT crate is used: they add `typ` or JWT claims.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// `<b64url(header)>..<b64url(HMAC-SHA256(secret, b64url(header) "." b64url(content)))>`:
/// a compact JWS with the payload left out (RFC 7515 appendix F).
pub fn sign_detached(content: &str, token_id: &str, token_secret: &str) -> String {
    // serde_json would also write this, but the exact bytes matter, and a token ID is
    // [a-z0-9]{6}; anything else is escaped as JSON to keep the header valid.
    let header = format!(r#"{{"alg":"HS256","kid":{}}}"#, json_string(token_id));
    let header = URL_SAFE_NO_PAD.encode(header);
    let signing_input = format!("{header}.{}", URL_SAFE_NO_PAD.encode(content));
    // HMAC takes keys of any length, so creating it cannot fail; the fallback is unreachable.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(token_secret.as_bytes()) else {
        return String::new();
    };
    mac.update(signing_input.as_bytes());
    let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    format!("{header}..{signature}")
}

/// Whether `jws` is the detached signature of `content` by this token, compared in constant time.
pub fn verify_detached(content: &str, jws: &str, token_id: &str, token_secret: &str) -> bool {
    let expected = sign_detached(content, token_id, token_secret);
    // Lengths are not secret (they follow from the token ID); ct_eq needs equal lengths anyway.
    expected.len() == jws.len() && bool::from(expected.as_bytes().ct_eq(jws.as_bytes()))
}

fn json_string(s: &str) -> String {
    // Serialising a &str to JSON cannot fail; the fallback keeps this panic-free regardless.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTENT: &str = "Hello from the other side. I must have called a thousand times.";
    const HEADER: &str = "eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9";

    // The vectors Kubernetes' cluster-bootstrap jws_test.go uses.
    #[test]
    fn upstream_vectors() {
        let cases = [
            (CONTENT, "my voice is my passcode", "VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8"),
            ("", "my voice is my passcode", "7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk"),
            (
                CONTENT,
                "my voice is my passcode. my voice is my passcode",
                "SFoKn0-YxqnvpSExt4LuCZ_7pvIBdX3SoUO_NsTpkdg",
            ),
        ];
        for (content, secret, signature) in cases {
            let expected = format!("{HEADER}..{signature}");
            assert_eq!(sign_detached(content, "joshua", secret), expected);
            assert!(verify_detached(content, &expected, "joshua", secret));
        }
    }

    #[test]
    fn header_is_exactly_what_go_jose_writes() {
        let jws = sign_detached("x", "abcdef", "0123456789abcdef");
        let header = jws.split("..").next().unwrap();
        assert_eq!(URL_SAFE_NO_PAD.decode(header).unwrap(), br#"{"alg":"HS256","kid":"abcdef"}"#);
    }

    #[test]
    fn verify_rejects_other_content_secret_id_and_truncation() {
        let jws = sign_detached(CONTENT, "joshua", "my voice is my passcode");
        assert!(!verify_detached("other", &jws, "joshua", "my voice is my passcode"));
        assert!(!verify_detached(CONTENT, &jws, "joshua", "my voice is not my passcode"));
        assert!(!verify_detached(CONTENT, &jws, "joshub", "my voice is my passcode"));
        assert!(!verify_detached(CONTENT, &jws[..jws.len() - 1], "joshua", "my voice is my passcode"));
        assert!(!verify_detached(CONTENT, "", "joshua", "my voice is my passcode"));
    }
}
