//! `logs`: kubectl's logs command against one member cluster through the plane's cluster
//! proxy, as upstream karmadactl wraps it (`-C` is required). A pod, a `TYPE/NAME` whose
//! selector picks a pod, or the pods of a label selector; their containers' logs are copied to
//! stdout as they arrive.

pub(crate) mod options;
pub(crate) mod pods;
mod stream;

use clap::{ArgAction, Args};

use super::connection::KarmadaConnection;
use crate::cli::Context;
use crate::error::Verbatim;

const USAGE: &str = "logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER] (-C CLUSTER)";

/// Print the logs for a container in a pod in a cluster.
#[derive(Debug, Args)]
#[command(
    long_about = "Print the logs for a container in a pod in a member cluster or specified resource. If the pod has only one container, the container name is optional.",
    override_usage = "karmadactl logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER] (-C CLUSTER)",
    after_help = "Examples:\n  # Return snapshot logs from pod nginx with only one container in cluster(member1)\n  karmadactl logs nginx -C=member1\n\n  # Return snapshot logs from pod nginx with multi containers in cluster(member1)\n  karmadactl logs nginx --all-containers=true -C=member1\n\n  # Return snapshot logs from all containers in pods defined by label app=nginx in cluster(member1)\n  karmadactl logs -l app=nginx --all-containers=true -C=member1\n\n  # Return snapshot of previous terminated ruby container logs from pod web-1 in cluster(member1)\n  karmadactl logs -p -c ruby web-1 -C=member1\n\n  # Begin streaming the logs of the ruby container in pod web-1 in cluster(member1)\n  karmadactl logs -f -c ruby web-1 -C=member1\n\n  # Begin streaming the logs from all containers in pods defined by label app=nginx in cluster(member1)\n  karmadactl logs -f -l app=nginx --all-containers=true -C=member1\n\n  # Display only the most recent 20 lines of output in pod nginx in cluster(member1)\n  karmadactl logs --tail=20 nginx -C=member1\n\n  # Show all logs from pod nginx written in the last hour in cluster(member1)\n  karmadactl logs --since=1h nginx -C=member1"
)]
pub struct LogsArgs {
    /// POD or TYPE/NAME, and optionally the container.
    #[arg(value_name = "ARGS")]
    pub args: Vec<String>,

    /// Specify a member cluster
    #[arg(short = 'C', long, value_name = "CLUSTER")]
    pub cluster: Option<String>,

    /// If present, the namespace scope for this CLI request
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Get logs from all pod(s). Sets prefix to true.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub all_pods: bool,

    /// Get all containers' logs in the pod(s).
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub all_containers: bool,

    /// Print the logs of this container
    #[arg(short = 'c', long, value_name = "CONTAINER")]
    pub container: Option<String>,

    /// Specify if the logs should be streamed.
    #[arg(short = 'f', long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub follow: bool,

    /// If watching / following pod logs, allow for any errors that occur to be non-fatal
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub ignore_errors: bool,

    /// Skip verifying the identity of the kubelet that logs are requested from. In theory, an
    /// attacker could provide invalid log content back. You might want to use this if your
    /// kubelet serving certificates have expired.
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub insecure_skip_tls_verify_backend: bool,

    /// Maximum bytes of logs to return. Defaults to no limit.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_name = "N")]
    pub limit_bytes: i64,

    /// Specify maximum number of concurrent logs to follow when using by a selector. Defaults to 5.
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_name = "N")]
    pub max_log_requests: i64,

    /// The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod
    /// is running
    #[arg(long, default_value = "20s", value_name = "DURATION")]
    pub pod_running_timeout: String,

    /// Prefix each log line with the log source (pod name and container name)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub prefix: bool,

    /// If true, print the logs for the previous instance of the container in a pod if it exists.
    #[arg(short = 'p', long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub previous: bool,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l
    /// key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the
    /// specified label constraints.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Only return logs newer than a relative duration like 5s, 2m, or 3h. Defaults to all logs.
    /// Only one of since-time / since may be used.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub since: Option<String>,

    /// Only return logs after a specific date (RFC3339). Defaults to all logs. Only one of
    /// since-time / since may be used.
    #[arg(long, value_name = "TIME")]
    pub since_time: Option<String>,

    /// Lines of recent log file to display. Defaults to -1 with no selector, showing all log
    /// lines otherwise 10, if a selector is provided.
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    pub tail: Option<i64>,

    /// Include timestamps on each line in the log output
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value_t = false, default_missing_value = "true", value_name = "BOOL")]
    pub timestamps: bool,

    #[command(flatten)]
    pub karmada: KarmadaConnection,
}

/// kubectl's usage error: the message, then where to read the help.
fn usage(ctx: &Context, message: &str) -> anyhow::Error {
    Verbatim(format!("error: {message}\nSee '{} logs -h' for help and examples", ctx.parent())).into()
}

pub fn run(args: LogsArgs, ctx: &Context) -> anyhow::Result<()> {
    let Some(cluster) = args.cluster.clone().filter(|c| !c.is_empty()) else {
        return Err(Verbatim("error: must specify a cluster".into()).into());
    };
    let selector = args.selector.clone().filter(|s| !s.is_empty());
    let expected = format!("expected '{USAGE}'.\nPOD or TYPE/NAME is a required argument for the logs command");
    match (args.args.len(), &selector) {
        (0, None) => return Err(usage(ctx, &expected)),
        (1, Some(_)) => return Err(usage(ctx, "only a selector (-l) or a POD name is allowed")),
        (0..=2, _) => {}
        _ => return Err(usage(ctx, &expected)),
    }
    let timeout = super::parse_duration("pod-running-timeout", &args.pod_running_timeout)?;
    let timeout = options::check_timeout(timeout).map_err(|e| Verbatim(format!("error: {e}")))?;
    let request = options::Request::from_args(&args, selector.is_some())?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let plane = super::scope::plane_config(&args.karmada).await?;
        let mut config = super::scope::member_config(&plane, &cluster).await?;
        // Followed logs last as long as the user wants them.
        config.read_timeout = None;
        let client = kube::Client::try_from(config)?;
        let resolved = args.karmada.resolve()?;
        let flag = args.namespace.as_deref().filter(|n| !n.is_empty());
        let namespace = super::connection::effective_namespace(flag, resolved.namespace.as_deref());
        let object = pods::fetch(&client, &namespace, args.args.first().map(String::as_str), selector.as_deref())
            .await
            .map_err(Verbatim)?;
        if let pods::Object::Pods(list) = &object
            && list.is_empty()
        {
            ctx.printer.progress(&format!("No resources found in {namespace} namespace."));
        }
        request.validate(&args).map_err(|e| Verbatim(format!("error: {e}")))?;
        let choice = pods::Choice {
            container: request.container.clone(),
            all_containers: args.all_containers,
            all_pods: args.all_pods,
            timeout,
        };
        let sources = pods::sources(&client, &namespace, object, &choice, &ctx.printer).await?;
        let follow_limit = usize::try_from(args.max_log_requests).unwrap_or(0);
        if args.follow && sources.len() > 1 && sources.len() > follow_limit {
            return Err(Verbatim(format!(
                "error: you are attempting to follow {} log streams, but maximum allowed concurrency is {}, use --max-log-requests to increase the limit",
                sources.len(),
                args.max_log_requests
            ))
            .into());
        }
        let prefix = args.prefix || args.all_pods;
        let how = stream::Copy {
            namespace: &namespace,
            request: &request,
            prefix,
            follow: args.follow,
            ignore_errors: args.ignore_errors,
        };
        stream::copy_all(&client, &sources, &how, &ctx.printer).await
    })
}
