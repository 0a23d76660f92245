//! The ReplicaSet controller: keeps `spec.replicas` pods, deleting only pods the ReplicaSet
//! controls, and reports how many are ready (once its new pods are, when they are about to be:
//! see [`super::settle`]).

use std::sync::Arc;

use k8s_openapi::api::apps::v1::ReplicaSet;
use kube::runtime::controller::Action;
use serde_json::json;

use super::owned::{self, PodName};
use super::{Sim, readiness, status};

pub async fn reconcile(rs: Arc<ReplicaSet>, sim: Arc<Sim>) -> Result<Action, kube::Error> {
    let Some((ns, name, uid)) = owned::identity(rs.as_ref()) else { return Ok(super::done()) };
    if rs.metadata.deletion_timestamp.is_some() {
        return Ok(super::done());
    }
    let Some(spec) = rs.spec.as_ref() else { return Ok(super::done()) };
    let desired = owned::replicas(spec.replicas) as usize;
    let Some(mut pods) = owned::owned_pods(&sim, &uid, Some(&spec.selector)) else { return Ok(super::waiting()) };
    let mut changed = false;
    if let Some(template) = &spec.template {
        for _ in pods.len()..desired {
            let owner = owned::controller_ref(rs.as_ref());
            let node = sim.pick_node();
            changed |= owned::create_pod(
                &sim,
                &ns,
                template,
                owner,
                &rs.metadata,
                PodName::Generate(name.clone()),
                Default::default(),
                node,
            )
            .await?;
        }
    }
    if pods.len() > desired {
        // Like kube-controller-manager, give up pods that are not ready first, then the newest.
        pods.sort_by_key(|p| (owned::pod_ready(p), std::cmp::Reverse(p.metadata.creation_timestamp.clone())));
        for pod in &pods[..pods.len() - desired] {
            changed |= owned::delete_pod(&sim, &uid, pod).await?;
        }
    }
    if changed {
        // The status is written once the pods' cache shows what this pass did: those pods'
        // events bring the ReplicaSet back (kube-controller-manager writes the counts from
        // before its own changes here, one status write per change that says nothing new).
        return Ok(super::done());
    }
    readiness::pass_on(&sim.client, &ns, &rs.metadata, &pods).await?;
    if !readiness::held_unready(&rs.metadata)
        && let Some(left) = sim.holds.wait(&uid, sim.config.pod_ready_delay, &pods)
    {
        // The pods' turning ready brings the ReplicaSet back; the requeue writes what there
        // is should they be late.
        return Ok(Action::requeue(left));
    }
    let ready = pods.iter().filter(|p| owned::pod_ready(p)).count();
    let desired_status = json!({
        "replicas": pods.len(),
        "fullyLabeledReplicas": pods.len(),
        "readyReplicas": ready,
        "availableReplicas": ready,
        "observedGeneration": rs.metadata.generation,
    });
    status::write::<ReplicaSet>(&sim.client, &ns, &name, &status::current(&rs.status), desired_status).await?;
    Ok(super::done())
}
