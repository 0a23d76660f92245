//! What every request handler shares: configuration, the store, the served resources, the
//! RBAC snapshot, the token signer and metrics.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use karmadactl_store::Store;

use crate::auth::{RbacSnapshot, ServiceAccountTokens};
use crate::registry::{Registry, ResourceDef};

use crate::config::ServerConfig;
use crate::filters::metrics::Metrics;

pub struct ApiState {
    pub config: ServerConfig,
    pub store: Arc<dyn Store>,
    /// Built-ins plus established CRDs; written by the CRD controller only.
    pub registry: RwLock<Registry>,
    /// Rebuilt by the RBAC controller whenever roles or bindings change.
    pub rbac: RwLock<Arc<RbacSnapshot>>,
    pub sa_tokens: ServiceAccountTokens,
    /// Bearer tokens that authenticated in the last 10 s.
    pub token_cache: crate::filters::token_cache::TokenCache,
    pub metrics: Arc<Metrics>,
    /// The CA clients should trust (PEM); also what the token controller puts in `ca.crt`.
    pub ca_pem: String,
    /// The CRD and RBAC caches have read the store once (`/readyz` waits for both).
    pub crds_synced: AtomicBool,
    pub rbac_synced: AtomicBool,
    /// Clients for members reached through the cluster proxy.
    pub member_clients: crate::handlers::cluster_proxy::MemberClients,
    /// Namespaces known to accept new content (NamespaceLifecycle admission).
    pub namespaces: crate::storage::active_namespaces::ActiveNamespaces,
    /// Requests being served, against `--max-requests-inflight` and its mutating twin.
    pub inflight: crate::filters::inflight::InflightLimiter,
    /// Memory held by lists being built or sent.
    pub list_budget: Arc<crate::filters::list_budget::ListBudget>,
    /// The dashboard's login codes and sessions (this replica's only).
    pub dashboard: crate::dashboard::Sessions,
    /// Per-namespace locks joining a federated quota check to the write it admits.
    pub quota_locks: crate::admission::federated_quota::NamespaceLocks,
}

impl ApiState {
    pub fn lookup(&self, group: &str, version: &str, resource: &str) -> Option<Arc<ResourceDef>> {
        self.registry.read().ok()?.lookup(group, version, resource)
    }

    pub fn lookup_kind(&self, group: &str, version: &str, kind: &str) -> Option<Arc<ResourceDef>> {
        self.registry.read().ok()?.lookup_kind(group, version, kind)
    }

    pub fn rbac(&self) -> Arc<RbacSnapshot> {
        match self.rbac.read() {
            Ok(r) => r.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    pub fn set_rbac(&self, snapshot: RbacSnapshot) {
        let snapshot = Arc::new(snapshot);
        match self.rbac.write() {
            Ok(mut r) => *r = snapshot,
            Err(poisoned) => *poisoned.into_inner() = snapshot,
        }
        self.rbac_synced.store(true, Ordering::Release);
    }

    pub fn ready(&self) -> bool {
        self.crds_synced.load(Ordering::Acquire) && self.rbac_synced.load(Ordering::Acquire)
    }
}
