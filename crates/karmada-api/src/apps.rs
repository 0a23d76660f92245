//! `apps.karmada.io`: WorkloadRebalancer, a request to schedule some workloads afresh. The CRD
//! served is upstream's own (see [`crate::upstream_crds`]); these types are how the engine
//! reads and writes it.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};

/// Which workloads to reschedule, and when to remove the rebalancer after.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[kube(
    group = "apps.karmada.io",
    version = "v1alpha1",
    kind = "WorkloadRebalancer",
    plural = "workloadrebalancers",
    status = "WorkloadRebalancerStatus",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadRebalancerSpec {
    /// The resource templates whose bindings are scheduled afresh; at least one.
    pub workloads: Vec<WorkloadReference>,
    /// Seconds after every workload has finished before the rebalancer is deleted; kept
    /// forever when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_seconds_after_finished: Option<i32>,
}

/// A resource template; an empty namespace means a cluster-scoped one.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
}

/// What the controller has done.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadRebalancerStatus {
    /// Each workload of the spec (and those removed from it after they succeeded), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observed_workloads: Vec<ObservedWorkload>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    /// When every workload last reached a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_time: Option<Time>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// One workload's outcome.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObservedWorkload {
    pub workload: WorkloadReference,
    /// `Successful` or `Failed`; absent while pending.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<RebalanceResult>,
    /// Why it failed: `ReferencedBindingNotFound`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum RebalanceResult {
    Successful,
    Failed,
}

/// The reason of a workload whose binding does not exist.
pub const REFERENCED_BINDING_NOT_FOUND: &str = "ReferencedBindingNotFound";
