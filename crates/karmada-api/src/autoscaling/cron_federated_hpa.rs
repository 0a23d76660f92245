//! `autoscaling.karmada.io/v1alpha1` CronFederatedHPA: time-zoned cron rules that set a
//! workload template's replicas, or a FederatedHPA's `minReplicas`/`maxReplicas`, with each
//! rule's execution history in the status. The CRD served is upstream's own (see
//! [`crate::upstream_crds`]); these types are how the API server's checks and the engine read
//! and write it.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};

/// The group and version of this kind and of FederatedHPA.
pub const API_VERSION: &str = "autoscaling.karmada.io/v1alpha1";
/// The one kind of [`API_VERSION`] a CronFederatedHPA may scale.
pub const FEDERATED_HPA_KIND: &str = "FederatedHPA";
/// History entries a rule keeps of each outcome when it sets no limit (upstream's
/// `DefaultHistoryLimit`).
pub const DEFAULT_HISTORY_LIMIT: i32 = 3;

/// What to scale and when.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[kube(
    group = "autoscaling.karmada.io",
    version = "v1alpha1",
    kind = "CronFederatedHPA",
    plural = "cronfederatedhpas",
    namespaced,
    status = "CronFederatedHPAStatus",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct CronFederatedHPASpec {
    /// The workload (anything with a scale subresource) or FederatedHPA to scale.
    pub scale_target_ref: CrossVersionObjectReference,
    /// The schedules, each with what it sets.
    #[serde(default)]
    pub rules: Vec<CronFederatedHPARule>,
}

/// `autoscaling/v2` CrossVersionObjectReference.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[serde(rename_all = "camelCase")]
pub struct CrossVersionObjectReference {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
}

/// One schedule and the scale it sets.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CronFederatedHPARule {
    /// Unique in the object; the key of the rule's history.
    pub name: String,
    /// Five-field cron schedule.
    pub schedule: String,
    /// Replicas to set on a workload target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_replicas: Option<i32>,
    /// `minReplicas` to set on a FederatedHPA target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_min_replicas: Option<i32>,
    /// `maxReplicas` to set on a FederatedHPA target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_max_replicas: Option<i32>,
    /// No further executions while true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    /// IANA time zone of the schedule; the plane's own zone when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_history_limit: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_history_limit: Option<i32>,
}

impl CronFederatedHPARule {
    /// Whether the rule is suspended (upstream's `IsCronFederatedHPARuleSuspend`).
    pub fn suspended(&self) -> bool {
        self.suspend == Some(true)
    }

    /// Successful executions kept.
    pub fn successful_limit(&self) -> usize {
        limit(self.successful_history_limit)
    }

    /// Failed executions kept.
    pub fn failed_limit(&self) -> usize {
        limit(self.failed_history_limit)
    }
}

fn limit(value: Option<i32>) -> usize {
    usize::try_from(value.unwrap_or(DEFAULT_HISTORY_LIMIT)).unwrap_or(0)
}

/// Each rule's executions.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CronFederatedHPAStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub execution_histories: Vec<ExecutionHistory>,
}

/// One rule's next time and past executions, newest first.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExecutionHistory {
    pub rule_name: String,
    /// Absent while the rule is suspended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_execution_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub successful_executions: Vec<SuccessfulExecution>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_executions: Vec<FailedExecution>,
}

/// A run that set what its rule asks.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SuccessfulExecution {
    /// When the schedule said to run.
    pub schedule_time: Option<Time>,
    /// When it ran.
    pub execution_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_replicas: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_max_replicas: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_min_replicas: Option<i32>,
}

/// A run that could not set it, and why.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FailedExecution {
    pub schedule_time: Option<Time>,
    pub execution_time: Option<Time>,
    #[serde(default)]
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstream_manifests_round_trip_and_limits_default_to_three() {
        let doc = serde_json::json!({
            "apiVersion": API_VERSION, "kind": "CronFederatedHPA",
            "metadata": {"name": "c", "namespace": "default"},
            "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                "rules": [{"name": "up", "schedule": "0 9 * * *", "targetReplicas": 5, "timeZone": "Asia/Shanghai",
                    "failedHistoryLimit": 0}]},
            "status": {"executionHistories": [{"ruleName": "up", "nextExecutionTime": "2026-03-11T01:00:00Z",
                "successfulExecutions": [{"scheduleTime": "2026-03-10T01:00:00Z",
                    "executionTime": "2026-03-10T01:00:00Z", "appliedReplicas": 5}]}]},
        });
        let c: CronFederatedHPA = serde_json::from_value(doc.clone()).unwrap();
        let rule = &c.spec.rules[0];
        assert_eq!((rule.successful_limit(), rule.failed_limit(), rule.suspended()), (3, 0, false));
        assert_eq!(serde_json::to_value(&c).unwrap(), doc);
    }
}
