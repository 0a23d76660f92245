//! Admission checks for OverridePolicy and ClusterOverridePolicy specs: upstream webhook's
//! `ValidateOverrideSpec`, plus checks for mistakes it lets through and the engine would only
//! report when applying (a plaintext path that is not a JSON pointer, an image `add` or
//! `replace` without a value, a field overrider with no operations). Shapes and enums
//! (operators, image components) are the CRD schema's to check.

use serde::Serialize;

use karmadactl_apimachinery::{BadValue, Cause, FieldPath, validate_annotations, validate_labels};
use karmadactl_karmada_api::policy::overrides::{OverrideSpec, OverriderOperator, Overriders, PatchOperation};
use karmadactl_karmada_api::policy::selector::ClusterAffinity;

/// Every problem with `spec`, as field causes under `spec`.
pub fn validate(spec: &OverrideSpec) -> Vec<Cause> {
    let mut causes = Vec::new();
    let path = FieldPath::new("spec");
    if let Some(target) = &spec.target_cluster {
        cluster_affinity(target, &path.child("targetCluster"), &mut causes);
        if spec.override_rules.is_some() {
            let msg = "overrideRules and targetCluster can't co-exist";
            causes.push(Cause::invalid(path.child("targetCluster"), json(target), msg));
        }
    }
    if let Some(overriders) = &spec.overriders {
        if spec.override_rules.is_some() && !is_empty(overriders) {
            let msg = "overrideRules and overriders can't co-exist";
            causes.push(Cause::invalid(path.child("overriders"), json(overriders), msg));
        }
        // Upstream checks only `overrideRules`; the deprecated form is applied the same way, so
        // it is held to the same rules.
        check_overriders(overriders, &path.child("overriders"), &mut causes);
    }
    for (i, rule) in spec.override_rules.iter().flatten().enumerate() {
        let rule_path = path.child("overrideRules").index(i);
        check_overriders(&rule.overriders, &rule_path.child("overriders"), &mut causes);
        if let Some(target) = &rule.target_cluster {
            cluster_affinity(target, &rule_path.child("targetCluster"), &mut causes);
        }
    }
    causes
}

/// upstream's `emptyOverrides` (which does not look at field overriders).
fn is_empty(o: &Overriders) -> bool {
    fn none<T>(v: &Option<Vec<T>>) -> bool {
        v.as_ref().is_none_or(Vec::is_empty)
    }
    none(&o.plaintext)
        && none(&o.image_overrider)
        && none(&o.command_overrider)
        && none(&o.args_overrider)
        && none(&o.labels_overrider)
        && none(&o.annotations_overrider)
}

fn check_overriders(o: &Overriders, path: &FieldPath, causes: &mut Vec<Cause>) {
    for (i, p) in o.plaintext.iter().flatten().enumerate() {
        pointer(&p.path, &path.child("plaintext").index(i).child("path"), causes);
    }
    for (i, image) in o.image_overrider.iter().flatten().enumerate() {
        let image_path = path.child("imageOverrider").index(i);
        if let Some(predicate) = &image.predicate {
            pointer(&predicate.path, &image_path.child("predicate").child("path"), causes);
        }
        let has_value = image.value.as_deref().is_some_and(|v| !v.is_empty());
        if matches!(image.operator, OverriderOperator::Add | OverriderOperator::Replace) && !has_value {
            causes.push(Cause::required_detail(
                image_path.child("value"),
                "value is required for add or replace operation",
            ));
        }
    }
    for (i, labels) in o.labels_overrider.iter().flatten().enumerate() {
        causes.extend(validate_labels(&labels.value, &path.child("labelsOverrider").index(i).child("value")));
    }
    for (i, annotations) in o.annotations_overrider.iter().flatten().enumerate() {
        let p = path.child("annotationsOverrider").index(i).child("value");
        causes.extend(validate_annotations(&annotations.value, &p));
    }
    for (i, f) in o.field_overrider.iter().flatten().enumerate() {
        let field_path = path.child("fieldOverrider").index(i);
        let json_ops = f.json.as_deref().unwrap_or_default();
        let yaml_ops = f.yaml.as_deref().unwrap_or_default();
        match (json_ops.is_empty(), yaml_ops.is_empty()) {
            (false, false) => {
                let msg = "FieldOverrider has both YAML and JSON set. Only one is allowed";
                causes.push(Cause::invalid(&field_path, json(f), msg));
            }
            (true, true) => {
                let msg = "FieldOverrider must set one of YAML or JSON";
                causes.push(Cause::invalid(&field_path, json(f), msg));
            }
            _ => {}
        }
        pointer(&f.field_path, &field_path.child("fieldPath"), causes);
        patch_operations(json_ops, &field_path.child("json"), causes);
        patch_operations(yaml_ops, &field_path.child("yaml"), causes);
    }
}

