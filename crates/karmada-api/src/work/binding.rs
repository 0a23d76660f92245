//! ResourceBinding (namespaced) and ClusterResourceBinding, `work.karmada.io/v1alpha2`: one
//! resource template bound to a policy, and the clusters the scheduler chose for it.

use std::ops::{Deref, DerefMut};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};

use super::binding_status::ResourceBindingStatus;
use super::eviction::GracefulEvictionTask;
use super::replicas::{Component, ComponentReplicas, ReplicaRequirements};
use crate::policy::failover::FailoverBehavior;
use crate::policy::placement::Placement;
use crate::policy::propagation::{ConflictResolution, SuspendClusters, Suspension};

/// The spec shared by ResourceBinding and ClusterResourceBinding.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "work.karmada.io",
    version = "v1alpha2",
    kind = "ResourceBinding",
    plural = "resourcebindings",
    namespaced,
    status = "ResourceBindingStatus",
    shortname = "rb",
    category = "karmada-io",
    printcolumn = r#"{"name": "SCHEDULED", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"Scheduled\")].status"}"#,
    printcolumn = r#"{"name": "FULLYAPPLIED", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"FullyApplied\")].status"}"#,
    printcolumn = r#"{"name": "AGE", "type": "date", "jsonPath": ".metadata.creationTimestamp"}"#,
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct ResourceBindingSpec {
    /// The resource template this binding is for.
    pub resource: ObjectReference,
    /// Whether the template's dependencies follow it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagate_deps: Option<bool>,
    /// What one replica needs, for the scheduler's estimates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_requirements: Option<ReplicaRequirements>,
    /// The template's replica count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The parts of a multi-component workload and what each needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub components: Option<Vec<Component>>,
    /// The scheduling result: target clusters and their replicas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clusters: Option<Vec<TargetCluster>>,
    /// The placement copied from the policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// Clusters being evicted from, kept until the replacements are ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graceful_eviction_tasks: Option<Vec<GracefulEvictionTask>>,
    /// The bindings that depend on this one (it holds their dependency).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_by: Option<Vec<BindingSnapshot>>,
    /// The scheduler responsible for this binding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduler_name: Option<String>,
    /// Failover behaviour copied from the policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failover: Option<FailoverBehavior>,
    /// What to do when the resource already exists in a member cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = "Abort")))]
    pub conflict_resolution: Option<ConflictResolution>,
    /// Set to ask for a reschedule; later than the last schedule means pending.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reschedule_triggered_at: Option<Time>,
    /// Pauses scheduling or dispatching of this binding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspension: Option<BindingSuspension>,
    /// Whether member resources are kept when the template is deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserve_resources_on_deletion: Option<bool>,
    /// The binding's scheduling priority.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule_priority: Option<BindingSchedulePriority>,
    /// The workload-affinity groups this binding belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_affinity_groups: Option<WorkloadAffinityGroups>,
}

/// The spec of a ClusterResourceBinding: the same fields as a ResourceBinding's.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "work.karmada.io",
    version = "v1alpha2",
    kind = "ClusterResourceBinding",
    plural = "clusterresourcebindings",
    status = "ResourceBindingStatus",
    shortname = "crb",
    category = "karmada-io",
    printcolumn = r#"{"name": "SCHEDULED", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"Scheduled\")].status"}"#,
    printcolumn = r#"{"name": "FULLYAPPLIED", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"FullyApplied\")].status"}"#,
    printcolumn = r#"{"name": "AGE", "type": "date", "jsonPath": ".metadata.creationTimestamp"}"#,
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

/// Identifies the resource template of a binding.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    /// API version of the template.
    pub api_version: String,
    /// Kind of the template.
    pub kind: String,
    /// Namespace of the template; empty for cluster-scoped kinds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name of the template.
    pub name: String,
    /// UID of the template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// The template's resourceVersion the binding was last built from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
}

/// A member cluster chosen by the scheduler, with its share of the replicas.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TargetCluster {
    /// The cluster's name.
    pub name: String,
    /// Replicas assigned to the cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Replicas per component assigned to the cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub components: Option<Vec<ComponentReplicas>>,
}

/// A dependent binding and its scheduling result.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BindingSnapshot {
    /// Namespace of the dependent binding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name of the dependent binding.
    pub name: String,
    /// The dependent binding's target clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clusters: Option<Vec<TargetCluster>>,
}

/// A policy's [`Suspension`] plus the binding-only `scheduling` switch (fields repeated, not
/// flattened, so decoding errors name the exact field).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BindingSuspension {
    /// Stops dispatching to every cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatching: Option<bool>,
    /// Stops dispatching to the named clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatching_on_clusters: Option<SuspendClusters>,
    /// Stops scheduling this binding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduling: Option<bool>,
}

/// The resolved scheduling priority of a binding.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BindingSchedulePriority {
    /// Higher is scheduled first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = 0)))]
    pub priority: Option<i32>,
}

/// The groups this binding belongs to for workload affinity.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadAffinityGroups {
    /// The affinity group's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affinity_group: Option<String>,
    /// The anti-affinity group's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anti_affinity_group: Option<String>,
}

impl From<Suspension> for BindingSuspension {
    /// A policy's suspension as a binding's, scheduling not suspended.
    fn from(s: Suspension) -> Self {
        Self { dispatching: s.dispatching, dispatching_on_clusters: s.dispatching_on_clusters, scheduling: None }
    }
}
