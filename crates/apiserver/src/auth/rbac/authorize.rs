//! Deciding a request and listing a user's rules, as kube's RBAC authorizer and rule resolver.

use k8s_openapi::api::rbac::v1::PolicyRule;

use super::rules::rule_allows;
use super::snapshot::{BindingSet, RbacSnapshot, ResolvedRules};
use super::{Attributes, Decision};
use crate::auth::authn::{PRIVILEGED_GROUP, UserInfo};

/// Decides `attrs`: `system:masters` may do anything (kube-apiserver's privileged-group
/// authorizer, consulted before RBAC); otherwise ClusterRoleBindings grant everywhere and the
/// request namespace's RoleBindings grant there. Non-resource requests have no namespace.
pub fn authorize(snapshot: &RbacSnapshot, attrs: &Attributes) -> Decision {
    if attrs.user.in_group(PRIVILEGED_GROUP) {
        return Decision::Allow;
    }
    let mut errors: Vec<&str> = Vec::new();
    for rules in scopes(snapshot, &attrs.user, namespace_of(attrs)) {
        match rules {
            Ok(rules) if rules.iter().any(|r| rule_allows(attrs, r)) => return Decision::Allow,
            Ok(_) => {}
            Err(e) => errors.push(e),
        }
    }
    let reason = if errors.is_empty() { String::new() } else { format!("RBAC: {}", aggregate(&errors)) };
    Decision::Deny { reason }
}

/// A user's rules in a namespace, for SelfSubjectRulesReview.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RulesReview {
    /// ClusterRoleBinding rules first, then the namespace's RoleBinding rules; not deduplicated,
    /// as upstream.
    pub rules: Vec<PolicyRule>,
    /// Lookup errors (missing roles) as upstream's `status.evaluationError`; `None` without any.
    pub evaluation_error: Option<String>,
}

/// Every rule that applies to `user` in `namespace` (empty: cluster-wide rules only).
pub fn review_rules(snapshot: &RbacSnapshot, user: &UserInfo, namespace: &str) -> RulesReview {
    let mut review = RulesReview::default();
    let mut errors: Vec<&str> = Vec::new();
    for rules in scopes(snapshot, user, namespace) {
        match rules {
            Ok(rules) => review.rules.extend(rules.iter().cloned()),
            Err(e) => errors.push(e),
        }
    }
    review.evaluation_error = (!errors.is_empty()).then(|| aggregate(&errors));
    review
}

/// [`review_rules`] without the errors.
pub fn rules_for(snapshot: &RbacSnapshot, user: &UserInfo, namespace: &str) -> Vec<PolicyRule> {
    review_rules(snapshot, user, namespace).rules
}

/// kube's RequestInfo gives non-resource requests no namespace, so RoleBindings never apply.
fn namespace_of(attrs: &Attributes) -> &str {
    if attrs.resource_request { &attrs.namespace } else { "" }
}

fn scopes<'a>(
    snapshot: &'a RbacSnapshot,
    user: &'a UserInfo,
    namespace: &str,
) -> impl Iterator<Item = &'a ResolvedRules> + use<'a> {
    let namespaced: Option<&'a BindingSet> =
        if namespace.is_empty() { None } else { snapshot.namespace_bindings(namespace) };
    snapshot.cluster_bindings().applicable(user).chain(namespaced.into_iter().flat_map(move |set| set.applicable(user)))
}

/// `utilerrors.NewAggregate(...).Error()`: one message alone, several deduplicated in brackets.
fn aggregate(errors: &[&str]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for e in errors {
        if !seen.contains(e) {
            seen.push(e);
        }
    }
    if errors.len() == 1 || seen.len() == 1 { seen.join("") } else { format!("[{}]", seen.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregate_like_go() {
        assert_eq!(aggregate(&["a"]), "a");
        assert_eq!(aggregate(&["a", "a"]), "a");
        assert_eq!(aggregate(&["a", "b", "a"]), "[a, b]");
    }
}
