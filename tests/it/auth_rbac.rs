//! Table tests of the RBAC authorizer against kube-apiserver's behaviour.

use std::collections::BTreeMap;

use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use karmadactl_apiserver::auth::rbac::review_rules;
use karmadactl_apiserver::auth::{
    Attributes, Decision, RbacSnapshot, UserInfo, aggregate_cluster_roles, authorize, default_policy, rules_for,
};

const RBAC: &str = "rbac.authorization.k8s.io";
const BOOTSTRAP_GROUP: &str = "system:bootstrappers:karmada:default-cluster-token";

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn meta(name: &str, namespace: Option<&str>, labels: &[(&str, &str)]) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.into()),
        namespace: namespace.map(Into::into),
        labels: (!labels.is_empty()).then(|| labels.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()),
        ..ObjectMeta::default()
    }
}

fn rule(verbs: &[&str], groups: &[&str], resources: &[&str], names: &[&str]) -> PolicyRule {
    PolicyRule {
        verbs: strings(verbs),
        api_groups: Some(strings(groups)),
        resources: Some(strings(resources)),
        resource_names: (!names.is_empty()).then(|| strings(names)),
        non_resource_urls: None,
    }
}

fn url_rule(verbs: &[&str], urls: &[&str]) -> PolicyRule {
    PolicyRule { verbs: strings(verbs), non_resource_urls: Some(strings(urls)), ..PolicyRule::default() }
}

fn cluster_role(name: &str, labels: &[(&str, &str)], rules: Vec<PolicyRule>) -> ClusterRole {
    ClusterRole { metadata: meta(name, None, labels), rules: Some(rules), aggregation_rule: None }
}

fn role(ns: &str, name: &str, rules: Vec<PolicyRule>) -> Role {
    Role { metadata: meta(name, Some(ns), &[]), rules: Some(rules) }
}

fn subject(kind: &str, name: &str, namespace: Option<&str>) -> Subject {
    Subject {
        api_group: (kind != "ServiceAccount").then(|| RBAC.into()),
        kind: kind.into(),
        name: name.into(),
        namespace: namespace.map(Into::into),
    }
}

fn role_ref(kind: &str, name: &str) -> RoleRef {
    RoleRef { api_group: RBAC.into(), kind: kind.into(), name: name.into() }
}

fn crb(name: &str, role: &str, subjects: Vec<Subject>) -> ClusterRoleBinding {
    ClusterRoleBinding {
        metadata: meta(name, None, &[]),
        role_ref: role_ref("ClusterRole", role),
        subjects: Some(subjects),
    }
}

fn rb(ns: &str, name: &str, kind: &str, role: &str, subjects: Vec<Subject>) -> RoleBinding {
    RoleBinding { metadata: meta(name, Some(ns), &[]), role_ref: role_ref(kind, role), subjects: Some(subjects) }
}

