//! Live and fixed values the completion engine offers: cluster names from the control plane,
//! contexts from the kubeconfig, resource kinds from discovery (pods and containers in `pods`). Every lookup is bounded by a
//! short timeout and silent on failure: a completion never prints an error into the prompt.

use std::time::Duration;

use karmadactl_karmada_api::cluster::Cluster;
use kube::Api;
use kube::api::ListParams;

use crate::cmd::connection::{KarmadaConnection, load};

/// How long one completion may wait for the control plane.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(2);

/// `get -s` values.
pub const SCOPES: &[&str] = &["karmada", "members", "all"];

/// Offered for `get`'s first argument when discovery cannot be reached.
const COMMON_KINDS: &[&str] = &[
    "clusters",
    "clusterpropagationpolicies",
    "configmaps",
    "cronjobs",
    "daemonsets",
    "deployments",
    "ingresses",
    "jobs",
    "namespaces",
    "nodes",
    "overridepolicies",
    "persistentvolumeclaims",
    "pods",
    "propagationpolicies",
    "replicasets",
    "resourcebindings",
    "secrets",
    "serviceaccounts",
    "services",
    "statefulsets",
    "works",
];

/// The connection flags already typed on the command line.
#[derive(Debug, Default)]
pub struct Connection {
    pub kubeconfig: Option<String>,
    pub karmada_context: Option<String>,
    cluster_kubeconfig: Option<String>,
    /// `-n`, `-C` and `-s`: where `exec`, `attach` and `logs` look for pods.
    pub namespace: Option<String>,
    pub cluster: Option<String>,
    pub operation_scope: Option<String>,
    /// The first positional argument (a pod, for `-c`'s containers).
    pub first_positional: Option<String>,
}

impl Connection {
    /// Notes a typed option value that says where the plane or a member is.
    pub fn record(&mut self, id: &str, value: String) {
        match id {
            "kubeconfig" => self.kubeconfig = Some(value),
            "karmada_context" => self.karmada_context = Some(value),
            "cluster_kubeconfig" => self.cluster_kubeconfig = Some(value),
            "namespace" => self.namespace = Some(value),
            "cluster" => self.cluster = Some(value),
            "operation_scope" => self.operation_scope = Some(value),
            _ => {}
        }
    }
}

/// `-o` values: `get` prints like kubectl get; the other commands write manifests.
pub fn output_formats(path: &[String]) -> Vec<String> {
    let formats: &[&str] = match path.first().map(String::as_str) {
        Some("get" | "api-resources") => &["json", "yaml", "wide", "name"],
        Some("label" | "annotate" | "apply" | "patch" | "create" | "edit") => &["json", "yaml", "name"],
        Some("delete") => &["name"],
        Some("explain") => &["plaintext"],
        _ => &["json", "yaml"],
    };
    formats.iter().map(|s| s.to_string()).collect()
}

/// Context names from the kubeconfig the command would read (`--cluster-kubeconfig` for the
/// member-side `--cluster-context`, else `--kubeconfig`, else kubectl's default files).
pub fn contexts(conn: &Connection, arg_id: &str) -> Vec<String> {
    let path = match arg_id {
        "cluster_context" => conn.cluster_kubeconfig.as_deref().or(conn.kubeconfig.as_deref()),
        _ => conn.kubeconfig.as_deref(),
    };
    let Ok(loaded) = load(path) else { return Vec::new() };
    let mut names: Vec<String> = loaded.config().contexts.iter().map(|c| c.name.clone()).collect();
    names.sort();
    names
}

/// Names of the Cluster objects in the control plane, or nothing if it cannot be reached.
pub fn cluster_names(conn: &Connection) -> Vec<String> {
    let plane =
        KarmadaConnection { kubeconfig: conn.kubeconfig.clone(), karmada_context: conn.karmada_context.clone() };
    bounded(async move {
        let client = plane.connect().await.ok()?.client;
        let list = Api::<Cluster>::all(client).list(&ListParams::default()).await.ok()?;
        let mut names: Vec<String> = list.items.into_iter().filter_map(|c| c.metadata.name).collect();
        names.sort();
        Some(names)
    })
    .unwrap_or_default()
}

/// Plural resource names the control plane serves, or a fixed list of common kinds offline.
pub fn resource_kinds(conn: &Connection) -> Vec<String> {
    let plane =
        KarmadaConnection { kubeconfig: conn.kubeconfig.clone(), karmada_context: conn.karmada_context.clone() };
    let found = bounded(async move {
        let client = plane.connect().await.ok()?.client;
        let mut names: Vec<String> = Vec::new();
        let core = client.list_core_api_resources("v1").await.ok()?;
        names.extend(core.resources.into_iter().map(|r| r.name));
        for group in client.list_api_groups().await.ok()?.groups {
            let Some(version) = group.preferred_version.or_else(|| group.versions.into_iter().next()) else {
                continue;
            };
            if let Ok(list) = client.list_api_group_resources(&version.group_version).await {
                names.extend(list.resources.into_iter().map(|r| r.name));
            }
        }
        names.retain(|n| !n.contains('/'));
        names.sort();
        names.dedup();
        Some(names)
    });
    found.filter(|n| !n.is_empty()).unwrap_or_else(|| COMMON_KINDS.iter().map(|s| s.to_string()).collect())
}

/// Runs a lookup on a private runtime, giving up after [`LOOKUP_TIMEOUT`].
pub(super) fn bounded<T>(lookup: impl Future<Output = Option<T>>) -> Option<T> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
    runtime.block_on(async { tokio::time::timeout(LOOKUP_TIMEOUT, lookup).await.ok().flatten() })
}
