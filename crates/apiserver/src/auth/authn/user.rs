//! The authenticated user, and the user and group names Kubernetes reserves.

use std::collections::BTreeMap;

use serde::Serialize;

/// The user of unauthenticated requests.
pub const ANONYMOUS: &str = "system:anonymous";
/// The group of unauthenticated requests.
pub const ALL_UNAUTHENTICATED: &str = "system:unauthenticated";
/// The group every authenticated user is put in.
pub const ALL_AUTHENTICATED: &str = "system:authenticated";
/// Members may do anything; kube-apiserver allows them before RBAC is asked.
pub const PRIVILEGED_GROUP: &str = karmadactl_pki::signer::PRIVILEGED_GROUP;
/// The `extra` key naming the credential that authenticated the request.
pub const CREDENTIAL_ID_KEY: &str = "authentication.kubernetes.io/credential-id";

const SA_PREFIX: &str = "system:serviceaccount:";
const SA_GROUP: &str = "system:serviceaccounts";

/// Who is calling. Serialises as `authentication.k8s.io/v1` `UserInfo` (`username`, and empty
/// fields left out) so it can go straight into a TokenReview or SelfSubjectReview status.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct UserInfo {
    #[serde(rename = "username", skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, Vec<String>>,
}

impl UserInfo {
    /// The user kube-apiserver's anonymous authenticator gives requests without credentials.
    pub fn anonymous() -> Self {
        UserInfo { name: ANONYMOUS.into(), groups: vec![ALL_UNAUTHENTICATED.into()], ..UserInfo::default() }
    }

    /// Whether the user is in `group`.
    pub fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }

    /// Appends `system:authenticated` as kube-apiserver's `AuthenticatedGroupAdder` does: not for
    /// the anonymous user, nor when either all-users group is already there.
    pub fn with_authenticated_group(mut self) -> Self {
        if self.name != ANONYMOUS && !self.in_group(ALL_AUTHENTICATED) && !self.in_group(ALL_UNAUTHENTICATED) {
            self.groups.push(ALL_AUTHENTICATED.into());
        }
        self
    }

    /// The same user as the `authentication.k8s.io/v1` API type.
    pub fn to_api(&self) -> k8s_openapi::api::authentication::v1::UserInfo {
        let some_vec = |v: &Vec<String>| (!v.is_empty()).then(|| v.clone());
        k8s_openapi::api::authentication::v1::UserInfo {
            username: Some(self.name.clone()),
            uid: (!self.uid.is_empty()).then(|| self.uid.clone()),
            groups: some_vec(&self.groups),
            extra: (!self.extra.is_empty()).then(|| self.extra.clone()),
        }
    }
}

/// `system:serviceaccount:<namespace>:<name>`.
pub fn service_account_username(namespace: &str, name: &str) -> String {
    format!("{SA_PREFIX}{namespace}:{name}")
}

/// `(namespace, name)` of a service account user name, or `None` for other users.
pub fn split_service_account_username(username: &str) -> Option<(&str, &str)> {
    let (namespace, name) = username.strip_prefix(SA_PREFIX)?.split_once(':')?;
    // As upstream: both parts non-empty and the name holds no further colon.
    (!namespace.is_empty() && !name.is_empty() && !name.contains(':')).then_some((namespace, name))
}

/// `system:serviceaccounts` and `system:serviceaccounts:<namespace>`.
pub fn service_account_groups(namespace: &str) -> Vec<String> {
    vec![SA_GROUP.to_owned(), format!("{SA_GROUP}:{namespace}")]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_and_authenticated_group() {
        let anon = UserInfo::anonymous();
        assert_eq!(anon.name, "system:anonymous");
        assert_eq!(anon.groups, vec!["system:unauthenticated"]);
        assert_eq!(anon.clone().with_authenticated_group(), anon);
        let user = UserInfo { name: "alice".into(), groups: vec!["dev".into()], ..UserInfo::default() };
        let user = user.with_authenticated_group().with_authenticated_group();
        assert_eq!(user.groups, vec!["dev", "system:authenticated"]);
    }

    #[test]
    fn serialises_like_the_api_type() {
        let user = UserInfo { name: "alice".into(), groups: vec!["g".into()], ..UserInfo::default() };
        assert_eq!(serde_json::to_string(&user).unwrap(), r#"{"username":"alice","groups":["g"]}"#);
        assert_eq!(serde_json::to_value(user.to_api()).unwrap(), serde_json::to_value(&user).unwrap());
    }

    #[test]
    fn service_account_names() {
        assert_eq!(service_account_username("ns", "sa"), "system:serviceaccount:ns:sa");
        assert_eq!(split_service_account_username("system:serviceaccount:ns:sa"), Some(("ns", "sa")));
        for bad in ["system:serviceaccount:ns", "system:serviceaccount::sa", "system:serviceaccount:ns:a:b", "alice"] {
            assert_eq!(split_service_account_username(bad), None, "{bad}");
        }
        assert_eq!(service_account_groups("ns"), vec!["system:serviceaccounts", "system:serviceaccounts:ns"]);
    }
}
