//! In-process member clusters: plain Kubernetes API servers (the `--profile kubernetes` server
//! `controlplane serve` runs for a simulated member, without the workload simulator) started
//! through the library on loopback, so 100 of them fit in one process on a small machine.
//! They only store objects: no controller makes ReplicaSets or Pods for a Deployment.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, DeleteParams, ListParams};

use karmadactl_apiserver::{Profile, ServerConfig};
use karmadactl_plane::{Plane, PlaneConfig, start};

pub struct Member {
    pub name: String,
    pub kubeconfig: PathBuf,
    pub client: kube::Client,
    pub plane: Plane,
}

/// Starts the member `name` with its data under `dir`, as `controlplane serve --profile
/// kubernetes --kubeconfig-context <name> --listen 127.0.0.1:0` would.
pub async fn start_member(name: &str, dir: &Path) -> anyhow::Result<Member> {
    let listen: SocketAddr = "127.0.0.1:0".parse()?;
    let mut config = ServerConfig::new(dir.to_path_buf(), listen);
    config.profile = Profile::Kubernetes;
    config.kubeconfig_context = name.to_string();
    let plane = start(PlaneConfig::new(config)).await.with_context(|| format!("starting member {name}"))?;
    let kubeconfig = plane.server.admin_kubeconfig.clone();
    let client = karmadactl::local_plane::client::admin_client(&kubeconfig)
        .await
        .with_context(|| format!("client for member {name}"))?;
    Ok(Member { name: name.to_string(), kubeconfig, client, plane })
}

/// The Deployments in `namespace` of a member, counted from a LIST of one item and its
/// `remainingItemCount`: polling 100 members every second with full LISTs took CPU the
/// plane and members share with this process, and grew with the number of objects.
pub async fn count(client: &kube::Client, namespace: &str) -> anyhow::Result<usize> {
    let api: Api<Deployment> = Api::namespaced(client.clone(), namespace);
    let page = api.list_metadata(&ListParams::default().limit(1)).await?;
    let remaining = page.metadata.remaining_item_count.unwrap_or(0);
    Ok(page.items.len() + usize::try_from(remaining).unwrap_or(0))
}

/// Deletes every Deployment in `namespace` with one DELETE of the collection.
pub async fn delete_all(client: &kube::Client, namespace: &str) -> anyhow::Result<()> {
    let api: Api<Deployment> = Api::namespaced(client.clone(), namespace);
    api.delete_collection(&DeleteParams::default(), &ListParams::default()).await?;
    Ok(())
}

/// Polls each member's count until every one holds `expected[i]` Deployments in `namespace`,
/// or `timeout` passes. Members already complete are not listed again (objects only ever
/// arrive while this runs), so polling costs little once most are done. Returns the number of
/// objects still missing (0 when complete).
pub async fn wait_counts(
    members: &[Member],
    namespace: &str,
    expected: &[usize],
    poll: Duration,
    timeout: Duration,
    label: &str,
) -> usize {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut pending: Vec<usize> = (0..members.len()).collect();
    let mut last_report = tokio::time::Instant::now();
    loop {
        let counts = futures::future::join_all(pending.iter().map(|&i| count(&members[i].client, namespace))).await;
        let mut missing = 0;
        let mut still = vec![];
        for (&i, c) in pending.iter().zip(counts) {
            let have = c.unwrap_or(0);
            if have < expected[i] {
                missing += expected[i] - have;
                still.push(i);
            }
        }
        pending = still;
        if pending.is_empty() {
            return 0;
        }
        if tokio::time::Instant::now() >= deadline {
            return missing;
        }
        if last_report.elapsed() >= Duration::from_secs(10) {
            eprintln!("[engine_scale bench] {label}: {missing} objects still missing in {} members", pending.len());
            last_report = tokio::time::Instant::now();
        }
        tokio::time::sleep(poll).await;
    }
}
