//! Probing one Push member on a period: reach it with the credentials join stored (`secretRef`:
//! `token` and `caBundle`), ask `/readyz` (or `/healthz`) and `/version`, read its nodes, pods
//! and API discovery, and write what was found to the Cluster's status.
//!
//! Between probes a healthy member is also watched (one object, a watch that carries no
//! events): a member whose process dies or whose network goes closes that connection at once,
//! and the next probe runs then instead of at the end of the period. It only brings the probe
//! forward; what the probe finds and the failure threshold decide the Ready condition as before.

use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::api::core::v1::{Namespace, Node, Pod};
use karmadactl_karmada_api::cluster::{ApiEnablement, ApiResource, Cluster, ClusterStatus};
use kube::api::{ListParams, Patch, PatchParams, WatchEvent, WatchParams};
use kube::{Api, Client};
use serde_json::json;
use tokio::task::JoinHandle;

use super::ClusterControllerConfig;
use super::status::{self, Debounce, Health};

/// How long discovered API enablements are reused before they are read again.
const API_ENABLEMENTS_TTL: Duration = Duration::from_secs(60);

/// Probes `name` until the Cluster is gone or being deleted (the controller aborts the task
/// earlier when the spec changes).
pub async fn run(client: Client, config: ClusterControllerConfig, name: String) {
    let clusters: Api<Cluster> = Api::all(client.clone());
    let mut debounce = Debounce::default();
    let mut member: Option<(String, Client)> = None;
    let mut enablements: Option<(Instant, String, Vec<ApiEnablement>)> = None;
    let mut sentinel = Sentinel::default();
    loop {
        let cluster = match clusters.get_opt(&name).await {
            Ok(Some(c)) if c.metadata.deletion_timestamp.is_none() => c,
            Ok(_) => return,
            Err(e) => {
                tracing::debug!(cluster = %name, error = %e, "cluster status: reading the cluster failed");
                tokio::time::sleep(config.status_update_frequency).await;
                continue;
            }
        };
        let found = observe(&client, &cluster, config, &mut member, &mut enablements).await;
        let healthy = found.health == Health::Healthy;
        let current = match status_patch(&cluster, &found, &mut debounce, config) {
            Some(patch) => match clusters.patch_status(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
                Ok(c) => Some(c),
                Err(e) => {
                    tracing::debug!(cluster = %name, error = %e, "cluster status: writing the status failed");
                    None
                }
            },
            None => Some(cluster.clone()),
        };
        if let Some(c) = current
            && let Err(e) = super::taints::reconcile(&clusters, &c).await
        {
            tracing::debug!(cluster = %name, error = %e, "cluster status: updating the condition taints failed");
        }
        sentinel.wait(&client, &cluster, config, healthy).await;
    }
}

/// The watch held open on a healthy member between probes.
#[derive(Default)]
struct Sentinel {
    watch: Option<JoinHandle<Watched>>,
    /// The member refused the watch: probes keep their period for this member.
    refused: bool,
    /// The last wait ended early: the next one is a whole period, so a member that ends
    /// watches at once can never make probes run back to back.
    cut_short: bool,
}

/// How a sentinel watch ended.
enum Watched {
    /// The connection broke, or the member ended the watch long before its timeout.
    Broken,
    /// The member answered the watch with an error status, or no client could be made.
    Refused,
}

/// The sentinel's watch asks the member to end it after this long; it is opened again then.
const SENTINEL_WATCH_SECONDS: u32 = 290;

impl Sentinel {
    /// Waits one probe period, or until the watch on the member breaks if it is healthy.
    async fn wait(&mut self, plane: &Client, cluster: &Cluster, config: ClusterControllerConfig, healthy: bool) {
        let mut period = std::pin::pin!(tokio::time::sleep(config.status_update_frequency));
        if !healthy || self.refused || std::mem::take(&mut self.cut_short) {
            if let Some(w) = self.watch.take() {
                w.abort();
            }
            period.await;
            return;
        }
        if self.watch.is_none() {
            // A client of its own, without the probe's read timeout: the watch is quiet.
            let watch = match member_client(plane, cluster, config.probe_timeout, None).await {
                Ok((_, client)) => tokio::spawn(watch_until_broken(client)),
                Err(_) => tokio::spawn(async { Watched::Refused }),
            };
            self.watch = Some(watch);
        }
        let watch = self.watch.as_mut().expect("set above");
        tokio::select! {
            () = &mut period => {}
            ended = watch => {
                self.watch = None;
                match ended {
                    Ok(Watched::Broken) => {
                        tracing::debug!(cluster = %cluster.metadata.name.as_deref().unwrap_or_default(), "cluster status: the member's connection broke; probing now");
                        self.cut_short = true;
                    }
                    // The rest of this period, then probes on the period only.
                    Ok(Watched::Refused) | Err(_) => {
                        self.refused = true;
                        period.await;
                    }
                }
            }
        }
    }
}

