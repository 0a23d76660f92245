//! One `pods/exec` or `pods/attach` WebSocket session, framed as the kubelet frames it: every
//! binary message starts with its channel (0 stdin, 1 stdout, 2 stderr, 3 the final Status, 4
//! terminal resize; in v5, `255 N` closes the client's stream N). The command's end is sent on channel 3
//! as the kubelet's Status (the exit code in `details.causes[ExitCode]`), then the connection
//! closes. Each client message, all of stdin and the session's length are bounded.

use std::sync::Arc;

use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use karmadactl_apimachinery::websocket::channel::{CLOSE_STREAM, ERROR, STDERR, STDIN, STDOUT};
use serde_json::{Value, json};
use tokio::io::AsyncWrite;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::kubelet::{ExecEnd, ExecIo, ExecRequest, Kubelet};
use crate::websocket::{self, Message, Role};

/// The largest message a client may send (a chunk of stdin or a resize).
const MAX_MESSAGE: usize = 1024 * 1024;
/// All the stdin one session takes; beyond it the session ends.
const MAX_STDIN: usize = 64 * 1024 * 1024;
/// Chunks in flight between the command and the connection, either way.
const BUFFERED: usize = 16;

/// What the handler decided for the session.
pub struct Session {
    /// Attach to the main process rather than run `request.command`.
    pub attach: bool,
    pub v5: bool,
    pub stdin: bool,
    pub stdout: bool,
    pub stderr: bool,
    pub tty: bool,
    pub deadline: Instant,
    pub request: ExecRequest,
}

/// Runs the session on the upgraded connection until the command ends, the client goes or
/// the deadline passes.
/// How long a simulated process takes to start after the upgrade.
const PROCESS_START: std::time::Duration = std::time::Duration::from_millis(100);

pub async fn run(upgrade: OnUpgrade, kubelet: Arc<dyn Kubelet>, session: Session) {
    let Ok(upgraded) = upgrade.await else { return };
    let (mut rd, mut wr) = tokio::io::split(TokioIo::new(upgraded));
    let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>(BUFFERED);
    let (out_tx, mut out_rx) = mpsc::channel::<Vec<u8>>(BUFFERED);
    let (err_tx, mut err_rx) = mpsc::channel::<Vec<u8>>(BUFFERED);
    let (pong_tx, mut pong_rx) = mpsc::channel::<Vec<u8>>(4);
    let v5 = session.v5;
    let mut reader = tokio::spawn(async move {
        let mut stdin = Some(in_tx);
        let mut left = MAX_STDIN;
        loop {
            match websocket::read_message(&mut rd, MAX_MESSAGE, Role::Server).await {
                Ok(Message::Data(data)) => match data.split_first() {
                    Some((&STDIN, chunk)) if !chunk.is_empty() => {
                        if chunk.len() > left {
                            return;
                        }
                        left -= chunk.len();
                        if let Some(tx) = &stdin {
                            let _ = tx.send(chunk.to_vec()).await;
                        }
                    }
                    Some((&CLOSE_STREAM, [STDIN])) if v5 => stdin = None,
                    // Resizes and empty chunks: a simulated terminal has no size.
                    _ => {}
                },
                Ok(Message::Ping(payload)) => {
                    let _ = pong_tx.send(payload).await;
                }
                Ok(Message::Pong) => {}
                Ok(Message::Close) | Err(_) => return,
            }
        }
    });
    // A container runtime takes a moment to start the process. client-go's WebSocket executor
    // registers its streams only after the upgrade and drops frames that come first ("Unknown
    // stream id"), so a command that writes at once waits as long as a real start would.
    tokio::time::sleep(PROCESS_START).await;
    let io = ExecIo { stdin: session.stdin.then_some(in_rx), stdout: out_tx, stderr: err_tx };
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
                    if send(&mut wr, STDOUT, &bytes).await.is_err() { break }
                }
                Some(_) => {}
                None => out_open = false,
            },
            chunk = err_rx.recv(), if err_open => match chunk {
                Some(bytes) if session.stderr => if send(&mut wr, STDERR, &bytes).await.is_err() { break },
                Some(_) => {}
                None => err_open = false,
            },
            Some(payload) = pong_rx.recv() => {
                if websocket::write_frame(&mut wr, websocket::OP_PONG, &payload, Role::Server).await.is_err() { break }
            }
            // The client went away: the command goes with it.
            _ = &mut reader => return,
            _ = tokio::time::sleep_until(session.deadline) => {
                end = Some(ExecEnd::Failed("the exec session reached its time limit".into()));
                break;
            }
        }
    }
    drop(command);
    if let Some(end) = end {
        let status = status(&session.request.command, &end).to_string();
        let _ = send(&mut wr, ERROR, status.as_bytes()).await;
    }
    // Normal closure (1000).
    let _ = websocket::write_frame(&mut wr, websocket::OP_CLOSE, &[0x03, 0xE8], Role::Server).await;
    reader.abort();
}

async fn send<W: AsyncWrite + Unpin>(wr: &mut W, channel: u8, bytes: &[u8]) -> std::io::Result<()> {
    let mut message = Vec::with_capacity(bytes.len() + 1);
    message.push(channel);
    message.extend_from_slice(bytes);
    websocket::write_frame(wr, websocket::OP_BINARY, &message, Role::Server).await
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
