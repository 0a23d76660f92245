//! Authorization: Kubernetes RBAC over a prebuilt snapshot of roles and bindings.

mod aggregate;
mod authorize;
mod escalation;
mod policy;
mod rules;
mod selector;
mod snapshot;

pub use aggregate::aggregate_cluster_roles;
pub use authorize::{RulesReview, authorize, review_rules, rules_for};
pub use escalation::{confirm_no_escalation, full_authority};
pub use policy::default_policy;
pub use rules::rule_allows;
pub use snapshot::RbacSnapshot;

use super::authn::UserInfo;

/// What a request wants to do, as kube-apiserver's `authorizer.Attributes`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Attributes {
    pub user: UserInfo,
    /// The API verb (`get`, `list`, `watch`, `create`, ...) or, for non-resource requests, the
    /// lowercased HTTP method (`get`, `post`, ...).
    pub verb: String,
    /// Empty for cluster-scoped resources and non-resource requests.
    pub namespace: String,
    /// Empty for the core group.
    pub api_group: String,
    pub resource: String,
    pub subresource: String,
    /// Empty for `list`, `watch` of a collection and `create` (unless the server knows the name).
    pub name: String,
    /// `false` for non-resource URLs such as `/healthz` or `/apis`.
    pub resource_request: bool,
    /// The request path; what non-resource rules match.
    pub path: String,
}

impl Attributes {
    /// A resource request with no subresource: what the API server asks about a user itself
    /// (`escalate` a role, `bind` it, `approve` or `sign` for a signer).
    pub fn resource(user: &UserInfo, verb: &str, group: &str, resource: &str, namespace: &str, name: &str) -> Self {
        Attributes {
            user: user.clone(),
            verb: verb.into(),
            namespace: namespace.into(),
            api_group: group.into(),
            resource: resource.into(),
            name: name.into(),
            resource_request: true,
            ..Attributes::default()
        }
    }
}

/// The answer for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// Not allowed. `reason` is empty, or `RBAC: <errors>` when bindings that apply to the user
    /// point at roles that do not exist; kube-apiserver appends it to the Forbidden message
    /// after `": "`.
    Deny {
        reason: String,
    },
}

impl Decision {
    /// Whether the request is allowed.
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allow)
    }

    /// The reason of a denial; empty when allowed or when there is none.
    pub fn reason(&self) -> &str {
        match self {
            Decision::Allow => "",
            Decision::Deny { reason } => reason,
        }
    }
}
