//! Starting a simulated member: check the directory, fix the address, run
//! `controlplane serve --profile kubernetes --simulate-workloads` in the background (or in
//! this terminal), wait for /readyz. A member that is already running is reused as it is.

use std::ffi::OsString;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde::Serialize;

use super::record::{MemberRecord, RECORD_FILE};
use super::{MemberError, kubeconfig_path, layout};
use crate::local_plane::{client, process};

/// What to start. `data_dir` must be absolute: the running process is recognised by it.
#[derive(Debug, Clone)]
pub struct MemberSpec {
    pub name: String,
    pub data_dir: PathBuf,
    pub nodes: u32,
    pub kubernetes_version: String,
    /// A Go duration, passed to `--pod-ready-delay`.
    pub pod_ready_delay: String,
    pub address: IpAddr,
    /// 0 picks a free port on first start; the record keeps it for later starts.
    pub port: u16,
    /// Run in this terminal (the caller waits for `Started::child`).
    pub foreground: bool,
    pub verbosity: i32,
    pub ready_timeout: Duration,
    /// The karmadactl binary that serves the member.
    pub exe: PathBuf,
}

/// A running member.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Started {
    pub name: String,
    /// Always true: the cluster is simulated, never a real Kubernetes cluster.
    pub simulated: bool,
    pub url: String,
    pub kubeconfig: PathBuf,
    pub pid: u32,
    pub data_dir: PathBuf,
    pub log_file: Option<PathBuf>,
    pub already_running: bool,
    #[serde(skip)]
    pub child: Option<Child>,
}

pub async fn start(spec: &MemberSpec) -> Result<Started, MemberError> {
    let layout = layout(&spec.data_dir);
    let record_path = spec.data_dir.join(RECORD_FILE);
    let existing = MemberRecord::read(&record_path)?;
    match &existing {
        Some(rec) if rec.name != spec.name => {
            return Err(MemberError::OtherMember {
                path: spec.data_dir.clone(),
                found: rec.name.clone(),
                asked: spec.name.clone(),
            });
        }
        None if dir_has_entries(&spec.data_dir) => {
            return Err(MemberError::NotAMemberDir { path: spec.data_dir.clone() });
        }
        _ => {}
    }
    create_private_dir(&spec.data_dir)?;
    let kubeconfig = kubeconfig_path(&spec.data_dir, &spec.name);
    let record = match existing {
        Some(rec) => rec,
        None => {
            let listen =
                if spec.port == 0 { free_port(spec.address)? } else { SocketAddr::new(spec.address, spec.port) };
            let rec = MemberRecord { name: spec.name.clone(), listen, created_by: env!("CARGO_PKG_VERSION").into() };
            rec.write(&record_path)?;
            rec
        }
    };

    let running = process::running_pid(&layout);
    let (pid, child) = match running {
        Some(pid) => (pid, None),
        None if spec.foreground => {
            let child = Command::new(&spec.exe)
                .args(serve_args(spec, &record, &kubeconfig))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
                .map_err(process::ProcessError::Spawn)?;
            let pid_file = layout.pid_file();
            crate::private_files::write(&pid_file, format!("{}\n", child.id()).as_bytes())
                .map_err(|source| MemberError::Io { what: "cannot write", path: pid_file, source })?;
            (child.id(), Some(child))
        }
        None => (process::spawn_detached(&spec.exe, &serve_args(spec, &record, &kubeconfig), &layout)?, None),
    };
    let data_dir = spec.data_dir.clone();
    if let Err(e) =
        client::wait_ready(&kubeconfig, spec.ready_timeout, || process::is_plane_process(pid, &data_dir)).await
    {
        let log = layout.log_file();
        let tail = if spec.foreground { String::new() } else { log_tail(&log, 15) };
        let detail =
            if tail.is_empty() { e.to_string() } else { format!("{e}\nlast lines of {}:\n{tail}", log.display()) };
        return Err(MemberError::NotReady { detail, log_file: log });
    }
    Ok(Started {
        name: spec.name.clone(),
        simulated: true,
        url: record.url(),
        kubeconfig,
        pid,
        data_dir: spec.data_dir.clone(),
        log_file: (!spec.foreground || running.is_some()).then(|| layout.log_file()),
        already_running: running.is_some(),
        child,
    })
}

/// The `controlplane serve` command line of a member; `--data-dir` is what identifies it.
fn serve_args(spec: &MemberSpec, record: &MemberRecord, kubeconfig: &Path) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["controlplane".into(), "serve".into(), "--data-dir".into()];
    args.push(spec.data_dir.clone().into());
    for (flag, value) in [
        ("--profile", "kubernetes".to_string()),
        ("--kubeconfig-context", spec.name.clone()),
        ("--listen", record.listen.to_string()),
        ("--kubernetes-version", spec.kubernetes_version.clone()),
        ("--nodes", spec.nodes.to_string()),
        ("--pod-ready-delay", spec.pod_ready_delay.clone()),
    ] {
        args.push(flag.into());
        args.push(value.into());
    }
    args.push("--admin-kubeconfig".into());
    args.push(kubeconfig.into());
    args.push("--simulate-workloads".into());
    // Info-level logs: the log file is where users look when something is wrong.
    args.push(format!("--v={}", spec.verbosity.max(2)).into());
    args
}

fn free_port(ip: IpAddr) -> Result<SocketAddr, MemberError> {
    let io =
        |source| MemberError::Io { what: "cannot find a free port for", path: PathBuf::from(ip.to_string()), source };
    let listener = std::net::TcpListener::bind(SocketAddr::new(ip, 0)).map_err(io)?;
    listener.local_addr().map_err(io)
}

fn dir_has_entries(dir: &Path) -> bool {
    std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(false)
}

fn create_private_dir(path: &Path) -> Result<(), MemberError> {
    crate::private_files::create_dir(path).map_err(|source| MemberError::Io {
        what: "cannot create",
        path: path.to_path_buf(),
        source,
    })
}

fn log_tail(path: &Path, lines: usize) -> String {
    let Ok(text) = std::fs::read_to_string(path) else { return String::new() };
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
