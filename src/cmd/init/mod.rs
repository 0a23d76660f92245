//! `init`: install a Karmada control plane into a host Kubernetes cluster.

pub(crate) mod banner;
mod components;
pub mod config;
mod embedded;
pub mod host;
#[cfg(test)]
mod host_render_tests;

use std::net::IpAddr;

use clap::Args;
use karmadactl_karmada_api::wellknown::{
    DEFAULT_KARMADA_DATA, DEFAULT_KARMADA_PKI, KARMADA_RELEASE, KARMADA_SYSTEM_NAMESPACE,
};

use super::connection::ClusterConnection;
use crate::cli::Context;
use crate::error::UsageError;

pub use components::{COMPONENTS, Component, ComponentFlags, ComponentSettings};

/// Install the Karmada control plane in a Kubernetes cluster.
#[derive(Debug, Args)]
#[command(
    before_help = "Quick start, no Kubernetes cluster needed:\n  # Run the control plane on this machine (API server, store and Karmada controllers)\n  karmadactl init --embedded\n\n  # Then add a simulated member cluster and join it\n  karmadactl local member start member1\n  karmadactl join member1 --cluster-kubeconfig=<the kubeconfig it printed>",
    after_help = "Examples:\n  # Install Karmada in Kubernetes cluster\n  # The karmada-apiserver binds the master node's IP by default\n  karmadactl init\n\n  # China mainland registry mirror can be specified by using kube-image-mirror-country\n  karmadactl init --kube-image-mirror-country=cn\n\n  # Kube registry can be specified by using kube-image-registry\n  karmadactl init --kube-image-registry=registry.cn-hangzhou.aliyuncs.com/google_containers\n\n  # Specify the URL to download CRD tarball\n  karmadactl init --crds https://github.com/karmada-io/karmada/releases/download/v1.19.0/crds.tar.gz\n\n  # Specify the local CRD tarball\n  karmadactl init --crds /root/crds.tar.gz\n\n  # Use PVC to persistent storage etcd data\n  karmadactl init --etcd-storage-mode PVC --storage-classes-name {StorageClassesName}\n\n  # Deploy highly available(HA) karmada\n  karmadactl init --karmada-apiserver-replicas 3 --etcd-replicas 3 --etcd-storage-mode PVC --storage-classes-name {StorageClassesName}\n\n  # Specify external IPs(load balancer or HA IP) which used to sign the certificate\n  karmadactl init --cert-external-ip 10.235.1.2 --cert-external-dns www.karmada.io"
)]
pub struct InitArgs {
    // The embedded flags come first: they are what a new user without a cluster needs.
    /// Run the embedded control plane on this machine (API server, store and Karmada
    /// controllers in one background process) instead of installing into a host cluster.
    #[arg(long)]
    pub embedded: bool,

    /// Directory for Karmada's data: the admin kubeconfig and CRDs; with --embedded also the
    /// store, pid and log files [default: /etc/karmada; with --embedded as a non-root user:
    /// $XDG_DATA_HOME/karmadactl/karmada, i.e. ~/.local/share/karmadactl/karmada].
    #[arg(short = 'd', long, value_name = "PATH")]
    pub karmada_data: Option<String>,

    /// Directory for Karmada's certificates and keys [default: /etc/karmada/pki; with
    /// --embedded: <karmada-data>/pki].
    #[arg(long, value_name = "PATH")]
    pub karmada_pki: Option<String>,

    /// NodePort of the karmada-apiserver Service; with --embedded, the port the API server
    /// listens on (0: any free port).
    #[arg(short = 'p', long, default_value_t = 32443)]
    pub port: i32,

    /// With --embedded: where the control plane stores objects, `sqlite` (in the data
    /// directory) or `etcd://HOST:PORT[,HOST:PORT...]`; the --external-etcd-* certificate
    /// flags and --external-etcd-key-prefix apply to it. Kept for later runs on the same data.
    #[arg(long, requires = "embedded", value_name = "sqlite|etcd://HOST:PORT,...")]
    pub datastore: Option<String>,

    /// With --embedded: run the control plane in this terminal until interrupted instead of
    /// in the background.
    #[arg(long, requires = "embedded")]
    pub foreground: bool,

    /// Private image registry to pull images from; when set, all images come from it.
    #[arg(long, value_name = "REGISTRY")]
    pub private_image_registry: Option<String>,

    /// Image pull policy of karmada components: Always, Never or IfNotPresent.
    #[arg(long, default_value = "IfNotPresent")]
    pub image_pull_policy: String,

