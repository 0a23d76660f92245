//! How many more replicas a cluster can hold, from its `status.resourceSummary` (upstream's
//! general estimator; the per-node scheduler-estimator and resource models are not used).

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity as K8sQuantity;

use karmadactl_apimachinery::quantity::Quantity;
use karmadactl_karmada_api::cluster::{Cluster, ResourceSummary};
use karmadactl_karmada_api::work::replicas::ReplicaRequirements;

/// The replicas `cluster` can still take: limited by free pod slots and, for every resource
/// one replica requests, by free = allocatable − allocated − allocating. A cluster that has not
/// reported a summary can take none.
pub(super) fn available_replicas(cluster: &Cluster, requirements: Option<&ReplicaRequirements>) -> i32 {
    let Some(summary) = cluster.status.as_ref().and_then(|s| s.resource_summary.as_ref()) else { return 0 };
    let pods = free_units(summary, "pods");
    if pods <= 0 {
        return 0;
    }
    let mut max = pods;
    for (name, request) in requirements.and_then(|r| r.resource_request.as_ref()).into_iter().flatten() {
        let request = scaled(name, parse(request));
        if request <= 0 {
            continue;
        }
        // A resource the cluster does not report at all cannot be provided.
        if !summary.allocatable.as_ref().is_some_and(|a| a.contains_key(name)) {
            return 0;
        }
        let free = free_scaled(summary, name);
        if free <= 0 {
            return 0;
        }
        max = max.min(free / request);
    }
    i32::try_from(max).unwrap_or(i32::MAX)
}

fn parse(q: &K8sQuantity) -> Quantity {
    Quantity::parse(&q.0).unwrap_or_default()
}

fn get(map: &Option<BTreeMap<String, K8sQuantity>>, name: &str) -> Quantity {
    map.as_ref().and_then(|m| m.get(name)).map(parse).unwrap_or_default()
}

/// Free milli-units of one resource.
fn free_millis(summary: &ResourceSummary, name: &str) -> i128 {
    get(&summary.allocatable, name).millis()
        - get(&summary.allocated, name).millis()
        - get(&summary.allocating, name).millis()
}

fn free_units(summary: &ResourceSummary, name: &str) -> i128 {
    ceil_units(free_millis(summary, name))
}

/// The unit division compares in: millicores for CPU (Quantity.MilliValue), whole units,
/// rounded up, for everything else (Quantity.Value).
fn free_scaled(summary: &ResourceSummary, name: &str) -> i128 {
    if name == "cpu" { free_millis(summary, name) } else { free_units(summary, name) }
}

fn scaled(name: &str, q: Quantity) -> i128 {
    if name == "cpu" { q.millis() } else { ceil_units(q.millis()) }
}

fn ceil_units(millis: i128) -> i128 {
    millis.div_euclid(1000) + i128::from(millis.rem_euclid(1000) != 0)
}
