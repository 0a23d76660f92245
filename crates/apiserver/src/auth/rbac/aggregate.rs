//! ClusterRole aggregation, as kube-controller-manager's clusterrole-aggregation controller.

use std::collections::BTreeMap;

use k8s_openapi::api::rbac::v1::{ClusterRole, PolicyRule};

use super::selector;

/// Fills the rules of every ClusterRole with an `aggregationRule` from the ClusterRoles its
/// selectors pick (in name order, itself excluded, equal rules once), replacing what it had.
/// Aggregated roles that feed others (`edit` into `admin`) are settled by repeating until
/// nothing changes. Roles with an invalid selector are left alone, as the controller does.
/// Returns the names of the roles whose rules changed, sorted, for the caller to store.
pub fn aggregate_cluster_roles(roles: &mut [ClusterRole]) -> Vec<String> {
    let mut order: Vec<usize> = (0..roles.len()).filter(|&i| roles[i].aggregation_rule.is_some()).collect();
    order.sort_by(|&a, &b| roles[a].metadata.name.cmp(&roles[b].metadata.name));
    let mut by_name: Vec<usize> = (0..roles.len()).collect();
    by_name.sort_by(|&a, &b| roles[a].metadata.name.cmp(&roles[b].metadata.name));

    let mut changed: Vec<String> = Vec::new();
    // Each pass settles at least one more level of nesting; a selector cycle could otherwise
    // keep changing, so the number of passes is bounded.
    for _ in 0..=order.len() {
        let mut any = false;
        for &target in &order {
            let Some(rules) = aggregated_rules(roles, &by_name, target) else {
                continue;
            };
            if !same_rules(roles[target].rules.as_deref().unwrap_or_default(), &rules) {
                roles[target].rules = Some(rules);
                any = true;
                let name = roles[target].metadata.name.clone().unwrap_or_default();
                if !changed.contains(&name) {
                    changed.push(name);
                }
            }
        }
        if !any {
            break;
        }
    }
    changed.sort();
    changed
}

/// The rules `roles[target]` aggregates now, or `None` when a selector is invalid.
fn aggregated_rules(roles: &[ClusterRole], by_name: &[usize], target: usize) -> Option<Vec<PolicyRule>> {
    let no_labels = BTreeMap::new();
    let selectors = roles[target].aggregation_rule.as_ref()?.cluster_role_selectors.as_deref().unwrap_or_default();
    let mut rules: Vec<PolicyRule> = Vec::new();
    for sel in selectors {
        for &i in by_name {
            let role = &roles[i];
            if role.metadata.name == roles[target].metadata.name {
                continue;
            }
            if !selector::matches(sel, role.metadata.labels.as_ref().unwrap_or(&no_labels)).ok()? {
                continue;
            }
            for rule in role.rules.iter().flatten() {
                if !rules.iter().any(|r| same_rule(r, rule)) {
                    rules.push(rule.clone());
                }
            }
        }
    }
    Some(rules)
}

fn same_rules(a: &[PolicyRule], b: &[PolicyRule]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_rule(x, y))
}

/// `equality.Semantic.DeepEqual`: an absent list equals an empty one.
fn same_rule(a: &PolicyRule, b: &PolicyRule) -> bool {
    fn l(v: &Option<Vec<String>>) -> &[String] {
        v.as_deref().unwrap_or_default()
    }
    a.verbs == b.verbs
        && l(&a.api_groups) == l(&b.api_groups)
        && l(&a.resources) == l(&b.resources)
        && l(&a.resource_names) == l(&b.resource_names)
        && l(&a.non_resource_urls) == l(&b.non_resource_urls)
}
