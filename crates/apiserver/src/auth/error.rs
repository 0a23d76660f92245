//! Why a credential was refused; messages never repeat a token, a secret or a signature.

/// Errors from authenticating a request. Every variant maps to HTTP 401 Unauthorized; the
/// server may log the message, which is why none of them carries credential material (the
/// bootstrap token ID is public, it names the Secret, and is the only part ever shown).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// The client certificate could not be parsed.
    #[error("the client certificate could not be parsed")]
    InvalidCertificate,
    /// The client certificate is outside its validity period.
    #[error("the client certificate is not valid at this time (valid from {not_before} to {not_after})")]
    CertificateNotValidNow { not_before: String, not_after: String },
    /// The client certificate has no subject common name, so it names no user. kube-apiserver
    /// treats this as "no opinion" and the request carries on as anonymous.
    #[error("the client certificate has no subject common name")]
    NoCommonName,
    /// The signing key cannot sign ES256 tokens.
    #[error("the service account signing key must be an ECDSA P-256 key, not {algorithm}")]
    UnsupportedSigningKey { algorithm: &'static str },
    /// Signing a token failed inside ring.
    #[error("signing the service account token failed")]
    Signing,
    /// The bearer token is not a compact JWS with a JSON header and payload.
    #[error("the bearer token is not a well-formed JWT")]
    MalformedJwt,
    /// The JWT header names an algorithm other than ES256.
    #[error("the token signing algorithm {alg:?} is not supported, expected \"ES256\"")]
    UnsupportedAlgorithm { alg: String },
    /// The JWT signature does not verify with the service account public key.
    #[error("the token signature is invalid")]
    InvalidSignature,
    /// The JWT `iss` is neither the legacy issuer nor the configured one.
    #[error("the token issuer {issuer:?} is not accepted")]
    UnknownIssuer { issuer: String },
    /// A claim the token kind requires is missing or inconsistent.
    #[error("the service account token claims are invalid: {reason}")]
    InvalidClaims { reason: &'static str },
    /// The token `exp` (with one minute of leeway) has passed.
    #[error("service account token has expired")]
    TokenExpired,
    /// The token `nbf` (with one minute of leeway) has not been reached.
    #[error("service account token is not valid yet")]
    TokenNotValidYet,
    /// The token `iat` (with one minute of leeway) lies in the future.
    #[error("service account token is issued in the future")]
    IssuedInTheFuture,
    /// None of the token audiences is one the API server accepts.
    #[error("token audiences {token:?} is invalid for the target audiences {accepted:?}")]
    AudienceMismatch { token: Vec<String>, accepted: Vec<String> },
    /// The service account named by the token no longer exists or is being deleted.
    #[error("service account {namespace}/{name} has been deleted")]
    ServiceAccountGone { namespace: String, name: String },
    /// The service account was recreated: its UID differs from the token's.
    #[error("service account UID ({actual}) does not match claim ({claimed})")]
    ServiceAccountUidMismatch { actual: String, claimed: String },
    /// The Secret a token belongs to (legacy) or is bound to no longer exists or is being deleted.
    #[error("Token has been invalidated")]
    TokenInvalidated,
    /// The legacy token Secret holds a different token.
    #[error("Token does not match server's copy")]
    TokenMismatch,
    /// The Secret or Pod a token is bound to was recreated: its UID differs from the token's.
    #[error("{kind} UID ({actual}) does not match service account {kind} ref claim ({claimed})")]
    BoundObjectUidMismatch { kind: &'static str, actual: String, claimed: String },
    /// The bearer token is not of the bootstrap token form `[a-z0-9]{6}.[a-z0-9]{16}`.
    #[error("the bearer token is not a bootstrap token")]
    NotBootstrapToken,
    /// No `kube-system/bootstrap-token-<id>` Secret exists, or it is being deleted.
    #[error("no bootstrap token Secret for token ID {id:?}")]
    BootstrapTokenNotFound { id: String },
    /// The bootstrap token Secret is not of type `bootstrap.kubernetes.io/token` or is malformed.
    #[error("the bootstrap token Secret for token ID {id:?} is invalid")]
    BootstrapTokenInvalidSecret { id: String },
    /// The presented secret differs from the Secret's `token-secret`.
    #[error("the bootstrap token {id:?} has a wrong secret")]
    BootstrapTokenWrongSecret { id: String },
    /// The bootstrap token's `expiration` has passed.
    #[error("the bootstrap token {id:?} has expired")]
    BootstrapTokenExpired { id: String },
    /// The Secret lacks `usage-bootstrap-authentication: "true"`.
    #[error("the bootstrap token {id:?} is not marked usage-bootstrap-authentication=true")]
    BootstrapTokenNotForAuthentication { id: String },
    /// `auth-extra-groups` names a group outside `system:bootstrappers:`.
    #[error("the bootstrap token {id:?} has an invalid auth-extra-groups value")]
    BootstrapTokenInvalidGroups { id: String },
}
