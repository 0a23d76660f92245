//! Flags that say which API server a command talks to. Upstream has two conventions: commands
//! that act on Karmada (`--kubeconfig` + `--karmada-context`) and commands that act on a host
//! or member cluster directly (`--kubeconfig` + `--context`).

use clap::Args;

/// The Karmada control plane, as get, join, token, cordon and promote reach it.
#[derive(Debug, Clone, Default, Args)]
pub struct KarmadaConnection {
    /// Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then
    /// ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<String>,

    /// The name of the kubeconfig context to use for the Karmada control plane (default: the
    /// current context).
    #[arg(long, value_name = "CONTEXT")]
    pub karmada_context: Option<String>,
}

/// A host or member cluster reached directly, as init, deinit and register do.
#[derive(Debug, Clone, Default, Args)]
pub struct ClusterConnection {
    /// Path to the kubeconfig file of the cluster (default: $KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<String>,

    /// The name of the kubeconfig context to use (default: the current context).
    #[arg(long, value_name = "CONTEXT")]
    pub context: Option<String>,
}

/// Where a joining cluster is (join and register copy these into the Cluster's spec).
#[derive(Debug, Clone, Default, Args)]
pub struct ClusterAttributes {
    /// Provider of the joining cluster (spec.provider).
    #[arg(long)]
    pub cluster_provider: Option<String>,

    /// Region of the joining cluster (spec.region).
    #[arg(long)]
    pub cluster_region: Option<String>,

    /// Zones of the joining cluster, comma-separated (spec.zones).
    #[arg(long, value_delimiter = ',')]
    pub cluster_zones: Vec<String>,
}

/// Upstream registers `--kubeconfig` globally, so even commands that do not use it accept it
/// (`karmadactl --kubeconfig=x version`). Hidden, and ignored, on those commands.
#[derive(Debug, Clone, Default, Args)]
pub struct IgnoredKubeconfig {
    #[arg(long, hide = true, value_name = "PATH")]
    pub kubeconfig: Option<String>,
}

use crate::kubeconfig::{ContextChoice, LoadRules, LoadedKubeconfig, ResolvedContext, rules};

/// Loads kubeconfig files by kubectl's rules, with `path` as the `--kubeconfig`-style override.
pub fn load(path: Option<&str>) -> anyhow::Result<LoadedKubeconfig> {
    Ok(LoadRules::from_env().with_explicit_path(path.unwrap_or_default()).load()?)
}

/// Loads and resolves one context in one step.
pub fn resolve(path: Option<&str>, choice: &ContextChoice) -> anyhow::Result<ResolvedContext> {
    Ok(load(path)?.resolve(choice.as_deref())?)
}

impl KarmadaConnection {
    /// The Karmada control plane's server, CA and credentials, from local files only.
    pub fn resolve(&self) -> anyhow::Result<ResolvedContext> {
        let choice = rules::factory_context(self.karmada_context.as_deref().unwrap_or_default());
        resolve(self.kubeconfig.as_deref(), &choice)
    }

    /// A client for the Karmada control plane, with join's timeouts and error classification.
    pub async fn connect(&self) -> anyhow::Result<crate::membership::Connection> {
        use crate::membership::{Impersonation, Side};
        let choice = rules::factory_context(self.karmada_context.as_deref().unwrap_or_default());
        let loaded = load(self.kubeconfig.as_deref())?;
        crate::membership::connect(Side::Karmada, &loaded, choice.as_deref(), &Impersonation::default()).await
    }
}

impl ClusterConnection {
    /// The host or member cluster's server, CA and credentials, from local files only.
    pub fn resolve(&self) -> anyhow::Result<ResolvedContext> {
        let choice = rules::host_context(self.context.as_deref().unwrap_or_default());
        resolve(self.kubeconfig.as_deref(), &choice)
    }
}

/// The namespace a command works in: `-n` when given, else the kubeconfig context's, else
/// `default`, as kubectl chooses it.
pub fn effective_namespace(flag: Option<&str>, from_context: Option<&str>) -> String {
    flag.filter(|n| !n.is_empty()).or(from_context.filter(|n| !n.is_empty())).unwrap_or("default").to_string()
}
