//! Stopping a simulated member, and removing its data unless asked to keep it. Only a process
//! whose command line names the member's data directory is ever signalled, and only a directory
//! with a member record is ever deleted.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use super::record::{MemberRecord, RECORD_FILE};
use super::{MemberError, layout};
use crate::local_plane::process;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stopped {
    /// The pid that was stopped, when the member was running.
    pub pid: Option<u32>,
    pub data_removed: bool,
}

pub fn stop(data_dir: &Path, keep_data: bool) -> Result<Stopped, MemberError> {
    let layout = layout(data_dir);
    let pid_file = layout.pid_file();
    let recorded: Option<u32> = std::fs::read_to_string(&pid_file).ok().and_then(|t| t.trim().parse().ok());
    let pid = match recorded {
        Some(pid) if process::is_plane_process(pid, data_dir) => {
            process::stop(pid, Duration::from_secs(10))?;
            Some(pid)
        }
        Some(pid) if process_alive(pid) => {
            return Err(MemberError::ForeignProcess { pid, pid_file, data_dir: data_dir.to_path_buf() });
        }
        _ => None,
    };
    let _ = std::fs::remove_file(&pid_file);
    let is_member = MemberRecord::read(&data_dir.join(RECORD_FILE))?.is_some();
    let data_removed = !keep_data && is_member;
    if data_removed {
        std::fs::remove_dir_all(data_dir).map_err(|source| MemberError::Io {
            what: "cannot remove",
            path: data_dir.to_path_buf(),
            source,
        })?;
    }
    Ok(Stopped { pid, data_removed })
}

fn process_alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}
