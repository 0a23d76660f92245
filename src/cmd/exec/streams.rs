//! The client's end of a kubelet stream session (`pods/exec`, `pods/attach`), choosing the
//! transport as kubectl 1.33 does: WebSocket first, falling back to SPDY/3.1 ([`super::spdy`])
//! when the server does not switch protocols (a server before 1.30, a proxy that refuses), or
//! SPDY straight away under `KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false`. Over WebSocket it speaks
//! as client-go's WebSocket executor: the upgrade through the ordinary HTTP/TLS client offering
//! `v5.channel.k8s.io` then `v4.channel.k8s.io`; stdin sent on channel 0 (and closed with `255 0`
//! in v5), terminal sizes on channel 4, stdout and stderr copied from channels 1 and 2, and the
//! session's end read from the Status on channel 3.

use std::io::Read;

use hyper_util::rt::TokioIo;
use karmadactl_apimachinery::websocket::channel::{CLOSE_STREAM, ERROR, RESIZE, STDERR, STDIN, STDOUT};
use karmadactl_apimachinery::websocket::{self, Message, ReadError, Role};
use serde_json::Value;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::cmd::objects::{Failure, failure};
use crate::error::Verbatim;

/// The protocols offered, best first (client-go 1.33 offers these two for WebSocket).
const PROTOCOLS: &str = "v5.channel.k8s.io, v4.channel.k8s.io";
/// The largest message accepted from the server (kubelets send at most 32 KiB per frame).
const MAX_MESSAGE: usize = 4 * 1024 * 1024;
/// Bytes of stdin read at a time.
const STDIN_CHUNK: usize = 32 * 1024;

/// A terminal size as the kubelet reads it (Go's TerminalSize, field names as JSON keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    pub width: u16,
    pub height: u16,
}

impl Size {
    /// The size as the kubelet reads it from the resize stream.
    pub(super) fn json(&self) -> String {
        format!("{{\"Width\":{},\"Height\":{}}}", self.width, self.height)
    }
}

/// What the session carries.
pub struct Plan {
    /// Forward this process's stdin.
    pub stdin: bool,
    /// Copy the remote stderr to ours (off under a terminal, where it arrives on stdout).
    pub stderr: bool,
    /// Terminal sizes to send: the first at once, then on every change.
    pub sizes: Option<mpsc::Receiver<Size>>,
}

/// How the remote side ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    Success,
    /// The remote command exited with this non-zero code.
    ExitCode(i32),
}

/// Runs the session for `path` (a `pods/exec` or `pods/attach` URL with its query) to its end,
/// over WebSocket or SPDY. A refused upgrade is reported as kubectl reports the API server's
/// Status.
pub async fn run(client: &kube::Client, path: &str, plan: Plan) -> anyhow::Result<End> {
    if !websockets_disabled() {
        match upgrade(client, path).await? {
            Upgrade::Switched(upgraded, v5) => return session(upgraded, v5, plan).await,
            // client-go's fallback rule: a WebSocket upgrade failure (the server answered
            // without switching) tries SPDY; the SPDY attempt's outcome is the one reported.
            Upgrade::Refused => {}
        }
    }
    super::spdy::run(client, path, plan).await
}

/// kubectl's `KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false` (any case): SPDY only.
fn websockets_disabled() -> bool {
    std::env::var("KUBECTL_REMOTE_COMMAND_WEBSOCKETS").is_ok_and(|v| v.eq_ignore_ascii_case("false"))
}

/// The WebSocket upgrade's outcome.
enum Upgrade {
    /// Switched, to v5 (`true`) or v4.
    Switched(hyper::upgrade::Upgraded, bool),
    /// The server answered without switching, or the handshake was wrong (gorilla's
    /// ErrBadHandshake, which client-go calls an upgrade failure).
    Refused,
}

