//! Where an embedded control plane keeps its files, and the record of how it was set up.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Name of the record `init --embedded` writes; its presence is what marks a directory as an
/// embedded plane's data directory (deinit deletes nothing without it).
pub const RECORD_FILE: &str = "embedded-controlplane.json";
/// The admin kubeconfig, named as upstream init names it.
pub const KUBECONFIG_FILE: &str = "karmada-apiserver.config";
pub const PID_FILE: &str = "controlplane.pid";
pub const LOG_DIR: &str = "logs";
pub const LOG_FILE: &str = "controlplane.log";
pub const STORE_FILES: &[&str] = &["state.db", "state.db-wal", "state.db-shm"];
/// The store's lock file (see `store::sqlite`).
pub const STORE_LOCK_FILE: &str = "state.db.lock";
/// The files the plane's PKI consists of (the PKI names them).
pub use karmadactl_apiserver::pki::PKI_FILES;

/// Paths of one embedded plane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub data_dir: PathBuf,
    pub pki_dir: PathBuf,
}

impl Layout {
    pub fn new(data_dir: PathBuf, pki_dir: Option<PathBuf>) -> Self {
        let pki_dir = pki_dir.unwrap_or_else(|| data_dir.join("pki"));
        Self { data_dir, pki_dir }
    }

    pub fn record(&self) -> PathBuf {
        self.data_dir.join(RECORD_FILE)
    }
    pub fn kubeconfig(&self) -> PathBuf {
        self.data_dir.join(KUBECONFIG_FILE)
    }
    pub fn pid_file(&self) -> PathBuf {
        self.data_dir.join(PID_FILE)
    }
    pub fn log_file(&self) -> PathBuf {
        self.data_dir.join(LOG_DIR).join(LOG_FILE)
    }
    /// Everything the plane and `init` keep directly in the data directory (the PKI directory
    /// looks after its own files), to narrow to owner-only when an existing directory is
    /// adopted: state written by an older version may be readable by others.
    pub fn private_paths(&self) -> Vec<PathBuf> {
        let mut paths =
            vec![self.record(), self.kubeconfig(), self.pid_file(), self.data_dir.join(LOG_DIR), self.log_file()];
        paths.extend(STORE_FILES.iter().map(|f| self.data_dir.join(f)));
        paths.push(self.data_dir.join(STORE_LOCK_FILE));
        paths
    }

    /// Whether the PKI lives inside the data directory (and goes with it on deinit).
    pub fn pki_inside_data(&self) -> bool {
        self.pki_dir.starts_with(&self.data_dir)
    }
}

/// What `init --embedded` chose on first run; later runs reuse it so the kubeconfig, the
/// certificates and cluster-info stay valid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// The address the plane listens on (a concrete port, never 0).
    pub listen: SocketAddr,
    pub pki_dir: PathBuf,
    #[serde(default)]
    pub cert_external_ips: Vec<String>,
    #[serde(default)]
    pub cert_external_dns: Vec<String>,
    pub cert_validity_period: String,
    /// The `controlplane serve` datastore flags (`--datastore`, `--etcd-*`); empty for SQLite.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub datastore_args: Vec<String>,
    /// The karmadactl version that created the plane.
    pub created_by: String,
}

impl Record {
    pub fn read(path: &Path) -> Result<Option<Self>, RecordError> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| RecordError::Corrupt { path: path.to_path_buf(), detail: e.to_string() }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(RecordError::Io { path: path.to_path_buf(), source }),
        }
    }

    pub fn write(&self, path: &Path) -> Result<(), RecordError> {
        let mut text = serde_json::to_string_pretty(self).expect("a record always serialises");
        text.push('\n');
        crate::private_files::write(path, text.as_bytes())
            .map_err(|source| RecordError::Io { path: path.to_path_buf(), source })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The record exists but is not what init writes.
    #[error("{} is not a valid embedded control plane record: {detail}", path.display())]
    Corrupt { path: PathBuf, detail: String },
    /// Reading or writing the record failed.
    #[error("cannot access {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

/// Default data directory: upstream's `/etc/karmada` for root, a per-user directory otherwise
/// (so a laptop user never needs sudo).
pub fn default_data_dir(is_root: bool) -> PathBuf {
    if is_root {
        return PathBuf::from(karmadactl_karmada_api::wellknown::DEFAULT_KARMADA_DATA);
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("karmadactl").join("karmada")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pki_defaults_to_a_directory_inside_the_data_dir() {
        let l = Layout::new(PathBuf::from("/d"), None);
        assert_eq!(l.pki_dir, PathBuf::from("/d/pki"));
        assert!(l.pki_inside_data());
        let outside = Layout::new(PathBuf::from("/d"), Some(PathBuf::from("/p")));
        assert!(!outside.pki_inside_data());
        assert_eq!(outside.kubeconfig(), PathBuf::from("/d/karmada-apiserver.config"));
    }

    #[test]
    fn record_round_trips_and_rejects_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RECORD_FILE);
        assert_eq!(Record::read(&path).unwrap(), None);
        let rec = Record {
            listen: "127.0.0.1:32443".parse().unwrap(),
            pki_dir: dir.path().join("pki"),
            cert_external_ips: vec!["10.0.0.1".into()],
            cert_external_dns: vec![],
            cert_validity_period: "8760h0m0s".into(),
            datastore_args: vec!["--datastore".into(), "etcd://127.0.0.1:2379".into()],
            created_by: "0.1.0".into(),
        };
        rec.write(&path).unwrap();
        assert_eq!(Record::read(&path).unwrap(), Some(rec));
        std::fs::write(&path, "{").unwrap();
        assert!(matches!(Record::read(&path), Err(RecordError::Corrupt { .. })));
    }

    #[test]
    fn root_uses_upstreams_directory_and_users_their_own() {
        assert_eq!(default_data_dir(true), PathBuf::from("/etc/karmada"));
        assert!(default_data_dir(false).ends_with("karmadactl/karmada"));
    }
}
