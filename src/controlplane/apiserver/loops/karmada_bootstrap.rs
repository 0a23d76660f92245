//! Objects a Karmada control plane starts with, as upstream `init` creates them inside Karmada:
//! the `karmada-system` namespace, every Karmada CRD, the aggregated view/edit roles for the Karmada
//! API, cluster proxy access for the admin, the RBAC behind pull-mode registration (bootstrap
//! tokens, CSR auto-approval, a confined RBAC generator), and anonymous read access to
//! `kube-public/cluster-info` only. Created when missing; never overwritten, so an
//! administrator's changes survive restarts (the one exception: the generator's role as
//! upstream's `*/*/*`, which is confined).

use karmadactl_apimachinery::ApiError;
use karmadactl_pki::token::DEFAULT_GROUP;
use serde_json::{Value, json};

use crate::controlplane::apiserver::internal::create_all_if_missing;
use crate::controlplane::apiserver::state::ApiState;

const RBAC: &str = "rbac.authorization.k8s.io";
const SYSTEM_LABEL: (&str, &str) = (karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM, "true");

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
    let mut second: Vec<_> = cluster_role_bindings().into_iter().map(|b| (RBAC, "clusterrolebindings", b)).collect();
    let (role, binding) = cluster_info_reader();
    second.push((RBAC, "roles", role));
    second.push((RBAC, "rolebindings", binding));
    create_all_if_missing(state, second).await
}

fn system_namespace() -> Value {
    let name = karmadactl_karmada_api::wellknown::KARMADA_SYSTEM_NAMESPACE;
    json!({"apiVersion": "v1", "kind": "Namespace",
           "metadata": meta(name, json!({"kubernetes.io/metadata.name": name}), None),
           "spec": {"finalizers": ["kubernetes"]},
           "status": {"phase": "Active"}})
}

const RBAC_GENERATOR_ROLE: &str = "system:karmada:agent-rbac-generator";

/// What `register`'s RBAC generator needs, where upstream grants `*/*/*`: see whether the
/// cluster is registered, create (and on failure delete) the new agent's namespaces, roles and
/// bindings, and delete its own certificate request. `escalate` and `bind` because the agent's
/// roles hold rules the generator does not; `rbac_generator_admission` limits every write to the
/// objects of one unregistered cluster's agent.
fn rbac_generator_rules() -> Value {
    json!([
        {"apiGroups": ["cluster.karmada.io"], "resources": ["clusters"], "verbs": ["get", "list", "watch"]},
        {"apiGroups": [""], "resources": ["namespaces"], "verbs": ["get", "create", "delete"]},
        {"apiGroups": [RBAC], "resources": ["clusterroles", "roles"], "verbs": ["get", "create", "delete", "escalate", "bind"]},
        {"apiGroups": [RBAC], "resources": ["clusterrolebindings", "rolebindings"], "verbs": ["get", "create", "delete"]},
        {"apiGroups": ["certificates.k8s.io"], "resources": ["certificatesigningrequests"], "verbs": ["get", "delete"]},
    ])
}

/// A plane started by an earlier version stored the generator's role with upstream's `*/*/*`;
/// that role is replaced by the confined one. Any other edit an administrator made is kept.
async fn confine_rbac_generator(state: &ApiState) -> Result<(), ApiError> {
    use crate::controlplane::apiserver::{object, store_access};
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

fn meta(name: &str, labels: Value, annotations: Option<Value>) -> Value {
    let mut labels = labels;
    labels[SYSTEM_LABEL.0] = json!(SYSTEM_LABEL.1);
    let mut m = json!({"name": name, "labels": labels});
    if let Some(a) = annotations {
        m["annotations"] = a;
    }
    m
}

fn cluster_role(name: &str, labels: Value, annotations: Option<Value>, rules: Value) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
           "metadata": meta(name, labels, annotations), "rules": rules})
}

fn binding_to(name: &str, role: &str, subject_kind: &str, subject: &str) -> Value {
    json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
           "metadata": meta(name, json!({}), None),
           "roleRef": {"apiGroup": RBAC, "kind": "ClusterRole", "name": role},
           "subjects": [{"apiGroup": RBAC, "kind": subject_kind, "name": subject}]})
}

