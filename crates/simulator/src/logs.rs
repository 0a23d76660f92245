//! What a simulated container has "written" to its log: one deterministic line per second
//! since the container started (until it finished), each saying it comes from a simulated
//! member, so `logs -f` has something to stream and two readers see the same bytes. Nothing
//! runs; the lines are derived from the pod, the container and the clock.

use jiff::{SignedDuration, Timestamp};
use serde_json::Value;

/// A container keeps its newest lines only, as a rotated log file would: this bounds every
/// answer (and what a reader can ask for) whatever the container's age.
pub const MAX_LINES: i64 = 10_000;

/// The lines of one container as of a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerLog {
    /// (time written, text without the newline), oldest first.
    pub lines: Vec<(Timestamp, String)>,
    /// Whether the container still runs, so more lines will come.
    pub running: bool,
}

/// The log of `container` in `pod` (a Pod object) as of `now`; `Err` carries the message the
/// kubelet answers with (the API server returns it as a 400).
pub fn container_log(
    cluster: &str,
    pod: &Value,
    container: &str,
    previous: bool,
    now: Timestamp,
) -> Result<ContainerLog, String> {
    let pod_name = pod.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
    let namespace = pod.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or_default();
    let status = container_status(pod, container);
    let restarts = status.and_then(|s| s.get("restartCount")).and_then(Value::as_i64).unwrap_or(0);
    if previous {
        // Simulated containers never restart, so there is never a previous instance.
        if restarts == 0 {
            return Err(format!("previous terminated container {container:?} in pod {pod_name:?} not found"));
        }
    }
    let state = status.and_then(|s| s.get("state"));
    let (started, finished) = match state {
        Some(s) if s.get("running").is_some() => (time(s.pointer("/running/startedAt")), None),
        Some(s) if s.get("terminated").is_some() => {
            (time(s.pointer("/terminated/startedAt")), time(s.pointer("/terminated/finishedAt")))
        }
        _ => {
            let reason =
                state.and_then(|s| s.pointer("/waiting/reason")).and_then(Value::as_str).unwrap_or("ContainerCreating");
            return Err(format!("container {container:?} in pod {pod_name:?} is waiting to start: {reason}"));
        }
    };
    let Some(started) = started else {
        return Err(format!("container {container:?} in pod {pod_name:?} is waiting to start: ContainerCreating"));
    };
    let end = finished.unwrap_or(now).min(now);
    // Line n (from 1) is written n-1 seconds after the start.
    let written = if end < started { 0 } else { end.duration_since(started).as_secs() + 1 };
    let first = (written - MAX_LINES).max(0) + 1;
    let lines = (first..=written)
        .map(|n| {
            let at = started + SignedDuration::from_secs(n - 1);
            (at, line(cluster, namespace, pod_name, container, n))
        })
        .collect();
    Ok(ContainerLog { lines, running: finished.is_none() })
}

/// The text of line `n`.
fn line(cluster: &str, namespace: &str, pod: &str, container: &str, n: i64) -> String {
    format!(
        "simulated member {cluster}: line {n} of container {container} in pod {namespace}/{pod} (nothing runs here)"
    )
}

fn container_status<'a>(pod: &'a Value, container: &str) -> Option<&'a Value> {
    ["containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"]
        .iter()
        .filter_map(|f| pod.pointer(&format!("/status/{f}")).and_then(Value::as_array))
        .flatten()
        .find(|s| s.get("name").and_then(Value::as_str) == Some(container))
}

fn time(v: Option<&Value>) -> Option<Timestamp> {
    v.and_then(Value::as_str).and_then(|s| s.parse().ok())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(state: Value, restarts: i64) -> Value {
        json!({"metadata": {"name": "web", "namespace": "default"},
               "status": {"containerStatuses": [{"name": "nginx", "restartCount": restarts, "state": state}]}})
    }

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn a_running_container_has_one_line_per_second_since_it_started() {
        let p = pod(json!({"running": {"startedAt": "2026-01-01T00:00:00Z"}}), 0);
        let log = container_log("member1", &p, "nginx", false, at("2026-01-01T00:00:02.5Z")).unwrap();
        assert!(log.running);
        assert_eq!(log.lines.len(), 3);
        assert_eq!(log.lines[2].0, at("2026-01-01T00:00:02Z"));
        assert_eq!(
            log.lines[0].1,
            "simulated member member1: line 1 of container nginx in pod default/web (nothing runs here)"
        );
    }

    #[test]
    fn a_finished_container_stops_writing_and_old_lines_rotate_away() {
        let p =
            pod(json!({"terminated": {"startedAt": "2026-01-01T00:00:00Z", "finishedAt": "2026-01-01T00:00:01Z"}}), 0);
        let log = container_log("m", &p, "nginx", false, at("2026-01-02T00:00:00Z")).unwrap();
        assert!(!log.running);
        assert_eq!(log.lines.len(), 2);
        let p = pod(json!({"running": {"startedAt": "2026-01-01T00:00:00Z"}}), 0);
        let log = container_log("m", &p, "nginx", false, at("2026-01-02T00:00:00Z")).unwrap();
        assert_eq!(log.lines.len() as i64, MAX_LINES);
        assert!(log.lines[0].1.contains("line 76402 "));
    }

    #[test]
    fn kubelet_errors_are_worded_as_the_kubelet_words_them() {
        let p = pod(json!({"running": {"startedAt": "2026-01-01T00:00:00Z"}}), 0);
        assert_eq!(
            container_log("m", &p, "nginx", true, Timestamp::now()).unwrap_err(),
            "previous terminated container \"nginx\" in pod \"web\" not found"
        );
        let p = pod(json!({"waiting": {"reason": "ImagePullBackOff"}}), 0);
        assert_eq!(
            container_log("m", &p, "nginx", false, Timestamp::now()).unwrap_err(),
            "container \"nginx\" in pod \"web\" is waiting to start: ImagePullBackOff"
        );
        assert_eq!(
            container_log("m", &json!({"metadata": {"name": "web"}}), "c", false, Timestamp::now()).unwrap_err(),
            "container \"c\" in pod \"web\" is waiting to start: ContainerCreating"
        );
    }
}
