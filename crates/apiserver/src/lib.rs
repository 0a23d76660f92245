//! The Kubernetes-compatible HTTPS API server of the embedded control plane.
//!
//! It owns everything that reads the server's own state: authentication and RBAC ([`auth`]),
//! the served resources, discovery, OpenAPI and validation ([`registry`]), the protobuf codec
//! ([`protobuf`]), the verbs over the store, and the server's own loops ([`loops`]: CRD
//! establishment, garbage collection, namespace finalization, bootstrap objects). It depends on
//! `karmada-api`, `apimachinery`, `pki`, `store` and `kubeconfig` of this workspace, never on
//! the engine, the controllers or the CLI: those talk to it over HTTPS.
//!
//! A request goes through the layers in order: [`transport`] (accept, TLS, connection limits)
//! → [`filters`] (`dispatch`: authentication, impersonation, in-flight limits, authorization)
//! → [`handlers`] (the resource verbs, subresources, non-resource endpoints) → [`admission`]
//! (defaults, validation, RBAC escalation, certificate requests) → [`storage`] (keys, metadata
//! the server owns, the store). `server::start` assembles them.

pub(crate) mod admission;
pub mod auth;
pub mod dashboard;
pub(crate) mod filters;
pub mod handlers;
pub mod protobuf;
pub mod registry;
pub mod storage;
pub mod transport;
pub mod websocket;

pub mod build_info;
pub mod config;
pub mod freed_memory;
pub mod fuzzing;
pub mod kubelet;
pub mod leading;
pub(crate) mod loops;
pub mod pki;
pub mod private_files;
pub mod server;
pub mod state;

pub use config::{Profile, ServerConfig};
pub use server::{RunningServer, ServerError, start};
