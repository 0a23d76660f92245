//! Bootstrap tokens as bearer tokens, as kube-apiserver's `--enable-bootstrap-token-auth`.

use std::collections::BTreeSet;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Secret;
use karmadactl_pki::token::{BootstrapToken, SECRET_TYPE, TokenSecret, validate_group};

use super::user::UserInfo;
use crate::auth::AuthError;

/// The user name prefix of bootstrap token users.
const USER_PREFIX: &str = "system:bootstrap:";
/// Every bootstrap token user is in this group.
const DEFAULT_GROUP: &str = "system:bootstrappers";
const GROUPS_KEY: &str = "auth-extra-groups";

/// Authenticates `bearer` (`<id>.<secret>`) against `secret`, the Secret the server found at
/// `kube-system/bootstrap-token-<id>` (`None` when there is none). The user is
/// `system:bootstrap:<id>` in `system:bootstrappers`, the Secret's `auth-extra-groups` (sorted,
/// as upstream) and `system:authenticated`.
pub fn authenticate_bootstrap_token(
    bearer: &str,
    secret: Option<&Secret>,
    now: Timestamp,
) -> Result<UserInfo, AuthError> {
    let presented = BootstrapToken::parse(bearer).map_err(|_| AuthError::NotBootstrapToken)?;
    let id = presented.id().to_owned();
    let secret = match secret {
        Some(s) if s.metadata.deletion_timestamp.is_none() => s,
        _ => return Err(AuthError::BootstrapTokenNotFound { id }),
    };
    // Upstream insists on the type; TokenSecret::from_secret would let a Secret without one pass.
    if secret.type_.as_deref() != Some(SECRET_TYPE) || secret.data.is_none() {
        return Err(AuthError::BootstrapTokenInvalidSecret { id });
    }
    let stored =
        TokenSecret::from_secret(secret).map_err(|_| AuthError::BootstrapTokenInvalidSecret { id: id.clone() })?;
    if stored.token.id() != id {
        return Err(AuthError::BootstrapTokenInvalidSecret { id });
    }
    // Constant-time comparison lives in BootstrapToken.
    if !stored.token.secret_matches(presented.secret()) {
        return Err(AuthError::BootstrapTokenWrongSecret { id });
    }
    if stored.is_expired(now) {
        return Err(AuthError::BootstrapTokenExpired { id });
    }
    if !stored.usages.iter().any(|u| u == "authentication") {
        return Err(AuthError::BootstrapTokenNotForAuthentication { id });
    }
    let groups = groups_of(secret).ok_or_else(|| AuthError::BootstrapTokenInvalidGroups { id: id.clone() })?;
    let user = UserInfo { name: format!("{USER_PREFIX}{id}"), groups, ..UserInfo::default() };
    Ok(user.with_authenticated_group())
}

/// Upstream's `GetGroups`: the raw value split on commas, no trimming, every part a valid
/// bootstrap group, joined with the default group, deduplicated and sorted.
fn groups_of(secret: &Secret) -> Option<Vec<String>> {
    let raw = secret.data.as_ref().and_then(|d| d.get(GROUPS_KEY)).map(|v| String::from_utf8_lossy(&v.0).into_owned());
    let mut groups = BTreeSet::from([DEFAULT_GROUP.to_owned()]);
    if let Some(raw) = raw.filter(|r| !r.is_empty()) {
        for group in raw.split(',') {
            validate_group(group).ok()?;
            groups.insert(group.to_owned());
        }
    }
    Some(groups.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::ByteString;

    fn secret(groups: &str) -> Secret {
        let record = TokenSecret {
            token: BootstrapToken::parse("abcdef.0123456789abcdef").unwrap(),
            description: String::new(),
            expiration: None,
            usages: vec!["authentication".into()],
            groups: vec![],
        };
        let mut s = record.to_secret().unwrap();
        s.data.as_mut().unwrap().insert(GROUPS_KEY.into(), ByteString(groups.as_bytes().to_vec()));
        s
    }

    #[test]
    fn groups_are_sorted_deduplicated_and_validated_untrimmed() {
        let user = authenticate_bootstrap_token(
            "abcdef.0123456789abcdef",
            Some(&secret("system:bootstrappers:b,system:bootstrappers:a,system:bootstrappers:b")),
            Timestamp::now(),
        )
        .unwrap();
        assert_eq!(
            user.groups,
            vec!["system:bootstrappers", "system:bootstrappers:a", "system:bootstrappers:b", "system:authenticated"]
        );
        for bad in ["system:bootstrappers:a, system:bootstrappers:b", "system:bootstrappers:a,", "system:masters"] {
            let e = authenticate_bootstrap_token("abcdef.0123456789abcdef", Some(&secret(bad)), Timestamp::now());
            assert_eq!(e, Err(AuthError::BootstrapTokenInvalidGroups { id: "abcdef".into() }), "{bad}");
        }
    }

    #[test]
    fn a_secret_being_deleted_is_no_secret() {
        let mut s = secret("");
        s.metadata.deletion_timestamp = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(Timestamp::now()));
        let e = authenticate_bootstrap_token("abcdef.0123456789abcdef", Some(&s), Timestamp::now());
        assert_eq!(e, Err(AuthError::BootstrapTokenNotFound { id: "abcdef".into() }));
    }
}
