//! Cluster selection under `spreadConstraints`: how many groups (regions, zones, providers,
//! label values) and how many clusters the binding goes to.
//!
//! Upstream implements spreading by cluster and by region only; here one group-forming
//! constraint (the first that is not by cluster) works for any field or label, with the same
//! shape as upstream's region algorithm. Upstream searches combinations of regions by score;
//! here groups are taken in order (roomiest first, then by name), which gives the same answer
//! whenever the best-ranked groups hold enough clusters.

use std::collections::BTreeMap;

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::placement::{SpreadByField, SpreadConstraint};

use super::filter::cluster_zones;

/// A feasible cluster with what ranks it: clusters the binding already uses first (upstream's
/// ClusterLocality score), then the most available replicas, then the name.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ranked<'a> {
    pub cluster: &'a Cluster,
    pub name: &'a str,
    pub scheduled: bool,
    pub available: i32,
}

/// What forms the groups of a constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
enum GroupBy {
    Cluster,
    Field(SpreadByField),
    Label(String),
}

/// A constraint after the policy webhook's defaults: no field and no label means by cluster,
/// minGroups defaults to 1; maxGroups absent or 0 is read as no limit.
#[derive(Debug, Clone)]
struct Rule {
    by: GroupBy,
    min: usize,
    max: usize,
}

impl Rule {
    fn of(c: &SpreadConstraint) -> Self {
        let by = match (&c.spread_by_field, &c.spread_by_label) {
            (Some(SpreadByField::Cluster), _) => GroupBy::Cluster,
            (Some(field), _) => GroupBy::Field(*field),
            (None, Some(label)) if !label.is_empty() => GroupBy::Label(label.clone()),
            _ => GroupBy::Cluster,
        };
        let min = usize::try_from(c.min_groups.unwrap_or(0)).unwrap_or(0).max(1);
        let max = match c.max_groups.and_then(|m| usize::try_from(m).ok()) {
            Some(0) | None => usize::MAX,
            Some(m) => m,
        };
        Self { by, min, max }
    }

    fn kind(&self) -> String {
        match &self.by {
            GroupBy::Cluster => "clusters".into(),
            GroupBy::Field(SpreadByField::Region) => "region".into(),
            GroupBy::Field(SpreadByField::Zone) => "zone".into(),
            GroupBy::Field(SpreadByField::Provider) => "provider".into(),
            GroupBy::Field(SpreadByField::Cluster) => "clusters".into(),
            GroupBy::Label(key) => format!("groups of label {key}"),
        }
    }

    fn group_of(&self, cluster: &Cluster) -> Option<String> {
        let non_empty = |v: &Option<String>| v.clone().filter(|v| !v.is_empty());
        match &self.by {
            GroupBy::Cluster | GroupBy::Field(SpreadByField::Cluster) => cluster.metadata.name.clone(),
            GroupBy::Field(SpreadByField::Region) => non_empty(&cluster.spec.region),
            GroupBy::Field(SpreadByField::Provider) => non_empty(&cluster.spec.provider),
            GroupBy::Field(SpreadByField::Zone) => cluster_zones(cluster).into_iter().next(),
            GroupBy::Label(key) => cluster.metadata.labels.as_ref().and_then(|l| l.get(key)).cloned(),
        }
    }
}

/// Picks the clusters within the constraints. `need_replicas` is the replica count the chosen
/// clusters must be able to hold together, when the division depends on capacity.
pub(super) fn select_clusters<'a>(
    constraints: &[SpreadConstraint],
    mut ranked: Vec<Ranked<'a>>,
    need_replicas: Option<i32>,
) -> Result<Vec<Ranked<'a>>, String> {
    ranked.sort_by(|a, b| {
        b.scheduled.cmp(&a.scheduled).then(b.available.cmp(&a.available)).then_with(|| a.name.cmp(b.name))
    });
    if constraints.is_empty() {
        return Ok(ranked);
    }
    let rules: Vec<Rule> = constraints.iter().map(Rule::of).collect();
    let by_cluster = rules.iter().find(|r| r.by == GroupBy::Cluster);
    match rules.iter().find(|r| r.by != GroupBy::Cluster) {
        Some(group_rule) => by_groups(group_rule, by_cluster, ranked),
        None => by_cluster.map_or(Ok(Vec::new()), |rule| by_cluster_only(rule, ranked, need_replicas)),
    }
}

