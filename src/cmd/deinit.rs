//! `deinit`: remove a Karmada control plane installed by `init`.

use clap::Args;

use super::connection::ClusterConnection;
use crate::cli::Context;

/// Remove the Karmada control plane from the Kubernetes cluster.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Remove Karmada from the Kubernetes cluster.\n  karmadactl deinit\n\n  # Remove Karmada from the Kubernetes cluster without asking for confirmation.\n  karmadactl deinit --force"
)]
pub struct DeinitArgs {
    /// Namespace of the Karmada control plane components in the host cluster.
    #[arg(short = 'n', long, default_value = crate::wellknown::KARMADA_SYSTEM_NAMESPACE)]
    pub namespace: String,

    #[command(flatten)]
    pub host: ClusterConnection,

    /// Show the plan without deleting anything.
    #[arg(long)]
    pub dry_run: bool,

    /// Skip the confirmation prompt (required when there is no terminal to ask on).
    #[arg(short = 'f', long)]
    pub force: bool,

    /// Also delete the namespace the control plane ran in.
    #[arg(long)]
    pub purge_namespace: bool,
}

pub fn run(args: DeinitArgs, ctx: &Context) -> anyhow::Result<()> {
    args.host.resolve()?;
    Err(super::not_built(ctx, "deinit"))
}
