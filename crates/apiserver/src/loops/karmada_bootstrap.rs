//! Objects a Karmada control plane starts with, as upstream `init` creates them inside Karmada:
//! the `karmada-system` namespace, every Karmada CRD, the aggregated view/edit roles for the Karmada
//! API, cluster proxy access for the admin, the RBAC behind pull-mode registration (bootstrap
//! tokens, CSR auto-approval, a confined RBAC generator), and anonymous read access to
//! `kube-public/cluster-info` only. Created when missing; never overwritten, so an
//! administrator's changes survive restarts (the one exception: the generator's role as
//! upstream's `*/*/*`, which is confined).

use karmadactl_apimachinery::ApiError;
use karmadactl_karmada_api::bootstrap_rbac::{
    RBAC_GENERATOR_ROLE, cluster_info_reader, cluster_role_bindings, cluster_roles, rbac_generator_rules,
};
use karmadactl_pki::token::DEFAULT_GROUP;
use serde_json::{Value, json};

use crate::state::ApiState;
use crate::storage::internal::create_all_if_missing;

use karmadactl_karmada_api::wellknown::RBAC_GROUP as RBAC;

pub async fn run(state: &ApiState) -> Result<(), ApiError> {
    let mut first = Vec::new();
    for crd in karmadactl_karmada_api::crds::all() {
        let mut obj = serde_json::to_value(&crd).map_err(|e| ApiError::internal(&e.to_string()))?;
        obj["apiVersion"] = json!("apiextensions.k8s.io/v1");
        obj["kind"] = json!("CustomResourceDefinition");
        first.push(("apiextensions.k8s.io", "customresourcedefinitions", obj));
    }
    for crd in karmadactl_karmada_api::upstream_crds::all() {
        first.push(("apiextensions.k8s.io", "customresourcedefinitions", crd));
    }
    first.push(("", "namespaces", system_namespace()));
    first.extend(cluster_roles().into_iter().map(|role| (RBAC, "clusterroles", role)));
    create_all_if_missing(state, first).await?;
    // An older store may hold the generator role with upstream's rules: narrowed before any
    // binding to it is created.
    confine_rbac_generator(state).await?;
    let mut second: Vec<_> =
        cluster_role_bindings(DEFAULT_GROUP).into_iter().map(|b| (RBAC, "clusterrolebindings", b)).collect();
    let (role, binding) = cluster_info_reader();
    second.push((RBAC, "roles", role));
    second.push((RBAC, "rolebindings", binding));
    create_all_if_missing(state, second).await
}

fn system_namespace() -> Value {
    let name = karmadactl_karmada_api::wellknown::KARMADA_SYSTEM_NAMESPACE;
    let mut labels = json!({"kubernetes.io/metadata.name": name});
    labels[karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM] = json!("true");
    json!({"apiVersion": "v1", "kind": "Namespace",
           "metadata": {"name": name, "labels": labels},
           "spec": {"finalizers": ["kubernetes"]},
           "status": {"phase": "Active"}})
}

/// A plane started by an earlier version stored the generator's role with upstream's `*/*/*`;
/// that role is replaced by the confined one. Any other edit an administrator made is kept.
async fn confine_rbac_generator(state: &ApiState) -> Result<(), ApiError> {
    use crate::{storage::object, storage::store_access};
    let Some((mut role, rev)) = store_access::get(state, RBAC, "clusterroles", None, RBAC_GENERATOR_ROLE).await? else {
        return Ok(());
    };
    let grants_all = role["rules"].as_array().into_iter().flatten().any(|r| {
        ["apiGroups", "resources", "verbs"].iter().all(|k| r[k].as_array().is_some_and(|v| v.iter().any(|x| x == "*")))
    });
    if !grants_all {
        return Ok(());
    }
    role["rules"] = rbac_generator_rules();
    let key = store_access::key(RBAC, "clusterroles", None, RBAC_GENERATOR_ROLE);
    match state.store.update(&key, object::to_stored_bytes(&role), rev).await {
        Ok(_) => Ok(()),
        // Changed meanwhile: an administrator's version stands.
        Err(karmadactl_store::StoreError::Conflict { .. }) => Ok(()),
        Err(e) => Err(store_access::store_error(e, RBAC, "clusterroles", RBAC_GENERATOR_ROLE)),
    }
}
