//! AggregateStatus for Jobs and CronJobs (upstream's `aggregateJobStatus`,
//! `helper.ParsingJobStatus` and `aggregateCronJobStatus`). A Job's members' pod counts add up
//! and its conditions say how the members ended: Failed naming the clusters where it failed,
//! Complete (and SuccessCriteriaMet) once every member completed; a finished Job is never
//! aggregated again. A CronJob lists every member's active Jobs and its latest times.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Map, Value, json};

use super::aggregate_status::reported;
use super::fields;

/// Whether a Job status says the Job finished, and how (`Complete` or `Failed`).
fn finished(status: &Value) -> Option<&str> {
    fields::list(status, "/conditions").iter().find_map(|c| {
        let kind = fields::string(c, "/type");
        (matches!(kind, "Complete" | "Failed") && fields::string(c, "/status") == "True").then_some(kind)
    })
}

fn has_true_condition(status: &Value, kind: &str) -> bool {
    fields::list(status, "/conditions")
        .iter()
        .any(|c| fields::string(c, "/type") == kind && fields::string(c, "/status") == "True")
}

/// A condition as upstream stamps it: probed and transitioned now.
fn condition(kind: &str, reason: &str, message: &str) -> Value {
    let now = now_rfc3339();
    json!({
        "type": kind, "status": "True", "lastProbeTime": now, "lastTransitionTime": now,
        "reason": reason, "message": message,
    })
}

/// The Job template with its members' statuses aggregated.
pub fn job(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    let old = object.get("status").cloned().unwrap_or_else(|| json!({}));
    if finished(&old).is_some() {
        return object.clone();
    }
    let (mut active, mut succeeded, mut failed) = (0, 0, 0);
    let (mut completed, mut success_criteria_met, mut started, mut completions) = (0, 0, 0, 0);
    let mut failed_in: Vec<&str> = Vec::new();
    let mut start_time: Option<&str> = None;
    let mut completion_time: Option<&str> = None;
    for (cluster, status) in reported(items) {
        active += fields::int(status, "/active");
        succeeded += fields::int(status, "/succeeded");
        failed += fields::int(status, "/failed");
        match finished(status) {
            Some("Complete") => completed += 1,
            Some(_) => failed_in.push(cluster),
            None => {}
        }
        if has_true_condition(status, "SuccessCriteriaMet") {
            success_criteria_met += 1;
        }
        // RFC 3339 times in UTC compare as text.
        if let Some(t) = status["startTime"].as_str() {
            started += 1;
            start_time = Some(start_time.map_or(t, |s| s.min(t)));
        }
        if let Some(t) = status["completionTime"].as_str() {
            completions += 1;
            completion_time = Some(completion_time.map_or(t, |c| c.max(t)));
        }
    }
    let mut status = Map::new();
    fields::put_count(&mut status, "active", active);
    fields::put_count(&mut status, "succeeded", succeeded);
    fields::put_count(&mut status, "failed", failed);
    let mut conditions = Vec::new();
    if !failed_in.is_empty() {
        let message = format!("Job executed failed in member clusters {}", failed_in.join(","));
        conditions.push(condition("Failed", "JobFailed", &message));
    }
    // No member reported yet (a binding just made) is not a completed Job.
    if completed == items.len() && completed > 0 {
        conditions.push(condition("Complete", "Completed", "Job completed"));
        if success_criteria_met == items.len() {
            let message = "All member clusters have met success criteria";
            conditions.push(condition("SuccessCriteriaMet", "CompletionsReached", message));
        }
    }
    if !conditions.is_empty() {
        status.insert("conditions".into(), Value::Array(conditions));
    }
    match old.get("startTime").filter(|t| !t.is_null()) {
        Some(t) => {
            status.insert("startTime".into(), t.clone());
        }
        None if started == items.len() && started > 0 => {
            status.insert("startTime".into(), json!(start_time));
        }
        None => {}
    }
    if let Some(t) = completion_time.filter(|_| completions == items.len()) {
        status.insert("completionTime".into(), json!(t));
    }
    if Value::Object(status.clone()) == old {
        return object.clone();
    }
    fields::with_status(object, status)
}

/// The CronJob template listing every member's active Jobs, with the latest schedule and
/// success times any member reported.
pub fn cron_job(object: &Value, items: &[AggregatedStatusItem]) -> Value {
    let mut active: Vec<Value> = Vec::new();
    let mut last_schedule: Option<&str> = None;
    let mut last_success: Option<&str> = None;
    for (_, status) in reported(items) {
        active.extend(fields::list(status, "/active").iter().cloned());
        if let Some(t) = status["lastScheduleTime"].as_str() {
            last_schedule = Some(last_schedule.map_or(t, |s| s.max(t)));
        }
        if let Some(t) = status["lastSuccessfulTime"].as_str() {
            last_success = Some(last_success.map_or(t, |s| s.max(t)));
        }
    }
    let mut status = object.get("status").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut set = |key: &str, value: Option<Value>| match value {
        Some(v) => status.insert(key.into(), v),
        None => status.remove(key),
    };
    set("active", (!active.is_empty()).then_some(Value::Array(active)));
    set("lastScheduleTime", last_schedule.map(|t| json!(t)));
    set("lastSuccessfulTime", last_success.map(|t| json!(t)));
    fields::with_status(object, status)
}

/// The current time as Kubernetes writes a `metav1.Time`: RFC 3339 in UTC, whole seconds.
fn now_rfc3339() -> Value {
    serde_json::to_value(Time(k8s_openapi::jiff::Timestamp::now())).unwrap_or(Value::Null)
}