    /// Image pull secrets used by every pod, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub image_pull_secrets: Vec<String>,

    /// Country code of the Kubernetes image mirror: cn (registry.cn-hangzhou.aliyuncs.com/google_containers) or global.
    #[arg(long)]
    pub kube_image_mirror_country: Option<String>,

    /// Registry for the Kubernetes images (kube-apiserver, kube-controller-manager, etcd).
    #[arg(long)]
    pub kube_image_registry: Option<String>,

    /// Tag of kube-apiserver and kube-controller-manager images.
    #[arg(long, default_value = "v1.36.2")]
    pub kube_image_tag: String,

    /// Extra IP addresses for the API server certificate, comma-separated.
    #[arg(long)]
    pub cert_external_ip: Option<String>,

    /// Extra DNS names for the API server certificate, comma-separated.
    #[arg(long)]
    pub cert_external_dns: Option<String>,

    /// Validity of the leaf certificates, e.g. 8760h0m0s.
    #[arg(long, default_value = "8760h0m0s", value_name = "DURATION")]
    pub cert_validity_period: String,

    /// Root CA certificate file to use instead of generating one (with --ca-key-file).
    #[arg(long, value_name = "PATH")]
    pub ca_cert_file: Option<String>,

    /// Root CA private key file to use instead of generating one (with --ca-cert-file).
    #[arg(long, value_name = "PATH")]
    pub ca_key_file: Option<String>,

    /// Namespace of the Karmada control plane components in the host cluster.
    #[arg(short = 'n', long, default_value = KARMADA_SYSTEM_NAMESPACE)]
    pub namespace: String,

    /// Storage class for etcd data when --etcd-storage-mode is PVC.
    #[arg(long)]
    pub storage_classes_name: Option<String>,

    #[command(flatten)]
    pub host: ClusterConnection,

    /// The cluster domain of the host cluster, used in certificate names and service URLs.
    #[arg(long, default_value = "cluster.local")]
    pub host_cluster_domain: String,

    /// etcd data storage mode: emptyDir, hostPath or PVC.
    #[arg(long, default_value = "hostPath")]
    pub etcd_storage_mode: String,

    /// etcd data path on the host, with --etcd-storage-mode hostPath.
    #[arg(long, default_value = "/var/lib/karmada-etcd", value_name = "PATH")]
    pub etcd_data: String,

    /// Labels selecting the node etcd runs on (hostPath only), e.g. karmada.io/etcd=true,kubernetes.io/os=linux.
    #[arg(long, value_name = "LABELS")]
    pub etcd_node_selector_labels: Option<String>,

    /// Size of the etcd PVC, with --etcd-storage-mode PVC.
    #[arg(long, default_value = "5Gi")]
    pub etcd_pvc_size: String,

    /// CA certificate of an external etcd.
    #[arg(long, value_name = "PATH")]
    pub external_etcd_ca_cert_path: Option<String>,

    /// Client certificate for an external etcd.
    #[arg(long, value_name = "PATH")]
    pub external_etcd_client_cert_path: Option<String>,

    /// Client key for an external etcd.
    #[arg(long, value_name = "PATH")]
    pub external_etcd_client_key_path: Option<String>,

    /// Comma-separated URLs of an external etcd; when set, no etcd is deployed.
    #[arg(long, value_name = "URLS")]
    pub external_etcd_servers: Option<String>,

    /// Key prefix in the external etcd.
    #[arg(long, value_name = "PREFIX")]
    pub external_etcd_key_prefix: Option<String>,

    /// The Karmada CRDs: a URL (http…) or a local tarball path.
    #[arg(long, default_value_t = format!("https://github.com/karmada-io/karmada/releases/download/{KARMADA_RELEASE}/crds.tar.gz"))]
    pub crds: String,

    /// A KarmadaInitConfig file; flags given on the command line win over it.
    #[arg(long, value_name = "PATH")]
    pub config: Option<String>,

    /// The IP address the API server advertises to members.
    #[arg(long, value_name = "IP")]
    pub karmada_apiserver_advertise_address: Option<String>,

    /// Output format for the result: json or yaml (the banner otherwise).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// Show what would be installed (every object and file) without creating anything; with
    /// -o yaml or -o json, print the host cluster objects as applyable manifests.
    #[arg(long, conflicts_with = "embedded")]
    pub dry_run: bool,

