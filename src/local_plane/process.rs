//! Starting, finding and stopping the background process of an embedded plane.
//!
//! A pid file alone proves nothing (pids are reused), so a process counts as the plane only
//! when its command line is `… controlplane serve … --data-dir <this data dir> …`.

use std::ffi::OsString;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::layout::Layout;

#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    /// The log directory or file could not be created.
    #[error("cannot open the log file {}: {source}", path.display())]
    Log { path: PathBuf, source: std::io::Error },
    /// The plane process could not be started.
    #[error("cannot start the control plane process: {0}")]
    Spawn(std::io::Error),
    /// Writing the pid file failed.
    #[error("cannot write the pid file {}: {source}", path.display())]
    PidFile { path: PathBuf, source: std::io::Error },
    /// The process ignored SIGTERM and SIGKILL.
    #[error("control plane process {pid} did not stop")]
    DidNotStop { pid: u32 },
}

/// Starts `exe args…` in its own session (so closing the terminal does not stop it), with
/// stdin closed and stdout/stderr appended to the plane's log file, and records its pid.
pub fn spawn_detached(exe: &Path, args: &[OsString], layout: &Layout) -> Result<u32, ProcessError> {
    spawn_detached_to(exe, args, &layout.log_file(), &layout.pid_file())
}

/// [`spawn_detached`] with the log and pid files named by the caller (a local agent has its own).
pub fn spawn_detached_to(exe: &Path, args: &[OsString], log_path: &Path, pid_path: &Path) -> Result<u32, ProcessError> {
    let log_path = log_path.to_path_buf();
    let log_err = |source| ProcessError::Log { path: log_path.clone(), source };
    if let Some(dir) = log_path.parent() {
        crate::private_files::create_dir(dir).map_err(log_err)?;
    }
    // Owner-only like the rest of the data directory: the log names paths, users and errors.
    let log = crate::private_files::open_append(&log_path).map_err(log_err)?;
    let log2 = log.try_clone().map_err(log_err)?;
    let mut cmd = Command::new(exe);
    cmd.args(args).stdin(Stdio::null()).stdout(log).stderr(log2);
    // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn().map_err(ProcessError::Spawn)?;
    let pid = child.id();
    let pid_path = pid_path.to_path_buf();
    crate::private_files::write(&pid_path, format!("{pid}\n").as_bytes())
        .map_err(|source| ProcessError::PidFile { path: pid_path, source })?;
    // The child is deliberately not waited for: it outlives this process. Dropping `Child`
    // does not kill it.
    drop(child);
    Ok(pid)
}

/// The pid of this layout's running plane, if there is one.
pub fn running_pid(layout: &Layout) -> Option<u32> {
    let text = std::fs::read_to_string(layout.pid_file()).ok()?;
    let pid: u32 = text.trim().parse().ok()?;
    is_plane_process(pid, &layout.data_dir).then_some(pid)
}

/// Whether `pid` is alive and is a `controlplane serve` for `data_dir`.
pub fn is_plane_process(pid: u32, data_dir: &Path) -> bool {
    if !is_alive(pid) {
        return false;
    }
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else { return false };
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    let serve = args.windows(2).any(|w| w[0] == b"controlplane" && w[1] == b"serve");
    let dir = data_dir.as_os_str().as_encoded_bytes();
    let ours = args.windows(2).any(|w| w[0] == b"--data-dir" && w[1] == dir);
    serve && ours
}

/// Alive and not a zombie waiting to be reaped.
pub fn is_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state letter follows the parenthesised command name, which may contain spaces.
        Ok(stat) => {
            stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) != Some("Z")
                || other_threads_exiting(pid)
        }
        Err(_) => false,
    }
}

/// Whether threads other than the main one are still there: a multi-threaded process's main
/// thread shows as a zombie while the others are still exiting, and those still hold its open
/// files (the data directory's lock among them).
fn other_threads_exiting(pid: u32) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/task")).map(|tasks| tasks.count() > 1).unwrap_or(false)
}

/// Asks the plane to stop (SIGTERM, which drains connections), then kills it if it is still
/// there after `grace`.
pub fn stop(pid: u32, grace: Duration) -> Result<(), ProcessError> {
    signal(pid, libc::SIGTERM);
    if wait_gone(pid, grace) {
        return Ok(());
    }
    signal(pid, libc::SIGKILL);
    if wait_gone(pid, Duration::from_secs(5)) { Ok(()) } else { Err(ProcessError::DidNotStop { pid }) }
}

fn signal(pid: u32, sig: libc::c_int) {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return };
    // SAFETY: kill(2) with a concrete positive pid only sends a signal.
    unsafe {
        libc::kill(pid, sig);
    }
}

fn wait_gone(pid: u32, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if !is_alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    !is_alive(pid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_that_is_not_a_plane_is_not_mistaken_for_one() {
        let dir = tempfile::tempdir().unwrap();
        // This test process is alive but is not `controlplane serve`.
        assert!(!is_plane_process(std::process::id(), dir.path()));
        assert!(!is_plane_process(u32::MAX - 1, dir.path()));
        let layout = Layout::new(dir.path().to_path_buf(), None);
        std::fs::write(layout.pid_file(), format!("{}\n", std::process::id())).unwrap();
        assert_eq!(running_pid(&layout), None);
    }
}
