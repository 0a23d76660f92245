//! The embedded Karmada control plane: a Kubernetes-compatible HTTPS API server on a durable
//! store.
//!
//! * `auth`: who is calling (certificates, service-account and bootstrap tokens) and RBAC.
//! * `registry`: which resources are served, discovery, OpenAPI, and object validation.
//! * `apiserver`: the API server and its own loops (`apiserver::loops`).
//! * `controllers`: controllers that are clients of the API server.
//! * `engine`: the Karmada reconcile engine (scheduling, overrides, Works, status).
//! * `simulator`: pretend nodes and pods for simulated members.
//! * `plane`: the composition root that starts all of the above and stops them.

pub mod apiserver;
pub mod auth;
pub mod controllers;
pub mod engine;
pub mod plane;
pub mod protobuf;
pub mod registry;
pub mod simulator;
