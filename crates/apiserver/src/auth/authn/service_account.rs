//! Service-account JWTs: issuing legacy and bound tokens and verifying them, as kube-apiserver.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::Timestamp;
use karmadactl_pki::PrivateKey;
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::jwt;
use super::sa_payload::{BoundPayload, KubernetesClaims, LegacyPayload, RawClaims, Ref, bound_claims, legacy_claims};
use super::user::service_account_username;
use crate::auth::AuthError;

pub use super::sa_claims::{BoundObject, ServiceAccountClaims, ServiceAccountTokenKind};

/// The `iss` of secret-based (legacy) tokens.
pub const LEGACY_ISSUER: &str = "kubernetes/serviceaccount";

/// What a TokenRequest asks for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoundTokenSpec {
    pub namespace: String,
    pub service_account_name: String,
    pub service_account_uid: String,
    /// Empty means the API server's audiences, as the TokenRequest API defaults them.
    pub audiences: Vec<String>,
    pub expiration_seconds: i64,
    pub bound_object: Option<BoundObject>,
}

/// Issues and verifies service-account tokens with one ECDSA P-256 key.
/// `Debug` shows the issuer and key ID, never the key.
pub struct ServiceAccountTokens {
    key_pair: EcdsaKeyPair,
    rng: SystemRandom,
    public_key_pem: String,
    issuer: String,
    key_id: String,
    api_audiences: Vec<String>,
}

impl std::fmt::Debug for ServiceAccountTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceAccountTokens")
            .field("issuer", &self.issuer)
            .field("key_id", &self.key_id)
            .field("api_audiences", &self.api_audiences)
            .finish_non_exhaustive()
    }
}

/// kube-apiserver's key ID: base64url(SHA-256(DER SubjectPublicKeyInfo)).
pub fn key_id_for(key: &PrivateKey) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(key.public_key_der()))
}

