//! What the replicas of a bound workload need, for the scheduler's capacity estimates.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{NodeSelector, Toleration};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use serde::{Deserialize, Serialize};

/// The requirements of one replica.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplicaRequirements {
    /// Node constraints of the replica.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_claim: Option<NodeClaim>,
    /// Resources one replica requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_request: Option<BTreeMap<String, Quantity>>,
    /// Namespace of the workload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The workload's priority class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_class_name: Option<String>,
}

/// The requirements of one replica of a component.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ComponentReplicaRequirements {
    /// Node constraints of the replica.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_claim: Option<NodeClaim>,
    /// Resources one replica requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_request: Option<BTreeMap<String, Quantity>>,
    /// The component's priority class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_class_name: Option<String>,
}

/// The node constraints of a replica, copied from its pod template.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeClaim {
    /// Required node affinity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hard_node_affinity: Option<NodeSelector>,
    /// Node labels the replica requires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<BTreeMap<String, String>>,
    /// Node taints the replica tolerates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerations: Option<Vec<Toleration>>,
}

/// One component of a multi-component workload.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Component {
    /// The component's name, unique within the workload.
    #[cfg_attr(feature = "schema", schemars(length(max = 32)))]
    pub name: String,
    /// The component's replica count.
    pub replicas: i32,
    /// What one replica of the component needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_requirements: Option<ComponentReplicaRequirements>,
}

/// The replicas of one component assigned to a cluster.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ComponentReplicas {
    /// The component's name.
    pub name: String,
    /// Replicas assigned.
    pub replicas: i32,
}
