//! Replica division among the selected clusters: upstream's assignment strategies
//! (Duplicated, static weights, dynamic weights, Aggregated) and its dispenser arithmetic.

use std::collections::{BTreeMap, BTreeSet};

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::placement::{
    Placement, ReplicaDivisionPreference, ReplicaSchedulingType, StaticClusterWeight,
};
use karmadactl_karmada_api::work::binding::TargetCluster;
use karmadactl_karmada_api::work::replicas::ReplicaRequirements;

use super::AssignmentMode;
use super::estimate::available_replicas;
use super::filter::cluster_matches;

/// How replicas are shared out, resolved from `replicaScheduling`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Strategy<'a> {
    /// Every cluster runs all replicas (also the meaning of an absent `replicaScheduling`).
    Duplicated,
    /// Proportional to the static weight list; an empty list weighs every cluster equally.
    StaticWeight(&'a [StaticClusterWeight]),
    /// Proportional to each cluster's available replicas.
    DynamicWeight,
    /// As few clusters as possible, the roomiest first.
    Aggregated,
}

impl<'a> Strategy<'a> {
    /// The type defaults to Divided (the CRD default) and a Divided preference to Weighted (the
    /// policy webhook's default), so every placement resolves to one strategy.
    pub fn of(placement: &'a Placement) -> Self {
        let Some(rs) = &placement.replica_scheduling else { return Self::Duplicated };
        if rs.replica_scheduling_type == Some(ReplicaSchedulingType::Duplicated) {
            return Self::Duplicated;
        }
        if rs.replica_division_preference == Some(ReplicaDivisionPreference::Aggregated) {
            return Self::Aggregated;
        }
        match &rs.weight_preference {
            Some(w) if w.dynamic_weight.is_some() => Self::DynamicWeight,
            Some(w) => Self::StaticWeight(w.static_weight_list.as_deref().unwrap_or_default()),
            None => Self::StaticWeight(&[]),
        }
    }
}

/// Divides `replicas` (> 0) among `clusters`; the result leaves out clusters given none.
pub(super) fn assign(
    strategy: Strategy<'_>,
    clusters: &[&Cluster],
    replicas: i32,
    requirements: Option<&ReplicaRequirements>,
    previous: &[TargetCluster],
    mode: AssignmentMode,
) -> Result<Vec<(String, i32)>, String> {
    let result = match strategy {
        Strategy::Duplicated => clusters.iter().map(|c| (name(c).to_string(), replicas)).collect(),
        Strategy::StaticWeight(rules) => static_weight(clusters, rules, replicas, previous),
        Strategy::DynamicWeight | Strategy::Aggregated => {
            let aggregated = matches!(strategy, Strategy::Aggregated);
            match mode {
                AssignmentMode::Steady => dynamic(clusters, replicas, requirements, previous, aggregated)?,
                AssignmentMode::Fresh => fresh(clusters, replicas, requirements, previous, aggregated)?,
            }
        }
    };
    Ok(result.into_iter().filter(|(_, n)| *n > 0).collect())
}

fn name(cluster: &Cluster) -> &str {
    cluster.metadata.name.as_deref().unwrap_or_default()
}

fn previous_replicas(previous: &[TargetCluster], cluster: &str) -> i32 {
    previous.iter().find(|t| t.name == cluster).and_then(|t| t.replicas).unwrap_or(0)
}

/// A cluster's weight is the largest weight among the rules that select it; clusters no rule
/// selects get nothing, unless no cluster has a weight, when all weigh 1.
fn static_weight(
    clusters: &[&Cluster],
    rules: &[StaticClusterWeight],
    replicas: i32,
    previous: &[TargetCluster],
) -> Vec<(String, i32)> {
    let entry = |c: &Cluster, weight: i64| Weight {
        name: name(c).to_string(),
        weight,
        last: previous_replicas(previous, name(c)),
    };
    let mut list: Vec<Weight> = clusters
        .iter()
        .filter_map(|c| {
            let weight = rules.iter().filter(|r| cluster_matches(c, &r.target_cluster)).map(|r| r.weight).max();
            weight.filter(|w| *w > 0).map(|w| entry(c, w))
        })
        .collect();
    if list.is_empty() {
        list = clusters.iter().map(|c| entry(c, 1)).collect();
    }
    dispense(replicas, list, Vec::new())
}