/// The Karmada objects of karmadactl-upstream.md §3.10 that take part in authorization.
fn karmada_policy() -> (Vec<Role>, Vec<ClusterRole>, Vec<RoleBinding>, Vec<ClusterRoleBinding>) {
    let sys = [("karmada.io/system", "true")];
    let karmada_resources = |verbs: &[&str]| {
        vec![
            rule(verbs, &["policy.karmada.io"], &["overridepolicies", "propagationpolicies"], &[]),
            rule(
                verbs,
                &["work.karmada.io"],
                &["resourcebindings", "resourcebindings/status", "works", "works/status"],
                &[],
            ),
        ]
    };
    let roles = vec![role(
        "kube-public",
        "system:karmada:bootstrap-signer-clusterinfo",
        vec![rule(&["get"], &[""], &["configmaps"], &["cluster-info"])],
    )];
    let cluster_roles = vec![
        cluster_role(
            "karmada-view",
            &[
                ("karmada.io/system", "true"),
                ("kubernetes.io/bootstrapping", "rbac-defaults"),
                ("rbac.authorization.k8s.io/aggregate-to-view", "true"),
            ],
            karmada_resources(&["get", "list", "watch"]),
        ),
        cluster_role(
            "karmada-edit",
            &[
                ("karmada.io/system", "true"),
                ("kubernetes.io/bootstrapping", "rbac-defaults"),
                ("rbac.authorization.k8s.io/aggregate-to-edit", "true"),
            ],
            karmada_resources(&["create", "delete", "deletecollection", "patch", "update"]),
        ),
        cluster_role(
            "cluster-proxy-admin",
            &sys,
            vec![rule(&["*"], &["cluster.karmada.io"], &["clusters/proxy"], &[])],
        ),
        cluster_role("system:karmada:agent-rbac-generator", &sys, vec![rule(&["*"], &["*"], &["*"], &[])]),
        cluster_role(
            "system:karmada:certificatesigningrequest:autoapprover",
            &sys,
            vec![rule(&["create"], &["certificates.k8s.io"], &["certificatesigningrequests/clusteragent"], &[])],
        ),
        cluster_role(
            "system:karmada:certificatesigningrequest:selfautoapprover",
            &sys,
            vec![rule(&["create"], &["certificates.k8s.io"], &["certificatesigningrequests/selfclusteragent"], &[])],
        ),
    ];
    let role_bindings = vec![rb(
        "kube-public",
        "system:karmada:bootstrap-signer-clusterinfo",
        "Role",
        "system:karmada:bootstrap-signer-clusterinfo",
        vec![subject("User", "system:anonymous", None)],
    )];
    let cluster_role_bindings = vec![
        crb("cluster-proxy-admin", "cluster-proxy-admin", vec![subject("User", "system:admin", None)]),
        crb(
            "system:karmada:agent-rbac-generator",
            "system:karmada:agent-rbac-generator",
            vec![subject("User", "system:karmada:agent:rbac-generator", None)],
        ),
        crb(
            "system:karmada:agent-bootstrap",
            "system:node-bootstrapper",
            vec![subject("Group", BOOTSTRAP_GROUP, None)],
        ),
        crb(
            "system:karmada:agent-autoapprove-bootstrap",
            "system:karmada:certificatesigningrequest:autoapprover",
            vec![subject("Group", BOOTSTRAP_GROUP, None)],
        ),
        crb(
            "system:karmada:agent-autoapprove-certificate-rotation",
            "system:karmada:certificatesigningrequest:selfautoapprover",
            vec![subject("Group", "system:karmada:agents", None)],
        ),
    ];
    (roles, cluster_roles, role_bindings, cluster_role_bindings)
}

/// Defaults + Karmada + the test's own objects, aggregated as the server would.
fn snapshot(
    mut roles: Vec<Role>,
    mut cluster_roles: Vec<ClusterRole>,
    mut role_bindings: Vec<RoleBinding>,
    mut cluster_role_bindings: Vec<ClusterRoleBinding>,
) -> RbacSnapshot {
    let (default_roles, default_bindings) = default_policy();
    let (k_roles, k_cluster_roles, k_rbs, k_crbs) = karmada_policy();
    roles.extend(k_roles);
    cluster_roles.extend(default_roles);
    cluster_roles.extend(k_cluster_roles);
    role_bindings.extend(k_rbs);
    cluster_role_bindings.extend(default_bindings);
    cluster_role_bindings.extend(k_crbs);
    aggregate_cluster_roles(&mut cluster_roles);
    RbacSnapshot::new(roles, cluster_roles, role_bindings, cluster_role_bindings)
}

fn base() -> RbacSnapshot {
    snapshot(vec![], vec![], vec![], vec![])
}

fn user(name: &str, groups: &[&str]) -> UserInfo {
    UserInfo { name: name.into(), groups: strings(groups), ..UserInfo::default() }
}

fn authenticated(name: &str, groups: &[&str]) -> UserInfo {
    let mut u = user(name, groups);
    u.groups.push("system:authenticated".into());
    u
}

fn sa(ns: &str, name: &str) -> UserInfo {
    authenticated(
        &format!("system:serviceaccount:{ns}:{name}"),
        &["system:serviceaccounts", &format!("system:serviceaccounts:{ns}")],
    )
}

/// A resource request: `verb group/resource[/subresource] [name]` in `ns`.
fn res(u: &UserInfo, verb: &str, ns: &str, group: &str, resource: &str, name: &str) -> Attributes {
    let (resource, subresource) = resource.split_once('/').unwrap_or((resource, ""));
    Attributes {
        user: u.clone(),
        verb: verb.into(),
        namespace: ns.into(),
        api_group: group.into(),
        resource: resource.into(),
        subresource: subresource.into(),
        name: name.into(),
        resource_request: true,
        path: String::new(),
    }
}

