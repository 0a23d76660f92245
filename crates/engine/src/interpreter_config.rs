//! Keeps the resource interpreter's user customizations in step with the plane's
//! `ResourceInterpreterCustomization` objects (upstream's declarative config manager): every
//! change replaces the interpreter's set at once, then the templates, bindings and Works of the
//! kinds it targeted before and after are queued again, so a created, changed or deleted
//! customization takes effect on existing workloads without waiting for them to change.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use karmadactl_interpreter::{Customization, Interpreter, RuleSet, Target};
use karmadactl_karmada_api::config::customization::{API_VERSION, KIND};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use kube::runtime::reflector::Store;
use kube::{Client, ResourceExt};
use serde_json::Value;
use tokio::task::JoinHandle;

use super::context::{Engine, TemplateKey, WorkKey, follow_dynamic};

const PLURAL: &str = "resourceinterpretercustomizations";

/// The API resource of a `config.karmada.io/v1alpha1` kind.
pub(crate) fn resource(kind: &str, plural: &str) -> ApiResource {
    let (group, version) = API_VERSION.split_once('/').unwrap_or(("", API_VERSION));
    ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, kind), plural)
}

/// Follows the customizations; `engine` yields the engine once it is up (changes before that
/// are covered by its first pass over the caches, which happens after the first list).
pub fn follow(
    client: &Client,
    interpreter: Arc<Interpreter>,
    engine: impl Fn() -> Option<Arc<Engine>> + Send + 'static,
) -> (Store<DynamicObject>, JoinHandle<()>) {
    let apply = move |all: &[Value]| interpreter.set_customizations(rule_set(all));
    let covers = |customization: &Value, target: &Target| &target_of(customization) == target;
    follow_objects(client, resource(KIND, PLURAL), engine, apply, covers)
}

/// Follows the objects of `resource`, a kind that configures the interpreter: on every change
/// `apply` gets all of them, then what `covers` says the object covered before or covers now
/// is queued again.
pub(crate) fn follow_objects(
    client: &Client,
    resource: ApiResource,
    engine: impl Fn() -> Option<Arc<Engine>> + Send + 'static,
    apply: impl Fn(&[Value]) + Send + 'static,
    covers: impl Fn(&Value, &Target) -> bool + Send + 'static,
) -> (Store<DynamicObject>, JoinHandle<()>) {
    let api: Api<DynamicObject> = Api::all_with(client.clone(), &resource);
    let current: Mutex<BTreeMap<String, Value>> = Mutex::default();
    follow_dynamic(api, resource, Default::default(), move |object: &DynamicObject, deleted| {
        let name = object.name_any();
        let value = serde_json::to_value(object).unwrap_or(Value::Null);
        let (before, all) = {
            let mut current = current.lock().unwrap_or_else(|e| e.into_inner());
            let before = if deleted { current.remove(&name) } else { current.insert(name.clone(), value.clone()) };
            (before, current.values().cloned().collect::<Vec<_>>())
        };
        if before.as_ref() == Some(&value) && !deleted {
            return;
        }
        apply(&all);
        if let Some(engine) = engine() {
            let changed: Vec<&Value> = [before.as_ref(), Some(&value)].into_iter().flatten().collect();
            requeue(&engine, &|t: &Target| changed.iter().any(|o| covers(o, t)));
        }
    })
}

/// The rules of every customization that decodes. One that does not (the plane's schema keeps
/// them out, so this is rare) is left out rather than keeping every other change from taking
/// effect.
fn rule_set(objects: &[Value]) -> RuleSet {
    let customizations = objects.iter().filter_map(|o| {
        Customization::from_object(o).map_err(|e| tracing::warn!(error = %e, "ignoring a customization")).ok()
    });
    RuleSet::new(customizations.collect())
}

fn target_of(customization: &Value) -> Target {
    let target = &customization["spec"]["target"];
    Target::new(target["apiVersion"].as_str().unwrap_or_default(), target["kind"].as_str().unwrap_or_default())
}

/// Queues again everything the interpreter answers for about the kinds `covered` picks: their
/// templates (replicas), bindings (revised manifests, aggregated status) and Works (reflected
/// status, health). Shared with the webhook configuration follower.
pub(crate) fn requeue(engine: &Arc<Engine>, covered: &dyn Fn(&Target) -> bool) {
    let is_target = |api_version: &str, kind: &str| covered(&Target::new(api_version, kind));
    let kinds: Vec<GroupVersionKind> =
        engine.templates.lock().unwrap_or_else(|e| e.into_inner()).keys().cloned().collect();
    for gvk in kinds {
        if !is_target(&gvk.api_version(), &gvk.kind) {
            continue;
        }
        if let Some(source) = engine.template_source(&gvk) {
            for t in source.store.metas() {
                engine.queues.detect.add(TemplateKey { gvk: gvk.clone(), namespace: t.namespace, name: t.name });
            }
        }
    }
    for b in engine.all_bindings() {
        let r = &b.spec().resource;
        if is_target(&r.api_version, &r.kind) {
            engine.queues.binding.add(b.key());
            engine.queues.binding_status.add(b.key());
        }
    }
    // One Work decoded at a time: all of them decoded at once would take a multiple of the cache.
    engine.caches.works.for_each(|w| {
        let manifests = w.spec.workload.as_ref().and_then(|m| m.manifests.as_ref());
        let matches = manifests
            .into_iter()
            .flatten()
            .any(|m| is_target(m["apiVersion"].as_str().unwrap_or_default(), m["kind"].as_str().unwrap_or_default()));
        if matches {
            engine.queues.work_status.add(WorkKey { namespace: w.namespace().unwrap_or_default(), name: w.name_any() });
        }
    });
}
