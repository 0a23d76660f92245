//! Placement: picks the member clusters for one binding and divides its replicas among them,
//! as upstream's karmada-scheduler does, but as a pure function of its inputs so that the same
//! binding and the same fleet always give the same answer.

use crate::karmada::api::cluster::Cluster;
use crate::karmada::api::policy::placement::Placement;
use crate::karmada::api::work::binding::TargetCluster;
use crate::karmada::api::work::replicas::ReplicaRequirements;

/// Everything one scheduling decision depends on.
pub struct ScheduleInput<'a> {
    pub placement: &'a Placement,
    /// The template's replicas (0 for objects without replicas, which go whole to every
    /// selected cluster).
    pub replicas: i32,
    pub replica_requirements: Option<&'a ReplicaRequirements>,
    /// Every Cluster the plane knows, in any order.
    pub clusters: &'a [Cluster],
    /// The binding's current `spec.clusters`: clusters already chosen keep tolerating
    /// NoSchedule taints that arrived after placement.
    pub previous: &'a [TargetCluster],
}

/// A decision: the target clusters sorted by name, and which of `clusterAffinities` it used.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleResult {
    pub clusters: Vec<TargetCluster>,
    /// `affinityName` of the `clusterAffinities` term that produced the result, if any.
    pub observed_affinity_name: Option<String>,
}

/// Why no placement was possible, worded as upstream's scheduler words it
/// ("0/3 clusters are available: ...").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ScheduleError {
    pub message: String,
}

/// Schedules one binding.
pub fn schedule(input: &ScheduleInput<'_>) -> Result<ScheduleResult, ScheduleError> {
    let _ = input;
    Err(ScheduleError { message: "the scheduler is not built yet".into() })
}