fn patch_operations(ops: &[PatchOperation], path: &FieldPath, causes: &mut Vec<Cause>) {
    for (i, op) in ops.iter().enumerate() {
        let op_path = path.index(i);
        pointer(&op.sub_path, &op_path.child("subPath"), causes);
        let value = op.value.as_ref().map_or(BadValue::Json("null".into()), BadValue::from);
        match (op.operator, op.value.is_some()) {
            (OverriderOperator::Add | OverriderOperator::Replace, false) => {
                causes.push(Cause::invalid(
                    op_path.child("value"),
                    value,
                    "value is required for add or replace operation",
                ));
            }
            (OverriderOperator::Remove, true) => {
                causes.push(Cause::invalid(op_path.child("value"), value, "value is not allowed for remove operation"));
            }
            _ => {}
        }
    }
}

/// go-openapi's `jsonpointer.New`: empty, or starting with `/`.
fn pointer(p: &str, path: &FieldPath, causes: &mut Vec<Cause>) {
    if !p.is_empty() && !p.starts_with('/') {
        causes.push(Cause::invalid(path, p, "JSON pointer must be empty or start with a \"/\""));
    }
}

/// upstream's `ValidateClusterAffinity`: field selectors use the keys provider, region and zone
/// with the operators In and NotIn.
fn cluster_affinity(affinity: &ClusterAffinity, path: &FieldPath, causes: &mut Vec<Cause>) {
    let Some(selector) = &affinity.field_selector else { return };
    for expr in selector.match_expressions.iter().flatten() {
        let problem = if !matches!(expr.key.as_str(), "provider" | "region" | "zone") {
            format!("unsupported key {:?}, must be provider, region, or zone", expr.key)
        } else if !matches!(expr.operator.as_str(), "In" | "NotIn") {
            format!("unsupported operator {:?}, must be In or NotIn", expr.operator)
        } else {
            continue;
        };
        causes.push(Cause::invalid(path.child("fieldSelector"), json(selector), &problem));
        // Upstream reports the first bad expression only.
        return;
    }
}

