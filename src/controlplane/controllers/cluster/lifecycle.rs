//! The finalizer and the execution namespace: created for every Cluster, removed (in that
//! order reversed) when the Cluster is deleted.
//!
//! The execution namespace carries the uid of the Cluster it was made for, so the controller
//! deletes only a namespace it can prove it created for this very Cluster; a same-named
//! namespace someone else made is left alone (and said so in the log).

use k8s_openapi::api::core::v1::Namespace;
use std::time::Duration;

use kube::api::{DeleteParams, Patch, PatchParams, PostParams};
use kube::{Api, Client, ResourceExt};
use serde_json::json;

use crate::karmada::api::cluster::Cluster;

pub const FINALIZER: &str = "karmada.io/cluster-controller";
/// Set on the execution namespace: the uid of the Cluster it belongs to.
pub const EXECUTION_SPACE_UID_ANNOTATION: &str = "cluster.karmada.io/uid";

pub fn execution_space(cluster: &str) -> String {
    format!("{}{cluster}", crate::wellknown::EXECUTION_SPACE_PREFIX)
}

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
    let ns_name = execution_space(&name);
    if namespaces.get_opt(&ns_name).await?.is_none() {
        let ns: Namespace = serde_json::from_value(json!({
            "metadata": {
                "name": ns_name,
                "labels": {crate::wellknown::LABEL_KARMADA_SYSTEM: "true"},
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
        match finish_deletion(&client, &cluster).await {
            Ok(true) => return,
            Ok(false) => {}
            Err(e) => tracing::warn!(cluster = %name, error = %e, "cluster controller: cleanup failed; retrying"),
        }
        tokio::time::sleep(DELETION_RETRY).await;
    }
}

/// One attempt: deletes the execution namespace this controller made for `cluster`; once it is
/// gone, releases the finalizer. True when the finalizer is released (or was never there).
async fn finish_deletion(client: &Client, cluster: &Cluster) -> Result<bool, kube::Error> {
    if !cluster.finalizers().iter().any(|f| f == FINALIZER) {
        return Ok(true);
    }
    let name = cluster.name_any();
    let uid = cluster.uid().unwrap_or_default();
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns_name = execution_space(&name);
    if let Some(ns) = namespaces.get_opt(&ns_name).await? {
        let ours = ns.annotations().get(EXECUTION_SPACE_UID_ANNOTATION).is_some_and(|u| *u == uid);
        if ours {
            if ns.metadata.deletion_timestamp.is_none() {
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
            return Ok(false);
        }
        tracing::warn!(cluster = %name, namespace = %ns_name, "the execution namespace was not created for this cluster; leaving it");
    }
    let rest: Vec<String> = cluster.finalizers().iter().filter(|f| *f != FINALIZER).cloned().collect();
    let patch = json!({"metadata": {"finalizers": rest, "resourceVersion": cluster.resource_version()}});
    let api: Api<Cluster> = Api::all(client.clone());
    match api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(true),
        Err(kube::Error::Api(e)) if e.code == 409 => Ok(false),
        Err(e) => Err(e),
    }
}
