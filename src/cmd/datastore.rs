//! The datastore flags of `controlplane serve` (`--datastore`, `--etcd-*`), their checks, and
//! the same flags as a `serve` command line for `init --embedded`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;
use karmadactl_store::{Datastore, EtcdTls};

use crate::error::UsageError;

/// Where the control plane keeps its objects.
#[derive(Debug, Args, Clone, Default)]
pub struct DatastoreArgs {
    /// Where objects are stored: `sqlite` (a database in the data directory) or
    /// `etcd://HOST:PORT[,HOST:PORT...]` (an etcd v3 cluster, which several control planes
    /// can share; needs a build with the `etcd` feature).
    #[arg(long, default_value = "sqlite", value_name = "sqlite|etcd://HOST:PORT,...")]
    pub datastore: String,

    /// With an etcd datastore: put this in front of every key (keys are `/registry/...`, as
    /// kube-apiserver lays them out), so several control planes can share one etcd.
    #[arg(long, default_value = "", value_name = "PREFIX")]
    pub etcd_prefix: String,

    /// With an etcd datastore: CA certificate (PEM) that verifies the etcd members; turns on
    /// TLS.
    #[arg(long, value_name = "PATH")]
    pub etcd_cafile: Option<PathBuf>,

    /// With an etcd datastore: client certificate (PEM) presented to etcd; turns on TLS.
    #[arg(long, value_name = "PATH", requires = "etcd_keyfile")]
    pub etcd_certfile: Option<PathBuf>,

    /// With an etcd datastore: key (PEM) of --etcd-certfile.
    #[arg(long, value_name = "PATH", requires = "etcd_certfile")]
    pub etcd_keyfile: Option<PathBuf>,
}

impl DatastoreArgs {
    /// The datastore these flags describe, after checking them.
    pub fn datastore(&self) -> anyhow::Result<Datastore> {
        let parsed = Datastore::parse(&self.datastore).map_err(|e| {
            UsageError::with_hint(
                format!("invalid --datastore: {e}"),
                "give sqlite, or etcd:// followed by comma-separated host:port endpoints, e.g. etcd://127.0.0.1:2379.",
            )
        })?;
        let tls = (self.etcd_cafile.is_some() || self.etcd_certfile.is_some()).then(|| EtcdTls {
            ca_file: self.etcd_cafile.clone(),
            cert_file: self.etcd_certfile.clone(),
            key_file: self.etcd_keyfile.clone(),
        });
        match parsed {
            Datastore::Sqlite => {
                if tls.is_some() || !self.etcd_prefix.is_empty() {
                    return Err(UsageError::with_hint(
                        "the --etcd-* flags need an etcd datastore",
                        "add --datastore etcd://HOST:PORT, or drop the --etcd-* flags.",
                    )
                    .into());
                }
                Ok(Datastore::Sqlite)
            }
            Datastore::Etcd(mut config) => {
                config.prefix = self.etcd_prefix.clone();
                config.tls = tls;
                let datastore = Datastore::Etcd(config);
                if !datastore.supported() {
                    return Err(UsageError::with_hint(
                        "this karmadactl was built without etcd support",
                        "build it with the etcd feature (cargo build --features etcd; it needs protoc), or use --datastore sqlite.",
                    )
                    .into());
                }
                Ok(datastore)
            }
        }
    }

    /// The flags as `controlplane serve` arguments (nothing for the default).
    pub fn serve_args(&self) -> Vec<OsString> {
        let mut args = Vec::new();
        if self.datastore != "sqlite" {
            args.extend(["--datastore".into(), self.datastore.clone().into()]);
        }
        if !self.etcd_prefix.is_empty() {
            args.extend(["--etcd-prefix".into(), self.etcd_prefix.clone().into()]);
        }
        for (flag, path) in [
            ("--etcd-cafile", &self.etcd_cafile),
            ("--etcd-certfile", &self.etcd_certfile),
            ("--etcd-keyfile", &self.etcd_keyfile),
        ] {
            if let Some(path) = path {
                args.extend([OsString::from(flag), path.clone().into_os_string()]);
            }
        }
        args
    }
}
