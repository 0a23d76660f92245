//! The filter step: which clusters may hold the binding at all, and why the others may not
//! (upstream's ClusterEviction, ClusterAffinity, TaintToleration and SpreadConstraint filter
//! plugins).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use k8s_openapi::api::core::v1::{NodeSelectorRequirement, Taint, Toleration};

use karmadactl_apimachinery::{LabelSelector, Operator, Requirement};
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::placement::{Placement, SpreadByField};
use karmadactl_karmada_api::policy::selector::ClusterAffinity;
use karmadactl_karmada_api::work::binding::TargetCluster;

/// The clusters that passed every filter, and one reason per cluster that did not.
pub(super) struct Fit<'a> {
    pub feasible: Vec<&'a Cluster>,
    /// Every cluster the plane knows, deleting ones included, as upstream counts them.
    pub total: usize,
    pub reasons: Vec<String>,
}

impl Fit<'_> {
    /// FitError.Error(): "0/N clusters are available: " and the histogram of reasons, each as
    /// "<count> <reason>", sorted as strings.
    pub fn error_message(&self) -> String {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for reason in &self.reasons {
            *counts.entry(reason).or_default() += 1;
        }
        let mut histogram: Vec<String> = counts.iter().map(|(reason, n)| format!("{n} {reason}")).collect();
        histogram.sort();
        format!("0/{} clusters are available: {}.", self.total, histogram.join(", "))
    }
}

/// Runs the filters over every cluster. `affinity` is the placement's `clusterAffinity` or the
/// `clusterAffinities` term being tried; `None` lets every cluster pass that filter.
pub(super) fn find_clusters_that_fit<'a>(
    placement: &Placement,
    affinity: Option<&ClusterAffinity>,
    clusters: &'a [Arc<Cluster>],
    previous: &[TargetCluster],
    evicting: &[&str],
) -> Fit<'a> {
    let mut fit = Fit { feasible: Vec::new(), total: clusters.len(), reasons: Vec::new() };
    for cluster in clusters.iter().map(Arc::as_ref) {
        // A deleting cluster is being cleaned of its works; it is skipped without a reason,
        // as upstream does.
        if cluster.metadata.deletion_timestamp.is_some() {
            continue;
        }
        match filter(placement, affinity, cluster, previous, evicting) {
            Ok(()) => fit.feasible.push(cluster),
            Err(reason) => fit.reasons.push(reason),
        }
    }
    fit
}

/// The filters in a fixed order (upstream's order comes from map iteration), stopping at the
/// first failure so that each cluster contributes one reason.
fn filter(
    placement: &Placement,
    affinity: Option<&ClusterAffinity>,
    cluster: &Cluster,
    previous: &[TargetCluster],
    evicting: &[&str],
) -> Result<(), String> {
    if evicting.contains(&cluster_name(cluster)) {
        return Err("cluster(s) is in the process of eviction".into());
    }
    taint_toleration(placement, cluster, previous)?;
    if let Some(affinity) = affinity
        && !cluster_matches(cluster, affinity)
    {
        return Err("cluster(s) did not match the placement cluster affinity constraint".into());
    }
    spread_properties(placement, cluster)
}

fn cluster_name(cluster: &Cluster) -> &str {
    cluster.metadata.name.as_deref().unwrap_or_default()
}

/// A NoSchedule or NoExecute taint the placement does not tolerate keeps a new cluster out. A
/// cluster the binding already uses always stays, as upstream's: moving off a NoExecute
/// cluster is the taint manager's eviction, after the placement's toleration seconds.
fn taint_toleration(placement: &Placement, cluster: &Cluster, previous: &[TargetCluster]) -> Result<(), String> {
    let name = cluster_name(cluster);
    if previous.iter().any(|t| t.name == name) {
        return Ok(());
    }
    let tolerations = placement.cluster_tolerations.as_deref().unwrap_or_default();
    let blocking = |t: &Taint| t.effect == "NoExecute" || t.effect == "NoSchedule";
    let untolerated = cluster
        .spec
        .taints
        .iter()
        .flatten()
        .find(|taint| blocking(taint) && !tolerations.iter().any(|tol| tolerates(tol, taint)));
    match untolerated {
        Some(taint) => Err(format!("cluster(s) had untolerated taint {{{}}}", taint_string(taint))),
        None => Ok(()),
    }
}

/// Toleration.ToleratesTaint: an empty effect or key matches any; `Exists` ignores the value,
/// `Equal` (the default) compares it.
pub(crate) fn tolerates(toleration: &Toleration, taint: &Taint) -> bool {
    let effect = toleration.effect.as_deref().unwrap_or_default();
    if !effect.is_empty() && effect != taint.effect {
        return false;
    }
    let key = toleration.key.as_deref().unwrap_or_default();
    if !key.is_empty() && key != taint.key {
        return false;
    }
    match toleration.operator.as_deref().unwrap_or_default() {
        "" | "Equal" => toleration.value.as_deref().unwrap_or_default() == taint.value.as_deref().unwrap_or_default(),
        "Exists" => true,
        _ => false,
    }
}

