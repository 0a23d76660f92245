//! FederatedHPA admission as upstream's karmada-webhook does it (`pkg/webhook/federatedhpa`,
//! lifted from kube's HPA validation and defaults): the mutating half fills `minReplicas` (1),
//! the metrics (80 % of the CPU request) and the parts of a given behavior left out (kube's
//! HPA defaults); the validating half refuses bounds, references, metrics and scaling rules
//! kube would refuse, with kube's messages. Both read the object as JSON, after the CRD's
//! schema, so a shape the schema let through is checked field by field and never decoded
//! whole.

use karmadactl_apimachinery::quantity::Quantity;
use serde_json::{Value, json};

use super::access::list_at;
use super::field::{FieldError, child, index};
use super::names::path_segment;

pub use karmadactl_karmada_api::autoscaling::federated_hpa::{GROUP, KIND};

/// kube's bounds on a scaling rule's window and a policy's period, in seconds.
const MAX_STABILIZATION_WINDOW_SECONDS: i64 = 3600;
const MAX_PERIOD_SECONDS: i64 = 1800;
/// Karmada does not scale to zero: `minReplicas` starts at 1.
const MIN_REPLICAS_LOWER_BOUND: i64 = 1;
/// Most metrics one FHPA may list: each is computed every sync over every member's pods.
const MAX_METRICS: usize = 32;
/// Most policies one scaling rule may list.
const MAX_POLICIES: usize = 32;

const SELECT_POLICIES: &[&str] = &["Disabled", "Max", "Min"];
const POLICY_TYPES: &[&str] = &["Percent", "Pods"];
/// Upstream's sources: kube's without External, which Karmada does not support.
const METRIC_SOURCE_TYPES: &[&str] = &["ContainerResource", "Object", "Pods", "Resource"];

/// Upstream's `SetDefaultsFederatedHPA`.
pub fn default(obj: &mut Value) {
    let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) else { return };
    if spec.get("minReplicas").is_none_or(Value::is_null) {
        spec.insert("minReplicas".into(), json!(1));
    }
    if spec.get("metrics").and_then(Value::as_array).is_none_or(Vec::is_empty) {
        spec.insert(
            "metrics".into(),
            json!([{"type": "Resource", "resource": {"name": "cpu", "target": {
                "type": "Utilization",
                "averageUtilization": karmadactl_karmada_api::autoscaling::federated_hpa::DEFAULT_CPU_UTILIZATION,
            }}}]),
        );
    }
    // As upstream: a behavior left out stays out (the controller then uses the same defaults,
    // with its own scale-down window); a given one is completed.
    if let Some(behavior) = spec.get_mut("behavior").and_then(Value::as_object_mut) {
        for (direction, rules) in [("scaleUp", scale_up_defaults()), ("scaleDown", scale_down_defaults())] {
            let given = behavior.get(direction).and_then(Value::as_object).cloned().unwrap_or_default();
            let mut filled = rules;
            for field in ["selectPolicy", "stabilizationWindowSeconds", "policies"] {
                if let Some(v) = given.get(field).filter(|v| !v.is_null()) {
                    filled[field] = v.clone();
                }
            }
            behavior.insert(direction.into(), filled);
        }
    }
}

/// kube's scale-up default: the larger of 4 pods or doubling per 15 s, with no window.
fn scale_up_defaults() -> Value {
    json!({"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
        {"type": "Pods", "value": 4, "periodSeconds": 15},
        {"type": "Percent", "value": 100, "periodSeconds": 15},
    ]})
}

