//! `fieldOverrider`: patches a JSON or YAML document held in a string field (a ConfigMap key,
//! an annotation) and writes it back in the same format, as upstream does: JSON compact, YAML
//! as go-yaml v2 prints it (keys sorted), so a document may be reformatted even by a no-op.

use karmadactl_karmada_api::policy::overrides::{FieldOverrider, OverriderOperator, PatchOperation};
use serde_json::Value;

use super::go_json::to_go_json;
use super::patch::{self, apply_op};
use karmadactl_apimachinery::go_yaml::to_yaml;

/// Applies each overrider in order. When both `yaml` and `json` are set, `yaml` wins (admission
/// refuses such policies anyway); with neither, the field is left as it is.
pub fn apply(manifest: &mut Value, overriders: &[FieldOverrider]) -> Result<(), String> {
    for o in overriders {
        let path = &o.field_path;
        let fail = |why: String| format!("field overrider: {path}: {why}");
        let text = match patch::get(manifest, path).map_err(fail)? {
            Some(Value::String(s)) => s.clone(),
            Some(other) => return Err(fail(format!("the value is a {}, not a string", patch::kind(other)))),
            None => return Err(fail("the path does not exist".into())),
        };
        let new = match (o.yaml.as_deref(), o.json.as_deref()) {
            (Some(ops), _) if !ops.is_empty() => patch_yaml(&text, ops).map_err(fail)?,
            (_, Some(ops)) if !ops.is_empty() => patch_json(&text, ops).map_err(fail)?,
            _ => continue,
        };
        apply_op(manifest, OverriderOperator::Replace, path, Some(&Value::String(new))).map_err(fail)?;
    }
    Ok(())
}

fn patch_json(text: &str, ops: &[PatchOperation]) -> Result<String, String> {
    let mut doc: Value = serde_json::from_str(text).map_err(|e| format!("the value is not JSON: {e}"))?;
    patch_doc(&mut doc, ops)?;
    Ok(to_go_json(&doc))
}

fn patch_yaml(text: &str, ops: &[PatchOperation]) -> Result<String, String> {
    let mut doc: Value = serde_saphyr::from_str(text).map_err(|e| format!("the value is not YAML: {e}"))?;
    patch_doc(&mut doc, ops)?;
    to_yaml(&doc).map_err(|e| format!("cannot write the document back as YAML: {e}"))
}

fn patch_doc(doc: &mut Value, ops: &[PatchOperation]) -> Result<(), String> {
    ops.iter().try_for_each(|op| apply_op(doc, op.operator, &op.sub_path, op.value.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overriders(v: Value) -> Vec<FieldOverrider> {
        serde_json::from_value(v).unwrap()
    }

    fn config_map(key: &str, text: &str) -> Value {
        json!({"kind": "ConfigMap", "metadata": {"name": "c"}, "data": {key: text}})
    }

    #[test]
    fn json_document() {
        let mut m = config_map("db.json", r#"{"db": {"host": "old", "port": 5432, "tls": true}, "x": "<a&b>"}"#);
        apply(
            &mut m,
            &overriders(json!([{"fieldPath": "/data/db.json", "json": [
                {"subPath": "/db/host", "operator": "replace", "value": "db.member1"},
                {"subPath": "/db/pool", "operator": "add", "value": {"max": 10}},
                {"subPath": "/db/tls", "operator": "remove"},
            ]}])),
        )
        .unwrap();
        assert_eq!(
            m["data"]["db.json"],
            r#"{"db":{"host":"db.member1","pool":{"max":10},"port":5432},"x":"\u003ca\u0026b\u003e"}"#
        );
    }

    #[test]
    fn yaml_document() {
        let mut m = config_map("config.yaml", "server:\n  port: 80\n  hosts:\n  - a\nlog: debug\n");
        apply(
            &mut m,
            &overriders(json!([{"fieldPath": "/data/config.yaml", "yaml": [
                {"subPath": "/server/port", "operator": "replace", "value": 8080},
                {"subPath": "/server/hosts/-", "operator": "add", "value": "b"},
                {"subPath": "/log", "operator": "remove"},
            ]}])),
        )
        .unwrap();
        assert_eq!(m["data"]["config.yaml"], "server:\n  hosts:\n  - a\n  - b\n  port: 8080\n");
    }

    #[test]
    fn errors_name_the_field() {
        let mut m = json!({"kind": "ConfigMap", "data": {"n": "not json"}, "spec": {"replicas": 1}});
        let err = apply(
            &mut m,
            &overriders(json!([{"fieldPath": "/spec/replicas", "json": [
            {"subPath": "/a", "operator": "add", "value": 1}]}])),
        )
        .unwrap_err();
        assert_eq!(err, "field overrider: /spec/replicas: the value is a number, not a string");
        let err = apply(
            &mut m,
            &overriders(json!([{"fieldPath": "/data/missing", "json": [
            {"subPath": "/a", "operator": "add", "value": 1}]}])),
        )
        .unwrap_err();
        assert_eq!(err, "field overrider: /data/missing: the path does not exist");
        let err = apply(
            &mut m,
            &overriders(json!([{"fieldPath": "/data/n", "json": [
            {"subPath": "/a", "operator": "add", "value": 1}]}])),
        )
        .unwrap_err();
        assert!(err.starts_with("field overrider: /data/n: the value is not JSON: "), "{err}");
        let mut m = config_map("c.json", r#"{"a": 1}"#);
        let err = apply(
            &mut m,
            &overriders(json!([{"fieldPath": "/data/c.json", "json": [
            {"subPath": "/b", "operator": "replace", "value": 1}]}])),
        )
        .unwrap_err();
        assert_eq!(err, "field overrider: /data/c.json: cannot replace /b: the path does not exist");
    }
}
