//! Failover: when an application or a whole cluster fails, how its replicas move elsewhere.

use serde::{Deserialize, Serialize};

/// Failover behaviour for application and cluster failures.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FailoverBehavior {
    /// Moving an application that is unhealthy on its cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub application: Option<ApplicationFailoverBehavior>,
    /// Moving applications off a failed cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterFailoverBehavior>,
}

/// Application failover.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApplicationFailoverBehavior {
    /// When an application counts as failed.
    pub decision_conditions: DecisionConditions,
    /// How the replicas on the failed cluster are removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = "Gracefully")))]
    pub purge_mode: Option<PurgeMode>,
    /// Seconds to wait for the new replicas before removing the old ones (`Gracefully`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace_period_seconds: Option<i32>,
    /// State carried from the old replicas to the new ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_preservation: Option<StatePreservation>,
}

/// The conditions that trigger an application failover.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DecisionConditions {
    /// Seconds an application may stay unhealthy before it is moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = 300)))]
    pub toleration_seconds: Option<i32>,
}

/// Cluster failover.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterFailoverBehavior {
    /// How the replicas on the failed cluster are removed (`Never` does not apply here).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = "Gracefully", "enum" = ["Directly", "Gracefully"])))]
    pub purge_mode: Option<PurgeMode>,
    /// State carried from the old replicas to the new ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_preservation: Option<StatePreservation>,
}

/// How replicas on a cluster being failed over are removed.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PurgeMode {
    /// Remove them at once.
    Directly,
    /// Remove them once the new replicas are healthy or the grace period is over.
    Gracefully,
    /// Keep them.
    Never,
}

/// Rules that copy values out of the failed application into labels of the new one.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatePreservation {
    /// The values to carry over.
    pub rules: Vec<StatePreservationRule>,
}

/// One value carried over: read at `jsonPath` from the old status, written as label
/// `aliasLabelName` on the new replicas.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatePreservationRule {
    /// Label the value is written to.
    pub alias_label_name: String,
    /// JSONPath of the value in the resource's status.
    pub json_path: String,
}
