//! `top pod`: pods' usage from each member's `metrics.k8s.io`, as upstream's `top_pods.go`.

use clap::{ArgAction, Args};
use futures::future::join_all;
use serde_json::Value;

use super::print::{self, PodSample, Usage};
use crate::cli::Context;
use crate::cmd::connection::KarmadaConnection;

/// How long upstream waits after a pod's creation before it calls missing metrics an error.
const METRICS_CREATION_DELAY: std::time::Duration = std::time::Duration::from_secs(120);

/// Display resource (CPU/memory) usage of pods of member clusters.
#[derive(Debug, Args)]
#[command(
    override_usage = "karmadactl top pod [NAME | -l label] [flags]",
    long_about = "Display resource (CPU/memory) usage of pods.\n\n The 'top pod' command allows you to see the resource consumption of pods of member clusters.\n\n Due to the metrics pipeline delay, they may be unavailable for a few minutes since pod creation.",
    after_help = "Examples:\n  # Show metrics for all pods in the default namespace\n  karmadactl top pod\n\n  # Show metrics for all pods in the default namespace in member1 cluster\n  karmadactl top pod --clusters=member1\n\n  # Show metrics for all pods in the default namespace in member1 and member2 cluster\n  karmadactl top pod --clusters=member1,member2\n\n  # Show metrics for all pods in the given namespace\n  karmadactl top pod --namespace=NAMESPACE\n\n  # Show metrics for a given pod and its containers\n  karmadactl top pod POD_NAME --containers\n\n  # Show metrics for the pods defined by label name=myLabel\n  karmadactl top pod -l name=myLabel"
)]
pub struct PodArgs {
    /// The pod to show (default: every pod of the namespace).
    #[arg(value_name = "NAME", num_args = 0..=1)]
    pub name: Vec<String>,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l
    /// key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the
    /// specified label constraints.
    #[arg(short = 'l', long, value_name = "SELECTOR", default_value = "")]
    pub selector: String,

    /// If present, the namespace scope for this CLI request.
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// -C=member1,member2
    #[arg(short = 'C', long, value_delimiter = ',', value_name = "CLUSTERS")]
    pub clusters: Vec<String>,

    /// Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector
    /// key1=value1,key2=value2). The server only supports a limited number of field queries
    /// per type.
    #[arg(long, value_name = "SELECTOR", default_value = "")]
    pub field_selector: String,

    /// If non-empty, sort pods list using specified field. The field can be either 'cpu' or
    /// 'memory'.
    #[arg(long, value_name = "FIELD", default_value = "")]
    pub sort_by: String,

    /// If present, print usage of containers within a pod.
    #[arg(long)]
    pub containers: bool,

    /// If present, list the requested object(s) across all namespaces. Namespace in current
    /// context is ignored even if specified with --namespace.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// If present, print output without headers.
    #[arg(long)]
    pub no_headers: bool,

    /// Enables using protocol-buffers to access Metrics API. Accepted for compatibility; this
    /// binary reads the Metrics API as JSON.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", value_name = "BOOL")]
    pub use_protocol_buffers: bool,

    /// Print the sum of the resource usage
    #[arg(long)]
    pub sum: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

pub fn run(args: PodArgs, ctx: &Context) -> anyhow::Result<()> {
    let name = args.name.first().cloned().unwrap_or_default();
    super::check_sort_by(&args.sort_by)?;
    if !name.is_empty() && (!args.selector.is_empty() || !args.field_selector.is_empty()) {
        anyhow::bail!("only one of NAME or selector can be provided");
    }
    let resolved = args.karmada.resolve()?;
    let namespace =
        crate::cmd::connection::effective_namespace(args.namespace.as_deref(), resolved.namespace.as_deref());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (samples, errors) = runtime.block_on(async {
        let (plane, clusters) = super::plane_and_clusters(&args.karmada, &args.clusters).await?;
        let query = Query { namespace: &namespace, name: &name, args: &args };
        let results = join_all(clusters.iter().map(|c| query.cluster(&plane, c))).await;
        let mut samples = Vec::new();
        let mut errors = Vec::new();
        for (cluster, result) in clusters.into_iter().zip(results) {
            match result {
                Ok(mut s) => samples.append(&mut s),
                Err(e) => errors.push((cluster, e)),
            }
        }
        anyhow::Ok((samples, errors))
    })?;
    if samples.is_empty() && errors.is_empty() {
        if args.all_namespaces {
            ctx.printer.progress("No resources found");
        } else {
            ctx.printer.progress(&format!("No resources found in {namespace} namespace."));
        }
    }
    let options = print::PodOptions {
        containers: args.containers,
        with_namespace: args.all_namespaces,
        no_headers: args.no_headers,
        sort_by: &args.sort_by,
        sum: args.sum,
    };
    ctx.printer.data(&print::pods(samples, &options))?;
    super::per_cluster_errors(errors)
}

struct Query<'a> {
    namespace: &'a str,
    name: &'a str,
    args: &'a PodArgs,
}

