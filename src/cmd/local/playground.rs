//! The playground's directory and what `local up` and `local down` share: where the plane and
//! members live, the record that proves a directory is a playground, the combined kubeconfig,
//! and reading the plane's Clusters.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use karmadactl_karmada_api::cluster::Cluster;
use kube::{Api, ResourceExt};
use serde::{Deserialize, Serialize};

use crate::error::UsageError;
use crate::kubeconfig::Kubeconfig;

pub const RECORD_FILE: &str = "local-playground.json";

/// Proof that a directory was made by `local up`, and which members it holds.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaygroundRecord {
    pub members: Vec<String>,
    pub created_by: String,
}

pub struct Playground {
    pub dir: PathBuf,
}

/// `$XDG_DATA_HOME/karmadactl/local`, or `/var/lib/karmadactl/local` for root.
pub fn default_dir(is_root: bool) -> PathBuf {
    if is_root {
        return PathBuf::from("/var/lib/karmadactl/local");
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("karmadactl").join("local")
}

impl Playground {
    pub fn resolve(dir: Option<&Path>) -> anyhow::Result<Self> {
        // SAFETY: geteuid has no preconditions.
        let is_root = unsafe { libc::geteuid() } == 0;
        let dir = match dir {
            Some(d) if d.is_absolute() => d.to_path_buf(),
            Some(d) => std::env::current_dir()?.join(d),
            None => default_dir(is_root),
        };
        Ok(Self { dir })
    }

    pub fn plane_dir(&self) -> PathBuf {
        self.dir.join("karmada")
    }

    pub fn member_dir(&self, name: &str) -> PathBuf {
        self.dir.join("members").join(name)
    }

    pub fn kubeconfig(&self) -> PathBuf {
        self.dir.join("kubeconfig")
    }

    fn record_path(&self) -> PathBuf {
        self.dir.join(RECORD_FILE)
    }

    pub fn read_record(&self) -> anyhow::Result<Option<PlaygroundRecord>> {
        match std::fs::read(self.record_path()) {
            Ok(bytes) => {
                Ok(Some(serde_json::from_slice(&bytes).map_err(|e| {
                    anyhow::anyhow!("{} is not a playground record: {e}", self.record_path().display())
                })?))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Makes sure the directory is this playground's (or empty) before anything starts, and
    /// records the members it will hold; an existing playground keeps its larger member list.
    pub fn claim(&self, members: &[String]) -> anyhow::Result<()> {
        let existing = self.read_record()?;
        if existing.is_none() && self.dir.read_dir().is_ok_and(|mut d| d.next().is_some()) {
            return Err(UsageError::with_hint(
                format!("{} is not empty and is not a playground made by 'local up'", self.dir.display()),
                "nothing was changed; choose another directory with --data-dir.",
            )
            .into());
        }
        if let Some(rec) = &existing
            && rec.members.len() > members.len()
        {
            return Err(UsageError::with_hint(
                format!(
                    "the playground in {} already has {} members; 'local up' does not remove members",
                    self.dir.display(),
                    rec.members.len()
                ),
                format!("run with --members {} or more, or 'local down' first.", rec.members.len()),
            )
            .into());
        }
        crate::private_files::create_dir(&self.dir)?;
        self.record(&PlaygroundRecord { members: members.to_vec(), created_by: env!("CARGO_PKG_VERSION").into() })
    }

    pub fn record(&self, rec: &PlaygroundRecord) -> anyhow::Result<()> {
        crate::private_files::write(&self.record_path(), &serde_json::to_vec_pretty(rec)?)?;
        Ok(())
    }
}

/// Names of the Clusters the plane has.
pub async fn registered(plane_kubeconfig: &Path) -> anyhow::Result<Vec<String>> {
    let client = crate::local_plane::client::admin_client(plane_kubeconfig).await?;
    let clusters: Api<Cluster> = Api::all(client);
    Ok(clusters.list(&Default::default()).await?.items.iter().map(|c| c.name_any()).collect())
}

/// Waits until every named Cluster reports Ready True.
pub async fn wait_ready(plane_kubeconfig: &Path, names: &[String], timeout: Duration) -> anyhow::Result<()> {
    let client = crate::local_plane::client::admin_client(plane_kubeconfig).await?;
    let clusters: Api<Cluster> = Api::all(client);
    let deadline = Instant::now() + timeout;
    loop {
        let list = clusters.list(&Default::default()).await?;
        let not_ready: Vec<String> = names
            .iter()
            .filter(|n| {
                !list.items.iter().any(|c| {
                    c.name_any() == **n
                        && c.status
                            .as_ref()
                            .and_then(|s| s.conditions.as_ref())
                            .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
                })
            })
            .cloned()
            .collect();
        if not_ready.is_empty() {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(UsageError::with_hint(
                format!("members not Ready within {}s: {}", timeout.as_secs(), not_ready.join(", ")),
                "'kubectl get clusters -o yaml' shows each member's Ready condition and why.",
            )
            .into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One kubeconfig with the plane's context (current) and one context per member.
pub fn write_combined(path: &Path, plane: &Path, members: &[PathBuf]) -> anyhow::Result<()> {
    let read = |p: &Path| -> anyhow::Result<Kubeconfig> {
        crate::kubeconfig::read_file(p)?.ok_or_else(|| anyhow::anyhow!("{} does not exist", p.display()))
    };
    let mut combined = read(plane)?;
    for m in members {
        let kc = read(m)?;
        combined.clusters.extend(kc.clusters);
        combined.auth_infos.extend(kc.auth_infos);
        combined.contexts.extend(kc.contexts);
    }
    combined.current_context = Some(karmadactl_karmada_api::wellknown::KARMADA_APISERVER_CONTEXT.to_string());
    crate::kubeconfig::write_file(path, &combined)?;
    Ok(())
}
