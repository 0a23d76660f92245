//! ResourceBinding and ClusterResourceBinding in their older `work.karmada.io/v1alpha1` form,
//! still served (upstream's samples use it). The CRDs declare conversion `None`: an object read
//! at the other version is relabelled, not converted, so v1alpha1-only fields
//! (`spec.resource.replicas`, `spec.resource.resourcePerReplicas`) are not mapped to v1alpha2's
//! `spec.replicas`/`spec.replicaRequirements` as upstream's conversion webhook would.

use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The spec shared by the v1alpha1 ResourceBinding and ClusterResourceBinding.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "work.karmada.io",
    version = "v1alpha1",
    kind = "ResourceBinding",
    plural = "resourcebindings",
    namespaced,
    status = "ResourceBindingStatus",
    shortname = "rb",
    category = "karmada-io",
    storage = false,
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct ResourceBindingSpec {
    /// The resource template this binding is for.
    pub resource: ObjectReference,
    /// The scheduling result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clusters: Option<Vec<TargetCluster>>,
}

/// The spec of a v1alpha1 ClusterResourceBinding.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "work.karmada.io",
    version = "v1alpha1",
    kind = "ClusterResourceBinding",
    plural = "clusterresourcebindings",
    status = "ResourceBindingStatus",
    shortname = "crb",
    category = "karmada-io",
    storage = false,
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(transparent)]
#[cfg_attr(feature = "schema", schemars(transparent))]
pub struct ClusterResourceBindingSpec(pub ResourceBindingSpec);

impl Deref for ClusterResourceBindingSpec {
    type Target = ResourceBindingSpec;
    fn deref(&self) -> &ResourceBindingSpec {
        &self.0
    }
}

impl DerefMut for ClusterResourceBindingSpec {
    fn deref_mut(&mut self) -> &mut ResourceBindingSpec {
        &mut self.0
    }
}

impl From<ResourceBindingSpec> for ClusterResourceBindingSpec {
    fn from(spec: ResourceBindingSpec) -> Self {
        Self(spec)
    }
}

/// The bound resource template, with its replica count and per-replica requests.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    /// API version of the template.
    pub api_version: String,
    /// Kind of the template.
    pub kind: String,
    /// Namespace of the template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name of the template.
    pub name: String,
    /// The template's resourceVersion the binding was built from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    /// The template's replica count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Resources one replica requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_per_replicas: Option<BTreeMap<String, Quantity>>,
}

/// A target cluster and its replicas.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TargetCluster {
    /// The cluster's name.
    pub name: String,
    /// Replicas assigned to the cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}

/// Observed state of a v1alpha1 binding.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceBindingStatus {
    /// The binding's conditions.
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
}
