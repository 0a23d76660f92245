//! `join`: register a member cluster in Push mode.

pub mod member_side;
pub mod plane_side;

use clap::{ArgAction, Args};

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::UsageError;
use crate::kubeconfig::rules;
use crate::membership::{Impersonation, Side, connect};
use member_side::MemberOptions;
use plane_side::Registration;

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
    #[arg(long, default_value = karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE)]
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
    let name = single_cluster_name(&args.names, ctx.parent(), "join")?;
    if args.cluster_namespace == karmadactl_karmada_api::wellknown::KARMADA_SYSTEM_NAMESPACE {
        ctx.printer.warn("karmada-system is always reserved for Karmada control plane. We do not recommend using karmada-system to store secrets of member clusters. It may cause mistaken cleanup of resources.");
    }
    // Everything local is checked before any cluster is contacted.
    let plane_choice = rules::factory_context(args.karmada.karmada_context.as_deref().unwrap_or_default());
    let plane_kubeconfig = super::connection::load(args.karmada.kubeconfig.as_deref())?;
    plane_kubeconfig.resolve(plane_choice.as_deref())?;
    let member_choice = rules::join_cluster_context(args.cluster_context.as_deref().unwrap_or_default());
    let member_kubeconfig = super::connection::load(args.cluster_kubeconfig.as_deref())?;
    member_kubeconfig.resolve(member_choice.as_deref())?;
    let impersonation = Impersonation {
        user: args.karmada_as.clone().filter(|s| !s.is_empty()),
        groups: args.karmada_as_group.clone(),
        uid: args.karmada_as_uid.clone().filter(|s| !s.is_empty()),
    };
    let progress = |line: &str| {
        if ctx.printer.stderr_is_tty() {
            ctx.printer.progress(line);
        }
    };

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let plane = connect(Side::Karmada, &plane_kubeconfig, plane_choice.as_deref(), &impersonation).await?;
        let member =
            connect(Side::Member, &member_kubeconfig, member_choice.as_deref(), &Impersonation::default()).await?;
        // The member is asked first: a member that cannot be reached or refuses the credentials
        // fails the command before the plane is touched.
        // A member that never answers takes the whole request timeout: show the wait on a
        // terminal (only there: upstream prints nothing, and scripts read its output).
        let waiting = ctx
            .printer
            .stderr_is_tty()
            .then(|| ctx.printer.spinner(&format!("contacting member cluster {name} at {}", member.cluster.server)));
        let cluster_id = member_side::cluster_id(&member.client, &member.target).await;
        if let Some(spinner) = waiting {
            spinner.abandon();
        }
        let cluster_id = cluster_id?;
        progress(&format!("member cluster {name} has ID {cluster_id}"));
        let attributes = &args.attributes;
        let registration = Registration {
            cluster_name: name.clone(),
            namespace: args.cluster_namespace.clone(),
            cluster_id,
            api_endpoint: member.cluster.server.clone(),
            insecure_skip_tls_verification: member.cluster.insecure_skip_tls_verify,
            proxy_url: member.cluster.proxy_url.clone(),
            provider: attributes.cluster_provider.clone(),
            region: attributes.cluster_region.clone(),
            zones: attributes.cluster_zones.iter().filter(|z| !z.is_empty()).cloned().collect(),
        };
        plane_side::check_not_registered(&plane.client, &plane.target, &registration).await?;
        let options = MemberOptions {
            cluster_name: name.clone(),
            namespace: args.cluster_namespace.clone(),
            dry_run: args.dry_run,
            token_timeout: member_side::TOKEN_TIMEOUT,
        };
        let result = member_side::ensure_all(&member.client, &member.target, &options, &progress).await?;
        let Some(credentials) = result.credentials else {
            let mut plan = result.plan;
            plan.extend(plane_side::plan(&plane.client, &plane.target, &registration).await?);
            for line in plan {
                ctx.printer.line(&line.to_string())?;
            }
            return Ok(());
        };
        plane_side::register(&plane.client, &plane.target, &registration, &credentials, &progress).await?;
        ctx.printer.line(&format!("cluster({name}) is joined successfully"))?;
        Ok::<_, anyhow::Error>(())
    })
}
