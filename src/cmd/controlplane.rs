//! `controlplane serve`: run the embedded control plane's API server in the foreground.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::cli::Context;
use crate::error::UsageError;
use karmadactl_apiserver::{ServerConfig, pki::ServingNames};
use karmadactl_plane::PlaneConfig;

/// Run the embedded Karmada control plane (an HTTPS Kubernetes-compatible API server on a
/// durable store).
#[derive(Debug, Args)]
#[command(subcommand_required = true)]
pub struct ControlplaneArgs {
    #[command(subcommand)]
    pub command: ControlplaneCommand,
}

#[derive(Debug, Subcommand)]
pub enum ControlplaneCommand {
    Serve(ServeArgs),
}

/// Run the control plane's API server in the foreground until interrupted.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  # Serve on a free port with a fresh data directory; the first line on stdout is the URL\n  karmadactl controlplane serve --data-dir /tmp/plane --listen 127.0.0.1:0\n\n  # Then use it with kubectl\n  kubectl --kubeconfig /tmp/plane/admin.kubeconfig get namespaces"
)]
pub struct ServeArgs {
    /// Directory for the control plane's certificates, store and admin kubeconfig (created
    /// with mode 0700, or narrowed to 0700 if it exists; it must belong to the user).
    #[arg(long, value_name = "PATH")]
    pub data_dir: Option<PathBuf>,

    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:5443", value_name = "ADDR")]
    pub listen: String,

    /// Extra IP addresses for the serving certificate, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "IPS")]
    pub cert_external_ip: Vec<String>,

    /// Extra DNS names for the serving certificate, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub cert_external_dns: Vec<String>,

    /// How long watch history is kept: a watch can resume from any resourceVersion written
    /// within this window; older ones get 410 Gone and the client relists.
    #[arg(long, default_value = "5m0s", value_name = "DURATION")]
    pub watch_history: String,

    /// Seconds a watch lasts at least when the client gives no timeoutSeconds (it gets a random
    /// time up to twice this); no watch lasts longer than twice this, whatever it asks for.
    #[arg(long, default_value_t = 1800, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub min_request_timeout: u64,

    /// How long a `karmadactl dashboard` login link works (it works once).
    #[arg(long, default_value = "1m0s", value_name = "DURATION")]
    pub dashboard_login_code_ttl: String,

    /// How long a dashboard login lasts at most (an hour without use ends it sooner).
    #[arg(long, default_value = "8h0m0s", value_name = "DURATION")]
    pub dashboard_session_ttl: String,

    /// Directory of the PKI (CA, serving and admin certificates, service-account key) when
    /// not <data-dir>/pki.
    #[arg(long, value_name = "PATH")]
    pub pki_dir: Option<PathBuf>,

    /// Where to write the admin kubeconfig [default: <data-dir>/admin.kubeconfig].
    #[arg(long, value_name = "PATH")]
    pub admin_kubeconfig: Option<PathBuf>,

    /// Validity of newly issued leaf certificates (the CA always gets ten years).
    #[arg(long, default_value = "8760h0m0s", value_name = "DURATION")]
    pub cert_validity_period: String,

    /// The IP address clients and members are told to use (kubeconfig, kube-public/cluster-info);
    /// defaults to the listen address.
    #[arg(long, value_name = "IP")]
    pub advertise_address: Option<IpAddr>,

    /// Which API the server presents: `karmada` (the control plane) or `kubernetes` (a plain
    /// Kubernetes API server, as simulated member clusters use).
    #[arg(long, value_enum, default_value = "karmada")]
    pub profile: ProfileArg,

    /// Name of the context and cluster in the admin kubeconfig [default: karmada-apiserver].
    #[arg(long, value_name = "NAME")]
    pub kubeconfig_context: Option<String>,

    /// How often the control plane probes each Push member cluster and updates its status.
    #[arg(long, default_value = "10s", value_name = "DURATION")]
    pub cluster_status_update_frequency: String,