fn url(u: &UserInfo, verb: &str, path: &str) -> Attributes {
    Attributes { user: u.clone(), verb: verb.into(), path: path.into(), ..Attributes::default() }
}

fn check(snap: &RbacSnapshot, cases: &[(Attributes, bool)]) {
    for (attrs, want) in cases {
        let got = authorize(snap, attrs);
        assert_eq!(got.is_allowed(), *want, "{attrs:?} -> {got:?}");
    }
}

#[test]
fn anonymous_only_gets_public_info_and_cluster_info() {
    let snap = base();
    let anon = UserInfo::anonymous();
    check(
        &snap,
        &[
            (url(&anon, "get", "/healthz"), true),
            (url(&anon, "get", "/livez"), true),
            (url(&anon, "get", "/readyz"), true),
            (url(&anon, "get", "/version"), true),
            (url(&anon, "get", "/version/"), true),
            (url(&anon, "post", "/healthz"), false),
            (url(&anon, "get", "/healthz/etcd"), false),
            (url(&anon, "get", "/api"), false),
            (url(&anon, "get", "/apis/apps/v1"), false),
            (url(&anon, "get", "/openapi/v2"), false),
            (url(&anon, "get", "/metrics"), false),
            (res(&anon, "list", "default", "", "pods", ""), false),
            (res(&anon, "create", "", "authorization.k8s.io", "selfsubjectaccessreviews", ""), false),
            // §3.10: the bootstrap-signer Role lets anonymous read exactly cluster-info in kube-public.
            (res(&anon, "get", "kube-public", "", "configmaps", "cluster-info"), true),
            (res(&anon, "get", "kube-public", "", "configmaps", "other"), false),
            (res(&anon, "list", "kube-public", "", "configmaps", ""), false),
            (res(&anon, "watch", "kube-public", "", "configmaps", "cluster-info"), false),
            (res(&anon, "update", "kube-public", "", "configmaps", "cluster-info"), false),
            (res(&anon, "get", "kube-system", "", "configmaps", "cluster-info"), false),
            (res(&anon, "get", "kube-public", "", "secrets", "cluster-info"), false),
        ],
    );
    assert_eq!(
        authorize(&snap, &res(&anon, "list", "default", "", "pods", "")),
        Decision::Deny { reason: String::new() }
    );
}

#[test]
fn authenticated_users_get_discovery_and_self_reviews() {
    let snap = base();
    let alice = authenticated("alice", &[]);
    check(
        &snap,
        &[
            (url(&alice, "get", "/api"), true),
            (url(&alice, "get", "/api/v1"), true),
            (url(&alice, "get", "/apis"), true),
            (url(&alice, "get", "/apis/apps/v1"), true),
            (url(&alice, "get", "/openapi/v3/apis/apps/v1"), true),
            (url(&alice, "get", "/healthz"), true),
            (url(&alice, "get", "/metrics"), false),
            (url(&alice, "get", "/logs"), false),
            (res(&alice, "create", "", "authorization.k8s.io", "selfsubjectaccessreviews", ""), true),
            (res(&alice, "create", "", "authorization.k8s.io", "selfsubjectrulesreviews", ""), true),
            (res(&alice, "create", "", "authentication.k8s.io", "selfsubjectreviews", ""), true),
            (res(&alice, "create", "", "authorization.k8s.io", "subjectaccessreviews", ""), false),
            (res(&alice, "list", "", "", "namespaces", ""), false),
            (res(&alice, "get", "kube-public", "", "configmaps", "cluster-info"), false),
        ],
    );
}

#[test]
fn system_masters_may_do_anything() {
    let snap = RbacSnapshot::new(vec![], vec![], vec![], vec![]);
    let admin = authenticated("system:admin", &["system:masters"]);
    check(
        &snap,
        &[
            (res(&admin, "delete", "kube-system", "", "secrets", "x"), true),
            (res(&admin, "escalate", "", RBAC, "clusterroles", ""), true),
            (url(&admin, "get", "/metrics"), true),
            (url(&admin, "post", "/anything"), true),
        ],
    );
    // With the default policy the same follows from the cluster-admin binding, which is what
    // `can-i --list` shows.
    let rules = rules_for(&base(), &admin, "default");
    assert!(rules.iter().any(|r| r.verbs == ["*"] && r.resources.as_deref() == Some(&["*".to_owned()][..])));
}

