//! What `register` grants a Pull member's agent in the plane (step 5 of upstream's register):
//! its own Cluster, the Leases, and the objects of its own namespaces, nothing else.

use serde_json::{Value, json};

use crate::cluster::Cluster;
use crate::wellknown;

use crate::wellknown::RBAC_GROUP as RBAC;
const RBAC_V1: &str = "rbac.authorization.k8s.io/v1";

/// The group every agent's certificate names.
pub const AGENT_GROUP: &str = "system:karmada:agents";
/// The prefix of an agent's user: `system:karmada:agent:<cluster>`.
pub const AGENT_USER_PREFIX: &str = "system:karmada:agent:";
/// The user `register` creates the agent's RBAC as, with a certificate of its own.
pub const RBAC_GENERATOR_USER: &str = "system:karmada:agent:rbac-generator";
/// The annotation the CSR approver records a registration's bootstrap token in; never the
/// generator's to set.
pub const REGISTERED_BY_TOKEN_ANNOTATION: &str = "karmada.io/registered-by-bootstrap-token";

/// The user the agent's certificate names.
pub fn agent_user(cluster: &str) -> String {
    format!("{AGENT_USER_PREFIX}{cluster}")
}

pub fn cluster_role_name(cluster: &str) -> String {
    format!("system:karmada:{cluster}:agent")
}
pub fn secret_role_name(cluster: &str) -> String {
    format!("system:karmada:{cluster}:agent-secret")
}
pub fn work_role_name(cluster: &str) -> String {
    format!("system:karmada:{cluster}:agent-work")
}

fn labels() -> Value {
    json!({wellknown::LABEL_KARMADA_SYSTEM: "true"})
}

/// The namespaces the agent works in: the cluster namespace (secrets), the Lease namespace and
/// the execution namespace.
pub fn namespaces(cluster: &str, cluster_namespace: &str) -> Vec<String> {
    let mut out = vec![cluster_namespace.to_string()];
    if cluster_namespace != wellknown::KARMADA_CLUSTER_NAMESPACE {
        out.push(wellknown::KARMADA_CLUSTER_NAMESPACE.into());
    }
    out.push(wellknown::execution_space(cluster));
    out
}

/// Set by register on the execution namespace it creates (before the Cluster exists, so the
/// cluster controller cannot claim it): unregister removes only a namespace marked for the
/// cluster it removes.
pub const REGISTERED_FOR_ANNOTATION: &str = "karmada.io/registered-cluster";

pub fn namespace(name: &str, cluster: &str) -> Value {
    let mut ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels()}});
    if name == wellknown::execution_space(cluster) {
        ns["metadata"]["annotations"] = json!({REGISTERED_FOR_ANNOTATION: cluster});
    }
    ns
}

