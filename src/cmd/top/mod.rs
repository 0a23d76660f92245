//! `top pod|node`: CPU and memory usage of member clusters' pods and nodes, read from each
//! member's `metrics.k8s.io` through the plane's cluster proxy, printed as upstream's
//! karmadactl prints it (kubectl's `top` with a CLUSTER column).

mod node;
mod pod;
mod print;

use clap::{Args, Subcommand};
use karmadactl_karmada_api::cluster::Cluster;
use kube::Api;
use serde_json::Value;

use super::connection::KarmadaConnection;
use crate::cli::Context;

/// Display resource (CPU/memory) usage of member clusters.
#[derive(Debug, Args)]
#[command(
    long_about = "Display Resource (CPU/Memory) usage of member clusters.\n\n The top command allows you to see the resource consumption for pods of member clusters.\n\n This command requires karmada-metrics-adapter to be correctly configured and working on the Karmada control plane and Metrics Server to be correctly configured and working on the member clusters.",
    subcommand_required = true,
    arg_required_else_help = true
)]
pub struct TopArgs {
    #[command(subcommand)]
    pub command: TopCommand,
}

#[derive(Debug, Subcommand)]
pub enum TopCommand {
    #[command(visible_aliases = ["pods", "po"])]
    Pod(pod::PodArgs),
    #[command(visible_aliases = ["nodes", "no"])]
    Node(node::NodeArgs),
}

pub fn run(args: TopArgs, ctx: &Context) -> anyhow::Result<()> {
    match args.command {
        TopCommand::Pod(a) => pod::run(a, ctx),
        TopCommand::Node(a) => node::run(a, ctx),
    }
}

const SORT_KEYS: [&str; 2] = ["cpu", "memory"];

/// `--sort-by` accepts only `cpu` and `memory` (or nothing).
fn check_sort_by(sort_by: &str) -> anyhow::Result<()> {
    if !sort_by.is_empty() && !SORT_KEYS.contains(&sort_by) {
        anyhow::bail!("--sort-by accepts only cpu or memory");
    }
    Ok(())
}

/// The plane and the members to ask: the `--clusters` given (each must exist, as upstream's
/// Validate checks), or every registered cluster.
async fn plane_and_clusters(
    connection: &KarmadaConnection,
    wanted: &[String],
) -> anyhow::Result<(kube::Config, Vec<String>)> {
    let plane = super::scope::plane_config(connection).await?;
    let client = kube::Client::try_from(plane.clone())?;
    let list = Api::<Cluster>::all(client).list(&Default::default()).await.map_err(|e| match e {
        kube::Error::Api(s) => anyhow::anyhow!(s.message),
        // As Go's client words a transport failure: the URL, then why.
        other => {
            let url = format!(
                "{}/apis/cluster.karmada.io/v1alpha1/clusters",
                plane.cluster_url.to_string().trim_end_matches('/')
            );
            anyhow::anyhow!("Get \"{url}\": {}", crate::error::with_causes(&other))
        }
    })?;
    let known: Vec<String> = list.items.iter().filter_map(|c| c.metadata.name.clone()).collect();
    if !wanted.is_empty() {
        let missing: Vec<&str> = wanted.iter().filter(|w| !known.contains(w)).map(String::as_str).collect();
        if !missing.is_empty() {
            anyhow::bail!("clusters don't exist: {}", missing.join(","));
        }
        return Ok((plane, wanted.to_vec()));
    }
    Ok((plane, known))
}

/// A member's client through the proxy, once its discovery lists `metrics.k8s.io/v1beta1`
/// (`metrics API not available` otherwise, as upstream says).
async fn metrics_client(plane: &kube::Config, cluster: &str) -> Result<kube::Client, String> {
    let config = super::scope::member_config(plane, cluster).await.map_err(|e| e.to_string())?;
    let client = kube::Client::try_from(config).map_err(|e| e.to_string())?;
    let groups: Value = get_json(&client, "/apis").await?;
    let available = groups["groups"].as_array().into_iter().flatten().any(|g| {
        g["name"] == "metrics.k8s.io"
            && g["versions"].as_array().into_iter().flatten().any(|v| v["version"] == "v1beta1")
    });
    if !available {
        return Err("metrics API not available".into());
    }
    Ok(client)
}

/// GET a path as JSON; an API error becomes its message, as Go's `err.Error()` gives it.
async fn get_json(client: &kube::Client, path: &str) -> Result<Value, String> {
    let request = http::Request::get(path).body(Vec::new()).map_err(|e| e.to_string())?;
    client.request::<Value>(request).await.map_err(|e| api_message(e).to_string())
}

fn api_message(e: kube::Error) -> anyhow::Error {
    match e {
        kube::Error::Api(s) => anyhow::anyhow!(s.message),
        other => anyhow::anyhow!(crate::error::with_causes(&other)),
    }
}

/// A URL query of the non-empty parameters.
fn query(params: &[(&str, &str)]) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in params.iter().filter(|(_, v)| !v.is_empty()) {
        q.append_pair(k, v);
    }
    let q = q.finish();
    if q.is_empty() { q } else { format!("?{q}") }
}

/// Upstream collects one error per cluster and `CheckErr` prints each as its own
/// `error: cluster(NAME): …` line.
fn per_cluster_errors(errors: Vec<(String, String)>) -> anyhow::Result<()> {
    if errors.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = errors.iter().map(|(c, e)| format!("error: cluster({c}): {e}")).collect();
    Err(crate::error::Verbatim(lines.join("\n")).into())
}