impl ServiceAccountTokens {
    /// Tokens signed by `signing_key` (ECDSA P-256), bound tokens issued by `issuer`. The API
    /// audiences default to `[issuer]`, as kube-apiserver without `--api-audiences`.
    pub fn new(signing_key: &PrivateKey, issuer: String, key_id: String) -> Result<Self, AuthError> {
        let algorithm = signing_key.algorithm_name();
        if algorithm != "ECDSA P-256" {
            return Err(AuthError::UnsupportedSigningKey { algorithm });
        }
        let rng = SystemRandom::new();
        let pkcs8 = signing_key.pkcs8_der();
        let key_pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &pkcs8, &rng)
            .map_err(|_| AuthError::UnsupportedSigningKey { algorithm })?;
        Ok(ServiceAccountTokens {
            key_pair,
            rng,
            public_key_pem: signing_key.public_key_pem(),
            api_audiences: vec![issuer.clone()],
            issuer,
            key_id,
        })
    }

    /// The same, accepting tokens for these audiences (`--api-audiences`) instead.
    pub fn with_api_audiences(mut self, audiences: Vec<String>) -> Self {
        self.api_audiences = audiences;
        self
    }

    /// The issuer of bound tokens.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The `kid` of issued tokens.
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// The audiences the API server accepts, and gives TokenRequests that name none.
    pub fn api_audiences(&self) -> &[String] {
        &self.api_audiences
    }

    /// The verification key as PEM `PUBLIC KEY`.
    pub fn public_key_pem(&self) -> &str {
        &self.public_key_pem
    }

    /// A secret-based token as the token controller puts in a `kubernetes.io/service-account-token`
    /// Secret: no audience, no expiry.
    pub fn issue_legacy(&self, ns: &str, sa_name: &str, sa_uid: &str, secret_name: &str) -> Result<String, AuthError> {
        let payload = LegacyPayload {
            iss: LEGACY_ISSUER,
            namespace: ns,
            secret_name,
            service_account_name: sa_name,
            service_account_uid: sa_uid,
            sub: service_account_username(ns, sa_name),
        };
        self.sign(&payload)
    }

    /// A TokenRequest token for the service account, valid `expiration_seconds` from `now`;
    /// returns it with its expiration (whole seconds, as `status.expirationTimestamp`).
    pub fn issue_bound(
        &self,
        ns: &str,
        sa_name: &str,
        sa_uid: &str,
        audiences: &[String],
        expiration_seconds: i64,
        now: Timestamp,
    ) -> Result<(String, Timestamp), AuthError> {
        let spec = BoundTokenSpec {
            namespace: ns.into(),
            service_account_name: sa_name.into(),
            service_account_uid: sa_uid.into(),
            audiences: audiences.to_vec(),
            expiration_seconds,
            bound_object: None,
        };
        self.issue_bound_token(&spec, now)
    }

    /// [`ServiceAccountTokens::issue_bound`] with a bound Secret or Pod.
    pub fn issue_bound_token(&self, spec: &BoundTokenSpec, now: Timestamp) -> Result<(String, Timestamp), AuthError> {
        let iat = now.as_second();
        let exp = iat.saturating_add(spec.expiration_seconds);
        let expiration =
            Timestamp::from_second(exp).map_err(|_| AuthError::InvalidClaims { reason: "exp out of range" })?;
        let audiences = if spec.audiences.is_empty() { &self.api_audiences } else { &spec.audiences };
        let object_ref = |o: &BoundObject| Ref { name: o.name().to_owned(), uid: o.uid().to_owned() };
        let payload = BoundPayload {
            aud: audiences,
            exp,
            iat,
            iss: &self.issuer,
            jti: self.uuid()?,
            kubernetes: KubernetesClaims {
                namespace: spec.namespace.clone(),
                node: spec.bound_object.as_ref().filter(|o| matches!(o, BoundObject::Node { .. })).map(object_ref),
                pod: spec.bound_object.as_ref().filter(|o| matches!(o, BoundObject::Pod { .. })).map(object_ref),
                secret: spec.bound_object.as_ref().filter(|o| matches!(o, BoundObject::Secret { .. })).map(object_ref),
                serviceaccount: Ref { name: spec.service_account_name.clone(), uid: spec.service_account_uid.clone() },
            },
            nbf: iat,
            sub: service_account_username(&spec.namespace, &spec.service_account_name),
        };
        Ok((self.sign(&payload)?, expiration))
    }

    /// Verifies a token for the API server's own audiences. See [`Self::verify_for_audiences`].
    pub fn verify(&self, token: &str, now: Timestamp) -> Result<ServiceAccountClaims, AuthError> {
        self.verify_for_audiences(token, now, &self.api_audiences)
    }

    /// Verifies the signature (ES256 with this key), the issuer, the claims each kind needs,
    /// `exp`/`nbf`/`iat` with a minute of leeway, and that the token's audiences meet `audiences`
    /// (legacy tokens count as having the API audiences). The caller must still check that the
    /// objects the claims name exist ([`ServiceAccountClaims::check_service_account`], ...).
    pub fn verify_for_audiences(
        &self,
        token: &str,
        now: Timestamp,
        audiences: &[String],
    ) -> Result<ServiceAccountClaims, AuthError> {
        let payload = jwt::verify(token, self.key_pair.public_key().as_ref())?;
        let raw: RawClaims = serde_json::from_slice(&payload).map_err(|_| AuthError::MalformedJwt)?;
        let claims = match raw.iss.as_deref() {
            Some(LEGACY_ISSUER) => legacy_claims(raw)?,
            Some(iss) if iss == self.issuer => bound_claims(raw, now)?,
            other => return Err(AuthError::UnknownIssuer { issuer: other.unwrap_or_default().to_owned() }),
        };
        let token_audiences = match &claims.kind {
            ServiceAccountTokenKind::Bound { audiences, .. } if !audiences.is_empty() => audiences.as_slice(),
            _ => self.api_audiences.as_slice(),
        };
        let accepted = if audiences.is_empty() { &self.api_audiences } else { audiences };
        if !self.api_audiences.is_empty() && !token_audiences.iter().any(|a| accepted.contains(a)) {
            return Err(AuthError::AudienceMismatch { token: token_audiences.to_vec(), accepted: accepted.to_vec() });
        }
        Ok(claims)
    }

    fn sign<T: Serialize>(&self, payload: &T) -> Result<String, AuthError> {
        // Serialising these plain structs of strings and integers cannot fail.
        let json = serde_json::to_vec(payload).map_err(|_| AuthError::Signing)?;
        jwt::sign(&self.key_pair, &self.rng, &self.key_id, &json)
    }

    /// A random (version 4) UUID for `jti`, as kube 1.29+ puts in every bound token.
    fn uuid(&self) -> Result<String, AuthError> {
        let mut b = [0u8; 16];
        self.rng.fill(&mut b).map_err(|_| AuthError::Signing)?;
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
        // 32 ASCII hex digits, so these byte ranges are in bounds and on character boundaries.
        Ok(format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_pki::KeyAlgorithm;

    fn tokens() -> ServiceAccountTokens {
        let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).unwrap();
        let kid = key_id_for(&key);
        ServiceAccountTokens::new(&key, "https://kubernetes.default.svc.cluster.local".into(), kid).unwrap()
    }

    fn payload_of(token: &str) -> serde_json::Value {
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(token.split('.').nth(1).unwrap()).unwrap()).unwrap()
    }

    #[test]
    fn bound_payload_keys_are_sorted_and_complete() {
        let t = tokens();
        let now: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let spec = BoundTokenSpec {
            namespace: "ns".into(),
            service_account_name: "sa".into(),
            service_account_uid: "u1".into(),
            audiences: vec![],
            expiration_seconds: 3600,
            bound_object: Some(BoundObject::Pod { name: "p".into(), uid: "pu".into() }),
        };
        let (token, exp) = t.issue_bound_token(&spec, now).unwrap();
        assert_eq!(exp, "2026-01-01T01:00:00Z".parse().unwrap());
        let text = String::from_utf8(URL_SAFE_NO_PAD.decode(token.split('.').nth(1).unwrap()).unwrap()).unwrap();
        assert!(text.starts_with(r#"{"aud":["https://kubernetes.default.svc.cluster.local"],"exp":"#), "{text}");
        let p = payload_of(&token);
        assert_eq!(p["kubernetes.io"]["pod"]["uid"], "pu");
        assert_eq!(p["jti"].as_str().unwrap().len(), 36);
        let claims = t.verify(&token, now).unwrap();
        assert_eq!(claims.bound_object(), Some(&BoundObject::Pod { name: "p".into(), uid: "pu".into() }));
        let user = claims.user_info();
        assert_eq!(user.extra["authentication.kubernetes.io/pod-name"], vec!["p"]);
        assert!(user.extra["authentication.kubernetes.io/credential-id"][0].starts_with("JTI="));
    }

    #[test]
    fn a_node_bound_token_names_the_node_and_lives_with_it() {
        let t = tokens();
        let now: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let node = BoundObject::Node { name: "n1".into(), uid: "nu".into() };
        let spec = BoundTokenSpec {
            namespace: "ns".into(),
            service_account_name: "sa".into(),
            service_account_uid: "u1".into(),
            expiration_seconds: 3600,
            bound_object: Some(node.clone()),
            ..Default::default()
        };
        let (token, _) = t.issue_bound_token(&spec, now).unwrap();
        assert_eq!(payload_of(&token)["kubernetes.io"]["node"], serde_json::json!({"name": "n1", "uid": "nu"}));
        let claims = t.verify(&token, now).unwrap();
        assert_eq!(claims.bound_object(), Some(&node));
        let node_with = |uid: &str| -> k8s_openapi::api::core::v1::Node {
            serde_json::from_value(serde_json::json!({"metadata": {"name": "n1", "uid": uid}})).unwrap()
        };
        assert_eq!(claims.check_node(Some(&node_with("nu"))), Ok(()));
        assert_eq!(claims.check_node(None), Err(AuthError::TokenInvalidated));
        assert!(matches!(
            claims.check_node(Some(&node_with("other"))),
            Err(AuthError::BoundObjectUidMismatch { kind: "node", .. })
        ));
        // A Node-bound token is not checked against pods.
        assert_eq!(claims.check_pod(None), Ok(()));
    }

    #[test]
    fn leeway_is_one_minute() {
        let t = tokens();
        let now: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let (token, _) = t.issue_bound("ns", "sa", "u", &[], 600, now).unwrap();
        let at = |s: i64| now + jiff::SignedDuration::from_secs(s);
        assert!(t.verify(&token, at(660)).is_ok());
        assert_eq!(t.verify(&token, at(661)), Err(AuthError::TokenExpired));
        assert!(t.verify(&token, at(-60)).is_ok());
        assert_eq!(t.verify(&token, at(-61)), Err(AuthError::TokenNotValidYet));
    }

    #[test]
    fn only_p256_keys_sign() {
        let key = PrivateKey::generate(KeyAlgorithm::Rsa3072);
        // RSA generation is slow in debug builds but optimised in this crate's dev profile.
        let key = key.unwrap();
        let e = ServiceAccountTokens::new(&key, "x".into(), String::new()).unwrap_err();
        assert_eq!(e, AuthError::UnsupportedSigningKey { algorithm: "RSA" });
    }

    #[test]
    fn debug_hides_the_key() {
        let debug = format!("{:?}", tokens());
        assert!(debug.starts_with("ServiceAccountTokens { issuer: "), "{debug}");
    }
}
