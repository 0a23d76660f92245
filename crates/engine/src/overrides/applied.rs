//! The applied-overrides annotation value, byte for byte as upstream's `AppliedOverrides`
//! marshals it: a JSON list of `{"policyName", "overriders"}` sorted by policy name, with the
//! overriders in Go's field order and `omitempty` rules (an empty list or map is left out, a
//! patch value is always present, `null` when unset).

use karmadactl_karmada_api::policy::overrides::{
    CommandArgsOverrider, FieldOverrider, ImageComponent, ImageOverrider, LabelAnnotationOverrider, OverriderOperator,
    Overriders, PatchOperation, PlaintextOverrider,
};
use serde::Serialize;
use serde_json::Value;

use super::go_json::to_go_json;

/// One applied rule: the policy's name and the overriders it applied.
pub struct Item<'a> {
    pub policy_name: &'a str,
    pub overriders: &'a Overriders,
}

/// The annotation value for `items`, or None when there are none.
pub fn render(items: &[Item<'_>]) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    let mut shadows: Vec<Shadow<'_>> =
        items.iter().map(|i| Shadow { policy_name: i.policy_name, overriders: GoOverriders(i.overriders) }).collect();
    // Upstream sorts with sort.Slice (not stable); a stable sort keeps a policy's rules in order.
    shadows.sort_by(|a, b| a.policy_name.cmp(b.policy_name));
    Some(to_go_json(&shadows))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Shadow<'a> {
    policy_name: &'a str,
    overriders: GoOverriders<'a>,
}

struct GoOverriders<'a>(&'a Overriders);

impl Serialize for GoOverriders<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let o = self.0;
        let mut map = serializer.serialize_map(None)?;
        if let Some(v) = non_empty(&o.plaintext) {
            map.serialize_entry("plaintext", &v.iter().map(GoPlaintext).collect::<Vec<_>>())?;
        }
        if let Some(v) = non_empty(&o.image_overrider) {
            map.serialize_entry("imageOverrider", &v.iter().map(GoImage).collect::<Vec<_>>())?;
        }
        if let Some(v) = non_empty(&o.command_overrider) {
            map.serialize_entry("commandOverrider", &v.iter().map(GoCommandArgs).collect::<Vec<_>>())?;
        }
        if let Some(v) = non_empty(&o.args_overrider) {
            map.serialize_entry("argsOverrider", &v.iter().map(GoCommandArgs).collect::<Vec<_>>())?;
        }
        if let Some(v) = non_empty(&o.labels_overrider) {
            map.serialize_entry("labelsOverrider", &v.iter().map(GoLabelAnnotation).collect::<Vec<_>>())?;
        }
        if let Some(v) = non_empty(&o.annotations_overrider) {
            map.serialize_entry("annotationsOverrider", &v.iter().map(GoLabelAnnotation).collect::<Vec<_>>())?;
        }
        if let Some(v) = non_empty(&o.field_overrider) {
            map.serialize_entry("fieldOverrider", &v.iter().map(GoField).collect::<Vec<_>>())?;
        }
        map.end()
    }
}

fn non_empty<T>(v: &Option<Vec<T>>) -> Option<&[T]> {
    v.as_deref().filter(|v| !v.is_empty())
}

fn operator(op: OverriderOperator) -> &'static str {
    match op {
        OverriderOperator::Add => "add",
        OverriderOperator::Remove => "remove",
        OverriderOperator::Replace => "replace",
    }
}

/// `apiextensions.JSON` marshals an unset value as `null`, and `omitempty` never drops a struct.
fn raw_value(v: &Option<Value>) -> &Value {
    v.as_ref().unwrap_or(&Value::Null)
}

struct GoPlaintext<'a>(&'a PlaintextOverrider);

impl Serialize for GoPlaintext<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("path", &self.0.path)?;
        map.serialize_entry("operator", operator(self.0.operator))?;
        map.serialize_entry("value", raw_value(&self.0.value))?;
        map.end()
    }
}

struct GoImage<'a>(&'a ImageOverrider);

