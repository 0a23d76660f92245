//! `addons list|enable|disable`: the optional components upstream installs next to a Karmada
//! control plane in a host cluster (karmada-descheduler, karmada-metrics-adapter,
//! karmada-scheduler-estimator per member cluster, karmada-search), rendered from upstream's
//! manifests and applied and removed the way host-mode `init` applies its own. Pointed at the
//! embedded control plane instead, every command says what that plane has in their place.

mod catalog;
mod disable;
mod embedded;
mod enable;
mod list;
mod manifests;
mod member;

use clap::{Args, Subcommand};
use karmadactl_karmada_api::wellknown::KARMADA_SYSTEM_NAMESPACE;
use kube::Client;

use crate::cli::Context;
use crate::cmd::connection::ClusterConnection;

pub use catalog::Addon;
pub use manifests::INSTALLED_BY_ADDONS;

/// Enable or disable a Karmada addon
#[derive(Debug, Args)]
#[command(
    subcommand_required = true,
    long_about = "Enable or disable a Karmada addon.\n\n These addons are currently supported: \n\n 1. karmada-descheduler\n 2. karmada-metrics-adapter\n 3. karmada-scheduler-estimator\n 4. karmada-search",
    after_help = "Examples:\n  # Enable or disable Karmada addons to the karmada-host cluster\n  karmadactl addons enable karmada-search"
)]
pub struct AddonsArgs {
    #[command(subcommand)]
    pub command: AddonsCommand,
}

#[derive(Debug, Subcommand)]
pub enum AddonsCommand {
    List(list::ListArgs),
    Enable(Box<enable::EnableArgs>),
    Disable(disable::DisableArgs),
}

/// The flags every addons subcommand shares: where the host cluster and the Karmada API server
/// are, the namespace of the components, and the member cluster of the scheduler estimator.
#[derive(Debug, Clone, Args)]
pub struct AddonsFlags {
    /// namespace where Karmada components are installed.
    #[arg(short = 'n', long, default_value = KARMADA_SYSTEM_NAMESPACE)]
    pub namespace: String,

    #[command(flatten)]
    pub host: ClusterConnection,

    /// Path to the karmada control plane kubeconfig file.
    #[arg(long, value_name = "PATH", default_value = "/etc/karmada/karmada-apiserver.config")]
    pub karmada_kubeconfig: String,

    /// The name of the karmada control plane kubeconfig context to use.
    #[arg(long, value_name = "CONTEXT")]
    pub karmada_context: Option<String>,

    /// Name of the member cluster that enables or disables the scheduler estimator.
    #[arg(short = 'C', long, value_name = "CLUSTER")]
    pub cluster: Option<String>,
}

impl AddonsFlags {
    /// `-C`, when given and not empty.
    pub fn cluster(&self) -> Option<&str> {
        self.cluster.as_deref().filter(|c| !c.is_empty())
    }
}

pub fn run(args: AddonsArgs, ctx: &Context) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    match args.command {
        AddonsCommand::List(a) => runtime.block_on(list::run(a, ctx)),
        AddonsCommand::Enable(a) => runtime.block_on(enable::run(*a, ctx)),
        AddonsCommand::Disable(a) => runtime.block_on(disable::run(a, ctx)),
    }
}

/// The clients upstream's `Complete` builds: the host cluster and the Karmada API server. Only
/// files are read here; nothing is contacted except to tell the embedded plane apart.
pub struct Clusters {
    pub host: Client,
    pub host_server: String,
    pub karmada: Client,
    pub karmada_server: String,
}

/// What the kubeconfigs point at.
pub enum Target {
    /// A host cluster with (presumably) a Karmada installed by `init`.
    Host(Box<Clusters>),
    /// The embedded control plane of this tool, at this server.
    Embedded(String),
}

/// Loads the host and Karmada kubeconfigs with upstream's errors, and tells whether either
/// points at the embedded control plane (checked first: its users have no host kubeconfig at
/// upstream's default path).
pub async fn connect(flags: &AddonsFlags) -> anyhow::Result<Target> {
    let host = crate::cmd::init::host::host_client(&flags.host).await;
    if let Ok((client, server)) = &host
        && embedded::is_embedded_plane(client).await
    {
        return Ok(Target::Embedded(server.clone()));
    }
    let (host, host_server) = host.map_err(|e| anyhow::anyhow!("failed to get karmada-host config. error: {e:#}"))?;
    let karmada_conn = ClusterConnection {
        kubeconfig: Some(flags.karmada_kubeconfig.clone()),
        context: flags.karmada_context.clone(),
    };
    let (karmada, karmada_server) = crate::cmd::init::host::host_client(&karmada_conn).await.map_err(|e| {
        anyhow::anyhow!(
            "failed to get karmada-apiserver config from {}. please use --karmada-kubeconfig to point the config file. \n error: {e:#}",
            flags.karmada_kubeconfig
        )
    })?;
    if embedded::is_embedded_plane(&karmada).await {
        return Ok(Target::Embedded(karmada_server));
    }
    Ok(Target::Host(Box::new(Clusters { host, host_server, karmada, karmada_server })))
}

/// What `addons enable|disable` take as arguments, for shell completion.
pub fn completion_names() -> Vec<String> {
    Addon::ALL.iter().map(|a| a.name().to_string()).chain(std::iter::once("all".to_string())).collect()
}

/// An API server's answer as client-go's error prints it (the Status message); other
/// failures with their causes.
pub fn server_message(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => s.message.clone(),
        other => crate::error::with_causes(other),
    }
}