impl Drop for Sentinel {
    fn drop(&mut self) {
        if let Some(w) = self.watch.take() {
            w.abort();
        }
    }
}

/// Watches the member's `default` namespace, which no write touches, until the connection
/// breaks; a watch the member ends at its timeout is opened again.
async fn watch_until_broken(client: Client) -> Watched {
    let api: Api<Namespace> = Api::all(client);
    let params = WatchParams::default().fields("metadata.name=default").timeout(SENTINEL_WATCH_SECONDS);
    loop {
        let opened = Instant::now();
        let stream = match api.watch(&params, "0").await {
            Ok(s) => s,
            Err(kube::Error::Api(_)) => return Watched::Refused,
            Err(_) => return Watched::Broken,
        };
        let mut stream = std::pin::pin!(stream);
        while let Some(event) = stream.next().await {
            match event {
                Ok(WatchEvent::Error(_)) => return Watched::Refused,
                Ok(_) => {}
                Err(_) => return Watched::Broken,
            }
        }
        if opened.elapsed() < Duration::from_secs(u64::from(SENTINEL_WATCH_SECONDS) / 2) {
            return Watched::Broken;
        }
    }
}

/// What one probe found.
pub struct Observation {
    health: Health,
    version: Option<String>,
    nodes: Option<Vec<Node>>,
    pods: Option<Vec<Pod>>,
    enablements: Option<Vec<ApiEnablement>>,
}

impl Observation {
    fn failed(health: Health) -> Self {
        Self { health, version: None, nodes: None, pods: None, enablements: None }
    }
}

async fn observe(
    plane: &Client,
    cluster: &Cluster,
    config: ClusterControllerConfig,
    member: &mut Option<(String, Client)>,
    enablements: &mut Option<(Instant, String, Vec<ApiEnablement>)>,
) -> Observation {
    let client = match member_client(plane, cluster, config.probe_timeout, Some(config.probe_timeout)).await {
        Ok((identity, client)) => match member.as_ref() {
            // Reuse the client (and its connections) while the credentials are unchanged.
            Some((known, c)) if *known == identity => c.clone(),
            _ => {
                *member = Some((identity, client.clone()));
                client
            }
        },
        Err(health) => return Observation::failed(health),
    };
    observe_member(&client, config, enablements).await
}

/// What a member reached through `client` reports: health, version, nodes, pods and (reused
/// for a while) its API enablements. The agent of a Pull member calls this with its own client.
pub async fn observe_member(
    client: &Client,
    config: ClusterControllerConfig,
    enablements: &mut Option<(Instant, String, Vec<ApiEnablement>)>,
) -> Observation {
    let health = match health(client, config.probe_timeout).await {
        Ok(h) => h,
        Err(h) => return Observation::failed(h),
    };
    let t = config.probe_timeout;
    let version = match tokio::time::timeout(t, client.apiserver_version()).await {
        Ok(Ok(v)) => Some(v.git_version),
        _ => None,
    };
    let nodes = match tokio::time::timeout(t, Api::<Node>::all(client.clone()).list(&ListParams::default())).await {
        Ok(Ok(list)) => Some(list.items),
        _ => None,
    };
    let pods = match tokio::time::timeout(t, Api::<Pod>::all(client.clone()).list(&ListParams::default())).await {
        Ok(Ok(list)) => Some(list.items),
        _ => None,
    };
    let version_key = version.clone().unwrap_or_default();
    let fresh = enablements.as_ref().is_some_and(|(at, v, _)| at.elapsed() < API_ENABLEMENTS_TTL && *v == version_key);
    if !fresh && let Ok(Ok(found)) = tokio::time::timeout(config.probe_timeout * 4, discover(client)).await {
        *enablements = Some((Instant::now(), version_key, found));
    }
    Observation { health, version, nodes, pods, enablements: enablements.as_ref().map(|(_, _, e)| e.clone()) }
}

/// A client for the member; every failure to make one is a misconfiguration.
async fn member_client(
    plane: &Client,
    cluster: &Cluster,
    connect_timeout: Duration,
    read_timeout: Option<Duration>,
) -> Result<(String, Client), Health> {
    karmadactl_karmada_api::member_client::member_client(plane, cluster, connect_timeout, read_timeout)
        .await
        .map_err(Health::Misconfigured)
}

