//! OverridePolicy (namespaced) and ClusterOverridePolicy: per-cluster changes applied to a
//! resource template before it reaches a member cluster.

use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};

use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::selector::{ClusterAffinity, ResourceSelector};

/// The spec shared by OverridePolicy and ClusterOverridePolicy.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "policy.karmada.io",
    version = "v1alpha1",
    kind = "OverridePolicy",
    plural = "overridepolicies",
    namespaced,
    shortname = "op",
    category = "karmada-io",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct OverrideSpec {
    /// The resource templates to override; empty matches every template in scope.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_selectors: Option<Vec<ResourceSelector>>,
    /// Overrides per group of target clusters, applied in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub override_rules: Option<Vec<RuleWithCluster>>,
    /// Deprecated: use `overrideRules`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_cluster: Option<ClusterAffinity>,
    /// Deprecated: use `overrideRules`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overriders: Option<Overriders>,
}

/// The spec of a ClusterOverridePolicy: the same fields as an OverridePolicy's.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "policy.karmada.io",
    version = "v1alpha1",
    kind = "ClusterOverridePolicy",
    plural = "clusteroverridepolicies",
    shortname = "cop",
    category = "karmada-io",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(transparent)]
#[cfg_attr(feature = "schema", schemars(transparent))]
pub struct ClusterOverrideSpec(pub OverrideSpec);

impl Deref for ClusterOverrideSpec {
    type Target = OverrideSpec;
    fn deref(&self) -> &OverrideSpec {
        &self.0
    }
}

impl DerefMut for ClusterOverrideSpec {
    fn deref_mut(&mut self) -> &mut OverrideSpec {
        &mut self.0
    }
}

impl From<OverrideSpec> for ClusterOverrideSpec {
    fn from(spec: OverrideSpec) -> Self {
        Self(spec)
    }
}

/// Overriders applied to the clusters matching `targetCluster` (all clusters when unset).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RuleWithCluster {
    /// The clusters this rule applies to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_cluster: Option<ClusterAffinity>,
    /// The changes to make.
    pub overriders: Overriders,
}

/// The changes an override rule makes. When several are set they apply in the order
/// image, command, args, labels, annotations, field, plaintext.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Overriders {
    /// JSON patches at explicit paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plaintext: Option<Vec<PlaintextOverrider>>,
    /// Changes to container images.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_overrider: Option<Vec<ImageOverrider>>,
    /// Changes to a container's command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command_overrider: Option<Vec<CommandArgsOverrider>>,
    /// Changes to a container's args.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args_overrider: Option<Vec<CommandArgsOverrider>>,
    /// Changes to the resource's labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels_overrider: Option<Vec<LabelAnnotationOverrider>>,
    /// Changes to the resource's annotations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations_overrider: Option<Vec<LabelAnnotationOverrider>>,
    /// Changes inside a JSON or YAML document held in a string field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_overrider: Option<Vec<FieldOverrider>>,
}

/// The operation an overrider performs.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum OverriderOperator {
    Add,
    Remove,
    Replace,
}

/// A JSON patch operation at `path`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PlaintextOverrider {
    /// JSON pointer to the field.
    pub path: String,
    /// The operation.
    pub operator: OverriderOperator,
    /// The value to add or replace with; any JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::any_value"))]
    pub value: Option<Value>,
}

/// Changes one component of the images of the matching containers.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImageOverrider {
    /// The image field to change; unset means every container image of a known workload kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicate: Option<ImagePredicate>,
    /// The part of the image to change.
    pub component: ImageComponent,
    /// The operation.
    pub operator: OverriderOperator,
    /// The new value of the component.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// Selects the image field to change.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImagePredicate {
    /// JSON pointer to the image field.
    pub path: String,
}

/// A part of an image reference `registry/repository:tag`.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ImageComponent {
    Registry,
    Repository,
    Tag,
}

/// Adds to or removes from the command or args of one container.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CommandArgsOverrider {
    /// The container's name.
    pub container_name: String,
    /// `add` appends the values; `remove` deletes them.
    #[cfg_attr(feature = "schema", schemars(extend("enum" = ["add", "remove"])))]
    pub operator: OverriderOperator,
    /// The values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Vec<String>>,
}

/// Adds, removes or replaces labels or annotations.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LabelAnnotationOverrider {
    /// The operation.
    pub operator: OverriderOperator,
    /// The keys and values.
    pub value: BTreeMap<String, String>,
}

/// Patches a JSON or YAML document stored in the string field at `fieldPath`.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FieldOverrider {
    /// JSON pointer to the string field.
    pub field_path: String,
    /// Patches for a JSON document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<Vec<PatchOperation>>,
    /// Patches for a YAML document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yaml: Option<Vec<PatchOperation>>,
}

/// One patch inside an embedded document.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PatchOperation {
    /// JSON pointer inside the document.
    pub sub_path: String,
    /// The operation.
    pub operator: OverriderOperator,
    /// The value to add or replace with; any JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::markers::any_value"))]
    pub value: Option<Value>,
}
