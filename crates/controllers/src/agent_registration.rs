//! Which bootstrap token registers a pull cluster's name, so a token yields the agent identity
//! of one new cluster and never that of a registered member.
//!
//! Before the CSR approver issues `system:karmada:agent:<cluster>` to a bootstrap-token
//! requester it claims the name for that token: the token id is recorded as an annotation on
//! the cluster's execution namespace `karmada-es-<cluster>` (created here when missing, marked
//! so `unregister` removes it). A name is refused when another token holds it, or when the
//! Cluster exists and no claim of this token is recorded (a member that joined or registered
//! otherwise: its agent renews its own certificate). The claim lasts as long as the namespace:
//! `unregister` deletes it, which frees the name.

use k8s_openapi::api::core::v1::Namespace;
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::wellknown;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::{Client, ResourceExt};
use serde_json::json;

use karmadactl_karmada_api::agent_rbac::REGISTERED_BY_TOKEN_ANNOTATION;

/// Claims `cluster` for the bootstrap token `token_id`. `Ok(Err(why))` when the name is not this
/// token's to have.
pub async fn claim(client: &Client, cluster: &str, token_id: &str) -> Result<Result<(), String>, kube::Error> {
    if let Some(problem) = karmadactl_apimachinery::is_dns1123_label_without_dots_hint(cluster).into_iter().next() {
        return Ok(Err(format!("{cluster:?} is not a valid cluster name: {problem}")));
    }
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let space = wellknown::execution_space(cluster);
    let existing = namespaces.get_opt(&space).await?;
    let holder = existing.as_ref().and_then(|ns| ns.annotations().get(REGISTERED_BY_TOKEN_ANNOTATION).cloned());
    if holder.as_deref() == Some(token_id) {
        return Ok(Ok(()));
    }
    let clusters: Api<Cluster> = Api::all(client.clone());
    if clusters.get_opt(cluster).await?.is_some() {
        return Ok(Err(format!(
            "cluster {cluster} is already registered; a bootstrap token cannot obtain the identity of a registered member's agent"
        )));
    }
    if holder.is_some() {
        return Ok(Err(format!("cluster {cluster} is being registered with another bootstrap token")));
    }
    match existing {
        Some(ns) if ns.metadata.deletion_timestamp.is_some() => {
            Ok(Err(format!("namespace {space} is being deleted; register cluster {cluster} again once it is gone")))
        }
        Some(ns) => {
            // The resourceVersion makes the claim a compare-and-swap with a concurrent claim.
            let patch = json!({"metadata": {"resourceVersion": ns.resource_version(),
                "annotations": {REGISTERED_BY_TOKEN_ANNOTATION: token_id}}});
            namespaces.patch(&space, &PatchParams::default(), &Patch::Merge(&patch)).await?;
            Ok(Ok(()))
        }
        None => {
            let ns: Namespace = serde_json::from_value(json!({"metadata": {
                "name": space,
                "labels": {karmadactl_karmada_api::wellknown::LABEL_KARMADA_SYSTEM: "true"},
                "annotations": {
                    REGISTERED_BY_TOKEN_ANNOTATION: token_id,
                    karmadactl_karmada_api::agent_rbac::REGISTERED_FOR_ANNOTATION: cluster,
                },
            }}))
            .expect("a static namespace");
            namespaces.create(&PostParams::default(), &ns).await?;
            Ok(Ok(()))
        }
    }
}
