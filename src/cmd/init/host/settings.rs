//! What `init` installs into a host cluster, resolved once from the flags and the host's nodes:
//! everything rendering needs, and nothing that still has to be looked up.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use karmadactl_pki::KeyAlgorithm;

/// Tag of the etcd image upstream deploys.
pub const ETCD_IMAGE_TAG: &str = "3.6.8-0";
/// Kubernetes images come from here when no registry flag says otherwise.
pub const DEFAULT_KUBE_REGISTRY: &str = "registry.k8s.io";

/// The parts of the control plane init deploys, in the order it deploys them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    Etcd,
    ApiServer,
    AggregatedApiServer,
    KubeControllerManager,
    Scheduler,
    ControllerManager,
    Webhook,
}

impl Part {
    pub const ALL: [Part; 7] = [
        Part::Etcd,
        Part::ApiServer,
        Part::AggregatedApiServer,
        Part::KubeControllerManager,
        Part::Scheduler,
        Part::ControllerManager,
        Part::Webhook,
    ];

    /// Name of the workload (and its `app` label) in the host namespace.
    pub fn name(self) -> &'static str {
        match self {
            Part::Etcd => "etcd",
            Part::ApiServer => "karmada-apiserver",
            Part::AggregatedApiServer => "karmada-aggregated-apiserver",
            Part::KubeControllerManager => "kube-controller-manager",
            Part::Scheduler => "karmada-scheduler",
            Part::ControllerManager => "karmada-controller-manager",
            Part::Webhook => "karmada-webhook",
        }
    }

    /// The prefix of its `--<prefix>-image/-replicas/-priority-class/-extra-args` flags.
    pub fn flag_prefix(self) -> &'static str {
        match self {
            Part::KubeControllerManager => "karmada-kube-controller-manager",
            other => other.name(),
        }
    }

    /// Karmada's own images follow `--image-pull-policy`; the Kubernetes images do not.
    pub fn is_karmada_image(self) -> bool {
        !matches!(self, Part::Etcd | Part::ApiServer | Part::KubeControllerManager)
    }
}

/// One component's image, size and command-line additions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartSettings {
    pub image: String,
    pub replicas: i32,
    pub priority_class: String,
    /// Already checked by [`super::extra_args::parse`].
    pub extra_args: Vec<String>,
}

/// Where etcd keeps its data when init deploys it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageMode {
    EmptyDir,
    /// A directory on the node; the node is chosen by `node_selector`.
    HostPath {
        path: String,
        node_selector: BTreeMap<String, String>,
    },
    Pvc {
        storage_class: String,
        size: String,
    },
}

/// The etcd the API servers use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Etcd {
    /// A StatefulSet init deploys in the host namespace.
    Local { storage: StorageMode },
    /// One the user runs; no etcd workload and no etcd CA is generated.
    External {
        servers: String,
        key_prefix: Option<String>,
        ca_cert: Option<PathBuf>,
        client_cert: Option<PathBuf>,
        client_key: Option<PathBuf>,
    },
}

/// Where the CRDs installed into Karmada come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrdSource {
    /// The CRDs this binary carries (the embedded plane's).
    Builtin,
    /// A release tarball on disk.
    File(PathBuf),
    /// A release tarball to download.
    Url(String),
}

/// Everything rendering and applying need.
#[derive(Debug, Clone)]
pub struct Settings {
    pub namespace: String,
    pub cluster_domain: String,
    pub node_port: i32,
    pub image_pull_policy: String,
    pub image_pull_secrets: Vec<String>,
    pub parts: BTreeMap<Part, PartSettings>,
    pub etcd: Etcd,
    /// The addresses members reach the API server at (advertise address, else node addresses);
    /// the first is the admin kubeconfig's server.
    pub apiserver_ips: Vec<IpAddr>,
    pub cert_external_ips: Vec<IpAddr>,
    pub cert_external_dns: Vec<String>,
    pub cert_validity: Duration,
    /// `--ca-cert-file` and `--ca-key-file`.
    pub ca_files: Option<(PathBuf, PathBuf)>,
    pub key_algorithm: KeyAlgorithm,
    pub data_dir: PathBuf,
    pub pki_dir: PathBuf,
    pub crds: CrdSource,
    /// `None` waits forever (`--wait-component-ready-timeout 0`).
    pub wait_timeout: Option<Duration>,
}

