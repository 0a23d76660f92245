//! One `pods/exec` or `pods/attach` session, whatever carries it: the command (or the attached
//! process) runs through the [`Kubelet`], its stdout and stderr are handed to the transport as
//! they come, and its end becomes the kubelet's Status (the exit code in
//! `details.causes[ExitCode]`). The transports ([`super::pod_exec_websocket`],
//! [`super::pod_exec_spdy`]) frame these for their protocol and feed stdin back; all of stdin
//! and the session's length are bounded here.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::kubelet::{ExecEnd, ExecIo, ExecRequest, Kubelet};

/// All the stdin one session takes; beyond it the session ends.
pub const MAX_STDIN: usize = 64 * 1024 * 1024;
/// Chunks in flight between the command and the connection, either way.
pub const BUFFERED: usize = 16;
/// How long a simulated process takes to start after the upgrade.
const PROCESS_START: std::time::Duration = std::time::Duration::from_millis(100);

/// What the handler decided for the session.
pub struct Session {
    /// Attach to the main process rather than run `request.command`.
    pub attach: bool,
    pub stdin: bool,
    pub stdout: bool,
    pub stderr: bool,
    pub tty: bool,
    pub deadline: Instant,
    pub request: ExecRequest,
}

/// What the session hands its transport to send.
#[derive(Debug)]
pub enum Out {
    Stdout(Vec<u8>),
    Stderr(Vec<u8>),
    /// The kubelet's Status (JSON) at the end; nothing follows it.
    Status(Vec<u8>),
}

/// Runs the session until the command ends (its Status sent), the client goes (`client`, the
/// transport's reader, finishes: nothing more is sent) or the deadline passes. `stdin` carries
/// the client's stdin chunks; its closing is the client's end of input.
pub async fn drive(
    kubelet: Arc<dyn Kubelet>,
    session: &Session,
    stdin: mpsc::Receiver<Vec<u8>>,
    client: &mut JoinHandle<()>,
    out: mpsc::Sender<Out>,
) {
    // A container runtime takes a moment to start the process. client-go's WebSocket executor
    // registers its streams only after the upgrade and drops frames that come first ("Unknown
    // stream id"), so a command that writes at once waits as long as a real start would.
    tokio::time::sleep(PROCESS_START).await;
    let (out_tx, mut out_rx) = mpsc::channel::<Vec<u8>>(BUFFERED);
    let (err_tx, mut err_rx) = mpsc::channel::<Vec<u8>>(BUFFERED);
    let io = ExecIo { stdin: session.stdin.then_some(stdin), stdout: out_tx, stderr: err_tx };
    let mut command = match session.attach {
        true => kubelet.attach(session.request.clone(), io),
        false => kubelet.exec(session.request.clone(), io),
    };
    let (mut end, mut out_open, mut err_open) = (None, true, true);
    while end.is_none() || out_open || err_open {
        tokio::select! {
            e = &mut command, if end.is_none() => end = Some(e),
            chunk = out_rx.recv(), if out_open => match chunk {
                Some(bytes) if session.stdout => {
                    let bytes = if session.tty { onlcr(&bytes) } else { bytes };
                    if out.send(Out::Stdout(bytes)).await.is_err() { break }
                }
                Some(_) => {}
                None => out_open = false,
            },
            chunk = err_rx.recv(), if err_open => match chunk {
                Some(bytes) if session.stderr => if out.send(Out::Stderr(bytes)).await.is_err() { break },
                Some(_) => {}
                None => err_open = false,
            },
            // The client went away: the command goes with it.
            _ = &mut *client => return,
            _ = tokio::time::sleep_until(session.deadline) => {
                end = Some(ExecEnd::Failed("the exec session reached its time limit".into()));
                break;
            }
        }
    }
    drop(command);
    if let Some(end) = end {
        let _ = out.send(Out::Status(status(&session.request.command, &end).to_string().into_bytes())).await;
    }
}

/// A terminal's output translation: each `\n` reaches the client as `\r\n`.
fn onlcr(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for &b in bytes {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// The Status the kubelet writes on the error channel when the command ends.
fn status(command: &[String], end: &ExecEnd) -> Value {
    match end {
        ExecEnd::Exited(0) => json!({"metadata": {}, "status": "Success"}),
        ExecEnd::Exited(code) => json!({
            "metadata": {},
            "status": "Failure",
            "message": format!(
                "command terminated with non-zero exit code: error executing command [{}], exit code {code}",
                command.join(" ")
            ),
            "reason": "NonZeroExitCode",
            "details": {"causes": [{"reason": "ExitCode", "message": code.to_string()}]},
        }),
        ExecEnd::Failed(why) => {
            let why = format!("error executing command in container: {why}");
            json!({
                "metadata": {},
                "status": "Failure",
                "message": format!("Internal error occurred: {why}"),
                "reason": "InternalError",
                "details": {"causes": [{"message": why}]},
                "code": 500,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_is_told_as_the_kubelet_tells_it() {
        let cmd = vec!["sh".to_string(), "-c".to_string(), "exit 3".to_string()];
        let failed = status(&cmd, &ExecEnd::Exited(3));
        assert_eq!(failed["details"]["causes"][0], json!({"reason": "ExitCode", "message": "3"}));
        assert_eq!(
            failed["message"],
            "command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3"
        );
        assert_eq!(status(&cmd, &ExecEnd::Exited(0)), json!({"metadata": {}, "status": "Success"}));
        assert_eq!(onlcr(b"a\nb\n"), b"a\r\nb\r\n");
    }
}
