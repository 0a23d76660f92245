//! Taints that follow a cluster's Ready condition, as karmada-controller-manager's cluster
//! controller sets them: `cluster.karmada.io/not-ready:NoSchedule` while Ready is False and
//! `cluster.karmada.io/unreachable:NoSchedule` while it is Unknown, so the scheduler places
//! nothing new on an unhealthy member without any scheduler rule of its own.

use k8s_openapi::api::core::v1::Taint;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;

use karmadactl_karmada_api::cluster::Cluster;

pub const NOT_READY: &str = "cluster.karmada.io/not-ready";
pub const UNREACHABLE: &str = "cluster.karmada.io/unreachable";

/// The condition taint the cluster should carry, if any.
fn wanted(cluster: &Cluster) -> Option<&'static str> {
    let ready = cluster.status.as_ref()?.conditions.as_ref()?.iter().find(|c| c.type_ == "Ready")?;
    match ready.status.as_str() {
        "False" => Some(NOT_READY),
        "Unknown" => Some(UNREACHABLE),
        _ => None,
    }
}

/// The taint list with exactly the wanted condition taint among the two; `None` if unchanged.
pub fn desired(cluster: &Cluster) -> Option<Vec<Taint>> {
    let want = wanted(cluster);
    let current = cluster.spec.taints.clone().unwrap_or_default();
    let is_condition = |t: &Taint| t.effect == "NoSchedule" && (t.key == NOT_READY || t.key == UNREACHABLE);
    let have: Vec<&str> = current.iter().filter(|t| is_condition(t)).map(|t| t.key.as_str()).collect();
    if have == want.into_iter().collect::<Vec<_>>() {
        return None;
    }
    let mut taints: Vec<Taint> = current.into_iter().filter(|t| !is_condition(t)).collect();
    if let Some(key) = want {
        taints.push(Taint {
            key: key.into(),
            effect: "NoSchedule".into(),
            time_added: Some(Time(jiff::Timestamp::now())),
            value: None,
        });
    }
    Some(taints)
}

/// Writes the taints, conditional on the version read so a concurrent change (a user's
/// `karmadactl taint`) is never overwritten.
pub async fn reconcile(clusters: &Api<Cluster>, cluster: &Cluster) -> Result<(), kube::Error> {
    let Some(taints) = desired(cluster) else {
        return Ok(());
    };
    let patch = json!({
        "metadata": {"resourceVersion": cluster.metadata.resource_version},
        "spec": {"taints": taints},
    });
    match clusters.patch(&cluster.name_any(), &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => Ok(()),
        // Read again at the next probe.
        Err(kube::Error::Api(e)) if e.code == 409 => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;

    use super::*;
    use karmadactl_karmada_api::cluster::{ClusterSpec, ClusterStatus, ClusterSyncMode};

    fn cluster(ready: &str, taints: Vec<(&str, &str)>) -> Cluster {
        let mut c = Cluster::new("m", serde_json::from_value::<ClusterSpec>(json!({"syncMode": "Push"})).unwrap());
        assert_eq!(c.spec.sync_mode, ClusterSyncMode::Push);
        c.spec.taints = Some(
            taints.into_iter().map(|(k, e)| Taint { key: k.into(), effect: e.into(), ..Default::default() }).collect(),
        );
        c.status = Some(ClusterStatus {
            conditions: Some(vec![Condition {
                type_: "Ready".into(),
                status: ready.into(),
                reason: "x".into(),
                message: String::new(),
                last_transition_time: Time(jiff::Timestamp::now()),
                observed_generation: None,
            }]),
            ..Default::default()
        });
        c
    }

    fn keys(t: Option<Vec<Taint>>) -> Option<Vec<String>> {
        t.map(|t| t.into_iter().map(|t| format!("{}:{}", t.key, t.effect)).collect())
    }

    #[test]
    fn not_ready_and_unreachable_taints_follow_the_condition_and_keep_others() {
        let user = ("team", "NoExecute");
        assert_eq!(
            keys(desired(&cluster("False", vec![user]))),
            Some(vec!["team:NoExecute".into(), format!("{NOT_READY}:NoSchedule")])
        );
        assert_eq!(
            keys(desired(&cluster("Unknown", vec![(NOT_READY, "NoSchedule")]))),
            Some(vec![format!("{UNREACHABLE}:NoSchedule")])
        );
        assert_eq!(
            keys(desired(&cluster("True", vec![user, (NOT_READY, "NoSchedule")]))),
            Some(vec!["team:NoExecute".into()])
        );
        assert_eq!(desired(&cluster("True", vec![user])), None);
        assert_eq!(desired(&cluster("False", vec![(NOT_READY, "NoSchedule")])), None);
    }
}
