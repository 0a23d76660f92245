//! `Impersonate-User` / `Impersonate-Group` / `Impersonate-Uid` headers (kubectl `--as`,
//! `--as-group`): the authenticated user must be allowed the `impersonate` verb on each
//! `users`, `groups`, `serviceaccounts` or `uids` it names, as kube-apiserver checks.

use axum::http::HeaderMap;
use karmadactl_apimachinery::ApiError;

use crate::auth::authn::{service_account_groups, split_service_account_username};
use crate::auth::{Attributes, Decision, UserInfo, authorize};

use crate::state::ApiState;

/// The user the request acts as: the authenticated one, or the impersonated one if the
/// authenticated user may impersonate it.
pub fn apply(state: &ApiState, user: UserInfo, headers: &HeaderMap) -> Result<UserInfo, ApiError> {
    let values = |name: &str| -> Vec<String> {
        headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).map(str::to_string).collect()
    };
    let target_user = values("impersonate-user").into_iter().next();
    let groups = values("impersonate-group");
    let uid = values("impersonate-uid").into_iter().next();
    let Some(name) = target_user else {
        if !groups.is_empty() || uid.is_some() {
            return Err(ApiError::internal(
                "requested impersonation is not supported: impersonating groups or a uid requires impersonating a user",
            ));
        }
        return Ok(user);
    };
    let rbac = state.rbac();
    let check = |resource: &str, target: &str, namespace: &str, group: &str| -> Result<(), ApiError> {
        let attrs = Attributes {
            user: user.clone(),
            verb: "impersonate".into(),
            namespace: namespace.into(),
            api_group: group.into(),
            resource: resource.into(),
            subresource: String::new(),
            name: target.into(),
            resource_request: true,
            path: String::new(),
        };
        match authorize(&rbac, &attrs) {
            Decision::Allow => Ok(()),
            Decision::Deny { .. } => {
                Err(ApiError::forbidden(&user.name, "impersonate", group, resource, "", namespace, target))
            }
        }
    };
    let mut groups_out = groups.clone();
    match split_service_account_username(&name) {
        Some((ns, sa)) => {
            check("serviceaccounts", sa, ns, "")?;
            if groups.is_empty() {
                groups_out = service_account_groups(ns);
            }
        }
        None => check("users", &name, "", "")?,
    }
    for g in &groups {
        check("groups", g, "", "")?;
    }
    if let Some(u) = &uid {
        check("uids", u, "", "authentication.k8s.io")?;
    }
    let mut impersonated =
        UserInfo { name, uid: uid.unwrap_or_default(), groups: groups_out, extra: Default::default() };
    if impersonated.name != "system:anonymous" && !impersonated.groups.iter().any(|g| g == "system:authenticated") {
        impersonated.groups.push("system:authenticated".into());
    }
    Ok(impersonated)
}
