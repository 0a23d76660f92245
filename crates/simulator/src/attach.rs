//! Attaching to a simulated container's main process (`kubectl attach`). Nothing runs; the
//! "process" is played here: its stdout carries the container's simulated log lines
//! ([`crate::logs`]) as they are appended from the moment of attaching, and a container started
//! with `stdin: true` echoes what it reads on stdin back to stdout. With `stdinOnce: true` the
//! process ends when the attached stdin closes (or, under a terminal, at Ctrl-D), as a shell reading its input would; otherwise
//! the session lasts until the client leaves or the server's session limit ends it. A container
//! without stdin ignores what an attached client sends, as a container runtime does.

use std::time::Duration;

use jiff::Timestamp;
use serde_json::Value;

use crate::exec::Streams;

/// A terminal's end-of-file character (Ctrl-D).
const EOT: u8 = 0x04;
/// How often new log lines are looked for (lines are written once a second).
const POLL: Duration = Duration::from_millis(250);

/// Attaches to `container` of `pod` on the member `cluster` until the process ends or the
/// client goes; `Ok(0)` when the process ended.
pub async fn run(cluster: &str, pod: &Value, container: &str, mut io: Streams) -> Result<i32, String> {
    let spec = container_spec(pod, container);
    let flag = |name: &str| spec.and_then(|c| c.get(name)).and_then(Value::as_bool).unwrap_or(false);
    let (reads_stdin, stdin_once, tty) = (flag("stdin"), flag("stdinOnce"), flag("tty"));
    let mut stdin = if reads_stdin { io.stdin.take() } else { None };
    let written = |now: Timestamp| {
        crate::logs::container_log(cluster, pod, container, false, now).map(|log| log.lines.last().map(|(t, _)| *t))
    };
    // Only what is written after attaching reaches the client.
    let mut seen = written(Timestamp::now())?;
    let mut tick = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            chunk = async { stdin.as_mut()?.recv().await }, if stdin.is_some() => {
                // Under a terminal, Ctrl-D (EOT) ends the input as the terminal's EOF would.
                let (bytes, ended) = match chunk {
                    Some(mut bytes) => match bytes.iter().position(|b| tty && *b == EOT) {
                        Some(at) => {
                            bytes.truncate(at);
                            (bytes, true)
                        }
                        None => (bytes, false),
                    },
                    None => (Vec::new(), true),
                };
                if !bytes.is_empty() && io.stdout.send(bytes).await.is_err() {
                    return Ok(0);
                }
                match (ended, stdin_once) {
                    (true, true) => return Ok(0),
                    (true, false) => stdin = None,
                    _ => {}
                }
            },
            _ = tick.tick() => {
                let log = crate::logs::container_log(cluster, pod, container, false, Timestamp::now())?;
                for (at, text) in log.lines {
                    if seen.is_some_and(|s| at <= s) {
                        continue;
                    }
                    seen = Some(at);
                    if io.stdout.send(format!("{text}\n").into_bytes()).await.is_err() {
                        return Ok(0);
                    }
                }
                if !log.running {
                    return Ok(0);
                }
            }
        }
    }
}

fn container_spec<'a>(pod: &'a Value, container: &str) -> Option<&'a Value> {
    ["/spec/containers", "/spec/initContainers", "/spec/ephemeralContainers"]
        .iter()
        .filter_map(|p| pod.pointer(p).and_then(Value::as_array))
        .flatten()
        .find(|c| c.get("name").and_then(Value::as_str) == Some(container))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tokio::sync::mpsc;

    use super::*;

    fn pod(stdin: bool, stdin_once: bool) -> Value {
        json!({"metadata": {"name": "p", "namespace": "ns"},
               "spec": {"containers": [{"name": "c", "stdin": stdin, "stdinOnce": stdin_once}]},
               "status": {"containerStatuses": [{"name": "c", "restartCount": 0,
                          "state": {"running": {"startedAt": Timestamp::now().to_string()}}}]}})
    }

    #[tokio::test]
    async fn stdin_is_echoed_until_it_closes_when_the_container_reads_it_once() {
        let (tx_in, rx_in) = mpsc::channel(4);
        let (tx_out, mut rx_out) = mpsc::channel(64);
        let (tx_err, _rx_err) = mpsc::channel(4);
        tx_in.send(b"hello\n".to_vec()).await.unwrap();
        drop(tx_in);
        let io = Streams { stdin: Some(rx_in), stdout: tx_out, stderr: tx_err };
        assert_eq!(run("m", &pod(true, true), "c", io).await, Ok(0));
        let mut out = String::new();
        while let Some(b) = rx_out.recv().await {
            out.push_str(&String::from_utf8(b).unwrap());
        }
        let echoed: Vec<&str> = out.lines().filter(|l| !l.starts_with("simulated member m:")).collect();
        assert_eq!(echoed, ["hello"]);
    }

    #[tokio::test]
    async fn a_container_without_stdin_streams_its_new_log_lines() {
        let (tx_in, rx_in) = mpsc::channel(4);
        let (tx_out, mut rx_out) = mpsc::channel(64);
        let (tx_err, _rx_err) = mpsc::channel(4);
        tx_in.send(b"ignored\n".to_vec()).await.unwrap();
        let io = Streams { stdin: Some(rx_in), stdout: tx_out, stderr: tx_err };
        let pod = pod(false, false);
        let session = tokio::spawn(async move { run("m", &pod, "c", io).await });
        let first = String::from_utf8(rx_out.recv().await.unwrap()).unwrap();
        assert!(first.starts_with("simulated member m: line "), "{first}");
        assert!(first.ends_with(" of container c in pod ns/p (nothing runs here)\n"), "{first}");
        session.abort();
        drop(tx_in);
    }
}
