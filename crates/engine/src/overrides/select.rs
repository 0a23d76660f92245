//! Which policies apply to a resource template and a cluster, and in what order, as upstream's
//! override manager decides (`getOverridersFromOverridePolicies`, `util.ResourceSelectorPriority`,
//! `util.ClusterMatches`).

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::NodeSelectorRequirement;
use karmadactl_apimachinery::{LabelSelector, Operator, Requirement};
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::overrides::Overriders;
use karmadactl_karmada_api::policy::selector::{ClusterAffinity, ResourceSelector};
use serde_json::Value;

use super::OverrideSource;

/// How well a selector matches a resource (upstream's `ImplicitPriority`): a policy whose
/// selector names the resource outranks one that selects it by labels, which outranks one that
/// selects by kind alone. Lower priorities are applied first, so higher ones win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    MisMatch,
    MatchAll,
    MatchLabelSelector,
    MatchName,
}

/// The resource fields selectors look at.
pub struct Resource<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
    pub namespace: &'a str,
    pub name: &'a str,
    pub labels: BTreeMap<String, String>,
}

impl<'a> Resource<'a> {
    pub fn of(manifest: &'a Value) -> Self {
        let text = |v: Option<&'a Value>| v.and_then(Value::as_str).unwrap_or("");
        let meta = manifest.get("metadata");
        Self {
            api_version: text(manifest.get("apiVersion")),
            kind: text(manifest.get("kind")),
            namespace: text(meta.and_then(|m| m.get("namespace"))),
            name: text(meta.and_then(|m| m.get("name"))),
            labels: string_map(meta.and_then(|m| m.get("labels"))),
        }
    }
}

/// The string entries of a JSON object (non-string values are skipped).
pub(super) fn string_map(v: Option<&Value>) -> BTreeMap<String, String> {
    v.and_then(Value::as_object)
        .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect())
        .unwrap_or_default()
}

/// `util.ResourceSelectorPriority`: apiVersion, kind and (when set) namespace must be equal;
/// then a name decides alone, else a label selector, else everything of the kind matches.
pub fn selector_priority(resource: &Resource<'_>, rs: &ResourceSelector) -> Priority {
    let namespace = rs.namespace.as_deref().unwrap_or("");
    if resource.api_version != rs.api_version
        || resource.kind != rs.kind
        || (!namespace.is_empty() && resource.namespace != namespace)
    {
        return Priority::MisMatch;
    }
    if let Some(name) = rs.name.as_deref().filter(|n| !n.is_empty()) {
        return if name == resource.name { Priority::MatchName } else { Priority::MisMatch };
    }
    let Some(selector) = &rs.label_selector else { return Priority::MatchAll };
    match LabelSelector::from_label_selector(selector) {
        Ok(s) if s.matches(&resource.labels) => Priority::MatchLabelSelector,
        // An invalid selector matches nothing, as upstream.
        _ => Priority::MisMatch,
    }
}

/// The best priority among a policy's selectors; no selectors at all means every resource in
/// the policy's scope, at the lowest matching priority.
pub fn policy_priority(resource: &Resource<'_>, selectors: Option<&[ResourceSelector]>) -> Priority {
    match selectors {
        None | Some([]) => Priority::MatchAll,
        Some(list) => list.iter().map(|rs| selector_priority(resource, rs)).max().unwrap_or(Priority::MisMatch),
    }
}

/// One rule of one policy that applies to the resource and the cluster.
pub struct Selected<'a> {
    pub policy: &'a OverrideSource<'a>,
    pub overriders: &'a Overriders,
}

