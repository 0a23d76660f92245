//! CronFederatedHPA as upstream's karmada-webhook validates it (`pkg/webhook/cronfederatedhpa`):
//! a scale target of the autoscaling.karmada.io group must be a FederatedHPA, the target
//! reference names a kind and an object, rule names are unique, schedules parse as standard
//! cron, time zones exist, and each rule sets what its target takes (`targetReplicas` for a
//! workload, `targetMinReplicas`/`targetMaxReplicas` for a FederatedHPA) within range.
//! Upstream's webhook denies; here the same field errors make a 422 Invalid, as for every kind.

use karmadactl_apimachinery::cron::{Schedule, time_zone};
use karmadactl_apimachinery::is_valid_path_segment_name;
use karmadactl_karmada_api::autoscaling::cron_federated_hpa::{
    API_VERSION, CronFederatedHPARule, CronFederatedHPASpec, CrossVersionObjectReference, FEDERATED_HPA_KIND,
};
use serde_json::{Value, json};

use super::field::{FieldError, child, index};

/// The checks on a CronFederatedHPA whose shape its schema accepted.
pub fn validate(obj: &Value) -> Vec<FieldError> {
    // A spec that passed the schema but still does not decode has nothing more to check.
    match obj.get("spec").cloned().map(serde_json::from_value::<CronFederatedHPASpec>) {
        Some(Ok(spec)) => validate_spec(&spec),
        _ => Vec::new(),
    }
}

fn validate_spec(spec: &CronFederatedHPASpec) -> Vec<FieldError> {
    let target = &spec.scale_target_ref;
    let scales_fhpa = target.api_version == API_VERSION;
    if scales_fhpa && target.kind != FEDERATED_HPA_KIND {
        return vec![FieldError::invalid(
            "spec.scaleTargetRef.kind",
            &json!(target.kind),
            format!("invalid scaleTargetRef kind: {}, only support {FEDERATED_HPA_KIND}", target.kind),
        )];
    }
    let mut errs = reference(target, "spec.scaleTargetRef");
    let mut names = std::collections::HashSet::new();
    for (i, rule) in spec.rules.iter().enumerate() {
        let at = index("spec.rules", i);
        if !names.insert(rule.name.as_str()) {
            errs.push(FieldError::duplicate(child(&at, "name"), &json!(rule.name)));
        }
        if let Err(why) = rule.schedule.parse::<Schedule>() {
            errs.push(FieldError::invalid(
                child(&at, "schedule"),
                &json!(rule.schedule),
                format!("invalid cron format: {why}"),
            ));
        }
        if let Some(tz) = &rule.time_zone
            && let Err(why) = time_zone(tz)
        {
            errs.push(FieldError::invalid(child(&at, "timeZone"), &json!(tz), why));
        }
        replicas(rule, scales_fhpa, &target.kind, &at, &mut errs);
    }
    errs
}

/// Upstream's `ValidateCrossVersionObjectReference`.
fn reference(r: &CrossVersionObjectReference, at: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (name, value) in [("kind", &r.kind), ("name", &r.name)] {
        if value.is_empty() {
            errs.push(FieldError::required(child(at, name), ""));
        }
        for msg in is_valid_path_segment_name(value) {
            errs.push(FieldError::invalid(child(at, name), &json!(value), msg));
        }
    }
    errs
}