fn json<T: Serialize>(v: &T) -> BadValue {
    BadValue::Json(serde_json::to_string(v).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn messages(spec: Value) -> Vec<String> {
        let spec: OverrideSpec = serde_json::from_value(spec).unwrap();
        validate(&spec).iter().map(ToString::to_string).collect()
    }

    fn rule(overriders: Value) -> Value {
        json!({"overrideRules": [{"overriders": overriders}]})
    }

    #[test]
    fn valid_specs_pass() {
        assert!(messages(json!({})).is_empty());
        assert!(
            messages(json!({
            "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}],
            "overrideRules": [{
                "targetCluster": {"clusterNames": ["member1"],
                    "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "In", "values": ["eu"]}]}},
                "overriders": {
                    "plaintext": [{"path": "/spec/replicas", "operator": "replace", "value": 2}],
                    "imageOverrider": [{"component": "Registry", "operator": "remove"}],
                    "labelsOverrider": [{"operator": "add", "value": {"app.kubernetes.io/name": "x"}}],
                    "fieldOverrider": [{"fieldPath": "/data/a", "yaml": [{"subPath": "/b", "operator": "remove"}]}]
                }}]}))
            .is_empty()
        );
        assert!(
            messages(json!({"targetCluster": {"clusterNames": ["m"]}, "overriders": {"plaintext": [
            {"path": "/metadata/labels/x", "operator": "add", "value": "y"}]}}))
            .is_empty()
        );
    }

    #[test]
    fn deprecated_fields_with_rules() {
        assert_eq!(
            messages(json!({"overrideRules": [], "targetCluster": {"clusterNames": ["m"]},
                "overriders": {"plaintext": [{"path": "/a", "operator": "remove"}]}})),
            [
                r#"spec.targetCluster: Invalid value: {"clusterNames":["m"]}: overrideRules and targetCluster can't co-exist"#,
                r#"spec.overriders: Invalid value: {"plaintext":[{"path":"/a","operator":"remove"}]}: overrideRules and overriders can't co-exist"#,
            ]
        );
    }

    #[test]
    fn overrider_rules() {
        assert_eq!(
            messages(rule(json!({"plaintext": [{"path": "spec/replicas", "operator": "remove"}]}))),
            [
                r#"spec.overrideRules[0].overriders.plaintext[0].path: Invalid value: "spec/replicas": JSON pointer must be empty or start with a "/""#
            ]
        );
        assert_eq!(
            messages(rule(json!({"imageOverrider": [{"component": "Tag", "operator": "replace", "value": ""},
                {"predicate": {"path": "x"}, "component": "Tag", "operator": "remove"}]}))),
            [
                "spec.overrideRules[0].overriders.imageOverrider[0].value: Required value: value is required for add or replace operation",
                r#"spec.overrideRules[0].overriders.imageOverrider[1].predicate.path: Invalid value: "x": JSON pointer must be empty or start with a "/""#,
            ]
        );
        let labels = messages(rule(json!({"labelsOverrider": [{"operator": "add", "value": {"bad key!": "v"}}]})));
        assert_eq!(labels.len(), 1);
        assert!(
            labels[0].starts_with(
                r#"spec.overrideRules[0].overriders.labelsOverrider[0].value: Invalid value: "bad key!": "#
            ),
            "{labels:?}"
        );
    }

    #[test]
    fn field_overrider_rules() {
        assert_eq!(
            messages(rule(json!({"fieldOverrider": [{"fieldPath": "/data/a"}]}))),
            [
                r#"spec.overrideRules[0].overriders.fieldOverrider[0]: Invalid value: {"fieldPath":"/data/a"}: FieldOverrider must set one of YAML or JSON"#
            ]
        );
        assert_eq!(
            messages(rule(json!({"fieldOverrider": [{"fieldPath": "data", "json": [
                {"subPath": "a", "operator": "add"}, {"subPath": "/b", "operator": "remove", "value": 1}]}]}))),
            [
                r#"spec.overrideRules[0].overriders.fieldOverrider[0].fieldPath: Invalid value: "data": JSON pointer must be empty or start with a "/""#,
                r#"spec.overrideRules[0].overriders.fieldOverrider[0].json[0].subPath: Invalid value: "a": JSON pointer must be empty or start with a "/""#,
                "spec.overrideRules[0].overriders.fieldOverrider[0].json[0].value: Invalid value: null: value is required for add or replace operation",
                "spec.overrideRules[0].overriders.fieldOverrider[0].json[1].value: Invalid value: 1: value is not allowed for remove operation",
            ]
        );
        let both = messages(rule(
            json!({"fieldOverrider": [{"fieldPath": "/d", "json": [{"subPath": "/a", "operator": "remove"}],
            "yaml": [{"subPath": "/a", "operator": "remove"}]}]}),
        ));
        assert_eq!(both.len(), 1);
        assert!(both[0].ends_with("FieldOverrider has both YAML and JSON set. Only one is allowed"), "{both:?}");
    }

    #[test]
    fn target_cluster_field_selector() {
        let spec = |key: &str, op: &str| {
            json!({"overrideRules": [{"overriders": {}, "targetCluster": {"fieldSelector": {"matchExpressions": [
                {"key": key, "operator": op, "values": ["x"]}]}}}]})
        };
        assert_eq!(
            messages(spec("color", "In")),
            [
                r#"spec.overrideRules[0].targetCluster.fieldSelector: Invalid value: {"matchExpressions":[{"key":"color","operator":"In","values":["x"]}]}: unsupported key "color", must be provider, region, or zone"#
            ]
        );
        assert!(messages(spec("zone", "Exists"))[0].ends_with(r#"unsupported operator "Exists", must be In or NotIn"#));
    }
}
