//! `cordon` / `uncordon`: mark a member cluster unschedulable, or schedulable again.

use clap::Args;

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;

/// Mark cluster as unschedulable.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  # Mark cluster \"foo\" as unschedulable.\n  karmadactl cordon foo")]
pub struct CordonArgs {
    /// Name of the member cluster.
    #[arg(value_name = "CLUSTER_NAME")]
    pub names: Vec<String>,

    /// Print what would change without changing it.
    #[arg(long)]
    pub dry_run: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// Mark cluster as schedulable.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  # Mark cluster \"foo\" as schedulable.\n  karmadactl uncordon foo")]
pub struct UncordonArgs {
    #[command(flatten)]
    pub inner: CordonArgs,
}

fn one_cluster(names: &[String]) -> anyhow::Result<&str> {
    match names {
        [] => Err(UsageError::with_hint("cluster name is required", "name the cluster to act on.").into()),
        [name] => Ok(name),
        _ => Err(UsageError::with_hint(
            "more than one cluster name is not supported",
            "run the command once per cluster.",
        )
        .into()),
    }
}

pub fn run_cordon(args: CordonArgs, ctx: &Context) -> anyhow::Result<()> {
    one_cluster(&args.names)?;
    args.karmada.resolve()?;
    Err(super::not_built(ctx, "cordon"))
}

pub fn run_uncordon(args: UncordonArgs, ctx: &Context) -> anyhow::Result<()> {
    one_cluster(&args.inner.names)?;
    args.inner.karmada.resolve()?;
    Err(super::not_built(ctx, "uncordon"))
}
