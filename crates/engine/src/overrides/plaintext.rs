//! `plaintext`: JSON patch operations at explicit paths, applied in order.

use karmadactl_karmada_api::policy::overrides::PlaintextOverrider;
use serde_json::Value;

use super::patch::apply_op;

/// Applies every operation in order; the first that cannot be applied stops the rest.
pub fn apply(manifest: &mut Value, overriders: &[PlaintextOverrider]) -> Result<(), String> {
    for o in overriders {
        apply_op(manifest, o.operator, &o.path, o.value.as_ref()).map_err(|e| format!("plaintext overrider: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ops(v: Value) -> Vec<PlaintextOverrider> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn add_replace_remove() {
        let mut m = json!({"spec": {"replicas": 1, "paused": true}});
        apply(
            &mut m,
            &ops(json!([
                {"path": "/spec/replicas", "operator": "replace", "value": 3},
                {"path": "/spec/minReadySeconds", "operator": "add", "value": 5},
                {"path": "/spec/paused", "operator": "remove"},
            ])),
        )
        .unwrap();
        assert_eq!(m, json!({"spec": {"replicas": 3, "minReadySeconds": 5}}));
    }

    #[test]
    fn a_missing_path_is_an_error() {
        let mut m = json!({"spec": {}});
        let err = apply(&mut m, &ops(json!([{"path": "/spec/replicas", "operator": "remove"}]))).unwrap_err();
        assert_eq!(err, "plaintext overrider: cannot remove /spec/replicas: the path does not exist");
    }
}