/// Every applicable rule of `policies`, in the order upstream applies them: policies by
/// priority then name (both ascending), and within a policy its rules in order. A policy
/// without `overrideRules` uses its deprecated `targetCluster` and `overriders` as one rule.
/// A namespaced policy reaches only resources in its own namespace.
pub fn select<'a>(policies: &'a [OverrideSource<'a>], resource: &Resource<'_>, cluster: &Cluster) -> Vec<Selected<'a>> {
    let mut matching: Vec<(Priority, &OverrideSource<'_>)> = policies
        .iter()
        .filter(|p| p.namespace.is_none_or(|ns| !ns.is_empty() && ns == resource.namespace))
        .map(|p| (policy_priority(resource, p.spec.resource_selectors.as_deref()), p))
        .filter(|(priority, _)| *priority > Priority::MisMatch)
        .collect();
    matching.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(b.1.name)));

    let mut selected = Vec::new();
    for (_, policy) in matching {
        match policy.spec.override_rules.as_deref() {
            Some(rules) if !rules.is_empty() => {
                for rule in rules {
                    if rule.target_cluster.as_ref().is_none_or(|a| cluster_matches(cluster, a)) {
                        selected.push(Selected { policy, overriders: &rule.overriders });
                    }
                }
            }
            _ => {
                if policy.spec.target_cluster.as_ref().is_none_or(|a| cluster_matches(cluster, a)) {
                    let overriders = policy.spec.overriders.as_ref().unwrap_or(&EMPTY_OVERRIDERS);
                    selected.push(Selected { policy, overriders });
                }
            }
        }
    }
    selected
}

static EMPTY_OVERRIDERS: Overriders = Overriders {
    plaintext: None,
    image_overrider: None,
    command_overrider: None,
    args_overrider: None,
    labels_overrider: None,
    annotations_overrider: None,
    field_overrider: None,
};

/// `util.ClusterMatches`: not excluded, and the label selector, the field selector and the
/// name list (each when set) all match.
pub fn cluster_matches(cluster: &Cluster, affinity: &ClusterAffinity) -> bool {
    let name = cluster.metadata.name.as_deref().unwrap_or("");
    if affinity.exclude.iter().flatten().any(|n| n == name) {
        return false;
    }
    if let Some(selector) = &affinity.label_selector {
        let labels = cluster.metadata.labels.clone().unwrap_or_default();
        match LabelSelector::from_label_selector(selector) {
            Ok(s) if s.matches(&labels) => {}
            _ => return false,
        }
    }
    if let Some(fields) = &affinity.field_selector
        && !fields_match(cluster, fields.match_expressions.as_deref().unwrap_or_default())
    {
        return false;
    }
    match affinity.cluster_names.as_deref() {
        None | Some([]) => true,
        Some(names) => names.iter().any(|n| n == name),
    }
}

/// The field selector: `zone` is compared with the cluster's zone list, `provider` and
/// `region` as node-selector requirements over the cluster's fields.
fn fields_match(cluster: &Cluster, expressions: &[NodeSelectorRequirement]) -> bool {
    let spec = &cluster.spec;
    // Upstream reads `spec.zones`; a cluster that only sets the older single `spec.zone` is
    // treated as having that one zone rather than none.
    let zones: Vec<String> = match (&spec.zones, &spec.zone) {
        (Some(z), _) if !z.is_empty() => z.clone(),
        (_, Some(z)) if !z.is_empty() => vec![z.clone()],
        _ => Vec::new(),
    };
    let mut fields = BTreeMap::new();
    for (key, value) in [("provider", &spec.provider), ("region", &spec.region)] {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
            fields.insert(key.to_string(), v.to_string());
        }
    }
    for expr in expressions {
        let values = expr.values.clone().unwrap_or_default();
        if expr.key == "zone" {
            if !zones_match(&expr.operator, &values, &zones) {
                return false;
            }
            continue;
        }
        let op = match expr.operator.as_str() {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            "Gt" => Operator::GreaterThan,
            "Lt" => Operator::LessThan,
            _ => return false,
        };
        match Requirement::new(&expr.key, op, values) {
            Ok(r) if r.matches(&fields) => {}
            _ => return false,
        }
    }
    true
}

