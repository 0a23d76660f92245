//! One write seen by many watchers: open N watch streams on one namespace's ConfigMaps, spread
//! over several HTTP/2 connections, then create objects one at a time and time how long each
//! watcher takes to receive each ADDED event, from the moment the create was sent.

use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow, bail};
use http_body_util::BodyExt as _;
use tokio::sync::mpsc;

use super::client::{self, Conn, Target};

pub struct Fanout {
    /// Every watcher's delay for every write, from sending the create, sorted.
    pub delays: Vec<Duration>,
    /// Per write, the delay until the last watcher had it, sorted.
    pub last: Vec<Duration>,
    /// The creates' own latency (durable commit included), sorted.
    pub write_latency: Vec<Duration>,
    /// Deliveries that did not arrive within 10 s.
    pub missing: usize,
    /// Time to open every watch (all response headers received).
    pub open: Duration,
    /// Server CPU (user + system) per write while the watchers were open.
    pub cpu_per_write: Duration,
}

/// `server_pid` is read for the server's CPU time during the writes.
pub async fn fanout(
    target: &Target,
    server_pid: u32,
    ns: &str,
    connections: usize,
    per_conn: usize,
    writes: usize,
) -> anyhow::Result<Fanout> {
    let setup = target.connect().await?;
    client::ensure_namespace(target, &setup, ns).await?;
    let collection = format!("/api/v1/namespaces/{ns}/configmaps");
    let list = client::expect(&setup, client::get(target.uri(&collection)), 200).await?;
    let list: serde_json::Value = serde_json::from_slice(&list).context("the LIST response is not JSON")?;
    let rv = list["metadata"]["resourceVersion"]
        .as_str()
        .ok_or_else(|| anyhow!("the LIST response has no resourceVersion"))?
        .to_string();

    let conns = target.connect_many(connections).await?;
    let watchers = connections * per_conn;
    let (ack_tx, mut ack_rx) = mpsc::unbounded_channel::<(usize, Instant)>();
    let (ready_tx, mut ready_rx) = mpsc::unbounded_channel::<Result<(), String>>();
    // timeoutSeconds bounds the streams on the server side too, should this process die.
    let uri = target.uri(&format!("{collection}?watch=true&resourceVersion={rv}&timeoutSeconds=600"));
    let open_started = Instant::now();
    let mut tasks = Vec::with_capacity(watchers);
    for w in 0..watchers {
        let conn = conns[w % connections].clone();
        tasks.push(tokio::spawn(watcher(conn, uri.clone(), writes, ack_tx.clone(), ready_tx.clone())));
    }
    drop(ready_tx);
    for _ in 0..watchers {
        match tokio::time::timeout(Duration::from_secs(60), ready_rx.recv()).await {
            Ok(Some(Ok(()))) => {}
            Ok(Some(Err(e))) => bail!("a watch failed to open: {e}"),
            Ok(None) | Err(_) => bail!("the watches did not all open within 60 s"),
        }
    }
    let open = open_started.elapsed();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let mut delays = Vec::with_capacity(watchers * writes);
    let mut last = Vec::with_capacity(writes);
    let mut write_latency = Vec::with_capacity(writes);
    let mut missing = 0;
    let cpu_before = super::process::cpu_seconds(server_pid);
    for k in 0..writes {
        let body = client::configmap(&format!("w-{k}"));
        let sent = Instant::now();
        client::expect(&setup, client::post(target.uri(&collection), body), 201).await?;
        write_latency.push(sent.elapsed());
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let mut got = 0;
        let mut slowest = Duration::ZERO;
        while got < watchers {
            match tokio::time::timeout_at(deadline, ack_rx.recv()).await {
                Ok(Some((seq, at))) if seq == k => {
                    let d = at.saturating_duration_since(sent);
                    delays.push(d);
                    slowest = slowest.max(d);
                    got += 1;
                }
                // A late delivery of an earlier write (already counted missing).
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
        missing += watchers - got;
        last.push(slowest);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The 20 ms pauses are idle time, so the CPU figure is the writes' and deliveries' own.
    let cpu = super::process::cpu_seconds(server_pid) - cpu_before;
    let cpu_per_write = Duration::from_secs_f64(cpu.max(0.0) / writes.max(1) as f64);
    for t in &tasks {
        t.abort();
    }
    delays.sort();
    last.sort();
    write_latency.sort();
    Ok(Fanout { delays, last, write_latency, missing, open, cpu_per_write })
}

/// One watch stream: reports when its headers arrive, then the arrival time of the ADDED event
/// of `w-<k>` for k = 0, 1, ... The timestamp is taken when the frame holding the line arrives.
async fn watcher(
    conn: Conn,
    uri: hyper::Uri,
    writes: usize,
    ack: mpsc::UnboundedSender<(usize, Instant)>,
    ready: mpsc::UnboundedSender<Result<(), String>>,
) {
    let mut conn = conn;
    let resp = match conn.send_request(client::get(uri)).await {
        Ok(r) if r.status() == 200 => r,
        Ok(r) => {
            let _ = ready.send(Err(format!("HTTP {}", r.status())));
            return;
        }
        Err(e) => {
            let _ = ready.send(Err(e.to_string()));
            return;
        }
    };
    let _ = ready.send(Ok(()));
    let mut body = resp.into_body();
    let mut buf: Vec<u8> = Vec::new();
    let mut k = 0;
    let mut want = format!("\"w-{k}\"");
    while k < writes {
        let Some(Ok(frame)) = body.frame().await else { return };
        let Ok(data) = frame.into_data() else { continue };
        let at = Instant::now();
        buf.extend_from_slice(&data);
        while let Some(end) = buf.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = buf.drain(..=end).collect();
            // A byte search, not a JSON parse: a thousand parses per write would be client
            // CPU charged to the server on a 2-core machine.
            if contains(&line, b"\"ADDED\"") && contains(&line, want.as_bytes()) {
                let _ = ack.send((k, at));
                k += 1;
                want = format!("\"w-{k}\"");
            }
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
