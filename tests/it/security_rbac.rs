//! Privilege escalation through RBAC and certificate requests, replayed against a real plane by
//! client-certificate users that hold only the narrow permission each attack needs: every
//! refusal is checked for kube-apiserver's status code and message and for leaving the stored
//! objects as they were, and every allowed path (the permissions held, or `escalate`, `bind`,
//! `approve` granted) is checked to still work.

use std::time::{Duration, Instant};

use crate::common::plane::Plane;
use k8s_openapi::api::authorization::v1::{ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec};
use k8s_openapi::api::certificates::v1::{CertificateSigningRequest, CertificateSigningRequestCondition};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use karmadactl::kubeconfig::KubeconfigBuilder;
use karmadactl_pki::{CertificateAuthority, LeafSpec, Validity};
use kube::api::{Patch, PatchParams, PostParams};
use kube::{Api, Client};
use serde_json::{Value, json};

const NS: &str = "team";

/// A kube-rs client for the plane's administrator.
async fn admin(plane: &Plane) -> Client {
    let kc = kube::config::Kubeconfig::read_from(&plane.kubeconfig).unwrap();
    client_for(kc).await
}

/// A kube-rs client for `user` in `groups`, with a certificate from the plane's CA.
async fn user(plane: &Plane, name: &str, groups: &[&str]) -> Client {
    let pki = plane.data_dir.join("pki");
    let ca = CertificateAuthority::from_pem(
        &std::fs::read_to_string(pki.join("ca.crt")).unwrap(),
        &std::fs::read_to_string(pki.join("ca.key")).unwrap(),
    )
    .unwrap();
    let groups = groups.iter().map(|g| g.to_string()).collect();
    let issued =
        ca.issue(&LeafSpec::client(name, groups, Validity::from_now(Duration::from_secs(3600)).unwrap())).unwrap();
    let kc = KubeconfigBuilder::new("plane", name, plane.url.clone())
        .certificate_authority(plane.ca_pem().into_bytes())
        .client_certificate(issued.cert_pem.clone().into_bytes(), issued.key_pem().into_bytes())
        .build();
    client_for(kc).await
}

async fn client_for(kc: kube::config::Kubeconfig) -> Client {
    let cfg = kube::Config::from_custom_kubeconfig(kc, &Default::default()).await.unwrap();
    Client::try_from(cfg).unwrap()
}

fn from<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

fn rule(verbs: &[&str], groups: &[&str], resources: &[&str], names: &[&str]) -> Value {
    let mut r = json!({"verbs": verbs, "apiGroups": groups, "resources": resources});
    if !names.is_empty() {
        r["resourceNames"] = json!(names);
    }
    r
}

fn role(name: &str, rules: Vec<Value>) -> Role {
    from(json!({"metadata": {"name": name, "namespace": NS}, "rules": rules}))
}

fn cluster_role(name: &str, rules: Vec<Value>) -> ClusterRole {
    from(json!({"metadata": {"name": name}, "rules": rules}))
}

fn binding(name: &str, kind: &str, role: &str, user: &str) -> RoleBinding {
    from(json!({"metadata": {"name": name, "namespace": NS},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": role},
        "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": user}]}))
}

fn cluster_binding(name: &str, role: &str, user: &str) -> ClusterRoleBinding {
    from(json!({"metadata": {"name": name},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
        "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": user}]}))
}

/// As the administrator: a ClusterRole with `rules` bound to `user`, in `NS` (a RoleBinding) or
/// everywhere (a ClusterRoleBinding), then waits until the user holds `probe`.
async fn grant(
    admin: &Client,
    user: &Client,
    who: &str,
    name: &str,
    cluster: bool,
    rules: Vec<Value>,
    probe: Probe<'_>,
) {
    let pp = PostParams::default();
    Api::<ClusterRole>::all(admin.clone()).create(&pp, &cluster_role(name, rules)).await.unwrap();
    if cluster {
        Api::<ClusterRoleBinding>::all(admin.clone()).create(&pp, &cluster_binding(name, name, who)).await.unwrap();
    } else {
        Api::<RoleBinding>::namespaced(admin.clone(), NS)
            .create(&pp, &binding(name, "ClusterRole", name, who))
            .await
            .unwrap();
    }
    wait_allowed(user, probe).await;
}

