//! The member-side half of a Push-mode registration: the namespace, the service accounts, the
//! ClusterRole and its binding, and the service-account token Secrets Karmada uses to reach the
//! member. Every step is "ensure": existing objects are left as they are.
//!
//! The functions take a plain kube client and options so other commands can run them too
//! (`register` and `unregister` read the member's [`cluster_id`] here).

use std::time::{Duration, Instant};

use k8s_openapi::ByteString;
use k8s_openapi::api::core::v1::{Namespace, Secret, ServiceAccount};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, PolicyRule, RoleRef, Subject};
use kube::api::{ObjectMeta, PostParams};
use kube::{Api, Client};

use crate::membership::errors::{MembershipError, classify};
use crate::membership::{Kind, ObjectRef, Planned, Progress, Side, Target};

/// How long upstream waits for the token controller to fill a token Secret.
pub const TOKEN_TIMEOUT: Duration = Duration::from_secs(30);
/// The token controller usually fills a Secret within milliseconds: poll from `TOKEN_POLL_FIRST`,
/// doubling up to `TOKEN_POLL`, so a fast member is not made to wait a whole interval.
const TOKEN_POLL_FIRST: Duration = Duration::from_millis(5);
const TOKEN_POLL: Duration = Duration::from_millis(250);
const TOKEN_SECRET_TYPE: &str = "kubernetes.io/service-account-token";
const SA_NAME_ANNOTATION: &str = "kubernetes.io/service-account.name";

/// What the member-side steps need.
#[derive(Debug, Clone)]
pub struct MemberOptions {
    pub cluster_name: String,
    /// Namespace in the member for the service accounts and their token Secrets.
    pub namespace: String,
    /// Read only: report what would be created, wait for nothing.
    pub dry_run: bool,
    pub token_timeout: Duration,
}

/// The credentials the control plane gets for the member.
#[derive(Clone, Default)]
pub struct MemberCredentials {
    /// The token of `karmada-<cluster>`.
    pub token: Vec<u8>,
    /// The member's CA (`ca.crt` of that token Secret).
    pub ca_bundle: Vec<u8>,
    /// The token of `karmada-impersonator`.
    pub impersonator_token: Vec<u8>,
}

impl std::fmt::Debug for MemberCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MemberCredentials { <redacted> }")
    }
}

/// The outcome of the member-side steps: credentials (none in a dry run) and the plan.
#[derive(Debug)]
pub struct MemberResult {
    pub credentials: Option<MemberCredentials>,
    pub plan: Vec<Planned>,
}

/// The UID of namespace `kube-system`: the member's identity (`spec.id`). Also the first
/// request to the member, so connection problems surface here, before anything is written.
pub async fn cluster_id(client: &Client, target: &Target) -> Result<String, MembershipError> {
    let api: Api<Namespace> = Api::all(client.clone());
    let ns = api.get("kube-system").await.map_err(|e| classify(target, "reading namespace kube-system", e))?;
    Ok(ns.metadata.uid.unwrap_or_default())
}

/// The objects of §5 step 3, in upstream's order.
pub fn namespace(opts: &MemberOptions) -> Namespace {
    Namespace { metadata: meta(&opts.namespace, None), ..Default::default() }
}

pub fn service_account(opts: &MemberOptions, name: &str) -> ServiceAccount {
    ServiceAccount { metadata: meta(name, Some(&opts.namespace)), ..Default::default() }
}

pub fn cluster_role(opts: &MemberOptions) -> ClusterRole {
    ClusterRole {
        metadata: meta(&crate::membership::cluster_role_name(&opts.cluster_name), None),
        rules: Some(vec![
            PolicyRule {
                api_groups: Some(vec!["*".into()]),
                resources: Some(vec!["*".into()]),
                verbs: vec!["*".into()],
                ..Default::default()
            },
            PolicyRule { non_resource_urls: Some(vec!["*".into()]), verbs: vec!["get".into()], ..Default::default() },
        ]),
        ..Default::default()
    }
}

pub fn cluster_role_binding(opts: &MemberOptions) -> ClusterRoleBinding {
    let name = crate::membership::cluster_role_name(&opts.cluster_name);
    ClusterRoleBinding {
        metadata: meta(&name, None),
        role_ref: RoleRef { api_group: "rbac.authorization.k8s.io".into(), kind: "ClusterRole".into(), name },
        subjects: Some(vec![Subject {
            kind: "ServiceAccount".into(),
            name: crate::membership::service_account_name(&opts.cluster_name),
            namespace: Some(opts.namespace.clone()),
            ..Default::default()
        }]),
    }
}

/// The legacy token Secret upstream creates for a service account when none exists.
pub fn token_secret(namespace: &str, service_account: &str) -> Secret {
    let mut metadata = meta(service_account, Some(namespace));
    metadata.labels = None;
    metadata.annotations = Some([(SA_NAME_ANNOTATION.to_string(), service_account.to_string())].into());
    Secret { metadata, type_: Some(TOKEN_SECRET_TYPE.into()), ..Default::default() }
}

fn meta(name: &str, namespace: Option<&str>) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.to_string()),
        namespace: namespace.map(str::to_string),
        labels: Some(crate::membership::system_labels()),
        ..Default::default()
    }
}

