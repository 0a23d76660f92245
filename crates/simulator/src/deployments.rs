//! The Deployment controller: one ReplicaSet per pod template (`<deployment>-<hash>`, labelled
//! `pod-template-hash`). A new template gets a new ReplicaSet at full size; the old ones are
//! scaled to zero once it is available (a rolling update in one step). Status is what
//! `kubectl rollout status` reads.

use std::sync::Arc;

use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
use kube::api::{Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::{Api, Client, ResourceExt};
use serde_json::json;

use super::owned;
use super::{Sim, readiness, status, unread};

const HASH_LABEL: &str = "pod-template-hash";

pub async fn reconcile(deploy: Arc<Deployment>, sim: Arc<Sim>) -> Result<Action, kube::Error> {
    let Some((ns, name, uid)) = owned::identity(deploy.as_ref()) else { return Ok(super::done()) };
    let Some(spec) = deploy.spec.as_ref() else { return Ok(super::done()) };
    if deploy.metadata.deletion_timestamp.is_some() {
        return Ok(super::done());
    }
    let desired = owned::replicas(spec.replicas);
    let hash = owned::template_hash(&spec.template);
    let rs_api: Api<ReplicaSet> = Api::namespaced(sim.client.clone(), &ns);
    let Some(all) = sim.replicasets.owned_by(&uid) else { return Ok(super::waiting()) };
    let picks = owned::selector_of(Some(&spec.selector));
    let mine: Vec<&ReplicaSet> =
        all.iter().map(AsRef::as_ref).filter(|rs| owned::selects(&picks, &rs.metadata)).collect();
    let new = mine.iter().find(|rs| rs.labels().get(HASH_LABEL) == Some(&hash)).copied();

    let replicasets: Vec<ReplicaSet> = mine.iter().map(|rs| (*rs).clone()).collect();
    readiness::pass_on(&sim.client, &ns, &deploy.metadata, &replicasets).await?;
    let Some(new) = new else {
        sim.replicasets.expect_creation(&uid);
        if let Err(e) = create_replicaset(&sim.client, &ns, deploy.as_ref(), &name, &hash, desired).await {
            sim.replicasets.creation_failed(&uid);
            return Err(e);
        }
        return Ok(super::done());
    };
    let mut scaled = false;
    if new.spec.as_ref().and_then(|s| s.replicas) != Some(desired) {
        scale(&rs_api, &new.name_any(), desired).await?;
        scaled = true;
    }
    let new_status = status::current(&new.status);
    let new_available = new_status["availableReplicas"].as_i64().unwrap_or(0);
    for old in mine.iter().filter(|rs| rs.metadata.uid != new.metadata.uid) {
        if new_available >= i64::from(desired) && old.spec.as_ref().and_then(|s| s.replicas) != Some(0) {
            scale(&rs_api, &old.name_any(), 0).await?;
            scaled = true;
        }
    }
    // Counts from a ReplicaSet whose controller has not yet seen its spec (just created or
    // scaled) are about to change: its status write brings the Deployment back, and the
    // Deployment's status is written then, once, instead of once now and once again.
    if scaled || !observed(new) {
        return Ok(super::done());
    }

    let sum =
        |field: &str| -> i64 { mine.iter().map(|rs| status::current(&rs.status)[field].as_i64().unwrap_or(0)).sum() };
    let (replicas, ready, available) = (sum("replicas"), sum("readyReplicas"), sum("availableReplicas"));
    let updated = new_status["replicas"].as_i64().unwrap_or(0);
    let desired = i64::from(desired);
    let current = status::current(&deploy.status);
    let available_cond = if available >= desired {
        status::condition(
            &current,
            "Available",
            "True",
            "MinimumReplicasAvailable",
            "Deployment has minimum availability.",
        )
    } else {
        status::condition(
            &current,
            "Available",
            "False",
            "MinimumReplicasUnavailable",
            "Deployment does not have minimum availability.",
        )
    };
    let rs_name = new.name_any();
    let complete = updated == desired && replicas == desired && available >= desired;
    let progressing = if complete {
        let msg = format!("ReplicaSet \"{rs_name}\" has successfully progressed.");
        status::condition(&current, "Progressing", "True", "NewReplicaSetAvailable", &msg)
    } else {
        let msg = format!("ReplicaSet \"{rs_name}\" is progressing.");
        status::condition(&current, "Progressing", "True", "ReplicaSetUpdated", &msg)
    };
    let desired_status = json!({
        "replicas": replicas,
        "updatedReplicas": updated,
        "readyReplicas": ready,
        "availableReplicas": available,
        "unavailableReplicas": (desired - available).max(0),
        "observedGeneration": deploy.metadata.generation,
        "conditions": [available_cond, progressing],
    });
    status::write::<Deployment>(&sim.client, &ns, &name, &current, desired_status).await?;
    Ok(super::done())
}

/// Whether the ReplicaSet's status reports its current spec (a ReplicaSet being deleted is no
/// longer reconciled, so its status is what it will stay).
fn observed(rs: &ReplicaSet) -> bool {
    rs.metadata.deletion_timestamp.is_some()
        || rs.status.as_ref().and_then(|s| s.observed_generation) >= rs.metadata.generation
}

async fn create_replicaset(
    client: &Client,
    ns: &str,
    deploy: &Deployment,
    name: &str,
    hash: &str,
    replicas: i32,
) -> Result<(), kube::Error> {
    let Some(spec) = deploy.spec.as_ref() else { return Ok(()) };
    let mut template = spec.template.clone();
    let mut meta = template.metadata.take().unwrap_or_default();
    let mut labels = meta.labels.take().unwrap_or_default();
    labels.insert(HASH_LABEL.into(), hash.into());
    meta.labels = Some(labels.clone());
    template.metadata = Some(meta);
    let mut selector = spec.selector.clone();
    selector.match_labels.get_or_insert_with(Default::default).insert(HASH_LABEL.into(), hash.into());
    let rs = json!({
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "metadata": {
            "name": format!("{name}-{hash}"),
            "namespace": deploy.namespace(),
            "labels": labels,
            "annotations": replicaset_annotations(deploy),
            "ownerReferences": [owned::controller_ref(deploy)],
        },
        "spec": {"replicas": replicas, "selector": selector, "template": template, "minReadySeconds": spec.min_ready_seconds},
    });
    let rs: ReplicaSet = serde_json::from_value(rs).map_err(kube::Error::SerdeError)?;
    match unread::create(client, ns, &rs).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 409 => {
            tracing::warn!(replicaset = %format!("{name}-{hash}"), "a ReplicaSet of that name exists and is not this Deployment's");
            // Nothing was created, so nothing is waited for.
            Err(kube::Error::Api(e))
        }
        Err(e) => Err(e),
    }
}

/// The revision kubectl's rollout history reads, and the Deployment's readiness knob.
fn replicaset_annotations(deploy: &Deployment) -> serde_json::Value {
    let mut a = json!({"deployment.kubernetes.io/revision": revision(deploy)});
    if readiness::held_unready(&deploy.metadata) {
        a[readiness::PODS_READY_ANNOTATION] = json!("false");
    }
    a
}

/// The revision annotation kubectl's rollout history reads; the generation is a fair stand-in.
fn revision(deploy: &Deployment) -> String {
    deploy.metadata.generation.unwrap_or(1).to_string()
}

async fn scale(api: &Api<ReplicaSet>, name: &str, replicas: i32) -> Result<(), kube::Error> {
    let patch = json!({"spec": {"replicas": replicas}});
    match api.patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e),
    }
}
