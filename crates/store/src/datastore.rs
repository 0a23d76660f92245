//! Which store backend the control plane runs on (`--datastore`), and opening it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::sqlite::{SqliteOptions, SqliteStore};
use super::{Store, StoreError};

/// The backend chosen with `--datastore`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Datastore {
    /// The embedded SQLite store in the data directory (the default).
    #[default]
    Sqlite,
    /// An etcd v3 cluster.
    Etcd(EtcdConfig),
}

/// How to reach etcd.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EtcdConfig {
    /// `host:port` of each member (an `https://` or `http://` scheme may be given).
    pub endpoints: Vec<String>,
    /// Put in front of every key, so several control planes can share one etcd. Empty by
    /// default: keys are then `/registry/...`, kube-apiserver's layout.
    pub prefix: String,
    /// Client TLS, for etcd members that serve HTTPS.
    pub tls: Option<EtcdTls>,
}

/// Client TLS files for etcd (PEM).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EtcdTls {
    /// The CA that signed the etcd members' serving certificates.
    pub ca_file: Option<PathBuf>,
    /// The client certificate and its key, when etcd asks for one (`--client-cert-auth`).
    pub cert_file: Option<PathBuf>,
    pub key_file: Option<PathBuf>,
}

/// Why a `--datastore` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatastoreError {
    #[error("unknown datastore \"{0}\"")]
    Unknown(String),
    #[error("the etcd datastore \"{0}\" names no endpoint")]
    NoEndpoint(String),
    #[error("the etcd endpoint \"{0}\" is not host:port")]
    BadEndpoint(String),
}

impl Datastore {
    /// Parses `sqlite` or `etcd://host:port[,host:port...]`. Each endpoint may carry its own
    /// `http://` or `https://` scheme instead; without one, TLS flags decide.
    pub fn parse(value: &str) -> Result<Datastore, DatastoreError> {
        if value == "sqlite" {
            return Ok(Datastore::Sqlite);
        }
        let Some(list) = value.strip_prefix("etcd://") else {
            return Err(DatastoreError::Unknown(value.to_string()));
        };
        let endpoints: Vec<String> = list
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(|e| e.trim_end_matches('/').to_string())
            .collect();
        if endpoints.is_empty() {
            return Err(DatastoreError::NoEndpoint(value.to_string()));
        }
        for endpoint in &endpoints {
            let bare =
                endpoint.strip_prefix("https://").or_else(|| endpoint.strip_prefix("http://")).unwrap_or(endpoint);
            let port_ok =
                bare.rsplit_once(':').is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
            if !port_ok || bare.contains('/') {
                return Err(DatastoreError::BadEndpoint(endpoint.clone()));
            }
        }
        Ok(Datastore::Etcd(EtcdConfig { endpoints, ..EtcdConfig::default() }))
    }

    /// Opens the store: SQLite at `sqlite_path` with `sqlite`'s tuning, or a connection to etcd.
    pub async fn open(&self, sqlite_path: &Path, sqlite: SqliteOptions) -> Result<Arc<dyn Store>, StoreError> {
        match self {
            Datastore::Sqlite => Ok(SqliteStore::open(sqlite_path, sqlite)?),
            #[cfg(feature = "etcd")]
            Datastore::Etcd(config) => Ok(super::etcd::EtcdStore::connect(config).await?),
            #[cfg(not(feature = "etcd"))]
            Datastore::Etcd(_) => Err(StoreError::backend(std::io::Error::other(
                "this karmadactl was built without etcd support (cargo feature \"etcd\")",
            ))),
        }
    }

    /// Whether this build can open the datastore.
    pub fn supported(&self) -> bool {
        matches!(self, Datastore::Sqlite) || cfg!(feature = "etcd")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datastore_values_parse() {
        assert_eq!(Datastore::parse("sqlite"), Ok(Datastore::Sqlite));
        let Ok(Datastore::Etcd(config)) = Datastore::parse("etcd://10.0.0.1:2379, etcd-2:2379/,https://e3:2379") else {
            panic!("an etcd datastore");
        };
        assert_eq!(config.endpoints, ["10.0.0.1:2379", "etcd-2:2379", "https://e3:2379"]);
        assert_eq!((config.prefix.as_str(), config.tls), ("", None));
        assert_eq!(Datastore::parse("etcd://"), Err(DatastoreError::NoEndpoint("etcd://".into())));
        assert_eq!(Datastore::parse("etcd://host"), Err(DatastoreError::BadEndpoint("host".into())));
        assert_eq!(Datastore::parse("etcd://host:99999"), Err(DatastoreError::BadEndpoint("host:99999".into())));
        assert_eq!(Datastore::parse("etcd://h:1/x"), Err(DatastoreError::BadEndpoint("h:1/x".into())));
        assert_eq!(Datastore::parse("postgres://x"), Err(DatastoreError::Unknown("postgres://x".into())));
    }
}
