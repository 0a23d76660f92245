//! Health of a resource in a member cluster, as the resource interpreter judges it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Health of a member resource.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum ResourceHealth {
    Healthy,
    Unhealthy,
    Unknown,
}