    /// How long a member cluster's probes must keep failing before its Ready condition turns
    /// False.
    #[arg(long, default_value = "30s", value_name = "DURATION")]
    pub cluster_failure_threshold: String,

    /// How long a Pull cluster's agent may go without renewing its Lease (or changing the
    /// Ready condition) before the control plane sets Ready to Unknown.
    #[arg(long, default_value = "40s", value_name = "DURATION")]
    pub cluster_monitor_grace_period: String,

    /// How long a new Pull cluster may go without its agent posting a Ready condition before
    /// the control plane sets Ready to Unknown.
    #[arg(long, default_value = "60s", value_name = "DURATION")]
    pub cluster_startup_grace_period: String,

    /// The Kubernetes version the server reports on /version.
    #[arg(long, default_value = karmadactl_karmada_api::wellknown::KUBERNETES_API_VERSION, value_name = "VERSION")]
    pub kubernetes_version: String,

    #[command(flatten)]
    pub datastore: super::datastore::DatastoreArgs,

    /// With an etcd datastore, several replicas may serve one plane: all serve the API, and
    /// the controllers run on the one holding the Lease kube-system/karmadactl-controlplane.
    /// This is how long the lease lasts unrenewed before another replica takes over (the holder
    /// renews it every third of this).
    #[arg(long, default_value = "3s", value_name = "DURATION")]
    pub leader_elect_lease_duration: String,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub simulation: SimulationArgs,

    #[command(flatten)]
    pub engine: super::engine_flags::EngineArgs,
}

/// `--profile`: which flavour of Kubernetes API the server presents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProfileArg {
    /// The Karmada control plane: Kubernetes built-ins plus the Karmada API.
    Karmada,
    /// A plain Kubernetes API server (simulated member clusters).
    Kubernetes,
}

impl From<ProfileArg> for karmadactl_apiserver::Profile {
    fn from(p: ProfileArg) -> Self {
        match p {
            ProfileArg::Karmada => karmadactl_apiserver::Profile::Karmada,
            ProfileArg::Kubernetes => karmadactl_apiserver::Profile::Kubernetes,
        }
    }
}

/// Bounds on what clients may hold of the server: connections, requests in flight, and the
/// memory of lists.
#[derive(Debug, Args, Clone)]
pub struct LimitArgs {
    /// Maximum number of non-mutating requests in flight at a given time. When the server
    /// exceeds this, it rejects requests with 429. Zero for no limit. Watches, proxy, exec,
    /// attach, log and port-forward requests and health probes are not counted; system:masters
    /// is never rejected.
    #[arg(long, default_value_t = 400, value_name = "N")]
    pub max_requests_inflight: usize,

    /// Maximum number of mutating requests in flight at a given time. When the server exceeds
    /// this, it rejects requests with 429. Zero for no limit.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub max_mutating_requests_inflight: usize,

    /// How long a client may take to send a request's headers, counted from the connection's
    /// start or from the answer to its previous request; the connection is closed after that.
    #[arg(long, default_value = "32s", value_name = "DURATION")]
    pub read_header_timeout: String,

    /// Open connections allowed from one source address; more are closed at once.
    #[arg(long, default_value_t = 1000, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections_per_source: u32,

    /// Open connections allowed in total; more are closed at once [default: the open-file
    /// limit (raised to its hard limit at start) less an eighth, kept for the store and member
    /// clients].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: Option<u32>,

    /// Memory all LIST responses being built or sent may hold together, as a quantity (e.g.
    /// 512Mi, 2Gi). A list that would exceed it while others hold it gets 429 and Retry-After
    /// [default: a quarter of physical memory].
    #[arg(long, value_name = "QUANTITY")]
    pub max_list_memory: Option<String>,
}

