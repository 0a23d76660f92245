//! `ResourceInterpreterCustomization`: Lua scripts for one target kind, one per interpreter
//! operation, as upstream's `config/v1alpha1` types name them.

use serde::{Deserialize, Serialize};

/// The API group and version of the interpreter configuration kinds.
pub const API_VERSION: &str = "config.karmada.io/v1alpha1";
/// The kind of a customization object.
pub const KIND: &str = "ResourceInterpreterCustomization";

/// `spec` of a ResourceInterpreterCustomization.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceInterpreterCustomizationSpec {
    /// The kind the scripts interpret.
    pub target: CustomizationTarget,
    /// The scripts, one per operation.
    #[serde(default)]
    pub customizations: CustomizationRules,
}

/// The apiVersion and kind a customization applies to.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "camelCase")]
pub struct CustomizationTarget {
    /// `group/version` (or `version` for the core group).
    pub api_version: String,
    /// The kind.
    pub kind: String,
}

/// One Lua script per operation; an absent rule leaves the operation to the next interpreter.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CustomizationRules {
    /// `Retain(desiredObj, observedObj)`: the member's fields to keep on update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention: Option<LuaScriptRule>,
    /// `GetReplicas(desiredObj)`: the replicas and what each needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica_resource: Option<LuaScriptRule>,
    /// `ReviseReplica(desiredObj, desiredReplica)`: a cluster's share written back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica_revision: Option<LuaScriptRule>,
    /// `ReflectStatus(observedObj)`: the status kept from a member's copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_reflection: Option<LuaScriptRule>,
    /// `AggregateStatus(desiredObj, statusItems)`: members' statuses added up on the template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_aggregation: Option<LuaScriptRule>,
    /// `InterpretHealth(observedObj)`: whether a member's copy is healthy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health_interpretation: Option<LuaScriptRule>,
    /// `GetDependencies(desiredObj)`: the objects the workload needs beside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependency_interpretation: Option<LuaScriptRule>,
    /// `GetComponents(desiredObj)`: the components of a multi-component workload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component_resource: Option<LuaScriptRule>,
}

/// A rule given as a Lua script.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct LuaScriptRule {
    /// The script's source; it defines the operation's function.
    pub lua_script: String,
}
