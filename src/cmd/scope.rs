//! Which server a kubectl-like command talks to: the Karmada control plane, or one member
//! cluster through the plane's cluster proxy (`--operation-scope members --cluster NAME`), as
//! upstream's `FactoryForMemberCluster` builds it: same credentials, the proxy's URL, and only
//! after `GET clusters/NAME` succeeded.

use std::time::Duration;

use karmadactl_karmada_api::cluster::Cluster;
use kube::Api;

use super::connection::KarmadaConnection;
use crate::error::UsageError;
use crate::kubeconfig::rules;

/// How long reaching the control plane may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one request may take (members answer through the plane's proxy).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// `--operation-scope` of the commands that act on one server: karmada or members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    #[default]
    Karmada,
    Members,
}

/// Parses `--operation-scope` with upstream's messages: `all` is a scope upstream knows but
/// these commands refuse.
pub fn parse_scope(s: &str) -> Result<Scope, String> {
    match s {
        "" | "karmada" => Ok(Scope::Karmada),
        "members" => Ok(Scope::Members),
        "all" => Err("not support operation scope: all".into()),
        other => Err(format!("not support OperationScope: {other}")),
    }
}

/// The scope and the member it names, checked as upstream's Validate does.
pub fn target(scope: Scope, cluster: Option<&str>) -> anyhow::Result<Option<String>> {
    match (scope, cluster.filter(|c| !c.is_empty())) {
        (Scope::Members, None) => Err(UsageError::with_hint(
            "must specify a member cluster",
            "add --cluster NAME; 'karmadactl get clusters' lists them.",
        )
        .into()),
        (Scope::Members, Some(c)) => Ok(Some(c.to_string())),
        (Scope::Karmada, _) => Ok(None),
    }
}

/// The control plane's client configuration from the kubeconfig flags.
pub async fn plane_config(connection: &KarmadaConnection) -> anyhow::Result<kube::Config> {
    let resolved = connection.resolve()?;
    let choice = rules::factory_context(connection.karmada_context.as_deref().unwrap_or_default());
    let loaded = super::connection::load(connection.kubeconfig.as_deref())?;
    let context = choice.as_deref().map(str::to_string).unwrap_or_else(|| resolved.context_name.clone());
    let options = kube::config::KubeConfigOptions { context: Some(context), ..Default::default() };
    let mut config = kube::Config::from_custom_kubeconfig(loaded.config().clone(), &options).await?;
    config.connect_timeout = Some(CONNECT_TIMEOUT);
    config.read_timeout = Some(REQUEST_TIMEOUT);
    Ok(config)
}

/// The member's client configuration: the plane's, pointed at its cluster proxy, once the
/// Cluster is known to exist (`clusters.cluster.karmada.io "NAME" not found` otherwise).
pub async fn member_config(plane: &kube::Config, cluster: &str) -> anyhow::Result<kube::Config> {
    let client = kube::Client::try_from(plane.clone())?;
    Api::<Cluster>::all(client).get(cluster).await.map_err(|e| match e {
        kube::Error::Api(s) => anyhow::anyhow!(s.message),
        other => anyhow::anyhow!(crate::error::with_causes(&other)),
    })?;
    let mut config = plane.clone();
    let base = plane.cluster_url.to_string();
    let proxy = format!("{}/apis/cluster.karmada.io/v1alpha1/clusters/{cluster}/proxy", base.trim_end_matches('/'));
    config.cluster_url = proxy.parse()?;
    Ok(config)
}

/// The client configuration for the scope's server.
pub async fn config_for(connection: &KarmadaConnection, member: Option<&str>) -> anyhow::Result<kube::Config> {
    let plane = plane_config(connection).await?;
    match member {
        Some(cluster) => member_config(&plane, cluster).await,
        None => Ok(plane),
    }
}
