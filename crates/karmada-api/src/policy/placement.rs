//! Where a policy places resources: which clusters, how replicas are spread and divided.

use k8s_openapi::api::core::v1::Toleration;
use serde::{Deserialize, Serialize};

use super::selector::{ClusterAffinity, ClusterAffinityTerm};

/// The placement rules of a policy (and, copied, of a binding).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    /// The clusters to schedule to; mutually exclusive with `clusterAffinities`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_affinity: Option<ClusterAffinity>,
    /// Ordered groups of clusters: the scheduler tries each group in turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_affinities: Option<Vec<ClusterAffinityTerm>>,
    /// Cluster taints this placement tolerates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_tolerations: Option<Vec<Toleration>>,
    /// How to spread the resource across cluster groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread_constraints: Option<Vec<SpreadConstraint>>,
    /// How replicas are scheduled across the selected clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_scheduling: Option<ReplicaSchedulingStrategy>,
    /// Affinity and anti-affinity between workloads of the same group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_affinity: Option<WorkloadAffinity>,
}

/// Spreads the resource over groups of clusters sharing a field or label value.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SpreadConstraint {
    /// The cluster field that forms groups; mutually exclusive with `spreadByLabel`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread_by_field: Option<SpreadByField>,
    /// The cluster label that forms groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread_by_label: Option<String>,
    /// At most this many groups are selected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::go_int"))]
    pub max_groups: Option<i32>,
    /// At least this many groups are selected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::go_int"))]
    pub min_groups: Option<i32>,
}

/// A cluster field to spread by.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum SpreadByField {
    Cluster,
    Region,
    Zone,
    Provider,
}

/// How replicas are assigned to the selected clusters.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSchedulingStrategy {
    /// Whether every cluster gets all replicas or the replicas are divided.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = "Divided")))]
    pub replica_scheduling_type: Option<ReplicaSchedulingType>,
    /// How divided replicas are shared out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_division_preference: Option<ReplicaDivisionPreference>,
    /// Cluster weights for the `Weighted` division.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_preference: Option<ClusterPreferences>,
}

/// `Duplicated` gives each cluster all replicas; `Divided` shares them out.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ReplicaSchedulingType {
    Duplicated,
    Divided,
}

/// `Aggregated` packs replicas into as few clusters as possible; `Weighted` follows weights.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ReplicaDivisionPreference {
    Aggregated,
    Weighted,
}

/// Static or dynamic weights for dividing replicas.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterPreferences {
    /// Fixed weights per group of clusters; ignored when `dynamicWeight` is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub static_weight_list: Option<Vec<StaticClusterWeight>>,
    /// Weights taken from a cluster property at scheduling time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dynamic_weight: Option<DynamicWeightFactor>,
}

/// The weight of the clusters matching `targetCluster`.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StaticClusterWeight {
    /// The clusters this weight applies to.
    pub target_cluster: ClusterAffinity,
    /// The weight; at least 1.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub weight: i64,
}

/// The cluster property that dynamic weights follow.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DynamicWeightFactor {
    /// Weights proportional to the replicas each cluster can still hold.
    AvailableReplicas,
}

/// Workload affinity and anti-affinity by a group label.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadAffinity {
    /// Workloads of the same group go to the same clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affinity: Option<WorkloadAffinityTerm>,
    /// Workloads of the same group go to different clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anti_affinity: Option<WorkloadAffinityTerm>,
}

/// The label whose value names a workload's group.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadAffinityTerm {
    /// Label key on the workload template.
    pub group_by_label_key: String,
}
