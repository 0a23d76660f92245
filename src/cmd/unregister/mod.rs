//! `unregister`: remove a Pull-mode member cluster and its agent.

mod plane_gone;
mod steps;

use clap::Args;

use super::connection::IgnoredKubeconfig;
use crate::cli::Context;
use crate::error::UsageError;

/// Remove a cluster registered in Pull mode from Karmada control plane.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Unregister cluster from karmada control plane\n  karmadactl unregister CLUSTER_NAME --cluster-kubeconfig=<CLUSTER_KUBECONFIG>\n\n  # Unregister cluster from karmada control plane with timeout\n  karmadactl unregister CLUSTER_NAME --cluster-kubeconfig=<CLUSTER_KUBECONFIG> --wait 2m"
)]
pub struct UnregisterArgs {
    /// Name of the member cluster.
    #[arg(value_name = "CLUSTER_NAME")]
    pub names: Vec<String>,

    /// Path of the member cluster's kubeconfig (required).
    #[arg(long, value_name = "PATH")]
    pub cluster_kubeconfig: Option<String>,

    /// Context in the member kubeconfig (default: the current context).
    #[arg(long, value_name = "CONTEXT")]
    pub cluster_context: Option<String>,

    /// Kubeconfig of the Karmada control plane (default: read it from the agent in the member).
    #[arg(long, value_name = "PATH")]
    pub karmada_config: Option<String>,

    /// Context in the Karmada kubeconfig.
    #[arg(long, value_name = "CONTEXT")]
    pub karmada_context: Option<String>,

    /// Namespace the karmada-agent runs in, in the member cluster.
    #[arg(short = 'n', long, default_value = karmadactl_karmada_api::wellknown::KARMADA_SYSTEM_NAMESPACE)]
    pub namespace: String,

    /// Name of the karmada-agent Deployment in the member cluster.
    #[arg(long, default_value = "karmada-agent")]
    pub agent_name: String,

    /// Namespace in the control plane where member cluster secrets are stored.
    #[arg(long, default_value = karmadactl_karmada_api::wellknown::KARMADA_CLUSTER_NAMESPACE)]
    pub cluster_namespace: String,

    /// How long to wait for the cluster's resources to be removed, e.g. 1m0s.
    #[arg(long, default_value = "1m0s", value_name = "DURATION", allow_hyphen_values = true)]
    pub wait: String,

    /// Check what would be removed without removing anything.
    #[arg(long)]
    pub dry_run: bool,

    /// Directory of a local agent started by 'register --agent-mode=local'
    /// [default: ~/.karmada/agents/<cluster>].
    #[arg(long, value_name = "PATH")]
    pub agent_dir: Option<std::path::PathBuf>,

    /// When the control plane cannot be reached, remove what is left on this machine and in the
    /// member (the local agent, its files, the agent's objects) without asking; the plane keeps
    /// its side.
    #[arg(long)]
    pub force: bool,

    #[command(flatten)]
    pub ignored: IgnoredKubeconfig,
}

