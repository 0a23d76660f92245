//! Which context each command uses when its context flag is empty (upstream's per-command rules).

use kube::config::Kubeconfig;

use super::KubeconfigError;
use super::resolve::{ResolvedCluster, context_cluster, find_context, resolve_cluster};

/// Which context of a kubeconfig to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContextChoice {
    /// The kubeconfig's `current-context`.
    Current,
    /// The context with this name.
    Named(String),
}

impl ContextChoice {
    /// A context flag's value: empty means the current context.
    pub fn from_flag(flag: &str) -> Self {
        if flag.is_empty() { Self::Current } else { Self::Named(flag.to_string()) }
    }

    /// The form [`resolve`](super::resolve) takes: `None` for the current context.
    pub fn as_deref(&self) -> Option<&str> {
        match self {
            Self::Current => None,
            Self::Named(name) => Some(name),
        }
    }
}

/// Factory commands (get, join, unjoin, token, cordon, taint, promote, …) and `--karmada-context`:
/// empty means the current context.
pub fn factory_context(karmada_context: &str) -> ContextChoice {
    ContextChoice::from_flag(karmada_context)
}

/// Commands that reach a host or member cluster with `--context` (init, deinit, register,
/// unregister, addons): empty means the current context.
pub fn host_context(context: &str) -> ContextChoice {
    ContextChoice::from_flag(context)
}

/// `join --cluster-context`: empty means the member kubeconfig's current context (not the
/// context named like the cluster; upstream quirk 6, kept).
pub fn join_cluster_context(cluster_context: &str) -> ContextChoice {
    ContextChoice::from_flag(cluster_context)
}

/// `unregister --cluster-context`: empty means the current context.
pub fn unregister_cluster_context(cluster_context: &str) -> ContextChoice {
    ContextChoice::from_flag(cluster_context)
}

/// `unjoin --cluster-context`: empty means the context named like the cluster (upstream quirk 6, kept).
pub fn unjoin_cluster_context(cluster_context: &str, cluster_name: &str) -> ContextChoice {
    named_or_cluster(cluster_context, cluster_name)
}

/// `promote --cluster-context`: empty means the context named like the cluster (as unjoin).
pub fn promote_cluster_context(cluster_context: &str, cluster_name: &str) -> ContextChoice {
    named_or_cluster(cluster_context, cluster_name)
}

fn named_or_cluster(cluster_context: &str, cluster_name: &str) -> ContextChoice {
    if cluster_context.is_empty() {
        ContextChoice::Named(cluster_name.to_string())
    } else {
        ContextChoice::Named(cluster_context.to_string())
    }
}

/// Default of `register --cluster-name`: the name of the **cluster entry** of the chosen
/// context (not the context's own name).
///
/// Deliberate fix of upstream quirk 8: upstream always uses the current-context and ignores
/// `--context`, so registering with `--context other` would name the Karmada cluster after a
/// different member. Here the same context that the command connects to is used; with an
/// empty `--context` both behave the same.
pub fn register_default_cluster_name(kc: &Kubeconfig, context: &ContextChoice) -> Result<String, KubeconfigError> {
    let (name, ctx) = find_context(kc, context.as_deref())?;
    if ctx.cluster.is_empty() {
        return Err(KubeconfigError::ClusterNotSpecified { context: name.to_string() });
    }
    Ok(ctx.cluster.clone())
}

/// The server and CA that `token create --print-register-command` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterTarget {
    /// The cluster entry used (`""` for the unnamed cluster of a cluster-info kubeconfig).
    pub cluster_name: String,
    /// Its connection settings.
    pub cluster: ResolvedCluster,
}

/// Picks the cluster for `token create --print-register-command`, as upstream does: the
/// unnamed cluster (`clusters[""]`) if one exists, else the cluster of `--karmada-context`,
/// else that of the current context.
///
/// Upstream reads the file named by `--kubeconfig` literally, so the command fails without
/// the flag even when `KUBECONFIG` is set (quirk 10). Callers pass the kubeconfig from the
/// normal loader instead, which fixes that. Unlike upstream, a `--karmada-context` that does
/// not exist is an error rather than an empty result.
pub fn register_command_cluster(
    kc: &Kubeconfig,
    karmada_context: &ContextChoice,
) -> Result<RegisterTarget, KubeconfigError> {
    if let Some(unnamed) = kc.clusters.iter().find(|c| c.name.is_empty()) {
        let cluster = resolve_cluster("", &unnamed.cluster.clone().unwrap_or_default())?;
        return Ok(RegisterTarget { cluster_name: String::new(), cluster });
    }
    let (context_name, ctx) = find_context(kc, karmada_context.as_deref())?;
    let (cluster_name, cluster) = context_cluster(kc, context_name, ctx)?;
    Ok(RegisterTarget { cluster_name: cluster_name.to_string(), cluster: resolve_cluster(cluster_name, &cluster)? })
}
