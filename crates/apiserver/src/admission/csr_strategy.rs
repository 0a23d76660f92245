//! What kube's CertificateSigningRequest strategies (pkg/registry/certificates/certificates)
//! do to an update before it is validated, beyond keeping the spec: a `/status` write keeps the
//! stored Approved and Denied conditions (a change to one is dropped; adding or removing one is
//! left for validation to refuse), and `/status` and `/approval` writes stamp the conditions'
//! `lastUpdateTime` and `lastTransitionTime` when the client left them out.

use serde_json::Value;

use crate::storage::object;

/// Applies the strategy to `new`, an update of `old` through `subresource` (`""` for the
/// object itself, whose status the caller already kept as stored).
pub fn prepare_for_update(subresource: &str, old: &Value, new: &mut Value) {
    if !matches!(subresource, "status" | "approval") {
        return;
    }
    let old_conditions = old.pointer("/status/conditions").and_then(Value::as_array).cloned().unwrap_or_default();
    let Some(conditions) = new.pointer_mut("/status/conditions").and_then(Value::as_array_mut) else { return };
    if subresource == "status" {
        for type_ in ["Approved", "Denied"] {
            keep_instances(&old_conditions, conditions, type_);
        }
    }
    stamp_times(&old_conditions, conditions);
}

/// kube's `preserveConditionInstances`: when the write has as many conditions of `type_` as
/// stored, they become the stored ones, in order.
fn keep_instances(old: &[Value], new: &mut [Value], type_: &str) {
    let of_type = |c: &Value| c.get("type").and_then(Value::as_str) == Some(type_);
    let stored: Vec<&Value> = old.iter().filter(|c| of_type(c)).collect();
    let written: Vec<usize> = new.iter().enumerate().filter(|(_, c)| of_type(c)).map(|(i, _)| i).collect();
    if stored.len() != written.len() {
        return;
    }
    for (i, kept) in written.into_iter().zip(stored) {
        new[i] = kept.clone();
    }
}

/// kube's `populateConditionTimestamps`: a missing `lastUpdateTime` is now; a missing
/// `lastTransitionTime` is the stored one of a condition with the same type and status, or now.
fn stamp_times(old: &[Value], new: &mut [Value]) {
    let now = object::now_rfc3339();
    let unset = |c: &Value, field: &str| c.get(field).and_then(Value::as_str).is_none_or(str::is_empty);
    for c in new.iter_mut().filter(|c| c.is_object()) {
        if unset(c, "lastUpdateTime") {
            c["lastUpdateTime"] = Value::from(now.clone());
        }
        if unset(c, "lastTransitionTime") {
            let same = |o: &&Value| o.get("type") == c.get("type") && o.get("status") == c.get("status");
            let stored = old.iter().filter(same).find(|o| !unset(o, "lastTransitionTime"));
            c["lastTransitionTime"] =
                stored.map_or_else(|| Value::from(now.clone()), |o| o["lastTransitionTime"].clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn status_keeps_the_stored_decision() {
        let approved = json!({"type": "Approved", "status": "True", "reason": "Stored",
            "lastUpdateTime": "2024-01-01T00:00:00Z", "lastTransitionTime": "2024-01-01T00:00:00Z"});
        let old = json!({"status": {"conditions": [approved.clone()]}});
        let mut changed =
            json!({"status": {"conditions": [{"type": "Approved", "status": "True", "reason": "Other"}]}});
        prepare_for_update("status", &old, &mut changed);
        assert_eq!(changed["status"]["conditions"], json!([approved]));
        // Added or removed instances are left for validation to refuse.
        let mut flipped = json!({"status": {"conditions": [{"type": "Denied", "status": "True"}]}});
        prepare_for_update("status", &old, &mut flipped);
        assert_eq!(flipped["status"]["conditions"][0]["type"], "Denied");
        // /approval may change the decision; only the times are filled in.
        let mut reworded = json!({"status": {"conditions": [{"type": "Approved", "status": "True", "reason": "New"}]}});
        prepare_for_update("approval", &old, &mut reworded);
        let c = &reworded["status"]["conditions"][0];
        assert_eq!(
            (c["reason"].as_str(), c["lastTransitionTime"].as_str()),
            (Some("New"), Some("2024-01-01T00:00:00Z"))
        );
        assert!(c["lastUpdateTime"].as_str().is_some_and(|t| t != "2024-01-01T00:00:00Z"));
    }
}
