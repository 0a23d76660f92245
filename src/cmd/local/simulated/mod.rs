//! Simulated member clusters on this machine: a plain Kubernetes API server with the workload
//! simulator, run in the background under a data directory of its own. They are for trying
//! Karmada (joining, propagation, status) without real clusters; nodes and pods are pretend.
//!
//! `start` and `stop` are library functions so commands that set up a whole federation can
//! start members too; `local member start|stop|list` are thin wrappers.

mod record;
mod start;
mod stop;

use std::path::{Path, PathBuf};

pub use record::{MemberRecord, RECORD_FILE};
pub use start::{MemberSpec, Started, start};
pub use stop::{Stopped, stop};

use crate::local_plane::Layout;

#[derive(Debug, thiserror::Error)]
pub enum MemberError {
    /// The data directory holds something other than a simulated member.
    #[error("{} is not empty and is not a simulated member's data directory", path.display())]
    NotAMemberDir { path: PathBuf },
    /// The directory belongs to a member of another name.
    #[error("{} holds the simulated member \"{found}\", not \"{asked}\"", path.display())]
    OtherMember { path: PathBuf, found: String, asked: String },
    /// The pid file names a live process that is not this member's server.
    #[error("process {pid} in {} is not this member's server (its command line does not name {}); not stopping it", pid_file.display(), data_dir.display())]
    ForeignProcess { pid: u32, pid_file: PathBuf, data_dir: PathBuf },
    /// The member did not become ready.
    #[error("the simulated member did not start: {detail}")]
    NotReady { detail: String, log_file: PathBuf },
    #[error(transparent)]
    Process(#[from] crate::local_plane::process::ProcessError),
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
}

/// Where members live when no directory is given: `$XDG_DATA_HOME/karmadactl/members`
/// (`~/.local/share/...`), or `/var/lib/karmadactl/members` for root.
pub fn members_dir(is_root: bool) -> PathBuf {
    if is_root {
        return PathBuf::from("/var/lib/karmadactl/members");
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("karmadactl").join("members")
}

/// The kubeconfig of a member: context and cluster named after it.
pub fn kubeconfig_path(data_dir: &Path, name: &str) -> PathBuf {
    data_dir.join(format!("{name}.kubeconfig"))
}

fn layout(data_dir: &Path) -> Layout {
    Layout::new(data_dir.to_path_buf(), None)
}

/// A member found on disk, running or not.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberInfo {
    pub name: String,
    pub data_dir: PathBuf,
    pub url: String,
    pub kubeconfig: PathBuf,
    /// The server's pid when it is running.
    pub pid: Option<u32>,
}

/// The members under `base` (one directory each), sorted by name.
pub fn list(base: &Path) -> Vec<MemberInfo> {
    let Ok(entries) = std::fs::read_dir(base) else { return Vec::new() };
    let mut out: Vec<MemberInfo> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let dir = e.path();
            let rec = MemberRecord::read(&dir.join(RECORD_FILE)).ok()??;
            Some(MemberInfo {
                url: rec.url(),
                kubeconfig: kubeconfig_path(&dir, &rec.name),
                pid: crate::local_plane::process::running_pid(&layout(&dir)),
                name: rec.name,
                data_dir: dir,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}
