//! The finalizer and the execution namespace: created for every Cluster, removed (in that
//! order reversed) when the Cluster is deleted, after its Works, and only once no binding
//! lists the cluster any more.
//!
//! The execution namespace carries the uid of the Cluster it was made for, so the controller
//! deletes only a namespace it can prove it created for this very Cluster; a same-named
//! namespace someone else made is left alone (and said so in the log).

use k8s_openapi::api::core::v1::Namespace;
use std::time::Duration;

use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{Api, Client, ResourceExt};
use serde_json::json;

use karmadactl_karmada_api::cluster::{Cluster, ClusterSyncMode};
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::{ClusterResourceBinding, ResourceBinding, ResourceBindingSpec, Work};

pub const FINALIZER: &str = wellknown::CLUSTER_CONTROLLER_FINALIZER;
/// Set on the execution namespace: the uid of the Cluster it belongs to.
pub const EXECUTION_SPACE_UID_ANNOTATION: &str = "cluster.karmada.io/uid";

/// Adds the finalizer and creates the execution namespace when missing.
pub async fn ensure(client: &Client, cluster: &Cluster) -> Result<(), kube::Error> {
    let name = cluster.name_any();
    let uid = cluster.uid().unwrap_or_default();
    if !cluster.finalizers().iter().any(|f| f == FINALIZER) {
        let mut finalizers = cluster.finalizers().to_vec();
        finalizers.push(FINALIZER.to_string());
        // The resourceVersion makes this a compare-and-swap: a concurrent change wins and the
        // next event brings the object back.
        let patch = json!({"metadata": {"finalizers": finalizers, "resourceVersion": cluster.resource_version()}});
        let api: Api<Cluster> = Api::all(client.clone());
        match api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 409 || e.code == 404 => return Ok(()),
            Err(e) => return Err(e),
        }
    }
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns_name = wellknown::execution_space(&name);
    if namespaces.get_opt(&ns_name).await?.is_none() {
        let ns: Namespace = serde_json::from_value(json!({
            "metadata": {
                "name": ns_name,
                "labels": {karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM: "true"},
                "annotations": {EXECUTION_SPACE_UID_ANNOTATION: uid},
            }
        }))
        .expect("a static namespace");
        match namespaces.create(&PostParams::default(), &ns).await {
            Ok(_) => tracing::info!(cluster = %name, namespace = %ns_name, "created the execution namespace"),
            Err(kube::Error::Api(e)) if e.code == 409 => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// How long to wait between two attempts to finish a deletion.
const DELETION_RETRY: Duration = Duration::from_millis(200);
/// How long to wait when only bindings still list the cluster: each check lists them all.
const BINDINGS_RETRY: Duration = Duration::from_secs(1);

/// Finishes the deletion of the Cluster `name` (still `uid`): retries until its finalizer is
/// released or the Cluster is gone.
pub async fn delete_until_released(client: Client, name: String, uid: String) {
    let api: Api<Cluster> = Api::all(client.clone());
    loop {
        let cluster = match api.get_opt(&name).await {
            Ok(Some(c)) if c.uid().as_deref() == Some(uid.as_str()) => c,
            Ok(_) => return,
            Err(e) => {
                tracing::debug!(cluster = %name, error = %e, "cluster controller: reading the cluster failed");
                tokio::time::sleep(DELETION_RETRY).await;
                continue;
            }
        };
        let retry = match finish_deletion(&client, &cluster).await {
            Ok(None) => return,
            Ok(Some(retry)) => retry,
            Err(e) => {
                tracing::warn!(cluster = %name, error = %e, "cluster controller: cleanup failed; retrying");
                DELETION_RETRY
            }
        };
        tokio::time::sleep(retry).await;
    }
}

/// One attempt, in upstream's order: the Works in the execution namespace are deleted (the
/// execution controller, or a Pull member's agent, then removes their member copies), the
/// execution namespace this controller made for `cluster` goes, and once no Work is left and
/// no binding lists the cluster any more, the finalizer is released. `None` when it is
/// released (or was never there), else how long to wait before the next attempt.
async fn finish_deletion(client: &Client, cluster: &Cluster) -> Result<Option<Duration>, kube::Error> {
    if !cluster.finalizers().iter().any(|f| f == FINALIZER) {
        return Ok(None);
    }
    let name = cluster.name_any();
    let uid = cluster.uid().unwrap_or_default();
    let ns_name = wellknown::execution_space(&name);
    let works_left = delete_works(client, &ns_name).await?;
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let namespace = namespaces.get_opt(&ns_name).await?;
    let ours = namespace
        .as_ref()
        .is_some_and(|ns| ns.annotations().get(EXECUTION_SPACE_UID_ANNOTATION).is_some_and(|u| *u == uid));
    if let Some(ns) = namespace.as_ref().filter(|_| ours) {
        // A Pull member's agent releases its Works through a Role in this namespace, so the
        // namespace waits for them; a Push member's go with it, as upstream removes them.
        let pull = cluster.spec.sync_mode == ClusterSyncMode::Pull;
        if ns.metadata.deletion_timestamp.is_none() && (!pull || works_left == 0) {
            let pre = kube::api::Preconditions { uid: ns.uid(), resource_version: None };
            let params = DeleteParams { preconditions: Some(pre), ..Default::default() };
            match namespaces.delete(&ns_name, &params).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => {}
                Err(e) => return Err(e),
            }
        }
        // Gone only once the namespace controller emptied it (Works wait for their
        // finalizers); the next attempt looks again.
        return Ok(Some(DELETION_RETRY));
    }
    if works_left > 0 {
        return Ok(Some(DELETION_RETRY));
    }
    if namespace.is_some() {
        tracing::warn!(cluster = %name, namespace = %ns_name, "the execution namespace was not created for this cluster; leaving it");
    }
    if let Some(binding) = binding_targeting(client, &name).await? {
        tracing::debug!(cluster = %name, binding = %binding, "cluster controller: a binding still targets the cluster");
        return Ok(Some(BINDINGS_RETRY));
    }
    let rest: Vec<String> = cluster.finalizers().iter().filter(|f| *f != FINALIZER).cloned().collect();
    let patch = json!({"metadata": {"finalizers": rest, "resourceVersion": cluster.resource_version()}});
    let api: Api<Cluster> = Api::all(client.clone());
    match api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(None),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(None),
        Err(kube::Error::Api(e)) if e.code == 409 => Ok(Some(DELETION_RETRY)),
        Err(e) => Err(e),
    }
}