impl Settings {
    pub fn part(&self, part: Part) -> &PartSettings {
        &self.parts[&part]
    }

    /// The etcd replicas init deploys; 0 with an external etcd.
    pub fn etcd_replicas(&self) -> i32 {
        match self.etcd {
            Etcd::Local { .. } => self.part(Part::Etcd).replicas,
            Etcd::External { .. } => 0,
        }
    }

    pub fn local_etcd(&self) -> bool {
        matches!(self.etcd, Etcd::Local { .. })
    }

    /// `<ns>.svc.<domain>`, the suffix of in-cluster service names.
    pub fn svc_suffix(&self) -> String {
        format!("{}.svc.{}", self.namespace, self.cluster_domain)
    }

    /// The etcd servers the API servers use.
    pub fn etcd_servers(&self) -> String {
        match &self.etcd {
            Etcd::External { servers, .. } => servers.clone(),
            Etcd::Local { .. } => (0..self.etcd_replicas())
                .map(|i| format!("https://etcd-{i}.etcd.{}:2379", self.svc_suffix()))
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    pub fn etcd_key_prefix(&self) -> Option<&str> {
        match &self.etcd {
            Etcd::External { key_prefix, .. } => key_prefix.as_deref().filter(|p| !p.is_empty()),
            Etcd::Local { .. } => None,
        }
    }

    /// The URL components use to reach the API server from inside the host cluster.
    pub fn in_cluster_server(&self) -> String {
        format!("https://karmada-apiserver.{}:5443", self.svc_suffix())
    }

    /// The admin kubeconfig's server: the first API server address and the NodePort.
    pub fn external_server(&self) -> String {
        let host = self.apiserver_ips.first().map(|ip| ip.to_string()).unwrap_or_else(|| "127.0.0.1".into());
        crate::kubeconfig::https_server_url(&host, self.node_port as u16)
    }
}

/// The registry of the Kubernetes images, in upstream's order of preference.
pub fn kube_registry(kube_image_registry: Option<&str>, mirror_country: Option<&str>, private: Option<&str>) -> String {
    if let Some(r) = kube_image_registry.filter(|r| !r.is_empty()) {
        return r.to_string();
    }
    match mirror_country.map(str::to_ascii_lowercase).as_deref() {
        Some("cn") => return "registry.cn-hangzhou.aliyuncs.com/google_containers".into(),
        Some("global") => return DEFAULT_KUBE_REGISTRY.into(),
        _ => {}
    }
    private.filter(|r| !r.is_empty()).unwrap_or(DEFAULT_KUBE_REGISTRY).to_string()
}

/// A Karmada image: moved to the private registry only when its flag was left at the default.
pub fn karmada_image(flag: &str, default: &str, private: Option<&str>, name: &str) -> String {
    match private.filter(|r| !r.is_empty()) {
        Some(registry) if flag == default => {
            format!("{registry}/{name}:{}", karmadactl_karmada_api::wellknown::KARMADA_RELEASE)
        }
        _ => flag.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kube_registry_order() {
        assert_eq!(kube_registry(Some("r.example"), Some("cn"), Some("p")), "r.example");
        assert_eq!(kube_registry(None, Some("CN"), Some("p")), "registry.cn-hangzhou.aliyuncs.com/google_containers");
        assert_eq!(kube_registry(None, Some("global"), Some("p")), "registry.k8s.io");
        assert_eq!(kube_registry(None, Some("mars"), Some("p")), "p");
        assert_eq!(kube_registry(None, None, None), "registry.k8s.io");
    }

    #[test]
    fn private_registry_only_replaces_default_karmada_images() {
        let default = "docker.io/karmada/karmada-webhook:v1.19.0";
        assert_eq!(
            karmada_image(default, default, Some("p.example"), "karmada-webhook"),
            "p.example/karmada-webhook:v1.19.0"
        );
        assert_eq!(karmada_image("mine:1", default, Some("p.example"), "karmada-webhook"), "mine:1");
        assert_eq!(karmada_image(default, default, None, "karmada-webhook"), default);
    }
}
