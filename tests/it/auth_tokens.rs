//! Service-account JWTs, bootstrap tokens as bearer tokens, and what their errors reveal.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::{SignedDuration, Timestamp};
use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::{Secret, ServiceAccount};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use karmadactl_apiserver::auth::authn::LEGACY_ISSUER;
use karmadactl_apiserver::auth::{
    AuthError, BearerKind, BoundObject, BoundTokenSpec, ServiceAccountTokenKind, ServiceAccountTokens,
    authenticate_bootstrap_token, bearer_kind, key_id_for,
};
use karmadactl_pki::token::{BootstrapToken, TokenSecret};
use karmadactl_pki::{KeyAlgorithm, PrivateKey};
use serde_json::{Value, json};

const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

fn tokens() -> ServiceAccountTokens {
    let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).unwrap();
    let kid = key_id_for(&key);
    assert_eq!(kid.len(), 43, "base64url of a SHA-256");
    ServiceAccountTokens::new(&key, ISSUER.into(), kid).unwrap()
}

fn now() -> Timestamp {
    "2026-03-01T10:00:00Z".parse().unwrap()
}

fn part(token: &str, i: usize) -> Value {
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(token.split('.').nth(i).unwrap()).unwrap()).unwrap()
}

/// The token with its payload replaced by `payload`, the signature kept.
fn with_payload(token: &str, payload: &Value) -> String {
    let parts: Vec<&str> = token.split('.').collect();
    format!("{}.{}.{}", parts[0], URL_SAFE_NO_PAD.encode(payload.to_string()), parts[2])
}

fn bound(t: &ServiceAccountTokens, audiences: &[&str], seconds: i64) -> String {
    let audiences: Vec<String> = audiences.iter().map(|a| (*a).to_owned()).collect();
    t.issue_bound("karmada-system", "agent", "uid-1", &audiences, seconds, now()).unwrap().0
}

