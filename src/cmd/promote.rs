//! `promote`: adopt an object that already runs in a member cluster into Karmada.

use clap::{ArgAction, Args};

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;

/// Promote resources from legacy clusters to Karmada control plane.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Promote deployment(default/nginx) from cluster1 to Karmada\n  karmadactl promote deployment nginx -n default -C cluster1\n\n  # Promote deployment(default/nginx) with gvk apps/v1/Deployment from cluster1 to Karmada\n  karmadactl promote deployment.v1.apps nginx -n default -C cluster1\n\n  # Dumps the artifacts but does not deploy them to Karmada, same as 'dry run'\n  karmadactl promote deployment nginx -n default -C cluster1 -o yaml|json\n\n  # Promote secret(default/default-token) from cluster1 to Karmada\n  karmadactl promote secret default-token -n default -C cluster1\n\n  # Support to use '--dry-run' to print resource and policy that need to be deployed\n  karmadactl promote deployment nginx -n default -C cluster1 --dry-run\n\n  # Promote deployment(default/nginx) with dependencies from cluster1 to Karmada\n  karmadactl promote deployment nginx -n default -C cluster1 -d"
)]
pub struct PromoteArgs {
    /// RESOURCE_TYPE RESOURCE_NAME
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// The member cluster the resource is promoted from.
    #[arg(short = 'C', long)]
    pub cluster: Option<String>,

    /// Kubeconfig of the member cluster (default: reach it through the control plane's proxy).
    #[arg(long, value_name = "PATH")]
    pub cluster_kubeconfig: Option<String>,

    /// Context in the member kubeconfig (default: the context named like the cluster).
    #[arg(long, value_name = "CONTEXT")]
    pub cluster_context: Option<String>,

    /// Also promote the resources it depends on (ConfigMaps, Secrets, ServiceAccounts, PVCs).
    #[arg(short = 'd', long)]
    pub dependencies: bool,

    /// Create a PropagationPolicy (or ClusterPropagationPolicy) pinning the resource to the cluster.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub auto_create_policy: bool,

    /// Name of the created policy (default: generated from the resource's name and kind).
    #[arg(long)]
    pub policy_name: Option<String>,

    /// Print the resource and policy instead of creating them: json or yaml.
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// Print what would be created without creating it.
    #[arg(long)]
    pub dry_run: bool,

    /// The namespace of the resource (default: the kubeconfig's namespace, else default).
    #[arg(short = 'n', long)]
    pub namespace: Option<String>,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: PromoteArgs, ctx: &Context) -> anyhow::Result<()> {
    if args.args.len() != 2 {
        return Err(UsageError::with_hint(
            "incorrect command format, please use correct command format",
            format!("run '{} promote <RESOURCE_TYPE> <RESOURCE_NAME> -n <NAMESPACE> -C <CLUSTER>'.", ctx.parent()),
        )
        .into());
    }
    if args.cluster.as_deref().unwrap_or_default().is_empty() {
        return Err(
            UsageError::with_hint("the cluster cannot be empty", "name the member cluster with -C <cluster>.").into()
        );
    }
    if let Some(o) = &args.output {
        crate::output::OutputFormat::parse_json_or_yaml(o)?;
    }
    args.karmada.resolve()?;
    if let (Some(path), Some(cluster)) = (args.cluster_kubeconfig.as_deref(), args.cluster.as_deref()) {
        let choice = crate::kubeconfig::rules::promote_cluster_context(
            args.cluster_context.as_deref().unwrap_or_default(),
            cluster,
        );
        super::connection::resolve(Some(path), &choice)?;
    }
    Err(super::not_built(ctx, "promote"))
}
