//! The engine's questions to the resource interpreter, as upstream's controllers ask them: an
//! operation is asked only when some source interprets it for the object's kind (upstream's
//! `HookEnabled`), and otherwise the controller's default applies (no replicas, no revision, no
//! aggregated status, healthy).

use karmadactl_interpreter::{InterpretError, Operation, Replicas, Target};
use karmadactl_karmada_api::work::health::ResourceHealth;
use kube::api::{DynamicObject, GroupVersionKind};
use serde_json::Value;

use super::context::Engine;

/// An object as the interpreter reads it: JSON with its apiVersion and kind set (objects from a
/// list carry neither).
pub fn object_value(gvk: &GroupVersionKind, object: &DynamicObject) -> Value {
    let mut value = serde_json::to_value(object).unwrap_or(Value::Null);
    if let Some(map) = value.as_object_mut() {
        map.insert("apiVersion".into(), gvk.api_version().into());
        map.insert("kind".into(), gvk.kind.clone().into());
    }
    value
}

/// Whether any source interprets `operation` for `object`'s kind.
pub fn enabled(engine: &Engine, object: &Value, operation: Operation) -> bool {
    engine.interpreter.source(&Target::of(object), operation).is_some()
}

/// The template's replicas and what each needs; none for a kind nobody interprets.
pub async fn replicas(engine: &Engine, template: &Value) -> Result<Replicas, InterpretError> {
    if !enabled(engine, template, Operation::InterpretReplica) {
        return Ok(Replicas::default());
    }
    engine.interpreter.replicas(template).await
}

/// A member object's health: healthy when nobody interprets the kind, unknown when the
/// interpreter fails (upstream's work-status controller).
pub async fn health(engine: &Engine, object: &Value) -> ResourceHealth {
    if !enabled(engine, object, Operation::InterpretHealth) {
        return ResourceHealth::Healthy;
    }
    match engine.interpreter.interpret_health(object).await {
        Ok(true) => ResourceHealth::Healthy,
        Ok(false) => ResourceHealth::Unhealthy,
        Err(e) => {
            tracing::debug!(error = %e, "health interpretation failed");
            ResourceHealth::Unknown
        }
    }
}
