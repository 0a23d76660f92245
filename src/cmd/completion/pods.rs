//! Pod and container names for `exec`, `attach` and `logs`, read live from the server the
//! command would reach: the member `-C` names (through the plane's cluster proxy) for `logs`,
//! and for `exec`/`attach` with `-s members`; the plane otherwise. The namespace is `-n`'s,
//! else the kubeconfig context's, else `default`. Bounded and silent like every lookup.

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use kube::api::ListParams;

use super::values::{Connection, bounded};
use crate::cmd::connection::{KarmadaConnection, effective_namespace};

/// The most pod names offered: a prompt has no use for more, and the list stays small.
const MAX_PODS: u32 = 500;

/// The server the command at `path` reaches: a member's name, or `None` for the plane;
/// `Err` when it reaches no server without more flags (`logs` without `-C`).
fn member(path: &[String], conn: &Connection) -> Result<Option<String>, ()> {
    let cluster = conn.cluster.clone().filter(|c| !c.is_empty());
    match path.first().map(String::as_str) {
        Some("logs") => cluster.map(Some).ok_or(()),
        _ if conn.operation_scope.as_deref() == Some("members") => cluster.map(Some).ok_or(()),
        _ => Ok(None),
    }
}

/// A client for that server and the namespace to look in.
async fn connect(conn: &Connection, member: Option<&str>) -> Option<(kube::Client, String)> {
    let plane =
        KarmadaConnection { kubeconfig: conn.kubeconfig.clone(), karmada_context: conn.karmada_context.clone() };
    let resolved = plane.resolve().ok()?;
    let namespace = effective_namespace(conn.namespace.as_deref(), resolved.namespace.as_deref());
    let config = crate::cmd::scope::config_for(&plane, member).await.ok()?;
    Some((kube::Client::try_from(config).ok()?, namespace))
}

/// Names of the pods in the namespace, sorted.
pub fn pod_names(path: &[String], conn: &Connection) -> Vec<String> {
    let Ok(member) = member(path, conn) else { return Vec::new() };
    bounded(async move {
        let (client, namespace) = connect(conn, member.as_deref()).await?;
        let list =
            Api::<Pod>::namespaced(client, &namespace).list(&ListParams::default().limit(MAX_PODS)).await.ok()?;
        let mut names: Vec<String> = list.items.into_iter().filter_map(|p| p.metadata.name).collect();
        names.sort();
        Some(names)
    })
    .unwrap_or_default()
}

/// The init and regular containers of the pod named first on the command line, in the pod's
/// order (as kubectl completes `-c`).
pub fn container_names(path: &[String], conn: &Connection) -> Vec<String> {
    let Ok(member) = member(path, conn) else { return Vec::new() };
    let Some(pod) = conn.first_positional.clone().filter(|p| !p.is_empty() && !p.contains('/')) else {
        return Vec::new();
    };
    bounded(async move {
        let (client, namespace) = connect(conn, member.as_deref()).await?;
        let pod = Api::<Pod>::namespaced(client, &namespace).get(&pod).await.ok()?;
        let spec = pod.spec?;
        let init = spec.init_containers.unwrap_or_default().into_iter().map(|c| c.name);
        Some(init.chain(spec.containers.into_iter().map(|c| c.name)).collect())
    })
    .unwrap_or_default()
}