/// Dynamic weights and Aggregated, in upstream's steady mode: replicas already placed on
/// clusters that are still candidates stay; a scale-up spreads only the new replicas by
/// available capacity, a scale-down shrinks the placed ones in proportion.
fn dynamic(
    clusters: &[&Cluster],
    replicas: i32,
    requirements: Option<&ReplicaRequirements>,
    previous: &[TargetCluster],
    aggregated: bool,
) -> Result<Vec<(String, i32)>, String> {
    let candidates: BTreeSet<&str> = clusters.iter().map(|c| name(c)).collect();
    let scheduled: Vec<(String, i32)> = previous
        .iter()
        .filter(|t| candidates.contains(t.name.as_str()))
        .map(|t| (t.name.clone(), t.replicas.unwrap_or(0)))
        .collect();
    let assigned: i64 = scheduled.iter().map(|(_, n)| i64::from(*n)).sum();

    let (step, target, available, init) = match assigned.cmp(&i64::from(replicas)) {
        std::cmp::Ordering::Equal => return Ok(scheduled),
        // Scale down: the placed replicas are the weights; nothing is kept as a floor.
        std::cmp::Ordering::Greater => ("scale down", replicas, scheduled, Vec::new()),
        // Scale up (a first schedule included): only the missing replicas are divided.
        std::cmp::Ordering::Less => {
            let available =
                clusters.iter().map(|c| (name(c).to_string(), available_replicas(c, requirements))).collect();
            ("scale up", replicas - i32::try_from(assigned).unwrap_or(i32::MAX), available, scheduled)
        }
    };
    divide_by_room(available, target, init, aggregated, step)
}

/// Divides `target` replicas by each cluster's room (`available`), adding them to what `init`
/// already places; Aggregated keeps to as few clusters as hold them, those in `init` first.
fn divide_by_room(
    mut available: Vec<(String, i32)>,
    target: i32,
    init: Vec<(String, i32)>,
    aggregated: bool,
    step: &str,
) -> Result<Vec<(String, i32)>, String> {
    // Most room first; upstream's order among equals is unspecified, here it is the name.
    available.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));

    let total: i64 = available.iter().map(|(_, n)| i64::from(*n)).sum();
    if total < i64::from(target) {
        return Err(format!("failed to {step}: Clusters available replicas {total} are not enough to schedule."));
    }
    if aggregated {
        // Clusters that already run replicas come first so that new replicas join them.
        let running: BTreeSet<&str> = init.iter().filter(|(_, n)| *n > 0).map(|(n, _)| n.as_str()).collect();
        let (mut first, rest): (Vec<_>, Vec<_>) =
            available.into_iter().partition(|(n, _)| running.contains(n.as_str()));
        first.extend(rest);
        let mut sum = 0i64;
        let keep = first
            .iter()
            .position(|(_, n)| {
                sum += i64::from(*n);
                sum >= i64::from(target)
            })
            .map_or(first.len(), |i| i + 1);
        first.truncate(keep);
        available = first;
    }
    let weights = available
        .into_iter()
        .map(|(name, n)| Weight {
            last: init.iter().find(|(i, _)| *i == name).map_or(0, |(_, r)| *r),
            name,
            weight: n.into(),
        })
        .collect();
    Ok(dispense(target, weights, init))
}

/// Dynamic weights and Aggregated in upstream's Fresh mode: every replica is divided as on a
/// first schedule, each cluster's room counting the replicas it runs now (the estimate sees
/// them as allocated), so the result depends on capacity alone.
fn fresh(
    clusters: &[&Cluster],
    replicas: i32,
    requirements: Option<&ReplicaRequirements>,
    previous: &[TargetCluster],
    aggregated: bool,
) -> Result<Vec<(String, i32)>, String> {
    let rooms: Vec<(String, i32)> = clusters
        .iter()
        .map(|c| {
            let room = available_replicas(c, requirements).saturating_add(previous_replicas(previous, name(c)));
            (name(c).to_string(), room)
        })
        .collect();
    divide_by_room(rooms, replicas, Vec::new(), aggregated, "do fresh scale")
}

/// One cluster's claim in a division.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Weight {
    pub name: String,
    pub weight: i64,
    /// Replicas the cluster had before, preferred for remainders so that results stay put.
    pub last: i32,
}

/// The dispenser: each cluster gets floor(weight × replicas / total weight); the replicas left
/// over go one each to the clusters in order of weight, then previous replicas, then name.
/// The shares are added to `init`.
pub(super) fn dispense(replicas: i32, mut weights: Vec<Weight>, init: Vec<(String, i32)>) -> Vec<(String, i32)> {
    let sum: i128 = weights.iter().map(|w| i128::from(w.weight)).sum();
    if (replicas == 0 && !init.is_empty()) || sum == 0 {
        return init;
    }
    weights.sort_by(|a, b| b.weight.cmp(&a.weight).then(b.last.cmp(&a.last)).then_with(|| a.name.cmp(&b.name)));
    let mut shares: Vec<(String, i32)> = weights
        .iter()
        .map(|w| (w.name.clone(), i32::try_from(i128::from(w.weight) * i128::from(replicas) / sum).unwrap_or(i32::MAX)))
        .collect();
    let mut remain = replicas - shares.iter().map(|(_, n)| n).sum::<i32>();
    for (_, n) in shares.iter_mut() {
        if remain == 0 {
            break;
        }
        *n += 1;
        remain -= 1;
    }
    let mut merged: BTreeMap<String, i32> = init.into_iter().collect();
    for (name, n) in shares {
        *merged.entry(name).or_default() += n;
    }
    merged.into_iter().collect()
}