impl Serialize for GoImage<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let o = self.0;
        let mut map = serializer.serialize_map(None)?;
        if let Some(p) = &o.predicate {
            map.serialize_entry("predicate", &serde_json::json!({ "path": p.path }))?;
        }
        let component = match o.component {
            ImageComponent::Registry => "Registry",
            ImageComponent::Repository => "Repository",
            ImageComponent::Tag => "Tag",
        };
        map.serialize_entry("component", component)?;
        map.serialize_entry("operator", operator(o.operator))?;
        if let Some(v) = o.value.as_deref().filter(|v| !v.is_empty()) {
            map.serialize_entry("value", v)?;
        }
        map.end()
    }
}

struct GoCommandArgs<'a>(&'a CommandArgsOverrider);

impl Serialize for GoCommandArgs<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let o = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("containerName", &o.container_name)?;
        map.serialize_entry("operator", operator(o.operator))?;
        if let Some(v) = non_empty(&o.value) {
            map.serialize_entry("value", v)?;
        }
        map.end()
    }
}

struct GoLabelAnnotation<'a>(&'a LabelAnnotationOverrider);

impl Serialize for GoLabelAnnotation<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let o = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("operator", operator(o.operator))?;
        // Go marshals map keys sorted, as a BTreeMap iterates.
        if !o.value.is_empty() {
            map.serialize_entry("value", &o.value)?;
        }
        map.end()
    }
}

struct GoField<'a>(&'a FieldOverrider);

impl Serialize for GoField<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let o = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("fieldPath", &o.field_path)?;
        if let Some(v) = non_empty(&o.json) {
            map.serialize_entry("json", &v.iter().map(GoPatch).collect::<Vec<_>>())?;
        }
        if let Some(v) = non_empty(&o.yaml) {
            map.serialize_entry("yaml", &v.iter().map(GoPatch).collect::<Vec<_>>())?;
        }
        map.end()
    }
}

struct GoPatch<'a>(&'a PatchOperation);

impl Serialize for GoPatch<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("subPath", &self.0.sub_path)?;
        map.serialize_entry("operator", operator(self.0.operator))?;
        map.serialize_entry("value", raw_value(&self.0.value))?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overriders(v: Value) -> Overriders {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn go_field_order_and_omitempty() {
        let all = overriders(json!({
            "fieldOverrider": [{"fieldPath": "/data/a", "yaml": [{"subPath": "/x", "operator": "remove"}], "json": []}],
            "annotationsOverrider": [{"operator": "remove", "value": {}}],
            "labelsOverrider": [{"operator": "add", "value": {"b": "2", "a": "1"}}],
            "argsOverrider": [{"containerName": "c", "operator": "add", "value": ["--v"]}],
            "commandOverrider": [{"containerName": "c", "operator": "remove", "value": []}],
            "imageOverrider": [{"predicate": {"path": "/spec/image"}, "component": "Tag", "operator": "remove"}],
            "plaintext": [{"path": "/spec/replicas", "operator": "replace", "value": 2},
                {"path": "/spec/paused", "operator": "remove"}]
        }));
        let empty = Overriders { plaintext: Some(Vec::new()), ..Overriders::default() };
        let text =
            render(&[Item { policy_name: "b", overriders: &all }, Item { policy_name: "a", overriders: &empty }])
                .unwrap();
        assert_eq!(
            text,
            concat!(
                r#"[{"policyName":"a","overriders":{}},"#,
                r#"{"policyName":"b","overriders":{"#,
                r#""plaintext":[{"path":"/spec/replicas","operator":"replace","value":2},"#,
                r#"{"path":"/spec/paused","operator":"remove","value":null}],"#,
                r#""imageOverrider":[{"predicate":{"path":"/spec/image"},"component":"Tag","operator":"remove"}],"#,
                r#""commandOverrider":[{"containerName":"c","operator":"remove"}],"#,
                r#""argsOverrider":[{"containerName":"c","operator":"add","value":["--v"]}],"#,
                r#""labelsOverrider":[{"operator":"add","value":{"a":"1","b":"2"}}],"#,
                r#""annotationsOverrider":[{"operator":"remove"}],"#,
                r#""fieldOverrider":[{"fieldPath":"/data/a","yaml":[{"subPath":"/x","operator":"remove","value":null}]}]"#,
                r#"}}]"#
            )
        );
        assert_eq!(render(&[]), None);
    }
}
