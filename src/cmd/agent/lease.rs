//! The cluster Lease (`karmada-cluster/<cluster>`), renewed as upstream karmada-agent renews
//! it: the plane reads a stale Lease as an agent that stopped.

use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, OwnerReference};
use kube::api::{Api, ObjectMeta, PostParams};
use kube::{Client, Resource, ResourceExt};

use karmadactl_karmada_api::cluster::Cluster;

/// Where the plane looks for cluster Leases (upstream's `NamespaceClusterLease`).
pub const LEASE_NAMESPACE: &str = karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE;

/// Renews forever, four times per lease duration; failures are logged and retried on the next tick.
pub async fn renew(plane: Client, cluster: Cluster, duration: Duration) {
    let leases: Api<Lease> = Api::namespaced(plane, LEASE_NAMESPACE);
    let mut tick = tokio::time::interval((duration / 4).max(Duration::from_millis(100)));
    loop {
        tick.tick().await;
        if let Err(e) = renew_once(&leases, &cluster, duration).await {
            tracing::warn!(cluster = %cluster.name_any(), error = %e, "renewing the cluster lease failed");
        }
    }
}

async fn renew_once(leases: &Api<Lease>, cluster: &Cluster, duration: Duration) -> Result<(), kube::Error> {
    let name = cluster.name_any();
    let now = MicroTime(jiff::Timestamp::now());
    let seconds = i32::try_from(duration.as_secs()).unwrap_or(i32::MAX).max(1);
    match leases.get_opt(&name).await? {
        Some(mut lease) => {
            let spec = lease.spec.get_or_insert_with(Default::default);
            spec.renew_time = Some(now);
            spec.holder_identity = Some(name.clone());
            spec.lease_duration_seconds = Some(seconds);
            leases.replace(&name, &PostParams::default(), &lease).await?;
        }
        None => {
            // Owned by the Cluster, so the Lease goes with it.
            let owner = OwnerReference {
                api_version: Cluster::api_version(&()).into_owned(),
                kind: Cluster::kind(&()).into_owned(),
                name: name.clone(),
                uid: cluster.uid().unwrap_or_default(),
                ..Default::default()
            };
            let lease = Lease {
                metadata: ObjectMeta {
                    name: Some(name.clone()),
                    namespace: Some(LEASE_NAMESPACE.into()),
                    owner_references: Some(vec![owner]),
                    ..Default::default()
                },
                spec: Some(LeaseSpec {
                    holder_identity: Some(name.clone()),
                    lease_duration_seconds: Some(seconds),
                    renew_time: Some(now),
                    ..Default::default()
                }),
            };
            leases.create(&PostParams::default(), &lease).await?;
        }
    }
    Ok(())
}