#[test]
fn service_account_role_binding_grants_in_its_namespace_only() {
    let snap = snapshot(
        vec![role("team-a", "pod-reader", vec![rule(&["get", "list", "watch"], &[""], &["pods"], &[])])],
        vec![],
        vec![
            // Namespace left out: a RoleBinding's ServiceAccount subject defaults to its own namespace.
            rb("team-a", "read-pods", "Role", "pod-reader", vec![subject("ServiceAccount", "robot", None)]),
        ],
        vec![],
    );
    let robot = sa("team-a", "robot");
    let other = sa("team-b", "robot");
    check(
        &snap,
        &[
            (res(&robot, "list", "team-a", "", "pods", ""), true),
            (res(&robot, "get", "team-a", "", "pods", "web-0"), true),
            (res(&robot, "delete", "team-a", "", "pods", "web-0"), false),
            (res(&robot, "get", "team-a", "", "pods/log", "web-0"), false),
            (res(&robot, "list", "team-b", "", "pods", ""), false),
            (res(&robot, "list", "", "", "pods", ""), false),
            (res(&robot, "list", "team-a", "", "services", ""), false),
            (res(&other, "list", "team-a", "", "pods", ""), false),
        ],
    );
}

#[test]
fn role_binding_to_cluster_role_and_subresources() {
    let snap = snapshot(
        vec![],
        vec![],
        vec![
            rb("dev", "viewers", "ClusterRole", "view", vec![subject("Group", "viewers", None)]),
            rb("dev", "editors", "ClusterRole", "edit", vec![subject("User", "erin", None)]),
            rb("dev", "admins", "ClusterRole", "admin", vec![subject("User", "ada", None)]),
        ],
        vec![],
    );
    let viewer = authenticated("victor", &["viewers"]);
    let erin = authenticated("erin", &[]);
    let ada = authenticated("ada", &[]);
    check(
        &snap,
        &[
            (res(&viewer, "get", "dev", "apps", "deployments", "web"), true),
            (res(&viewer, "list", "dev", "", "configmaps", ""), true),
            (res(&viewer, "get", "dev", "", "pods/log", "web-0"), true),
            (res(&viewer, "get", "dev", "apps", "deployments/scale", "web"), true),
            (res(&viewer, "update", "dev", "apps", "deployments/scale", "web"), false),
            (res(&viewer, "get", "dev", "", "secrets", "s"), false),
            (res(&viewer, "get", "prod", "apps", "deployments", "web"), false),
            (res(&viewer, "list", "", "apps", "deployments", ""), false),
            (res(&erin, "update", "dev", "apps", "deployments/scale", "web"), true),
            (res(&erin, "patch", "dev", "apps", "deployments", "web"), true),
            (res(&erin, "get", "dev", "", "secrets", "s"), true),
            (res(&erin, "create", "dev", "", "pods/exec", "web-0"), true),
            (res(&erin, "create", "dev", RBAC, "rolebindings", ""), false),
            (res(&ada, "create", "dev", RBAC, "rolebindings", ""), true),
            (res(&ada, "get", "dev", "apps", "deployments", "web"), true),
            (res(&ada, "create", "prod", RBAC, "rolebindings", ""), false),
            // Karmada's roles are aggregated into the defaults.
            (res(&viewer, "list", "dev", "policy.karmada.io", "propagationpolicies", ""), true),
            (res(&viewer, "create", "dev", "policy.karmada.io", "propagationpolicies", ""), false),
            (res(&erin, "create", "dev", "policy.karmada.io", "propagationpolicies", ""), true),
            (res(&ada, "delete", "dev", "work.karmada.io", "works", "w"), true),
        ],
    );
}

