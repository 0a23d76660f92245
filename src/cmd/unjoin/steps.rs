//! Removing a Push-mode member: delete the Cluster and wait for the controllers to let it go
//! (or, forced, take their finalizers off), then remove the member-side objects join made.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Namespace, Secret, ServiceAccount};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use karmadactl_karmada_api::cluster::{Cluster, ClusterSyncMode};
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::api::{DeleteParams, ListParams, Patch, PatchParams};
use kube::{Api, Client, ResourceExt};
use serde_json::json;

use crate::membership::errors::{MembershipError, classify};
use crate::membership::{Kind, ObjectRef, Progress, Side, Target};

const POLL: Duration = Duration::from_millis(250);
/// After the forced finalizer removal, how long to look for the Cluster to disappear.
const AFTER_FORCE: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct UnjoinOptions {
    pub cluster_name: String,
    /// Namespace in the member that holds join's service accounts.
    pub namespace: String,
    pub force: bool,
    pub wait: Duration,
    /// `--wait` as the user wrote it, for messages.
    pub wait_text: String,
}

/// The Cluster, which must exist and be in Push mode (upstream's two messages otherwise).
pub async fn get_push_cluster(client: &Client, target: &Target, name: &str) -> Result<Cluster, MembershipError> {
    let api: Api<Cluster> = Api::all(client.clone());
    let cluster = api
        .get_opt(name)
        .await
        .map_err(|e| classify(target, format!("reading cluster {name}"), e))?
        .ok_or_else(|| MembershipError::ClusterNotFound(name.to_string()))?;
    if cluster.spec.sync_mode == ClusterSyncMode::Pull {
        return Err(MembershipError::PullMode(name.to_string()));
    }
    Ok(cluster)
}

/// How the Cluster went away.
#[derive(Debug, PartialEq, Eq)]
pub enum Removal {
    /// It is gone.
    Deleted,
    /// Forced: finalizers were removed, but it is still there (others hold it).
    StillPresent { finalizers: Vec<String> },
}

/// Deletes the Cluster and waits for it to go; forced, removes Karmada's finalizers when the
/// wait runs out (§6 step 3).
pub async fn delete_cluster(
    client: &Client,
    target: &Target,
    opts: &UnjoinOptions,
    progress: Progress<'_>,
) -> Result<Removal, MembershipError> {
    let name = opts.cluster_name.as_str();
    let api: Api<Cluster> = Api::all(client.clone());
    match api.delete(name, &DeleteParams::default()).await {
        Ok(_) => {}
        Err(kube::Error::Api(s)) if s.code == 404 => return Ok(Removal::Deleted),
        Err(e) => return Err(classify(target, format!("deleting cluster {name}"), e)),
    }
    progress(&format!("waiting up to {} for cluster {name} to be removed", opts.wait_text));
    let works: Api<Work> = Api::namespaced(client.clone(), &wellknown::execution_space(name));
    let finalizers = match wait_gone(&api, target, name, opts.wait, Some((&works, progress))).await? {
        None => return Ok(Removal::Deleted),
        Some(finalizers) => finalizers,
    };
    if !opts.force {
        return Err(MembershipError::DeleteTimeout {
            name: name.to_string(),
            wait: opts.wait_text.clone(),
            finalizers,
        });
    }
    progress(&format!("cluster {name} is still there after {}; removing Karmada's finalizers", opts.wait_text));
    force_remove(client, target, name, progress).await?;
    match wait_gone(&api, target, name, AFTER_FORCE, None).await? {
        None => Ok(Removal::Deleted),
        Some(finalizers) => Ok(Removal::StillPresent { finalizers }),
    }
}

