//! The work status controller (upstream's `work_status_controller` in `pkg/controllers/status`):
//! what each applied object reports in its member (through the member watchers) goes into the
//! Work's `manifestStatuses`, with a health verdict.

use std::sync::Arc;

use karmadactl_karmada_api::work::Work;
use karmadactl_karmada_api::work::workload::{ManifestStatus, ResourceIdentifier};
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;

use crate::bindings::set_condition;
use crate::context::{Engine, WorkKey};
use crate::detector::gvk_of;
use crate::error::ReconcileError;
use crate::execution::{owned_by, work_id};
use crate::names;

pub async fn reconcile(engine: &Arc<Engine>, key: &WorkKey) -> Result<(), ReconcileError> {
    let Some(work) = engine.work(key) else {
        return Ok(());
    };
    if work.metadata.deletion_timestamp.is_some() {
        return Ok(());
    }
    let Some(cluster) = names::cluster_of_execution_space(&key.namespace) else {
        return Ok(());
    };
    let manifests = work.spec.workload.as_ref().and_then(|w| w.manifests.clone()).unwrap_or_default();
    let current = work.status.as_ref().and_then(|s| s.manifest_statuses.clone()).unwrap_or_default();
    let id = work_id(&work);
    let mut statuses = vec![];
    let mut unreadable = None;
    for (ordinal, manifest) in manifests.iter().enumerate() {
        let api_version = manifest["apiVersion"].as_str().unwrap_or_default();
        let gvk = gvk_of(api_version, manifest["kind"].as_str().unwrap_or_default());
        let name = manifest["metadata"]["name"].as_str().unwrap_or_default();
        let namespace = manifest["metadata"]["namespace"].as_str();
        // The watcher sees every object of the kind; only this Work's own copy reports here.
        let observed = engine.members.observed(cluster, &gvk, namespace, name).flatten().filter(|o| owned_by(o, &id));
        let resource = engine.members.resource(engine, &gvk).await.map(|r| r.0.plural).unwrap_or_default();
        let identifier = ResourceIdentifier {
            ordinal: ordinal as i32,
            group: Some(gvk.group.clone()).filter(|g| !g.is_empty()),
            version: gvk.version.clone(),
            kind: gvk.kind.clone(),
            resource,
            namespace: namespace.map(Into::into),
            name: name.into(),
        };
        let Some(obj) = observed else {
            // Not in a watcher's view: not followed yet, just applied and its event still on
            // the way, or deleted and about to be applied again. The last status reported stays until the
            // member shows the object, rather than vanishing and coming back a moment later.
            statuses.extend(current.iter().find(|s| s.identifier == identifier).cloned());
            continue;
        };
        let obj = crate::interpreted::object_value(&gvk, &obj);
        let status = match engine.interpreter.reflect_status(&obj).await {
            Ok(status) => status,
            Err(e) => {
                // A status the interpreter cannot read (a webhook down) keeps the last one
                // reported and is retried; the apply is still reported below.
                unreadable.get_or_insert(e);
                statuses.extend(current.iter().find(|s| s.identifier == identifier).cloned());
                continue;
            }
        };
        statuses.push(ManifestStatus {
            identifier,
            status,
            health: Some(crate::interpreted::health(engine, &obj).await),
        });
    }
    // A successful apply of this generation is reported here, with the objects' statuses, in
    // one write (a failed one was written at once by the execution controller).
    let mut conditions = work.status.as_ref().and_then(|s| s.conditions.clone()).unwrap_or_default();
    let applied = engine.applied.succeeded(key, &work)
        && set_condition(
            &mut conditions,
            "Applied",
            true,
            "AppliedSuccessful",
            "Manifest has been successfully applied",
            work.metadata.generation,
        );
    if current == statuses && !applied {
        return unreadable.map_or(Ok(()), |e| Err(e.into()));
    }
    let api: Api<Work> = Api::namespaced(engine.client.clone(), &key.namespace);
    let mut patch = json!({"status": {"manifestStatuses": statuses}});
    if applied {
        patch["status"]["conditions"] = json!(conditions);
    }
    api.patch_status(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
    unreadable.map_or(Ok(()), |e| Err(e.into()))
}
