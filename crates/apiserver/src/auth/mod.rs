//! Who is calling (client certificates, service-account and bootstrap tokens) and whether RBAC lets them.

pub mod authn;
mod error;
pub mod fuzzing;
pub mod rbac;

pub use authn::{
    BearerKind, BoundObject, BoundTokenSpec, ClientCertIdentity, ServiceAccountClaims, ServiceAccountTokenKind,
    ServiceAccountTokens, UserInfo, authenticate_bootstrap_token, bearer_kind, key_id_for, read_client_cert,
    user_from_client_cert, user_from_client_cert_at,
};
pub use error::AuthError;
pub use rbac::{Attributes, Decision, RbacSnapshot, aggregate_cluster_roles, authorize, default_policy, rules_for};