/// The ClusterRole, ClusterRoleBinding, Roles and RoleBindings, in creation order. `upstream`:
/// the rules upstream's karmada-agent image needs (its informers list every Cluster, and it
/// reports secrets, services and events); the built-in agent gets only its own Cluster, its own
/// Lease and its Works.
pub fn objects(cluster: &str, cluster_namespace: &str, upstream: bool) -> Vec<Value> {
    if !upstream {
        return own_only(cluster);
    }
    let user = agent_user(cluster);
    let subject = json!([{"apiGroup": RBAC, "kind": "User", "name": user}]);
    let es = wellknown::execution_space(cluster);
    let cr = cluster_role_name(cluster);
    let secret_role = secret_role_name(cluster);
    let work_role = work_role_name(cluster);
    let group = <Cluster as kube::Resource>::group(&()).into_owned();
    vec![
        json!({"apiVersion": RBAC_V1, "kind": "ClusterRole", "metadata": {"name": cr, "labels": labels()},
        "rules": [
            {"apiGroups": [group], "resources": ["clusters"], "resourceNames": [cluster], "verbs": ["get", "delete"]},
            {"apiGroups": [group], "resources": ["clusters"], "verbs": ["create", "list", "watch"]},
            {"apiGroups": [group], "resources": ["clusters/status"], "resourceNames": [cluster], "verbs": ["update"]},
            {"apiGroups": ["config.karmada.io"], "resources": ["resourceinterpreterwebhookconfigurations", "resourceinterpretercustomizations"], "verbs": ["get", "list", "watch"]},
            {"apiGroups": [""], "resources": ["namespaces"], "verbs": ["get"]},
            {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["get", "create", "update"]},
            {"apiGroups": ["certificates.k8s.io"], "resources": ["certificatesigningrequests"], "verbs": ["get", "create"]},
            {"apiGroups": [""], "resources": ["services"], "verbs": ["list", "watch"]},
            {"apiGroups": [""], "resources": ["events"], "verbs": ["patch", "create", "update"]},
        ]}),
        json!({"apiVersion": RBAC_V1, "kind": "ClusterRoleBinding", "metadata": {"name": cr, "labels": labels()},
            "roleRef": {"apiGroup": RBAC, "kind": "ClusterRole", "name": cr}, "subjects": subject}),
        json!({"apiVersion": RBAC_V1, "kind": "Role", "metadata": {"name": secret_role, "namespace": cluster_namespace, "labels": labels()},
        "rules": [
            {"apiGroups": [""], "resources": ["secrets"], "resourceNames": [cluster, format!("{cluster}-impersonator")], "verbs": ["get", "patch"]},
            {"apiGroups": [""], "resources": ["secrets"], "verbs": ["create"]},
        ]}),
        json!({"apiVersion": RBAC_V1, "kind": "RoleBinding", "metadata": {"name": secret_role, "namespace": cluster_namespace, "labels": labels()},
            "roleRef": {"apiGroup": RBAC, "kind": "Role", "name": secret_role}, "subjects": subject}),
        json!({"apiVersion": RBAC_V1, "kind": "Role", "metadata": {"name": work_role, "namespace": es, "labels": labels()},
        "rules": [
            {"apiGroups": ["work.karmada.io"], "resources": ["works"], "verbs": ["get", "create", "list", "watch", "update", "delete"]},
            {"apiGroups": ["work.karmada.io"], "resources": ["works/status"], "verbs": ["patch", "update"]},
        ]}),
        json!({"apiVersion": RBAC_V1, "kind": "RoleBinding", "metadata": {"name": work_role, "namespace": es, "labels": labels()},
            "roleRef": {"apiGroup": RBAC, "kind": "Role", "name": work_role}, "subjects": subject}),
    ]
}

/// What the built-in agent uses and nothing more (deleting its own Cluster is how a failed
/// `register` takes it back, as the generator may not delete Clusters). Lists and watches of Clusters are allowed
/// only with the field selector `metadata.name=<cluster>` (the name then counts for
/// resourceNames, as in kube-apiserver).
fn own_only(cluster: &str) -> Vec<Value> {
    let user = agent_user(cluster);
    let subject = json!([{"apiGroup": RBAC, "kind": "User", "name": user}]);
    let es = wellknown::execution_space(cluster);
    let cr = cluster_role_name(cluster);
    let work_role = work_role_name(cluster);
    let group = <Cluster as kube::Resource>::group(&()).into_owned();
    vec![
        json!({"apiVersion": RBAC_V1, "kind": "ClusterRole", "metadata": {"name": cr, "labels": labels()},
        "rules": [
            {"apiGroups": [group], "resources": ["clusters"], "resourceNames": [cluster], "verbs": ["get", "list", "watch", "delete"]},
            {"apiGroups": [group], "resources": ["clusters"], "verbs": ["create"]},
            {"apiGroups": [group], "resources": ["clusters/status"], "resourceNames": [cluster], "verbs": ["update"]},
            {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "resourceNames": [cluster], "verbs": ["get", "update"]},
            {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["create"]},
        ]}),
        json!({"apiVersion": RBAC_V1, "kind": "ClusterRoleBinding", "metadata": {"name": cr, "labels": labels()},
            "roleRef": {"apiGroup": RBAC, "kind": "ClusterRole", "name": cr}, "subjects": subject}),
        json!({"apiVersion": RBAC_V1, "kind": "Role", "metadata": {"name": work_role, "namespace": es, "labels": labels()},
        "rules": [
            {"apiGroups": ["work.karmada.io"], "resources": ["works"], "verbs": ["get", "list", "watch", "update"]},
            {"apiGroups": ["work.karmada.io"], "resources": ["works/status"], "verbs": ["patch", "update"]},
        ]}),
        json!({"apiVersion": RBAC_V1, "kind": "RoleBinding", "metadata": {"name": work_role, "namespace": es, "labels": labels()},
            "roleRef": {"apiGroup": RBAC, "kind": "Role", "name": work_role}, "subjects": subject}),
    ]
}
