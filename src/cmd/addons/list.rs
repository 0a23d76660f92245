//! `addons list`: upstream's bordered table of every addon and its status in the host cluster
//! (`enabled`, `disabled`, `unhealthy`, or `unknown` for the estimator without `-C`).

use clap::Args;
use k8s_openapi::api::apps::v1::Deployment;
use kube::Api;
use kube::api::DynamicObject;

use super::catalog::Addon;
use super::{AddonsFlags, Clusters, Target, embedded, server_message};
use crate::cli::Context;
use crate::cmd::init::host::apply::api_resource;

/// List karmada addons from Kubernetes
#[derive(Debug, Args)]
#[command(
    long_about = "List Karmada addons from Kubernetes",
    after_help = "Examples:\n  # List Karmada all addons installed in Kubernetes cluster\n  karmadactl addons list\n\n  # List Karmada all addons included scheduler estimator of member1 installed in Kubernetes cluster\n  karmadactl addons list -C member1\n\n  # Specify the host cluster kubeconfig\n  karmadactl addons list --kubeconfig /root/.kube/config\n\n  # Specify the karmada control plane kubeconfig\n  karmadactl addons list --karmada-kubeconfig /etc/karmada/karmada-apiserver.config\n\n  # Specify the namespace where Karmada components are installed\n  karmadactl addons list --namespace karmada-system"
)]
pub struct ListArgs {
    #[command(flatten)]
    pub flags: AddonsFlags,
}

pub const ENABLED: &str = "enabled";
pub const DISABLED: &str = "disabled";
pub const UNHEALTHY: &str = "unhealthy";
pub const UNKNOWN: &str = "unknown";

pub async fn run(args: ListArgs, ctx: &Context) -> anyhow::Result<()> {
    let rows: Vec<Vec<String>> = match super::connect(&args.flags).await? {
        Target::Embedded(server) => {
            embedded::explain(&server, &Addon::ALL, ctx);
            Addon::ALL.iter().map(|a| vec![a.name().to_string(), embedded::NOT_BUILT.to_string()]).collect()
        }
        Target::Host(clusters) => {
            let mut rows = Vec::new();
            for addon in Addon::ALL {
                rows.push(vec![addon.name().to_string(), status(addon, &args.flags, &clusters).await?.to_string()]);
            }
            rows
        }
    };
    ctx.printer.data(&crate::output::bordered_table(&["Addon Name", "Status"], &rows))?;
    Ok(())
}

/// Upstream's status of one addon: its Deployment in the host namespace (all replicas ready and
/// available), then for the aggregated API servers their APIServices in Karmada (Available).
pub async fn status(addon: Addon, flags: &AddonsFlags, clusters: &Clusters) -> anyhow::Result<&'static str> {
    let cluster = match (addon, flags.cluster()) {
        (Addon::SchedulerEstimator, None) => return Ok(UNKNOWN),
        (_, cluster) => cluster.unwrap_or_default(),
    };
    let deployments: Api<Deployment> = Api::namespaced(clusters.host.clone(), &flags.namespace);
    let name = addon.workload_name(cluster);
    let Some(deployment) = deployments.get_opt(&name).await.map_err(|e| anyhow::anyhow!(server_message(&e)))? else {
        return Ok(DISABLED);
    };
    let status = deployment.status.unwrap_or_default();
    let replicas = status.replicas.unwrap_or(0);
    if replicas != status.ready_replicas.unwrap_or(0) || replicas != status.available_replicas.unwrap_or(0) {
        return Ok(UNHEALTHY);
    }
    for name in addon.api_services() {
        match api_service_available(&clusters.karmada, name).await? {
            None => return Ok(DISABLED),
            Some(false) => return Ok(UNHEALTHY),
            Some(true) => {}
        }
    }
    Ok(ENABLED)
}

/// Whether the APIService `name` exists (`None` if not) and has `Available=True`.
pub async fn api_service_available(karmada: &kube::Client, name: &str) -> anyhow::Result<Option<bool>> {
    let (ar, _) = api_resource("apiregistration.k8s.io/v1", "APIService").expect("a known kind");
    let api: Api<DynamicObject> = Api::all_with(karmada.clone(), &ar);
    let found = api.get_opt(name).await.map_err(|e| anyhow::anyhow!(server_message(&e)))?;
    Ok(found.map(|s| {
        s.data["status"]["conditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "Available" && c["status"] == "True"))
    }))
}