/// kube's scale-down default: anything down to the bounds per 15 s; the window is left to the
/// controller's `--horizontal-pod-autoscaler-downscale-stabilization` (5 minutes).
fn scale_down_defaults() -> Value {
    json!({"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]})
}

/// Upstream's `ValidateFederatedHPA` (metadata is checked for every kind elsewhere).
pub fn validate(obj: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    let min = spec.get("minReplicas").and_then(Value::as_i64);
    let max = spec.get("maxReplicas").and_then(Value::as_i64).unwrap_or(0);
    if let Some(m) = min.filter(|m| *m < MIN_REPLICAS_LOWER_BOUND) {
        errs.push(FieldError::invalid(
            "spec.minReplicas",
            &json!(m),
            format!("must be greater than or equal to {MIN_REPLICAS_LOWER_BOUND}"),
        ));
    }
    if max < 1 {
        errs.push(FieldError::invalid("spec.maxReplicas", &json!(max), "must be greater than 0"));
    }
    if min.is_some_and(|m| max < m) {
        errs.push(FieldError::invalid(
            "spec.maxReplicas",
            &json!(max),
            "must be greater than or equal to `minReplicas`",
        ));
    }
    object_reference(spec.get("scaleTargetRef").unwrap_or(&Value::Null), "spec.scaleTargetRef", &mut errs);
    let metrics = list_at(spec, &["metrics"]);
    if metrics.len() > MAX_METRICS {
        errs.push(FieldError::too_many("spec.metrics", metrics.len(), MAX_METRICS as u64));
    }
    for (i, metric) in metrics.iter().enumerate().take(MAX_METRICS) {
        metric_spec(metric, &index("spec.metrics", i), &mut errs);
    }
    if let Some(behavior) = spec.get("behavior").filter(|b| b.is_object()) {
        for direction in ["scaleUp", "scaleDown"] {
            if let Some(rules) = behavior.get(direction).filter(|r| r.is_object()) {
                scaling_rules(rules, &format!("spec.behavior.{direction}"), &mut errs);
            }
        }
    }
    let status = obj.get("status").unwrap_or(&Value::Null);
    for field in ["currentReplicas", "desiredReplicas"] {
        if let Some(n) = status.get(field).and_then(Value::as_i64).filter(|n| *n < 0) {
            errs.push(FieldError::invalid(format!("status.{field}"), &json!(n), "must be greater than or equal to 0"));
        }
    }
    errs
}

fn str_of<'a>(v: &'a Value, field: &str) -> &'a str {
    v.get(field).and_then(Value::as_str).unwrap_or_default()
}

/// kube's `ValidateCrossVersionObjectReference`.
fn object_reference(r: &Value, path: &str, errs: &mut Vec<FieldError>) {
    for field in ["kind", "name"] {
        let value = str_of(r, field);
        if value.is_empty() {
            errs.push(FieldError::required(child(path, field), ""));
        } else {
            for msg in path_segment(value) {
                errs.push(FieldError::invalid(child(path, field), &json!(value), msg));
            }
        }
    }
}

fn scaling_rules(rules: &Value, path: &str, errs: &mut Vec<FieldError>) {
    if let Some(w) = rules.get("stabilizationWindowSeconds").and_then(Value::as_i64) {
        if w < 0 {
            errs.push(FieldError::invalid(
                child(path, "stabilizationWindowSeconds"),
                &json!(w),
                "must be greater than or equal to zero",
            ));
        }
        if w > MAX_STABILIZATION_WINDOW_SECONDS {
            errs.push(FieldError::invalid(
                child(path, "stabilizationWindowSeconds"),
                &json!(w),
                format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"),
            ));
        }
    }
    if let Some(p) = rules.get("selectPolicy").filter(|p| !p.is_null())
        && !p.as_str().is_some_and(|p| SELECT_POLICIES.contains(&p))
    {
        errs.push(FieldError::not_supported(child(path, "selectPolicy"), p, SELECT_POLICIES));
    }
    let policies_path = child(path, "policies");
    let policies = list_at(rules, &["policies"]);
    if policies.is_empty() {
        errs.push(FieldError::required(&policies_path, "must specify at least one Policy"));
    }
    if policies.len() > MAX_POLICIES {
        errs.push(FieldError::too_many(&policies_path, policies.len(), MAX_POLICIES as u64));
    }
    for (i, policy) in policies.iter().enumerate().take(MAX_POLICIES) {
        let at = index(&policies_path, i);
        let kind = policy.get("type").unwrap_or(&Value::Null);
        if !kind.as_str().is_some_and(|t| POLICY_TYPES.contains(&t)) {
            errs.push(FieldError::not_supported(child(&at, "type"), kind, POLICY_TYPES));
        }
        let value = policy.get("value").and_then(Value::as_i64).unwrap_or(0);
        if value <= 0 {
            errs.push(FieldError::invalid(child(&at, "value"), &json!(value), "must be greater than zero"));
        }
        let period = policy.get("periodSeconds").and_then(Value::as_i64).unwrap_or(0);
        if period <= 0 {
            errs.push(FieldError::invalid(child(&at, "periodSeconds"), &json!(period), "must be greater than zero"));
        }
        if period > MAX_PERIOD_SECONDS {
            errs.push(FieldError::invalid(
                child(&at, "periodSeconds"),
                &json!(period),
                format!("must be less than or equal to {MAX_PERIOD_SECONDS}"),
            ));
        }
    }
}

