//! `top node`: nodes' usage from each member's `metrics.k8s.io`, with the share of each
//! node's allocatable (or capacity), as upstream's `top_node.go`.

use clap::{ArgAction, Args};
use futures::future::join_all;
use karmadactl_apimachinery::quantity::Quantity;
use serde_json::Value;

use super::print::{self, Available, NodeSample, Usage};
use crate::cli::Context;
use crate::cmd::connection::KarmadaConnection;

/// Display resource (CPU/memory) usage of nodes.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl top node [NAME | -l label] [flags]",
    long_about = "Display resource (CPU/memory) usage of nodes in member clusters.\n\n The top-node command allows you to see the resource consumption of nodes.",
    after_help = "Examples:\n  # Show metrics for all nodes in the default namespace\n  karmadactl top node\n\n  # Show metrics for all nodes in the default namespace in member1 cluster\n  karmadactl top node --clusters=member1\n\n  # Show metrics for all nodes in the default namespace in member1 and member2 cluster\n  karmadactl top node --clusters=member1,member2\n\n  # Show metrics for all nodes in the given namespace\n  karmadactl top node --namespace=NAMESPACE\n\n  # Show metrics for the nodes defined by label name=myLabel\n  karmadactl top node -l name=myLabel"
)]
pub struct NodeArgs {
    /// The node to show (default: every node).
    #[arg(value_name = "NAME", num_args = 0..=1)]
    pub name: Vec<String>,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l
    /// key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the
    /// specified label constraints.
    #[arg(short = 'l', long, value_name = "SELECTOR", default_value = "")]
    pub selector: String,

    /// If non-empty, sort nodes list using specified field. The field can be either 'cpu' or
    /// 'memory'.
    #[arg(long, value_name = "FIELD", default_value = "")]
    pub sort_by: String,

    /// Used to specify target member clusters, for example: --clusters=member1,member2
    #[arg(long, value_delimiter = ',', value_name = "CLUSTERS")]
    pub clusters: Vec<String>,

    /// If present, print output without headers
    #[arg(long)]
    pub no_headers: bool,

    /// Enables using protocol-buffers to access Metrics API. Accepted for compatibility; this
    /// binary reads the Metrics API as JSON.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub use_protocol_buffers: bool,

    /// Print node resources based on Capacity instead of Allocatable(default) of the nodes.
    #[arg(long)]
    pub show_capacity: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: NodeArgs, ctx: &Context) -> anyhow::Result<()> {
    let name = args.name.first().cloned().unwrap_or_default();
    super::check_sort_by(&args.sort_by)?;
    if !name.is_empty() && !args.selector.is_empty() {
        anyhow::bail!("only one of NAME or --selector can be provided");
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (samples, available, errors) = runtime.block_on(async {
        let (plane, clusters) = super::plane_and_clusters(&args.karmada, &args.clusters).await?;
        let results = join_all(clusters.iter().map(|c| cluster(&plane, c, &name, &args))).await;
        let (mut samples, mut available, mut errors) = (Vec::new(), Vec::new(), Vec::new());
        for (c, result) in clusters.into_iter().zip(results) {
            match result {
                Ok((mut s, mut a)) => {
                    samples.append(&mut s);
                    available.append(&mut a);
                }
                Err(e) => errors.push((c, e)),
            }
        }
        anyhow::Ok((samples, available, errors))
    })?;
    if samples.is_empty() && errors.is_empty() {
        ctx.printer.progress("No resources found");
    }
    ctx.printer.data(&print::nodes(samples, available, args.no_headers, &args.sort_by))?;
    super::per_cluster_errors(errors)
}

/// One member's samples and its nodes' allocatable (or capacity), or the error upstream
/// reports for it.
async fn cluster(
    plane: &kube::Config,
    cluster: &str,
    name: &str,
    args: &NodeArgs,
) -> Result<(Vec<NodeSample>, Vec<Available>), String> {
    let client = super::metrics_client(plane, cluster).await?;
    let q = super::query(&[("labelSelector", &args.selector)]);
    let items = |v: Value| v["items"].as_array().cloned().unwrap_or_default();
    let metrics = if name.is_empty() {
        items(super::get_json(&client, &format!("/apis/metrics.k8s.io/v1beta1/nodes{q}")).await?)
    } else {
        vec![super::get_json(&client, &format!("/apis/metrics.k8s.io/v1beta1/nodes/{name}")).await?]
    };
    if metrics.is_empty() {
        return Err("metrics not available yet".into());
    }
    let nodes = if name.is_empty() {
        items(super::get_json(&client, &format!("/api/v1/nodes{q}")).await?)
    } else {
        vec![super::get_json(&client, &format!("/api/v1/nodes/{name}")).await?]
    };
    let field = if args.show_capacity { "capacity" } else { "allocatable" };
    let quantity = |v: &Value| v.as_str().and_then(|s| Quantity::parse(s).ok());
    let available = nodes
        .iter()
        .map(|n| Available {
            cluster: cluster.to_string(),
            node: n["metadata"]["name"].as_str().unwrap_or_default().to_string(),
            cpu: quantity(&n["status"][field]["cpu"]),
            memory: quantity(&n["status"][field]["memory"]),
        })
        .collect();
    let samples = metrics
        .iter()
        .map(|m| NodeSample {
            cluster: cluster.to_string(),
            name: m["metadata"]["name"].as_str().unwrap_or_default().to_string(),
            usage: Usage::from_json(&m["usage"]),
        })
        .collect();
    Ok((samples, available))
}
