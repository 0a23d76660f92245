//! The control-plane half of a Push-mode registration: the credential Secrets and the Cluster.
//!
//! A failure after this run created something removes what this run created (never what was
//! there before), so a failed join leaves the plane as it found it.

use k8s_openapi::api::core::v1::{Namespace, Secret};
use karmadactl_karmada_api::cluster::{Cluster, ClusterSpec, ClusterSyncMode, LocalSecretReference};
use kube::api::{DeleteParams, ListParams, ObjectMeta, Patch, PatchParams, PostParams};
use kube::{Api, Client, Resource, ResourceExt};

use super::member_side::{MemberCredentials, bytes};
use crate::membership::errors::{MembershipError, classify};
use crate::membership::{Kind, ObjectRef, Planned, Progress, Side, Target};

/// What the Cluster object says about the member.
#[derive(Debug, Clone, Default)]
pub struct Registration {
    pub cluster_name: String,
    /// Namespace in the plane for the credential Secrets.
    pub namespace: String,
    /// The member's kube-system UID.
    pub cluster_id: String,
    pub api_endpoint: String,
    pub insecure_skip_tls_verification: bool,
    pub proxy_url: Option<String>,
    pub provider: Option<String>,
    pub region: Option<String>,
    pub zones: Vec<String>,
}

/// Refuses a second registration of the same name or the same member (upstream's check).
pub async fn check_not_registered(client: &Client, target: &Target, reg: &Registration) -> Result<(), MembershipError> {
    let api: Api<Cluster> = Api::all(client.clone());
    let list = api.list(&ListParams::default()).await.map_err(|e| classify(target, "listing clusters", e))?;
    let taken = list.items.iter().any(|c| {
        c.metadata.name.as_deref() == Some(reg.cluster_name.as_str())
            || (!reg.cluster_id.is_empty() && c.spec.id.as_deref() == Some(reg.cluster_id.as_str()))
    });
    if taken {
        return Err(MembershipError::AlreadyRegistered { id: reg.cluster_id.clone(), name: reg.cluster_name.clone() });
    }
    Ok(())
}

/// The Cluster object of §5 step 5.4.
pub fn cluster(reg: &Registration) -> Cluster {
    let non_empty = |s: &Option<String>| s.clone().filter(|v| !v.is_empty());
    let spec = ClusterSpec {
        id: Some(reg.cluster_id.clone()),
        sync_mode: ClusterSyncMode::Push,
        api_endpoint: Some(reg.api_endpoint.clone()),
        secret_ref: Some(LocalSecretReference { namespace: reg.namespace.clone(), name: reg.cluster_name.clone() }),
        impersonator_secret_ref: Some(LocalSecretReference {
            namespace: reg.namespace.clone(),
            name: crate::membership::impersonator_secret_name(&reg.cluster_name),
        }),
        // Go's omitempty drops a false flag; so does this.
        insecure_skip_tls_verification: reg.insecure_skip_tls_verification.then_some(true),
        proxy_url: non_empty(&reg.proxy_url),
        proxy_header: None,
        provider: non_empty(&reg.provider),
        region: non_empty(&reg.region),
        zone: None,
        zones: (!reg.zones.is_empty()).then(|| reg.zones.clone()),
        taints: None,
        resource_models: None,
    };
    let mut cluster = Cluster::new(&reg.cluster_name, spec);
    cluster.status = None;
    cluster
}

/// The two credential Secrets: `<cluster>` {caBundle, token} and `<cluster>-impersonator` {token}.
pub fn secrets(reg: &Registration, creds: &MemberCredentials) -> [Secret; 2] {
    let secret = |name: String, data: Vec<(&str, &[u8])>| Secret {
        metadata: ObjectMeta {
            name: Some(name),
            namespace: Some(reg.namespace.clone()),
            labels: Some(crate::membership::system_labels()),
            ..Default::default()
        },
        data: Some(data.into_iter().map(|(k, v)| (k.to_string(), bytes(v))).collect()),
        ..Default::default()
    };
    [
        secret(
            crate::membership::impersonator_secret_name(&reg.cluster_name),
            vec![("token", &creds.impersonator_token)],
        ),
        secret(reg.cluster_name.clone(), vec![("caBundle", &creds.ca_bundle), ("token", &creds.token)]),
    ]
}

/// What a real run would create in the plane (dry run: reads only).
pub async fn plan(client: &Client, target: &Target, reg: &Registration) -> Result<Vec<Planned>, MembershipError> {
    let ns = reg.namespace.as_str();
    let exists_ns = Api::<Namespace>::all(client.clone())
        .get_opt(ns)
        .await
        .map_err(|e| classify(target, format!("reading namespace {ns}"), e))?
        .is_some();
    let mut plan =
        vec![Planned { object: ObjectRef::new(Side::Karmada, Kind::Namespace, None, ns), exists: exists_ns }];
    let secrets: Api<Secret> = Api::namespaced(client.clone(), ns);
    for name in [crate::membership::impersonator_secret_name(&reg.cluster_name), reg.cluster_name.clone()] {
        let exists = secrets
            .get_opt(&name)
            .await
            .map_err(|e| classify(target, format!("reading secret {ns}/{name}"), e))?
            .is_some();
        plan.push(Planned { object: ObjectRef::new(Side::Karmada, Kind::Secret, Some(ns), name), exists });
    }
    plan.push(Planned { object: ObjectRef::new(Side::Karmada, Kind::Cluster, None, &reg.cluster_name), exists: false });
    Ok(plan)
}