impl LimitArgs {
    /// Applies the limits to `config`, after checking them.
    fn apply(&self, config: &mut ServerConfig) -> anyhow::Result<()> {
        config.inflight.max_requests = self.max_requests_inflight;
        config.inflight.max_mutating_requests = self.max_mutating_requests_inflight;
        config.connections.header_read_timeout = positive_duration("read-header-timeout", &self.read_header_timeout)?;
        config.connections.max_per_source = self.max_connections_per_source as usize;
        config.connections.max_total = self.max_connections.map(|n| n as usize);
        if let Some(text) = &self.max_list_memory {
            config.max_list_bytes = byte_quantity(text).filter(|n| *n > 0).ok_or_else(|| {
                UsageError::with_hint(
                    format!("invalid value \"{text}\" for --max-list-memory: not a positive quantity of bytes"),
                    "give a quantity such as 512Mi, 2Gi or 1G.",
                )
            })?;
        }
        Ok(())
    }
}

/// A whole number of bytes with an optional SI or binary suffix (`512Mi`, `2G`).
fn byte_quantity(s: &str) -> Option<usize> {
    const SUFFIXES: &[(&str, u64)] = &[
        ("Ki", 1 << 10),
        ("Mi", 1 << 20),
        ("Gi", 1 << 30),
        ("Ti", 1 << 40),
        ("k", 1_000),
        ("M", 1_000_000),
        ("G", 1_000_000_000),
        ("T", 1_000_000_000_000),
    ];
    let digits_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (number, suffix) = s.split_at(digits_end);
    let number: u64 = number.parse().ok()?;
    let unit = if suffix.is_empty() { 1 } else { SUFFIXES.iter().find(|(name, _)| *name == suffix)?.1 };
    usize::try_from(number.checked_mul(unit)?).ok()
}

/// Flags of the workload simulator (a simulated member cluster, never a real one).
#[derive(Debug, Args, Clone)]
pub struct SimulationArgs {
    /// Simulate nodes and workloads (only with --profile kubernetes). This is a SIMULATION, not
    /// a Kubernetes cluster: nodes are pretend, no container runs; Deployments, ReplicaSets,
    /// StatefulSets, DaemonSets and Jobs get pods that report Running and Ready (Jobs:
    /// Succeeded) as kube-controller-manager and kubelets would.
    #[arg(long)]
    pub simulate_workloads: bool,

    /// Number of simulated nodes (with --simulate-workloads).
    #[arg(long, default_value_t = 3, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub nodes: u32,

    /// How long a simulated pod stays Pending before it reports Running and Ready.
    #[arg(long, default_value = "500ms", value_name = "DURATION")]
    pub pod_ready_delay: String,

    /// CPU capacity of each simulated node.
    #[arg(long, default_value = "8", value_name = "QUANTITY")]
    pub node_cpu: String,

    /// Memory capacity of each simulated node.
    #[arg(long, default_value = "32Gi", value_name = "QUANTITY")]
    pub node_memory: String,

    /// Pod capacity of each simulated node.
    #[arg(long, default_value_t = 110, value_name = "N")]
    pub node_pods: u32,
}

impl SimulationArgs {
    /// The simulator's configuration, after checking the flags.
    pub fn config(&self) -> anyhow::Result<karmadactl_simulator::SimulationConfig> {
        for (flag, value) in [("node-cpu", &self.node_cpu), ("node-memory", &self.node_memory)] {
            if !is_quantity(value) {
                return Err(UsageError::with_hint(
                    format!("invalid value \"{value}\" for --{flag}: not a Kubernetes quantity"),
                    "give a quantity such as 4, 500m, 16Gi or 64G.",
                )
                .into());
            }
        }
        Ok(karmadactl_simulator::SimulationConfig {
            nodes: self.nodes,
            pod_ready_delay: super::parse_duration("pod-ready-delay", &self.pod_ready_delay)?,
            node_cpu: self.node_cpu.clone(),
            node_memory: self.node_memory.clone(),
            node_pods: self.node_pods,
            ..Default::default()
        })
    }
}

/// A plain (non-exponent) Kubernetes quantity: a decimal number with an optional SI or binary
/// suffix.
fn is_quantity(s: &str) -> bool {
    const SUFFIXES: &[&str] = &["", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    let number_end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (number, suffix) = s.split_at(number_end);
    SUFFIXES.contains(&suffix)
        && number.split('.').count() <= 2
        && number.bytes().any(|b| b.is_ascii_digit())
        && number.parse::<f64>().is_ok()
}

/// Where the control plane keeps its data when no directory is given: under the user's data
/// directory, never in a system path.
pub fn default_data_dir() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("karmadactl").join("controlplane")
}