#[test]
fn issued_tokens_are_es256_jwts() {
    let t = tokens();
    for token in [bound(&t, &[], 3600), t.issue_legacy("ns", "sa", "uid", "sa-token-abc").unwrap()] {
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(parts.len(), 3);
        for p in &parts {
            assert!(!p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{p}");
        }
        let header = part(&token, 0);
        assert_eq!(header["alg"], "ES256");
        assert_eq!(header["kid"], t.key_id());
        assert_eq!(URL_SAFE_NO_PAD.decode(parts[2]).unwrap().len(), 64, "r || s, not DER");
        assert_eq!(bearer_kind(&token), BearerKind::Jwt);
    }
    assert!(t.public_key_pem().starts_with("-----BEGIN PUBLIC KEY-----"));
}

#[test]
fn bound_token_round_trip() {
    let t = tokens();
    let (token, exp) = t.issue_bound("karmada-system", "agent", "uid-1", &[], 3600, now()).unwrap();
    assert_eq!(exp, now() + SignedDuration::from_hours(1));
    let claims = t.verify(&token, now()).unwrap();
    assert_eq!(
        (claims.namespace.as_str(), claims.name.as_str(), claims.uid.as_str()),
        ("karmada-system", "agent", "uid-1")
    );
    let ServiceAccountTokenKind::Bound { audiences, expiration, bound_object, id } = &claims.kind else {
        panic!("not bound: {claims:?}");
    };
    assert_eq!(audiences, &vec![ISSUER.to_owned()], "no audiences means the API audiences");
    assert_eq!(*expiration, exp);
    assert_eq!(*bound_object, None);
    assert!(id.is_some());
    assert_eq!(claims.secret_name(), None);
    let user = claims.user_info();
    assert_eq!(user.name, "system:serviceaccount:karmada-system:agent");
    assert_eq!(user.uid, "uid-1");
    assert_eq!(
        user.groups,
        vec!["system:serviceaccounts", "system:serviceaccounts:karmada-system", "system:authenticated"]
    );

    let payload = part(&token, 1);
    assert_eq!(payload["iss"], ISSUER);
    assert_eq!(payload["sub"], "system:serviceaccount:karmada-system:agent");
    assert_eq!(payload["aud"], json!([ISSUER]));
    assert_eq!(payload["iat"], now().as_second());
    assert_eq!(payload["nbf"], now().as_second());
    assert_eq!(payload["exp"], now().as_second() + 3600);
    assert_eq!(
        payload["kubernetes.io"],
        json!({"namespace": "karmada-system", "serviceaccount": {"name": "agent", "uid": "uid-1"}})
    );
}

#[test]
fn secret_bound_token_names_its_secret() {
    let t = tokens();
    let spec = BoundTokenSpec {
        namespace: "ns".into(),
        service_account_name: "sa".into(),
        service_account_uid: "u".into(),
        audiences: vec![ISSUER.into()],
        expiration_seconds: 600,
        bound_object: Some(BoundObject::Secret { name: "s".into(), uid: "su".into() }),
    };
    let (token, _) = t.issue_bound_token(&spec, now()).unwrap();
    assert_eq!(part(&token, 1)["kubernetes.io"]["secret"], json!({"name": "s", "uid": "su"}));
    let claims = t.verify(&token, now()).unwrap();
    assert_eq!(claims.secret_name(), Some("s"));
    let secret = |uid: &str| Secret {
        metadata: ObjectMeta { name: Some("s".into()), uid: Some(uid.into()), ..ObjectMeta::default() },
        ..Secret::default()
    };
    assert_eq!(claims.check_secret(&token, Some(&secret("su"))), Ok(()));
    assert!(matches!(
        claims.check_secret(&token, Some(&secret("other"))),
        Err(AuthError::BoundObjectUidMismatch { .. })
    ));
    assert_eq!(claims.check_secret(&token, None), Err(AuthError::TokenInvalidated));
}

#[test]
fn legacy_token_claims_are_exact() {
    let t = tokens();
    let token = t.issue_legacy("karmada-system", "agent", "uid-1", "agent-token-x7k2p").unwrap();
    let text = String::from_utf8(URL_SAFE_NO_PAD.decode(token.split('.').nth(1).unwrap()).unwrap()).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"iss":"kubernetes/serviceaccount","#,
            r#""kubernetes.io/serviceaccount/namespace":"karmada-system","#,
            r#""kubernetes.io/serviceaccount/secret.name":"agent-token-x7k2p","#,
            r#""kubernetes.io/serviceaccount/service-account.name":"agent","#,
            r#""kubernetes.io/serviceaccount/service-account.uid":"uid-1","#,
            r#""sub":"system:serviceaccount:karmada-system:agent"}"#
        )
    );
    // No expiry: valid a century later.
    let claims = t.verify(&token, now() + SignedDuration::from_hours(24 * 365 * 100)).unwrap();
    assert_eq!(claims.kind, ServiceAccountTokenKind::Legacy { secret_name: "agent-token-x7k2p".into() });
    assert_eq!(claims.secret_name(), Some("agent-token-x7k2p"));
    assert_eq!(claims.user_info().name, "system:serviceaccount:karmada-system:agent");
    assert!(claims.user_info().extra.is_empty());

    // The server checks that the Secret still holds the token and the account is the same one.
    let secret = |data: &str| Secret {
        metadata: ObjectMeta {
            name: Some("agent-token-x7k2p".into()),
            namespace: Some("karmada-system".into()),
            ..ObjectMeta::default()
        },
        type_: Some("kubernetes.io/service-account-token".into()),
        data: Some([("token".to_owned(), ByteString(data.as_bytes().to_vec()))].into()),
        ..Secret::default()
    };
    assert_eq!(claims.check_secret(&token, Some(&secret(&token))), Ok(()));
    assert_eq!(claims.check_secret(&token, Some(&secret("other"))), Err(AuthError::TokenMismatch));
    assert_eq!(claims.check_secret(&token, None), Err(AuthError::TokenInvalidated));
    let mut invalidated = secret(&token);
    invalidated.metadata.labels =
        Some([("kubernetes.io/legacy-token-invalid-since".to_owned(), "2026-01-01".to_owned())].into());
    assert_eq!(claims.check_secret(&token, Some(&invalidated)), Err(AuthError::TokenInvalidated));
    let account = |uid: &str| ServiceAccount {
        metadata: ObjectMeta { name: Some("agent".into()), uid: Some(uid.into()), ..ObjectMeta::default() },
        ..ServiceAccount::default()
    };
    assert_eq!(claims.check_service_account(Some(&account("uid-1"))), Ok(()));
    assert!(matches!(
        claims.check_service_account(Some(&account("uid-2"))),
        Err(AuthError::ServiceAccountUidMismatch { .. })
    ));
    assert!(matches!(claims.check_service_account(None), Err(AuthError::ServiceAccountGone { .. })));
}

