//! `policy.karmada.io/v1alpha1` FederatedResourceQuota: one quota for a namespace across the
//! fleet, with static per-cluster shares that become ResourceQuotas in those members. The CRD
//! served is upstream's own (see [`crate::upstream_crds`]); these types are how the engine
//! reads and writes it.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};

/// Label on a quota's Works naming the quota's namespace (upstream's
/// `FederatedResourceQuotaNamespaceLabel`); with [`QUOTA_NAME_LABEL`] it proves the Work is
/// the quota's.
pub const QUOTA_NAMESPACE_LABEL: &str = "federatedresourcequota.karmada.io/namespace";
/// Label on a quota's Works naming the quota.
pub const QUOTA_NAME_LABEL: &str = "federatedresourcequota.karmada.io/name";

/// Resource name → quantity (`corev1.ResourceList`).
pub type ResourceList = BTreeMap<String, Quantity>;

/// The namespace's limits across the fleet and their static split.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "policy.karmada.io",
    version = "v1alpha1",
    kind = "FederatedResourceQuota",
    plural = "federatedresourcequotas",
    namespaced,
    status = "FederatedResourceQuotaStatus",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct FederatedResourceQuotaSpec {
    /// Limits for the namespace's templates across all clusters.
    #[serde(default)]
    pub overall: ResourceList,
    /// Limits for the namespace in named clusters, each a ResourceQuota there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub static_assignments: Vec<StaticClusterAssignment>,
}

/// One cluster's share.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StaticClusterAssignment {
    pub cluster_name: String,
    #[serde(default)]
    pub hard: ResourceList,
}

/// What the controllers observed.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FederatedResourceQuotaStatus {
    /// `spec.overall` as last acted on.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overall: ResourceList,
    /// The members' usage added up.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overall_used: ResourceList,
    /// Each assigned member's ResourceQuota status, by cluster name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aggregated_status: Vec<ClusterQuotaStatus>,
}

/// A member's ResourceQuota status (`corev1.ResourceQuotaStatus` inlined).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterQuotaStatus {
    pub cluster_name: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hard: ResourceList,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub used: ResourceList,
}
