//! The Kubernetes-compatible HTTPS API server of the embedded control plane.
//!
//! It owns everything that reads the server's own state: authentication and RBAC ([`auth`]),
//! the served resources, discovery, OpenAPI and validation ([`registry`]), the protobuf codec
//! ([`protobuf`]), the verbs over the store, and the server's own loops ([`loops`]: CRD
//! establishment, garbage collection, namespace finalization, bootstrap objects). It depends on
//! `karmada-api`, `apimachinery`, `pki`, `store` and `kubeconfig` of this workspace, never on
//! the engine, the controllers or the CLI: those talk to it over HTTPS.
//!
//! A request goes listener → dispatch (authenticate, parse, authorize) → a non-resource
//! endpoint or a resource verb → the store. See `server::start` for how the pieces are
//! assembled.

pub mod auth;
pub mod protobuf;
pub mod registry;

pub mod active_namespaces;
pub mod admission;
pub mod authenticate;
pub mod build_info;
pub mod cluster_proxy;
mod coalesced_io;
pub mod config;
pub mod connection_limits;
pub mod continue_token;
pub mod csr_admission;
pub mod csr_strategy;
pub mod dispatch;
pub mod freed_memory;
pub mod fuzzing;
pub mod impersonate;
pub mod inflight;
pub mod internal;
pub mod leading;
pub mod list_budget;
pub mod listener;
pub mod loops;
pub mod metrics;
pub mod nonresource;
pub mod object;
pub mod pki;
pub mod private_files;
pub mod rbac_escalation;
pub mod rbac_generator_admission;
pub mod resource;
pub mod scale;
pub mod served_json;
pub mod server;
pub mod special;
pub mod state;
pub mod store_access;
pub mod table;
pub mod tls;
pub mod token_binding;
pub mod token_cache;
pub mod validation;

pub use config::{Profile, ServerConfig};
pub use server::{RunningServer, ServerError, start};