#[test]
fn wildcard_subresource_and_resource_names() {
    let snap = snapshot(
        vec![],
        vec![
            cluster_role("status-reader", &[], vec![rule(&["get"], &["*"], &["*/status"], &[])]),
            cluster_role(
                "one-secret",
                &[],
                vec![rule(&["get", "update", "create", "list"], &[""], &["secrets"], &["db-password"])],
            ),
        ],
        vec![rb("dev", "one-secret", "ClusterRole", "one-secret", vec![subject("User", "sam", None)])],
        vec![crb("status-reader", "status-reader", vec![subject("User", "sam", None)])],
    );
    let sam = authenticated("sam", &[]);
    check(
        &snap,
        &[
            (res(&sam, "get", "dev", "", "pods/status", "p"), true),
            (res(&sam, "get", "", "apps", "deployments/status", "d"), true),
            (res(&sam, "get", "", "", "nodes/status", "n"), true),
            (res(&sam, "get", "dev", "", "pods", "p"), false),
            (res(&sam, "get", "dev", "", "pods/log", "p"), false),
            (res(&sam, "update", "dev", "", "pods/status", "p"), false),
            (res(&sam, "get", "dev", "", "secrets", "db-password"), true),
            (res(&sam, "update", "dev", "", "secrets", "db-password"), true),
            (res(&sam, "get", "dev", "", "secrets", "other"), false),
            // Requests without a name never match rules with resourceNames.
            (res(&sam, "list", "dev", "", "secrets", ""), false),
            (res(&sam, "create", "dev", "", "secrets", ""), false),
            (res(&sam, "get", "prod", "", "secrets", "db-password"), false),
        ],
    );
}

#[test]
fn non_resource_urls_only_through_cluster_role_bindings() {
    let snap = snapshot(
        vec![],
        vec![cluster_role("log-reader", &[], vec![url_rule(&["get"], &["/logs", "/logs/*", "/debug*"])])],
        vec![rb("dev", "log-reader", "ClusterRole", "log-reader", vec![subject("User", "rita", None)])],
        vec![crb("log-reader", "log-reader", vec![subject("Group", "ops", None)])],
    );
    let ops = authenticated("olga", &["ops"]);
    let rita = authenticated("rita", &[]);
    check(
        &snap,
        &[
            (url(&ops, "get", "/logs"), true),
            (url(&ops, "get", "/logs/kube-apiserver.log"), true),
            (url(&ops, "get", "/logsx"), false),
            (url(&ops, "get", "/debug"), true),
            (url(&ops, "get", "/debug/pprof/heap"), true),
            (url(&ops, "post", "/logs"), false),
            // A RoleBinding to the same ClusterRole grants no URLs.
            (url(&rita, "get", "/logs"), false),
        ],
    );
    // Even when the server sets a namespace on a non-resource request.
    let mut attrs = url(&rita, "get", "/logs");
    attrs.namespace = "dev".into();
    assert!(!authorize(&snap, &attrs).is_allowed());
}

#[test]
fn group_and_service_account_subjects_in_cluster_role_bindings() {
    let snap = snapshot(
        vec![],
        vec![cluster_role("node-reader", &[], vec![rule(&["get", "list"], &[""], &["nodes"], &[])])],
        vec![],
        vec![
            crb("sa-nodes", "node-reader", vec![subject("ServiceAccount", "scheduler", Some("karmada-system"))]),
            // Without a namespace a ClusterRoleBinding's ServiceAccount subject names nobody.
            crb("sa-no-ns", "node-reader", vec![subject("ServiceAccount", "ghost", None)]),
            crb("group-nodes", "node-reader", vec![subject("Group", "system:serviceaccounts:monitoring", None)]),
        ],
    );
    check(
        &snap,
        &[
            (res(&sa("karmada-system", "scheduler"), "list", "", "", "nodes", ""), true),
            (res(&sa("default", "scheduler"), "list", "", "", "nodes", ""), false),
            (res(&sa("default", "ghost"), "list", "", "", "nodes", ""), false),
            (res(&sa("monitoring", "anyone"), "get", "", "", "nodes", "n1"), true),
            (
                res(&authenticated("system:serviceaccount:karmada-system:scheduler", &[]), "list", "", "", "nodes", ""),
                true,
            ),
            (res(&authenticated("scheduler", &[]), "list", "", "", "nodes", ""), false),
        ],
    );
}