/// What a rule sets must suit its target. The values are reported as `""`, as upstream does.
fn replicas(rule: &CronFederatedHPARule, scales_fhpa: bool, kind: &str, at: &str, errs: &mut Vec<FieldError>) {
    let mut invalid = |field: &str, msg: String| errs.push(FieldError::invalid(child(at, field), &json!(""), msg));
    if scales_fhpa {
        if rule.target_min_replicas.is_none() && rule.target_max_replicas.is_none() {
            invalid(
                "targetMaxReplicas",
                "targetMinReplicas and targetMaxReplicas cannot be nil at the same time if you want to scale FederatedHPA"
                    .into(),
            );
        }
        let min = rule.target_min_replicas.unwrap_or(1);
        let max = rule.target_max_replicas.unwrap_or(i32::MAX);
        if min <= 0 {
            invalid("targetMinReplicas", "targetMinReplicas should be larger than 0".into());
        }
        if max <= 0 {
            invalid("targetMaxReplicas", "targetMaxReplicas should be larger than 0".into());
        }
        if min > max {
            invalid(
                "targetMinReplicas",
                "targetMaxReplicas should be larger than or equal to targetMinReplicas".into(),
            );
        }
        return;
    }
    match rule.target_replicas {
        None => invalid("targetReplicas", format!("targetReplicas cannot be nil if you want to scale {kind}")),
        // Zero is allowed: a workload may be emptied for the weekend.
        Some(n) if n < 0 => invalid("targetReplicas", "targetReplicas should be larger than or equal to 0".into()),
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(obj: Value) -> Vec<String> {
        validate(&obj).iter().map(FieldError::message).collect()
    }

    fn cron(target: Value, rules: Value) -> Value {
        json!({"metadata": {"name": "c"}, "spec": {"scaleTargetRef": target, "rules": rules}})
    }

    #[test]
    fn a_valid_object_passes() {
        let deploy = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
        let rules = json!([{"name": "up", "schedule": "0 9 * * 1-5", "targetReplicas": 0, "timeZone": "Asia/Shanghai"},
            {"name": "down", "schedule": "@daily", "targetReplicas": 1}]);
        assert!(messages(cron(deploy, rules)).is_empty());
        let fhpa = json!({"apiVersion": API_VERSION, "kind": "FederatedHPA", "name": "web"});
        assert!(
            messages(cron(fhpa, json!([{"name": "a", "schedule": "* * * * *", "targetMaxReplicas": 3}]))).is_empty()
        );
    }

    #[test]
    fn rules_are_checked_as_upstream() {
        let deploy = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
        let rules = json!([
            {"name": "a", "schedule": "0 9 * *", "targetReplicas": 1},
            {"name": "a", "schedule": "0 9 * * *", "timeZone": "Mars/Olympus"},
            {"name": "b", "schedule": "61 * * * *", "targetReplicas": -1},
        ]);
        assert_eq!(
            messages(cron(deploy, rules)),
            [
                "spec.rules[0].schedule: Invalid value: \"0 9 * *\": invalid cron format: expected exactly 5 fields, found 4: 0 9 * *",
                "spec.rules[1].name: Duplicate value: \"a\"",
                "spec.rules[1].timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus",
                "spec.rules[1].targetReplicas: Invalid value: \"\": targetReplicas cannot be nil if you want to scale Deployment",
                "spec.rules[2].schedule: Invalid value: \"61 * * * *\": invalid cron format: end of range (61) above maximum (59): 61",
                "spec.rules[2].targetReplicas: Invalid value: \"\": targetReplicas should be larger than or equal to 0",
            ]
        );
    }

    #[test]
    fn a_federated_hpa_target_takes_min_and_max() {
        let fhpa = json!({"apiVersion": API_VERSION, "kind": "FederatedHPA", "name": "web"});
        let rules = json!([
            {"name": "a", "schedule": "* * * * *", "targetReplicas": 3},
            {"name": "b", "schedule": "* * * * *", "targetMinReplicas": 0, "targetMaxReplicas": -1},
            {"name": "c", "schedule": "* * * * *", "targetMinReplicas": 5, "targetMaxReplicas": 2},
        ]);
        assert_eq!(
            messages(cron(fhpa, rules)),
            [
                "spec.rules[0].targetMaxReplicas: Invalid value: \"\": targetMinReplicas and targetMaxReplicas cannot be nil at the same time if you want to scale FederatedHPA",
                "spec.rules[1].targetMinReplicas: Invalid value: \"\": targetMinReplicas should be larger than 0",
                "spec.rules[1].targetMaxReplicas: Invalid value: \"\": targetMaxReplicas should be larger than 0",
                "spec.rules[1].targetMinReplicas: Invalid value: \"\": targetMaxReplicas should be larger than or equal to targetMinReplicas",
                "spec.rules[2].targetMinReplicas: Invalid value: \"\": targetMaxReplicas should be larger than or equal to targetMinReplicas",
            ]
        );
    }

    #[test]
    fn the_target_reference_is_checked() {
        let hpa = json!({"apiVersion": API_VERSION, "kind": "CronFederatedHPA", "name": "x"});
        assert_eq!(
            messages(cron(hpa, json!([]))),
            [
                "spec.scaleTargetRef.kind: Invalid value: \"CronFederatedHPA\": invalid scaleTargetRef kind: CronFederatedHPA, only support FederatedHPA"
            ]
        );
        let bad = json!({"apiVersion": "apps/v1", "kind": "", "name": "a/b"});
        assert_eq!(
            messages(cron(bad, json!([]))),
            [
                "spec.scaleTargetRef.kind: Required value",
                "spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'"
            ]
        );
    }
}
