//! The pod printer (`printPod`): READY counts, the STATUS reason from the init and app
//! container states, RESTARTS with the time of the last one, and the wide IP / node columns.

use std::collections::HashSet;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::cells::{age, items, name, since, text, timestamp};
use super::descriptions as d;
use super::{Column, Printer, Row};

pub const POD: Printer = Printer {
    group: "",
    kind: "Pod",
    columns: &[
        Column::name(),
        Column::string("Ready", "The aggregate readiness state of this pod for accepting traffic."),
        Column::string("Status", "The aggregate status of the containers in this pod."),
        Column::string(
            "Restarts",
            "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
        ),
        Column::age(),
        Column::string("IP", d::POD_STATUS_POD_IP).wide(),
        Column::string("Node", d::POD_SPEC_NODE_NAME).wide(),
        Column::string("Nominated Node", d::POD_STATUS_NOMINATED_NODE_NAME).wide(),
        Column::string("Readiness Gates", d::POD_SPEC_READINESS_GATES).wide(),
    ],
    row: pod_row,
};

/// Latest of two optional times.
fn later(a: Option<Timestamp>, b: Option<Timestamp>) -> Option<Timestamp> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

fn restart_count(status: &Value) -> i64 {
    status.get("restartCount").and_then(Value::as_i64).unwrap_or(0)
}

fn last_termination(status: &Value) -> Option<Timestamp> {
    timestamp(status, "/lastState/terminated/finishedAt")
}

fn has_condition(obj: &Value, type_: &str) -> bool {
    items(obj, "/status/conditions").iter().any(|c| text(c, "/type") == type_ && text(c, "/status") == "True")
}

/// The reason for a terminated container without one: `Signal:9` or `ExitCode:1`.
fn exit_reason(terminated: &Value, prefix: &str) -> String {
    match terminated.get("signal").and_then(Value::as_i64).unwrap_or(0) {
        0 => format!("{prefix}ExitCode:{}", terminated.get("exitCode").and_then(Value::as_i64).unwrap_or(0)),
        signal => format!("{prefix}Signal:{signal}"),
    }
}

