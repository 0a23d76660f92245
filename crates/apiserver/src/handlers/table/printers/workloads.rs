//! Workload printers: deployments, replica sets, stateful sets, daemon sets, jobs and cron jobs.

use jiff::Timestamp;
use serde_json::{Value, json};

use super::cells::{
    age, condition_status, containers, count, format_label_selector, format_labels, int, int_or, name, seconds,
    selector_or_invalid, since, text, timestamp,
};
use super::descriptions as d;
use super::{Column, Printer, Row};

const CONTAINERS: Column = Column::string("Containers", "Names of each container in the template.").wide();
const IMAGES: Column = Column::string("Images", "Images referenced by each container in the template.").wide();

/// `spec.replicas`, which kube defaults to 1.
fn desired_replicas(obj: &Value) -> i64 {
    int_or(obj, "/spec/replicas", 1)
}

pub const DEPLOYMENT: Printer = Printer {
    group: "apps",
    kind: "Deployment",
    columns: &[
        Column::name(),
        Column::string("Ready", "Number of the pod with ready state"),
        Column::string("Up-to-date", d::DEPLOYMENT_STATUS_UPDATED_REPLICAS),
        Column::string("Available", d::DEPLOYMENT_STATUS_AVAILABLE_REPLICAS),
        Column::age(),
        CONTAINERS,
        IMAGES,
        Column::string("Selector", d::DEPLOYMENT_SPEC_SELECTOR).wide(),
    ],
    row: |obj, now| {
        let (names, images) = containers(obj, "/spec/template/spec/containers");
        Row::cells(vec![
            name(obj),
            json!(format!("{}/{}", int(obj, "/status/readyReplicas"), desired_replicas(obj))),
            json!(int(obj, "/status/updatedReplicas")),
            json!(int(obj, "/status/availableReplicas")),
            age(obj, now),
            names,
            images,
            json!(selector_or_invalid(obj.pointer("/spec/selector"))),
        ])
    },
};

pub const REPLICA_SET: Printer = Printer {
    group: "apps",
    kind: "ReplicaSet",
    columns: &[
        Column::name(),
        Column::integer("Desired", d::REPLICA_SET_SPEC_REPLICAS),
        Column::integer("Current", d::REPLICA_SET_STATUS_REPLICAS),
        Column::integer("Ready", d::REPLICA_SET_STATUS_READY_REPLICAS),
        Column::age(),
        CONTAINERS,
        IMAGES,
        Column::string("Selector", d::REPLICA_SET_SPEC_SELECTOR).wide(),
    ],
    row: |obj, now| {
        let (names, images) = containers(obj, "/spec/template/spec/containers");
        Row::cells(vec![
            name(obj),
            json!(desired_replicas(obj)),
            json!(int(obj, "/status/replicas")),
            json!(int(obj, "/status/readyReplicas")),
            age(obj, now),
            names,
            images,
            json!(format_label_selector(obj.pointer("/spec/selector"))),
        ])
    },
};

pub const STATEFUL_SET: Printer = Printer {
    group: "apps",
    kind: "StatefulSet",
    columns: &[
        Column::name(),
        Column::string("Ready", "Number of the pod with ready state"),
        Column::age(),
        CONTAINERS,
        IMAGES,
    ],
    row: |obj, now| {
        let (names, images) = containers(obj, "/spec/template/spec/containers");
        Row::cells(vec![
            name(obj),
            json!(format!("{}/{}", int(obj, "/status/readyReplicas"), desired_replicas(obj))),
            age(obj, now),
            names,
            images,
        ])
    },
};

pub const DAEMON_SET: Printer = Printer {
    group: "apps",
    kind: "DaemonSet",
    columns: &[
        Column::name(),
        Column::integer("Desired", d::DAEMON_SET_STATUS_DESIRED),
        Column::integer("Current", d::DAEMON_SET_STATUS_CURRENT),
        Column::integer("Ready", d::DAEMON_SET_STATUS_READY),
        Column::integer("Up-to-date", d::DAEMON_SET_STATUS_UPDATED),
        Column::integer("Available", d::DAEMON_SET_STATUS_AVAILABLE),
        Column::string("Node Selector", d::POD_SPEC_NODE_SELECTOR),
        Column::age(),
        CONTAINERS,
        IMAGES,
        Column::string("Selector", d::DAEMON_SET_SPEC_SELECTOR).wide(),
    ],
    row: |obj, now| {
        let (names, images) = containers(obj, "/spec/template/spec/containers");
        Row::cells(vec![
            name(obj),
            json!(int(obj, "/status/desiredNumberScheduled")),
            json!(int(obj, "/status/currentNumberScheduled")),
            json!(int(obj, "/status/numberReady")),
            json!(int(obj, "/status/updatedNumberScheduled")),
            json!(int(obj, "/status/numberAvailable")),
            json!(format_labels(obj.pointer("/spec/template/spec/nodeSelector"))),
            age(obj, now),
            names,
            images,
            json!(format_label_selector(obj.pointer("/spec/selector"))),
        ])
    },
};

