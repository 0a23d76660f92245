//! `promote`: adopt an object that already runs in a member cluster into Karmada.

pub(crate) mod prepare;
mod steps;

use std::time::Duration;

use clap::{ArgAction, Args};

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;
use crate::kubeconfig::rules;

/// How long reaching a server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one request may take (members may answer through the plane's proxy).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

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
    let output = args.output.as_deref().map(crate::output::OutputFormat::parse_json_or_yaml).transpose()?;
    let resolved = args.karmada.resolve()?;
    let cluster = args.cluster.clone().unwrap_or_default();
    let member_choice = args.cluster_kubeconfig.as_deref().map(|path| {
        let choice = rules::promote_cluster_context(args.cluster_context.as_deref().unwrap_or_default(), &cluster);
        (path, choice)
    });
    if let Some((path, choice)) = &member_choice {
        super::connection::resolve(Some(path), choice)?;
    }
    let namespace = super::connection::effective_namespace(args.namespace.as_deref(), resolved.namespace.as_deref());
    let request = steps::Request {
        type_arg: args.args[0].clone(),
        name: args.args[1].clone(),
        namespace,
        cluster,
        dependencies: args.dependencies,
        auto_create_policy: args.auto_create_policy,
        policy_name: args.policy_name.clone(),
        output,
        dry_run: args.dry_run,
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let choice = rules::factory_context(args.karmada.karmada_context.as_deref().unwrap_or_default());
        let loaded = super::connection::load(args.karmada.kubeconfig.as_deref())?;
        let context = choice.as_deref().map(str::to_string).unwrap_or_else(|| resolved.context_name.clone());
        let plane = client_config(loaded.config().clone(), context).await?;
        let member = match &member_choice {
            Some((path, choice)) => {
                let loaded = super::connection::load(Some(path))?;
                let context = choice.as_deref().map(str::to_string).unwrap_or_default();
                steps::Member::Direct(Box::new(client_config(loaded.config().clone(), context).await?))
            }
            None => steps::Member::Proxy,
        };
        let mut out = |text: &str| {
            let _ = ctx.printer.data(text);
        };
        steps::run(plane, member, &request, &mut out, &mut |text| ctx.printer.warn(text)).await
    })
}

async fn client_config(kubeconfig: kube::config::Kubeconfig, context: String) -> anyhow::Result<kube::Config> {
    let options = kube::config::KubeConfigOptions { context: Some(context), ..Default::default() };
    let mut config = kube::Config::from_custom_kubeconfig(kubeconfig, &options).await?;
    config.connect_timeout = Some(CONNECT_TIMEOUT);
    config.read_timeout = Some(REQUEST_TIMEOUT);
    Ok(config)
}
