//! `agent`: the Pull-mode agent built into this binary, run beside one member cluster.

mod lease;
mod registration;
mod status;
mod tasks;

pub use registration::RegistrationError;
pub use tasks::AgentConfig;

use std::time::Duration;

use clap::Args;

use super::connection::{ClusterAttributes, ClusterConnection};
use crate::cli::Context;
use crate::error::UsageError;
use crate::kubeconfig::{LoadRules, LoadedKubeconfig, rules};

/// Run the Pull-mode agent for one member cluster in the foreground (what 'register
/// --agent-mode=local' starts in the background).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Run the agent for member1 with the credentials register obtained\n  karmadactl agent --karmada-kubeconfig ~/.karmada/agents/member1/karmada-agent.config --cluster-name member1 --kubeconfig member1.config"
)]
pub struct AgentArgs {
    /// Kubeconfig of the Karmada control plane with the agent's credentials.
    #[arg(long, value_name = "PATH")]
    pub karmada_kubeconfig: String,

    /// Context in --karmada-kubeconfig (default: its current context).
    #[arg(long, value_name = "CONTEXT")]
    pub karmada_context: Option<String>,

    #[command(flatten)]
    pub member: ClusterConnection,

    /// Name of the member cluster in the control plane.
    #[arg(long)]
    pub cluster_name: String,

    /// The member's API endpoint written to the Cluster (default: the server of the member's kubeconfig).
    #[arg(long)]
    pub cluster_api_endpoint: Option<String>,

    #[command(flatten)]
    pub attributes: ClusterAttributes,

    /// How often the member's status is reported to the control plane.
    #[arg(long, default_value = "10s", value_name = "DURATION")]
    pub cluster_status_update_frequency: String,

    /// How long the cluster Lease holds without renewal (renewed four times per duration).
    #[arg(long, default_value = "40s", value_name = "DURATION")]
    pub cluster_lease_duration: String,
}

pub fn run(args: AgentArgs, ctx: &Context) -> anyhow::Result<()> {
    super::check_cluster_name(&args.cluster_name)?;
    let frequency = positive("cluster-status-update-frequency", &args.cluster_status_update_frequency)?;
    let lease_duration = positive("cluster-lease-duration", &args.cluster_lease_duration)?;
    let plane = LoadRules::from_env().with_explicit_path(&args.karmada_kubeconfig).load()?;
    let member = super::connection::load(args.member.kubeconfig.as_deref())?;
    let member_choice = rules::host_context(args.member.context.as_deref().unwrap_or_default());
    let member_context = member.resolve(member_choice.as_deref())?;
    let config = AgentConfig {
        cluster_name: args.cluster_name.clone(),
        api_endpoint: args.cluster_api_endpoint.clone().unwrap_or_else(|| member_context.cluster.server.clone()),
        provider: args.attributes.cluster_provider.clone(),
        region: args.attributes.cluster_region.clone(),
        zones: args.attributes.cluster_zones.clone(),
        status_update_frequency: frequency,
        lease_duration,
    };
    super::controlplane::init_tracing(ctx.global.verbosity.max(1));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let plane = client(&plane, args.karmada_context.as_deref()).await?;
        let member = client(&member, Some(&member_context.context_name)).await?;
        ctx.printer.progress(&format!("karmada agent for cluster {} started", args.cluster_name));
        tasks::run(plane, member, config, super::controlplane::wait_for_signal()).await
    })
}

fn positive(flag: &str, value: &str) -> anyhow::Result<Duration> {
    let d = super::parse_duration(flag, value)?;
    if d.is_zero() {
        return Err(UsageError::with_hint(format!("--{flag} must be longer than zero"), "e.g. 10s.").into());
    }
    Ok(d)
}

/// A client without a read timeout: the agent's watches stay open for minutes.
async fn client(loaded: &LoadedKubeconfig, context: Option<&str>) -> anyhow::Result<kube::Client> {
    let resolved = loaded.resolve(context)?;
    let options =
        kube::config::KubeConfigOptions { context: Some(resolved.context_name.clone()), ..Default::default() };
    let mut config = kube::Config::from_custom_kubeconfig(loaded.config().clone(), &options).await?;
    config.connect_timeout = Some(crate::membership::connect::CONNECT_TIMEOUT);
    Ok(kube::Client::try_from(config)?)
}