/// Something this run created, to be removed again if a later step fails.
enum Created {
    Namespace(String),
    Secret(String, String),
    Cluster(String),
}

impl Created {
    fn describe(&self) -> String {
        match self {
            Self::Namespace(n) => format!("namespace/{n}"),
            Self::Secret(ns, n) => format!("secret/{n} (namespace {ns})"),
            Self::Cluster(n) => format!("cluster.cluster.karmada.io/{n}"),
        }
    }
}

/// Creates the plane-side objects and links the Secrets to the Cluster; on failure removes
/// what it created and reports the original failure.
pub async fn register(
    client: &Client,
    target: &Target,
    reg: &Registration,
    creds: &MemberCredentials,
    progress: Progress<'_>,
) -> Result<Cluster, MembershipError> {
    let mut created = Vec::new();
    match create_all(client, target, reg, creds, progress, &mut created).await {
        Ok(cluster) => Ok(cluster),
        Err(cause) => Err(roll_back(client, created, cause).await),
    }
}

async fn create_all(
    client: &Client,
    target: &Target,
    reg: &Registration,
    creds: &MemberCredentials,
    progress: Progress<'_>,
    created: &mut Vec<Created>,
) -> Result<Cluster, MembershipError> {
    let ns = reg.namespace.as_str();
    let namespace = Namespace {
        metadata: ObjectMeta {
            name: Some(ns.to_string()),
            labels: Some(crate::membership::system_labels()),
            ..Default::default()
        },
        ..Default::default()
    };
    if !crate::membership::ensure(&Api::<Namespace>::all(client.clone()), &namespace, false, target).await? {
        created.push(Created::Namespace(ns.to_string()));
        progress(&format!("namespace/{ns} created in the Karmada control plane"));
    }
    let secrets_api: Api<Secret> = Api::namespaced(client.clone(), ns);
    let mut secret_names = Vec::new();
    for secret in secrets(reg, creds) {
        let name = secret.name_any();
        // Upstream reuses an existing Secret as it is.
        if !crate::membership::ensure(&secrets_api, &secret, false, target).await? {
            created.push(Created::Secret(ns.to_string(), name.clone()));
            progress(&format!("secret/{name} created in namespace {ns} in the Karmada control plane"));
        }
        secret_names.push(name);
    }
    let clusters: Api<Cluster> = Api::all(client.clone());
    let cluster = match clusters.create(&PostParams::default(), &cluster(reg)).await {
        Ok(c) => c,
        Err(kube::Error::Api(s)) if s.code == 409 => {
            return Err(MembershipError::ClusterExists(reg.cluster_name.clone()));
        }
        Err(e) => return Err(classify(target, format!("creating cluster {}", reg.cluster_name), e)),
    };
    created.push(Created::Cluster(reg.cluster_name.clone()));
    progress(&format!("cluster.cluster.karmada.io/{} created in the Karmada control plane", reg.cluster_name));

    let owner = serde_json::json!({
        "metadata": {"ownerReferences": [{
            "apiVersion": Cluster::api_version(&()),
            "kind": Cluster::kind(&()),
            "name": reg.cluster_name,
            "uid": cluster.metadata.uid.clone().unwrap_or_default(),
            "controller": true,
            "blockOwnerDeletion": true,
        }]}
    });
    for name in &secret_names {
        secrets_api
            .patch(name, &PatchParams::default(), &Patch::Merge(&owner))
            .await
            .map_err(|e| classify(target, format!("setting the owner of secret {ns}/{name}"), e))?;
    }
    progress(&format!("secrets in namespace {ns} now belong to cluster {}", reg.cluster_name));
    Ok(cluster)
}

/// Deletes what this run created, newest first. NotFound counts as removed.
async fn roll_back(client: &Client, created: Vec<Created>, cause: MembershipError) -> MembershipError {
    if created.is_empty() {
        return cause;
    }
    let mut leftovers = Vec::new();
    for item in created.into_iter().rev() {
        let result = match &item {
            Created::Namespace(n) => {
                Api::<Namespace>::all(client.clone()).delete(n, &DeleteParams::default()).await.map(|_| ())
            }
            Created::Secret(ns, n) => {
                Api::<Secret>::namespaced(client.clone(), ns).delete(n, &DeleteParams::default()).await.map(|_| ())
            }
            Created::Cluster(n) => {
                Api::<Cluster>::all(client.clone()).delete(n, &DeleteParams::default()).await.map(|_| ())
            }
        };
        match result {
            Ok(()) => {}
            Err(kube::Error::Api(s)) if s.code == 404 => {}
            Err(_) => leftovers.push(item.describe()),
        }
    }
    if leftovers.is_empty() {
        MembershipError::RolledBack { cause: Box::new(cause) }
    } else {
        MembershipError::RollbackFailed { cause: Box::new(cause), leftovers }
    }
}