pub const JOB: Printer = Printer {
    group: "batch",
    kind: "Job",
    columns: &[
        Column::name(),
        Column::string("Status", "Status of the job."),
        Column::string("Completions", d::JOB_STATUS_SUCCEEDED),
        Column::string("Duration", "Time required to complete the job."),
        Column::age(),
        CONTAINERS,
        IMAGES,
        Column::string("Selector", d::JOB_SPEC_SELECTOR).wide(),
    ],
    row: job_row,
};

fn job_row(obj: &Value, now: Timestamp) -> Row {
    let succeeded = int(obj, "/status/succeeded");
    let parallelism = obj.pointer("/spec/parallelism").and_then(Value::as_i64);
    // kube defaults completions to 1 when neither completions nor parallelism is set.
    let completions = match obj.pointer("/spec/completions").and_then(Value::as_i64) {
        None if parallelism.is_none() => Some(1),
        c => c,
    };
    let completions = match (completions, parallelism.unwrap_or(1)) {
        (Some(c), _) => format!("{succeeded}/{c}"),
        (None, p) if p > 1 => format!("{succeeded}/1 of {p}"),
        (None, _) => format!("{succeeded}/1"),
    };
    let duration = match (timestamp(obj, "/status/startTime"), timestamp(obj, "/status/completionTime")) {
        (None, _) => String::new(),
        (Some(start), None) => since(Some(start), now),
        (Some(start), Some(end)) => seconds(end.duration_since(start).as_secs()),
    };
    let condition = |t: &str| condition_status(obj, "/status/conditions", t) == Some("True");
    let status = if condition("Complete") {
        "Complete"
    } else if condition("Failed") {
        "Failed"
    } else if obj.pointer("/metadata/deletionTimestamp").is_some_and(|t| !t.is_null()) {
        "Terminating"
    } else if condition("Suspended") {
        "Suspended"
    } else if condition("FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let (names, images) = containers(obj, "/spec/template/spec/containers");
    Row::cells(vec![
        name(obj),
        json!(status),
        json!(completions),
        json!(duration),
        age(obj, now),
        names,
        images,
        json!(format_label_selector(obj.pointer("/spec/selector"))),
    ])
}

pub const CRON_JOB: Printer = Printer {
    group: "batch",
    kind: "CronJob",
    columns: &[
        Column::name(),
        Column::string("Schedule", d::CRON_JOB_SPEC_SCHEDULE),
        Column::string("Timezone", d::CRON_JOB_SPEC_TIME_ZONE),
        Column::new("Suspend", "boolean", d::CRON_JOB_SPEC_SUSPEND),
        Column::integer("Active", d::CRON_JOB_STATUS_ACTIVE),
        Column::string("Last Schedule", d::CRON_JOB_STATUS_LAST_SCHEDULE_TIME),
        Column::age(),
        CONTAINERS,
        IMAGES,
        Column::string("Selector", d::JOB_SPEC_SELECTOR).wide(),
    ],
    row: |obj, now| {
        let last = match timestamp(obj, "/status/lastScheduleTime") {
            Some(t) => since(Some(t), now),
            None => "<none>".to_string(),
        };
        let time_zone = match obj.pointer("/spec/timeZone").and_then(Value::as_str) {
            Some(tz) => tz.to_string(),
            None => "<none>".to_string(),
        };
        // `printBoolPtr` of suspend, which kube defaults to false.
        let suspend = match obj.pointer("/spec/suspend").and_then(Value::as_bool) {
            Some(true) => "True",
            _ => "False",
        };
        let (names, images) = containers(obj, "/spec/jobTemplate/spec/template/spec/containers");
        Row::cells(vec![
            name(obj),
            json!(text(obj, "/spec/schedule")),
            json!(time_zone),
            json!(suspend),
            json!(count(obj, "/status/active")),
            json!(last),
            age(obj, now),
            names,
            images,
            json!(format_label_selector(obj.pointer("/spec/jobTemplate/spec/selector"))),
        ])
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(p: &Printer, obj: Value) -> Vec<Value> {
        (p.row)(&obj, "2024-05-01T12:00:00Z".parse().unwrap()).cells
    }

    fn template() -> Value {
        json!({"spec": {"containers": [{"name": "nginx", "image": "nginx:1.25"}, {"name": "log", "image": "busybox"}]}})
    }

    #[test]
    fn deployments_replica_sets_stateful_sets() {
        let meta = json!({"name": "web", "creationTimestamp": "2024-05-01T11:00:00Z"});
        let dep = json!({"metadata": meta, "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": template()},
            "status": {"readyReplicas": 1, "updatedReplicas": 1, "availableReplicas": 1}});
        assert_eq!(
            cells(&DEPLOYMENT, dep),
            [
                json!("web"),
                json!("1/1"),
                json!(1),
                json!(1),
                json!("60m"),
                json!("nginx,log"),
                json!("nginx:1.25,busybox"),
                json!("app=web"),
            ]
        );
        let rs = json!({"metadata": meta, "spec": {"replicas": 3, "template": template()}, "status": {"replicas": 2}});
        assert_eq!(cells(&REPLICA_SET, rs)[1..4], [json!(3), json!(2), json!(0)]);
        let sts =
            json!({"metadata": meta, "spec": {"replicas": 2, "template": template()}, "status": {"readyReplicas": 2}});
        assert_eq!(cells(&STATEFUL_SET, sts)[1], json!("2/2"));
    }

    #[test]
    fn daemon_sets() {
        let ds = json!({"metadata": {"name": "agent"}, "spec": {"template": {"spec": {"nodeSelector": {"os": "linux"},
            "containers": [{"name": "a", "image": "a:1"}]}}, "selector": {"matchLabels": {"app": "agent"}}},
            "status": {"desiredNumberScheduled": 3, "currentNumberScheduled": 3, "numberReady": 2, "updatedNumberScheduled": 3, "numberAvailable": 2}});
        let c = cells(&DAEMON_SET, ds);
        assert_eq!(c[1..7], [json!(3), json!(3), json!(2), json!(3), json!(2), json!("os=linux")]);
        assert_eq!(c[10], json!("app=agent"));
    }

    #[test]
    fn jobs() {
        let meta = json!({"name": "pi", "creationTimestamp": "2024-05-01T11:00:00Z"});
        let running = json!({"metadata": meta, "spec": {"template": template()},
            "status": {"startTime": "2024-05-01T11:58:00Z"}});
        assert_eq!(cells(&JOB, running)[1..4], [json!("Running"), json!("0/1"), json!("2m")]);
        let done = json!({"metadata": meta, "spec": {"completions": 3, "template": template()},
            "status": {"succeeded": 3, "startTime": "2024-05-01T11:00:00Z", "completionTime": "2024-05-01T11:00:45Z",
                "conditions": [{"type": "Complete", "status": "True"}]}});
        assert_eq!(cells(&JOB, done)[1..4], [json!("Complete"), json!("3/3"), json!("45s")]);
        let parallel = json!({"metadata": meta, "spec": {"parallelism": 4, "template": template()},
            "status": {"conditions": [{"type": "Suspended", "status": "True"}]}});
        assert_eq!(cells(&JOB, parallel)[1..4], [json!("Suspended"), json!("0/1 of 4"), json!("")]);
    }

    #[test]
    fn cron_jobs() {
        let cj = json!({"metadata": {"name": "hourly"}, "spec": {"schedule": "0 * * * *",
            "jobTemplate": {"spec": {"template": template()}}},
            "status": {"active": [{"name": "hourly-1"}], "lastScheduleTime": "2024-05-01T11:00:00Z"}});
        assert_eq!(
            cells(&CRON_JOB, cj)[1..7],
            [json!("0 * * * *"), json!("<none>"), json!("False"), json!(1), json!("60m"), json!("<unknown>"),]
        );
    }
}
