//! `controlplane serve`: run the embedded control plane's API server in the foreground.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::cli::Context;
use crate::controlplane::apiserver::{ServerConfig, pki::ServingNames};
use crate::error::UsageError;

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
    /// with mode 0700 if missing).
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
    pub profile: crate::controlplane::apiserver::Profile,

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

    /// The Kubernetes version the server reports on /version.
    #[arg(long, default_value = crate::wellknown::KUBERNETES_API_VERSION, value_name = "VERSION")]
    pub kubernetes_version: String,
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
    let mut config = ServerConfig::new(data_dir, listen);
    config.serving_names = names;
    config.kubernetes_version = args.kubernetes_version.clone();
    config.watch_history = super::parse_duration("watch-history", &args.watch_history)?;
    config.leaf_validity = positive_duration("cert-validity-period", &args.cert_validity_period)?;
    config.pki_dir = args.pki_dir.clone();
    config.admin_kubeconfig = args.admin_kubeconfig.clone();
    config.advertise_address = args.advertise_address;
    config.profile = args.profile;
    config.cluster_controller.status_update_frequency =
        positive_duration("cluster-status-update-frequency", &args.cluster_status_update_frequency)?;
    config.cluster_controller.failure_threshold =
        super::parse_duration("cluster-failure-threshold", &args.cluster_failure_threshold)?;
    if let Some(name) = args.kubeconfig_context.clone() {
        config.kubeconfig_context = name;
    }
    init_tracing(ctx.global.verbosity);

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let server = crate::controlplane::apiserver::start(config).await?;
        ctx.printer.line(&server.url)?;
        ctx.printer.progress(&format!(
            "control plane serving on {} (data in {}); admin kubeconfig: {}",
            server.url,
            server.state.config.data_dir.display(),
            server.admin_kubeconfig.display()
        ));
        wait_for_signal().await;
        ctx.printer.progress("stopping the control plane");
        server.shutdown(Duration::from_secs(5)).await;
        Ok::<(), anyhow::Error>(())
    })
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

async fn wait_for_signal() {
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
fn init_tracing(verbosity: i32) {
    let level = match verbosity {
        i32::MIN..=0 => "warn",
        1..=3 => "info",
        4..=5 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("KARMADACTL_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("karmadactl={level}")));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}