/// Polls until the Cluster is gone (`None`) or the time is up (its finalizers then). With
/// `works`, says how many Works of the cluster are left whenever that changes: the plane
/// removes their objects from the member before it lets the Cluster go.
async fn wait_gone(
    api: &Api<Cluster>,
    target: &Target,
    name: &str,
    wait: Duration,
    works: Option<(&Api<Work>, Progress<'_>)>,
) -> Result<Option<Vec<String>>, MembershipError> {
    let deadline = Instant::now() + wait;
    let mut reported = None;
    loop {
        let current = api.get_opt(name).await.map_err(|e| classify(target, format!("reading cluster {name}"), e))?;
        let Some(cluster) = current else { return Ok(None) };
        if Instant::now() >= deadline {
            return Ok(Some(cluster.finalizers().to_vec()));
        }
        // Progress only: a list that fails (no Work API, no access) says nothing.
        if let Some((works, progress)) = works
            && let Ok(list) = works.list_metadata(&ListParams::default()).await
            && reported != Some(list.items.len())
        {
            let left = list.items.len();
            progress(&match left {
                0 => format!("the works of cluster {name} are removed; waiting for the bindings to leave it"),
                n => format!("waiting for {n} works of cluster {name} to be removed from it"),
            });
            reported = Some(left);
        }
        tokio::time::sleep(POLL).await;
    }
}

/// §6 step 3 with `--force`: the execution controller's finalizer off every Work in the
/// execution space, `kubernetes` off that namespace, the cluster controller's off the Cluster.
async fn force_remove(
    client: &Client,
    target: &Target,
    name: &str,
    progress: Progress<'_>,
) -> Result<(), MembershipError> {
    let es = wellknown::execution_space(name);
    let works: Api<Work> = Api::namespaced(client.clone(), &es);
    let list = match works.list(&ListParams::default()).await {
        Ok(list) => list.items,
        // No execution space (no cluster controller ran) or no Work API: nothing to strip.
        Err(kube::Error::Api(s)) if s.code == 404 => Vec::new(),
        Err(e) => return Err(classify(target, format!("listing works in {es}"), e)),
    };
    for work in list {
        let work_name = work.name_any();
        if strip(&works, &work_name, work.finalizers(), wellknown::EXECUTION_CONTROLLER_FINALIZER, target).await? {
            progress(&format!(
                "removed finalizer {} from work {es}/{work_name}",
                wellknown::EXECUTION_CONTROLLER_FINALIZER
            ));
        }
    }
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns = namespaces.get_opt(&es).await.map_err(|e| classify(target, format!("reading namespace {es}"), e))?;
    if let Some(ns) = ns
        && strip(&namespaces, &es, ns.finalizers(), "kubernetes", target).await?
    {
        progress(&format!("removed finalizer kubernetes from namespace {es}"));
    }
    let clusters: Api<Cluster> = Api::all(client.clone());
    let cluster = clusters.get_opt(name).await.map_err(|e| classify(target, format!("reading cluster {name}"), e))?;
    if let Some(cluster) = cluster
        && strip(&clusters, name, cluster.finalizers(), wellknown::CLUSTER_CONTROLLER_FINALIZER, target).await?
    {
        progress(&format!("removed finalizer {} from cluster {name}", wellknown::CLUSTER_CONTROLLER_FINALIZER));
    }
    Ok(())
}

/// Removes one finalizer with a merge patch of the remaining list; returns whether it was there.
/// A NotFound object is already gone, which is what the caller wants.
async fn strip<K>(
    api: &Api<K>,
    name: &str,
    finalizers: &[String],
    finalizer: &str,
    target: &Target,
) -> Result<bool, MembershipError>
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    if !finalizers.iter().any(|f| f == finalizer) {
        return Ok(false);
    }
    let rest: Vec<&String> = finalizers.iter().filter(|f| *f != finalizer).collect();
    // An emptied list is removed (null), as Go's omitempty would leave it.
    let patch = if rest.is_empty() {
        json!({"metadata": {"finalizers": null}})
    } else {
        json!({"metadata": {"finalizers": rest}})
    };
    match api.patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(false),
        Err(e) => Err(classify(target, format!("removing finalizer {finalizer} from {name}"), e)),
    }
}

/// The member-side objects join made, in §6's removal order.
pub fn member_objects(cluster: &str, namespace: &str) -> Vec<ObjectRef> {
    let role = crate::membership::cluster_role_name(cluster);
    vec![
        ObjectRef::new(Side::Member, Kind::ClusterRoleBinding, None, &role),
        ObjectRef::new(Side::Member, Kind::ClusterRole, None, &role),
        ObjectRef::new(
            Side::Member,
            Kind::ServiceAccount,
            Some(namespace),
            crate::membership::service_account_name(cluster),
        ),
        ObjectRef::new(Side::Member, Kind::Namespace, None, namespace),
    ]
}

/// What happened to one member-side object.
pub enum MemberOutcome {
    Deleted,
    /// Not there (already removed, or never made).
    Absent,
}

/// Deletes (or, in a dry run, looks up) one object through `client`.
pub async fn remove_object(
    client: &Client,
    target: &Target,
    object: &ObjectRef,
    dry_run: bool,
) -> Result<MemberOutcome, MembershipError> {
    let name = object.name.as_str();
    let ns = object.namespace.clone().unwrap_or_default();
    let result = match object.kind {
        Kind::ClusterRoleBinding => delete_or_get(&Api::<ClusterRoleBinding>::all(client.clone()), name, dry_run).await,
        Kind::ClusterRole => delete_or_get(&Api::<ClusterRole>::all(client.clone()), name, dry_run).await,
        Kind::ServiceAccount => {
            delete_or_get(&Api::<ServiceAccount>::namespaced(client.clone(), &ns), name, dry_run).await
        }
        Kind::Secret => delete_or_get(&Api::<Secret>::namespaced(client.clone(), &ns), name, dry_run).await,
        Kind::Namespace => delete_or_get(&Api::<Namespace>::all(client.clone()), name, dry_run).await,
        Kind::Cluster => delete_or_get(&Api::<Cluster>::all(client.clone()), name, dry_run).await,
    };
    match result {
        Ok(true) => Ok(MemberOutcome::Deleted),
        Ok(false) => Ok(MemberOutcome::Absent),
        Err(e) => Err(classify(target, format!("deleting {}/{name}", object.kind.resource()), e)),
    }
}

async fn delete_or_get<K>(api: &Api<K>, name: &str, dry_run: bool) -> Result<bool, kube::Error>
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
{
    if dry_run {
        return Ok(api.get_opt(name).await?.is_some());
    }
    match api.delete(name, &DeleteParams::default()).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(false),
        Err(e) => Err(e),
    }
}
