//! kube clients for the two sides of a membership, built from kubeconfig contexts with bounded
//! timeouts, so a cluster that is down makes the command fail instead of hang.

use std::fmt;
use std::time::Duration;

use crate::kubeconfig::{EntryKind, LoadedKubeconfig};

use super::errors::MembershipError;

/// Connecting must not take longer than this.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Nor may any single request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Which cluster a client talks to; messages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Karmada,
    Member,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Karmada => "Karmada control plane",
            Self::Member => "member cluster",
        })
    }
}

/// Where a client connects, as messages show it: the side, the kubeconfig file, the server
/// URL and the user entry.
#[derive(Debug, Clone)]
pub struct Target {
    pub side: Side,
    pub kubeconfig: String,
    pub server: String,
    pub user: String,
}

/// Impersonation for requests to Karmada (`--karmada-as`, `--karmada-as-group`, `--karmada-as-uid`).
#[derive(Debug, Clone, Default)]
pub struct Impersonation {
    pub user: Option<String>,
    pub groups: Vec<String>,
    pub uid: Option<String>,
}

/// A connected side: the client and how to describe it.
#[derive(Clone)]
pub struct Connection {
    pub client: kube::Client,
    pub target: Target,
    /// The context's cluster settings (server, insecure flag, proxy), as join copies them.
    pub cluster: crate::kubeconfig::ResolvedCluster,
}

/// Builds a client for `context` (`None`: the current one) of a loaded kubeconfig.
pub async fn connect(
    side: Side,
    loaded: &LoadedKubeconfig,
    context: Option<&str>,
    impersonation: &Impersonation,
) -> Result<Connection, anyhow::Error> {
    let resolved = loaded.resolve(context)?;
    let kubeconfig = loaded
        .origin(EntryKind::Cluster, &resolved.cluster_name)
        .or_else(|| loaded.files().first().map(|p| p.as_path()))
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "the kubeconfig".into());
    let target = Target {
        side,
        kubeconfig,
        server: resolved.cluster.server.clone(),
        user: resolved.user_name.clone().unwrap_or_else(|| "(anonymous)".into()),
    };
    let options =
        kube::config::KubeConfigOptions { context: Some(resolved.context_name.clone()), ..Default::default() };
    let mut config = kube::Config::from_custom_kubeconfig(loaded.config().clone(), &options)
        .await
        .map_err(|e| MembershipError::Client(target.clone(), e.to_string()))?;
    config.connect_timeout = Some(CONNECT_TIMEOUT);
    config.read_timeout = Some(REQUEST_TIMEOUT);
    config.write_timeout = Some(REQUEST_TIMEOUT);
    // The read timeout counts from the request, not from when a pooled connection went idle.
    config.reset_reader_on_write = true;
    if impersonation.user.is_some() {
        config.auth_info.impersonate = impersonation.user.clone();
    }
    if !impersonation.groups.is_empty() {
        config.auth_info.impersonate_groups = Some(impersonation.groups.clone());
    }
    if impersonation.uid.is_some() {
        config.auth_info.impersonate_uid = impersonation.uid.clone();
    }
    let client = kube::Client::try_from(config).map_err(|e| MembershipError::Client(target.clone(), e.to_string()))?;
    Ok(Connection { client, target, cluster: resolved.cluster })
}
