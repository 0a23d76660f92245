//! RBAC escalation prevention: whether a user's own rules cover the rules they grant, as
//! k8s.io/kubernetes pkg/registry/rbac/validation (`Covers`, `ConfirmNoEscalation`).

// Coverage is decided per atomic sub-rule (one group, resource, verb and name, or one URL and
// verb), each of which one owner rule covers or not. An atomic sub-rule read as a request is
// exactly what `rule_allows` decides, so the matching is shared with the authorizer; only the
// resource-name rule differs (a sub-rule without a name needs an owner rule without names).

use k8s_openapi::api::rbac::v1::PolicyRule;
use karmadactl_apimachinery::go_quote;

use super::Attributes;
use super::authorize::review_rules;
use super::rules::rule_allows;
use super::snapshot::RbacSnapshot;
use crate::auth::authn::UserInfo;

/// What a user with every permission holds; needed to set a ClusterRole's aggregationRule.
pub fn full_authority() -> Vec<PolicyRule> {
    let all = || Some(vec!["*".to_string()]);
    vec![
        PolicyRule { verbs: vec!["*".into()], api_groups: all(), resources: all(), ..PolicyRule::default() },
        PolicyRule { verbs: vec!["*".into()], non_resource_urls: all(), ..PolicyRule::default() },
    ]
}

/// Checks that `user`'s rules in `namespace` (empty: cluster-wide only) cover `rules`; the
/// error is kube's text naming every permission the user lacks.
pub fn confirm_no_escalation(
    snapshot: &RbacSnapshot,
    user: &UserInfo,
    namespace: &str,
    rules: &[PolicyRule],
) -> Result<(), String> {
    let owned = review_rules(snapshot, user, namespace);
    let missing = uncovered(&owned.rules, rules);
    if missing.is_empty() {
        return Ok(());
    }
    Err(escalation_message(user, &missing, owned.evaluation_error.as_deref()))
}

/// The atomic sub-rules of `servant` that no rule of `owner` covers, in order (`Covers`).
pub fn uncovered(owner: &[PolicyRule], servant: &[PolicyRule]) -> Vec<PolicyRule> {
    servant.iter().flat_map(breakdown).filter(|sub| !owner.iter().any(|o| covers(o, sub))).collect()
}

/// `BreakdownRule`: one rule per group × resource × verb (× name), then per URL × verb. A
/// resource rule without groups breaks down to nothing, as upstream.
fn breakdown(rule: &PolicyRule) -> Vec<PolicyRule> {
    let list = |v: &Option<Vec<String>>| v.clone().unwrap_or_default();
    let one = |s: &String| Some(vec![s.clone()]);
    let mut out = Vec::new();
    for group in list(&rule.api_groups) {
        for resource in list(&rule.resources) {
            for verb in &rule.verbs {
                let base = PolicyRule {
                    verbs: vec![verb.clone()],
                    api_groups: one(&group),
                    resources: one(&resource),
                    ..PolicyRule::default()
                };
                match rule.resource_names.as_deref() {
                    Some(names) if !names.is_empty() => {
                        out.extend(names.iter().map(|n| PolicyRule { resource_names: one(n), ..base.clone() }))
                    }
                    _ => out.push(base),
                }
            }
        }
    }
    for url in list(&rule.non_resource_urls) {
        for verb in &rule.verbs {
            out.push(PolicyRule { verbs: vec![verb.clone()], non_resource_urls: one(&url), ..PolicyRule::default() });
        }
    }
    out
}

/// Whether `owner` covers the atomic `sub`: the sub-rule as a request, allowed by the owner.
/// A `resource/sub` entry is split at its first `/` as upstream's `resourceCoversAll` does.
fn covers(owner: &PolicyRule, sub: &PolicyRule) -> bool {
    let first = |v: &Option<Vec<String>>| v.as_deref().and_then(<[String]>::first).cloned();
    let verb = sub.verbs.first().cloned().unwrap_or_default();
    if let Some(path) = first(&sub.non_resource_urls) {
        return rule_allows(&Attributes { verb, path, ..Attributes::default() }, owner);
    }
    let resource_path = first(&sub.resources).unwrap_or_default();
    let (resource, subresource) = resource_path.split_once('/').unwrap_or((&resource_path, ""));
    let name = first(&sub.resource_names);
    let owner_names = owner.resource_names.as_deref().unwrap_or_default();
    // Granting every name needs an owner rule that is not limited to some names.
    if name.is_none() && !owner_names.is_empty() {
        return false;
    }
    let attrs = Attributes {
        verb,
        api_group: first(&sub.api_groups).unwrap_or_default(),
        resource: resource.to_string(),
        subresource: subresource.to_string(),
        name: name.unwrap_or_default(),
        resource_request: true,
        ..Attributes::default()
    };
    rule_allows(&attrs, owner)
}

/// kube's `NewPrivilegeEscalationError`: the user, their groups, then each missing rule (as
/// `CompactString`, sorted and deduplicated) on its own line.
fn escalation_message(user: &UserInfo, missing: &[PolicyRule], resolution_error: Option<&str>) -> String {
    let mut lines: Vec<String> = missing.iter().map(compact_string).collect();
    lines.sort();
    lines.dedup();
    let mut msg = format!(
        "user {} (groups={}) is attempting to grant RBAC permissions not currently held:\n{}",
        go_quote(&user.name),
        go_list(&user.groups),
        lines.join("\n")
    );
    if let Some(err) = resolution_error {
        msg.push_str(&format!("; resolution errors: [{err}]"));
    }
    msg
}