#[test]
fn aggregation_fills_admin_edit_and_view_from_labels() {
    let mut cluster_roles = default_policy().0;
    cluster_roles.push(cluster_role(
        "widgets-view",
        &[("rbac.authorization.k8s.io/aggregate-to-view", "true")],
        vec![rule(&["get", "list", "watch"], &["example.com"], &["widgets"], &[])],
    ));
    cluster_roles.push(cluster_role(
        "widgets-edit",
        &[("rbac.authorization.k8s.io/aggregate-to-edit", "true")],
        vec![rule(&["create", "delete"], &["example.com"], &["widgets"], &[])],
    ));
    let changed = aggregate_cluster_roles(&mut cluster_roles);
    assert_eq!(changed, vec!["admin", "edit", "view"]);
    assert!(aggregate_cluster_roles(&mut cluster_roles).is_empty(), "a second run changes nothing");
    let rules_of = |roles: &[ClusterRole], name: &str| {
        roles.iter().find(|r| r.metadata.name.as_deref() == Some(name)).unwrap().rules.clone().unwrap()
    };
    let widgets =
        |rules: &[PolicyRule]| rules.iter().filter(|r| r.api_groups == Some(vec!["example.com".into()])).count();
    assert_eq!(widgets(&rules_of(&cluster_roles, "view")), 1);
    assert_eq!(widgets(&rules_of(&cluster_roles, "edit")), 2);
    assert_eq!(widgets(&rules_of(&cluster_roles, "admin")), 2);

    // Removing the label takes the rules out again.
    let idx = cluster_roles.iter().position(|r| r.metadata.name.as_deref() == Some("widgets-view")).unwrap();
    cluster_roles[idx].metadata.labels = Some(BTreeMap::new());
    assert_eq!(aggregate_cluster_roles(&mut cluster_roles), vec!["admin", "edit", "view"]);
    assert_eq!(widgets(&rules_of(&cluster_roles, "view")), 0);
}

#[test]
fn match_expressions_select_roles_for_aggregation() {
    use k8s_openapi::api::rbac::v1::AggregationRule;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};
    let mut roles = vec![
        ClusterRole {
            metadata: meta("monitoring", None, &[]),
            rules: Some(vec![rule(&["get"], &["stale"], &["x"], &[])]),
            aggregation_rule: Some(AggregationRule {
                cluster_role_selectors: Some(vec![LabelSelector {
                    match_labels: None,
                    match_expressions: Some(vec![
                        LabelSelectorRequirement {
                            key: "team".into(),
                            operator: "In".into(),
                            values: Some(strings(&["obs", "sre"])),
                        },
                        LabelSelectorRequirement {
                            key: "deprecated".into(),
                            operator: "DoesNotExist".into(),
                            values: None,
                        },
                    ]),
                }]),
            }),
        },
        cluster_role("b-metrics", &[("team", "sre")], vec![rule(&["get"], &["metrics.k8s.io"], &["pods"], &[])]),
        cluster_role("a-logs", &[("team", "obs")], vec![rule(&["get"], &["logs.example"], &["logs"], &[])]),
        cluster_role("old", &[("team", "obs"), ("deprecated", "yes")], vec![rule(&["*"], &["*"], &["*"], &[])]),
        cluster_role("dup", &[("team", "sre")], vec![rule(&["get"], &["metrics.k8s.io"], &["pods"], &[])]),
    ];
    assert_eq!(aggregate_cluster_roles(&mut roles), vec!["monitoring"]);
    let groups: Vec<String> =
        roles[0].rules.as_ref().unwrap().iter().map(|r| r.api_groups.as_ref().unwrap()[0].clone()).collect();
    // Selected roles in name order, duplicates once, the old rules replaced.
    assert_eq!(groups, vec!["logs.example", "metrics.k8s.io"]);
}

#[test]
fn bootstrap_token_users_may_request_certificates_but_not_read_secrets() {
    let snap = base();
    let joiner = authenticated("system:bootstrap:abcdef", &["system:bootstrappers", BOOTSTRAP_GROUP]);
    let other_token = authenticated("system:bootstrap:zzzzzz", &["system:bootstrappers"]);
    let csr = "certificatesigningrequests";
    check(
        &snap,
        &[
            (res(&joiner, "create", "", "certificates.k8s.io", csr, ""), true),
            (res(&joiner, "get", "", "certificates.k8s.io", csr, "csr-1"), true),
            (res(&joiner, "list", "", "certificates.k8s.io", csr, ""), true),
            (res(&joiner, "watch", "", "certificates.k8s.io", csr, ""), true),
            (res(&joiner, "create", "", "certificates.k8s.io", "certificatesigningrequests/clusteragent", ""), true),
            (res(&joiner, "update", "", "certificates.k8s.io", "certificatesigningrequests/approval", "csr-1"), false),
            (res(&joiner, "delete", "", "certificates.k8s.io", csr, "csr-1"), false),
            (res(&joiner, "get", "kube-system", "", "secrets", "bootstrap-token-abcdef"), false),
            (res(&joiner, "list", "", "", "secrets", ""), false),
            (res(&joiner, "list", "", "cluster.karmada.io", "clusters", ""), false),
            (url(&joiner, "get", "/apis"), true),
            (res(&other_token, "create", "", "certificates.k8s.io", csr, ""), false),
        ],
    );
}