/// `In`: every zone of the cluster is listed (and it has some); `NotIn`: none is listed;
/// `Exists`/`DoesNotExist`: the cluster has zones or not.
fn zones_match(operator: &str, values: &[String], zones: &[String]) -> bool {
    match operator {
        "In" => !zones.is_empty() && zones.iter().all(|z| values.contains(z)),
        "NotIn" => zones.iter().all(|z| !values.contains(z)),
        "Exists" => !zones.is_empty(),
        "DoesNotExist" => zones.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cluster(v: Value) -> Cluster {
        serde_json::from_value(v).unwrap()
    }

    fn affinity(v: Value) -> ClusterAffinity {
        serde_json::from_value(v).unwrap()
    }

    fn member() -> Cluster {
        cluster(json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
            "metadata": {"name": "member1", "labels": {"env": "prod"}},
            "spec": {"syncMode": "Push", "provider": "aws", "region": "us-east-1", "zones": ["a", "b"]}}))
    }

    #[test]
    fn cluster_affinity_terms_are_anded() {
        let c = member();
        assert!(cluster_matches(&c, &affinity(json!({}))));
        assert!(cluster_matches(&c, &affinity(json!({"clusterNames": ["member2", "member1"]}))));
        assert!(!cluster_matches(&c, &affinity(json!({"clusterNames": ["member2"]}))));
        assert!(!cluster_matches(&c, &affinity(json!({"exclude": ["member1"]}))));
        assert!(cluster_matches(&c, &affinity(json!({"labelSelector": {"matchLabels": {"env": "prod"}}}))));
        assert!(!cluster_matches(
            &c,
            &affinity(json!({"labelSelector": {"matchLabels": {"env": "prod"}}, "clusterNames": ["member2"]}))
        ));
        assert!(!cluster_matches(&c, &affinity(json!({"labelSelector": {"matchLabels": {"env": "dev"}}}))));
    }

    #[test]
    fn field_selector_provider_region_zone() {
        let c = member();
        let by = |key: &str, op: &str, values: Value| {
            affinity(json!({"fieldSelector": {"matchExpressions": [{"key": key, "operator": op, "values": values}]}}))
        };
        assert!(cluster_matches(&c, &by("provider", "In", json!(["aws", "gcp"]))));
        assert!(!cluster_matches(&c, &by("provider", "NotIn", json!(["aws"]))));
        assert!(cluster_matches(&c, &by("region", "In", json!(["us-east-1"]))));
        assert!(cluster_matches(&c, &by("zone", "In", json!(["a", "b", "c"]))));
        assert!(!cluster_matches(&c, &by("zone", "In", json!(["a"]))), "every zone must be listed");
        assert!(cluster_matches(&c, &by("zone", "NotIn", json!(["c"]))));
        assert!(!cluster_matches(&c, &by("zone", "NotIn", json!(["b"]))));
        let single = cluster(json!({"metadata": {"name": "m"}, "spec": {"syncMode": "Pull", "zone": "z1"}}));
        assert!(cluster_matches(&single, &by("zone", "In", json!(["z1"]))));
        assert!(!cluster_matches(&single, &by("provider", "In", json!(["aws"]))));
    }

    #[test]
    fn selector_priorities() {
        let manifest = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "nginx", "namespace": "default", "labels": {"app": "nginx"}}});
        let r = Resource::of(&manifest);
        let rs = |v: Value| -> ResourceSelector { serde_json::from_value(v).unwrap() };
        assert_eq!(
            selector_priority(&r, &rs(json!({"apiVersion": "apps/v1", "kind": "Deployment"}))),
            Priority::MatchAll
        );
        assert_eq!(
            selector_priority(&r, &rs(json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}))),
            Priority::MatchName
        );
        assert_eq!(
            selector_priority(
                &r,
                &rs(
                    json!({"apiVersion": "apps/v1", "kind": "Deployment", "labelSelector": {"matchLabels": {"app": "nginx"}}})
                )
            ),
            Priority::MatchLabelSelector
        );
        assert_eq!(
            selector_priority(
                &r,
                &rs(json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx",
                    "labelSelector": {"matchLabels": {"app": "other"}}}))
            ),
            Priority::MatchName,
            "a name decides alone"
        );
        assert_eq!(
            selector_priority(&r, &rs(json!({"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "other"}))),
            Priority::MisMatch
        );
        assert_eq!(selector_priority(&r, &rs(json!({"apiVersion": "v1", "kind": "Deployment"}))), Priority::MisMatch);
        assert_eq!(policy_priority(&r, None), Priority::MatchAll);
    }
}
