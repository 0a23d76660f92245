//! The FederatedResourceQuota status controller (upstream's
//! `federated_resource_quota_status_controller`): each applied Work's collected ResourceQuota
//! status becomes the cluster's entry in `status.aggregatedStatus` (sorted by cluster),
//! `status.overall` repeats `spec.overall`, and `status.overallUsed` adds up the clusters'
//! `used`. The status is written only when it changed.

use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity as KubeQuantity;
use karmadactl_apimachinery::quantity::Quantity;
use karmadactl_apimachinery::resource_list::{self, ResourceList as Sums};
use karmadactl_karmada_api::policy::quota::{
    ClusterQuotaStatus, FederatedResourceQuota, FederatedResourceQuotaStatus, ResourceList,
};
use karmadactl_karmada_api::work::Work;
use kube::ResourceExt;
use kube::api::{Api, PostParams};
use serde_json::Value;

use crate::context::Engine;
use crate::error::ReconcileError;
use crate::names;

/// Writes the quota's status from its Works, when it differs from the stored one.
pub async fn collect(
    engine: &Engine,
    quota: &FederatedResourceQuota,
    works: &[Arc<Work>],
) -> Result<(), ReconcileError> {
    let status = aggregate(quota, works);
    if quota.status.as_ref() == Some(&status) {
        return Ok(());
    }
    let mut updated = quota.clone();
    updated.status = Some(status);
    let api: Api<FederatedResourceQuota> =
        Api::namespaced(engine.client.clone(), &quota.namespace().unwrap_or_default());
    // A conflict means the quota changed meanwhile; its event queues it again.
    match api.replace_status(&quota.name_any(), &PostParams::default(), &updated).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// The status the quota's Works add up to.
pub fn aggregate(quota: &FederatedResourceQuota, works: &[Arc<Work>]) -> FederatedResourceQuotaStatus {
    let mut clusters: Vec<ClusterQuotaStatus> = works
        .iter()
        .filter(|w| w.metadata.deletion_timestamp.is_none() && applied(w))
        .filter_map(|w| {
            let cluster = names::cluster_of_execution_space(&w.namespace()?)?.to_string();
            let collected = w.status.as_ref()?.manifest_statuses.as_ref()?.first()?.status.clone()?;
            Some(ClusterQuotaStatus {
                cluster_name: cluster,
                hard: kube_list(collected.get("hard")),
                used: kube_list(collected.get("used")),
            })
        })
        .collect();
    clusters.sort_by(|a, b| a.cluster_name.cmp(&b.cluster_name));
    let mut used = Sums::new();
    for c in &clusters {
        used = resource_list::add(&used, &sums(&c.used));
    }
    FederatedResourceQuotaStatus {
        overall: quota.spec.overall.clone(),
        overall_used: used.into_iter().map(|(k, q)| (k, KubeQuantity(q.to_string()))).collect(),
        aggregated_status: clusters,
    }
}

/// Whether the Work's `Applied` condition is True, as upstream requires before it reads the
/// collected status.
fn applied(w: &Work) -> bool {
    let conditions = w.status.as_ref().and_then(|s| s.conditions.as_ref());
    conditions.is_some_and(|cs| cs.iter().any(|c| c.type_ == "Applied" && c.status == "True"))
}

/// A collected list kept as the member wrote it (quantities that do not parse are left out).
fn kube_list(value: Option<&Value>) -> ResourceList {
    let Some(map) = value.and_then(Value::as_object) else { return ResourceList::new() };
    map.iter()
        .filter_map(|(k, v)| {
            let text = v.as_str()?;
            Quantity::parse(text).ok()?;
            Some((k.clone(), KubeQuantity(text.to_string())))
        })
        .collect()
}

fn sums(list: &ResourceList) -> Sums {
    list.iter().filter_map(|(k, q)| Some((k.clone(), Quantity::parse(&q.0).ok()?))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn work(cluster: &str, applied: bool, status: Value) -> Arc<Work> {
        let cond = if applied { "True" } else { "False" };
        Arc::new(
            serde_json::from_value(json!({
                "apiVersion": "work.karmada.io/v1alpha1", "kind": "Work",
                "metadata": {"name": "q-x", "namespace": format!("karmada-es-{cluster}")},
                "spec": {},
                "status": {
                    "conditions": [{"type": "Applied", "status": cond, "reason": "r", "message": "",
                        "lastTransitionTime": "2026-01-01T00:00:00Z"}],
                    "manifestStatuses": [{"identifier": {"ordinal": 0, "version": "v1", "kind": "ResourceQuota",
                        "name": "q", "namespace": "ns", "resource": "resourcequotas"}, "status": status}],
                },
            }))
            .unwrap(),
        )
    }

    #[test]
    fn clusters_sorted_and_used_added_up() {
        let quota: FederatedResourceQuota = serde_json::from_value(json!({
            "apiVersion": "policy.karmada.io/v1alpha1", "kind": "FederatedResourceQuota",
            "metadata": {"name": "q", "namespace": "ns"},
            "spec": {"overall": {"pods": "10"}},
        }))
        .unwrap();
        let works = vec![
            work("m2", true, json!({"hard": {"pods": "4"}, "used": {"pods": "3"}})),
            work("m1", true, json!({"hard": {"pods": "6"}, "used": {"pods": "2", "cpu": "500m"}})),
            work("m3", false, json!({"hard": {"pods": "1"}, "used": {"pods": "1"}})),
        ];
        let status = serde_json::to_value(aggregate(&quota, &works)).unwrap();
        assert_eq!(
            status,
            json!({
                "overall": {"pods": "10"},
                "overallUsed": {"cpu": "500m", "pods": "5"},
                "aggregatedStatus": [
                    {"clusterName": "m1", "hard": {"pods": "6"}, "used": {"cpu": "500m", "pods": "2"}},
                    {"clusterName": "m2", "hard": {"pods": "4"}, "used": {"pods": "3"}},
                ],
            })
        );
    }
}
