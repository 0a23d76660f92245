//! Placement: picks the member clusters for one binding and divides its replicas among them,
//! as upstream's karmada-scheduler does, but as a pure function of its inputs so that the same
//! binding and the same fleet always give the same answer.
//!
//! * `filter`: which clusters may hold the binding, and the FitError message when none may.
//! * `spread`: which of those are chosen under `spreadConstraints`.
//! * `estimate`: how many replicas a cluster can still take, from its resource summary.
//! * `divide`: how the replicas are shared out among the chosen clusters.
//!
//! Where upstream differs, and why:
//! * Upstream breaks ties among equally weighted clusters at random; here by name.
//! * `clusterAffinities` are always tried from the first term: the binding's observed affinity
//!   name is not an input, so a binding returns to its preferred term as soon as it fits.
//! * The APIEnablement filter is not applied: the resource's kind is not in [`ScheduleInput`]. Workload
//!   affinity, overflow affinities,
//!   multi-component replicas, the scheduler-estimator, resource models and the Fresh
//!   reassignment mode (`rescheduleTriggeredAt`) are not implemented.
//! * Spreading works by any field or label, not only by cluster and region as upstream's does,
//!   and groups are taken best-first rather than searched as combinations (see `spread`).
//! * A dynamic scale-down shrinks only clusters that are still candidates (upstream also
//!   weighs clusters that no longer pass the filters).

mod divide;
mod estimate;
mod filter;
mod spread;
#[cfg(test)]
mod tests;

use std::sync::Arc;

pub(crate) use filter::tolerates;

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::placement::{Placement, ReplicaDivisionPreference, ReplicaSchedulingType};
use karmadactl_karmada_api::policy::selector::ClusterAffinity;
use karmadactl_karmada_api::work::binding::TargetCluster;
use karmadactl_karmada_api::work::replicas::ReplicaRequirements;

/// Everything one scheduling decision depends on.
pub struct ScheduleInput<'a> {
    pub placement: &'a Placement,
    /// The template's replicas (0 for objects without replicas, which go whole to every
    /// selected cluster).
    pub replicas: i32,
    pub replica_requirements: Option<&'a ReplicaRequirements>,
    /// Every Cluster the plane knows, in any order: the cache's own copies, since a copy per
    /// binding scheduled would cost every Cluster's whole status each time.
    pub clusters: &'a [Arc<Cluster>],
    /// The binding's current `spec.clusters`: clusters already chosen keep tolerating
    /// NoSchedule taints that arrived after placement.
    pub previous: &'a [TargetCluster],
    /// Clusters the binding is being evicted from (its graceful eviction tasks): upstream's
    /// ClusterEviction filter keeps them out until the eviction is over.
    pub evicting: &'a [&'a str],
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

/// Schedules one binding: filter the clusters, select among them under the spread
/// constraints, divide the replicas.
///
/// With `clusterAffinities`, each term is tried in order and the first that schedules wins;
/// when none does, the first term's error is returned, as upstream reports it.
pub fn schedule(input: &ScheduleInput<'_>) -> Result<ScheduleResult, ScheduleError> {
    let placement = input.placement;
    if placement.cluster_affinity.is_none()
        && let Some(terms) = placement.cluster_affinities.as_deref().filter(|t| !t.is_empty())
    {
        let mut first_error = None;
        for term in terms {
            match schedule_with(input, Some(&term.affinity())) {
                Ok(clusters) => {
                    return Ok(ScheduleResult { clusters, observed_affinity_name: Some(term.affinity_name.clone()) });
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        return Err(first_error.expect("at least one term was tried"));
    }
    let clusters = schedule_with(input, placement.cluster_affinity.as_ref())?;
    Ok(ScheduleResult { clusters, observed_affinity_name: None })
}

/// One scheduling attempt with one cluster affinity (or none).
fn schedule_with(
    input: &ScheduleInput<'_>,
    affinity: Option<&ClusterAffinity>,
) -> Result<Vec<TargetCluster>, ScheduleError> {
    let placement = input.placement;
    let fail = |message: String| ScheduleError { message };

    let fit = filter::find_clusters_that_fit(placement, affinity, input.clusters, input.previous, input.evicting);
    if fit.feasible.is_empty() {
        return Err(fail(fit.error_message()));
    }

    let ranked = fit
        .feasible
        .iter()
        .map(|c| {
            let name = c.metadata.name.as_deref().unwrap_or_default();
            spread::Ranked {
                cluster: c,
                name,
                scheduled: input.previous.iter().any(|t| t.name == name),
                available: estimate::available_replicas(c, input.replica_requirements),
            }
        })
        .collect();
    let constraints = if ignores_spread_constraints(placement) {
        &[][..]
    } else {
        placement.spread_constraints.as_deref().unwrap_or_default()
    };
    let need_replicas = needs_capacity(placement).then_some(input.replicas);
    let selected = spread::select_clusters(constraints, ranked, need_replicas)
        .map_err(|e| fail(format!("failed to select clusters: {e}")))?;
    if selected.is_empty() {
        return Err(fail("failed to assign replicas: no clusters available to schedule".into()));
    }

    let mut targets: Vec<TargetCluster> = if input.replicas > 0 {
        let clusters: Vec<&Cluster> = selected.iter().map(|r| r.cluster).collect();
        let strategy = divide::Strategy::of(placement);
        divide::assign(strategy, &clusters, input.replicas, input.replica_requirements, input.previous)
            .map_err(|e| fail(format!("failed to assign replicas: {e}")))?
            .into_iter()
            .map(|(name, replicas)| TargetCluster { name, replicas: Some(replicas), components: None })
            .collect()
    } else {
        // Objects without replicas go whole to every selected cluster.
        selected.iter().map(|r| TargetCluster { name: r.name.to_string(), replicas: None, components: None }).collect()
    };
    targets.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(targets)
}

/// Static weights decide the clusters themselves, so upstream ignores spread constraints for
/// a Weighted division without dynamic weights.
fn ignores_spread_constraints(placement: &Placement) -> bool {
    let Some(rs) = &placement.replica_scheduling else { return false };
    let divided = rs.replica_scheduling_type != Some(ReplicaSchedulingType::Duplicated);
    let weighted = rs.replica_division_preference != Some(ReplicaDivisionPreference::Aggregated);
    let static_weights = match &rs.weight_preference {
        None => true,
        Some(w) => w.static_weight_list.as_ref().is_some_and(|l| !l.is_empty()) && w.dynamic_weight.is_none(),
    };
    divided && weighted && static_weights
}

/// Whether selecting clusters must mind their capacity: not when every cluster gets every
/// replica.
fn needs_capacity(placement: &Placement) -> bool {
    placement
        .replica_scheduling
        .as_ref()
        .is_some_and(|rs| rs.replica_scheduling_type != Some(ReplicaSchedulingType::Duplicated))
}
