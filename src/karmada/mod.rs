//! The Karmada API: Rust types for the kinds the control plane serves ([`api`]) and the
//! CustomResourceDefinitions generated from them ([`crds`]), and upstream's CRDs for the kinds
//! without Rust types ([`upstream_crds`]).

pub mod api;
pub mod crds;
mod schema;
pub mod upstream_crds;