fn pod_row(obj: &Value, now: Timestamp) -> Row {
    let phase = text(obj, "/status/phase");
    let mut reason = match text(obj, "/status/reason") {
        "" => phase.to_string(),
        r => r.to_string(),
    };
    let gated = items(obj, "/status/conditions")
        .iter()
        .any(|c| text(c, "/type") == "PodScheduled" && text(c, "/reason") == "SchedulingGated");
    if gated {
        reason = "SchedulingGated".to_string();
    }
    let conditions = match phase {
        "Succeeded" => Some(
            json!([{"type": "Completed", "status": "True", "reason": "Succeeded", "message": "The pod has completed successfully."}]),
        ),
        "Failed" => {
            Some(json!([{"type": "Completed", "status": "True", "reason": "Failed", "message": "The pod failed."}]))
        }
        _ => None,
    };

    // Sidecars: init containers that restart always count as containers of the pod.
    let init_specs = items(obj, "/spec/initContainers");
    let sidecars: HashSet<&str> =
        init_specs.iter().filter(|c| text(c, "/restartPolicy") == "Always").map(|c| text(c, "/name")).collect();
    let total = items(obj, "/spec/containers").len() + sidecars.len();
    let mut ready = 0;
    let mut restarts = 0;
    let mut sidecar_restarts = 0;
    let mut last_restart = None;
    let mut last_sidecar_restart = None;

    let mut initializing = false;
    for (i, status) in items(obj, "/status/initContainerStatuses").iter().enumerate() {
        let container = text(status, "/name");
        let is_sidecar = sidecars.contains(container);
        restarts += restart_count(status);
        last_restart = later(last_restart, last_termination(status));
        if is_sidecar {
            sidecar_restarts += restart_count(status);
            last_sidecar_restart = later(last_sidecar_restart, last_termination(status));
        }
        let terminated = status.pointer("/state/terminated").filter(|t| !t.is_null());
        let waiting_reason = text(status, "/state/waiting/reason");
        let started = status.get("started").and_then(Value::as_bool) == Some(true);
        match terminated {
            Some(t) if t.get("exitCode").and_then(Value::as_i64).unwrap_or(0) == 0 => continue,
            _ if is_sidecar && started => {
                if status.get("ready").and_then(Value::as_bool) == Some(true) {
                    ready += 1;
                }
                continue;
            }
            Some(t) => {
                reason = match text(t, "/reason") {
                    "" => exit_reason(t, "Init:"),
                    r => format!("Init:{r}"),
                };
            }
            None if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" => {
                reason = format!("Init:{waiting_reason}");
            }
            None => reason = format!("Init:{i}/{}", init_specs.len()),
        }
        initializing = true;
        break;
    }

    if !initializing || has_condition(obj, "Initialized") {
        restarts = sidecar_restarts;
        last_restart = last_sidecar_restart;
        let mut has_running = false;
        for status in items(obj, "/status/containerStatuses").iter().rev() {
            restarts += restart_count(status);
            last_restart = later(last_restart, last_termination(status));
            let waiting = text(status, "/state/waiting/reason");
            let terminated = status.pointer("/state/terminated").filter(|t| !t.is_null());
            let running = status.pointer("/state/running").is_some_and(|r| !r.is_null());
            if !waiting.is_empty() {
                reason = waiting.to_string();
            } else if let Some(t) = terminated {
                reason = match text(t, "/reason") {
                    "" => exit_reason(t, ""),
                    r => r.to_string(),
                };
            } else if status.get("ready").and_then(Value::as_bool) == Some(true) && running {
                has_running = true;
                ready += 1;
            }
        }
        // A pod whose last container completed but another still runs is Running (or NotReady).
        if reason == "Completed" && has_running {
            reason = if has_condition(obj, "Ready") { "Running" } else { "NotReady" }.to_string();
        }
    }

    let deleting = obj.pointer("/metadata/deletionTimestamp").is_some_and(|t| !t.is_null());
    if deleting && text(obj, "/status/reason") == "NodeLost" {
        reason = "Unknown".to_string();
    } else if deleting && phase != "Failed" && phase != "Succeeded" {
        reason = "Terminating".to_string();
    }

    let restarts_cell = match last_restart {
        Some(at) if restarts != 0 => format!("{restarts} ({} ago)", since(Some(at), now)),
        _ => restarts.to_string(),
    };

    let none_if_empty = |s: &str| if s.is_empty() { "<none>".to_string() } else { s.to_string() };
    let gates = items(obj, "/spec/readinessGates");
    let readiness_gates = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let passed = gates
            .iter()
            .filter(|g| {
                let wanted = text(g, "/conditionType");
                items(obj, "/status/conditions")
                    .iter()
                    .find(|c| text(c, "/type") == wanted)
                    .is_some_and(|c| text(c, "/status") == "True")
            })
            .count();
        format!("{passed}/{}", gates.len())
    };

    Row {
        cells: vec![
            name(obj),
            json!(format!("{ready}/{total}")),
            json!(reason),
            json!(restarts_cell),
            age(obj, now),
            json!(none_if_empty(text(obj, "/status/podIPs/0/ip"))),
            json!(none_if_empty(text(obj, "/spec/nodeName"))),
            json!(none_if_empty(text(obj, "/status/nominatedNodeName"))),
            json!(readiness_gates),
        ],
        conditions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(obj: Value) -> Row {
        pod_row(&obj, "2024-05-01T12:00:00Z".parse().unwrap())
    }

    fn meta() -> Value {
        json!({"name": "web", "creationTimestamp": "2024-05-01T11:57:30Z"})
    }

    #[test]
    fn a_new_pod_is_pending() {
        let r = row(json!({"metadata": meta(), "spec": {"containers": [{"name": "a"}, {"name": "b"}]},
            "status": {"phase": "Pending"}}));
        assert_eq!(
            r.cells,
            [
                json!("web"),
                json!("0/2"),
                json!("Pending"),
                json!("0"),
                json!("2m30s"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>"),
                json!("<none>"),
            ]
        );
        assert_eq!(r.conditions, None);
    }

    #[test]
    fn running_with_restarts_and_gates() {
        let r = row(json!({"metadata": meta(),
            "spec": {"nodeName": "n1", "containers": [{"name": "a"}], "readinessGates": [{"conditionType": "lb"}, {"conditionType": "x"}]},
            "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.5"}],
                "conditions": [{"type": "Ready", "status": "True"}, {"type": "lb", "status": "True"}],
                "containerStatuses": [{"name": "a", "ready": true, "restartCount": 2, "state": {"running": {}},
                    "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2024-05-01T11:59:00Z"}}}]}}));
        assert_eq!(r.cells[1..4], [json!("1/1"), json!("Running"), json!("2 (60s ago)")]);
        assert_eq!(r.cells[5..], [json!("10.0.0.5"), json!("n1"), json!("<none>"), json!("1/2")]);
    }

    #[test]
    fn waiting_and_terminated_containers_set_the_reason() {
        let waiting = row(json!({"metadata": meta(), "spec": {"containers": [{"name": "a"}]},
            "status": {"phase": "Pending", "containerStatuses": [{"name": "a", "state": {"waiting": {"reason": "ImagePullBackOff"}}}]}}));
        assert_eq!(waiting.cells[2], json!("ImagePullBackOff"));
        let killed = row(json!({"metadata": meta(), "spec": {"containers": [{"name": "a"}]},
            "status": {"phase": "Failed", "containerStatuses": [{"name": "a", "state": {"terminated": {"exitCode": 137, "signal": 9}}}]}}));
        assert_eq!(killed.cells[2], json!("Signal:9"));
        assert_eq!(killed.conditions.unwrap()[0]["reason"], "Failed");
        let done = row(json!({"metadata": meta(), "spec": {"containers": [{"name": "a"}]},
            "status": {"phase": "Succeeded", "containerStatuses": [{"name": "a", "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]}}));
        assert_eq!(done.cells[2], json!("Completed"));
        assert_eq!(done.conditions.unwrap()[0]["message"], "The pod has completed successfully.");
    }

    #[test]
    fn init_containers_and_sidecars() {
        let init = row(json!({"metadata": meta(),
            "spec": {"initContainers": [{"name": "i1"}, {"name": "i2"}], "containers": [{"name": "a"}]},
            "status": {"phase": "Pending", "initContainerStatuses": [
                {"name": "i1", "state": {"terminated": {"exitCode": 0}}},
                {"name": "i2", "state": {"running": {}}}]}}));
        assert_eq!(init.cells[1..3], [json!("0/1"), json!("Init:1/2")]);
        let crash = row(json!({"metadata": meta(),
            "spec": {"initContainers": [{"name": "i1"}], "containers": [{"name": "a"}]},
            "status": {"phase": "Pending", "initContainerStatuses": [
                {"name": "i1", "restartCount": 3, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}));
        assert_eq!(crash.cells[2..4], [json!("Init:CrashLoopBackOff"), json!("3")]);
        let sidecar = row(json!({"metadata": meta(),
            "spec": {"initContainers": [{"name": "proxy", "restartPolicy": "Always"}], "containers": [{"name": "a"}]},
            "status": {"phase": "Running", "conditions": [{"type": "Initialized", "status": "True"}],
                "initContainerStatuses": [{"name": "proxy", "started": true, "ready": true, "state": {"running": {}}}],
                "containerStatuses": [{"name": "a", "ready": true, "state": {"running": {}}}]}}));
        assert_eq!(sidecar.cells[1..3], [json!("2/2"), json!("Running")]);
    }

    #[test]
    fn deleting_pods_are_terminating() {
        let mut m = meta();
        m["deletionTimestamp"] = json!("2024-05-01T11:59:59Z");
        let r = row(json!({"metadata": m, "spec": {"containers": [{"name": "a"}]}, "status": {"phase": "Running"}}));
        assert_eq!(r.cells[2], json!("Terminating"));
        let gated = row(json!({"metadata": meta(), "spec": {"containers": [{"name": "a"}]},
            "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "reason": "SchedulingGated"}]}}));
        assert_eq!(gated.cells[2], json!("SchedulingGated"));
    }
}