/// Runs the member-side steps. In a dry run only reads happen and the plan says what would be
/// created; otherwise the credentials are returned once both token Secrets carry a token.
pub async fn ensure_all(
    client: &Client,
    target: &Target,
    opts: &MemberOptions,
    progress: Progress<'_>,
) -> Result<MemberResult, MembershipError> {
    let ns = opts.namespace.as_str();
    let sa = crate::membership::service_account_name(&opts.cluster_name);
    let role = crate::membership::cluster_role_name(&opts.cluster_name);
    let mut plan = Vec::new();
    let mut step = |object: ObjectRef, exists: bool| {
        if !opts.dry_run {
            let verb = if exists { "exists" } else { "created" };
            progress(&format!("{}/{} {verb}{}", object.kind.resource(), object.name, object.place()));
        }
        plan.push(Planned { object, exists });
    };

    let exists =
        crate::membership::ensure(&Api::<Namespace>::all(client.clone()), &namespace(opts), opts.dry_run, target)
            .await?;
    step(ObjectRef::new(Side::Member, Kind::Namespace, None, ns), exists);
    let sa_api: Api<ServiceAccount> = Api::namespaced(client.clone(), ns);
    let exists = crate::membership::ensure(
        &sa_api,
        &service_account(opts, crate::membership::IMPERSONATOR_SERVICE_ACCOUNT),
        opts.dry_run,
        target,
    )
    .await?;
    step(
        ObjectRef::new(Side::Member, Kind::ServiceAccount, Some(ns), crate::membership::IMPERSONATOR_SERVICE_ACCOUNT),
        exists,
    );
    let exists = crate::membership::ensure(&sa_api, &service_account(opts, &sa), opts.dry_run, target).await?;
    step(ObjectRef::new(Side::Member, Kind::ServiceAccount, Some(ns), &sa), exists);
    let exists =
        crate::membership::ensure(&Api::<ClusterRole>::all(client.clone()), &cluster_role(opts), opts.dry_run, target)
            .await?;
    step(ObjectRef::new(Side::Member, Kind::ClusterRole, None, &role), exists);
    let exists = crate::membership::ensure(
        &Api::<ClusterRoleBinding>::all(client.clone()),
        &cluster_role_binding(opts),
        opts.dry_run,
        target,
    )
    .await?;
    step(ObjectRef::new(Side::Member, Kind::ClusterRoleBinding, None, &role), exists);

    let secrets: Api<Secret> = Api::namespaced(client.clone(), ns);
    if opts.dry_run {
        // Upstream waits here even though it created nothing (quirk 7); a dry run only looks.
        for name in [crate::membership::IMPERSONATOR_SERVICE_ACCOUNT, sa.as_str()] {
            let exists = secrets
                .get_opt(name)
                .await
                .map_err(|e| classify(target, format!("reading secret {ns}/{name}"), e))?
                .is_some();
            step(ObjectRef::new(Side::Member, Kind::Secret, Some(ns), name), exists);
        }
        return Ok(MemberResult { credentials: None, plan });
    }
    progress(&format!("waiting for the member's token controller to fill the token Secrets in namespace {ns}"));
    let (impersonator, existed) =
        wait_for_token(&secrets, target, ns, crate::membership::IMPERSONATOR_SERVICE_ACCOUNT, opts.token_timeout)
            .await?;
    step(
        ObjectRef::new(Side::Member, Kind::Secret, Some(ns), crate::membership::IMPERSONATOR_SERVICE_ACCOUNT),
        existed,
    );
    let (own, existed) = wait_for_token(&secrets, target, ns, &sa, opts.token_timeout).await?;
    step(ObjectRef::new(Side::Member, Kind::Secret, Some(ns), &sa), existed);
    let credentials = MemberCredentials {
        token: data(&own, "token"),
        ca_bundle: data(&own, "ca.crt"),
        impersonator_token: data(&impersonator, "token"),
    };
    Ok(MemberResult { credentials: Some(credentials), plan })
}

fn data(secret: &Secret, key: &str) -> Vec<u8> {
    secret.data.as_ref().and_then(|d| d.get(key)).map(|b| b.0.clone()).unwrap_or_default()
}

/// Upstream's wait: the Secret named like the service account, created when missing, until
/// the member's token controller has put a token in it. Also says whether the Secret existed.
async fn wait_for_token(
    secrets: &Api<Secret>,
    target: &Target,
    namespace: &str,
    service_account: &str,
    timeout: Duration,
) -> Result<(Secret, bool), MembershipError> {
    let deadline = Instant::now() + timeout;
    let mut existed = true;
    let mut pause = TOKEN_POLL_FIRST;
    loop {
        let what = format!("reading secret {namespace}/{service_account}");
        match secrets.get_opt(service_account).await.map_err(|e| classify(target, what, e))? {
            Some(secret) if !data(&secret, "token").is_empty() => return Ok((secret, existed)),
            Some(_) => {}
            None => match secrets.create(&PostParams::default(), &token_secret(namespace, service_account)).await {
                Ok(_) => existed = false,
                Err(kube::Error::Api(s)) if s.code == 409 => {}
                Err(e) => {
                    return Err(classify(target, format!("creating secret {namespace}/{service_account}"), e));
                }
            },
        }
        if Instant::now() >= deadline {
            return Err(MembershipError::TokenTimeout {
                namespace: namespace.to_string(),
                name: service_account.to_string(),
                timeout,
            });
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(TOKEN_POLL);
    }
}

/// Turns raw bytes into the Secret data type.
pub(crate) fn bytes(b: &[u8]) -> ByteString {
    ByteString(b.to_vec())
}
