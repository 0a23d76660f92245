//! The DaemonSet controller: one pod per simulated node, replaced when the template changes.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::DaemonSet;
use kube::ResourceExt;
use kube::runtime::controller::Action;
use serde_json::json;

use super::owned::{self, PodName};
use super::{Sim, readiness, status};

const REVISION_LABEL: &str = "controller-revision-hash";

pub async fn reconcile(ds: Arc<DaemonSet>, sim: Arc<Sim>) -> Result<Action, kube::Error> {
    let Some((ns, name, uid)) = owned::identity(ds.as_ref()) else { return Ok(super::done()) };
    let Some(spec) = ds.spec.as_ref() else { return Ok(super::done()) };
    if ds.metadata.deletion_timestamp.is_some() {
        return Ok(super::done());
    }
    let revision = owned::template_hash(&spec.template);
    let Some(pods) = owned::owned_pods(&sim, &uid, Some(&spec.selector)) else { return Ok(super::waiting()) };
    let mut live = Vec::new();
    let mut changed = false;
    for pod in pods {
        let node = pod.spec.as_ref().and_then(|s| s.node_name.clone()).unwrap_or_default();
        let duplicate = live.iter().any(|p: &k8s_openapi::api::core::v1::Pod| {
            p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node.as_str())
        });
        if sim.node_index(&node).is_some() && pod.labels().get(REVISION_LABEL) == Some(&revision) && !duplicate {
            live.push(pod);
        } else {
            changed |= owned::delete_pod(&sim, &uid, &pod).await?;
        }
    }
    for node in &sim.node_names {
        let on_node = live.iter().any(|p| p.spec.as_ref().and_then(|s| s.node_name.as_ref()) == Some(node));
        if on_node {
            continue;
        }
        let mut labels = BTreeMap::new();
        labels.insert(REVISION_LABEL.to_string(), revision.clone());
        labels.insert("pod-template-generation".to_string(), ds.metadata.generation.unwrap_or(1).to_string());
        let owner = owned::controller_ref(ds.as_ref());
        changed |= owned::create_pod(
            &sim,
            &ns,
            &spec.template,
            owner,
            &ds.metadata,
            PodName::Generate(name.clone()),
            labels,
            node.clone(),
        )
        .await?;
    }
    if changed {
        // Its status is written once the pods' cache shows this pass's creations and
        // deletions (as the ReplicaSet's): their events bring it back.
        return Ok(super::done());
    }

    readiness::pass_on(&sim.client, &ns, &ds.metadata, &live).await?;
    let desired = sim.node_names.len();
    let ready = live.iter().filter(|p| owned::pod_ready(p)).count();
    let desired_status = json!({
        "desiredNumberScheduled": desired,
        "currentNumberScheduled": live.len(),
        "updatedNumberScheduled": live.len(),
        "numberReady": ready,
        "numberAvailable": ready,
        "numberUnavailable": desired.saturating_sub(ready),
        "numberMisscheduled": 0,
        "observedGeneration": ds.metadata.generation,
    });
    status::write::<DaemonSet>(&sim.client, &ns, &name, &status::current(&ds.status), desired_status).await?;
    Ok(super::done())
}
