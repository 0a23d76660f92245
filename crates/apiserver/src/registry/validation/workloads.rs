//! Workload checks: replicas, selector against template labels, pod template, restart policy.

use serde_json::{Map, Value, json};

use super::access::{at, is_set, list_at, map_at, str_at};
use super::field::{FieldError, child, go_string_map, index};
use super::pods;

/// Which workload a spec belongs to; decides the selector and restart-policy rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// apps/v1 Deployment.
    Deployment,
    /// apps/v1 ReplicaSet.
    ReplicaSet,
    /// apps/v1 StatefulSet.
    StatefulSet,
    /// apps/v1 DaemonSet.
    DaemonSet,
}

/// Checks an apps/v1 workload object.
pub fn workload(kind: Workload, obj: &Value, errs: &mut Vec<FieldError>) {
    let spec = at(obj, &["spec"]).cloned().unwrap_or(Value::Null);
    if kind != Workload::DaemonSet {
        non_negative(&spec, "spec", "replicas", errs);
    }
    non_negative(&spec, "spec", "minReadySeconds", errs);
    non_negative(&spec, "spec", "revisionHistoryLimit", errs);
    let what = match kind {
        // kube's ReplicaSet validation reuses the Deployment wording.
        Workload::Deployment | Workload::ReplicaSet => "deployment",
        Workload::StatefulSet => "statefulset",
        Workload::DaemonSet => "daemonset",
    };
    selector_and_template(&spec, "spec", what, true, errs);
    if let Some(policy) = str_at(&spec, &["template", "spec", "restartPolicy"])
        && policy != "Always"
    {
        errs.push(FieldError::not_supported("spec.template.spec.restartPolicy", &json!(policy), &["Always"]));
    }
    if let Some(t) = str_at(&spec, &["strategy", "type"]).filter(|_| kind == Workload::Deployment)
        && !["Recreate", "RollingUpdate"].contains(&t)
    {
        errs.push(FieldError::not_supported("spec.strategy.type", &json!(t), &["Recreate", "RollingUpdate"]));
    }
}

/// Checks a batch/v1 Job spec found at `path`.
pub fn job_spec(spec: &Value, path: &str, errs: &mut Vec<FieldError>) {
    for f in ["parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished"] {
        non_negative(spec, path, f, errs);
    }
    // The selector is generated unless manualSelector is set, so only then is it required.
    let manual = at(spec, &["manualSelector"]).and_then(Value::as_bool) == Some(true);
    if manual || is_set(spec, &["selector"]) {
        selector_and_template(spec, path, "job", manual, errs);
    } else {
        pod_template(spec, path, errs);
    }
    // Defaulting turns an absent restartPolicy into Always before validation, hence the default.
    let policy = str_at(spec, &["template", "spec", "restartPolicy"]).unwrap_or("Always");
    if !["OnFailure", "Never"].contains(&policy) {
        let p = child(path, "template.spec.restartPolicy");
        errs.push(FieldError::not_supported(p, &json!(policy), &["OnFailure", "Never"]));
    }
}

/// Checks a batch/v1 CronJob object.
pub fn cron_job(obj: &Value, errs: &mut Vec<FieldError>) {
    // The controller appends an 11-character suffix to make job names, which must stay labels.
    if let Some(name) = str_at(obj, &["metadata", "name"])
        && name.len() > 52
    {
        errs.push(FieldError::invalid("metadata.name", &json!(name), "must be no more than 52 characters"));
    }
    let spec = at(obj, &["spec"]).cloned().unwrap_or(Value::Null);
    if str_at(&spec, &["schedule"]).is_none_or(str::is_empty) {
        errs.push(FieldError::required("spec.schedule", ""));
    }
    if let Some(p) = str_at(&spec, &["concurrencyPolicy"])
        && !["Allow", "Forbid", "Replace"].contains(&p)
    {
        errs.push(FieldError::not_supported("spec.concurrencyPolicy", &json!(p), &["Allow", "Forbid", "Replace"]));
    }
    let job = at(&spec, &["jobTemplate", "spec"]).cloned().unwrap_or(Value::Null);
    job_spec(&job, "spec.jobTemplate.spec", errs);
}

fn non_negative(spec: &Value, path: &str, field: &str, errs: &mut Vec<FieldError>) {
    if let Some(n) = at(spec, &[field]).and_then(Value::as_i64)
        && n < 0
    {
        errs.push(FieldError::invalid(child(path, field), &json!(n), "must be greater than or equal to 0"));
    }
}

fn pod_template(spec: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let template_spec = at(spec, &["template", "spec"]).cloned().unwrap_or(Value::Null);
    pods::pod_spec(&template_spec, &child(path, "template.spec"), errs);
}

