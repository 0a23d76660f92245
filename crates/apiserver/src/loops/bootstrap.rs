//! Objects every cluster starts with: the system namespaces and kube-apiserver's bootstrap RBAC
//! policy. Created when missing; never overwritten (an administrator may have changed them).

use karmadactl_apimachinery::ApiError;
use serde_json::json;

use crate::auth::default_policy;
use crate::state::ApiState;
use crate::storage::internal::create_all_if_missing;

/// The namespaces kube-apiserver and kube-controller-manager create.
pub const SYSTEM_NAMESPACES: &[&str] = &["default", "kube-system", "kube-public", "kube-node-lease"];

pub async fn run(state: &ApiState) -> Result<(), ApiError> {
    let namespaces = SYSTEM_NAMESPACES.iter().map(|ns| {
        let obj = json!({
            "apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": ns, "labels": {"kubernetes.io/metadata.name": ns}},
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"},
        });
        ("", "namespaces", obj)
    });
    let (roles, bindings) = default_policy();
    let roles = roles.iter().map(|role| {
        let obj = serde_json::to_value(role).map_err(|e| ApiError::internal(&e.to_string()))?;
        Ok(("rbac.authorization.k8s.io", "clusterroles", with_type(obj, "ClusterRole")))
    });
    let bindings = bindings.iter().map(|binding| {
        let obj = serde_json::to_value(binding).map_err(|e| ApiError::internal(&e.to_string()))?;
        Ok(("rbac.authorization.k8s.io", "clusterrolebindings", with_type(obj, "ClusterRoleBinding")))
    });
    let policy = roles.chain(bindings).collect::<Result<Vec<_>, ApiError>>()?;
    // Nothing here refers to anything else here by more than name, so one concurrent batch.
    create_all_if_missing(state, namespaces.chain(policy)).await
}

fn with_type(mut obj: serde_json::Value, kind: &str) -> serde_json::Value {
    obj["apiVersion"] = json!("rbac.authorization.k8s.io/v1");
    obj["kind"] = json!(kind);
    obj
}
