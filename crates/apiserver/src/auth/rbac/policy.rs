//! The bootstrap RBAC policy kube-apiserver creates (the parts this plane needs).

// Taken from k8s.io/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go. As its
// rule builder, every list in a rule is sorted and deduplicated. The aggregated roles (admin,
// edit, view) come with their rules already aggregated from the roles here.

use std::collections::BTreeMap;

use k8s_openapi::api::rbac::v1::{AggregationRule, ClusterRole, ClusterRoleBinding, PolicyRule, RoleRef, Subject};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};

use super::aggregate::aggregate_cluster_roles;

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "update", "patch", "delete", "deletecollection"];
const READ_WRITE: &[&str] = &["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
use karmadactl_karmada_api::wellknown::RBAC_GROUP;
const AGGREGATE_TO: &str = "rbac.authorization.k8s.io/aggregate-to-";

/// The default ClusterRoles and ClusterRoleBindings, each labelled
/// `kubernetes.io/bootstrapping: rbac-defaults` and annotated
/// `rbac.authorization.kubernetes.io/autoupdate: "true"`, as kube-apiserver stores them.
pub fn default_policy() -> (Vec<ClusterRole>, Vec<ClusterRoleBinding>) {
    let mut roles = vec![
        role("cluster-admin", &[], vec![res(&["*"], &["*"], &["*"]), urls(&["*"], &["*"])]),
        aggregated("admin", &[], "admin"),
        aggregated("edit", &["admin"], "edit"),
        aggregated("view", &["edit"], "view"),
        role("system:aggregate-to-admin", &["admin"], aggregate_to_admin()),
        role("system:aggregate-to-edit", &["edit"], aggregate_to_edit()),
        role("system:aggregate-to-view", &["view"], aggregate_to_view()),
        role(
            "system:discovery",
            &[],
            vec![urls(
                &["get"],
                &[
                    "/livez",
                    "/readyz",
                    "/healthz",
                    "/version",
                    "/version/",
                    "/openapi",
                    "/openapi/*",
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                ],
            )],
        ),
        role(
            "system:public-info-viewer",
            &[],
            vec![urls(&["get"], &["/livez", "/readyz", "/healthz", "/version", "/version/"])],
        ),
        role(
            "system:basic-user",
            &[],
            vec![
                res(&["create"], &["authorization.k8s.io"], &["selfsubjectaccessreviews", "selfsubjectrulesreviews"]),
                res(&["create"], &["authentication.k8s.io"], &["selfsubjectreviews"]),
            ],
        ),
        role(
            "system:monitoring",
            &[],
            vec![urls(
                &["get"],
                &["/metrics", "/metrics/slis", "/livez", "/readyz", "/healthz", "/livez/*", "/readyz/*", "/healthz/*"],
            )],
        ),
        role(
            "system:auth-delegator",
            &[],
            vec![
                res(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
                res(&["create"], &["authorization.k8s.io"], &["subjectaccessreviews"]),
            ],
        ),
        role(
            "system:node-bootstrapper",
            &[],
            vec![res(&["create", "get", "list", "watch"], &["certificates.k8s.io"], &["certificatesigningrequests"])],
        ),
        role(
            "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
            &[],
            vec![res(&["create"], &["certificates.k8s.io"], &["certificatesigningrequests/nodeclient"])],
        ),
        role(
            "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
            &[],
            vec![res(&["create"], &["certificates.k8s.io"], &["certificatesigningrequests/selfnodeclient"])],
        ),
        // Who may approve requests for the client signer, for an administrator to grant.
        role(
            "system:certificates.k8s.io:kube-apiserver-client-approver",
            &[],
            vec![PolicyRule {
                resource_names: Some(vec!["kubernetes.io/kube-apiserver-client".into()]),
                ..res(&["approve"], &["certificates.k8s.io"], &["signers"])
            }],
        ),
        role(
            "system:service-account-issuer-discovery",
            &[],
            vec![urls(
                &["get"],
                &[
                    "/.well-known/openid-configuration",
                    "/.well-known/openid-configuration/",
                    "/openid/v1/jwks",
                    "/openid/v1/jwks/",
                ],
            )],
        ),
    ];
    aggregate_cluster_roles(&mut roles);
    let bindings = vec![
        binding("cluster-admin", &["system:masters"]),
        binding("system:monitoring", &["system:monitoring"]),
        binding("system:discovery", &["system:authenticated"]),
        binding("system:basic-user", &["system:authenticated"]),
        binding("system:public-info-viewer", &["system:authenticated", "system:unauthenticated"]),
        binding("system:service-account-issuer-discovery", &["system:serviceaccounts"]),
    ];
    (roles, bindings)
}

fn aggregate_to_admin() -> Vec<PolicyRule> {
    vec![
        res(&["create"], &["authorization.k8s.io"], &["localsubjectaccessreviews"]),
        res(READ_WRITE, &[RBAC_GROUP], &["roles", "rolebindings"]),
    ]
}

fn aggregate_to_edit() -> Vec<PolicyRule> {
    vec![
        res(READ, &[""], &["pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy"]),
        res(&["impersonate"], &[""], &["serviceaccounts"]),
        res(WRITE, &[""], &["pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"]),
        res(&["create"], &[""], &["pods/eviction"]),
        res(
            WRITE,
            &[""],
            &[
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "serviceaccounts",
                "services",
                "services/proxy",
                "persistentvolumeclaims",
                "configmaps",
                "secrets",
                "events",
            ],
        ),
        res(&["create"], &[""], &["serviceaccounts/token"]),
        res(
            WRITE,
            &["apps"],
            &[
                "statefulsets",
                "statefulsets/scale",
                "daemonsets",
                "deployments",
                "deployments/scale",
                "deployments/rollback",
                "replicasets",
                "replicasets/scale",
            ],
        ),
        res(WRITE, &["autoscaling"], &["horizontalpodautoscalers"]),
        res(WRITE, &["batch"], &["jobs", "cronjobs"]),
        res(
            WRITE,
            &["extensions"],
            &[
                "daemonsets",
                "deployments",
                "deployments/scale",
                "deployments/rollback",
                "ingresses",
                "replicasets",
                "replicasets/scale",
                "replicationcontrollers/scale",
                "networkpolicies",
            ],
        ),
        res(WRITE, &["policy"], &["poddisruptionbudgets"]),
        res(WRITE, &["networking.k8s.io"], &["networkpolicies", "ingresses"]),
        res(READ_WRITE, &["coordination.k8s.io"], &["leases"]),
    ]
}

fn aggregate_to_view() -> Vec<PolicyRule> {
    vec![
        res(
            READ,
            &[""],
            &[
                "pods",
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "serviceaccounts",
                "services",
                "services/status",
                "endpoints",
                "persistentvolumeclaims",
                "persistentvolumeclaims/status",
                "configmaps",
            ],
        ),
        res(
            READ,
            &[""],
            &[
                "limitranges",
                "resourcequotas",
                "bindings",
                "events",
                "pods/status",
                "resourcequotas/status",
                "namespaces/status",
                "replicationcontrollers/status",
                "pods/log",
            ],
        ),
        res(READ, &[""], &["namespaces"]),
        res(READ, &["discovery.k8s.io"], &["endpointslices"]),
        res(
            READ,
            &["apps"],
            &[
                "controllerrevisions",
                "statefulsets",
                "statefulsets/status",
                "statefulsets/scale",
                "daemonsets",
                "daemonsets/status",
                "deployments",
                "deployments/status",
                "deployments/scale",
                "replicasets",
                "replicasets/status",
                "replicasets/scale",
            ],
        ),
        res(READ, &["autoscaling"], &["horizontalpodautoscalers", "horizontalpodautoscalers/status"]),
        res(READ, &["batch"], &["jobs", "cronjobs", "cronjobs/status", "jobs/status"]),
        res(
            READ,
            &["extensions"],
            &[
                "daemonsets",
                "daemonsets/status",
                "deployments",
                "deployments/scale",
                "deployments/status",
                "ingresses",
                "ingresses/status",
                "replicasets",
                "replicasets/scale",
                "replicasets/status",
                "replicationcontrollers/scale",
                "networkpolicies",
            ],
        ),
        res(READ, &["policy"], &["poddisruptionbudgets", "poddisruptionbudgets/status"]),
        res(READ, &["networking.k8s.io"], &["networkpolicies", "ingresses", "ingresses/status"]),
    ]
}

fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v.dedup();
    v
}

fn res(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
    PolicyRule {
        verbs: sorted(verbs),
        api_groups: Some(sorted(groups)),
        resources: Some(sorted(resources)),
        ..PolicyRule::default()
    }
}

fn urls(verbs: &[&str], paths: &[&str]) -> PolicyRule {
    PolicyRule { verbs: sorted(verbs), non_resource_urls: Some(sorted(paths)), ..PolicyRule::default() }
}

fn metadata(name: &str, labels: BTreeMap<String, String>) -> ObjectMeta {
    let mut labels = labels;
    labels.insert("kubernetes.io/bootstrapping".into(), "rbac-defaults".into());
    ObjectMeta {
        name: Some(name.into()),
        labels: Some(labels),
        annotations: Some([("rbac.authorization.kubernetes.io/autoupdate".to_owned(), "true".to_owned())].into()),
        ..ObjectMeta::default()
    }
}

/// `rbac.authorization.k8s.io/aggregate-to-<x>: "true"` for each x.
fn aggregate_labels(to: &[&str]) -> BTreeMap<String, String> {
    to.iter().map(|t| (format!("{AGGREGATE_TO}{t}"), "true".to_owned())).collect()
}

fn role(name: &str, aggregate_to: &[&str], rules: Vec<PolicyRule>) -> ClusterRole {
    ClusterRole { metadata: metadata(name, aggregate_labels(aggregate_to)), rules: Some(rules), aggregation_rule: None }
}

fn aggregated(name: &str, aggregate_to: &[&str], from: &str) -> ClusterRole {
    ClusterRole {
        metadata: metadata(name, aggregate_labels(aggregate_to)),
        rules: None,
        aggregation_rule: Some(AggregationRule {
            cluster_role_selectors: Some(vec![LabelSelector {
                match_labels: Some(aggregate_labels(&[from])),
                match_expressions: None,
            }]),
        }),
    }
}

fn binding(name: &str, groups: &[&str]) -> ClusterRoleBinding {
    ClusterRoleBinding {
        metadata: metadata(name, BTreeMap::new()),
        role_ref: RoleRef { api_group: RBAC_GROUP.into(), kind: "ClusterRole".into(), name: name.into() },
        subjects: Some(
            groups
                .iter()
                .map(|g| Subject {
                    api_group: Some(RBAC_GROUP.into()),
                    kind: "Group".into(),
                    name: (*g).into(),
                    namespace: None,
                })
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_object_is_labelled_and_annotated() {
        let (roles, bindings) = default_policy();
        let metas = roles.iter().map(|r| &r.metadata).chain(bindings.iter().map(|b| &b.metadata));
        for m in metas {
            assert_eq!(m.labels.as_ref().unwrap()["kubernetes.io/bootstrapping"], "rbac-defaults");
            assert_eq!(m.annotations.as_ref().unwrap()["rbac.authorization.kubernetes.io/autoupdate"], "true");
        }
    }

    #[test]
    fn aggregated_roles_are_filled_and_nest() {
        let (roles, _) = default_policy();
        let get = |n: &str| roles.iter().find(|r| r.metadata.name.as_deref() == Some(n)).unwrap();
        let count = |n: &str| get(n).rules.as_ref().map_or(0, Vec::len);
        assert_eq!(count("view"), aggregate_to_view().len());
        assert_eq!(count("edit"), aggregate_to_edit().len() + aggregate_to_view().len());
        assert_eq!(count("admin"), count("edit") + aggregate_to_admin().len());
        let discovery = &get("system:discovery").rules.as_ref().unwrap()[0];
        assert_eq!(discovery.non_resource_urls.as_ref().unwrap()[0], "/api");
        assert_eq!(WRITE.len(), 5);
    }

    #[test]
    fn the_client_signer_approver_may_approve_that_signer_only() {
        use crate::auth::UserInfo;
        use crate::auth::rbac::{Attributes, RbacSnapshot, authorize};
        let (roles, _) = default_policy();
        let grant = ClusterRoleBinding {
            subjects: Some(vec![Subject { kind: "User".into(), name: "approver".into(), ..Subject::default() }]),
            ..binding("system:certificates.k8s.io:kube-apiserver-client-approver", &[])
        };
        let snapshot = RbacSnapshot::new(vec![], roles, vec![], vec![grant]);
        let approve = |signer: &str| Attributes {
            user: UserInfo { name: "approver".into(), ..UserInfo::default() },
            verb: "approve".into(),
            api_group: "certificates.k8s.io".into(),
            resource: "signers".into(),
            name: signer.into(),
            resource_request: true,
            ..Attributes::default()
        };
        assert!(authorize(&snapshot, &approve("kubernetes.io/kube-apiserver-client")).is_allowed());
        assert!(!authorize(&snapshot, &approve("kubernetes.io/kubelet-serving")).is_allowed());
    }
}
