//! The SPDY session against a client written with the framing crate, over an in-memory
//! connection and a kubelet whose command copies stdin to stdout and exits 3: the streams
//! answered, the bytes and the Status on their streams, every stream finished; and the bounds
//! (streams per connection, client stream ids, frame length) ending the connection without a
//! Status.

use std::sync::Arc;
use std::time::Duration;

use karmadactl_apimachinery::spdy::{Frame, FrameReader, FrameWriter, ReadError};
use serde_json::{Value, json};
use tokio::io::{AsyncWriteExt, DuplexStream};

use super::pod_exec_session::Session;
use super::pod_exec_spdy::serve;
use crate::kubelet::{ContainerLog, ExecEnd, ExecIo, ExecRequest, ExecRun, Kubelet};

/// A command that copies stdin to stdout, then exits 3.
#[derive(Debug)]
struct Cat;

impl Kubelet for Cat {
    fn container_log(&self, _: &Value, _: &str, _: bool, _: jiff::Timestamp) -> Result<ContainerLog, String> {
        Err("no logs".into())
    }

    fn exec(&self, _: ExecRequest, io: ExecIo) -> ExecRun {
        Box::pin(async move {
            if let Some(mut stdin) = io.stdin {
                while let Some(chunk) = stdin.recv().await {
                    let _ = io.stdout.send(chunk).await;
                }
            }
            ExecEnd::Exited(3)
        })
    }

    fn attach(&self, request: ExecRequest, io: ExecIo) -> ExecRun {
        self.exec(request, io)
    }
}

fn session() -> Session {
    Session {
        attach: false,
        stdin: true,
        stdout: true,
        stderr: true,
        tty: false,
        deadline: tokio::time::Instant::now() + Duration::from_secs(10),
        request: ExecRequest {
            pod: json!({}),
            container: "c".into(),
            command: vec!["cat".into()],
            files: Default::default(),
        },
    }
}

fn syn(stream: u32, role: &str) -> Frame {
    Frame::SynStream {
        stream,
        associated: 0,
        priority: 0,
        flags: 0,
        headers: vec![("streamtype".into(), vec![role.into()])],
    }
}

/// Starts the session on one end of an in-memory connection; returns the client's end.
fn connect() -> DuplexStream {
    let (client, server) = tokio::io::duplex(64 * 1024);
    tokio::spawn(serve(server, Arc::new(Cat), session()));
    client
}

async fn send(client: &mut DuplexStream, writer: &mut FrameWriter, frames: &[Frame]) {
    for frame in frames {
        client.write_all(&writer.encode(frame)).await.unwrap();
    }
}

/// Every frame until the server closes the connection.
async fn frames(client: &mut DuplexStream) -> Vec<Frame> {
    let mut reader = FrameReader::new(1024 * 1024);
    let mut out = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(5), reader.read(client)).await.expect("the server ends") {
            Ok(frame) => out.push(frame),
            Err(ReadError::Gone) => return out,
            Err(ReadError::Protocol(why)) => panic!("{why}"),
        }
    }
}

#[tokio::test]
async fn a_session_answers_each_stream_and_finishes_them_after_the_status() {
    let mut client = connect();
    let mut writer = FrameWriter::default();
    let open = [syn(1, "error"), syn(3, "stdin"), syn(5, "stdout"), syn(7, "stderr")];
    send(&mut client, &mut writer, &open).await;
    let stdin = [
        Frame::Data { stream: 3, fin: false, data: b"hello ".to_vec() },
        Frame::Data { stream: 3, fin: true, data: b"there".to_vec() },
        Frame::Ping { id: 1 },
    ];
    send(&mut client, &mut writer, &stdin).await;
    let got = frames(&mut client).await;
    let replies: Vec<u32> = got
        .iter()
        .filter_map(|f| match f {
            Frame::SynReply { stream, .. } => Some(*stream),
            _ => None,
        })
        .collect();
    assert_eq!(replies, [1, 3, 5, 7]);
    assert!(got.contains(&Frame::Ping { id: 1 }), "{got:?}");
    let on = |stream: u32| -> Vec<u8> {
        got.iter()
            .filter_map(|f| match f {
                Frame::Data { stream: s, data, .. } if *s == stream => Some(data.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    };
    assert_eq!(on(5), b"hello there");
    assert_eq!(on(7), b"");
    let status: Value = serde_json::from_slice(&on(1)).unwrap();
    assert_eq!(status["reason"], "NonZeroExitCode");
    assert_eq!(status["details"]["causes"][0], json!({"reason": "ExitCode", "message": "3"}));
    // stdout, stderr and error each end with FIN, the error stream last.
    let fins: Vec<u32> = got
        .iter()
        .filter_map(|f| match f {
            Frame::Data { stream, fin: true, .. } => Some(*stream),
            _ => None,
        })
        .collect();
    assert_eq!(fins, [5, 7, 1]);
}

#[tokio::test]
async fn the_bounds_end_the_connection_without_running_anything() {
    // Too many streams: the seventeenth ends it, before the session's streams are complete.
    let mut client = connect();
    let mut writer = FrameWriter::default();
    let many: Vec<Frame> = (0..17).map(|i| syn(9 + 2 * i, "resize")).collect();
    send(&mut client, &mut writer, &many).await;
    let got = frames(&mut client).await;
    assert_eq!(got.len(), 16, "one reply per stream allowed, then the end: {got:?}");
    assert!(got.iter().all(|f| matches!(f, Frame::SynReply { .. })));

    // A stream id a server would pick (even).
    let mut client = connect();
    let mut writer = FrameWriter::default();
    send(&mut client, &mut writer, &[syn(2, "error")]).await;
    assert_eq!(frames(&mut client).await, []);

    // A frame longer than 1 MiB, refused from its header alone.
    let mut client = connect();
    client.write_all(&[0, 0, 0, 3, 0, 0x10, 0, 1]).await.unwrap();
    assert_eq!(frames(&mut client).await, []);
}
