//! The RBAC a Karmada control plane starts with, as upstream `init` creates it inside Karmada:
//! the aggregated view/edit roles for the Karmada API, cluster proxy access for the admin, the
//! RBAC behind pull-mode registration (bootstrap tokens, CSR auto-approval, a confined RBAC
//! generator) and anonymous read access to `kube-public/cluster-info` only. The embedded plane
//! creates these objects at start and `init` into a host cluster applies them, so both install
//! the same rules.

use serde_json::{Value, json};

use crate::wellknown::RBAC_GROUP as RBAC;
const SYSTEM_LABEL: (&str, &str) = (crate::wellknown::LABEL_KARMADA_SYSTEM, "true");

pub const RBAC_GENERATOR_ROLE: &str = "system:karmada:agent-rbac-generator";

/// What `register`'s RBAC generator needs, where upstream grants `*/*/*`: see whether the
/// cluster is registered, create (and on failure delete) the new agent's namespaces, roles and
/// bindings, and delete its own certificate request. `escalate` and `bind` because the agent's
/// roles hold rules the generator does not; the API server's admission limits every write to the
/// objects of one unregistered cluster's agent.
pub fn rbac_generator_rules() -> Value {
    json!([
        {"apiGroups": ["cluster.karmada.io"], "resources": ["clusters"], "verbs": ["get", "list", "watch"]},
        {"apiGroups": [""], "resources": ["namespaces"], "verbs": ["get", "create", "delete"]},
        {"apiGroups": [RBAC], "resources": ["clusterroles", "roles"], "verbs": ["get", "create", "delete", "escalate", "bind"]},
        {"apiGroups": [RBAC], "resources": ["clusterrolebindings", "rolebindings"], "verbs": ["get", "create", "delete"]},
        {"apiGroups": ["certificates.k8s.io"], "resources": ["certificatesigningrequests"], "verbs": ["get", "delete"]},
    ])
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

pub fn cluster_roles() -> Vec<Value> {
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

pub fn cluster_role_bindings(bootstrap_group: &str) -> Vec<Value> {
    vec![
        // Discovery for anonymous callers (kube-apiserver grants it to authenticated users only):
        // kubectl must map `cm` to a resource before it can read cluster-info, so without this a
        // member with nothing but the plane's address could not run
        // `kubectl get cm cluster-info -n kube-public`. Discovery names the served kinds, never
        // objects; every resource stays behind RBAC.
        binding_to("system:karmada:anonymous-discovery", "system:discovery", "User", "system:anonymous"),
        binding_to("cluster-proxy-admin", "cluster-proxy-admin", "User", "system:admin"),
        binding_to(RBAC_GENERATOR_ROLE, RBAC_GENERATOR_ROLE, "User", "system:karmada:agent:rbac-generator"),
        binding_to("system:karmada:agent-bootstrap", "system:node-bootstrapper", "Group", bootstrap_group),
        binding_to(
            "system:karmada:agent-autoapprove-bootstrap",
            "system:karmada:certificatesigningrequest:autoapprover",
            "Group",
            bootstrap_group,
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
pub fn cluster_info_reader() -> (Value, Value) {
    let name = "system:karmada:bootstrap-signer-clusterinfo";
    let ns = crate::wellknown::CLUSTER_INFO_NAMESPACE;
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": name, "namespace": ns},
        "rules": [{"apiGroups": [""], "resources": ["configmaps"],
                   "resourceNames": [crate::wellknown::CLUSTER_INFO_NAME], "verbs": ["get"]}]});
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": name, "namespace": ns},
        "roleRef": {"apiGroup": RBAC, "kind": "Role", "name": name},
        "subjects": [{"apiGroup": RBAC, "kind": "User", "name": "system:anonymous"},
                     {"apiGroup": RBAC, "kind": "Group", "name": "system:bootstrappers"}]});
    (role, binding)
}
