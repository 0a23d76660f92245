//! ClusterTaintPolicy (cluster-scoped): taints added to and removed from Clusters by their
//! status conditions. The CRD served is upstream's ([`crate::upstream_crds`]); these types are
//! what the plane's ClusterTaintPolicy controller reads.

use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};

use super::selector::ClusterAffinity;

/// `spec` of a ClusterTaintPolicy.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "policy.karmada.io",
    version = "v1alpha1",
    kind = "ClusterTaintPolicy",
    plural = "clustertaintpolicies",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct ClusterTaintPolicySpec {
    /// The clusters the policy looks at; unset means every cluster. A cluster that stops
    /// matching keeps its taints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_clusters: Option<ClusterAffinity>,
    /// When all match, the taints are added; empty never adds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add_on_conditions: Vec<MatchCondition>,
    /// When all match, the taints are removed; empty never removes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove_on_conditions: Vec<MatchCondition>,
    /// The taints added or removed.
    pub taints: Vec<PolicyTaint>,
}

/// A test of one status condition of the cluster.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MatchCondition {
    /// The condition's type (`Ready`, …).
    pub condition_type: String,
    /// `In` or `NotIn`.
    pub operator: String,
    /// The condition statuses (`True`, `False`, `Unknown`) the operator compares with.
    pub status_values: Vec<String>,
}

/// `MatchCondition.operator` values.
pub const MATCH_IN: &str = "In";
pub const MATCH_NOT_IN: &str = "NotIn";

/// A taint a policy puts on clusters.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PolicyTaint {
    pub key: String,
    /// `NoSchedule`, `PreferNoSchedule` or `NoExecute`.
    pub effect: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
}
