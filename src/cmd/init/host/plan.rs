//! The plan of an install: every object (host side and Karmada side) and every file, built
//! before anything is touched, so `--dry-run` shows exactly what a real run does.

use std::path::PathBuf;

use karmadactl_karmada_api::wellknown::KARMADA_APISERVER_KUBECONFIG;
use serde_json::Value;

use super::crds::CrdSet;
use super::pki::HostPki;
use super::settings::Settings;
use super::template::TemplateError;

/// A file init writes.
#[derive(Debug, Clone)]
pub struct PlannedFile {
    pub path: PathBuf,
    pub mode: u32,
    pub contents: String,
    pub what: String,
}

/// A label init puts on a host node (the etcd node in hostPath mode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeLabel {
    pub node: String,
    pub key: String,
    pub value: String,
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub settings: Settings,
    pub pki: HostPki,
    pub files: Vec<PlannedFile>,
    pub node_labels: Vec<NodeLabel>,
    pub host_objects: Vec<Value>,
    pub karmada_objects: Vec<Value>,
    pub crds_origin: String,
}

impl Plan {
    pub fn build(
        settings: Settings,
        pki: HostPki,
        crds: &CrdSet,
        node_labels: Vec<NodeLabel>,
    ) -> Result<Self, TemplateError> {
        let host_objects = super::host_objects::render(&settings, &pki)?;
        let karmada_objects = super::karmada_objects::render(&settings, pki.cert("ca"), crds)?;
        let mut files = Vec::new();
        for name in HostPki::generated_names(&settings) {
            let what = if pki.reused { "reused" } else { "new" };
            files.push(PlannedFile {
                path: karmadactl_pki::cert_path(&settings.pki_dir, name),
                mode: 0o644,
                contents: pki.cert(name).to_string(),
                what: format!("certificate ({what})"),
            });
            files.push(PlannedFile {
                path: karmadactl_pki::key_path(&settings.pki_dir, name),
                mode: 0o600,
                contents: pki.key(name).to_string(),
                what: format!("private key ({what})"),
            });
        }
        files.push(PlannedFile {
            path: settings.data_dir.join(KARMADA_APISERVER_KUBECONFIG),
            mode: 0o640,
            contents: admin_kubeconfig(&settings, &pki),
            what: format!("admin kubeconfig for {}", settings.external_server()),
        });
        Ok(Plan { settings, pki, files, node_labels, host_objects, karmada_objects, crds_origin: crds.origin.clone() })
    }

    /// One line per file, node label and object, grouped by where they go.
    pub fn describe(&self) -> Vec<String> {
        let ns = &self.settings.namespace;
        let mut lines = vec!["Files:".to_string()];
        for f in &self.files {
            lines.push(format!("  {} (mode {:04o}, {})", f.path.display(), f.mode, f.what));
        }
        if !self.node_labels.is_empty() {
            lines.push("Host cluster nodes:".into());
            for l in &self.node_labels {
                lines.push(format!("  label node/{} {}={:?}", l.node, l.key, l.value));
            }
        }
        lines.push(format!("Host cluster (namespace {ns}):"));
        lines.extend(self.host_objects.iter().map(|o| format!("  {}", object_line(o))));
        lines.push(format!("Karmada API server (CRDs {}):", self.crds_origin));
        lines.extend(self.karmada_objects.iter().map(|o| format!("  {}", object_line(o))));
        lines
    }
}

/// `Kind namespace/name` (or `Kind name` for cluster-scoped objects), with the image and
/// replicas of workloads.
pub fn object_line(o: &Value) -> String {
    let kind = o["kind"].as_str().unwrap_or_default();
    let name = o["metadata"]["name"].as_str().unwrap_or_default();
    let mut line = match o["metadata"]["namespace"].as_str() {
        Some(ns) => format!("{kind} {ns}/{name}"),
        None => format!("{kind} {name}"),
    };
    if let Some(image) = o["spec"]["template"]["spec"]["containers"][0]["image"].as_str() {
        line.push_str(&format!(" ({} x {image})", o["spec"]["replicas"]));
    }
    line
}

/// `<karmada-data>/karmada-apiserver.config`: the admin's way in, through the NodePort.
pub fn admin_kubeconfig(settings: &Settings, pki: &HostPki) -> String {
    let kc = crate::kubeconfig::KubeconfigBuilder::new(
        karmadactl_karmada_api::wellknown::KARMADA_APISERVER_CONTEXT,
        karmadactl_karmada_api::wellknown::KARMADA_ADMIN_USER,
        settings.external_server(),
    )
    .context(karmadactl_karmada_api::wellknown::KARMADA_APISERVER_CONTEXT)
    .certificate_authority(pki.cert("ca"))
    .client_certificate(pki.cert("karmada"), pki.key("karmada"))
    .build();
    crate::kubeconfig::to_yaml(&kc).unwrap_or_default()
}
