//! A CronFederatedHPA's `status.executionHistories`, filled as upstream's controller and job
//! fill them: one entry per rule with its next execution time (absent while suspended), the
//! newest executions first, each list cut to its rule's limit; a deleted rule's entry goes.
//! The edits are pure; [`write`] applies one to the stored object, retrying on conflicts as
//! the controller's rule timers and its reconciles write the same status.

use jiff::Timestamp;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_karmada_api::autoscaling::cron_federated_hpa::{
    CronFederatedHPA, CronFederatedHPARule, CronFederatedHPAStatus, ExecutionHistory, FailedExecution,
    SuccessfulExecution,
};
use kube::api::{Api, PostParams};

use super::Key;
use crate::context::Engine;

/// Attempts at a status write that keeps meeting a newer object (client-go's `DefaultRetry`).
const ATTEMPTS: usize = 5;

/// How one execution went.
pub enum Outcome {
    /// What was applied (the rule's targets).
    Applied,
    /// Why nothing was.
    Failed(String),
}

/// Sets a rule's next execution time, adding its entry if it has none (upstream's
/// `updateRuleHistory`).
pub fn set_next(status: &mut CronFederatedHPAStatus, rule: &str, next: Option<Timestamp>) {
    let next = next.map(Time);
    match status.execution_histories.iter_mut().find(|h| h.rule_name == rule) {
        Some(h) => h.next_execution_time = next,
        None => status.execution_histories.push(ExecutionHistory {
            rule_name: rule.to_string(),
            next_execution_time: next,
            ..Default::default()
        }),
    }
}

/// Drops a deleted rule's entry; whether there was one.
pub fn remove(status: &mut CronFederatedHPAStatus, rule: &str) -> bool {
    let before = status.execution_histories.len();
    status.execution_histories.retain(|h| h.rule_name != rule);
    status.execution_histories.len() != before
}

/// Records an execution scheduled for `scheduled` that ran at `ran`, and the rule's next
/// time. A rule without an entry was deleted meanwhile: nothing is recorded (false).
pub fn record(
    status: &mut CronFederatedHPAStatus,
    rule: &CronFederatedHPARule,
    outcome: &Outcome,
    scheduled: Timestamp,
    ran: Timestamp,
    next: Option<Timestamp>,
) -> bool {
    let Some(h) = status.execution_histories.iter_mut().find(|h| h.rule_name == rule.name) else {
        return false;
    };
    let (schedule_time, execution_time) = (Some(Time(scheduled)), Some(Time(ran)));
    match outcome {
        Outcome::Applied => {
            h.successful_executions.insert(
                0,
                SuccessfulExecution {
                    schedule_time,
                    execution_time,
                    applied_replicas: rule.target_replicas,
                    applied_max_replicas: rule.target_max_replicas,
                    applied_min_replicas: rule.target_min_replicas,
                },
            );
            h.successful_executions.truncate(rule.successful_limit());
        }
        Outcome::Failed(message) => {
            h.failed_executions.insert(0, FailedExecution { schedule_time, execution_time, message: message.clone() });
            h.failed_executions.truncate(rule.failed_limit());
        }
    }
    h.next_execution_time = next.map(Time);
    true
}

/// Reads the object, applies `edit` to its status and writes it back when `edit` changed
/// something; a conflict (another writer in between) starts over with the newer object.
/// `Ok(false)` when the object is gone.
pub async fn write(
    engine: &Engine,
    key: &Key,
    mut edit: impl FnMut(&mut CronFederatedHPAStatus),
) -> Result<bool, kube::Error> {
    let api: Api<CronFederatedHPA> = Api::namespaced(engine.client.clone(), &key.namespace);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let Some(mut object) = api.get_opt(&key.name).await? else { return Ok(false) };
        let before = object.status.clone().unwrap_or_default();
        let mut status = before.clone();
        edit(&mut status);
        if status == before {
            return Ok(true);
        }
        object.status = Some(status);
        match api.replace_status(&key.name, &PostParams::default(), &object).await {
            Ok(_) => return Ok(true),
            Err(kube::Error::Api(e)) if e.code == 409 && attempt < ATTEMPTS => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn executions_are_kept_newest_first_within_the_limits() {
        let rule = CronFederatedHPARule {
            name: "up".into(),
            target_replicas: Some(4),
            successful_history_limit: Some(2),
            failed_history_limit: Some(0),
            ..Default::default()
        };
        let mut status = CronFederatedHPAStatus::default();
        assert!(!record(
            &mut status,
            &rule,
            &Outcome::Applied,
            at("2026-01-01T00:00:00Z"),
            at("2026-01-01T00:00:00Z"),
            None
        ));
        set_next(&mut status, "up", Some(at("2026-01-01T01:00:00Z")));
        for hour in 1..=3 {
            let t = at(&format!("2026-01-01T0{hour}:00:00Z"));
            let next = at(&format!("2026-01-01T0{}:00:00Z", hour + 1));
            assert!(record(&mut status, &rule, &Outcome::Applied, t, t, Some(next)));
        }
        assert!(record(
            &mut status,
            &rule,
            &Outcome::Failed("boom".into()),
            at("2026-01-01T04:00:00Z"),
            at("2026-01-01T04:00:01Z"),
            None
        ));
        let h = &status.execution_histories[0];
        let times: Vec<String> =
            h.successful_executions.iter().map(|e| e.schedule_time.as_ref().unwrap().0.to_string()).collect();
        assert_eq!(times, ["2026-01-01T03:00:00Z", "2026-01-01T02:00:00Z"]);
        assert_eq!(h.successful_executions[0].applied_replicas, Some(4));
        // A failed limit of 0 keeps no failures.
        assert!(h.failed_executions.is_empty());
        assert_eq!(h.next_execution_time, None);
        set_next(&mut status, "up", Some(at("2026-01-02T00:00:00Z")));
        assert_eq!(status.execution_histories.len(), 1);
        assert!(remove(&mut status, "up") && !remove(&mut status, "up"));
    }
}