#[test]
fn tampered_tokens_are_rejected() {
    let t = tokens();
    let token = bound(&t, &[], 3600);
    // Claims changed, signature kept.
    let mut payload = part(&token, 1);
    payload["kubernetes.io"]["namespace"] = json!("kube-system");
    assert_eq!(t.verify(&with_payload(&token, &payload), now()), Err(AuthError::InvalidSignature));
    let mut payload = part(&token, 1);
    payload["exp"] = json!(now().as_second() + 10 * 365 * 86400);
    assert_eq!(t.verify(&with_payload(&token, &payload), now()), Err(AuthError::InvalidSignature));
    // Signature bytes changed.
    let (rest, sig) = token.rsplit_once('.').unwrap();
    let mut sig = URL_SAFE_NO_PAD.decode(sig).unwrap();
    sig[10] ^= 1;
    assert_eq!(t.verify(&format!("{rest}.{}", URL_SAFE_NO_PAD.encode(&sig)), now()), Err(AuthError::InvalidSignature));
    // Signature dropped, or algorithm switched to "none" / HS256.
    assert_eq!(t.verify(&format!("{rest}."), now()), Err(AuthError::InvalidSignature));
    let parts: Vec<&str> = token.split('.').collect();
    for alg in ["none", "HS256", "RS256"] {
        let header = URL_SAFE_NO_PAD.encode(format!(r#"{{"alg":"{alg}"}}"#));
        let forged = format!("{header}.{}.{}", parts[1], parts[2]);
        assert_eq!(t.verify(&forged, now()), Err(AuthError::UnsupportedAlgorithm { alg: alg.into() }));
    }
    assert_eq!(t.verify("not-a-jwt", now()), Err(AuthError::MalformedJwt));
}

#[test]
fn tokens_of_another_key_are_rejected() {
    let (a, b) = (tokens(), tokens());
    assert_eq!(b.verify(&bound(&a, &[], 3600), now()), Err(AuthError::InvalidSignature));
    let legacy = a.issue_legacy("ns", "sa", "uid", "sa-token").unwrap();
    assert_eq!(b.verify(&legacy, now()), Err(AuthError::InvalidSignature));
}

#[test]
fn expired_and_future_bound_tokens_are_rejected() {
    let t = tokens();
    let token = bound(&t, &[], 600);
    assert!(t.verify(&token, now() + SignedDuration::from_secs(600)).is_ok());
    assert_eq!(t.verify(&token, now() + SignedDuration::from_secs(3600)), Err(AuthError::TokenExpired));
    assert_eq!(t.verify(&token, now() - SignedDuration::from_secs(3600)), Err(AuthError::TokenNotValidYet));
}

#[test]
fn audiences_must_meet() {
    let t = tokens().with_api_audiences(vec![ISSUER.into(), "karmada".into()]);
    let foreign = bound(&t, &["vault"], 3600);
    assert_eq!(
        t.verify(&foreign, now()),
        Err(AuthError::AudienceMismatch {
            token: vec!["vault".into()],
            accepted: vec![ISSUER.into(), "karmada".into()]
        })
    );
    // A TokenReview for "vault" accepts it, and refuses tokens for the API server.
    assert!(t.verify_for_audiences(&foreign, now(), &["vault".into()]).is_ok());
    let api = bound(&t, &["karmada", "other"], 3600);
    assert!(t.verify(&api, now()).is_ok());
    assert!(matches!(t.verify_for_audiences(&api, now(), &["vault".into()]), Err(AuthError::AudienceMismatch { .. })));
    // Legacy tokens have the API audiences implicitly.
    let legacy = t.issue_legacy("ns", "sa", "uid", "sa-token").unwrap();
    assert!(t.verify(&legacy, now()).is_ok());
    assert!(matches!(
        t.verify_for_audiences(&legacy, now(), &["vault".into()]),
        Err(AuthError::AudienceMismatch { .. })
    ));
}

#[test]
fn other_issuers_are_rejected() {
    let key = PrivateKey::generate(KeyAlgorithm::EcdsaP256).unwrap();
    let pem = key.to_pem();
    let a = ServiceAccountTokens::new(&key, "https://a.example".into(), String::new()).unwrap();
    let b = ServiceAccountTokens::new(&PrivateKey::from_pem(&pem).unwrap(), "https://b.example".into(), String::new())
        .unwrap();
    let token = a.issue_bound("ns", "sa", "uid", &["https://b.example".into()], 600, now()).unwrap().0;
    assert_eq!(b.verify(&token, now()), Err(AuthError::UnknownIssuer { issuer: "https://a.example".into() }));
    // Same key, so only the issuer differs; the legacy issuer is accepted by both.
    assert_eq!(LEGACY_ISSUER, "kubernetes/serviceaccount");
    assert!(b.verify(&a.issue_legacy("ns", "sa", "uid", "s").unwrap(), now()).is_ok());
}

// ---- bootstrap tokens ----

const TOKEN: &str = "abcdef.0123456789abcdef";
const SECRET_PART: &str = "0123456789abcdef";

fn token_secret(expiration: Option<Timestamp>, usages: &[&str], groups: &[&str]) -> Secret {
    TokenSecret {
        token: BootstrapToken::parse(TOKEN).unwrap(),
        description: String::new(),
        expiration,
        usages: usages.iter().map(|u| (*u).to_owned()).collect(),
        groups: groups.iter().map(|g| (*g).to_owned()).collect(),
    }
    .to_secret()
    .unwrap()
}

fn good_secret() -> Secret {
    token_secret(
        Some(now() + SignedDuration::from_hours(24)),
        &["signing", "authentication"],
        &["system:bootstrappers:karmada:default-cluster-token"],
    )
}

#[test]
fn bootstrap_token_valid() {
    assert_eq!(bearer_kind(TOKEN), BearerKind::Bootstrap { id: "abcdef".into() });
    let user = authenticate_bootstrap_token(TOKEN, Some(&good_secret()), now()).unwrap();
    assert_eq!(user.name, "system:bootstrap:abcdef");
    assert_eq!(
        user.groups,
        vec!["system:bootstrappers", "system:bootstrappers:karmada:default-cluster-token", "system:authenticated"]
    );
    assert!(user.uid.is_empty() && user.extra.is_empty());
    // No expiration: never expires.
    let forever = token_secret(None, &["authentication"], &[]);
    let user = authenticate_bootstrap_token(TOKEN, Some(&forever), now()).unwrap();
    assert_eq!(user.groups, vec!["system:bootstrappers", "system:authenticated"]);
}

#[test]
fn bootstrap_token_failures() {
    let id = || "abcdef".to_owned();
    let expired = token_secret(Some(now() - SignedDuration::from_secs(1)), &["authentication"], &[]);
    let signing_only = token_secret(None, &["signing"], &[]);
    let mut wrong_type = good_secret();
    wrong_type.type_ = Some("Opaque".into());
    let mut no_type = good_secret();
    no_type.type_ = None;
    let wrong_secret = "abcdef.0123456789abcdee";
    let cases: Vec<(&str, &str, Option<&Secret>, AuthError)> = vec![
        ("expired", TOKEN, Some(&expired), AuthError::BootstrapTokenExpired { id: id() }),
        ("unknown", TOKEN, None, AuthError::BootstrapTokenNotFound { id: id() }),
        ("wrong secret", wrong_secret, Some(&signing_only), AuthError::BootstrapTokenWrongSecret { id: id() }),
        (
            "no authentication usage",
            TOKEN,
            Some(&signing_only),
            AuthError::BootstrapTokenNotForAuthentication { id: id() },
        ),
        ("wrong type", TOKEN, Some(&wrong_type), AuthError::BootstrapTokenInvalidSecret { id: id() }),
        ("no type", TOKEN, Some(&no_type), AuthError::BootstrapTokenInvalidSecret { id: id() }),
        ("malformed", "abcdef.0123456789ABCDEF", Some(&signing_only), AuthError::NotBootstrapToken),
    ];
    for (what, bearer, secret, want) in cases {
        let got = authenticate_bootstrap_token(bearer, secret, now());
        assert_eq!(got, Err(want), "{what}");
        let text = format!("{} {:?}", got.as_ref().unwrap_err(), got);
        for secret_text in [SECRET_PART, "0123456789abcdee", "0123456789ABCDEF", TOKEN] {
            assert!(!text.contains(secret_text), "{what}: {text}");
        }
    }
    // The wrong-secret check runs against the real secret too, whatever else is wrong.
    assert_eq!(
        authenticate_bootstrap_token(wrong_secret, Some(&good_secret()), now()),
        Err(AuthError::BootstrapTokenWrongSecret { id: id() })
    );
}

#[test]
fn jwt_errors_reveal_no_token() {
    let t = tokens();
    let token = bound(&t, &["vault"], 600);
    let errors = [
        t.verify(&token, now()).unwrap_err(),
        t.verify(&token, now() + SignedDuration::from_hours(2)).unwrap_err(),
        tokens().verify(&token, now()).unwrap_err(),
        t.verify(&token[..token.len() - 2], now()).unwrap_err(),
    ];
    let signature = token.rsplit('.').next().unwrap();
    for e in errors {
        let text = format!("{e} {e:?}");
        assert!(!text.contains(signature) && !text.contains(&token[..40]), "{text}");
    }
}