fn selector_and_template(spec: &Value, path: &str, what: &str, required: bool, errs: &mut Vec<FieldError>) {
    let sel_path = child(path, "selector");
    let labels = map_at(spec, &["template", "metadata", "labels"]).cloned().unwrap_or_default();
    match at(spec, &["selector"]) {
        None | Some(Value::Null) if required => errs.push(FieldError::required(&sel_path, "")),
        None | Some(Value::Null) => {}
        Some(sel) => {
            let before = errs.len();
            label_selector(sel, &sel_path, errs);
            if errs.len() == before {
                if selector_is_empty(sel) {
                    errs.push(FieldError::invalid_raw(
                        &sel_path,
                        render_selector(sel),
                        format!("empty selector is invalid for {what}"),
                    ));
                } else if !selector_matches(sel, &labels) {
                    errs.push(FieldError::invalid_raw(
                        child(path, "template.metadata.labels"),
                        go_string_map(&Value::Object(labels.clone())),
                        "`selector` does not match template `labels`",
                    ));
                }
            }
        }
    }
    pod_template(spec, path, errs);
}

fn selector_is_empty(sel: &Value) -> bool {
    !is_set(sel, &["matchLabels"]) && !is_set(sel, &["matchExpressions"])
}

/// Go's `%v` of a `*metav1.LabelSelector` (its generated `String()`).
fn render_selector(sel: &Value) -> String {
    let labels = go_string_map(&at(sel, &["matchLabels"]).cloned().unwrap_or(json!({})));
    format!("&LabelSelector{{MatchLabels:{labels},MatchExpressions:[]LabelSelectorRequirement{{}},}}")
}

/// Checks the syntax of a `metav1.LabelSelector`.
pub fn label_selector(sel: &Value, path: &str, errs: &mut Vec<FieldError>) {
    for (i, req) in list_at(sel, &["matchExpressions"]).iter().enumerate() {
        let rpath = index(&child(path, "matchExpressions"), i);
        let values = list_at(req, &["values"]);
        match str_at(req, &["operator"]).unwrap_or_default() {
            "In" | "NotIn" if values.is_empty() => errs.push(FieldError::required(
                child(&rpath, "values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(FieldError::forbidden(
                child(&rpath, "values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errs.push(FieldError::invalid(
                child(&rpath, "operator"),
                &json!(other),
                "not a valid selector operator",
            )),
        }
    }
}

/// Whether labels satisfy a label selector's `matchLabels` and `matchExpressions`.
pub fn selector_matches(sel: &Value, labels: &Map<String, Value>) -> bool {
    let label = |k: &str| labels.get(k).and_then(Value::as_str);
    let labels_ok = map_at(sel, &["matchLabels"])
        .is_none_or(|m| m.iter().all(|(k, v)| label(k).is_some_and(|l| Some(l) == v.as_str())));
    let exprs_ok = list_at(sel, &["matchExpressions"]).iter().all(|req| {
        let key = str_at(req, &["key"]).unwrap_or_default();
        let values: Vec<&str> = list_at(req, &["values"]).iter().filter_map(Value::as_str).collect();
        match str_at(req, &["operator"]).unwrap_or_default() {
            "In" => label(key).is_some_and(|l| values.contains(&l)),
            "NotIn" => label(key).is_none_or(|l| !values.contains(&l)),
            "Exists" => label(key).is_some(),
            "DoesNotExist" => label(key).is_none(),
            _ => false,
        }
    });
    labels_ok && exprs_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployment(selector: Value, labels: Value) -> Value {
        json!({"spec": {"replicas": 1, "selector": selector, "template": {"metadata": {"labels": labels},
            "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}})
    }

    fn check(obj: &Value) -> Vec<String> {
        let mut errs = Vec::new();
        workload(Workload::Deployment, obj, &mut errs);
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn selector_must_match_labels() {
        assert!(check(&deployment(json!({"matchLabels": {"app": "x"}}), json!({"app": "x", "tier": "a"}))).is_empty());
        assert_eq!(
            check(&deployment(json!({"matchLabels": {"app": "y"}}), json!({"app": "x"}))),
            [
                "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"x\"}: `selector` does not match template `labels`"
            ]
        );
        let errs = check(&deployment(json!({}), json!({"app": "x"})));
        assert!(errs[0].starts_with("spec.selector: Invalid value: &LabelSelector{"), "{errs:?}");
        assert!(errs[0].ends_with("empty selector is invalid for deployment"), "{errs:?}");
        let errs = check(&json!({"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "b"}]}}}}));
        assert_eq!(errs, ["spec.selector: Required value"]);
    }

    #[test]
    fn expressions_and_replicas() {
        let sel = json!({"matchExpressions": [{"key": "app", "operator": "In", "values": ["x", "y"]}]});
        assert!(check(&deployment(sel, json!({"app": "y"}))).is_empty());
        let mut obj = deployment(json!({"matchLabels": {"app": "x"}}), json!({"app": "x"}));
        obj["spec"]["replicas"] = json!(-1);
        assert_eq!(check(&obj), ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]);
    }

    #[test]
    fn jobs_need_a_terminating_restart_policy() {
        let mut errs = Vec::new();
        job_spec(&json!({"template": {"spec": {"containers": [{"name": "a", "image": "b"}]}}}), "spec", &mut errs);
        assert_eq!(
            errs.iter().map(FieldError::message).collect::<Vec<_>>(),
            [
                "spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""
            ]
        );
        let mut errs = Vec::new();
        cron_job(
            &json!({"spec": {"jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "Never",
            "containers": [{"name": "a", "image": "b"}]}}}}}}),
            &mut errs,
        );
        assert_eq!(errs.iter().map(FieldError::message).collect::<Vec<_>>(), ["spec.schedule: Required value"]);
    }
}