/// Taint.ToString: `key=value:effect`, `key=value:`, `key:effect` or `key`.
fn taint_string(taint: &Taint) -> String {
    let value = taint.value.as_deref().unwrap_or_default();
    match (value.is_empty(), taint.effect.is_empty()) {
        (true, true) => taint.key.clone(),
        (false, true) => format!("{}={value}:", taint.key),
        (true, false) => format!("{}:{}", taint.key, taint.effect),
        (false, false) => format!("{}={value}:{}", taint.key, taint.effect),
    }
}

/// util.ClusterMatches: not excluded, and the label selector, the field selector and the name
/// list (each when given) all match.
pub(super) fn cluster_matches(cluster: &Cluster, affinity: &ClusterAffinity) -> bool {
    let name = cluster_name(cluster);
    if affinity.exclude.iter().flatten().any(|n| n == name) {
        return false;
    }
    if let Some(selector) = &affinity.label_selector {
        // An invalid selector matches nothing, as LabelSelectorAsSelector's error does upstream.
        let Ok(selector) = LabelSelector::from_label_selector(selector) else { return false };
        let labels = cluster.metadata.labels.clone().unwrap_or_default();
        if !selector.matches(&labels) {
            return false;
        }
    }
    if let Some(fields) = &affinity.field_selector
        && !fields.match_expressions.iter().flatten().all(|expr| field_matches(cluster, expr))
    {
        return false;
    }
    match affinity.cluster_names.as_deref() {
        None | Some([]) => true,
        Some(names) => names.iter().any(|n| n == name),
    }
}

/// One field requirement: `zone` is matched against the cluster's zones as a set, `provider`
/// and `region` as label-style requirements over the cluster's fields.
fn field_matches(cluster: &Cluster, expr: &NodeSelectorRequirement) -> bool {
    let values = expr.values.clone().unwrap_or_default();
    if expr.key == "zone" {
        return zones_match(&expr.operator, &values, &cluster_zones(cluster));
    }
    let operator = match expr.operator.as_str() {
        "In" => Operator::In,
        "NotIn" => Operator::NotIn,
        "Exists" => Operator::Exists,
        "DoesNotExist" => Operator::DoesNotExist,
        "Gt" => Operator::GreaterThan,
        "Lt" => Operator::LessThan,
        _ => return false,
    };
    let Ok(requirement) = Requirement::new(&expr.key, operator, values) else { return false };
    let mut fields = BTreeMap::new();
    for (key, value) in [("provider", &cluster.spec.provider), ("region", &cluster.spec.region)] {
        if let Some(value) = value.as_deref().filter(|v| !v.is_empty()) {
            fields.insert(key.to_string(), value.to_string());
        }
    }
    requirement.matches(&fields)
}

/// The cluster's zones: `zones`, or the deprecated single `zone`.
pub(super) fn cluster_zones(cluster: &Cluster) -> Vec<String> {
    match (&cluster.spec.zones, &cluster.spec.zone) {
        (Some(zones), _) if !zones.is_empty() => zones.clone(),
        (_, Some(zone)) if !zone.is_empty() => vec![zone.clone()],
        _ => Vec::new(),
    }
}

/// matchZones: `In` needs every zone of the cluster among the values (and at least one zone),
/// `NotIn` none of them; `Exists`/`DoesNotExist` test for any zone.
fn zones_match(operator: &str, values: &[String], zones: &[String]) -> bool {
    let wanted: BTreeSet<&String> = values.iter().collect();
    match operator {
        "In" => !zones.is_empty() && zones.iter().all(|z| wanted.contains(z)),
        "NotIn" => zones.iter().all(|z| !wanted.contains(z)),
        "Exists" => !zones.is_empty(),
        "DoesNotExist" => zones.is_empty(),
        _ => false,
    }
}

/// Spreading by a field needs the field: a cluster without it cannot be placed in a group.
fn spread_properties(placement: &Placement, cluster: &Cluster) -> Result<(), String> {
    let has = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.is_empty());
    for constraint in placement.spread_constraints.iter().flatten() {
        match constraint.spread_by_field {
            Some(SpreadByField::Provider) if !has(&cluster.spec.provider) => {
                return Err("cluster(s) didn't have provider property".into());
            }
            Some(SpreadByField::Region) if !has(&cluster.spec.region) => {
                return Err("cluster(s) didn't have region property".into());
            }
            Some(SpreadByField::Zone) if cluster_zones(cluster).is_empty() => {
                return Err("cluster(s) didn't have zone property".into());
            }
            _ => {}
        }
    }
    Ok(())
}
