//! Cluster, `cluster.karmada.io/v1alpha1`: a registered member cluster.
//!
//! Upstream serves Cluster from an aggregated API server, not as a CRD; here the API server
//! serves it as a built-in resource and validates objects with [`openapi_schema`].

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::Taint;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a member cluster is reached and what it offers.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "cluster.karmada.io",
    version = "v1alpha1",
    kind = "Cluster",
    plural = "clusters",
    status = "ClusterStatus",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct ClusterSpec {
    /// Unique identifier of the cluster, usually the UID of its `kube-system` namespace.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = 128000)))]
    pub id: Option<String>,
    /// `Push`: the control plane applies resources; `Pull`: an agent in the member does.
    pub sync_mode: ClusterSyncMode,
    /// The member's API endpoint: hostname, hostname:port, IP or IP:port.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_endpoint: Option<String>,
    /// Secret holding `token` and `caBundle` for the member's API server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<LocalSecretReference>,
    /// Secret holding the impersonator's `token`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impersonator_secret_ref: Option<LocalSecretReference>,
    /// Whether the member's serving certificate goes unchecked.
    #[serde(rename = "insecureSkipTLSVerification", skip_serializing_if = "Option::is_none")]
    pub insecure_skip_tls_verification: Option<bool>,
    /// Proxy to reach the member through.
    #[serde(rename = "proxyURL", skip_serializing_if = "Option::is_none")]
    pub proxy_url: Option<String>,
    /// HTTP headers for the proxy; several values of one header are comma-separated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_header: Option<BTreeMap<String, String>>,
    /// Cloud provider of the member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Region of the member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Deprecated: use `zones`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Failure zones the member spans.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zones: Option<Vec<String>>,
    /// Taints that keep resources off the cluster unless tolerated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taints: Option<Vec<Taint>>,
    /// Resource models grading the member's nodes by capacity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_models: Option<Vec<ResourceModel>>,
}

/// How resources reach a member cluster.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ClusterSyncMode {
    /// The control plane applies resources to the member.
    Push,
    /// An agent in the member pulls and applies them.
    Pull,
}

/// A secret in a named namespace.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LocalSecretReference {
    /// The secret's namespace.
    pub namespace: String,
    /// The secret's name.
    pub name: String,
}

/// One grade of node capacity.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceModel {
    /// Index of the grade.
    pub grade: i32,
    /// The resource ranges that define the grade.
    pub ranges: Vec<ResourceModelRange>,
}

/// A half-open range `[min, max)` of one resource.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceModelRange {
    /// The resource: `cpu`, `memory`, `storage` or `ephemeral-storage`.
    pub name: String,
    /// Lower bound, inclusive.
    pub min: Quantity,
    /// Upper bound, exclusive (unbounded in the last grade).
    pub max: Quantity,
}

/// Observed state of a member cluster.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterStatus {
    /// The member's Kubernetes version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes_version: Option<String>,
    /// The APIs the member serves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_enablements: Option<Vec<ApiEnablement>>,
    /// `Ready` and `CompleteAPIEnablements`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
    /// Node counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_summary: Option<NodeSummary>,
    /// Resource totals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_summary: Option<ResourceSummary>,
    /// Remedy actions to perform on the cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remedy_actions: Option<Vec<String>>,
}

/// The resources served in one group/version.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiEnablement {
    /// Group and version, e.g. `apps/v1`.
    pub group_version: String,
    /// The resources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<ApiResource>>,
}

/// A served resource's plural name and kind.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiResource {
    /// Plural resource name.
    pub name: String,
    /// Kind.
    pub kind: String,
}

/// Node counts of a member.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeSummary {
    /// All nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_num: Option<i32>,
    /// Ready nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_num: Option<i32>,
}

/// Resource totals over a member's nodes.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceSummary {
    /// Allocatable resources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocatable: Option<BTreeMap<String, Quantity>>,
    /// Requests of pods waiting to be scheduled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocating: Option<BTreeMap<String, Quantity>>,
    /// Requests of scheduled pods.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocated: Option<BTreeMap<String, Quantity>>,
    /// Node counts per resource-model grade.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocatable_modelings: Option<Vec<AllocatableModeling>>,
}

/// How many nodes fall in one resource-model grade.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AllocatableModeling {
    /// Index of the grade.
    pub grade: i32,
    /// Number of nodes.
    pub count: i32,
}

/// Where the Cluster schema is committed, relative to the repository root.
pub const SCHEMA_FILE: &str = "crates/karmada-api/src/cluster.schema.json";

/// The OpenAPI v3 schema of a Cluster object, for validating Clusters the API server stores: the
/// committed file [`generated_openapi_schema`] writes (tests/it/karmada_types.rs keeps it current).
pub fn openapi_schema() -> Value {
    serde_json::from_str(include_str!("cluster.schema.json")).expect("the committed Cluster schema is JSON")
}

/// The Cluster schema generated from the Rust types, as [`SCHEMA_FILE`] should hold it.
#[cfg(feature = "schema")]
pub fn generated_openapi_schema() -> Value {
    crate::schema::object(
        "Cluster",
        "Cluster is a member cluster: how to reach it and what it offers.",
        crate::schema::of::<ClusterSpec>(),
        Some(crate::schema::of::<ClusterStatus>()),
    )
}
