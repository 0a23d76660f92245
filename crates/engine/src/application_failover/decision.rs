//! When an application has failed on a cluster: its health there has been `Unhealthy` for
//! `tolerationSeconds` in a row (upstream's `workloadUnhealthyMap` and `detectFailure`), and
//! the eviction task that cluster gets (upstream's `buildTaskOptions`). Pure, so the rules are
//! tested without a plane.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use karmadactl_karmada_api::policy::failover::{ApplicationFailoverBehavior, PurgeMode};
use karmadactl_karmada_api::work::binding::ResourceBindingSpec;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::eviction::{EvictionOptions, REASON_APPLICATION_FAILURE};
use karmadactl_karmada_api::work::health::ResourceHealth;

use crate::config::FeatureGates;
use crate::context::BindingKey;
use crate::state_preservation;

/// Upstream's default `decisionConditions.tolerationSeconds`.
pub const DEFAULT_TOLERATION_SECONDS: i32 = 300;

/// The clusters where the workload is unhealthy and not already being evicted from, and those
/// where it is healthy or its health is unknown (upstream's
/// `distinguishUnhealthyClustersWithOthers`). A cluster without a reported health is in neither.
pub fn split_by_health(items: &[AggregatedStatusItem], spec: &ResourceBindingSpec) -> (Vec<String>, Vec<String>) {
    let mut unhealthy = vec![];
    let mut others = vec![];
    for item in items {
        match item.health {
            Some(ResourceHealth::Unhealthy) if !spec.cluster_in_graceful_eviction_tasks(&item.cluster_name) => {
                unhealthy.push(item.cluster_name.clone());
            }
            Some(ResourceHealth::Healthy | ResourceHealth::Unknown) => others.push(item.cluster_name.clone()),
            _ => {}
        }
    }
    (unhealthy, others)
}

/// Since when each binding's workload has been unhealthy on each cluster. In memory, as
/// upstream keeps it: after a restart the toleration starts again.
#[derive(Default)]
pub struct UnhealthySince {
    since: Mutex<HashMap<BindingKey, HashMap<String, Instant>>>,
}

impl UnhealthySince {
    /// Records `unhealthy` as seen at `now` (a cluster keeps its first sighting) and returns
    /// the clusters unhealthy for at least `toleration`, and how long until the next one is,
    /// if any is still within it.
    pub fn detect(
        &self,
        key: &BindingKey,
        unhealthy: &[String],
        toleration: Duration,
        now: Instant,
    ) -> (Vec<String>, Option<Duration>) {
        let mut all = self.since.lock().unwrap_or_else(|e| e.into_inner());
        let clusters = all.entry(key.clone()).or_default();
        let mut expired = vec![];
        let mut next: Option<Duration> = None;
        for cluster in unhealthy {
            let since = *clusters.entry(cluster.clone()).or_insert(now);
            let elapsed = now.saturating_duration_since(since);
            if elapsed >= toleration {
                expired.push(cluster.clone());
            } else {
                let left = toleration - elapsed;
                next = Some(next.map_or(left, |n| n.min(left)));
            }
        }
        (expired, next)
    }

    /// Forgets the clusters no longer targeted (evicted or unscheduled) and those now healthy
    /// or unknown (upstream's `deleteIrrelevantClusters`).
    pub fn keep_only(&self, key: &BindingKey, targeted: &[String], others: &[String]) {
        let mut all = self.since.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(clusters) = all.get_mut(key) {
            clusters.retain(|c, _| targeted.contains(c) && !others.contains(c));
            if clusters.is_empty() {
                all.remove(key);
            }
        }
    }

    /// Forgets the binding (gone, or without application failover).
    pub fn forget(&self, key: &BindingKey) {
        self.since.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }
}

/// The eviction task for `cluster`, or why none can be made, as upstream's `buildTaskOptions`
/// words it. `clusters_before` are the binding's clusters before this failover.
pub fn task_options(
    behavior: &ApplicationFailoverBehavior,
    items: &[AggregatedStatusItem],
    cluster: &str,
    producer: &str,
    clusters_before: &[String],
    features: &FeatureGates,
) -> Result<EvictionOptions, String> {
    let purge_mode = behavior.purge_mode.unwrap_or(PurgeMode::Gracefully);
    let mut options = EvictionOptions {
        purge_mode: Some(purge_mode),
        producer: producer.to_string(),
        reason: REASON_APPLICATION_FAILURE.to_string(),
        ..Default::default()
    };
    if features.stateful_failover_injection
        && let Some(rules) = behavior.state_preservation.as_ref().filter(|p| !p.rules.is_empty())
    {
        let status = items
            .iter()
            .find(|i| i.cluster_name == cluster)
            .and_then(|i| i.status.as_ref())
            .ok_or_else(|| format!("the application status has not yet been collected from Cluster({cluster})"))?;
        options.preserved_label_state = Some(state_preservation::preserved_label_state(rules, status)?);
        options.clusters_before_failover = Some(clusters_before.to_vec());
    }
    match purge_mode {
        PurgeMode::Gracefully if features.graceful_eviction => {
            options.grace_period_seconds = behavior.grace_period_seconds;
        }
        PurgeMode::Gracefully => {
            return Err("GracefulEviction featureGate must be enabled when purgeMode is Gracefully".into());
        }
        PurgeMode::Never => options.suppress_deletion = Some(true),
        PurgeMode::Directly => {}
    }
    Ok(options)
}

#[cfg(test)]
#[path = "decision_tests.rs"]
mod tests;
