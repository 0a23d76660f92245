//! A [`pod_exec_session`](super::pod_exec_session) over SPDY/3.1, as the kubelet serves
//! `v4.channel.k8s.io` on it: the client opens one stream per role (its `streamtype` header:
//! error, stdin, stdout, stderr, resize), each answered with SYN_REPLY; once the streams the
//! request asked for exist the command starts. Output goes out as data frames on stdout and
//! stderr, the Status on the error stream, then every stream is finished (FIN) and the
//! connection closed. Stdin ends with the client's FIN (or RST_STREAM) on its stream. Frames,
//! header blocks, streams and stdin are bounded, and the streams must arrive in time.

use std::sync::Arc;
use std::time::Duration;

use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;
use karmadactl_apimachinery::spdy::{self, Frame, FrameReader, FrameWriter, stream_type};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

use super::pod_exec_session::{self, BUFFERED, MAX_STDIN, Out, Session};
use crate::kubelet::Kubelet;

/// The largest frame a client may send (a chunk of stdin, a resize, a stream's headers).
const MAX_FRAME: usize = 1024 * 1024;
/// Streams one connection may open: the five roles, with room for a client that reopens one.
const MAX_STREAMS: usize = 16;
/// How long the client has to open its streams (the kubelet's streamCreationTimeout).
const STREAM_WAIT: Duration = Duration::from_secs(30);
/// Output per data frame.
const CHUNK: usize = 32 * 1024;

/// The streams the client opened, by role.
#[derive(Debug, Default, Clone, Copy)]
struct Streams {
    error: Option<u32>,
    stdin: Option<u32>,
    stdout: Option<u32>,
    stderr: Option<u32>,
    resize: Option<u32>,
}

impl Streams {
    /// Whether every stream the session needs is open (`needs`: stdin, stdout, stderr, tty).
    fn complete(&self, needs: [bool; 4]) -> bool {
        let [stdin, stdout, stderr, tty] = needs;
        self.error.is_some()
            && (!stdin || self.stdin.is_some())
            && (!stdout || self.stdout.is_some())
            && (!stderr || self.stderr.is_some())
            && (!tty || self.resize.is_some())
    }
}

/// Runs the session on the upgraded connection.
pub async fn run(upgrade: OnUpgrade, kubelet: Arc<dyn Kubelet>, session: Session) {
    let Ok(upgraded) = upgrade.await else { return };
    serve(TokioIo::new(upgraded), kubelet, session).await;
}

/// Runs the session on `connection`, whatever carries it.
pub(super) async fn serve<C>(connection: C, kubelet: Arc<dyn Kubelet>, session: Session)
where
    C: AsyncRead + AsyncWrite + Send + 'static,
{
    let (mut rd, mut wr) = tokio::io::split(connection);
    let (frames_tx, mut frames_rx) = mpsc::channel::<Frame>(BUFFERED);
    let writer = tokio::spawn(async move {
        let mut framer = FrameWriter::default();
        while let Some(frame) = frames_rx.recv().await {
            if wr.write_all(&framer.encode(&frame)).await.is_err() || wr.flush().await.is_err() {
                return;
            }
        }
        let _ = wr.shutdown().await;
    });
    let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>(BUFFERED);
    let (ready_tx, ready_rx) = oneshot::channel::<Streams>();
    let needs = [session.stdin, session.stdout, session.stderr, session.tty];
    let replies = frames_tx.clone();
    let mut reader = tokio::spawn(async move {
        let mut framer = FrameReader::new(MAX_FRAME);
        let (mut streams, mut opened) = (Streams::default(), 0);
        let mut ready = Some(ready_tx);
        let mut stdin = Some(in_tx);
        let mut left = MAX_STDIN;
        loop {
            match framer.read(&mut rd).await {
                Ok(Frame::SynStream { stream, headers, .. }) => {
                    opened += 1;
                    // Clients open odd-numbered streams.
                    if opened > MAX_STREAMS || stream % 2 == 0 {
                        return;
                    }
                    let slot = match spdy::get(&headers, spdy::STREAM_TYPE).unwrap_or_default() {
                        stream_type::ERROR => &mut streams.error,
                        stream_type::STDIN => &mut streams.stdin,
                        stream_type::STDOUT => &mut streams.stdout,
                        stream_type::STDERR => &mut streams.stderr,
                        stream_type::RESIZE => &mut streams.resize,
                        _ => {
                            let _ = replies.send(Frame::RstStream { stream, status: 1 }).await;
                            continue;
                        }
                    };
                    *slot = Some(stream);
                    let _ = replies.send(Frame::SynReply { stream, fin: false, headers: Vec::new() }).await;
                    if streams.complete(needs)
                        && let Some(tx) = ready.take()
                    {
                        let _ = tx.send(streams);
                    }
                }
                Ok(Frame::Data { stream, fin, data }) if Some(stream) == streams.stdin => {
                    if data.len() > left {
                        return;
                    }
                    left -= data.len();
                    if let Some(tx) = stdin.as_ref().filter(|_| !data.is_empty()) {
                        let _ = tx.send(data).await;
                    }
                    if fin {
                        stdin = None;
                    }
                }
                Ok(Frame::RstStream { stream, .. }) if Some(stream) == streams.stdin => stdin = None,
                Ok(Frame::Ping { id }) => {
                    let _ = replies.send(Frame::Ping { id }).await;
                }
                Ok(Frame::GoAway { .. }) | Err(_) => return,
                // Resizes (a simulated terminal has no size), flow control, settings.
                Ok(_) => {}
            }
        }
    });
    let wait = tokio::time::sleep_until(session.deadline.min(tokio::time::Instant::now() + STREAM_WAIT));
    let streams = tokio::select! {
        streams = ready_rx => streams.ok(),
        _ = wait => None,
        _ = &mut reader => None,
    };
    let Some(streams) = streams else {
        reader.abort();
        return;
    };
    let (out_tx, mut out_rx) = mpsc::channel::<Out>(BUFFERED);
    let data = frames_tx.clone();
    let forward = tokio::spawn(async move {
        while let Some(out) = out_rx.recv().await {
            let (stream, bytes) = match out {
                Out::Stdout(bytes) => (streams.stdout, bytes),
                Out::Stderr(bytes) => (streams.stderr, bytes),
                Out::Status(bytes) => (streams.error, bytes),
            };
            let Some(stream) = stream else { continue };
            for chunk in bytes.chunks(CHUNK) {
                if data.send(Frame::Data { stream, fin: false, data: chunk.to_vec() }).await.is_err() {
                    return;
                }
            }
        }
        // The end of every stream the server writes to; closing the connection follows.
        for stream in [streams.stdout, streams.stderr, streams.error].into_iter().flatten() {
            let _ = data.send(Frame::Data { stream, fin: true, data: Vec::new() }).await;
        }
    });
    drop(frames_tx);
    pod_exec_session::drive(kubelet, &session, in_rx, &mut reader, out_tx).await;
    let _ = tokio::time::timeout(Duration::from_secs(5), forward).await;
    reader.abort();
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}
