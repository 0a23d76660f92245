//! The Karmada API: Rust types for the kinds the control plane serves (cluster, policy, work),
//! the CustomResourceDefinitions generated from them ([`crds`]), upstream's CRDs for the kinds
//! without Rust types ([`upstream_crds`]) and every well-known Karmada name ([`wellknown`]).
//! Field names, optionality and validation follow upstream's Go types, so upstream manifests
//! round-trip without losing a field and the generated schemas match upstream's CRDs. This is
//! The schemas are generated from the types by the `schema` feature (tests turn it on and keep
//! the committed files current); without it, as in the binary, they are read from those files,
//! so no JSON Schema code is compiled in. This is the bottom layer: it depends only on serialisation and Kubernetes type crates, never on
//! another crate of this workspace; everything above (apiserver, engine, CLI) may depend on it,
//! and it must never depend on any of them.

#![forbid(unsafe_code)]

pub mod agent_rbac;
pub mod apps;
pub mod autoscaling;
pub mod bootstrap_rbac;
pub mod cluster;
pub mod config;
pub mod crds;
#[cfg(feature = "schema")]
mod markers;
pub mod member_client;
pub mod policy;
#[cfg(feature = "schema")]
mod schema;
pub mod upstream_crds;
pub mod wellknown;
pub mod work;

use serde::de::DeserializeOwned;

/// A document that does not fit a Karmada type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct DecodeError {
    /// The field that failed, like `spec.placement.replicaScheduling.replicaSchedulingType`
    /// (`.` when the document itself is the wrong shape).
    pub path: String,
    /// What was wrong with it.
    pub message: String,
}

/// Decodes a JSON value (a parsed manifest) into a Karmada type, naming the failing field.
pub fn decode<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, DecodeError> {
    serde_path_to_error::deserialize(value)
        .map_err(|e| DecodeError { path: e.path().to_string(), message: e.inner().to_string() })
}
