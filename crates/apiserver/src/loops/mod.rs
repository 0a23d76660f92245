//! The API server's own loops. A loop runs in the server's process, reads and writes the
//! server's state (`ApiState`, the store) directly rather than through HTTP, and is part of the
//! server: it starts with it and stops with it. The caches (served CRDs, the RBAC snapshot,
//! active namespaces) follow the store as kube-apiserver's informers follow etcd; the
//! bootstrap objects are written before the listener opens; the garbage collector and the
//! namespace finalizer need every resource, so they follow the store and make each write
//! conditional on the revision they read; the legacy service-account token controller signs
//! with the server's key. Controllers that only talk to the API as clients live in
//! `controllers/` and the engine, never here.

pub mod bootstrap;
pub mod crd;
pub mod follow;
pub mod gc;
mod gc_apply;
mod gc_graph;
pub mod karmada_bootstrap;
pub mod namespace;
pub mod rbac;
pub mod serviceaccount_token;