/// kube's `validateMetricSpec` with upstream's source types.
fn metric_spec(m: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let kind = str_of(m, "type");
    if kind.is_empty() {
        errs.push(FieldError::required(child(path, "type"), "must specify a metric source type"));
    }
    if !METRIC_SOURCE_TYPES.contains(&kind) {
        errs.push(FieldError::not_supported(child(path, "type"), &json!(kind), METRIC_SOURCE_TYPES));
    }
    let sources = ["object", "pods", "resource", "containerResource"];
    let present: Vec<&str> = sources.iter().copied().filter(|s| m.get(*s).is_some_and(|v| !v.is_null())).collect();
    if let Some(first) = present.first() {
        let at = child(path, first);
        let src = &m[*first];
        match *first {
            "object" => object_source(src, &at, errs),
            "pods" => pods_source(src, &at, errs),
            "resource" => resource_source(src, &at, false, errs),
            _ => resource_source(src, &at, true, errs),
        }
    }
    let expected = match kind {
        "Object" => "object",
        "Pods" => "pods",
        "Resource" => "resource",
        "ContainerResource" => "containerResource",
        _ => {
            errs.push(FieldError::not_supported(child(path, "type"), &json!(kind), METRIC_SOURCE_TYPES));
            ""
        }
    };
    if !expected.is_empty() && !present.contains(&expected) {
        errs.push(FieldError::required(child(path, expected), "must populate information for the given metric source"));
    }
    if present.len() != 1 {
        for other in present.iter().filter(|s| **s != expected) {
            errs.push(FieldError::forbidden(child(path, other), "must populate the given metric source only"));
        }
    }
}

fn object_source(src: &Value, path: &str, errs: &mut Vec<FieldError>) {
    object_reference(src.get("describedObject").unwrap_or(&Value::Null), &child(path, "describedObject"), errs);
    metric_identifier(src.get("metric").unwrap_or(&Value::Null), &child(path, "metric"), errs);
    let target = src.get("target").unwrap_or(&Value::Null);
    metric_target(target, &child(path, "target"), errs);
    if target.get("value").is_none_or(Value::is_null) && target.get("averageValue").is_none_or(Value::is_null) {
        errs.push(FieldError::required(
            child(&child(path, "target"), "averageValue"),
            "must set either a target value or averageValue",
        ));
    }
}

fn pods_source(src: &Value, path: &str, errs: &mut Vec<FieldError>) {
    metric_identifier(src.get("metric").unwrap_or(&Value::Null), &child(path, "metric"), errs);
    let target = src.get("target").unwrap_or(&Value::Null);
    metric_target(target, &child(path, "target"), errs);
    if target.get("averageValue").is_none_or(Value::is_null) {
        errs.push(FieldError::required(
            child(&child(path, "target"), "averageValue"),
            "must specify a positive target averageValue",
        ));
    }
}

fn resource_source(src: &Value, path: &str, container: bool, errs: &mut Vec<FieldError>) {
    if str_of(src, "name").is_empty() {
        errs.push(FieldError::required(child(path, "name"), "must specify a resource name"));
    }
    if container && str_of(src, "container").is_empty() {
        errs.push(FieldError::required(child(path, "container"), "must specify a container"));
    }
    let target = src.get("target").unwrap_or(&Value::Null);
    let target_path = child(path, "target");
    metric_target(target, &target_path, errs);
    let utilization = target.get("averageUtilization").is_some_and(|v| !v.is_null());
    let average = target.get("averageValue").is_some_and(|v| !v.is_null());
    if !utilization && !average {
        errs.push(FieldError::required(
            child(&target_path, "averageUtilization"),
            "must set either a target raw value or a target utilization",
        ));
    }
    if utilization && average {
        errs.push(FieldError::forbidden(
            child(&target_path, "averageValue"),
            "may not set both a target raw value and a target utilization",
        ));
    }
}

