//! The FederatedResourceQuota controllers (upstream's `pkg/controllers/federatedresourcequota`):
//! the sync controller turns each static assignment into a Work carrying a ResourceQuota named
//! like the federated quota, in its namespace, for the assigned cluster, and deletes the Works
//! of clusters dropped from the list or of a deleted quota; the status controller ([`status`])
//! collects those ResourceQuotas' status back from the Works.
//!
//! A Work is the quota's only when it carries both of upstream's labels naming the quota and the
//! name this controller gives such Works; no other Work is ever deleted here.
//! Enforcing `spec.overall` is admission's job (the API server's `federated_quota` admission).

mod status;

use std::collections::BTreeMap;
use std::sync::Arc;

use karmadactl_apimachinery::new_uid;
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::quota::{FederatedResourceQuota, QUOTA_NAME_LABEL, QUOTA_NAMESPACE_LABEL};
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams};
use kube::runtime::reflector::ObjectRef;
use serde_json::json;

use crate::binding::ensure_work;
use crate::context::Engine;
use crate::error::ReconcileError;
use crate::names;

/// A FederatedResourceQuota's queue key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QuotaKey {
    pub namespace: String,
    pub name: String,
}

impl QuotaKey {
    fn of_work(w: &Work) -> Option<Self> {
        let labels = w.labels();
        Some(Self {
            namespace: labels.get(QUOTA_NAMESPACE_LABEL)?.clone(),
            name: labels.get(QUOTA_NAME_LABEL)?.clone(),
        })
    }
}

/// A quota changed or went: it is synced again.
pub fn on_quota(engine: &Arc<Engine>, quota: &FederatedResourceQuota, _deleted: bool) {
    engine
        .queues
        .federated_quota
        .add(QuotaKey { namespace: quota.namespace().unwrap_or_default(), name: quota.name_any() });
}

/// A quota's Work changed (its status is collected) or went (it is made again if still wanted).
pub fn on_work(engine: &Arc<Engine>, work: &Work) {
    if let Some(key) = QuotaKey::of_work(work) {
        engine.queues.federated_quota.add(key);
    }
}

/// A cluster joined: the quotas that assign it something get their Work.
pub fn on_cluster(engine: &Arc<Engine>, cluster: &Cluster) {
    let name = cluster.name_any();
    for quota in engine.caches.federated_quotas.state() {
        if quota.spec.static_assignments.iter().any(|a| a.cluster_name == name) {
            on_quota(engine, &quota, false);
        }
    }
}

/// The name of the Work carrying a quota's ResourceQuota (the same in every execution space).
fn work_name(key: &QuotaKey) -> String {
    names::work_name("ResourceQuota", &key.name, &key.namespace)
}

/// The Works that belong to the quota: upstream's two labels and this controller's name.
fn owned_works(engine: &Engine, key: &QuotaKey) -> Vec<Arc<Work>> {
    let name = work_name(key);
    engine
        .caches
        .works
        .state()
        .into_iter()
        .filter(|w| w.name_any() == name && QuotaKey::of_work(w).as_ref() == Some(key))
        .collect()
}

pub async fn reconcile(engine: &Arc<Engine>, key: &QuotaKey) -> Result<(), ReconcileError> {
    let works = owned_works(engine, key);
    let quota = engine.caches.federated_quotas.get(&ObjectRef::new(&key.name).within(&key.namespace));
    let Some(quota) = quota.filter(|q| q.metadata.deletion_timestamp.is_none()) else {
        // The quota is gone: so are its ResourceQuotas in the members.
        return delete_works(engine, works.iter().map(|w| w.as_ref())).await;
    };
    let assigned: BTreeMap<String, _> =
        quota.spec.static_assignments.iter().map(|a| (wellknown::execution_space(&a.cluster_name), a)).collect();
    // Works of clusters no longer assigned anything (upstream's orphan works).
    let orphans = works.iter().filter(|w| !assigned.contains_key(&w.namespace().unwrap_or_default()));
    delete_works(engine, orphans.map(|w| w.as_ref())).await?;
    let name = work_name(key);
    for cluster in engine.caches.clusters.state() {
        let es = wellknown::execution_space(&cluster.name_any());
        let Some(assignment) = assigned.get(&es) else { continue };
        if cluster.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let current = works.iter().find(|w| w.namespace().as_deref() == Some(es.as_str()));
        let work_id =
            current.and_then(|w| w.labels().get(names::WORK_PERMANENT_ID_LABEL).cloned()).unwrap_or_else(new_uid);
        let manifest = json!({
            "apiVersion": "v1",
            "kind": "ResourceQuota",
            "metadata": {
                "name": key.name,
                "namespace": key.namespace,
                "labels": {
                    wellknown::LABEL_KARMADA_MANAGED: "true",
                    names::WORK_PERMANENT_ID_LABEL: work_id,
                },
                "annotations": {
                    names::WORK_NAME_ANNOTATION: name,
                    names::WORK_NAMESPACE_ANNOTATION: es,
                },
            },
            "spec": {"hard": assignment.hard},
        });
        let labels = BTreeMap::from([
            (QUOTA_NAMESPACE_LABEL.to_string(), key.namespace.clone()),
            (QUOTA_NAME_LABEL.to_string(), key.name.clone()),
            (names::WORK_PERMANENT_ID_LABEL.to_string(), work_id),
        ]);
        let spec = json!({"workload": {"manifests": [manifest]}});
        ensure_work(engine, &es, &name, labels, BTreeMap::new(), spec, current.map(|w| w.as_ref())).await?;
    }
    status::collect(engine, &quota, &works).await
}

async fn delete_works<'a>(engine: &Engine, works: impl Iterator<Item = &'a Work>) -> Result<(), ReconcileError> {
    for w in works.filter(|w| w.metadata.deletion_timestamp.is_none()) {
        let api: Api<Work> = Api::namespaced(engine.client.clone(), &w.namespace().unwrap_or_default());
        match api.delete(&w.name_any(), &DeleteParams::default()).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 404 => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}
