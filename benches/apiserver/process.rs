//! Server processes: `karmadactl controlplane serve` and the bare server child, started with
//! their stdout piped (the first line is the URL, printed once ready), stopped on drop.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow, bail};

/// How long a server may take to print its URL before the benchmark gives up on it.
const START_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Proc {
    child: Option<Child>,
    /// Held so a bare server child sees EOF (and exits) when the benchmark ends.
    _stdin: Option<ChildStdin>,
    pub url: String,
    /// Spawn to the first stdout line.
    pub first_line: Duration,
    pub started: Instant,
}

impl Proc {
    /// Spawns `cmd` with stderr appended to `log` and waits for its first stdout line.
    pub fn spawn(mut cmd: Command, log: &Path) -> anyhow::Result<Proc> {
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .with_context(|| format!("opening {}", log.display()))?;
        let started = Instant::now();
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log_file))
            .spawn()
            .with_context(|| format!("starting {cmd:?}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout pipe"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        // The read blocks; a thread lets the wait be bounded. It then keeps draining stdout so
        // the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let n = reader.read_line(&mut line).unwrap_or(0);
            let at = Instant::now();
            let _ = tx.send((n, line, at));
            let mut sink = String::new();
            while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
                sink.clear();
            }
        });
        let mut proc =
            Proc { child: Some(child), _stdin: stdin, url: String::new(), first_line: Duration::ZERO, started };
        let (n, line, at) = match rx.recv_timeout(START_TIMEOUT) {
            Ok(got) => got,
            Err(_) => bail!("{cmd:?} printed nothing within {START_TIMEOUT:?} (log: {})", log.display()),
        };
        if n == 0 {
            bail!("{cmd:?} exited before printing its URL (log: {})", log.display());
        }
        proc.first_line = at - started;
        proc.url = line.trim().to_string();
        if !proc.url.starts_with("https://127.0.0.1:") {
            bail!("unexpected first line {:?} from {cmd:?}", proc.url);
        }
        Ok(proc)
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map(Child::id).unwrap_or(0)
    }

    /// Resident set size from /proc/<pid>/status, in KiB.
    pub fn rss_kib(&self) -> anyhow::Result<u64> {
        let path = format!("/proc/{}/status", self.pid());
        let status = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| anyhow!("no VmRSS in {path}"))
    }

    /// SIGTERM, then SIGKILL after 10 s.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        // SAFETY: signalling the pid of a child we have not reaped yet.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `karmadactl controlplane serve` on a free loopback port with `data_dir`.
pub fn plane(data_dir: &Path) -> anyhow::Result<Proc> {
    plane_with(data_dir, &[])
}

/// Like [`plane`], with more `controlplane serve` flags (datastore, profile, PKI dir).
pub fn plane_with(data_dir: &Path, extra: &[&str]) -> anyhow::Result<Proc> {
    let mut cmd = Command::new(karmadactl_binary());
    cmd.args(["controlplane", "serve", "--listen", "127.0.0.1:0", "--data-dir"]).arg(data_dir).args(extra);
    Proc::spawn(cmd, &data_dir.with_extension("log"))
}

/// The karmadactl the benchmark starts: this build's, or the one `APISERVER_BENCH_BINARY` names,
/// so one run of the same load generator can measure another build (an older commit) against it.
pub fn karmadactl_binary() -> std::path::PathBuf {
    match std::env::var_os("APISERVER_BENCH_BINARY") {
        Some(path) if !path.is_empty() => path.into(),
        _ => env!("CARGO_BIN_EXE_karmadactl").into(),
    }
}

/// SIGKILL, as a crash would end the process: no shutdown, no lease release.
#[allow(dead_code)] // only the etcd benchmark crashes a replica
pub fn kill9(proc: &mut Proc) {
    if let Some(mut child) = proc.child.take() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// This benchmark binary in bare-server mode, serving with the PKI under `pki`.
pub fn bare(pki: &Path, log: &Path) -> anyhow::Result<Proc> {
    let exe = std::env::current_exe().context("locating the benchmark binary")?;
    let mut cmd = Command::new(exe);
    cmd.arg("bare-server").arg(pki);
    Proc::spawn(cmd, log)
}

/// Wall time of spawning `/bin/true` and reaping it.
pub fn bin_true() -> anyhow::Result<Duration> {
    let started = Instant::now();
    let status = Command::new("/bin/true").status().context("running /bin/true")?;
    let took = started.elapsed();
    if !status.success() {
        bail!("/bin/true failed");
    }
    Ok(took)
}

/// User + system CPU seconds of a process so far.
pub fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0.0 };
    // Fields after the command name (which may contain spaces) start at state (field 3).
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { return 0.0 };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15, i.e. 11 and 12 after the state field.
    (ticks(11) + ticks(12)) / clock_ticks()
}

/// CPU time of every other user-space process, to tell whether other work shared the machine
/// while the benchmark ran (on 2 cores, anyone else's build inflates both columns).
///
/// Kernel threads are not counted: the file system's journal thread doing this benchmark's
/// fsyncs, or softirq work for its loopback traffic, is the benchmark's own cost.
pub struct CpuShare {
    others: HashMap<u32, f64>,
    ours: f64,
    at: Instant,
}

/// Shares of the machine's total CPU capacity over an interval.
pub struct Share {
    pub cores: usize,
    pub ours: f64,
    pub others: f64,
}

impl CpuShare {
    /// `alive` are this benchmark's running children (their time is not yet in its counters).
    pub fn now(alive: &[u32]) -> CpuShare {
        CpuShare { others: others(alive), ours: ours(alive), at: Instant::now() }
    }

    /// `alive` must be the same children as at [`CpuShare::now`]; children reaped in between
    /// count through this process's counters.
    pub fn since(&self, alive: &[u32]) -> Share {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let capacity = self.at.elapsed().as_secs_f64() * cores as f64;
        // A process that started meanwhile counts whole; one that ended counts through its
        // parent's children counters once reaped.
        let others: f64 =
            others(alive).iter().map(|(pid, now)| (now - self.others.get(pid).copied().unwrap_or(0.0)).max(0.0)).sum();
        let ours = ours(alive) - self.ours;
        Share { cores, ours: ours / capacity, others: others / capacity }
    }
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64
}

/// utime, stime, cutime, cstime of /proc/<pid>/stat in seconds, and whether it is a kernel thread.
fn process_seconds(pid: &str) -> Option<(f64, bool)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the command name: state is field 3, flags field 9, utime..cstime fields 14-17.
    const PF_KTHREAD: u64 = 0x0020_0000;
    let flags: u64 = fields.get(6)?.parse().ok()?;
    let sum: f64 = (11..=14).filter_map(|i| fields.get(i).and_then(|f| f.parse::<f64>().ok())).sum();
    Some((sum / clock_ticks(), flags & PF_KTHREAD != 0))
}

/// CPU seconds so far of every user-space process that is neither this one nor `alive`.
fn others(alive: &[u32]) -> HashMap<u32, f64> {
    let me = std::process::id();
    let Ok(dir) = std::fs::read_dir("/proc") else { return HashMap::new() };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|pid| *pid != me && !alive.contains(pid))
        .filter_map(|pid| match process_seconds(&pid.to_string()) {
            Some((secs, false)) => Some((pid, secs)),
            _ => None,
        })
        .collect()
}

fn ours(alive: &[u32]) -> f64 {
    process_seconds("self").map_or(0.0, |(s, _)| s) + alive.iter().map(|&pid| cpu_seconds(pid)).sum::<f64>()
}