pub fn run(args: ControlplaneArgs, ctx: &Context) -> anyhow::Result<()> {
    match args.command {
        ControlplaneCommand::Serve(a) => serve(a, ctx),
    }
}

fn serve(args: ServeArgs, ctx: &Context) -> anyhow::Result<()> {
    let listen: SocketAddr = args.listen.parse().map_err(|_| {
        UsageError::with_hint(
            format!("invalid --listen address \"{}\"", args.listen),
            "give host:port with an IP address, e.g. 127.0.0.1:5443 or 0.0.0.0:0.",
        )
    })?;
    let mut names = ServingNames { dns: args.cert_external_dns.clone(), ips: Vec::new() };
    for ip in args.cert_external_ip.iter().filter(|s| !s.is_empty()) {
        let parsed: IpAddr = ip.parse().map_err(|_| {
            UsageError::with_hint(
                format!("cert-external-ip \"{ip}\" is not a valid IP address"),
                "give IP addresses separated by commas.",
            )
        })?;
        names.ips.push(parsed);
    }
    let data_dir = args.data_dir.clone().unwrap_or_else(default_data_dir);
    let mut server = ServerConfig::new(data_dir, listen);
    server.build = crate::build_info::CURRENT;
    let mut plane = PlaneConfig::new(server);
    let config = &mut plane.server;
    config.datastore = args.datastore.datastore()?;
    plane.leader_lease = positive_duration("leader-elect-lease-duration", &args.leader_elect_lease_duration)?;
    config.serving_names = names;
    config.kubernetes_version = args.kubernetes_version.clone();
    config.watch_history = super::parse_duration("watch-history", &args.watch_history)?;
    config.min_request_timeout = Duration::from_secs(args.min_request_timeout);
    config.dashboard = karmadactl_apiserver::dashboard::session::Lifetimes {
        code: bounded_duration("dashboard-login-code-ttl", &args.dashboard_login_code_ttl, 1, 600)?,
        session: bounded_duration("dashboard-session-ttl", &args.dashboard_session_ttl, 60, 24 * 3600)?,
    };
    config.leaf_validity = positive_duration("cert-validity-period", &args.cert_validity_period)?;
    config.pki_dir = args.pki_dir.clone();
    config.admin_kubeconfig = args.admin_kubeconfig.clone();
    config.advertise_address = args.advertise_address;
    config.profile = args.profile.into();
    plane.cluster_controller.status_update_frequency =
        positive_duration("cluster-status-update-frequency", &args.cluster_status_update_frequency)?;
    plane.cluster_controller.failure_threshold =
        super::parse_duration("cluster-failure-threshold", &args.cluster_failure_threshold)?;
    plane.cluster_controller.monitor_grace_period =
        positive_duration("cluster-monitor-grace-period", &args.cluster_monitor_grace_period)?;
    plane.cluster_controller.startup_grace_period =
        positive_duration("cluster-startup-grace-period", &args.cluster_startup_grace_period)?;
    args.limits.apply(config)?;
    plane.engine = args.engine.config()?;
    if let Some(name) = args.kubeconfig_context.clone() {
        config.kubeconfig_context = name;
    }
    if args.simulation.simulate_workloads {
        if args.profile != ProfileArg::Kubernetes {
            return Err(UsageError::with_hint(
                "--simulate-workloads needs --profile kubernetes",
                "workloads are simulated only in simulated member clusters: add --profile kubernetes.",
            )
            .into());
        }
        plane.simulation = Some(args.simulation.config()?);
        // A simulated member is a playground: its commits need to survive the process, not
        // the machine, and an fsync per commit was a twentieth of its CPU.
        config.sqlite_synchronous = karmadactl_store::sqlite::Synchronous::Normal;
    }
    init_tracing(ctx.global.verbosity);

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let simulated = plane.simulation.is_some();
        let plane = karmadactl_plane::start(plane).await?;
        let server = &plane.server;
        ctx.printer.line(&server.url)?;
        if simulated {
            ctx.printer.progress(
                "workloads are SIMULATED: nodes are pretend and no container runs; this is not a real Kubernetes cluster",
            );
        }
        ctx.printer.progress(&format!(
            "control plane serving on {} (data in {}); admin kubeconfig: {}",
            server.url,
            server.state.config.data_dir.display(),
            server.admin_kubeconfig.display()
        ));
        wait_for_signal().await;
        ctx.printer.progress("stopping the control plane");
        plane.shutdown(Duration::from_secs(5)).await;
        Ok::<(), anyhow::Error>(())
    })?;
    exit_without_freeing()
}

