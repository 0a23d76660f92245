//! How an API server instance is configured: where its data lives and where it listens.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use crate::pki::ServingNames;

/// Which flavour of Kubernetes API the server presents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// The Karmada control plane: Kubernetes built-ins plus the Karmada API.
    Karmada,
    /// A plain Kubernetes API server (simulated member clusters).
    Kubernetes,
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Holds `pki/`, the store (`state.db`) and `admin.kubeconfig`.
    pub data_dir: PathBuf,
    /// Where objects are stored: SQLite in the data directory, or etcd.
    pub datastore: karmadactl_store::Datastore,
    /// Whether a SQLite commit waits for the disk (`FULL`, the default) or for the OS only
    /// (`NORMAL`: a crash of the process loses nothing, a crash of the machine may lose the
    /// last commits). Simulated members use `NORMAL`; the plane keeps `FULL`.
    pub sqlite_synchronous: karmadactl_store::sqlite::Synchronous,
    /// Address to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Extra names for the serving certificate.
    pub serving_names: ServingNames,
    pub profile: Profile,
    /// The Kubernetes version `/version` reports.
    pub kubernetes_version: String,
    /// How much watch history to keep for resuming watches.
    pub watch_history: Duration,
    /// Largest request body accepted (kube-apiserver's limit is 3 MiB).
    pub max_request_bytes: usize,
    /// Header timeout and connection caps.
    pub connections: crate::transport::connection_limits::ConnectionLimits,
    /// kube-apiserver's `--max-requests-inflight` and `--max-mutating-requests-inflight`.
    pub inflight: crate::filters::inflight::InflightLimits,
    /// Memory all lists together may hold while being built and sent.
    pub max_list_bytes: usize,
    /// kube-apiserver's `--min-request-timeout`: a watch without timeoutSeconds lasts a random
    /// time between this and twice this, and no watch lasts longer than twice this.
    pub min_request_timeout: Duration,
    /// Where the PKI lives when not under `<data-dir>/pki` (`init --karmada-pki`).
    pub pki_dir: Option<PathBuf>,
    /// Where the admin kubeconfig is written when not `<data-dir>/admin.kubeconfig`.
    pub admin_kubeconfig: Option<PathBuf>,
    /// Validity of newly issued leaf certificates (the CA always gets ten years).
    pub leaf_validity: Duration,
    /// The address clients are told to use (kubeconfig, `kube-public/cluster-info`) when the
    /// listen address is not the one members can reach.
    pub advertise_address: Option<IpAddr>,
    /// Name of the context (and cluster) in the admin kubeconfig; `karmada-apiserver` for the
    /// Karmada profile, the member's name for a simulated member.
    pub kubeconfig_context: String,
    /// The binary's build, as `/version` reports it.
    pub build: crate::build_info::BuildInfo,
    /// Who plays the nodes' kubelets (pod logs); `None` answers scheduled pods' logs with a 503.
    pub kubelet: Option<std::sync::Arc<dyn crate::kubelet::Kubelet>>,
    /// Serve `metrics.k8s.io` with these simulated figures (simulated members only).
    pub simulated_metrics: Option<SimulatedMetrics>,
    /// Lifetimes of the dashboard's login codes and sessions.
    pub dashboard: crate::dashboard::session::Lifetimes,
}

/// CPU (nanocores) and memory (bytes) of a container's requests or limits, None when unset.
pub type Amounts = (Option<u64>, Option<u64>);

/// Percents of the request (CPU, memory) a container uses, as annotations set them; None when
/// unset.
pub type Utilization = (Option<u64>, Option<u64>);

/// How a simulated member's `metrics.k8s.io` computes usage, in nanocores and bytes. The
/// server lists the running pods and nodes and parses their quantities; the simulator says
/// how much they use. Amounts are (CPU, memory), None when unset.
#[derive(Debug, Clone, Copy)]
pub struct SimulatedMetrics {
    /// A container's usage from a seed naming it, its requests, its limits and the percents of
    /// its request (CPU, memory) the annotations below set.
    pub container: fn(&str, Amounts, Amounts, Utilization) -> (u64, u64),
    /// The annotations (CPU, memory) that set a pod's usage as a percent of its request, read
    /// on the pod and then up its controllers.
    pub utilization_annotations: (&'static str, &'static str),
    /// Reads such an annotation's value; None ignores it.
    pub parse_utilization: fn(&str) -> Option<u64>,
    /// A node's usage from its name and the sum of its running pods' usage.
    pub node: fn(&str, (u64, u64)) -> (u64, u64),
}

impl ServerConfig {
    pub fn new(data_dir: PathBuf, listen: SocketAddr) -> Self {
        Self {
            data_dir,
            datastore: Default::default(),
            sqlite_synchronous: karmadactl_store::sqlite::Synchronous::Full,
            listen,
            serving_names: ServingNames::default(),
            profile: Profile::Karmada,
            kubernetes_version: karmadactl_karmada_api::wellknown::KUBERNETES_API_VERSION.to_string(),
            watch_history: Duration::from_secs(5 * 60),
            max_request_bytes: 3 * 1024 * 1024,
            connections: Default::default(),
            inflight: Default::default(),
            max_list_bytes: crate::filters::list_budget::default_budget(),
            min_request_timeout: Duration::from_secs(1800),
            pki_dir: None,
            admin_kubeconfig: None,
            leaf_validity: Duration::from_secs(365 * 24 * 3600),
            advertise_address: None,
            kubeconfig_context: karmadactl_karmada_api::wellknown::KARMADA_APISERVER_CONTEXT.to_string(),
            build: crate::build_info::BuildInfo::UNKNOWN,
            kubelet: None,
            simulated_metrics: None,
            dashboard: Default::default(),
        }
    }

    /// What the server serves before any CRD: Kubernetes' built-ins, plus `Cluster` for Karmada.
    pub fn base_registry(&self) -> crate::registry::Registry {
        match self.profile {
            Profile::Karmada => crate::registry::Registry::karmada(),
            Profile::Kubernetes => crate::registry::Registry::builtin(),
        }
    }

    pub fn pki_dir(&self) -> PathBuf {
        self.pki_dir.clone().unwrap_or_else(|| self.data_dir.join("pki"))
    }

    pub fn store_path(&self) -> PathBuf {
        self.data_dir.join("state.db")
    }

    pub fn admin_kubeconfig_path(&self) -> PathBuf {
        self.admin_kubeconfig.clone().unwrap_or_else(|| self.data_dir.join("admin.kubeconfig"))
    }
}
