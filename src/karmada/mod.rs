//! The Karmada API: Rust types for the kinds the control plane serves ([`api`]) and the
//! CustomResourceDefinitions generated from them ([`crds`]).

pub mod api;
pub mod crds;
mod schema;
