//! What a verified service-account token says, and the checks against the objects it names.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Node, Pod, Secret, ServiceAccount};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use subtle::ConstantTimeEq;

use super::user::{CREDENTIAL_ID_KEY, UserInfo, service_account_groups, service_account_username};
use crate::auth::AuthError;

const POD_NAME_KEY: &str = "authentication.kubernetes.io/pod-name";
const POD_UID_KEY: &str = "authentication.kubernetes.io/pod-uid";
/// The label the legacy-token cleaner sets on Secrets whose tokens may no longer be used.
const INVALID_SINCE_LABEL: &str = "kubernetes.io/legacy-token-invalid-since";

/// The object a bound token's lifetime is tied to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoundObject {
    Secret { name: String, uid: String },
    Pod { name: String, uid: String },
    Node { name: String, uid: String },
}

impl BoundObject {
    /// The object's name.
    pub fn name(&self) -> &str {
        match self {
            BoundObject::Secret { name, .. } | BoundObject::Pod { name, .. } | BoundObject::Node { name, .. } => name,
        }
    }

    /// The object's UID.
    pub fn uid(&self) -> &str {
        match self {
            BoundObject::Secret { uid, .. } | BoundObject::Pod { uid, .. } | BoundObject::Node { uid, .. } => uid,
        }
    }
}

/// Which kind of service-account token was presented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServiceAccountTokenKind {
    /// A token stored in a `kubernetes.io/service-account-token` Secret of this name.
    Legacy { secret_name: String },
    /// A TokenRequest token.
    Bound {
        audiences: Vec<String>,
        expiration: Timestamp,
        bound_object: Option<BoundObject>,
        /// `jti`, when present.
        id: Option<String>,
    },
}

/// A verified service-account token: which account, and how it was issued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceAccountClaims {
    pub kind: ServiceAccountTokenKind,
    pub namespace: String,
    /// The service account's name.
    pub name: String,
    /// The service account's UID when the token was issued.
    pub uid: String,
}

impl ServiceAccountClaims {
    /// The Secret to look up in [`Self::namespace`]: the legacy token's own Secret, or the
    /// Secret a bound token is bound to.
    pub fn secret_name(&self) -> Option<&str> {
        match &self.kind {
            ServiceAccountTokenKind::Legacy { secret_name } => Some(secret_name),
            ServiceAccountTokenKind::Bound { bound_object: Some(BoundObject::Secret { name, .. }), .. } => Some(name),
            ServiceAccountTokenKind::Bound { .. } => None,
        }
    }

    /// The object a bound token is bound to.
    pub fn bound_object(&self) -> Option<&BoundObject> {
        match &self.kind {
            ServiceAccountTokenKind::Bound { bound_object, .. } => bound_object.as_ref(),
            ServiceAccountTokenKind::Legacy { .. } => None,
        }
    }

    /// The user: `system:serviceaccount:<ns>:<name>`, groups `system:serviceaccounts`,
    /// `system:serviceaccounts:<ns>` and `system:authenticated`; for bound tokens the pod and
    /// `jti` in `extra`, as kube-apiserver.
    pub fn user_info(&self) -> UserInfo {
        let mut user = UserInfo {
            name: service_account_username(&self.namespace, &self.name),
            uid: self.uid.clone(),
            groups: service_account_groups(&self.namespace),
            ..UserInfo::default()
        };
        if let ServiceAccountTokenKind::Bound { bound_object, id, .. } = &self.kind {
            if let Some(BoundObject::Pod { name, uid }) = bound_object
                && !name.is_empty()
                && !uid.is_empty()
            {
                user.extra.insert(POD_NAME_KEY.into(), vec![name.clone()]);
                user.extra.insert(POD_UID_KEY.into(), vec![uid.clone()]);
            }
            if let Some(jti) = id.as_deref().filter(|j| !j.is_empty()) {
                user.extra.insert(CREDENTIAL_ID_KEY.into(), vec![format!("JTI={jti}")]);
            }
        }
        user.with_authenticated_group()
    }

