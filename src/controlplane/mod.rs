//! The embedded Karmada control plane: a Kubernetes-compatible HTTPS API server on a durable
//! store.
//!
//! * `store`: the narrow revisioned key-value interface and its SQLite backend.

pub mod store;
