//! What an interpreter answers for InterpretDependency: the objects a workload needs in the
//! same clusters (upstream's `DependentObjectReference`).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde::{Deserialize, Serialize};

/// One dependency: by name, or every object of the kind its label selector matches.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DependentObjectReference {
    /// `group/version` of the dependency.
    pub api_version: String,
    /// Its kind.
    pub kind: String,
    /// Its namespace; empty for a cluster-scoped kind.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Its name; empty when `labelSelector` is given.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Every object of the kind in the namespace that this selects (ignored when `name` is set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
}
