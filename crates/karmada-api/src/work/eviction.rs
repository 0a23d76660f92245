//! Graceful eviction: a cluster's replicas are kept until their replacements are ready.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::policy::failover::PurgeMode;

/// An eviction in progress from one cluster.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GracefulEvictionTask {
    /// The cluster being evicted from.
    pub from_cluster: String,
    /// How the old replicas are removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purge_mode: Option<PurgeMode>,
    /// Replicas on the evicted cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Why the eviction happens, in CamelCase.
    #[schemars(length(min = 1, max = 32), regex(pattern = r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"))]
    pub reason: String,
    /// Details of the eviction.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 1024))]
    pub message: Option<String>,
    /// The controller that started the eviction.
    pub producer: String,
    /// Seconds to wait before removing the old replicas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace_period_seconds: Option<i32>,
    /// Keep the old replicas until the task is removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppress_deletion: Option<bool>,
    /// Labels preserved from the failed application (see `statePreservation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preserved_label_state: Option<BTreeMap<String, String>>,
    /// The binding's clusters before the failover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clusters_before_failover: Option<Vec<String>>,
    /// When the task was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
}
