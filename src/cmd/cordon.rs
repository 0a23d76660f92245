//! `cordon` / `uncordon`: mark a member cluster unschedulable, or schedulable again.

use clap::Args;
use karmadactl_karmada_api::cluster::Cluster;
use kube::Api;

use super::connection::KarmadaConnection;
use super::taint::{edit, write};
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
    run(&args, Desired::Cordoned, ctx)
}

pub fn run_uncordon(args: UncordonArgs, ctx: &Context) -> anyhow::Result<()> {
    run(&args.inner, Desired::Uncordoned, ctx)
}

#[derive(Clone, Copy)]
enum Desired {
    Cordoned,
    Uncordoned,
}

fn run(args: &CordonArgs, desired: Desired, ctx: &Context) -> anyhow::Result<()> {
    let name = one_cluster(&args.names)?.to_string();
    args.karmada.resolve()?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let changed = runtime.block_on(async {
        let plane = args.karmada.connect().await?;
        let api: Api<Cluster> = Api::all(plane.client.clone());
        let cluster = write::get(&api, &plane.target, &name).await?;
        // Decided again on every attempt: if another client cordoned the cluster meanwhile,
        // this run has nothing left to do.
        write::write_edit(&api, &plane.target, cluster, args.dry_run, |c| {
            let taints = write::taints_of(c);
            let edit = match desired {
                Desired::Cordoned => edit::cordon(taints),
                Desired::Uncordoned => edit::uncordon(taints),
            };
            let changed = edit.is_some();
            Ok((edit, changed))
        })
        .await
    })?;
    // Upstream's lines, also under --dry-run.
    let word = match desired {
        Desired::Cordoned => "cordoned",
        Desired::Uncordoned => "uncordoned",
    };
    let already = if changed { "" } else { "already " };
    ctx.printer.line(&format!("{name} cluster {already}{word}"))?;
    Ok(())
}