/// (verb, group, resource, namespace, name) a user should come to hold.
type Probe<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

/// Polls SelfSubjectAccessReview until the grant reached the authorizer.
async fn wait_allowed(client: &Client, (verb, group, resource, namespace, name): Probe<'_>) {
    let review: SelfSubjectAccessReview = SelfSubjectAccessReview {
        spec: SelfSubjectAccessReviewSpec {
            resource_attributes: Some(ResourceAttributes {
                verb: Some(verb.into()),
                group: Some(group.into()),
                resource: Some(resource.into()),
                namespace: Some(namespace.into()),
                name: Some(name.into()),
                ..Default::default()
            }),
            ..Default::default()
        },
        ..Default::default()
    };
    let api = Api::<SelfSubjectAccessReview>::all(client.clone());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let answer = api.create(&PostParams::default(), &review).await.unwrap();
        if answer.status.is_some_and(|s| s.allowed) {
            return;
        }
        assert!(Instant::now() < deadline, "the grant of {verb} {resource} never took effect");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The status code and message of a refused request.
fn refused<T: std::fmt::Debug>(result: Result<T, kube::Error>) -> (u16, String) {
    match result {
        Err(kube::Error::Api(e)) => (e.code, e.message),
        other => panic!("expected the API server to refuse, got {other:?}"),
    }
}

/// kube's escalation message for the test users.
fn escalation(resource: &str, name: &str, user: &str, missing: &[&str]) -> String {
    format!(
        "{resource}.rbac.authorization.k8s.io \"{name}\" is forbidden: user \"{user}\" (groups=[\"attackers\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{}",
        missing.join("\n")
    )
}

const ALL: &str = r#"{APIGroups:["*"], Resources:["*"], Verbs:["*"]}"#;
const ALL_URLS: &str = r#"{NonResourceURLs:["*"], Verbs:["*"]}"#;

async fn setup() -> (Plane, Client) {
    let plane = Plane::start();
    plane.kubectl_ok(&["create", "namespace", NS]);
    let admin = admin(&plane).await;
    (plane, admin)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn role_writers_cannot_grant_what_they_do_not_hold() {
    let (plane, admin) = setup().await;
    let dave = user(&plane, "dave", &["attackers"]).await;
    let rbac = "rbac.authorization.k8s.io";
    let verbs = &["create", "get", "update", "patch"];
    grant(
        &admin,
        &dave,
        "dave",
        "role-writer",
        false,
        vec![rule(verbs, &[rbac], &["roles"], &[])],
        ("update", rbac, "roles", NS, "x"),
    )
    .await;
    let roles = Api::<Role>::namespaced(dave.clone(), NS);
    let pp = PostParams::default();

    // (c) `*/*/*` in a Role: refused, nothing stored.
    let (code, msg) = refused(roles.create(&pp, &role("everything", vec![rule(&["*"], &["*"], &["*"], &[])])).await);
    assert_eq!((code, msg), (403, escalation("roles", "everything", "dave", &[ALL])));
    assert!(Api::<Role>::namespaced(admin.clone(), NS).get_opt("everything").await.unwrap().is_none());

    // What dave holds he may grant; one more verb he may not, by update, patch or apply.
    let held = vec![rule(&["get", "update"], &[rbac], &["roles"], &[])];
    roles.create(&pp, &role("wide", held.clone())).await.unwrap();
    let before = Api::<Role>::namespaced(admin.clone(), NS).get("wide").await.unwrap();
    let more = vec![rule(&["get", "update", "delete"], &[rbac], &["roles"], &[])];
    let missing = r#"{APIGroups:["rbac.authorization.k8s.io"], Resources:["roles"], Verbs:["delete"]}"#;
    let mut wider = before.clone();
    wider.rules = Some(from(json!(more)));
    let (code, msg) = refused(roles.replace("wide", &pp, &wider).await);
    assert_eq!((code, msg), (403, escalation("roles", "wide", "dave", &[missing])));
    let patch = Patch::Merge(json!({"rules": more}));
    let (code, msg) = refused(roles.patch("wide", &PatchParams::default(), &patch).await);
    assert_eq!((code, msg), (403, escalation("roles", "wide", "dave", &[missing])));
    let apply = Patch::Apply(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": "wide", "namespace": NS}, "rules": more}));
    let (code, msg) = refused(roles.patch("wide", &PatchParams::apply("dave").force(), &apply).await);
    assert_eq!((code, msg), (403, escalation("roles", "wide", "dave", &[missing])));
    let after = Api::<Role>::namespaced(admin.clone(), NS).get("wide").await.unwrap();
    assert_eq!(after.metadata.resource_version, before.metadata.resource_version);
    assert_eq!(after.rules, before.rules);

    // `escalate` limited to "wide" lets dave write anything into "wide", and only there.
    grant(
        &admin,
        &dave,
        "dave",
        "escalate-wide",
        false,
        vec![rule(&["escalate"], &[rbac], &["roles"], &["wide"])],
        ("escalate", rbac, "roles", NS, "wide"),
    )
    .await;
    wider.rules = Some(from(json!([rule(&["*"], &["*"], &["*"], &[])])));
    let stored = roles.replace("wide", &pp, &wider).await.unwrap();
    assert_eq!(stored.rules.unwrap()[0].verbs, ["*"]);
    // A POST names no role, so the name-limited `escalate` does not cover it (as kube).
    let (code, msg) = refused(roles.create(&pp, &role("wide2", vec![rule(&["*"], &["*"], &["*"], &[])])).await);
    assert_eq!((code, msg), (403, escalation("roles", "wide2", "dave", &[ALL])));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_role_writers_cannot_grant_everything_nor_aggregate() {
    let (plane, admin) = setup().await;
    let erin = user(&plane, "erin", &["attackers"]).await;
    let rbac = "rbac.authorization.k8s.io";
    grant(
        &admin,
        &erin,
        "erin",
        "clusterrole-writer",
        true,
        vec![rule(&["create", "get", "update"], &[rbac], &["clusterroles"], &[])],
        ("create", rbac, "clusterroles", "", ""),
    )
    .await;
    let cluster_roles = Api::<ClusterRole>::all(erin.clone());
    let pp = PostParams::default();

    // (d) `*/*/*` and every URL in a ClusterRole.
    let everything = vec![rule(&["*"], &["*"], &["*"], &[]), json!({"verbs": ["*"], "nonResourceURLs": ["*"]})];
    let (code, msg) = refused(cluster_roles.create(&pp, &cluster_role("everything", everything.clone())).await);
    assert_eq!((code, msg), (403, escalation("clusterroles", "everything", "erin", &[ALL, ALL_URLS])));
    assert!(Api::<ClusterRole>::all(admin.clone()).get_opt("everything").await.unwrap().is_none());

    // (g) An aggregationRule, even with no rules of its own.
    let aggregated: ClusterRole = from(json!({"metadata": {"name": "gather"},
        "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"gather": "true"}}]}}));
    let (code, msg) = refused(cluster_roles.create(&pp, &aggregated).await);
    assert_eq!(
        (code, msg.as_str()),
        (
            403,
            "clusterroles.rbac.authorization.k8s.io \"gather\" is forbidden: must have cluster-admin privileges to use the aggregationRule"
        )
    );
    assert!(Api::<ClusterRole>::all(admin.clone()).get_opt("gather").await.unwrap().is_none());

    // What erin holds she may grant.
    let held =
        cluster_roles.create(&pp, &cluster_role("reader", vec![rule(&["get"], &[rbac], &["clusterroles"], &[])])).await;
    assert_eq!(held.unwrap().rules.unwrap()[0].verbs, ["get"]);

    // `escalate` on clusterroles allows both.
    grant(
        &admin,
        &erin,
        "erin",
        "escalator",
        true,
        vec![rule(&["escalate"], &[rbac], &["clusterroles"], &[])],
        ("escalate", rbac, "clusterroles", "", "x"),
    )
    .await;
    cluster_roles.create(&pp, &cluster_role("everything", everything)).await.unwrap();
    let stored = cluster_roles.create(&pp, &aggregated).await.unwrap();
    assert!(stored.aggregation_rule.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binding_writers_cannot_bind_what_they_do_not_hold() {
    let (plane, admin) = setup().await;
    let mallory = user(&plane, "mallory", &["attackers"]).await;
    let rbac = "rbac.authorization.k8s.io";
    let pp = PostParams::default();
    let admin_roles = Api::<Role>::namespaced(admin.clone(), NS);
    admin_roles.create(&pp, &role("pod-reader", vec![rule(&["get", "list"], &[""], &["pods"], &[])])).await.unwrap();
    admin_roles.create(&pp, &role("secret-reader", vec![rule(&["get"], &[""], &["secrets"], &[])])).await.unwrap();
    let rules = vec![
        rule(&["create", "get", "update", "patch"], &[rbac], &["rolebindings"], &[]),
        rule(&["get", "list"], &[""], &["pods"], &[]),
    ];
    grant(&admin, &mallory, "mallory", "binder", false, rules, ("create", rbac, "rolebindings", NS, "")).await;
    let bindings = Api::<RoleBinding>::namespaced(mallory.clone(), NS);
    let admin_bindings = Api::<RoleBinding>::namespaced(admin.clone(), NS);

    // (a) cluster-admin bound to herself in her namespace.
    let (code, msg) = refused(bindings.create(&pp, &binding("steal", "ClusterRole", "cluster-admin", "mallory")).await);
    assert_eq!((code, msg), (403, escalation("rolebindings", "steal", "mallory", &[ALL, ALL_URLS])));
    assert!(admin_bindings.get_opt("steal").await.unwrap().is_none());
    // Server-side apply takes the same path.
    let apply = Patch::Apply(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": "steal", "namespace": NS},
        "roleRef": {"apiGroup": rbac, "kind": "ClusterRole", "name": "cluster-admin"},
        "subjects": [{"kind": "User", "apiGroup": rbac, "name": "mallory"}]}));
    let (code, msg) = refused(bindings.patch("steal", &PatchParams::apply("mallory"), &apply).await);
    assert_eq!((code, msg), (403, escalation("rolebindings", "steal", "mallory", &[ALL, ALL_URLS])));
    assert!(admin_bindings.get_opt("steal").await.unwrap().is_none());

    // A Role whose permissions she holds she may bind; one she does not, she may not.
    bindings.create(&pp, &binding("pods-for-bob", "Role", "pod-reader", "bob")).await.unwrap();
    let (code, msg) = refused(bindings.create(&pp, &binding("secrets-for-bob", "Role", "secret-reader", "bob")).await);
    let secrets = r#"{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}"#;
    assert_eq!((code, msg), (403, escalation("rolebindings", "secrets-for-bob", "mallory", &[secrets])));

    // Adding herself to a binding she could not create is refused the same way (patch path).
    admin_bindings.create(&pp, &binding("secrets-for-carol", "Role", "secret-reader", "carol")).await.unwrap();
    let before = admin_bindings.get("secrets-for-carol").await.unwrap();
    let patch = Patch::Merge(json!({"subjects": [{"kind": "User", "apiGroup": rbac, "name": "mallory"}]}));
    let (code, msg) = refused(bindings.patch("secrets-for-carol", &PatchParams::default(), &patch).await);
    assert_eq!((code, msg), (403, escalation("rolebindings", "secrets-for-carol", "mallory", &[secrets])));
    let after = admin_bindings.get("secrets-for-carol").await.unwrap();
    assert_eq!((after.subjects, after.metadata.resource_version), (before.subjects, before.metadata.resource_version));

    // (e) `bind` limited to ClusterRole "view" binds "view" (whose rules she lacks), not "edit".
    grant(
        &admin,
        &mallory,
        "mallory",
        "bind-view",
        false,
        vec![rule(&["bind"], &[rbac], &["clusterroles"], &["view"])],
        ("bind", rbac, "clusterroles", NS, "view"),
    )
    .await;
    bindings.create(&pp, &binding("view-for-bob", "ClusterRole", "view", "bob")).await.unwrap();
    let (code, msg) = refused(bindings.create(&pp, &binding("edit-for-bob", "ClusterRole", "edit", "bob")).await);
    assert_eq!(code, 403);
    let head = escalation("rolebindings", "edit-for-bob", "mallory", &[]);
    let lines: Vec<&str> = msg.strip_prefix(head.as_str()).expect(&msg).lines().collect();
    assert!(lines.contains(&r#"{APIGroups:[""], Resources:["configmaps"], Verbs:["create"]}"#), "{msg}");
    assert!(!lines.iter().any(|l| l.contains(r#"Resources:["pods"], Verbs:["get"]"#)), "held rules listed: {msg}");
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "not sorted and unique: {msg}");
    assert!(admin_bindings.get_opt("edit-for-bob").await.unwrap().is_none());

    // (f) A roleRef never changes, even to a role she may bind: 422 with kube's field error.
    let mut moved = admin_bindings.get("pods-for-bob").await.unwrap();
    moved.role_ref.kind = "ClusterRole".into();
    moved.role_ref.name = "view".into();
    let invalid = "RoleBinding.rbac.authorization.k8s.io \"pods-for-bob\" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"view\"}: cannot change roleRef";
    let (code, msg) = refused(bindings.replace("pods-for-bob", &pp, &moved).await);
    assert_eq!((code, msg.as_str()), (422, invalid));
    let patch = Patch::Merge(json!({"roleRef": {"kind": "ClusterRole", "name": "view"}}));
    let (code, msg) = refused(
        Api::<RoleBinding>::namespaced(admin.clone(), NS).patch("pods-for-bob", &PatchParams::default(), &patch).await,
    );
    assert_eq!((code, msg.as_str()), (422, invalid));
    assert_eq!(admin_bindings.get("pods-for-bob").await.unwrap().role_ref.name, "pod-reader");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_binding_writers_cannot_bind_cluster_admin() {
    let (plane, admin) = setup().await;
    let carol = user(&plane, "carol", &["attackers"]).await;
    let rbac = "rbac.authorization.k8s.io";
    grant(
        &admin,
        &carol,
        "carol",
        "crb-writer",
        true,
        vec![rule(&["create", "get"], &[rbac], &["clusterrolebindings"], &[])],
        ("create", rbac, "clusterrolebindings", "", ""),
    )
    .await;
    let crbs = Api::<ClusterRoleBinding>::all(carol.clone());
    let pp = PostParams::default();

    // (b) cluster-admin everywhere.
    let (code, msg) = refused(crbs.create(&pp, &cluster_binding("steal", "cluster-admin", "carol")).await);
    assert_eq!((code, msg), (403, escalation("clusterrolebindings", "steal", "carol", &[ALL, ALL_URLS])));
    assert!(Api::<ClusterRoleBinding>::all(admin.clone()).get_opt("steal").await.unwrap().is_none());
    let denied = Api::<k8s_openapi::api::core::v1::Secret>::all(carol.clone()).list(&Default::default()).await;
    assert_eq!(refused(denied).0, 403);

    // A role whose rules every authenticated user holds she may bind.
    crbs.create(&pp, &cluster_binding("basic", "system:basic-user", "bob")).await.unwrap();
    // A missing role cannot be checked: 404 naming it, as kube's rule resolver answers.
    let (code, msg) = refused(crbs.create(&pp, &cluster_binding("ghost", "no-such-role", "carol")).await);
    assert_eq!((code, msg.as_str()), (404, "clusterroles.rbac.authorization.k8s.io \"no-such-role\" not found"));
}

/// A PEM certificate request for CN `cn` in organizations `orgs`, base64 for `spec.request`.
fn request(cn: &str, orgs: &[&str]) -> String {
    use base64::Engine as _;
    let key = karmadactl_pki::PrivateKey::generate(Default::default()).unwrap();
    let subject = karmadactl_pki::Subject::new(cn).with_organizations(orgs.iter().copied());
    let pem = karmadactl_pki::create_csr(&key, &subject).unwrap();
    base64::engine::general_purpose::STANDARD.encode(pem)
}

fn csr(name: &str, signer: &str, request: &str) -> CertificateSigningRequest {
    from(json!({"metadata": {"name": name},
        "spec": {"signerName": signer, "request": request, "usages": ["digital signature", "key encipherment", "client auth"]}}))
}

fn approved(mut csr: CertificateSigningRequest) -> CertificateSigningRequest {
    csr.status.get_or_insert_with(Default::default).conditions = Some(vec![CertificateSigningRequestCondition {
        type_: "Approved".into(),
        status: "True".into(),
        reason: Some("SelfApproved".into()),
        ..Default::default()
    }]);
    csr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn certificate_requests_need_approve_and_sign_on_the_signer() {
    let (plane, admin) = setup().await;
    let frank = user(&plane, "frank", &["attackers"]).await;
    let certs = "certificates.k8s.io";
    let signer = "kubernetes.io/kube-apiserver-client";
    let rules = vec![
        rule(&["create", "get", "list", "watch"], &[certs], &["certificatesigningrequests"], &[]),
        rule(
            &["update", "patch"],
            &[certs],
            &["certificatesigningrequests/approval", "certificatesigningrequests/status"],
            &[],
        ),
    ];
    grant(&admin, &frank, "frank", "csr-writer", true, rules, ("create", certs, "certificatesigningrequests", "", ""))
        .await;
    let csrs = Api::<CertificateSigningRequest>::all(frank.clone());
    let admin_csrs = Api::<CertificateSigningRequest>::all(admin.clone());
    let pp = PostParams::default();

    // A system:masters certificate is never requested from the client signer, by anyone.
    let masters = request("frank", &["system:masters"]);
    let refusal = "certificatesigningrequests.certificates.k8s.io \"masters\" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed";
    for client in [&csrs, &admin_csrs] {
        let (code, msg) = refused(client.create(&pp, &csr("masters", signer, &masters)).await);
        assert_eq!((code, msg.as_str()), (403, refusal));
    }
    assert!(admin_csrs.get_opt("masters").await.unwrap().is_none());
    // Other signers are not the API server's: the restriction does not apply to them.
    admin_csrs.create(&pp, &csr("masters-elsewhere", "example.com/other", &masters)).await.unwrap();

    // Self-approval without `approve` on the signer.
    let created = csrs.create(&pp, &csr("mine", signer, &request("frank", &["dev"]))).await.unwrap();
    let (code, msg) = refused(csrs.replace_subresource("approval", "mine", &pp, &approved(created.clone())).await);
    let no_approve = "certificatesigningrequests.certificates.k8s.io \"mine\" is forbidden: user not permitted to approve requests with signerName \"kubernetes.io/kube-apiserver-client\"";
    assert_eq!((code, msg.as_str()), (403, no_approve));

    // Writing a certificate (or an Approved condition) through /status without `sign`.
    let mut issued = created.clone();
    issued.status.get_or_insert_with(Default::default).certificate =
        Some(k8s_openapi::ByteString(plane.ca_pem().into_bytes()));
    let no_sign = "certificatesigningrequests.certificates.k8s.io \"mine\" is forbidden: user not permitted to sign requests with signerName \"kubernetes.io/kube-apiserver-client\"";
    let (code, msg) = refused(csrs.replace_status("mine", &pp, &issued).await);
    assert_eq!((code, msg.as_str()), (403, no_sign));
    // Approval goes through /approval only, whoever writes /status.
    let not_here = "CertificateSigningRequest.certificates.k8s.io \"mine\" is invalid: status.conditions: Forbidden: updates may not add a condition of type \"Approved\"";
    for client in [&csrs, &admin_csrs] {
        let (code, msg) = refused(client.replace_status("mine", &pp, &approved(created.clone())).await);
        assert_eq!((code, msg.as_str()), (422, not_here));
    }
    let unchanged = admin_csrs.get("mine").await.unwrap();
    assert_eq!(unchanged.metadata.resource_version, created.metadata.resource_version);
    assert!(unchanged.status.as_ref().is_none_or(|s| s.certificate.is_none() && s.conditions.is_none()));

    // `approve` on `kubernetes.io/*` covers the signer; the plane's signer then issues it.
    grant(
        &admin,
        &frank,
        "frank",
        "approver",
        true,
        vec![rule(&["approve"], &[certs], &["signers"], &["kubernetes.io/*"])],
        ("approve", certs, "signers", "", "kubernetes.io/*"),
    )
    .await;
    csrs.replace_subresource("approval", "mine", &pp, &approved(created)).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = admin_csrs.get("mine").await.unwrap();
        if now.status.as_ref().is_some_and(|s| s.certificate.is_some()) {
            break;
        }
        assert!(Instant::now() < deadline, "the approved request was never issued: {now:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
