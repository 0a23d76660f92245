//! How an API server instance is configured: where its data lives and where it listens.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use super::pki::ServingNames;

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
}

impl ServerConfig {
    pub fn new(data_dir: PathBuf, listen: SocketAddr) -> Self {
        Self {
            data_dir,
            listen,
            serving_names: ServingNames::default(),
            profile: Profile::Karmada,
            kubernetes_version: crate::wellknown::KUBERNETES_API_VERSION.to_string(),
            watch_history: Duration::from_secs(5 * 60),
            max_request_bytes: 3 * 1024 * 1024,
        }
    }

    pub fn pki_dir(&self) -> PathBuf {
        self.data_dir.join("pki")
    }

    pub fn store_path(&self) -> PathBuf {
        self.data_dir.join("state.db")
    }

    pub fn admin_kubeconfig_path(&self) -> PathBuf {
        self.data_dir.join("admin.kubeconfig")
    }
}
