//! The Karmada reconcile engine: resource templates and policies in the plane become Works in
//! the execution namespaces and objects in member clusters, and member status flows back.
//!
//! * `scheduler`: pure placement arithmetic — which clusters, how many replicas each.
//! * `overrides`: pure per-cluster manifest rewriting from OverridePolicy/ClusterOverridePolicy.

pub mod overrides;
pub mod scheduler;