/// The Karmada resources users may view or edit when they hold Kubernetes' `view`/`edit`.
fn aggregated_rules(verbs: &[&str]) -> Value {
    let groups: [(&str, &[&str]); 5] = [
        (
            "autoscaling.karmada.io",
            &["cronfederatedhpas", "cronfederatedhpas/status", "federatedhpas", "federatedhpas/status"],
        ),
        (
            "multicluster.x-k8s.io",
            &["serviceexports", "serviceexports/status", "serviceimports", "serviceimports/status"],
        ),
        (
            "networking.karmada.io",
            &[
                "multiclusteringresses",
                "multiclusteringresses/status",
                "multiclusterservices",
                "multiclusterservices/status",
            ],
        ),
        ("policy.karmada.io", &["overridepolicies", "propagationpolicies"]),
        ("work.karmada.io", &["resourcebindings", "resourcebindings/status", "works", "works/status"]),
    ];
    Value::Array(
        groups
            .iter()
            .map(|(group, resources)| json!({"apiGroups": [group], "resources": resources, "verbs": verbs}))
            .collect(),
    )
}

pub(crate) fn cluster_roles() -> Vec<Value> {
    let autoupdate = Some(json!({"rbac.authorization.kubernetes.io/autoupdate": "true"}));
    vec![
        cluster_role(
            "karmada-view",
            json!({"kubernetes.io/bootstrapping": "rbac-defaults", "rbac.authorization.k8s.io/aggregate-to-view": "true"}),
            autoupdate.clone(),
            aggregated_rules(&["get", "list", "watch"]),
        ),
        cluster_role(
            "karmada-edit",
            json!({"kubernetes.io/bootstrapping": "rbac-defaults", "rbac.authorization.k8s.io/aggregate-to-edit": "true"}),
            autoupdate,
            aggregated_rules(&["create", "delete", "deletecollection", "patch", "update"]),
        ),
        cluster_role(
            "cluster-proxy-admin",
            json!({}),
            None,
            json!([{"apiGroups": ["cluster.karmada.io"], "resources": ["clusters/proxy"], "verbs": ["*"]}]),
        ),
        cluster_role(RBAC_GENERATOR_ROLE, json!({}), None, rbac_generator_rules()),
        cluster_role(
            "system:karmada:certificatesigningrequest:autoapprover",
            json!({}),
            None,
            json!([{"apiGroups": ["certificates.k8s.io"], "resources": ["certificatesigningrequests/clusteragent"], "verbs": ["create"]}]),
        ),
        cluster_role(
            "system:karmada:certificatesigningrequest:selfautoapprover",
            json!({}),
            None,
            json!([{"apiGroups": ["certificates.k8s.io"], "resources": ["certificatesigningrequests/selfclusteragent"], "verbs": ["create"]}]),
        ),
    ]
}

pub(crate) fn cluster_role_bindings() -> Vec<Value> {
    vec![
        // Discovery for anonymous callers (kube-apiserver grants it to authenticated users only):
        // kubectl must map `cm` to a resource before it can read cluster-info, so without this a
        // member with nothing but the plane's address could not run
        // `kubectl get cm cluster-info -n kube-public`. Discovery names the served kinds, never
        // objects; every resource stays behind RBAC.
        binding_to("system:karmada:anonymous-discovery", "system:discovery", "User", "system:anonymous"),
        binding_to("cluster-proxy-admin", "cluster-proxy-admin", "User", "system:admin"),
        binding_to(RBAC_GENERATOR_ROLE, RBAC_GENERATOR_ROLE, "User", "system:karmada:agent:rbac-generator"),
        binding_to("system:karmada:agent-bootstrap", "system:node-bootstrapper", "Group", DEFAULT_GROUP),
        binding_to(
            "system:karmada:agent-autoapprove-bootstrap",
            "system:karmada:certificatesigningrequest:autoapprover",
            "Group",
            DEFAULT_GROUP,
        ),
        binding_to(
            "system:karmada:agent-autoapprove-certificate-rotation",
            "system:karmada:certificatesigningrequest:selfautoapprover",
            "Group",
            "system:karmada:agents",
        ),
    ]
}

/// `get` on the one ConfigMap `kube-public/cluster-info`, for anonymous callers: what a member
/// needs to discover the plane before it has credentials, and nothing more. Bootstrap token
/// users are authenticated, so not anonymous; they get the same read, which tells them nothing
/// the anonymous read does not, so a client holding a token need not drop it to discover.
pub(crate) fn cluster_info_reader() -> (Value, Value) {
    let name = "system:karmada:bootstrap-signer-clusterinfo";
    let ns = karmadactl_karmada_api::wellknown::CLUSTER_INFO_NAMESPACE;
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": name, "namespace": ns},
        "rules": [{"apiGroups": [""], "resources": ["configmaps"],
                   "resourceNames": [karmadactl_karmada_api::wellknown::CLUSTER_INFO_NAME], "verbs": ["get"]}]});
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": name, "namespace": ns},
        "roleRef": {"apiGroup": RBAC, "kind": "Role", "name": name},
        "subjects": [{"apiGroup": RBAC, "kind": "User", "name": "system:anonymous"},
                     {"apiGroup": RBAC, "kind": "Group", "name": "system:bootstrappers"}]});
    (role, binding)
}
