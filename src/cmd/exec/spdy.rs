//! The client's end of a kubelet stream session over SPDY/3.1, as client-go's SPDY executor
//! speaks `v4.channel.k8s.io`: a POST upgrade through the ordinary HTTP/TLS client, then one
//! stream per role (error, stdin, stdout, stderr, resize; `streamtype` names each), stdin sent
//! on its stream and finished (FIN) at its end, terminal sizes on the resize stream, stdout and
//! stderr copied from theirs, and the session's end read from the Status on the error stream.
//! The session ends once the server has finished its streams (or closed the connection).

use hyper_util::rt::TokioIo;
use karmadactl_apimachinery::spdy::{self, Frame, FrameReader, FrameWriter, ReadError, stream_type};
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

use super::streams::{End, Plan, copy, decode_status, refused, status_error, stdin_chunks};
use crate::error::Verbatim;

/// The one stream protocol offered: every kubelet since 1.4 serves it.
const PROTOCOL: &str = "v4.channel.k8s.io";
/// The largest frame accepted from the server (kubelets send at most 32 KiB of output at once).
const MAX_FRAME: usize = 4 * 1024 * 1024;
/// The Status on the error stream, at most.
const MAX_STATUS: usize = 64 * 1024;

/// The streams of a session, by role: ids the client picks, odd and rising.
#[derive(Debug, Clone, Copy)]
struct Streams {
    error: u32,
    stdin: Option<u32>,
    stdout: u32,
    stderr: Option<u32>,
    resize: Option<u32>,
}

impl Streams {
    fn new(plan: &Plan) -> Self {
        let mut next = 1;
        let mut take = || {
            let id = next;
            next += 2;
            id
        };
        let error = take();
        let stdin = plan.stdin.then(&mut take);
        let stdout = take();
        let stderr = plan.stderr.then(&mut take);
        let resize = plan.sizes.is_some().then(&mut take);
        Self { error, stdin, stdout, stderr, resize }
    }

    /// SYN_STREAM for each, in client-go's order.
    fn open(&self) -> Vec<Frame> {
        let roles = [
            (Some(self.error), stream_type::ERROR),
            (self.stdin, stream_type::STDIN),
            (Some(self.stdout), stream_type::STDOUT),
            (self.stderr, stream_type::STDERR),
            (self.resize, stream_type::RESIZE),
        ];
        roles
            .into_iter()
            .filter_map(|(id, role)| {
                let headers = vec![(spdy::STREAM_TYPE.to_string(), vec![role.to_string()])];
                id.map(|stream| Frame::SynStream { stream, associated: 0, priority: 0, flags: 0, headers })
            })
            .collect()
    }
}

/// Opens the SPDY connection for `path` and runs the session to its end.
pub async fn run(client: &kube::Client, path: &str, plan: Plan) -> anyhow::Result<End> {
    let req = http::Request::post(path)
        .header(http::header::CONNECTION, "Upgrade")
        .header(http::header::UPGRADE, spdy::UPGRADE)
        .header(spdy::PROTOCOL_HEADER, PROTOCOL)
        .body(kube::client::Body::empty())?;
    let response = client.send(req).await.map_err(refused)?;
    if response.status() != http::StatusCode::SWITCHING_PROTOCOLS {
        return Err(status_error(response).await);
    }
    let header =
        |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    if !header("upgrade").eq_ignore_ascii_case(spdy::UPGRADE) {
        return Err(Verbatim(format!(
            "error: unable to upgrade connection: the server switched to {:?}, not SPDY/3.1",
            header("upgrade")
        ))
        .into());
    }
    if header(spdy::PROTOCOL_HEADER) != PROTOCOL {
        return Err(Verbatim(format!(
            "error: unable to upgrade connection: unsupported protocol {:?}",
            header(spdy::PROTOCOL_HEADER)
        ))
        .into());
    }
    let upgraded = hyper::upgrade::on(response)
        .await
        .map_err(|e| Verbatim(format!("error: unable to upgrade connection: {e}")))?;
    let (mut rd, mut wr) = tokio::io::split(TokioIo::new(upgraded));
    let streams = Streams::new(&plan);
    let (tx, mut rx) = mpsc::channel::<Frame>(16);
    let writer = tokio::spawn(async move {
        let mut framer = FrameWriter::default();
        while let Some(frame) = rx.recv().await {
            if wr.write_all(&framer.encode(&frame)).await.is_err() || wr.flush().await.is_err() {
                return;
            }
        }
        let _ = wr.shutdown().await;
    });
    for frame in streams.open() {
        let _ = tx.send(frame).await;
    }
    if let Some(stream) = streams.stdin {
        let tx = tx.clone();
        let mut chunks = stdin_chunks();
        tokio::spawn(async move {
            while let Some(data) = chunks.recv().await {
                if tx.send(Frame::Data { stream, fin: false, data }).await.is_err() {
                    return;
                }
            }
            let _ = tx.send(Frame::Data { stream, fin: true, data: Vec::new() }).await;
        });
    }
    if let (Some(stream), Some(mut sizes)) = (streams.resize, plan.sizes) {
        let tx = tx.clone();
        tokio::spawn(async move {
            while let Some(size) = sizes.recv().await {
                if tx.send(Frame::Data { stream, fin: false, data: size.json().into_bytes() }).await.is_err() {
                    break;
                }
            }
        });
    }
    let ended = read(&mut rd, &streams, &tx).await;
    drop(tx);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), writer).await;
    match ended? {
        (Some(status), _) if !status.is_empty() => decode_status(&status),
        (_, true) => Ok(End::Success),
        _ => Err(Verbatim("error: the connection to the server closed before the remote command ended".into()).into()),
    }
}

