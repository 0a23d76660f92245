//! Keeps the RBAC snapshot current: any change to roles or bindings rebuilds it from the store,
//! with ClusterRole aggregation applied (kube-controller-manager's clusterrole-aggregation,
//! done here in memory).

use std::sync::Arc;

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use karmadactl_store::Event;
use serde::de::DeserializeOwned;

use crate::auth::{RbacSnapshot, aggregate_cluster_roles};
use crate::state::ApiState;
use crate::storage::store_access;

pub const PREFIX: &str = "/registry/rbac.authorization.k8s.io/";

pub struct RbacCache;

impl super::follow::Follower for RbacCache {
    async fn resync(&self, state: &Arc<ApiState>, _objects: Vec<serde_json::Value>) {
        rebuild(state).await;
    }

    async fn event(&self, state: &Arc<ApiState>, _event: Event) {
        rebuild(state).await;
    }
}

async fn typed<T: DeserializeOwned>(state: &ApiState, resource: &str) -> Vec<T> {
    let prefix = store_access::prefix("rbac.authorization.k8s.io", resource, None);
    match store_access::list_all(state, &prefix).await {
        Ok((objects, _)) => objects.into_iter().filter_map(|o| serde_json::from_value(o).ok()).collect(),
        Err(_) => Vec::new(),
    }
}

/// Reads every role and binding and swaps in a new snapshot.
pub async fn rebuild(state: &Arc<ApiState>) {
    let roles: Vec<Role> = typed(state, "roles").await;
    let mut cluster_roles: Vec<ClusterRole> = typed(state, "clusterroles").await;
    let role_bindings: Vec<RoleBinding> = typed(state, "rolebindings").await;
    let cluster_role_bindings: Vec<ClusterRoleBinding> = typed(state, "clusterrolebindings").await;
    aggregate_cluster_roles(&mut cluster_roles);
    state.set_rbac(RbacSnapshot::new(roles, cluster_roles, role_bindings, cluster_role_bindings));
}
