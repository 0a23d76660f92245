//! Events the engine records, so `kubectl describe` on a template or binding explains what
//! happened to it.

use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use kube::api::{Api, PostParams};

use super::bindings::AnyBinding;
use super::context::Engine;

/// Event types.
pub const NORMAL: &str = "Normal";
pub const WARNING: &str = "Warning";

/// A Warning from the scheduler on the binding and on its template.
pub async fn warn_binding(engine: &Engine, binding: &AnyBinding, reason: &str, message: &str) {
    record_binding(engine, binding, WARNING, "karmada-scheduler", reason, message).await;
}

/// An Event of `type_` from `component` on the binding and on its template.
pub async fn record_binding(
    engine: &Engine,
    binding: &AnyBinding,
    type_: &str,
    component: &str,
    reason: &str,
    message: &str,
) {
    let b = binding.to_json();
    let r = &binding.spec().resource;
    let targets = [
        ObjectReference {
            api_version: b["apiVersion"].as_str().map(Into::into),
            kind: b["kind"].as_str().map(Into::into),
            name: binding.meta().name.clone(),
            namespace: binding.meta().namespace.clone(),
            uid: binding.meta().uid.clone(),
            ..Default::default()
        },
        ObjectReference {
            api_version: Some(r.api_version.clone()),
            kind: Some(r.kind.clone()),
            name: Some(r.name.clone()),
            namespace: r.namespace.clone(),
            uid: r.uid.clone(),
            ..Default::default()
        },
    ];
    for target in targets {
        record(engine, target, type_, component, reason, message).await;
    }
}

/// A Warning from the resource detector on a template.
pub async fn warn_template(engine: &Engine, template: ObjectReference, reason: &str, message: &str) {
    record(engine, template, WARNING, "resource-detector", reason, message).await;
}

/// An Event of `type_` about `target`, recorded by `component`. A key that keeps failing would record
/// one Event per retry; as kube's event correlator counts repeats rather than storing them,
/// there is one Event per object and reason, its count and message brought up to date.
pub(crate) async fn record(
    engine: &Engine,
    target: ObjectReference,
    type_: &str,
    component: &str,
    reason: &str,
    message: &str,
) {
    let namespace = target.namespace.clone().unwrap_or_else(|| "default".into());
    let now = Time(jiff::Timestamp::now());
    let event = Event {
        metadata: ObjectMeta {
            name: Some(event_name(&target, reason)),
            namespace: Some(namespace.clone()),
            ..Default::default()
        },
        involved_object: target,
        reason: Some(reason.into()),
        message: Some(message.into()),
        type_: Some(type_.into()),
        count: Some(1),
        first_timestamp: Some(now.clone()),
        last_timestamp: Some(now),
        source: Some(EventSource { component: Some(component.into()), host: None }),
        ..Default::default()
    };
    let api: Api<Event> = Api::namespaced(engine.client.clone(), &namespace);
    let result = match api.create(&PostParams::default(), &event).await {
        Err(kube::Error::Api(status)) if status.code == 409 => repeat(&api, event).await,
        other => other.map(drop),
    };
    if let Err(e) = result {
        tracing::debug!(error = %e, "could not record an event");
    }
}

/// Counts one more occurrence of an Event already recorded, with the latest message.
async fn repeat(api: &Api<Event>, event: Event) -> Result<(), kube::Error> {
    let name = event.metadata.name.clone().unwrap_or_default();
    let mut existing = api.get(&name).await?;
    existing.count = Some(existing.count.unwrap_or(1).saturating_add(1));
    existing.message = event.message;
    existing.last_timestamp = event.last_timestamp;
    api.replace(&name, &PostParams::default(), &existing).await.map(drop)
}

/// The one Event name of an object and reason: the object's name and a hash of what
/// identifies the pair (a new object of the same name has a new uid, so a new Event).
fn event_name(target: &ObjectReference, reason: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    (&target.api_version, &target.kind, &target.namespace, &target.name, &target.uid, reason).hash(&mut hasher);
    format!("{}.{:016x}", target.name.as_deref().unwrap_or_default(), hasher.finish())
}
