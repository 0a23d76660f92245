//! Health of a resource in a member cluster, as the resource interpreter judges it.

use serde::{Deserialize, Serialize};

/// Health of a member resource.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ResourceHealth {
    Healthy,
    Unhealthy,
    Unknown,
}
