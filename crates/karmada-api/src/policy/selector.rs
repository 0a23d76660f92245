//! Selecting resource templates (`resourceSelectors`) and member clusters (`clusterAffinity`).

use k8s_openapi::api::core::v1::NodeSelectorRequirement;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde::{Deserialize, Serialize};

/// Selects resource templates by kind, and optionally by namespace, name or labels.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceSelector {
    /// API version of the target resources.
    pub api_version: String,
    /// Kind of the target resources.
    pub kind: String,
    /// Namespace of the target resource; empty means the policy's namespace (or all namespaces
    /// for a cluster-scoped policy).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name of the target resource; empty selects by labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Label query over the target resources; ignored when `name` is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
}

/// A set of member clusters: by labels, by fields (provider, region, zone), by name, minus
/// exclusions. The criteria are ANDed.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterAffinity {
    /// Label query over clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// Query over clusters by the fields `provider`, `region` and `zone`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_selector: Option<FieldSelector>,
    /// Clusters to select by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_names: Option<Vec<String>>,
    /// Clusters to leave out by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<Vec<String>>,
}

/// A field query over clusters; the requirements are ANDed.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FieldSelector {
    /// Requirements on `provider`, `region` or `zone`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_expressions: Option<Vec<NodeSelectorRequirement>>,
}

/// One named group of clusters in an ordered list of fallbacks (`clusterAffinities`).
///
/// The [`ClusterAffinity`] fields are repeated rather than `#[serde(flatten)]`ed so that a
/// decoding error names the exact field; [`ClusterAffinityTerm::affinity`] gathers them.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterAffinityTerm {
    /// Name of the group, unique within the list.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 32)))]
    pub affinity_name: String,
    /// Label query over clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// Query over clusters by the fields `provider`, `region` and `zone`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_selector: Option<FieldSelector>,
    /// Clusters to select by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_names: Option<Vec<String>>,
    /// Clusters to leave out by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<Vec<String>>,
    /// Further groups tried, in order, when this one cannot hold all replicas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overflow_affinities: Option<Vec<OverflowAffinityTerm>>,
}

/// A named group of clusters used when the preferred group is full (fields as in
/// [`ClusterAffinityTerm`]).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct OverflowAffinityTerm {
    /// Name of the group.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 32)))]
    pub affinity_name: String,
    /// Label query over clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// Query over clusters by the fields `provider`, `region` and `zone`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_selector: Option<FieldSelector>,
    /// Clusters to select by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_names: Option<Vec<String>>,
    /// Clusters to leave out by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<Vec<String>>,
}

impl ClusterAffinityTerm {
    /// The clusters of this group.
    pub fn affinity(&self) -> ClusterAffinity {
        ClusterAffinity {
            label_selector: self.label_selector.clone(),
            field_selector: self.field_selector.clone(),
            cluster_names: self.cluster_names.clone(),
            exclude: self.exclude.clone(),
        }
    }
}

impl OverflowAffinityTerm {
    /// The clusters of this group.
    pub fn affinity(&self) -> ClusterAffinity {
        ClusterAffinity {
            label_selector: self.label_selector.clone(),
            field_selector: self.field_selector.clone(),
            cluster_names: self.cluster_names.clone(),
            exclude: self.exclude.clone(),
        }
    }
}