/// Deletes every Work in the execution namespace not already on its way out; returns how many
/// Works are still there.
async fn delete_works(client: &Client, namespace: &str) -> Result<usize, kube::Error> {
    let works: Api<Work> = Api::namespaced(client.clone(), namespace);
    let list = match works.list(&ListParams::default()).await {
        Ok(list) => list.items,
        Err(kube::Error::Api(e)) if e.code == 404 => return Ok(0),
        Err(e) => return Err(e),
    };
    for work in list.iter().filter(|w| w.metadata.deletion_timestamp.is_none()) {
        let pre = kube::api::Preconditions { uid: work.uid(), resource_version: None };
        match works.delete(&work.name_any(), &DeleteParams { preconditions: Some(pre), ..Default::default() }).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => {}
            Err(e) => return Err(e),
        }
    }
    Ok(list.len())
}

/// A binding whose `spec.clusters` still lists `cluster` (upstream's isTargetClusterRemoved):
/// the scheduler moves bindings off a cluster being deleted, and the Cluster stays until it
/// has, so that `unjoin` returns only once the workloads have moved.
async fn binding_targeting(client: &Client, cluster: &str) -> Result<Option<String>, kube::Error> {
    let lists = |spec: &ResourceBindingSpec| spec.clusters.iter().flatten().any(|t| t.name == cluster);
    let namespaced: Api<ResourceBinding> = Api::all(client.clone());
    let found = namespaced.list(&ListParams::default()).await?.items.into_iter().find(|b| lists(&b.spec));
    if let Some(b) = found {
        return Ok(Some(format!("{}/{}", b.namespace().unwrap_or_default(), b.name_any())));
    }
    let cluster_wide: Api<ClusterResourceBinding> = Api::all(client.clone());
    let found = cluster_wide.list(&ListParams::default()).await?.items.into_iter().find(|b| lists(&b.spec.0));
    Ok(found.map(|b| b.name_any()))
}
