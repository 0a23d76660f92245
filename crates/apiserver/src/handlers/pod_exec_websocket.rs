//! A [`pod_exec_session`](super::pod_exec_session) over WebSocket, framed as the kubelet frames
//! it: every binary message starts with its channel (0 stdin, 1 stdout, 2 stderr, 3 the final
//! Status, 4 terminal resize; in v5, `255 N` closes the client's stream N). After the Status the
//! connection closes. Each client message is bounded.

use std::sync::Arc;

use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use karmadactl_apimachinery::websocket::channel::{CLOSE_STREAM, ERROR, STDERR, STDIN, STDOUT};
use tokio::io::AsyncWrite;
use tokio::sync::mpsc;

use super::pod_exec_session::{self, BUFFERED, MAX_STDIN, Out, Session};
use crate::kubelet::Kubelet;
use crate::websocket::{self, Message, Role};

/// The largest message a client may send (a chunk of stdin or a resize).
const MAX_MESSAGE: usize = 1024 * 1024;

/// Runs the session on the upgraded connection; `v5` is the negotiated protocol's.
pub async fn run(upgrade: OnUpgrade, kubelet: Arc<dyn Kubelet>, session: Session, v5: bool) {
    let Ok(upgraded) = upgrade.await else { return };
    let (mut rd, mut wr) = tokio::io::split(TokioIo::new(upgraded));
    let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>(BUFFERED);
    let (pong_tx, mut pong_rx) = mpsc::channel::<Vec<u8>>(4);
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
    let (out_tx, mut out_rx) = mpsc::channel::<Out>(BUFFERED);
    let writer = async move {
        loop {
            let written = tokio::select! {
                out = out_rx.recv() => match out {
                    Some(Out::Stdout(bytes)) => send(&mut wr, STDOUT, &bytes).await,
                    Some(Out::Stderr(bytes)) => send(&mut wr, STDERR, &bytes).await,
                    Some(Out::Status(bytes)) => send(&mut wr, ERROR, &bytes).await,
                    None => break,
                },
                Some(payload) = pong_rx.recv() => websocket::write_frame(&mut wr, websocket::OP_PONG, &payload, Role::Server).await,
            };
            if written.is_err() {
                return;
            }
        }
        // Normal closure (1000).
        let _ = websocket::write_frame(&mut wr, websocket::OP_CLOSE, &[0x03, 0xE8], Role::Server).await;
    };
    let writer = tokio::spawn(writer);
    pod_exec_session::drive(kubelet, &session, in_rx, &mut reader, out_tx).await;
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer).await;
    reader.abort();
}

async fn send<W: AsyncWrite + Unpin>(wr: &mut W, channel: u8, bytes: &[u8]) -> std::io::Result<()> {
    let mut message = Vec::with_capacity(bytes.len() + 1);
    message.push(channel);
    message.extend_from_slice(bytes);
    websocket::write_frame(wr, websocket::OP_BINARY, &message, Role::Server).await
}
