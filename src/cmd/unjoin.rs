//! `unjoin`: remove a Push-mode member cluster.

use clap::Args;

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;

/// Remove a cluster from Karmada control plane.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Unjoin cluster from karmada control plane, but not to remove resources created by karmada in the unjoining cluster\n  karmadactl unjoin CLUSTER_NAME\n\n  # Unjoin cluster from karmada control plane and attempt to remove resources created by karmada in the unjoining cluster\n  karmadactl unjoin CLUSTER_NAME --cluster-kubeconfig=<CLUSTER_KUBECONFIG>"
)]
pub struct UnjoinArgs {
    /// Name of the member cluster.
    #[arg(value_name = "CLUSTER_NAME")]
    pub names: Vec<String>,

    /// Namespace in the control plane where member cluster secrets are stored.
    #[arg(long, default_value = crate::wellknown::KARMADA_CLUSTER_NAMESPACE)]
    pub cluster_namespace: String,

    /// Context name of the cluster in the kubeconfig; empty means the context named like the cluster.
    #[arg(long, value_name = "CONTEXT")]
    pub cluster_context: Option<String>,

    /// Path of the cluster's kubeconfig; when empty, the member cluster is not cleaned up.
    #[arg(long, value_name = "PATH")]
    pub cluster_kubeconfig: Option<String>,

    /// Delete the cluster object even if its resources cannot be removed within --wait.
    #[arg(long)]
    pub force: bool,

    /// How long to wait for the cluster's resources to be removed, e.g. 1m0s.
    #[arg(long, default_value = "1m0s", value_name = "DURATION", allow_hyphen_values = true)]
    pub wait: String,

    /// Run the command in dry-run mode, without making any server requests.
    #[arg(long)]
    pub dry_run: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: UnjoinArgs, ctx: &Context) -> anyhow::Result<()> {
    let name = super::join::single_cluster_name(&args.names, ctx.parent(), "unjoin")?;
    positive_wait(&args.wait)?;
    args.karmada.resolve()?;
    if let Some(path) = args.cluster_kubeconfig.as_deref() {
        let choice = crate::kubeconfig::rules::unjoin_cluster_context(
            args.cluster_context.as_deref().unwrap_or_default(),
            &name,
        );
        super::connection::resolve(Some(path), &choice)?;
    }
    Err(super::not_built(ctx, "unjoin"))
}

/// `--wait` must be a positive duration (unjoin, unregister).
pub(crate) fn positive_wait(value: &str) -> anyhow::Result<std::time::Duration> {
    let signed: crate::duration::SignedGoDuration = value.parse().map_err(|e| {
        UsageError::with_hint(
            format!("invalid value \"{value}\" for --wait: {e}"),
            "durations are written as in Go, e.g. 30s, 5m0s, 1m0s.",
        )
    })?;
    let wait = signed.to_std().unwrap_or_default();
    if wait.is_zero() {
        return Err(UsageError::with_hint(
            format!("--wait {value} must be a positive duration, e.g. 1m0s"),
            "give --wait a duration greater than zero.",
        )
        .into());
    }
    Ok(wait)
}
