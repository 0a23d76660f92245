//! Reports the member's status to its Cluster with the same probe and rules as the plane's
//! cluster status controller uses for Push members, through `clusters/status` updates (the
//! agent's role grants update, not patch).

use std::time::Instant;

use karmadactl_karmada_api::cluster::Cluster;
use kube::Client;
use kube::api::{Api, PostParams};

use super::AgentConfig;
use karmadactl_controllers::cluster::ClusterControllerConfig;
use karmadactl_controllers::cluster::probe::{Observation, next_status, observe_member};
use karmadactl_controllers::cluster::status::Debounce;

pub async fn report(plane: Client, member: Client, config: AgentConfig) {
    let clusters: Api<Cluster> = Api::all(plane);
    let probe = ClusterControllerConfig {
        status_update_frequency: config.status_update_frequency,
        ..ClusterControllerConfig::default()
    };
    let mut debounce = Debounce::default();
    let mut enablements: Option<(Instant, String, Vec<_>)> = None;
    let mut tick = tokio::time::interval(config.status_update_frequency);
    loop {
        tick.tick().await;
        let found = observe_member(&member, probe, &mut enablements).await;
        // A write that lost a race (the plane's controllers touch the Cluster too) is tried
        // again at once on the fresh object rather than a period later.
        for _ in 0..5 {
            match write(&clusters, &config.cluster_name, &found, &mut debounce, probe).await {
                Err(kube::Error::Api(e)) if e.code == 409 => continue,
                Err(e) => {
                    tracing::warn!(cluster = %config.cluster_name, error = %e, "reporting the cluster status failed")
                }
                Ok(()) => {}
            }
            break;
        }
    }
}

async fn write(
    clusters: &Api<Cluster>,
    name: &str,
    found: &Observation,
    debounce: &mut Debounce,
    probe: ClusterControllerConfig,
) -> Result<(), kube::Error> {
    let Some(mut cluster) = clusters.get_opt(name).await? else {
        tracing::warn!(cluster = %name, "the Cluster is gone from the control plane");
        return Ok(());
    };
    let Some(next) = next_status(&cluster, found, debounce, probe) else {
        return Ok(());
    };
    cluster.status = Some(next);
    clusters.replace_status(name, &PostParams::default(), &cluster).await.map(|_| ())
}
