//! Work, `work.karmada.io/v1alpha1`: the manifests to apply to one member cluster, kept in that
//! cluster's execution namespace `karmada-es-<cluster>`.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::health::ResourceHealth;

/// What to apply to the member cluster.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "work.karmada.io",
    version = "v1alpha1",
    kind = "Work",
    plural = "works",
    namespaced,
    status = "WorkStatus",
    shortname = "wk",
    category = "karmada-io",
    printcolumn = r#"{"name": "WORKLOAD-KIND", "type": "string", "jsonPath": ".spec.workload.manifests[*].kind"}"#,
    printcolumn = r#"{"name": "APPLIED", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"Applied\")].status"}"#,
    printcolumn = r#"{"name": "AGE", "type": "date", "jsonPath": ".metadata.creationTimestamp"}"#,
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct WorkSpec {
    /// The manifests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload: Option<WorkloadTemplate>,
    /// Stops applying changes to the member cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspend_dispatching: Option<bool>,
    /// Whether the member resources are kept when the Work is deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserve_resources_on_deletion: Option<bool>,
}

/// The manifests of a Work.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadTemplate {
    /// Complete Kubernetes objects, applied as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::any_objects"))]
    pub manifests: Option<Vec<Value>>,
}

/// Observed state of a Work.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkStatus {
    /// `Applied`, `Progressing`, `Available`, `Degraded`, `Dispatching`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
    /// The state of each manifest in the member cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest_statuses: Option<Vec<ManifestStatus>>,
}

/// The state of one applied manifest.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ManifestStatus {
    /// Which manifest this is.
    pub identifier: ResourceIdentifier,
    /// The member resource's status, as collected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::any_object"))]
    pub status: Option<Value>,
    /// The member resource's health.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health: Option<ResourceHealth>,
}

/// Identifies a manifest of a Work and the member resource it became.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceIdentifier {
    /// Index of the manifest in `spec.workload.manifests`.
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::go_int"))]
    pub ordinal: i32,
    /// API group of the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// API version of the resource.
    pub version: String,
    /// Kind of the resource.
    pub kind: String,
    /// Plural resource name.
    pub resource: String,
    /// Namespace of the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name of the resource.
    pub name: String,
}