/// selectBestClustersByCluster: the best `maxGroups` clusters; when capacity matters and they
/// cannot hold the replicas, the weakest are swapped for roomier ones left out.
fn by_cluster_only<'a>(
    rule: &Rule,
    ranked: Vec<Ranked<'a>>,
    need_replicas: Option<i32>,
) -> Result<Vec<Ranked<'a>>, String> {
    if ranked.len() < rule.min {
        return Err("the number of feasible clusters is less than spreadConstraint.MinGroups".into());
    }
    let need = rule.max.min(ranked.len());
    let Some(replicas) = need_replicas else { return Ok(ranked[..need].to_vec()) };
    let (mut chosen, mut rest) = (ranked[..need].to_vec(), ranked[need..].to_vec());
    let enough = |c: &[Ranked<'_>]| c.iter().map(|r| i64::from(r.available)).sum::<i64>() >= i64::from(replicas);
    for slot in (0..chosen.len()).rev() {
        if enough(&chosen) {
            break;
        }
        // The roomiest left-out cluster that beats the one in this slot.
        let better = rest
            .iter()
            .enumerate()
            .filter(|(_, r)| r.available > chosen[slot].available)
            .max_by(|(i, a), (j, b)| a.available.cmp(&b.available).then(j.cmp(i)))
            .map(|(i, _)| i);
        if let Some(i) = better {
            std::mem::swap(&mut chosen[slot], &mut rest[i]);
        }
    }
    if !enough(&chosen) {
        return Err(format!("no enough resource when selecting {need} clusters"));
    }
    Ok(chosen)
}

/// selectBestClustersByRegion generalised: the fewest groups (from minGroups up to maxGroups)
/// whose clusters satisfy the cluster constraint's minGroups; the best cluster of each chosen
/// group, then the best remaining clusters of those groups up to the cluster maxGroups.
fn by_groups<'a>(rule: &Rule, cluster_rule: Option<&Rule>, ranked: Vec<Ranked<'a>>) -> Result<Vec<Ranked<'a>>, String> {
    let mut groups: BTreeMap<String, Vec<Ranked<'a>>> = BTreeMap::new();
    for r in ranked {
        if let Some(group) = rule.group_of(r.cluster) {
            groups.entry(group).or_default().push(r);
        }
    }
    if groups.len() < rule.min {
        return Err(format!("the number of feasible {} is less than spreadConstraint.MinGroups", rule.kind()));
    }
    let room = |members: &[Ranked<'_>]| members.iter().map(|r| i64::from(r.available)).sum::<i64>();
    let mut ordered: Vec<(String, Vec<Ranked<'a>>)> = groups.into_iter().collect();
    ordered.sort_by(|(a, am), (b, bm)| room(bm).cmp(&room(am)).then_with(|| a.cmp(b)));

    let cluster_min = cluster_rule.map_or(1, |r| r.min);
    let cluster_max = cluster_rule.map_or(usize::MAX, |r| r.max);
    let most = rule.max.min(ordered.len());
    let count = (rule.min..=most)
        .find(|n| ordered[..*n].iter().map(|(_, m)| m.len()).sum::<usize>() >= cluster_min)
        .ok_or("the number of clusters is less than the cluster spreadConstraint.MinGroups")?;

    let mut chosen = Vec::new();
    let mut candidates = Vec::new();
    for (_, members) in ordered.into_iter().take(count) {
        let mut members = members.into_iter();
        chosen.extend(members.next());
        candidates.extend(members);
    }
    candidates.sort_by(|a, b| {
        b.scheduled.cmp(&a.scheduled).then(b.available.cmp(&a.available)).then_with(|| a.name.cmp(b.name))
    });
    let extra = cluster_max.saturating_sub(chosen.len());
    chosen.extend(candidates.into_iter().take(extra));
    Ok(chosen)
}
