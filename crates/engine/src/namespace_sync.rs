//! The namespace sync controller (upstream's `pkg/controllers/namespace`): every namespace of the plane (but Karmada's own, `default` and `kube-*`)
//! exists in every member, through one Work per cluster, so that namespaced templates have
//! somewhere to land without a policy for their namespace.

use std::collections::BTreeMap;
use std::sync::Arc;

use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams};
use kube::runtime::reflector::ObjectRef;
use serde_json::json;

use super::binding::ensure_work;
use super::context::Engine;
use super::names;
use karmadactl_apimachinery::new_uid;

pub async fn reconcile(engine: &Arc<Engine>, name: &str) -> Result<(), kube::Error> {
    let work_name = names::work_name("Namespace", name, "");
    // Works this sync made for a namespace of this name: it labels them, and only them.
    let existing: Vec<Arc<Work>> = engine.work_index.namespace_sync(&engine.caches.works, &work_name);
    let ns = engine.caches.namespaces.get(&ObjectRef::new(name));
    // A namespace a ClusterPropagationPolicy claimed goes where that policy says, through its
    // own binding, not to every member.
    let wanted = ns.as_ref().filter(|n| {
        n.metadata.deletion_timestamp.is_none()
            && !names::is_skipped_for_namespace_sync(name)
            && !n.labels().contains_key(names::CPP_PERMANENT_ID_LABEL)
    });
    let Some(ns) = wanted else {
        for w in existing.iter().filter(|w| w.metadata.deletion_timestamp.is_none()) {
            let api: Api<Work> = Api::namespaced(engine.client.clone(), &w.namespace().unwrap_or_default());
            match api.delete(&w.name_any(), &DeleteParams::default()).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
        return Ok(());
    };
    let uid = ns.uid().unwrap_or_default();
    let mut labels: BTreeMap<String, String> = ns.labels().clone();
    labels.remove("kubernetes.io/metadata.name");
    for cluster in engine.caches.clusters.state() {
        if cluster.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let es = wellknown::execution_space(&cluster.name_any());
        let current = existing.iter().find(|w| w.namespace().as_deref() == Some(es.as_str()));
        let work_id =
            current.and_then(|w| w.labels().get(names::WORK_PERMANENT_ID_LABEL).cloned()).unwrap_or_else(new_uid);
        let mut manifest_labels = labels.clone();
        manifest_labels.insert(wellknown::LABEL_KARMADA_MANAGED.into(), "true".into());
        manifest_labels.insert(names::WORK_PERMANENT_ID_LABEL.into(), work_id.clone());
        let manifest = json!({
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {
                "name": name,
                "labels": manifest_labels,
                "annotations": {
                    names::WORK_NAME_ANNOTATION: work_name,
                    names::WORK_NAMESPACE_ANNOTATION: es,
                    // Members often have the namespace already; it is taken over, as upstream does.
                    names::CONFLICT_RESOLUTION_ANNOTATION: "overwrite",
                },
            },
        });
        let work_labels = BTreeMap::from([
            (names::NAMESPACE_SYNC_LABEL.to_string(), uid.clone()),
            (names::WORK_PERMANENT_ID_LABEL.to_string(), work_id),
        ]);
        let spec = json!({"workload": {"manifests": [manifest]}});
        ensure_work(engine, &es, &work_name, work_labels, BTreeMap::new(), spec, current.map(|w| w.as_ref())).await?;
    }
    Ok(())
}
