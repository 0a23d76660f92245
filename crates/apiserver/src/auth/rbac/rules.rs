//! Whether one PolicyRule covers a request: upstream's `RuleAllows` and its helpers.

use k8s_openapi::api::rbac::v1::PolicyRule;

use super::Attributes;

fn list(v: &Option<Vec<String>>) -> &[String] {
    v.as_deref().unwrap_or_default()
}

/// Whether `rule` allows the request, exactly as k8s.io/kubernetes `rbac.RuleAllows`. Note that
/// upstream has no `resource/*` wildcard: such an entry only matches itself.
pub fn rule_allows(attrs: &Attributes, rule: &PolicyRule) -> bool {
    if !verb_matches(rule, &attrs.verb) {
        return false;
    }
    if !attrs.resource_request {
        return non_resource_url_matches(rule, &attrs.path);
    }
    api_group_matches(rule, &attrs.api_group)
        && resource_matches(rule, &attrs.resource, &attrs.subresource)
        && resource_name_matches(rule, &attrs.name)
}

fn verb_matches(rule: &PolicyRule, verb: &str) -> bool {
    rule.verbs.iter().any(|v| v == "*" || v == verb)
}

fn api_group_matches(rule: &PolicyRule, group: &str) -> bool {
    list(&rule.api_groups).iter().any(|g| g == "*" || g == group)
}

fn resource_matches(rule: &PolicyRule, resource: &str, subresource: &str) -> bool {
    list(&rule.resources).iter().any(|r| {
        if r == "*" {
            return true;
        }
        let exact = if subresource.is_empty() {
            r == resource
        } else {
            // `resource/subresource` without allocating the combined string.
            r.len() == resource.len() + 1 + subresource.len()
                && r.starts_with(resource)
                && r[resource.len()..].starts_with('/')
                && r.ends_with(subresource)
        };
        // `*/subresource` matches that subresource of every resource.
        exact || (!subresource.is_empty() && r.strip_prefix("*/") == Some(subresource))
    })
}

fn resource_name_matches(rule: &PolicyRule, name: &str) -> bool {
    // A rule with resourceNames never matches a request without a name (list, create, ...).
    let names = list(&rule.resource_names);
    names.is_empty() || names.iter().any(|n| n == name)
}

fn non_resource_url_matches(rule: &PolicyRule, path: &str) -> bool {
    list(&rule.non_resource_urls).iter().any(|u| {
        // Upstream trims every trailing `*`, so `/api**` is a prefix rule for `/api` too.
        u == "*" || u == path || (u.ends_with('*') && path.starts_with(u.trim_end_matches('*')))
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A resource rule; empty lists are left out. Shared with the escalation tests.
    pub(in crate::auth::rbac) fn rule(
        verbs: &[&str],
        groups: &[&str],
        resources: &[&str],
        names: &[&str],
    ) -> PolicyRule {
        let v = |x: &[&str]| (!x.is_empty()).then(|| x.iter().map(|s| s.to_string()).collect());
        PolicyRule {
            verbs: verbs.iter().map(|s| s.to_string()).collect(),
            api_groups: v(groups),
            resources: v(resources),
            resource_names: v(names),
            non_resource_urls: None,
        }
    }

    fn req(verb: &str, group: &str, resource: &str, sub: &str, name: &str) -> Attributes {
        Attributes {
            verb: verb.into(),
            api_group: group.into(),
            resource: resource.into(),
            subresource: sub.into(),
            name: name.into(),
            resource_request: true,
            ..Attributes::default()
        }
    }

    #[test]
    fn resources_and_subresources() {
        let r = rule(&["get"], &[""], &["pods", "pods/log", "*/status"], &[]);
        assert!(rule_allows(&req("get", "", "pods", "", "p"), &r));
        assert!(rule_allows(&req("get", "", "pods", "log", "p"), &r));
        assert!(!rule_allows(&req("get", "", "pods", "exec", "p"), &r));
        assert!(rule_allows(&req("get", "", "nodes", "status", "n"), &r));
        assert!(!rule_allows(&req("get", "", "nodes", "", "n"), &r));
        assert!(!rule_allows(&req("get", "apps", "pods", "", "p"), &r));
        assert!(!rule_allows(&req("list", "", "pods", "", ""), &r));
        // The combined form must match as a whole, not by prefix and suffix alone.
        assert!(!rule_allows(&req("get", "", "po", "ds/log", "p"), &rule(&["get"], &[""], &["pods/log"], &[])));
        let sub = rule(&["get"], &[""], &["pods/*"], &[]);
        assert!(!rule_allows(&req("get", "", "pods", "log", "p"), &sub), "no resource/* wildcard upstream");
    }

    #[test]
    fn resource_names_need_a_name() {
        let r = rule(&["get", "create"], &[""], &["configmaps"], &["cluster-info"]);
        assert!(rule_allows(&req("get", "", "configmaps", "", "cluster-info"), &r));
        assert!(!rule_allows(&req("get", "", "configmaps", "", "other"), &r));
        assert!(!rule_allows(&req("create", "", "configmaps", "", ""), &r));
    }

    #[test]
    fn non_resource_urls() {
        let r = PolicyRule {
            verbs: vec!["get".into()],
            non_resource_urls: Some(vec!["/healthz".into(), "/apis/*".into()]),
            ..PolicyRule::default()
        };
        let nr = |path: &str| Attributes { verb: "get".into(), path: path.into(), ..Attributes::default() };
        assert!(rule_allows(&nr("/healthz"), &r));
        assert!(!rule_allows(&nr("/healthz/etcd"), &r));
        assert!(rule_allows(&nr("/apis/"), &r));
        assert!(rule_allows(&nr("/apis/apps/v1"), &r));
        assert!(!rule_allows(&nr("/apis"), &r));
        // Resource rules never match non-resource requests and the other way round.
        assert!(!rule_allows(&nr("/healthz"), &rule(&["*"], &["*"], &["*"], &[])));
        assert!(!rule_allows(&req("get", "", "pods", "", ""), &r));
    }
}
