//! The embedded Karmada control plane: a Kubernetes-compatible HTTPS API server on a durable
//! store.
//!
//! * `auth`: who is calling (certificates, service-account and bootstrap tokens) and RBAC.
//! * `registry`: which resources are served, discovery, OpenAPI, and object validation.
//! * `engine`: the Karmada reconcile engine (scheduling, overrides, Works, status).

pub mod apiserver;
pub mod auth;
pub mod controllers;
pub mod engine;
pub mod freed_memory;
pub mod protobuf;
pub mod registry;
pub mod simulator;
