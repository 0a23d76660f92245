//! Which propagation policy claims a resource template: resourceSelectors match on apiVersion,
//! kind, namespace, name and labels, and among several matching policies upstream's precedence
//! decides — explicit `priority` first, then how specifically a selector names the template
//! (by name, then by labels, then by kind alone), then the policy name.

use std::collections::BTreeMap;

use karmadactl_apimachinery::LabelSelector;
use karmadactl_karmada_api::policy::selector::ResourceSelector;

/// The parts of a template selection looks at.
pub struct TemplateIdentity<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
    pub namespace: Option<&'a str>,
    pub name: &'a str,
    pub labels: &'a BTreeMap<String, String>,
}

/// How specifically a selector matched; higher wins.
// The variants keep upstream's names (PriorityMatchAll, …) without the `Priority` prefix.
#[allow(clippy::enum_variant_names)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ImplicitPriority {
    MatchAll = 1,
    MatchLabelSelector = 2,
    MatchName = 3,
}

/// How specifically `selector` matches `template`, or `None` when it does not.
pub fn selector_priority(selector: &ResourceSelector, template: &TemplateIdentity<'_>) -> Option<ImplicitPriority> {
    if selector.api_version != template.api_version || selector.kind != template.kind {
        return None;
    }
    if let Some(ns) = selector.namespace.as_deref().filter(|n| !n.is_empty())
        && Some(ns) != template.namespace
    {
        return None;
    }
    if let Some(name) = selector.name.as_deref().filter(|n| !n.is_empty()) {
        return (name == template.name).then_some(ImplicitPriority::MatchName);
    }
    if let Some(ls) = selector.label_selector.as_ref() {
        let selector = LabelSelector::from_label_selector(ls).ok()?;
        return selector.matches(template.labels).then_some(ImplicitPriority::MatchLabelSelector);
    }
    Some(ImplicitPriority::MatchAll)
}

/// The best match of any of a policy's selectors.
pub fn policy_priority(selectors: &[ResourceSelector], template: &TemplateIdentity<'_>) -> Option<ImplicitPriority> {
    selectors.iter().filter_map(|s| selector_priority(s, template)).max()
}

/// A policy that matched, with what ranks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate<P> {
    pub explicit_priority: i32,
    pub implicit_priority: ImplicitPriority,
    pub name: String,
    pub policy: P,
}

/// The winner: highest explicit priority, then highest implicit priority, then the
/// alphabetically first name.
pub fn best<P>(candidates: Vec<Candidate<P>>) -> Option<Candidate<P>> {
    candidates.into_iter().min_by(|a, b| {
        b.explicit_priority
            .cmp(&a.explicit_priority)
            .then(b.implicit_priority.cmp(&a.implicit_priority))
            .then(a.name.cmp(&b.name))
    })
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector as K8sLabelSelector;

    use super::*;

    fn selector(kind: &str, name: Option<&str>, labels: Option<(&str, &str)>) -> ResourceSelector {
        ResourceSelector {
            api_version: "apps/v1".into(),
            kind: kind.into(),
            namespace: None,
            name: name.map(Into::into),
            label_selector: labels.map(|(k, v)| K8sLabelSelector {
                match_labels: Some([(k.to_string(), v.to_string())].into()),
                match_expressions: None,
            }),
        }
    }

    fn nginx(labels: &BTreeMap<String, String>) -> TemplateIdentity<'_> {
        TemplateIdentity {
            api_version: "apps/v1",
            kind: "Deployment",
            namespace: Some("default"),
            name: "nginx",
            labels,
        }
    }

    #[test]
    fn selectors_rank_name_over_labels_over_kind() {
        let labels = BTreeMap::from([("app".to_string(), "nginx".to_string())]);
        let t = nginx(&labels);
        assert_eq!(selector_priority(&selector("Deployment", None, None), &t), Some(ImplicitPriority::MatchAll));
        assert_eq!(
            selector_priority(&selector("Deployment", None, Some(("app", "nginx"))), &t),
            Some(ImplicitPriority::MatchLabelSelector)
        );
        assert_eq!(
            selector_priority(&selector("Deployment", Some("nginx"), None), &t),
            Some(ImplicitPriority::MatchName)
        );
        assert_eq!(selector_priority(&selector("Deployment", Some("other"), None), &t), None);
        assert_eq!(selector_priority(&selector("Deployment", None, Some(("app", "web"))), &t), None);
        assert_eq!(selector_priority(&selector("StatefulSet", None, None), &t), None);
        let mut other_ns = selector("Deployment", None, None);
        other_ns.namespace = Some("prod".into());
        assert_eq!(selector_priority(&other_ns, &t), None);
    }

    #[test]
    fn explicit_priority_beats_specificity_and_names_break_ties() {
        let c = |p, i, n: &str| Candidate { explicit_priority: p, implicit_priority: i, name: n.into(), policy: () };
        let won = best(vec![c(0, ImplicitPriority::MatchName, "a"), c(5, ImplicitPriority::MatchAll, "z")]);
        assert_eq!(won.map(|c| c.name), Some("z".into()));
        let won = best(vec![c(0, ImplicitPriority::MatchAll, "a"), c(0, ImplicitPriority::MatchName, "z")]);
        assert_eq!(won.map(|c| c.name), Some("z".into()));
        let won = best(vec![c(0, ImplicitPriority::MatchAll, "b"), c(0, ImplicitPriority::MatchAll, "a")]);
        assert_eq!(won.map(|c| c.name), Some("a".into()));
    }
}
