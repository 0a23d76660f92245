//! Authentication: turning a client certificate or a bearer token into a [`UserInfo`].

mod bootstrap;
mod jwt;
mod sa_claims;
mod sa_payload;
mod service_account;
mod user;
mod x509;

pub use bootstrap::authenticate_bootstrap_token;
pub use service_account::{
    BoundObject, BoundTokenSpec, LEGACY_ISSUER, ServiceAccountClaims, ServiceAccountTokenKind, ServiceAccountTokens,
    key_id_for,
};
pub use user::{
    ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, CREDENTIAL_ID_KEY, PRIVILEGED_GROUP, UserInfo,
    service_account_groups, service_account_username, split_service_account_username,
};
pub use x509::{ClientCertIdentity, read_client_cert, user_from_client_cert, user_from_client_cert_at};

/// What kind of bearer token a request carries, so the server knows which object to look up
/// before authenticating it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BearerKind {
    /// A bootstrap token: look up `kube-system/bootstrap-token-<id>` and call
    /// [`authenticate_bootstrap_token`].
    Bootstrap { id: String },
    /// Three base64url parts: a service-account JWT for [`ServiceAccountTokens::verify`].
    Jwt,
    /// Neither; kube-apiserver has no authenticator for it, so the request is unauthorized.
    Unknown,
}

/// Classifies a bearer token by its shape only; nothing is verified.
pub fn bearer_kind(token: &str) -> BearerKind {
    if let Ok(parsed) = karmadactl_pki::token::BootstrapToken::parse(token) {
        return BearerKind::Bootstrap { id: parsed.id().to_owned() };
    }
    let parts: Vec<&str> = token.split('.').collect();
    let base64url = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if parts.len() == 3 && parts.iter().all(base64url) { BearerKind::Jwt } else { BearerKind::Unknown }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_kinds() {
        assert_eq!(bearer_kind("abcdef.0123456789abcdef"), BearerKind::Bootstrap { id: "abcdef".into() });
        assert_eq!(bearer_kind("eyJh.eyJp.c2ln"), BearerKind::Jwt);
        for other in ["", "abcdef.0123456789ABCDEF", "a.b", "a..c", "a.b.c.d", "a+b.c.d", "plain"] {
            assert_eq!(bearer_kind(other), BearerKind::Unknown, "{other}");
        }
    }
}
