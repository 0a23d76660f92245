//! `taint`: add, change or remove taints on member clusters.

use clap::Args;

use super::connection::KarmadaConnection;
use crate::cli::Context;

/// Update the taints on one or more clusters.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Update cluster 'foo' with a taint with key 'dedicated' and value 'special-user' and effect 'NoSchedule'\n  # If a taint with that key and effect already exists, its value is replaced as specified\n  karmadactl taint clusters foo dedicated=special-user:NoSchedule\n\n  # Remove from cluster 'foo' the taint with key 'dedicated' and effect 'NoSchedule' if one exists\n  karmadactl taint clusters foo dedicated:NoSchedule-\n\n  # Remove from cluster 'foo' all the taints with key 'dedicated'\n  karmadactl taint clusters foo dedicated-\n\n  # Add to cluster 'foo' a taint with key 'bar' and no value\n  karmadactl taint clusters foo bar:NoSchedule"
)]
pub struct TaintArgs {
    /// `clusters NAME... KEY=VALUE:EFFECT... [KEY:EFFECT-|KEY-]...`
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// Replace a taint that already exists with the same key and effect.
    #[arg(long)]
    pub overwrite: bool,

    /// Print what would change without changing it.
    #[arg(long)]
    pub dry_run: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: TaintArgs, ctx: &Context) -> anyhow::Result<()> {
    args.karmada.resolve()?;
    Err(super::not_built(ctx, "taint"))
}
