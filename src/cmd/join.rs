//! `join`: register a member cluster in Push mode.

use clap::{ArgAction, Args};

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;

/// Register a cluster to Karmada control plane with Push mode.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Join cluster into karmada control plane, if '--cluster-context' not specified, take the cluster name as the context\n  karmadactl join CLUSTER_NAME --cluster-kubeconfig=<CLUSTER_KUBECONFIG>"
)]
pub struct JoinArgs {
    /// Name of the member cluster.
    #[arg(value_name = "CLUSTER_NAME")]
    pub names: Vec<String>,

    /// Namespace in the control plane (and the member) where member cluster secrets are stored.
    #[arg(long, default_value = crate::wellknown::KARMADA_CLUSTER_NAMESPACE)]
    pub cluster_namespace: String,

    /// Context name of the cluster in the kubeconfig; empty means the current context.
    #[arg(long, value_name = "CONTEXT")]
    pub cluster_context: Option<String>,

    /// Path of the cluster's kubeconfig (default: $KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub cluster_kubeconfig: Option<String>,

    #[command(flatten)]
    pub attributes: super::connection::ClusterAttributes,

    /// Username to impersonate for requests to the Karmada control plane.
    #[arg(long)]
    pub karmada_as: Option<String>,

    /// Group to impersonate for requests to the Karmada control plane; repeat for several groups.
    #[arg(long, action = ArgAction::Append)]
    pub karmada_as_group: Vec<String>,

    /// UID to impersonate for requests to the Karmada control plane.
    #[arg(long)]
    pub karmada_as_uid: Option<String>,

    /// Run the command in dry-run mode, without making any server requests.
    #[arg(long)]
    pub dry_run: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// Checks the positional arguments as upstream does; shared by join and unjoin.
pub(crate) fn single_cluster_name(names: &[String], parent: &str, cmd: &str) -> anyhow::Result<String> {
    match names {
        [] => Err(UsageError::with_hint(
            "cluster name is required",
            format!("name the cluster: '{parent} {cmd} CLUSTER_NAME'; run '{parent} {cmd} --help' for usage."),
        )
        .into()),
        [name] => {
            super::check_cluster_name(name)?;
            Ok(name.clone())
        }
        _ => Err(UsageError::with_hint(
            "only the cluster name is allowed as an argument",
            format!("run '{parent} {cmd} --help' for usage."),
        )
        .into()),
    }
}

pub fn run(args: JoinArgs, ctx: &Context) -> anyhow::Result<()> {
    let _name = single_cluster_name(&args.names, ctx.parent(), "join")?;
    if args.cluster_namespace == crate::wellknown::KARMADA_SYSTEM_NAMESPACE {
        ctx.printer.warn("karmada-system is always reserved for Karmada control plane. We do not recommend using karmada-system to store secrets of member clusters. It may cause mistaken cleanup of resources.");
    }
    args.karmada.resolve()?;
    let member_context =
        crate::kubeconfig::rules::join_cluster_context(args.cluster_context.as_deref().unwrap_or_default());
    super::connection::resolve(args.cluster_kubeconfig.as_deref(), &member_context)?;
    Err(super::not_built(ctx, "join"))
}
