//! The status of a (cluster) resource binding: scheduling conditions and per-cluster results.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::health::ResourceHealth;

/// Observed state of a binding.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceBindingStatus {
    /// The generation the scheduler last acted on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduler_observed_generation: Option<i64>,
    /// The `clusterAffinities` group the scheduler last used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduler_observing_affinity_name: Option<String>,
    /// When the binding was last scheduled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_scheduled_time: Option<Time>,
    /// `Scheduled` and `FullyApplied`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
    /// The resource's state in each target cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aggregated_status: Option<Vec<AggregatedStatusItem>>,
}

/// The resource's state in one member cluster.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AggregatedStatusItem {
    /// The member cluster.
    pub cluster_name: String,
    /// The member resource's status, as collected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::any_object"))]
    pub status: Option<Value>,
    /// Whether the resource was applied to the cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
    /// Why applying failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_message: Option<String>,
    /// The member resource's health.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health: Option<ResourceHealth>,
}
