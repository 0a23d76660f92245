//! The embedded control plane has no host cluster to install addons into: what `addons` says
//! about each addon there, and how that plane is told apart from a Kubernetes API server.

use kube::Client;

use super::catalog::Addon;
use crate::cli::Context;
use crate::error::NotBuilt;

/// The STATUS `addons list` shows for every addon on the embedded plane.
pub const NOT_BUILT: &str = "not built";

/// Whether `client` talks to this tool's control plane with the Karmada API (not a simulated
/// member's plain Kubernetes API server, not a real kube-apiserver): it reports the `rustc`
/// compiler in `/version` and serves `cluster.karmada.io` itself. Any failure means no.
pub async fn is_embedded_plane(client: &Client) -> bool {
    let Ok(version) = client.apiserver_version().await else { return false };
    if version.compiler != "rustc" {
        return false;
    }
    client.list_api_groups().await.is_ok_and(|list| list.groups.iter().any(|g| g.name == "cluster.karmada.io"))
}

/// What the embedded plane has instead of `addon`.
pub fn instead(addon: Addon, parent: &str) -> String {
    match addon {
        Addon::Descheduler => "not built yet; nothing evicts replicas that became unschedulable in a member cluster".into(),
        Addon::MetricsAdapter => format!(
            "not built yet; members' pod and node metrics are read through the cluster proxy with '{parent} top pod|node -C <cluster>'"
        ),
        Addon::SchedulerEstimator => "not built yet; the scheduler estimates each cluster's free replicas from the Cluster's status.resourceSummary (upstream's general estimator)".into(),
        Addon::Search => format!(
            "not built yet; members' objects are read through the cluster proxy with '{parent} get <kind> -C <cluster>'"
        ),
    }
}

/// The lines explaining `addons` on the embedded plane at `server`, for the given addons.
pub fn explain(server: &str, addons: &[Addon], ctx: &Context) {
    ctx.printer.progress(&format!(
        "{server} is karmadactl's embedded control plane: addons are installed next to a control plane in a host cluster ('{} init'), and this plane runs none of them:",
        ctx.parent()
    ));
    for addon in addons {
        ctx.printer.progress(&format!("  {}: {}", addon.name(), instead(*addon, ctx.parent())));
    }
}

/// `enable` and `disable` on the embedded plane: every addon is explained and the command
/// exits 2, as commands that are not built do.
pub fn refuse(verb: &str, names: &[String], addons: &[Addon], server: &str, ctx: &Context) -> anyhow::Error {
    explain(server, addons, ctx);
    NotBuilt {
        command: format!("{} addons {verb} {}", ctx.parent(), names.join(" ")),
        instead: Some(format!(
            "nothing was changed; to run addons, install Karmada into a host cluster with '{} init' and point --kubeconfig at that cluster.",
            ctx.parent()
        )),
    }
    .into()
}
