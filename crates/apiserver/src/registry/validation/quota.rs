//! Quota checks: core/v1 ResourceQuota as kube-apiserver validates it, and Karmada's
//! FederatedResourceQuota as upstream's karmada-webhook does (`pkg/webhook/federatedresourcequota`):
//! every resource name one a quota may limit, every quantity non-negative (whole for counted
//! resources), and a federated quota's static assignments adding up to no more than `overall`.

use std::cmp::Ordering;

use karmadactl_apimachinery::NameRule;
use karmadactl_apimachinery::quantity::Quantity;
use karmadactl_apimachinery::resource_list::{self, ResourceList};
use serde_json::{Value, json};

use super::access::{list_at, map_at, str_at};
use super::field::{FieldError, child, index, key};
use super::names::qualified_name;

/// Quota names without a `/` that kube accepts (`standardQuotaResources`).
const STANDARD_QUOTA_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.storage",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

/// Counted resources, whose quantities must be whole (`standardIntegerResources`).
const INTEGER_RESOURCES: &[&str] = &[
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

/// The scopes a ResourceQuota may name (`standardResourceQuotaScopes`).
const SCOPES: &[&str] =
    &["Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity"];

/// A federated quota's name goes into labels of its Works, so it must fit a label value.
const MAX_FEDERATED_QUOTA_NAME: usize = 63;

/// kube's `ValidateResourceQuotaResourceName`.
fn quota_resource_name(name: &str, path: &str, errs: &mut Vec<FieldError>) {
    let problems = qualified_name(name);
    if !problems.is_empty() {
        errs.extend(problems.into_iter().map(|m| FieldError::invalid(path, &json!(name), m)));
        return;
    }
    if name.contains('/') {
        return;
    }
    let huge_pages = name.starts_with("hugepages-") || name.starts_with("requests.hugepages-");
    if !STANDARD_QUOTA_RESOURCES.contains(&name) && !huge_pages {
        errs.push(FieldError::invalid(path, &json!(name), "must be a standard resource type or fully qualified"));
        errs.push(FieldError::invalid(path, &json!(name), "must be a standard resource for quota"));
    }
}

/// Whether kube counts `name` in whole units: the standard counts, object counts and extended
/// resources (a qualified name outside `kubernetes.io`).
fn is_integer_resource(name: &str) -> bool {
    INTEGER_RESOURCES.contains(&name)
        || name.starts_with("count/")
        || (name.contains('/') && !name.contains("kubernetes.io/") && !name.starts_with("requests."))
}

/// Checks one resource list (`spec.hard`, `status.used`, …) and returns what parsed.
pub fn resource_list(value: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) -> ResourceList {
    let mut list = ResourceList::new();
    let Some(map) = value.and_then(Value::as_object) else { return list };
    for (name, raw) in map {
        let at = key(path, name);
        quota_resource_name(name, &at, errs);
        let parsed = match resource_list::parse(&json!({ name: raw })) {
            Ok(mut one) => one.remove(name).unwrap_or_default(),
            Err((_, e)) => {
                errs.push(FieldError::invalid(&at, raw, e.to_string()));
                continue;
            }
        };
        let rendered = json!(parsed.to_string());
        if parsed.cmp_value(&Quantity::zero()) == Ordering::Less {
            errs.push(FieldError::invalid(&at, &rendered, "must be greater than or equal to 0"));
        }
        if is_integer_resource(name) && parsed.millis() % 1000 != 0 {
            errs.push(FieldError::invalid(&at, &rendered, "must be an integer"));
        }
        list.insert(name.clone(), parsed);
    }
    list
}

/// kube's ResourceQuota checks: hard and used lists, and known scopes.
pub fn resource_quota(obj: &Value, errs: &mut Vec<FieldError>) {
    resource_list(map_at(obj, &["spec"]).and_then(|s| s.get("hard")), "spec.hard", errs);
    resource_list(map_at(obj, &["status"]).and_then(|s| s.get("hard")), "status.hard", errs);
    resource_list(map_at(obj, &["status"]).and_then(|s| s.get("used")), "status.used", errs);
    for (i, scope) in list_at(obj, &["spec", "scopes"]).iter().enumerate() {
        if !scope.as_str().is_some_and(|s| SCOPES.contains(&s)) {
            errs.push(FieldError::not_supported(index("spec.scopes", i), scope, SCOPES));
        }
    }
}

/// Upstream's FederatedResourceQuota checks: a name short enough for a label, valid lists, a
/// valid cluster name per static assignment, and assignments within `overall`.
pub fn federated_resource_quota(obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(obj, &["metadata", "name"]).unwrap_or_default();
    if name.len() > MAX_FEDERATED_QUOTA_NAME {
        errs.push(FieldError::invalid(
            "metadata.name",
            &json!(name),
            format!("must be no more than {MAX_FEDERATED_QUOTA_NAME} characters"),
        ));
    }
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    let overall = resource_list(spec.get("overall"), "spec.overall", &mut errs);
    let mut assigned = ResourceList::new();
    for (i, assignment) in list_at(&spec, &["staticAssignments"]).iter().enumerate() {
        let at = index("spec.staticAssignments", i);
        let cluster = assignment.get("clusterName").and_then(Value::as_str).unwrap_or_default();
        let problems = NameRule::ClusterName.check(cluster, false);
        if !problems.is_empty() {
            errs.push(FieldError::invalid(child(&at, "clusterName"), &json!(cluster), problems.join(",")));
        }
        let hard_path = child(&at, "hard");
        let hard = resource_list(assignment.get("hard"), &hard_path, &mut errs);
        for name in hard.keys().filter(|k| !overall.contains_key(*k)) {
            errs.push(FieldError::invalid(
                key(&hard_path, name),
                &json!(name),
                "assignment resourceName is not exist in overall",
            ));
        }
        assigned = resource_list::add(&assigned, &hard);
    }
    for (name, limit) in &overall {
        if assigned.get(name).is_some_and(|a| limit.cmp_value(a) == Ordering::Less) {
            errs.push(FieldError::invalid(
                key("spec.overall", name),
                &json!(limit.to_string()),
                "overall is less than assignments",
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn resource_quota_lists_are_checked() {
        let mut errs = Vec::new();
        let quota = json!({"spec": {"hard": {"cpu": "2", "pods": "1.5", "bogus": "1", "memory": "-1Gi",
            "requests.nvidia.com/gpu": "4", "count/deployments.apps": "3"}, "scopes": ["Nope"]},
            "status": {"used": {"cpu": "lots"}}});
        resource_quota(&quota, &mut errs);
        let text = messages(&errs).join("\n");
        assert!(text.contains("spec.hard[pods]: Invalid value: \"1500m\": must be an integer"), "{text}");
        assert!(text.contains("spec.hard[bogus]: Invalid value: \"bogus\": must be a standard resource for quota"));
        assert!(text.contains("spec.hard[memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0"));
        assert!(text.contains("status.used[cpu]: Invalid value: \"lots\""), "{text}");
        assert!(text.contains("spec.scopes[0]: Unsupported value: \"Nope\""), "{text}");
        assert_eq!(errs.len(), 6, "{text}");
    }

    #[test]
    fn federated_quota_assignments_stay_within_overall() {
        let frq = json!({"metadata": {"name": "q"}, "spec": {
        "overall": {"cpu": "2", "memory": "1Gi"},
        "staticAssignments": [
            {"clusterName": "member1", "hard": {"cpu": "1500m"}},
            {"clusterName": "member2", "hard": {"cpu": "1", "pods": "3"}},
            {"clusterName": "Bad_Name", "hard": {}},
        ]}});
        let text = messages(&federated_resource_quota(&frq)).join("\n");
        assert!(text.contains("spec.overall[cpu]: Invalid value: \"2\": overall is less than assignments"), "{text}");
        assert!(text.contains(
            "spec.staticAssignments[1].hard[pods]: Invalid value: \"pods\": assignment resourceName is not exist in overall"
        ));
        assert!(text.contains("spec.staticAssignments[2].clusterName: Invalid value: \"Bad_Name\""), "{text}");
        let ok = json!({"metadata": {"name": "q"}, "spec": {"overall": {"cpu": "2"},
            "staticAssignments": [{"clusterName": "member1", "hard": {"cpu": "2"}}]}});
        assert!(federated_resource_quota(&ok).is_empty());
        let long = json!({"metadata": {"name": "q".repeat(64)}, "spec": {}});
        assert!(messages(&federated_resource_quota(&long))[0].contains("must be no more than 63 characters"));
    }
}
