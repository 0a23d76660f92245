//! The built-in agent run as a background process on this machine (`register
//! --agent-mode=local`): its directory holds the agent's kubeconfig for the plane (0600), its
//! pid and its log. unregister finds it there.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::local_plane::process;

pub const KUBECONFIG_FILE: &str = "karmada-agent.config";
const PID_FILE: &str = "agent.pid";
const LOG_FILE: &str = "agent.log";

/// `~/.karmada/agents/<cluster>` unless given.
pub fn default_dir(cluster: &str) -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/var/lib"));
    home.join(".karmada").join("agents").join(cluster)
}

pub fn kubeconfig_path(dir: &Path) -> PathBuf {
    dir.join(KUBECONFIG_FILE)
}

pub fn log_path(dir: &Path) -> PathBuf {
    dir.join(LOG_FILE)
}

/// How the member is reached by the agent process.
pub struct MemberAccess {
    /// `--kubeconfig` as given to register (made absolute); without it the agent inherits
    /// `KUBECONFIG` from this process.
    pub kubeconfig: Option<PathBuf>,
    pub context: String,
}

/// Starts `karmadactl agent` in its own session; returns its pid.
pub fn start(
    dir: &Path,
    cluster: &str,
    member: &MemberAccess,
    extra: &[(String, String)],
) -> Result<u32, process::ProcessError> {
    let exe = std::env::current_exe().map_err(process::ProcessError::Spawn)?;
    let mut args: Vec<OsString> = vec![
        "agent".into(),
        "--karmada-kubeconfig".into(),
        kubeconfig_path(dir).into(),
        "--cluster-name".into(),
        cluster.into(),
        "--context".into(),
        member.context.clone().into(),
    ];
    if let Some(k) = &member.kubeconfig {
        args.push("--kubeconfig".into());
        args.push(k.clone().into());
    }
    for (flag, value) in extra {
        args.push(format!("--{flag}={value}").into());
    }
    process::spawn_detached_to(&exe, &args, &log_path(dir), &dir.join(PID_FILE))
}

/// The pid of the agent running from `dir`, if there is one: the pid file's process must be a
/// `karmadactl agent` started with this directory's kubeconfig (pids are reused).
pub fn running_pid(dir: &Path) -> Option<u32> {
    let pid: u32 = std::fs::read_to_string(dir.join(PID_FILE)).ok()?.trim().parse().ok()?;
    if !process::is_alive(pid) {
        return None;
    }
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    let kubeconfig = kubeconfig_path(dir);
    let ours =
        args.windows(2).any(|w| w[0] == b"--karmada-kubeconfig" && w[1] == kubeconfig.as_os_str().as_encoded_bytes());
    (args.iter().any(|a| *a == b"agent") && ours).then_some(pid)
}

/// Stops the agent (if running) and removes its directory.
pub fn remove(dir: &Path) -> anyhow::Result<()> {
    if let Some(pid) = running_pid(dir) {
        process::stop(pid, Duration::from_secs(5))?;
    }
    for f in [KUBECONFIG_FILE, PID_FILE, LOG_FILE] {
        match std::fs::remove_file(dir.join(f)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(anyhow::anyhow!("cannot remove {}: {e}", dir.join(f).display())),
        }
    }
    // Only an empty directory goes: anything else in it is not ours to delete.
    let _ = std::fs::remove_dir(dir);
    Ok(())
}

/// A local agent found running on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningAgent {
    pub pid: u32,
    pub cluster: String,
    /// The directory register made for it (holding its kubeconfig).
    pub dir: PathBuf,
}

/// The local agents of this user that talk to the plane whose CA is `ca_pem`: `karmadactl
/// agent` processes whose `--karmada-kubeconfig` is a file register wrote and trusts that CA
/// (the CA, not the address, proves which plane: ports are reused).
pub fn running_for_plane(ca_pem: &[u8]) -> Vec<RunningAgent> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return vec![] };
    let mut found = vec![];
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|p| p.parse::<u32>().ok()) else { continue };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let args: Vec<String> = cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        let value = |flag: &str| args.windows(2).find(|w| w[0] == flag).map(|w| w[1].clone());
        let (Some(kubeconfig), Some(cluster)) = (value("--karmada-kubeconfig"), value("--cluster-name")) else {
            continue;
        };
        let kubeconfig = PathBuf::from(kubeconfig);
        let Some(dir) = kubeconfig.parent().map(Path::to_path_buf) else { continue };
        let written_by_register = kubeconfig.file_name().is_some_and(|f| f == KUBECONFIG_FILE);
        if !args.iter().any(|a| a == "agent") || !written_by_register || running_pid(&dir) != Some(pid) {
            continue;
        }
        if trusts_ca(&kubeconfig, ca_pem) {
            found.push(RunningAgent { pid, cluster, dir });
        }
    }
    found.sort_by(|a, b| a.cluster.cmp(&b.cluster));
    found
}

fn trusts_ca(kubeconfig: &Path, ca_pem: &[u8]) -> bool {
    use base64::Engine as _;
    let Ok(Some(config)) = crate::kubeconfig::read_file(kubeconfig) else { return false };
    config.clusters.iter().filter_map(|c| c.cluster.as_ref()?.certificate_authority_data.as_deref()).any(|data| {
        base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .is_ok_and(|pem| pem.trim_ascii() == ca_pem.trim_ascii())
    })
}
