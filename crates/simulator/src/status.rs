//! Writing an owner's status as kube-controller-manager does: through the /status subresource,
//! only when something changed (so a status write does not trigger an endless reconcile), and
//! with conditions that keep their transition time while their status stays the same.

use kube::{Client, Resource};
use serde_json::{Value, json};

use super::unread;

pub fn now() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A condition of `type_`, reusing the existing one (and its times) when nothing changed.
pub fn condition(current: &Value, type_: &str, status: &str, reason: &str, message: &str) -> Value {
    let existing = current["conditions"].as_array().and_then(|cs| cs.iter().find(|c| c["type"] == type_));
    if let Some(c) = existing
        && c["status"] == status
        && c["reason"] == reason
        && c["message"] == message
    {
        return c.clone();
    }
    let transition = match existing {
        Some(c) if c["status"] == status => c["lastTransitionTime"].clone(),
        _ => json!(now()),
    };
    json!({
        "type": type_, "status": status, "reason": reason, "message": message,
        "lastTransitionTime": transition, "lastUpdateTime": now(),
    })
}

/// Merges `desired` into the owner's status when any of its fields differs from `current`.
pub async fn write<K>(client: &Client, ns: &str, name: &str, current: &Value, desired: Value) -> Result<(), kube::Error>
where
    K: Resource<DynamicType = ()>,
{
    let changed =
        desired.as_object().is_some_and(|d| d.iter().any(|(k, v)| current.get(k).unwrap_or(&Value::Null) != v));
    if !changed {
        return Ok(());
    }
    match unread::patch_status::<K>(client, ns, name, &json!({ "status": desired })).await {
        Ok(_) => Ok(()),
        // Gone or changed meanwhile: the watch brings the next version.
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
        Err(e) => Err(e),
    }
}

/// The status of an object as JSON (`{}` when it has none).
pub fn current<S: serde::Serialize>(status: &Option<S>) -> Value {
    status.as_ref().and_then(|s| serde_json::to_value(s).ok()).unwrap_or_else(|| json!({}))
}