/// Ends the process once the plane has shut down: the lease is released (etcd), in-flight
/// requests have been answered, and every write they acknowledged is committed (SQLite
/// acknowledges a write once its WAL holds it; etcd holds its own). What is left is memory (the caches
/// of every object, the engine's and the watchers'), which freeing one allocation at a time
/// took seconds with tens of thousands of objects; the OS takes it back at once. Dropping the
/// runtime would also wait for its blocking threads, the store's readers among them.
fn exit_without_freeing() -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    std::process::exit(0)
}

/// A Go duration flag that must be longer than zero (certificate lifetimes).
pub fn positive_duration(flag: &str, value: &str) -> anyhow::Result<Duration> {
    let d = super::parse_duration(flag, value)?;
    if d.is_zero() {
        return Err(UsageError::with_hint(
            format!("--{flag} must be longer than zero"),
            "give a Go duration such as 8760h0m0s.",
        )
        .into());
    }
    Ok(d)
}

/// A duration flag between `min` and `max` seconds, with the range in the error.
fn bounded_duration(flag: &str, value: &str, min: u64, max: u64) -> anyhow::Result<Duration> {
    let d = super::parse_duration(flag, value)?;
    if d < Duration::from_secs(min) || d > Duration::from_secs(max) {
        return Err(UsageError::with_hint(
            format!("--{flag} must be between {min}s and {max}s, not {value}"),
            "give a Go duration such as 1m0s.",
        )
        .into());
    }
    Ok(d)
}

pub(crate) async fn wait_for_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).ok();
    let term_fut = async {
        match term.as_mut() {
            Some(t) => {
                t.recv().await;
            }
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term_fut => {}
    }
}

/// Logs to stderr; `-v` raises the level as klog's verbosity does.
pub(crate) fn init_tracing(verbosity: i32) {
    let level = match verbosity {
        i32::MIN..=0 => "warn",
        1..=3 => "info",
        4..=5 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("KARMADACTL_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("karmadactl={level}")));
    // A log line that cannot be written (the plane's log file is on a full disk) is dropped.
    // By default the subscriber reports that with eprintln!, which panics when stderr itself
    // fails: the thread that logged, the store's writer among them, would die with it.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .log_internal_errors(false)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::{byte_quantity, is_quantity};

    #[test]
    fn byte_quantities_are_whole_numbers_with_known_suffixes() {
        assert_eq!(byte_quantity("512Mi"), Some(512 << 20));
        assert_eq!(byte_quantity("2G"), Some(2_000_000_000));
        assert_eq!(byte_quantity("4096"), Some(4096));
        for bad in ["", "Mi", "1.5Gi", "-1", "8gi", "1 Gi", "99999999999999999999"] {
            assert_eq!(byte_quantity(bad), None, "{bad}");
        }
    }

    #[test]
    fn quantities_are_numbers_with_known_suffixes() {
        for ok in ["8", "500m", "32Gi", "1.5", "64G", "100Ki"] {
            assert!(is_quantity(ok), "{ok}");
        }
        for bad in ["", "Gi", "8 cores", "1.2.3", "-1", "8gi", "1e3"] {
            assert!(!is_quantity(bad), "{bad}");
        }
    }
}
