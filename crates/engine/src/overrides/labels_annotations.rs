//! `labelsOverrider` and `annotationsOverrider`: add, replace or remove entries of
//! `metadata.labels` or `metadata.annotations`.

use serde_json::{Map, Value};

use karmadactl_karmada_api::policy::overrides::{LabelAnnotationOverrider, OverriderOperator};

/// Which metadata map an overrider changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Labels,
    Annotations,
}

/// Applies each overrider in order. As upstream: `add` creates the map when missing and sets
/// every entry; `replace` and `remove` only touch keys that are already present.
pub fn apply(manifest: &mut Value, target: Target, overriders: &[LabelAnnotationOverrider]) -> Result<(), String> {
    let field = match target {
        Target::Labels => "labels",
        Target::Annotations => "annotations",
    };
    for o in overriders {
        if o.value.is_empty() {
            continue;
        }
        let Some(obj) = manifest.as_object_mut() else {
            return Err(format!("{field} overrider: the resource is not a JSON object"));
        };
        let meta = obj.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
        let Some(meta) = meta.as_object_mut() else {
            return Err(format!("{field} overrider: metadata is not an object"));
        };
        if o.operator == OverriderOperator::Add && !meta.get(field).is_some_and(Value::is_object) {
            meta.insert(field.to_string(), Value::Object(Map::new()));
        }
        let Some(Value::Object(map)) = meta.get_mut(field) else { continue };
        for (k, v) in &o.value {
            match o.operator {
                OverriderOperator::Add => {
                    map.insert(k.clone(), Value::String(v.clone()));
                }
                OverriderOperator::Replace => {
                    if let Some(slot) = map.get_mut(k) {
                        *slot = Value::String(v.clone());
                    }
                }
                OverriderOperator::Remove => {
                    map.remove(k);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overriders(v: Value) -> Vec<LabelAnnotationOverrider> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn add_replace_remove_labels() {
        let mut m = json!({"metadata": {"name": "x", "labels": {"app": "web", "tier": "fe", "env": "dev"}}});
        apply(
            &mut m,
            Target::Labels,
            &overriders(json!([
                {"operator": "add", "value": {"app.kubernetes.io/part-of": "shop", "app": "web2"}},
                {"operator": "replace", "value": {"env": "prod", "missing": "x"}},
                {"operator": "remove", "value": {"tier": "", "absent": ""}},
            ])),
        )
        .unwrap();
        assert_eq!(
            m,
            json!({"metadata": {"name": "x", "labels": {"app": "web2", "app.kubernetes.io/part-of": "shop", "env": "prod"}}})
        );
    }

    #[test]
    fn add_creates_the_map_and_others_do_not() {
        let mut m = json!({"metadata": {"name": "x"}});
        apply(&mut m, Target::Annotations, &overriders(json!([{"operator": "replace", "value": {"a": "1"}}]))).unwrap();
        apply(&mut m, Target::Labels, &overriders(json!([{"operator": "remove", "value": {"a": "1"}}]))).unwrap();
        assert_eq!(m, json!({"metadata": {"name": "x"}}));
        apply(&mut m, Target::Annotations, &overriders(json!([{"operator": "add", "value": {"a": "1"}}]))).unwrap();
        assert_eq!(m, json!({"metadata": {"name": "x", "annotations": {"a": "1"}}}));
    }
}
