//! Graceful eviction: a cluster's replicas are kept until their replacements are ready.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde::{Deserialize, Serialize};

use crate::policy::failover::PurgeMode;

/// An eviction in progress from one cluster.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GracefulEvictionTask {
    /// The cluster being evicted from.
    pub from_cluster: String,
    /// How the old replicas are removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purge_mode: Option<PurgeMode>,
    /// Replicas on the evicted cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Why the eviction happens, in CamelCase.
    #[cfg_attr(
        feature = "schema",
        schemars(length(min = 1, max = 32), regex(pattern = r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"))
    )]
    pub reason: String,
    /// Details of the eviction.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = 1024)))]
    pub message: Option<String>,
    /// The controller that started the eviction.
    pub producer: String,
    /// Seconds to wait before removing the old replicas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace_period_seconds: Option<i32>,
    /// Keep the old replicas until the task is removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppress_deletion: Option<bool>,
    /// Labels preserved from the failed application (see `statePreservation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserved_label_state: Option<BTreeMap<String, String>>,
    /// The binding's clusters before the failover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clusters_before_failover: Option<Vec<String>>,
    /// When the task was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
}

/// Why an eviction happened (`GracefulEvictionTask.reason`), as upstream names the reasons.
pub const REASON_TAINT_UNTOLERATED: &str = "TaintUntolerated";
pub const REASON_APPLICATION_FAILURE: &str = "ApplicationFailure";

/// Who made an eviction (`GracefulEvictionTask.producer`), as upstream names its controllers:
/// the taint manager by a constant, the application failover controllers by their names.
pub const PRODUCER_TAINT_MANAGER: &str = "TaintManager";
pub const PRODUCER_RB_APPLICATION_FAILOVER: &str = "resource-binding-application-failover-controller";
pub const PRODUCER_CRB_APPLICATION_FAILOVER: &str = "cluster-resource-binding-application-failover-controller";

/// What a new eviction task records besides the cluster and its replicas (upstream's
/// `TaskOptions`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvictionOptions {
    pub purge_mode: Option<PurgeMode>,
    pub producer: String,
    pub reason: String,
    pub message: Option<String>,
    pub grace_period_seconds: Option<i32>,
    pub suppress_deletion: Option<bool>,
    pub preserved_label_state: Option<BTreeMap<String, String>>,
    pub clusters_before_failover: Option<Vec<String>>,
}

impl super::binding::ResourceBindingSpec {
    /// Whether the scheduling result lists the cluster.
    pub fn target_contains(&self, cluster: &str) -> bool {
        self.clusters.iter().flatten().any(|t| t.name == cluster)
    }

    /// Whether an eviction from the cluster is in progress.
    pub fn cluster_in_graceful_eviction_tasks(&self, cluster: &str) -> bool {
        self.graceful_eviction_tasks.iter().flatten().any(|t| t.from_cluster == cluster)
    }

    /// Upstream's `GracefulEvictCluster`: takes the cluster out of the scheduling result and,
    /// unless an eviction from it is already under way, records one with the cluster's
    /// replicas. A cluster the result does not list is left alone. Returns whether anything
    /// changed.
    pub fn graceful_evict_cluster(&mut self, cluster: &str, options: EvictionOptions) -> bool {
        let Some(clusters) = self.clusters.as_mut() else {
            return false;
        };
        let Some(i) = clusters.iter().position(|t| t.name == cluster) else {
            return false;
        };
        let evicted = clusters.remove(i);
        if self.cluster_in_graceful_eviction_tasks(cluster) {
            return true;
        }
        let task = GracefulEvictionTask {
            from_cluster: evicted.name,
            purge_mode: options.purge_mode,
            replicas: evicted.replicas.filter(|r| *r > 0),
            reason: options.reason,
            message: options.message,
            producer: options.producer,
            grace_period_seconds: options.grace_period_seconds,
            suppress_deletion: options.suppress_deletion,
            preserved_label_state: options.preserved_label_state,
            clusters_before_failover: options.clusters_before_failover,
            creation_timestamp: None,
        };
        self.graceful_eviction_tasks.get_or_insert_with(Vec::new).push(task);
        true
    }

    /// The clusters whose Works the binding keeps: the scheduled ones and those being evicted
    /// other than `Directly` (upstream's `ObtainBindingSpecExistingClusters`, without the
    /// `requiredBy` part, which the dependencies distributor handles here).
    pub fn clusters_keeping_works(&self) -> Vec<&str> {
        let scheduled = self.clusters.iter().flatten().map(|t| t.name.as_str());
        let evicting = self
            .graceful_eviction_tasks
            .iter()
            .flatten()
            .filter(|t| t.purge_mode != Some(PurgeMode::Directly))
            .map(|t| t.from_cluster.as_str());
        scheduled.chain(evicting).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::binding::{ResourceBindingSpec, TargetCluster};

    fn spec(clusters: &[(&str, i32)]) -> ResourceBindingSpec {
        ResourceBindingSpec {
            clusters: Some(
                clusters
                    .iter()
                    .map(|(n, r)| TargetCluster { name: n.to_string(), replicas: Some(*r), ..Default::default() })
                    .collect(),
            ),
            ..Default::default()
        }
    }

    fn options(mode: PurgeMode) -> EvictionOptions {
        EvictionOptions {
            purge_mode: Some(mode),
            producer: PRODUCER_TAINT_MANAGER.into(),
            reason: REASON_TAINT_UNTOLERATED.into(),
            ..Default::default()
        }
    }

    #[test]
    fn evicting_moves_the_cluster_into_one_task() {
        let mut s = spec(&[("m1", 2), ("m2", 4)]);
        assert!(s.graceful_evict_cluster("m2", options(PurgeMode::Gracefully)));
        assert!(!s.target_contains("m2") && s.target_contains("m1"));
        let tasks = s.graceful_eviction_tasks.clone().unwrap();
        assert_eq!(tasks.len(), 1);
        assert_eq!((tasks[0].from_cluster.as_str(), tasks[0].replicas), ("m2", Some(4)));
        assert_eq!(tasks[0].reason, "TaintUntolerated");
        assert_eq!(s.clusters_keeping_works(), vec!["m1", "m2"]);
        // Not scheduled there any more: nothing to do.
        assert!(!s.graceful_evict_cluster("m2", options(PurgeMode::Gracefully)));
        assert_eq!(s.graceful_eviction_tasks.as_ref().unwrap().len(), 1);
    }

    #[test]
    fn a_direct_eviction_keeps_no_work_and_zero_replicas_are_not_recorded() {
        let mut s = spec(&[("m1", 0)]);
        assert!(s.graceful_evict_cluster("m1", options(PurgeMode::Directly)));
        assert_eq!(s.graceful_eviction_tasks.as_ref().unwrap()[0].replicas, None);
        assert!(s.clusters_keeping_works().is_empty());
    }
}