/// Copies stdout and stderr until the server has finished its streams; returns the error
/// stream's bytes (if it sent any) and whether the streams were finished rather than cut.
async fn read<R: tokio::io::AsyncRead + Unpin>(
    rd: &mut R,
    streams: &Streams,
    tx: &mpsc::Sender<Frame>,
) -> anyhow::Result<(Option<Vec<u8>>, bool)> {
    let mut framer = FrameReader::new(MAX_FRAME);
    let mut stdout = tokio::io::stdout();
    let mut stderr = tokio::io::stderr();
    let mut status: Option<Vec<u8>> = None;
    let mut open = [Some(streams.error), Some(streams.stdout), streams.stderr];
    while open.iter().any(Option::is_some) {
        let finished = match framer.read(rd).await {
            Ok(Frame::Data { stream, fin, data }) => {
                if stream == streams.stdout {
                    copy(&mut stdout, &data).await?;
                } else if Some(stream) == streams.stderr {
                    copy(&mut stderr, &data).await?;
                } else if stream == streams.error {
                    let bytes = status.get_or_insert_with(Vec::new);
                    if bytes.len() + data.len() > MAX_STATUS {
                        return Err(
                            Verbatim("error: error stream protocol error: the status is too long".into()).into()
                        );
                    }
                    bytes.extend_from_slice(&data);
                }
                fin.then_some(stream)
            }
            Ok(Frame::SynReply { stream, fin, .. }) | Ok(Frame::Headers { stream, fin, .. }) => fin.then_some(stream),
            Ok(Frame::RstStream { stream, .. }) => Some(stream),
            Ok(Frame::Ping { id }) => {
                let _ = tx.send(Frame::Ping { id }).await;
                None
            }
            Ok(Frame::SynStream { stream, .. }) => {
                // The server opens no streams in this protocol.
                let _ = tx.send(Frame::RstStream { stream, status: 3 }).await;
                None
            }
            Ok(Frame::GoAway { .. }) | Err(ReadError::Gone) => return Ok((status, false)),
            Ok(_) => None,
            Err(ReadError::Protocol(why)) => {
                return Err(Verbatim(format!("error: error reading from the remote stream: {why}")).into());
            }
        };
        if let Some(done) = finished {
            open.iter_mut().filter(|s| **s == Some(done)).for_each(|s| *s = None);
        }
    }
    Ok((status, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(frames: &[Frame]) -> Vec<(u32, String)> {
        frames
            .iter()
            .map(|f| match f {
                Frame::SynStream { stream, headers, .. } => {
                    (*stream, spdy::get(headers, spdy::STREAM_TYPE).unwrap_or_default().to_string())
                }
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_streams_are_opened_as_client_go_opens_them() {
        let piped = Plan { stdin: true, stderr: true, sizes: None };
        assert_eq!(
            roles(&Streams::new(&piped).open()),
            [(1, "error".into()), (3, "stdin".into()), (5, "stdout".into()), (7, "stderr".into())]
        );
        // A terminal: no stderr (it arrives on stdout), and a resize stream.
        let (_tx, sizes) = mpsc::channel(1);
        let terminal = Plan { stdin: true, stderr: false, sizes: Some(sizes) };
        assert_eq!(
            roles(&Streams::new(&terminal).open()),
            [(1, "error".into()), (3, "stdin".into()), (5, "stdout".into()), (7, "resize".into())]
        );
        let quiet = Plan { stdin: false, stderr: true, sizes: None };
        assert_eq!(
            roles(&Streams::new(&quiet).open()),
            [(1, "error".into()), (3, "stdout".into()), (5, "stderr".into())]
        );
    }
}