fn metric_target(t: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let kind = str_of(t, "type");
    if kind.is_empty() {
        errs.push(FieldError::required(child(path, "type"), "must specify a metric target type"));
    }
    if !matches!(kind, "Utilization" | "Value" | "AverageValue") {
        errs.push(FieldError::invalid(
            child(path, "type"),
            &json!(kind),
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    for field in ["value", "averageValue"] {
        let Some(raw) = t.get(field).filter(|v| !v.is_null()) else { continue };
        let text = raw.as_str().map(str::to_string).unwrap_or_else(|| raw.to_string());
        let positive = Quantity::parse(&text).is_ok_and(|q| q.nanos() > 0);
        if !positive {
            errs.push(FieldError::invalid(child(path, field), &json!(text), "must be positive"));
        }
    }
    if let Some(u) = t.get("averageUtilization").and_then(Value::as_i64).filter(|u| *u < 1) {
        errs.push(FieldError::invalid(child(path, "averageUtilization"), &json!(u), "must be greater than 0"));
    }
}

fn metric_identifier(id: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let name = str_of(id, "name");
    if name.is_empty() {
        errs.push(FieldError::required(child(path, "name"), "must specify a metric name"));
    } else {
        for msg in path_segment(name) {
            errs.push(FieldError::invalid(child(path, "name"), &json!(name), msg));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(obj: &Value) -> Vec<String> {
        validate(obj).iter().map(FieldError::message).collect()
    }

    fn fhpa(spec: Value) -> Value {
        json!({"metadata": {"name": "web"}, "spec": spec})
    }

    #[test]
    fn defaults_fill_min_metrics_and_a_given_behavior() {
        let mut obj = fhpa(json!({"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
            "maxReplicas": 5, "behavior": {"scaleDown": {"stabilizationWindowSeconds": 10}}}));
        default(&mut obj);
        let spec = &obj["spec"];
        assert_eq!(spec["minReplicas"], 1);
        assert_eq!(spec["metrics"][0]["resource"]["target"]["averageUtilization"], 80);
        assert_eq!(spec["behavior"]["scaleDown"]["stabilizationWindowSeconds"], 10);
        assert_eq!(spec["behavior"]["scaleDown"]["policies"][0]["value"], 100);
        assert_eq!(spec["behavior"]["scaleUp"]["policies"].as_array().unwrap().len(), 2);
        assert_eq!(spec["behavior"]["scaleUp"]["stabilizationWindowSeconds"], 0);
        assert!(validate(&obj).is_empty(), "{:?}", messages(&obj));
        let mut bare = fhpa(json!({"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "maxReplicas": 5}));
        default(&mut bare);
        assert!(bare["spec"].get("behavior").is_none());
    }

    #[test]
    fn bad_bounds_references_metrics_and_rules_are_refused_with_kube_messages() {
        let obj = fhpa(json!({"scaleTargetRef": {"kind": "", "name": "a/b"}, "minReplicas": 0, "maxReplicas": 0,
            "metrics": [
                {"type": "External", "external": {}},
                {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 0, "averageValue": "-1"}}},
                {"type": "Pods", "resource": {"name": "cpu", "target": {"type": "AverageValue", "averageValue": "1"}}},
            ],
            "behavior": {"scaleUp": {"selectPolicy": "Fast", "stabilizationWindowSeconds": 4000, "policies": []},
                         "scaleDown": {"policies": [{"type": "Pod", "value": 0, "periodSeconds": 2000}]}}}));
        let all = messages(&obj).join("\n");
        for want in [
            "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
            "spec.maxReplicas: Invalid value: 0: must be greater than 0",
            "spec.scaleTargetRef.kind: Required value",
            "spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'",
            "spec.metrics[0].type: Unsupported value: \"External\": supported values: \"ContainerResource\", \"Object\", \"Pods\", \"Resource\"",
            "spec.metrics[1].resource.target.averageValue: Invalid value: \"-1\": must be positive",
            "spec.metrics[1].resource.target.averageUtilization: Invalid value: 0: must be greater than 0",
            "spec.metrics[1].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization",
            "spec.metrics[2].pods: Required value: must populate information for the given metric source",
            "spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600",
            "spec.behavior.scaleUp.selectPolicy: Unsupported value: \"Fast\": supported values: \"Disabled\", \"Max\", \"Min\"",
            "spec.behavior.scaleUp.policies: Required value: must specify at least one Policy",
            "spec.behavior.scaleDown.policies[0].type: Unsupported value: \"Pod\": supported values: \"Percent\", \"Pods\"",
            "spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero",
            "spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800",
        ] {
            assert!(all.contains(want), "missing {want:?} in\n{all}");
        }
        let inverted =
            fhpa(json!({"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "minReplicas": 4, "maxReplicas": 2}));
        assert_eq!(
            messages(&inverted),
            ["spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`"]
        );
    }
}