impl Query<'_> {
    /// One member's samples, or the error upstream reports for it.
    async fn cluster(&self, plane: &kube::Config, cluster: &str) -> Result<Vec<PodSample>, String> {
        let client = super::metrics_client(plane, cluster).await?;
        let a = self.args;
        let ns_path = if a.all_namespaces { String::new() } else { format!("/namespaces/{}", self.namespace) };
        let items = if self.name.is_empty() {
            let q = super::query(&[("labelSelector", &a.selector), ("fieldSelector", &a.field_selector)]);
            let list = super::get_json(&client, &format!("/apis/metrics.k8s.io/v1beta1{ns_path}/pods{q}")).await?;
            list["items"].as_array().cloned().unwrap_or_default()
        } else {
            let path = format!("/apis/metrics.k8s.io/v1beta1{ns_path}/pods/{}", self.name);
            vec![super::get_json(&client, &path).await?]
        };
        if items.is_empty() {
            self.why_empty(&client).await?;
        }
        Ok(items.iter().map(|m| sample(cluster, m)).collect())
    }

    /// Upstream's `verifyEmptyMetrics`: no pods is fine (nothing to show); pods without
    /// metrics are an error, worded by whether any is older than the metrics pipeline's delay.
    /// It looks in the command's namespace even with `-A`, as upstream does.
    async fn why_empty(&self, client: &kube::Client) -> Result<(), String> {
        let a = self.args;
        let base = format!("/api/v1/namespaces/{}/pods", self.namespace);
        let pods = if self.name.is_empty() {
            let q = super::query(&[("labelSelector", &a.selector), ("fieldSelector", &a.field_selector)]);
            let list = super::get_json(client, &format!("{base}{q}")).await?;
            list["items"].as_array().cloned().unwrap_or_default()
        } else {
            vec![super::get_json(client, &format!("{base}/{}", self.name)).await?]
        };
        if pods.is_empty() && self.name.is_empty() {
            return Ok(());
        }
        for pod in &pods {
            check_pod_age(pod)?;
        }
        Err("metrics not available yet".into())
    }
}

fn check_pod_age(pod: &Value) -> Result<(), String> {
    let created = pod["metadata"]["creationTimestamp"].as_str().and_then(|t| t.parse::<jiff::Timestamp>().ok());
    let Some(created) = created else { return Ok(()) };
    let age = jiff::Timestamp::now().duration_since(created).unsigned_abs();
    if age > METRICS_CREATION_DELAY {
        let meta = &pod["metadata"];
        let (ns, name) = (meta["namespace"].as_str().unwrap_or(""), meta["name"].as_str().unwrap_or(""));
        let age = karmadactl_apimachinery::duration::GoDuration::from(age);
        return Err(format!("Metrics not available for pod {ns}/{name}, age: {age}"));
    }
    Ok(())
}

fn sample(cluster: &str, m: &Value) -> PodSample {
    let meta = &m["metadata"];
    let containers = m["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (c["name"].as_str().unwrap_or_default().to_string(), Usage::from_json(&c["usage"])))
        .collect();
    PodSample {
        cluster: cluster.to_string(),
        namespace: meta["namespace"].as_str().unwrap_or_default().to_string(),
        name: meta["name"].as_str().unwrap_or_default().to_string(),
        containers,
    }
}