pub fn run(args: UnregisterArgs, ctx: &Context) -> anyhow::Result<()> {
    if args.names.len() > 1 {
        return Err(UsageError::with_hint(
            "only the cluster name is allowed as an argument",
            format!("run '{} unregister --help' for usage.", ctx.parent()),
        )
        .into());
    }
    let name = args.names.first().map(String::as_str).unwrap_or_default();
    super::check_cluster_name(name)?;
    if args.cluster_kubeconfig.is_none() {
        return Err(UsageError::with_hint(
            "--cluster-kubeconfig is required to specify KUBECONFIG file path to access unregistering member cluster",
            "pass --cluster-kubeconfig=<path to the member's kubeconfig>.",
        )
        .into());
    }
    let wait = super::unjoin::positive_wait(&args.wait)?;
    let choice =
        crate::kubeconfig::rules::unregister_cluster_context(args.cluster_context.as_deref().unwrap_or_default());
    let member = super::connection::load(args.cluster_kubeconfig.as_deref())?;
    member.resolve(choice.as_deref())?;
    let karmada = match args.karmada_config.as_deref() {
        Some(path) => {
            let choice = crate::kubeconfig::rules::factory_context(args.karmada_context.as_deref().unwrap_or_default());
            let loaded = super::connection::load(Some(path))?;
            loaded.resolve(choice.as_deref())?;
            Some((loaded, choice))
        }
        None => None,
    };
    let opts = steps::UnregisterOptions {
        cluster_name: name.to_string(),
        namespace: args.namespace.clone(),
        agent_name: args.agent_name.clone(),
        cluster_namespace: args.cluster_namespace.clone(),
        wait,
        dry_run: args.dry_run,
        agent_dir: args.agent_dir.clone().unwrap_or_else(|| crate::pull::local_agent::default_dir(name)),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        use crate::membership::{Impersonation, Side, connect};
        let member = connect(Side::Member, &member, choice.as_deref(), &Impersonation::default()).await?;
        let explicit = match &karmada {
            Some((loaded, choice)) => {
                Some(connect(Side::Karmada, loaded, choice.as_deref(), &Impersonation::default()).await?)
            }
            None => None,
        };
        let plane_at = match &explicit {
            Some(c) => format!("at {} (from --karmada-config {})", c.target.server, c.target.kubeconfig),
            None => agent_plane(&opts),
        };
        let explicit = explicit.map(|c| c.client);
        let admin = explicit.is_some();
        // Reaching the member first gives errors that name it.
        crate::cmd::join::member_side::cluster_id(&member.client, &member.target).await?;
        let plane = steps::karmada_client(&member.client, explicit, &opts).await?;
        if let Some(why) = plane_gone::plane_unreachable(&plane).await {
            return unreachable(&member.client, &opts, &plane_at, &why, args.force, ctx).await;
        }
        let out = |line: &str| {
            let _ = ctx.printer.line(line);
        };
        steps::unregister(&member.client, &plane, admin, &opts, &out).await
    })
}

/// Where the agent's kubeconfig says the plane is, for messages.
fn agent_plane(opts: &steps::UnregisterOptions) -> String {
    let path = crate::pull::local_agent::kubeconfig_path(&opts.agent_dir);
    let server = crate::kubeconfig::read_file(&path)
        .ok()
        .flatten()
        .and_then(|k| k.clusters.into_iter().find_map(|c| c.cluster?.server));
    match server {
        Some(server) => format!("at {server} (from the local agent's kubeconfig {})", path.display()),
        None => format!(
            "named in the agent's kubeconfig (Secret {}/{} in the member)",
            opts.namespace,
            crate::pull::member_agent::KUBECONFIG_SECRET
        ),
    }
}

/// The plane is gone or down: say so, and with consent (`--force`, or a yes on a terminal)
/// remove what is left on this machine and in the member.
async fn unreachable(
    member: &kube::Client,
    opts: &steps::UnregisterOptions,
    plane_at: &str,
    why: &str,
    force: bool,
    ctx: &Context,
) -> anyhow::Result<()> {
    use std::io::IsTerminal as _;
    let name = &opts.cluster_name;
    let message = format!("cannot reach the Karmada control plane {plane_at}: {why}");
    let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !force && !terminal && !opts.dry_run {
        return Err(UsageError::with_hint(
            message,
            format!(
                "nothing was changed. Start the control plane and run this again; if it is gone for good, add --force \
                 to stop the local agent and remove cluster {name}'s agent from this machine and the member."
            ),
        )
        .into());
    }
    let local = plane_gone::LocalSide::find(member, opts).await?;
    if local.is_empty() {
        return Err(UsageError::with_hint(
            message,
            format!("nothing of cluster {name} is left on this machine or in the member; nothing was changed."),
        )
        .into());
    }
    ctx.printer.warn(&message);
    ctx.printer.progress("this will:");
    for step in local.steps() {
        ctx.printer.progress(&format!("  - {step}"));
    }
    ctx.printer.progress(&format!(
        "  (the control plane keeps its Cluster {name} and the agent's RBAC: it cannot be reached)"
    ));
    if opts.dry_run {
        return Ok(());
    }
    if !force {
        let yes = dialoguer::Confirm::new().with_prompt("Remove them?").default(false).interact()?;
        if !yes {
            ctx.printer.progress("nothing was changed");
            return Ok(());
        }
    }
    let out = |line: &str| {
        let _ = ctx.printer.line(line);
    };
    local.remove(member, &out).await
}