async fn upgrade(client: &kube::Client, path: &str) -> anyhow::Result<Upgrade> {
    let key = websocket::new_key()?;
    let req = http::Request::get(path)
        .header(http::header::CONNECTION, "Upgrade")
        .header(http::header::UPGRADE, "websocket")
        .header(http::header::SEC_WEBSOCKET_VERSION, "13")
        .header(http::header::SEC_WEBSOCKET_KEY, &key)
        .header(http::header::SEC_WEBSOCKET_PROTOCOL, PROTOCOLS)
        .body(kube::client::Body::empty())?;
    let response = client.send(req).await.map_err(refused)?;
    let accepted = response.headers().get(http::header::SEC_WEBSOCKET_ACCEPT).and_then(|v| v.to_str().ok());
    if response.status() != http::StatusCode::SWITCHING_PROTOCOLS
        || accepted != Some(websocket::accept_key(&key).as_str())
    {
        return Ok(Upgrade::Refused);
    }
    let protocol = response
        .headers()
        .get(http::header::SEC_WEBSOCKET_PROTOCOL)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let v5 = match protocol.as_str() {
        "v5.channel.k8s.io" => true,
        "v4.channel.k8s.io" => false,
        other => {
            return Err(Verbatim(format!("error: unable to upgrade connection: unsupported protocol {other:?}")).into());
        }
    };
    let upgraded = hyper::upgrade::on(response)
        .await
        .map_err(|e| Verbatim(format!("error: unable to upgrade connection: {e}")))?;
    Ok(Upgrade::Switched(upgraded, v5))
}

/// The session over an upgraded WebSocket connection.
async fn session(upgraded: hyper::upgrade::Upgraded, v5: bool, plan: Plan) -> anyhow::Result<End> {
    let (mut rd, wr) = tokio::io::split(TokioIo::new(upgraded));
    let (out_tx, out_rx) = mpsc::channel::<(u8, Vec<u8>)>(16);
    let writer = tokio::spawn(write_frames(wr, out_rx));
    if plan.stdin {
        spawn_stdin(out_tx.clone(), v5);
    }
    if let Some(mut sizes) = plan.sizes {
        let tx = out_tx.clone();
        tokio::spawn(async move {
            while let Some(size) = sizes.recv().await {
                if tx.send((websocket::OP_BINARY, channel(RESIZE, size.json().as_bytes()))).await.is_err() {
                    break;
                }
            }
        });
    }
    let mut stdout = tokio::io::stdout();
    let mut stderr = tokio::io::stderr();
    let mut status: Option<Vec<u8>> = None;
    let closed = loop {
        match websocket::read_message(&mut rd, MAX_MESSAGE, Role::Client).await {
            Ok(Message::Data(data)) => match data.split_first() {
                Some((&STDOUT, bytes)) => copy(&mut stdout, bytes).await?,
                Some((&STDERR, bytes)) if plan.stderr => copy(&mut stderr, bytes).await?,
                Some((&ERROR, bytes)) => status.get_or_insert_with(Vec::new).extend_from_slice(bytes),
                _ => {}
            },
            Ok(Message::Ping(payload)) => {
                let _ = out_tx.send((websocket::OP_PONG, payload)).await;
            }
            Ok(Message::Pong) => {}
            Ok(Message::Close) => break true,
            Err(ReadError::Gone) => break false,
            Err(ReadError::Protocol(why)) => {
                return Err(Verbatim(format!("error: error reading from the remote stream: {why}")).into());
            }
        }
    };
    // Answer the server's close, then stop writing.
    if closed {
        let _ = out_tx.send((websocket::OP_CLOSE, vec![0x03, 0xE8])).await;
    }
    drop(out_tx);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), writer).await;
    match status {
        Some(bytes) => decode_status(&bytes),
        None if closed => Ok(End::Success),
        None => {
            Err(Verbatim("error: the connection to the server closed before the remote command ended".into()).into())
        }
    }
}

fn channel(id: u8, bytes: &[u8]) -> Vec<u8> {
    let mut message = Vec::with_capacity(bytes.len() + 1);
    message.push(id);
    message.extend_from_slice(bytes);
    message
}

pub(super) async fn copy<W: AsyncWrite + Unpin>(w: &mut W, bytes: &[u8]) -> anyhow::Result<()> {
    w.write_all(bytes).await?;
    w.flush().await?;
    Ok(())
}

/// Writes queued frames until every sender is gone or the connection breaks.
async fn write_frames<W: AsyncWrite + Unpin>(mut wr: W, mut rx: mpsc::Receiver<(u8, Vec<u8>)>) {
    while let Some((opcode, payload)) = rx.recv().await {
        if websocket::write_frame(&mut wr, opcode, &payload, Role::Client).await.is_err() {
            return;
        }
    }
    let _ = wr.shutdown().await;
}

