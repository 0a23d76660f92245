//! Commands run in a simulated container (`kubectl exec`): a tiny built-in set, enough to test
//! the streams end to end. No process runs; each command is played here from the pod's spec
//! and the files of its mounted ConfigMaps and Secrets. Anything else fails as runc fails a
//! missing executable.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc::{Receiver, Sender};

/// The longest `sleep` a simulated container honours; the session's own limit ends it sooner.
const MAX_SLEEP: Duration = Duration::from_secs(3600);

/// What a simulated command is given.
pub struct Streams {
    pub stdin: Option<Receiver<Vec<u8>>>,
    pub stdout: Sender<Vec<u8>>,
    pub stderr: Sender<Vec<u8>>,
}

/// Runs `command` in `container` of `pod`: `Ok(exit code)`, or the runtime's refusal.
pub async fn run(
    pod: &Value,
    container: &str,
    command: &[String],
    files: &BTreeMap<String, Vec<u8>>,
    mut io: Streams,
) -> Result<i32, String> {
    let args: Vec<&str> = command.iter().map(String::as_str).collect();
    let out = |s: String| async { io.stdout.send(s.into_bytes()).await.is_ok() };
    match args.as_slice() {
        ["true"] => Ok(0),
        ["false"] => Ok(1),
        ["echo", rest @ ..] => {
            out(format!("{}\n", rest.join(" "))).await;
            Ok(0)
        }
        ["hostname"] => {
            out(format!("{}\n", hostname(pod))).await;
            Ok(0)
        }
        ["env"] => {
            out(environment(pod, container).into_iter().map(|(k, v)| format!("{k}={v}\n")).collect()).await;
            Ok(0)
        }
        ["sleep", n] => match n.parse::<f64>() {
            Ok(secs) if secs >= 0.0 => {
                tokio::time::sleep(Duration::from_secs_f64(secs).min(MAX_SLEEP)).await;
                Ok(0)
            }
            _ => {
                let _ = io.stderr.send(format!("sleep: invalid number '{n}'\n").into_bytes()).await;
                Ok(1)
            }
        },
        ["sh", "-c", script] => match script.trim().strip_prefix("exit").map(str::trim) {
            Some("") => Ok(0),
            Some(code) => match code.parse::<u8>() {
                Ok(code) => Ok(i32::from(code)),
                Err(_) => {
                    let _ = io.stderr.send(format!("sh: exit: Illegal number: {code}\n").into_bytes()).await;
                    Ok(2)
                }
            },
            None => {
                let word = script.split_whitespace().next().unwrap_or_default();
                let _ = io.stderr.send(format!("sh: 1: {word}: not found\n").into_bytes()).await;
                Ok(127)
            }
        },
        ["cat"] => {
            // Echoes stdin until the client closes it; without stdin there is nothing to read.
            if let Some(stdin) = io.stdin.as_mut() {
                while let Some(chunk) = stdin.recv().await {
                    if io.stdout.send(chunk).await.is_err() {
                        break;
                    }
                }
            }
            Ok(0)
        }
        ["cat", paths @ ..] => {
            let mut code = 0;
            for path in paths {
                match files.get(*path) {
                    Some(bytes) => {
                        let _ = io.stdout.send(bytes.clone()).await;
                    }
                    None => {
                        let _ = io.stderr.send(format!("cat: {path}: No such file or directory\n").into_bytes()).await;
                        code = 1;
                    }
                }
            }
            Ok(code)
        }
        [program, ..] => Err(format!(
            "OCI runtime exec failed: exec failed: unable to start container process: exec: \"{program}\": executable file not found in $PATH: unknown"
        )),
        [] => {
            Err("OCI runtime exec failed: exec failed: unable to start container process: exec: no command: unknown"
                .into())
        }
    }
}

/// The pod's hostname as its containers see it.
fn hostname(pod: &Value) -> String {
    let spec = pod.pointer("/spec/hostname").and_then(Value::as_str).filter(|h| !h.is_empty());
    spec.or_else(|| pod.pointer("/metadata/name").and_then(Value::as_str)).unwrap_or_default().to_string()
}

/// The container's environment: the image's PATH, the hostname, the literal `env` values of
/// its spec, and HOME, in the order a container lists them.
fn environment(pod: &Value, container: &str) -> Vec<(String, String)> {
    let mut env = vec![
        ("PATH".to_string(), "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".to_string()),
        ("HOSTNAME".to_string(), hostname(pod)),
    ];
    let containers = ["/spec/containers", "/spec/initContainers", "/spec/ephemeralContainers"]
        .iter()
        .filter_map(|p| pod.pointer(p).and_then(Value::as_array))
        .flatten();
    if let Some(c) = containers.into_iter().find(|c| c.get("name").and_then(Value::as_str) == Some(container)) {
        for var in c.get("env").and_then(Value::as_array).into_iter().flatten() {
            let name = var.get("name").and_then(Value::as_str).unwrap_or_default();
            let value = var.get("value").and_then(Value::as_str).unwrap_or_default();
            env.push((name.to_string(), value.to_string()));
        }
    }
    env.push(("HOME".to_string(), "/root".to_string()));
    env
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tokio::sync::mpsc;

    use super::*;

    async fn play(command: &[&str], stdin: &[&str]) -> (Result<i32, String>, String, String) {
        let pod = json!({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "env": [{"name": "A", "value": "1"}]}]}});
        let files = BTreeMap::from([("/etc/config/key".to_string(), b"value".to_vec())]);
        let (tx_in, rx_in) = mpsc::channel(8);
        for s in stdin {
            tx_in.send(s.as_bytes().to_vec()).await.unwrap();
        }
        drop(tx_in);
        let (tx_out, mut rx_out) = mpsc::channel(64);
        let (tx_err, mut rx_err) = mpsc::channel(64);
        let command: Vec<String> = command.iter().map(|s| s.to_string()).collect();
        let io = Streams { stdin: Some(rx_in), stdout: tx_out, stderr: tx_err };
        let end = run(&pod, "c", &command, &files, io).await;
        let mut out = String::new();
        while let Some(b) = rx_out.recv().await {
            out.push_str(&String::from_utf8(b).unwrap());
        }
        let mut err = String::new();
        while let Some(b) = rx_err.recv().await {
            err.push_str(&String::from_utf8(b).unwrap());
        }
        (end, out, err)
    }

    #[tokio::test]
    async fn the_built_in_commands_answer_as_a_shell_would() {
        assert_eq!(play(&["echo", "a", "b"], &[]).await, (Ok(0), "a b\n".into(), String::new()));
        assert_eq!(play(&["sh", "-c", "exit 3"], &[]).await, (Ok(3), String::new(), String::new()));
        assert_eq!(play(&["cat"], &["x", "y"]).await, (Ok(0), "xy".into(), String::new()));
        assert_eq!(play(&["cat", "/etc/config/key"], &[]).await.1, "value");
        assert_eq!(
            play(&["cat", "/nope"], &[]).await,
            (Ok(1), String::new(), "cat: /nope: No such file or directory\n".into())
        );
        assert_eq!(play(&["hostname"], &[]).await.1, "p\n");
        assert!(play(&["env"], &[]).await.1.contains("\nA=1\nHOME=/root\n"));
        let missing = play(&["ls"], &[]).await.0.unwrap_err();
        assert!(missing.contains("exec: \"ls\": executable file not found in $PATH"), "{missing}");
    }
}
