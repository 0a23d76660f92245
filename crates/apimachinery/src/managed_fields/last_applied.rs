//! The bridge from client-side to server-side apply that kube-apiserver builds in for kubectl:
//! `kubectl apply --server-side` may take over fields recorded in the
//! `kubectl.kubernetes.io/last-applied-configuration` annotation without a conflict, and keeps
//! that annotation in step with what it applies.

use serde_json::Value;

use super::Context;
use super::conflicts::Conflict;
use super::walk::{Mode, fields_of};

pub(crate) const ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The only manager the bridge applies to (others opt out by using another name).
const KUBECTL: &str = "kubectl";

fn annotation(obj: &Value) -> Option<&str> {
    obj.get("metadata")?.get("annotations")?.get(ANNOTATION)?.as_str().filter(|s| !s.is_empty())
}

/// Whether every conflict is a field of the live object's last-applied configuration, so the
/// apply may go ahead as if forced.
pub fn conflicts_allowed(live: &Value, conflicts: &[Conflict], ctx: &Context<'_>) -> bool {
    if ctx.manager != KUBECTL {
        return false;
    }
    let Some(last) = annotation(live).and_then(|a| serde_json::from_str::<Value>(a).ok()) else {
        return false;
    };
    let allowed = fields_of(&ctx.tracked(&last), ctx.shape, Mode::Apply);
    conflicts.iter().all(|c| allowed.contains(&c.path))
}

/// After kubectl applied `applied` server-side to an object that has the annotation, the
/// annotation holds the applied configuration.
pub fn sync(live: &Value, applied: &Value, out: &mut Value, manager: &str) {
    if manager != KUBECTL || annotation(live).is_none() {
        return;
    }
    let mut last = applied.clone();
    if let Some(Value::Object(a)) = last.get_mut("metadata").and_then(|m| m.get_mut("annotations")) {
        a.remove(ANNOTATION);
    }
    if let Some(Value::Object(a)) = out.get_mut("metadata").and_then(|m| m.get_mut("annotations")) {
        a.insert(ANNOTATION.into(), Value::String(last.to_string()));
    }
}