/// `/readyz`, falling back to `/healthz` for servers without it (as karmada does).
async fn health(client: &Client, timeout: Duration) -> Result<Health, Health> {
    for path in ["/readyz", "/healthz"] {
        let req = http::Request::get(path).body(Vec::new()).expect("static request");
        match tokio::time::timeout(timeout, client.request_text(req)).await {
            Err(_) => return Err(Health::Unreachable(format!("no answer from {path} within {}s", timeout.as_secs()))),
            Ok(Ok(body)) if body.trim() == "ok" => return Ok(Health::Healthy),
            Ok(Ok(body)) => return Ok(Health::Unhealthy(body.trim().chars().take(200).collect())),
            Ok(Err(kube::Error::Api(e))) if e.code == 404 && path == "/readyz" => continue,
            Ok(Err(kube::Error::Api(e))) if e.code == 401 || e.code == 403 => {
                return Err(Health::Unreachable(format!("the member refused the stored credentials ({})", e.code)));
            }
            Ok(Err(kube::Error::Api(e))) => return Ok(Health::Unhealthy(format!("{path} answered {}", e.code))),
            Ok(Err(e)) => return Err(Health::Unreachable(root_cause(&e))),
        }
    }
    Ok(Health::Unhealthy("no health endpoint answered".into()))
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut last = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        last = s.to_string();
        source = s.source();
    }
    last
}

/// Every group version the member serves, with its resources (no subresources), sorted.
async fn discover(client: &Client) -> Result<Vec<ApiEnablement>, kube::Error> {
    let mut out = Vec::new();
    for version in client.list_core_api_versions().await?.versions {
        let list = client.list_core_api_resources(&version).await?;
        out.push(enablement(version, list.resources));
    }
    for group in client.list_api_groups().await?.groups {
        for gv in group.versions {
            let list = client.list_api_group_resources(&gv.group_version).await?;
            out.push(enablement(gv.group_version, list.resources));
        }
    }
    out.sort_by(|a, b| a.group_version.cmp(&b.group_version));
    Ok(out)
}

fn enablement(
    group_version: String,
    resources: Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::APIResource>,
) -> ApiEnablement {
    let mut resources: Vec<ApiResource> = resources
        .into_iter()
        .filter(|r| !r.name.contains('/'))
        .map(|r| ApiResource { name: r.name, kind: r.kind })
        .collect();
    resources.sort_by(|a, b| a.name.cmp(&b.name));
    ApiEnablement { group_version, resources: Some(resources) }
}

/// The status merge patch for what was found, or `None` when nothing would change.
fn status_patch(
    cluster: &Cluster,
    found: &Observation,
    debounce: &mut Debounce,
    config: ClusterControllerConfig,
) -> Option<serde_json::Value> {
    next_status(cluster, found, debounce, config).map(|next| json!({ "status": next }))
}

/// The status the Cluster should have after what was found, or `None` when it has it already.
pub fn next_status(
    cluster: &Cluster,
    found: &Observation,
    debounce: &mut Debounce,
    config: ClusterControllerConfig,
) -> Option<ClusterStatus> {
    let current = cluster.status.clone().unwrap_or_default();
    let conditions = current.conditions.clone().unwrap_or_default();
    let ready_now = conditions.iter().find(|c| c.type_ == status::READY);
    let generation = cluster.metadata.generation;
    let ready = debounce.ready(ready_now, &found.health, Instant::now(), config.failure_threshold, generation);
    let mut next = current.clone();
    let mut next_conditions: Vec<_> = conditions.iter().filter(|c| c.type_ != status::READY).cloned().collect();
    next_conditions.insert(0, ready.unwrap_or_else(|| ready_now.cloned().expect("kept only when present")));
    if found.health == Health::Healthy {
        next.kubernetes_version = found.version.clone().or(current.kubernetes_version.clone());
        if let Some(nodes) = found.nodes.as_ref() {
            next.node_summary = Some(status::node_summary(nodes));
            if let Some(pods) = found.pods.as_ref() {
                next.resource_summary = Some(status::resource_summary(nodes, pods));
            }
        }
        if let Some(e) = found.enablements.clone() {
            let was = conditions.iter().find(|c| c.type_ == status::COMPLETE_API_ENABLEMENTS);
            let c = status::condition(
                was,
                status::COMPLETE_API_ENABLEMENTS,
                "True",
                "Complete",
                "collected complete APIs from member cluster",
                generation,
            );
            next_conditions.retain(|c| c.type_ != status::COMPLETE_API_ENABLEMENTS);
            next_conditions.push(c);
            next.api_enablements = Some(e);
        }
    }
    next.conditions = Some(next_conditions);
    if next == current {
        return None;
    }
    Some(next)
}