/// Queues each chunk of stdin on channel 0; at its end, v5 tells the server the stream closed.
fn spawn_stdin(tx: mpsc::Sender<(u8, Vec<u8>)>, v5: bool) {
    let mut chunks = stdin_chunks();
    tokio::spawn(async move {
        while let Some(chunk) = chunks.recv().await {
            if tx.send((websocket::OP_BINARY, channel(STDIN, &chunk))).await.is_err() {
                return;
            }
        }
        if v5 {
            let _ = tx.send((websocket::OP_BINARY, vec![CLOSE_STREAM, STDIN])).await;
        }
    });
}

/// Reads stdin on its own thread (a blocking read the runtime need not wait for); the channel
/// closes at its end.
pub(super) fn stdin_chunks() -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel(4);
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = vec![0u8; STDIN_CHUNK];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.blocking_send(buf[..n].to_vec()).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// client-go's v4 error decoder: Success ends quietly; NonZeroExitCode carries the exit code;
/// any other failure is its message.
pub(super) fn decode_status(bytes: &[u8]) -> anyhow::Result<End> {
    let protocol_error = || {
        Verbatim(format!("error: error stream protocol error: invalid status in {:?}", String::from_utf8_lossy(bytes)))
    };
    let status: Value = serde_json::from_slice(bytes).map_err(|_| protocol_error())?;
    match status.get("status").and_then(Value::as_str) {
        Some("Success") => Ok(End::Success),
        Some("Failure") => {
            if status.get("reason").and_then(Value::as_str) == Some("NonZeroExitCode") {
                let causes = status.pointer("/details/causes").and_then(Value::as_array).cloned().unwrap_or_default();
                let code = causes
                    .iter()
                    .find(|c| c.get("reason").and_then(Value::as_str) == Some("ExitCode"))
                    .and_then(|c| c.get("message").and_then(Value::as_str));
                return match code.map(str::parse::<i32>) {
                    Some(Ok(code)) => Ok(End::ExitCode(code)),
                    Some(Err(_)) => Err(Verbatim(format!(
                        "error: error stream protocol error: invalid exit code value {:?}",
                        code.unwrap_or_default()
                    ))
                    .into()),
                    None => Err(Verbatim(
                        "error: error stream protocol error: no exit code in a NonZeroExitCode status".into(),
                    )
                    .into()),
                };
            }
            let message = status.get("message").and_then(Value::as_str).unwrap_or_default();
            Err(Verbatim(format!("error: {message}")).into())
        }
        _ => Err(Verbatim("error: error stream protocol error: unknown error".into()).into()),
    }
}

/// A request that never reached an answer.
pub(super) fn refused(e: kube::Error) -> anyhow::Error {
    Verbatim(failure::render(&[Failure::from_kube(e)])).into()
}

/// The API server's refusal of the upgrade, worded as kubectl words a Status.
pub(super) async fn status_error(response: http::Response<kube::client::Body>) -> anyhow::Error {
    use http_body_util::BodyExt;
    let code = response.status().as_u16();
    let body = match response.into_body().collect().await {
        Ok(b) => b.to_bytes().to_vec(),
        Err(e) => return Verbatim(format!("error: {e}")).into(),
    };
    match serde_json::from_slice::<kube::core::Status>(&body) {
        Ok(s) if !s.message.is_empty() || !s.reason.is_empty() => {
            Verbatim(failure::render(&[Failure::Api(Box::new(s))])).into()
        }
        _ => {
            let text = String::from_utf8_lossy(&body).trim().to_string();
            let text = if text.is_empty() { format!("status {code}") } else { text };
            Verbatim(format!("error: unable to upgrade connection: {text}")).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(json: &str) -> Result<End, String> {
        decode_status(json.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn the_status_decides_how_the_session_ended() {
        assert_eq!(ended(r#"{"metadata":{},"status":"Success"}"#), Ok(End::Success));
        assert_eq!(
            ended(
                r#"{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}"#
            ),
            Ok(End::ExitCode(3))
        );
        assert_eq!(
            ended(r#"{"status":"Failure","reason":"InternalError","message":"Internal error occurred: boom"}"#),
            Err("error: Internal error occurred: boom".into())
        );
        assert_eq!(ended(r#"{"status":"Odd"}"#), Err("error: error stream protocol error: unknown error".into()));
    }
}
