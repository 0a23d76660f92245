//! PropagationPolicy (namespaced) and ClusterPropagationPolicy: which resource templates go to
//! which member clusters.

use std::ops::{Deref, DerefMut};

use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};

use super::failover::FailoverBehavior;
use super::placement::Placement;
use super::selector::ResourceSelector;

/// The spec shared by PropagationPolicy and ClusterPropagationPolicy.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "policy.karmada.io",
    version = "v1alpha1",
    kind = "PropagationPolicy",
    plural = "propagationpolicies",
    namespaced,
    shortname = "pp",
    category = "karmada-io",
    printcolumn = r#"{"name": "CONFLICT-RESOLUTION", "type": "string", "jsonPath": ".spec.conflictResolution"}"#,
    printcolumn = r#"{"name": "PRIORITY", "type": "string", "jsonPath": ".spec.priority"}"#,
    printcolumn = r#"{"name": "AGE", "type": "date", "jsonPath": ".metadata.creationTimestamp"}"#,
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct PropagationSpec {
    /// The resource templates this policy propagates; at least one.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub resource_selectors: Vec<ResourceSelector>,
    /// Deprecated: use `propagateDeps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub association: Option<bool>,
    /// Whether the resources the templates depend on (ConfigMaps, Secrets, …) follow them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagate_deps: Option<bool>,
    /// Which clusters receive the resources, and how replicas are divided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// The policy's priority when several policies match a template; higher wins.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = 0)))]
    pub priority: Option<i32>,
    /// Whether this policy may take templates over from lower-priority policies.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = "Never")))]
    pub preemption: Option<PreemptionPolicy>,
    /// OverridePolicies that must exist before the templates are propagated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dependent_overrides: Option<Vec<String>>,
    /// The scheduler that schedules the matched templates.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = "default-scheduler")))]
    pub scheduler_name: Option<String>,
    /// What happens when an application or a cluster fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failover: Option<FailoverBehavior>,
    /// What to do when the resource already exists in a member cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("default" = "Abort")))]
    pub conflict_resolution: Option<ConflictResolution>,
    /// `Lazy`: changes to the policy apply only when a template changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_preference: Option<ActivationPreference>,
    /// Pauses propagation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspension: Option<Suspension>,
    /// Whether member resources are kept when their template is deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserve_resources_on_deletion: Option<bool>,
    /// The scheduling priority of the matched templates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule_priority: Option<SchedulePriority>,
}

/// The spec of a ClusterPropagationPolicy: the same fields as a PropagationPolicy's.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "policy.karmada.io",
    version = "v1alpha1",
    kind = "ClusterPropagationPolicy",
    plural = "clusterpropagationpolicies",
    shortname = "cpp",
    category = "karmada-io",
    printcolumn = r#"{"name": "CONFLICT-RESOLUTION", "type": "string", "jsonPath": ".spec.conflictResolution"}"#,
    printcolumn = r#"{"name": "PRIORITY", "type": "string", "jsonPath": ".spec.priority"}"#,
    printcolumn = r#"{"name": "AGE", "type": "date", "jsonPath": ".metadata.creationTimestamp"}"#,
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(transparent)]
#[cfg_attr(feature = "schema", schemars(transparent))]
pub struct ClusterPropagationSpec(pub PropagationSpec);

impl Deref for ClusterPropagationSpec {
    type Target = PropagationSpec;
    fn deref(&self) -> &PropagationSpec {
        &self.0
    }
}

impl DerefMut for ClusterPropagationSpec {
    fn deref_mut(&mut self) -> &mut PropagationSpec {
        &mut self.0
    }
}

impl From<PropagationSpec> for ClusterPropagationSpec {
    fn from(spec: PropagationSpec) -> Self {
        Self(spec)
    }
}

/// Whether a policy may preempt templates claimed by lower-priority policies.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PreemptionPolicy {
    Always,
    Never,
}

/// What to do when a propagated resource already exists in a member cluster.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ConflictResolution {
    /// Stop and report the conflict.
    Abort,
    /// Take the existing resource over.
    Overwrite,
}

/// When policy changes take effect.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ActivationPreference {
    /// Only when the template itself changes.
    Lazy,
}

/// Pauses dispatching, everywhere or to some clusters.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Suspension {
    /// Stops dispatching to every cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatching: Option<bool>,
    /// Stops dispatching to the named clusters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatching_on_clusters: Option<SuspendClusters>,
}

/// The clusters dispatching to is suspended.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SuspendClusters {
    /// Cluster names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_names: Option<Vec<String>>,
}

/// Where the scheduling priority of matched templates comes from.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SchedulePriority {
    /// The kind of priority class.
    pub priority_class_source: PriorityClassSource,
    /// The priority class's name.
    pub priority_class_name: String,
}

/// Kinds of priority classes a policy can name.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PriorityClassSource {
    /// A Kubernetes `scheduling.k8s.io/v1` PriorityClass.
    KubePriorityClass,
}