#[test]
fn karmada_system_users() {
    let snap = base();
    let admin_user = authenticated("system:admin", &[]);
    let generator = authenticated("system:karmada:agent:rbac-generator", &[]);
    let agent = authenticated("system:karmada:agent:member1", &["system:karmada:agents"]);
    check(
        &snap,
        &[
            (res(&admin_user, "get", "", "cluster.karmada.io", "clusters/proxy", "member1"), true),
            (res(&admin_user, "get", "", "cluster.karmada.io", "clusters", "member1"), false),
            (res(&generator, "create", "karmada-cluster", RBAC, "rolebindings", ""), true),
            (res(&generator, "escalate", "", RBAC, "clusterroles", "x"), true),
            (url(&generator, "get", "/metrics"), false),
            (res(&agent, "create", "", "certificates.k8s.io", "certificatesigningrequests/selfclusteragent", ""), true),
            (res(&agent, "create", "", "certificates.k8s.io", "certificatesigningrequests/clusteragent", ""), false),
        ],
    );
}

#[test]
fn missing_roles_explain_the_denial() {
    let snap = snapshot(
        vec![],
        vec![],
        vec![rb("dev", "gone", "Role", "deleted-role", vec![subject("User", "dan", None)])],
        vec![
            crb("gone-1", "ghost", vec![subject("User", "dan", None)]),
            crb("gone-2", "ghost", vec![subject("Group", "devs", None)]),
            crb("unrelated", "phantom", vec![subject("User", "someone-else", None)]),
        ],
    );
    let dan = authenticated("dan", &["devs"]);
    let d = authorize(&snap, &res(&dan, "list", "", "", "pods", ""));
    assert_eq!(d, Decision::Deny { reason: r#"RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found"#.into() });
    let d = authorize(&snap, &res(&dan, "list", "dev", "", "pods", ""));
    assert_eq!(
        d.reason(),
        r#"RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "deleted-role" not found]"#
    );
    // Still allowed where a working binding grants the request.
    assert!(authorize(&snap, &url(&dan, "get", "/api")).is_allowed());
    let review = review_rules(&snap, &dan, "dev");
    assert_eq!(
        review.evaluation_error.as_deref(),
        Some(
            r#"[clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "deleted-role" not found]"#
        )
    );
}

#[test]
fn rules_for_lists_cluster_then_namespace_rules() {
    let reader = rule(&["get", "list"], &[""], &["pods"], &[]);
    let snap = snapshot(
        vec![role("team-a", "pod-reader", vec![reader.clone()])],
        vec![],
        vec![rb("team-a", "read-pods", "Role", "pod-reader", vec![subject("ServiceAccount", "robot", Some("team-a"))])],
        vec![],
    );
    let robot = sa("team-a", "robot");
    let in_ns = rules_for(&snap, &robot, "team-a");
    let cluster_wide = rules_for(&snap, &robot, "");
    assert_eq!(in_ns.last(), Some(&reader));
    assert_eq!(in_ns.len(), cluster_wide.len() + 1);
    // discovery, public info and basic-user come from the system:authenticated bindings.
    assert!(
        cluster_wide.iter().any(|r| r.non_resource_urls.as_ref().is_some_and(|u| u.contains(&"/apis/*".to_owned())))
    );
    assert!(
        cluster_wide
            .iter()
            .any(|r| r.resources.as_ref().is_some_and(|u| u.contains(&"selfsubjectrulesreviews".to_owned())))
    );
    assert!(review_rules(&snap, &robot, "team-a").evaluation_error.is_none());
}