/// `rbacv1helpers.CompactString`: the non-empty lists of a rule, each printed with Go's `%q`.
pub fn compact_string(rule: &PolicyRule) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (label, values) in [
        ("APIGroups", rule.api_groups.as_deref()),
        ("Resources", rule.resources.as_deref()),
        ("NonResourceURLs", rule.non_resource_urls.as_deref()),
        ("ResourceNames", rule.resource_names.as_deref()),
        ("Verbs", Some(rule.verbs.as_slice())),
    ] {
        if let Some(values) = values.filter(|v| !v.is_empty()) {
            parts.push(format!("{label}:{}", go_list(values)));
        }
    }
    format!("{{{}}}", parts.join(", "))
}

/// A string slice as Go's `%q` prints it: `["a" "b"]`.
fn go_list(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| go_quote(v)).collect();
    format!("[{}]", quoted.join(" "))
}

#[cfg(test)]
mod tests {
    use super::super::rules::tests::rule;
    use super::*;

    fn urls(verbs: &[&str], urls: &[&str]) -> PolicyRule {
        PolicyRule {
            verbs: verbs.iter().map(|s| s.to_string()).collect(),
            non_resource_urls: Some(urls.iter().map(|s| s.to_string()).collect()),
            ..PolicyRule::default()
        }
    }

    #[test]
    fn wildcards_cover_only_from_the_owner_side() {
        let owner = [rule(&["get", "list"], &[""], &["pods"], &[])];
        assert!(uncovered(&owner, &[rule(&["get"], &[""], &["pods"], &["p1"])]).is_empty());
        assert_eq!(uncovered(&owner, &[rule(&["*"], &[""], &["pods"], &[])]), [rule(&["*"], &[""], &["pods"], &[])]);
        assert_eq!(uncovered(&owner, &[rule(&["get"], &["*"], &["pods"], &[])]).len(), 1);
        let star = full_authority();
        assert!(uncovered(&star, &[rule(&["*"], &["*"], &["*"], &[]), urls(&["*"], &["*"])]).is_empty());
        // A resource rule never covers a URL and the other way round.
        assert_eq!(uncovered(&star[..1], &[urls(&["get"], &["/healthz"])]).len(), 1);
        assert_eq!(uncovered(&star[1..], &[rule(&["get"], &[""], &["pods"], &[])]).len(), 1);
    }

    #[test]
    fn subresources_names_and_urls() {
        let owner = [rule(&["get"], &[""], &["*/status"], &[]), rule(&["update"], &[""], &["secrets"], &["a", "b"])];
        assert!(uncovered(&owner, &[rule(&["get"], &[""], &["pods/status", "nodes/status"], &[])]).is_empty());
        assert_eq!(uncovered(&owner, &[rule(&["get"], &[""], &["pods"], &[])]).len(), 1);
        assert!(uncovered(&owner, &[rule(&["update"], &[""], &["secrets"], &["a"])]).is_empty());
        // Every name is more than some names.
        assert_eq!(uncovered(&owner, &[rule(&["update"], &[""], &["secrets"], &[])]).len(), 1);
        assert_eq!(
            uncovered(&owner, &[rule(&["update"], &[""], &["secrets"], &["a", "c"])]),
            [rule(&["update"], &[""], &["secrets"], &["c"])]
        );
        let prefix = [urls(&["get"], &["/apis/*"])];
        assert!(uncovered(&prefix, &[urls(&["get"], &["/apis/apps", "/apis/*"])]).is_empty());
        assert_eq!(uncovered(&prefix, &[urls(&["get"], &["/api"])]).len(), 1);
        // No groups: nothing to grant (upstream breaks such a rule down to nothing).
        assert!(uncovered(&[], &[rule(&["get"], &[], &["pods"], &[])]).is_empty());
    }

    #[test]
    fn message_as_kube_prints_it() {
        let user = UserInfo {
            name: "alice".into(),
            groups: vec!["dev".into(), "system:authenticated".into()],
            ..UserInfo::default()
        };
        let missing = uncovered(&[], &[rule(&["*"], &["*"], &["*"], &[]), urls(&["get"], &["/x"])]);
        assert_eq!(
            escalation_message(&user, &missing, None),
            "user \"alice\" (groups=[\"dev\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n\
             {APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}\n{NonResourceURLs:[\"/x\"], Verbs:[\"get\"]}"
        );
        assert_eq!(
            compact_string(&rule(&["get"], &[""], &["secrets"], &["a"])),
            "{APIGroups:[\"\"], Resources:[\"secrets\"], ResourceNames:[\"a\"], Verbs:[\"get\"]}"
        );
        let with_error =
            escalation_message(&user, &missing[..1], Some("clusterrole.rbac.authorization.k8s.io \"x\" not found"));
        assert!(with_error.ends_with("; resolution errors: [clusterrole.rbac.authorization.k8s.io \"x\" not found]"));
    }
}