    /// The service account `<namespace>/<name>` looked up by the server must exist, not be
    /// being deleted, and have the UID the token was issued for.
    pub fn check_service_account(&self, service_account: Option<&ServiceAccount>) -> Result<(), AuthError> {
        let gone = || AuthError::ServiceAccountGone { namespace: self.namespace.clone(), name: self.name.clone() };
        let sa = service_account.ok_or_else(gone)?;
        if sa.metadata.deletion_timestamp.is_some() {
            return Err(gone());
        }
        let actual = sa.metadata.uid.as_deref().unwrap_or_default();
        if actual != self.uid {
            return Err(AuthError::ServiceAccountUidMismatch { actual: actual.into(), claimed: self.uid.clone() });
        }
        Ok(())
    }

    /// The Secret named by [`Self::secret_name`] must exist and not be being deleted; for a
    /// legacy token it must hold this very `token` and not be marked invalid by the legacy
    /// token cleaner, for a Secret-bound token it must have the bound UID. Tokens that name no
    /// Secret pass.
    pub fn check_secret(&self, token: &str, secret: Option<&Secret>) -> Result<(), AuthError> {
        let Some(expected_name) = self.secret_name() else {
            return Ok(());
        };
        let secret = secret.ok_or(AuthError::TokenInvalidated)?;
        if secret.metadata.deletion_timestamp.is_some() || secret.metadata.name.as_deref() != Some(expected_name) {
            return Err(AuthError::TokenInvalidated);
        }
        match &self.kind {
            ServiceAccountTokenKind::Legacy { .. } => {
                let labels = secret.metadata.labels.as_ref();
                if labels.and_then(|l| l.get(INVALID_SINCE_LABEL)).is_some_and(|v| !v.is_empty()) {
                    return Err(AuthError::TokenInvalidated);
                }
                let stored =
                    secret.data.as_ref().and_then(|d| d.get("token")).map(|b| b.0.as_slice()).unwrap_or_default();
                // Constant time: the stored token is a credential.
                if stored.len() != token.len() || !bool::from(stored.ct_eq(token.as_bytes())) {
                    return Err(AuthError::TokenMismatch);
                }
                Ok(())
            }
            ServiceAccountTokenKind::Bound { .. } => {
                check_uid("secret", secret.metadata.uid.as_deref(), self.bound_object().map(BoundObject::uid))
            }
        }
    }

    /// For a Pod-bound token, the Pod named by its [`BoundObject`] must exist, not be being
    /// deleted and have the bound UID. Other tokens pass.
    pub fn check_pod(&self, pod: Option<&Pod>) -> Result<(), AuthError> {
        match self.bound_object() {
            Some(BoundObject::Pod { uid, .. }) => check_live("pod", pod.map(|p| &p.metadata), uid),
            _ => Ok(()),
        }
    }

    /// For a Node-bound token, the same of the Node it names.
    pub fn check_node(&self, node: Option<&Node>) -> Result<(), AuthError> {
        match self.bound_object() {
            Some(BoundObject::Node { uid, .. }) => check_live("node", node.map(|n| &n.metadata), uid),
            _ => Ok(()),
        }
    }
}

/// The bound object exists, is not being deleted and is the incarnation the token names.
fn check_live(kind: &'static str, meta: Option<&ObjectMeta>, uid: &str) -> Result<(), AuthError> {
    let meta = meta.ok_or(AuthError::TokenInvalidated)?;
    if meta.deletion_timestamp.is_some() {
        return Err(AuthError::TokenInvalidated);
    }
    check_uid(kind, meta.uid.as_deref(), Some(uid))
}

fn check_uid(kind: &'static str, actual: Option<&str>, claimed: Option<&str>) -> Result<(), AuthError> {
    let (actual, claimed) = (actual.unwrap_or_default(), claimed.unwrap_or_default());
    if actual == claimed {
        Ok(())
    } else {
        Err(AuthError::BoundObjectUidMismatch { kind, actual: actual.into(), claimed: claimed.into() })
    }
}
