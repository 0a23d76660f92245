//! Events the engine records, so `kubectl describe` on a template or binding explains what
//! happened to it.

use k8s_openapi::api::core::v1::{Event, EventSource, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};
use kube::api::{Api, PostParams};

use super::bindings::AnyBinding;
use super::context::Engine;
use karmadactl_apimachinery::new_uid;

/// A Warning on the binding and on its template.
pub async fn warn_binding(engine: &Engine, binding: &AnyBinding, reason: &str, message: &str) {
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
        warn(engine, target, "karmada-scheduler", reason, message).await;
    }
}

/// A Warning from the resource detector on a template.
pub async fn warn_template(engine: &Engine, template: ObjectReference, reason: &str, message: &str) {
    warn(engine, template, "resource-detector", reason, message).await;
}

/// A Warning about `target`, recorded by `component`.
async fn warn(engine: &Engine, target: ObjectReference, component: &str, reason: &str, message: &str) {
    let namespace = target.namespace.clone().unwrap_or_else(|| "default".into());
    let now = Time(jiff::Timestamp::now());
    let event = Event {
        metadata: ObjectMeta {
            name: Some(format!("{}.{}", target.name.clone().unwrap_or_default(), &new_uid()[..8])),
            namespace: Some(namespace.clone()),
            ..Default::default()
        },
        involved_object: target,
        reason: Some(reason.into()),
        message: Some(message.into()),
        type_: Some("Warning".into()),
        count: Some(1),
        first_timestamp: Some(now.clone()),
        last_timestamp: Some(now),
        source: Some(EventSource { component: Some(component.into()), host: None }),
        ..Default::default()
    };
    let api: Api<Event> = Api::namespaced(engine.client.clone(), &namespace);
    if let Err(e) = api.create(&PostParams::default(), &event).await {
        tracing::debug!(error = %e, "could not record an event");
    }
}
