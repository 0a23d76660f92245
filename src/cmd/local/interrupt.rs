//! Ctrl-C during `local up`: the plane and members it started are daemons that outlive it, so
//! on SIGINT it says what is left on disk and running, how to finish (`local up` again) or
//! remove it (`local down`), and exits 130 as shells expect of an interrupted command.

use std::path::PathBuf;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::cmd::local::simulated;
use crate::local_plane::{layout::Layout, process};

/// Exit code of a command ended by SIGINT (128 + 2).
const INTERRUPTED: i32 = 130;

/// Set by the handler before it reports, so a step whose child died of the same Ctrl-C does not
/// race the handler with an error of its own and a different exit code.
static RECEIVED: AtomicBool = AtomicBool::new(false);

/// How long a failed step waits for the handler to see a Ctrl-C its child already saw: the
/// signal reaches the whole process group at once, so this is scheduling delay only.
const SIGNAL_GRACE: Duration = Duration::from_secs(2);

/// Starts watching for SIGINT; returns once the handler is in place.
pub fn watch(playground_dir: PathBuf, parent: &'static str) {
    let (ready, installed) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
            let _ = ready.send(());
            return;
        };
        runtime.block_on(async {
            let Ok(mut sigint) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()) else {
                let _ = ready.send(());
                return;
            };
            let _ = ready.send(());
            if sigint.recv().await.is_some() {
                RECEIVED.store(true, Ordering::SeqCst);
                eprint!("{}", report(&playground_dir, parent));
                std::process::exit(INTERRUPTED);
            }
        });
    });
    let _ = installed.recv();
}

/// What an interrupted `local up` left behind, and the two ways on.
fn report(dir: &std::path::Path, parent: &str) -> String {
    let mut left = Vec::new();
    let plane = Layout::new(dir.join("karmada"), None);
    match process::running_pid(&plane) {
        Some(pid) => left.push(format!("the Karmada control plane is running (pid {pid})")),
        None if plane.data_dir.exists() => left.push("the Karmada control plane's files".to_string()),
        None => {}
    }
    for m in simulated::list(&dir.join("members")) {
        match m.pid {
            Some(pid) => left.push(format!("simulated member {} is running (pid {pid})", m.name)),
            None => left.push(format!("simulated member {}'s files", m.name)),
        }
    }
    let dir_flag = format!(" --data-dir {}", crate::cmd::init::banner::shell_word(&dir.display().to_string()));
    let mut out = format!("\ninterrupted: 'local up' stopped before the playground in {} was ready\n", dir.display());
    if left.is_empty() {
        out.push_str("nothing was started yet\n");
    } else {
        out.push_str("left behind:\n");
        for item in left {
            out.push_str(&format!("  - {item}\n"));
        }
    }
    out.push_str(&format!(
        "hint: run '{parent} local up{dir_flag}' again to finish it, or '{parent} local down{dir_flag}' to remove it.\n"
    ));
    out
}

/// Called when a child step failed: if a Ctrl-C ended it, the handler owns the report and the
/// exit code, so this never returns; otherwise it returns at once and the step's error stands.
pub fn defer_if_interrupted(status: ExitStatus) {
    use std::os::unix::process::ExitStatusExt;
    let by_sigint = status.signal() == Some(libc::SIGINT) || status.code() == Some(INTERRUPTED);
    // A child can also fail its own way after the Ctrl-C (its own child died of it), so any
    // failure gives the handler a moment; one that is the Ctrl-C's own exit gives it longer.
    let deadline = Instant::now() + if by_sigint { SIGNAL_GRACE } else { Duration::from_millis(100) };
    loop {
        if RECEIVED.load(Ordering::SeqCst) {
            // The handler prints and exits the process; nothing here may print or exit first.
            loop {
                std::thread::park();
            }
        }
        if Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