    /// Stop once the host cluster objects are ready, before connecting to the new
    /// karmada-apiserver (for hosts whose NodePort this machine cannot reach). Also happens by
    /// itself when the host's nodes are simulated ('controlplane serve --simulate-workloads').
    #[arg(long, conflicts_with = "embedded")]
    pub host_only: bool,

    /// Seconds to wait for each component to become ready; 0 waits forever.
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    pub wait_component_ready_timeout: i32,

    #[command(flatten)]
    pub components: ComponentFlags,

    /// The ids of the arguments given on the command line, so `--config` fills in only the
    /// others (see [`config::explicit_args`]).
    #[arg(skip)]
    pub explicit: std::collections::BTreeSet<String>,
}

/// Upstream's validation (before anything touches a cluster), so bad input fails fast.
fn validate(args: &InitArgs, parent: &str) -> anyhow::Result<()> {
    let bad = |m: String| -> anyhow::Error {
        UsageError::with_hint(m, format!("run '{parent} init --help' for the accepted values.")).into()
    };
    if let Some(addr) = &args.karmada_apiserver_advertise_address
        && addr.parse::<IpAddr>().is_err()
    {
        return Err(bad("karmada apiserver advertise address is not valid".into()));
    }
    for ip in args.cert_external_ip.iter().flat_map(|s| s.split(',')).filter(|s| !s.is_empty()) {
        if ip.parse::<IpAddr>().is_err() {
            return Err(bad(format!("cert-external-ip \"{ip}\" is not a valid IP address")));
        }
    }
    if args.ca_cert_file.is_some() != args.ca_key_file.is_some() {
        return Err(bad("ca-cert-file and ca-key-file must be used together".into()));
    }
    if !["Always", "Never", "IfNotPresent"].contains(&args.image_pull_policy.as_str()) {
        return Err(bad(format!("invalid image pull policy: {}", args.image_pull_policy)));
    }
    super::parse_duration("cert-validity-period", &args.cert_validity_period)?;
    if args.wait_component_ready_timeout < 0 {
        return Err(bad("wait-component-ready-timeout must be greater than or equal to 0".into()));
    }
    if args.external_etcd_servers.as_deref().is_some_and(|s| !s.is_empty()) {
        if args.external_etcd_client_cert_path.is_some() != args.external_etcd_client_key_path.is_some() {
            return Err(bad("etcd client cert and key should be specified both or none".into()));
        }
        return Ok(());
    }
    let etcd_replicas = args.components.get("etcd").map(|s| s.replicas).unwrap_or(1);
    match args.etcd_storage_mode.as_str() {
        "hostPath" => {
            if args.etcd_data.is_empty() {
                return Err(bad("when etcd storage mode is hostPath, dataPath is not empty".into()));
            }
            if etcd_replicas != 1 {
                return Err(bad(
                    "for data security,when etcd storage mode is hostPath,etcd-replicas can only be 1".into()
                ));
            }
        }
        "PVC" => {
            if args.storage_classes_name.as_deref().unwrap_or_default().is_empty() {
                return Err(bad("when etcd storage mode is PVC, storageClassesName must be set".into()));
            }
        }
        "emptyDir" => {}
        other => return Err(bad(format!("unsupported etcd-storage-mode {other}. See '{parent} init --help'"))),
    }
    Ok(())
}

pub fn run(mut args: InitArgs, ctx: &Context) -> anyhow::Result<()> {
    // The file is applied first so its values go through the same checks as flags.
    config::load_into(&mut args, ctx)?;
    validate(&args, ctx.parent())?;
    let output = crate::output::OutputFormat::parse_json_or_yaml(args.output.as_deref().unwrap_or(""))?;
    if args.embedded {
        return embedded::run(&args, output, ctx);
    }
    let embedded_hint =
        format!("to run Karmada on this machine without a host cluster, use '{} init --embedded'.", ctx.parent());
    if let Err(e) = args.host.resolve() {
        return Err(
            UsageError::with_hint(format!("no host Kubernetes cluster to install into: {e:#}"), embedded_hint).into()
        );
    }
    host::run(&args, output, ctx)
}

/// `--karmada-data` as given, else upstream's default.
pub fn host_data_dir(args: &InitArgs) -> &str {
    args.karmada_data.as_deref().unwrap_or(DEFAULT_KARMADA_DATA)
}

/// `--karmada-pki` as given, else upstream's default.
pub fn host_pki_dir(args: &InitArgs) -> &str {
    args.karmada_pki.as_deref().unwrap_or(DEFAULT_KARMADA_PKI)
}
