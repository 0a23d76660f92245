//! The StatefulSet controller: pods `<name>-0 … <name>-(n-1)` with stable names, labelled with
//! the template revision. Pods of an old revision are replaced; ordinals past the size removed.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::StatefulSet;
use kube::ResourceExt;
use kube::runtime::controller::Action;
use serde_json::json;

use super::owned::{self, PodName};
use super::{Sim, readiness, status};

const REVISION_LABEL: &str = "controller-revision-hash";

pub async fn reconcile(sts: Arc<StatefulSet>, sim: Arc<Sim>) -> Result<Action, kube::Error> {
    let Some((ns, name, uid)) = owned::identity(sts.as_ref()) else { return Ok(super::done()) };
    let Some(spec) = sts.spec.as_ref() else { return Ok(super::done()) };
    if sts.metadata.deletion_timestamp.is_some() {
        return Ok(super::done());
    }
    let desired = owned::replicas(spec.replicas) as usize;
    let revision = format!("{name}-{}", owned::template_hash(&spec.template));
    let Some(pods) = owned::owned_pods(&sim, &uid, Some(&spec.selector)) else { return Ok(super::waiting()) };
    let ordinal = |pod_name: &str| pod_name.strip_prefix(&format!("{name}-")).and_then(|s| s.parse::<usize>().ok());

    let mut live = Vec::new();
    let mut changed = false;
    for pod in pods {
        let keep = ordinal(&pod.name_any()).is_some_and(|i| i < desired)
            && pod.labels().get(REVISION_LABEL) == Some(&revision);
        if keep {
            live.push(pod);
        } else {
            changed |= owned::delete_pod(&sim, &uid, &pod).await?;
        }
    }
    for i in 0..desired {
        let pod_name = format!("{name}-{i}");
        if live.iter().any(|p| p.name_any() == pod_name) {
            continue;
        }
        let mut labels = BTreeMap::new();
        labels.insert(REVISION_LABEL.to_string(), revision.clone());
        labels.insert("statefulset.kubernetes.io/pod-name".to_string(), pod_name.clone());
        labels.insert("apps.kubernetes.io/pod-index".to_string(), i.to_string());
        let mut template = spec.template.clone();
        if let Some(pod_spec) = template.spec.as_mut() {
            pod_spec.hostname = Some(pod_name.clone());
            pod_spec.subdomain = spec.service_name.clone().filter(|s| !s.is_empty());
        }
        let owner = owned::controller_ref(sts.as_ref());
        let name = PodName::Exact(pod_name);
        changed |= owned::create_pod(&sim, &ns, &template, owner, &sts.metadata, name, labels, sim.pick_node()).await?;
    }
    if changed {
        // Its status is written once the pods' cache shows this pass's creations and
        // deletions (as the ReplicaSet's): their events bring it back.
        return Ok(super::done());
    }

    readiness::pass_on(&sim.client, &ns, &sts.metadata, &live).await?;
    let ready = live.iter().filter(|p| owned::pod_ready(p)).count();
    let current = status::current(&sts.status);
    let all_updated = live.len() == desired;
    let current_revision = if all_updated || current["currentRevision"].is_null() {
        json!(revision)
    } else {
        current["currentRevision"].clone()
    };
    let desired_status = json!({
        "replicas": live.len(),
        "readyReplicas": ready,
        "availableReplicas": ready,
        "currentReplicas": live.len(),
        "updatedReplicas": live.len(),
        "currentRevision": current_revision,
        "updateRevision": revision,
        "observedGeneration": sts.metadata.generation,
        "collisionCount": 0,
    });
    status::write::<StatefulSet>(&sim.client, &ns, &name, &current, desired_status).await?;
    Ok(super::done())
}
