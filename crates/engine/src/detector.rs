//! The resource detector: matches each resource template with the propagation policy that
//! claims it, marks the template as claimed, and keeps its ResourceBinding (or
//! ClusterResourceBinding) in step with the policy and the template's replicas.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use karmadactl_karmada_api::policy::propagation::PropagationSpec;
use karmadactl_karmada_api::work::binding::{ObjectReference, ResourceBindingSpec};
use kube::api::{Api, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams};
use kube::discovery::pinned_kind;
use kube::runtime::watcher;
use kube::{Resource, ResourceExt};
use serde_json::{Value, json};

use super::bindings::AnyBinding;
use super::claim_metadata;
use super::context::{BindingKey, Engine, TemplateKey, TemplateSource, follow_dynamic_compact};
use super::error::ReconcileError;
use super::events;
use super::interpreted;
use super::matching::{Candidate, ImplicitPriority, TemplateIdentity, best, policy_priority};
use super::names;
use super::preemption;
use super::workload_affinity;
use karmadactl_apimachinery::new_uid;

/// The claiming policy of a template.
#[derive(Clone)]
struct Claim {
    /// `None` for a ClusterPropagationPolicy.
    namespace: Option<String>,
    name: String,
    uid: String,
    permanent_id: Option<String>,
    spec: PropagationSpec,
}

/// Parses `apiVersion` into a kind's identity.
pub fn gvk_of(api_version: &str, kind: &str) -> GroupVersionKind {
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    GroupVersionKind::gvk(group, version, kind)
}

/// Every kind some propagation policy selects.
fn selected_kinds(engine: &Engine) -> HashSet<GroupVersionKind> {
    let mut kinds = HashSet::new();
    for p in engine.caches.propagation_policies.state() {
        kinds.extend(p.spec.resource_selectors.iter().map(|s| gvk_of(&s.api_version, &s.kind)));
    }
    for p in engine.caches.cluster_propagation_policies.state() {
        kinds.extend(p.spec.0.resource_selectors.iter().map(|s| gvk_of(&s.api_version, &s.kind)));
    }
    kinds
}

/// A policy changed: start following any newly selected kind and look at every template of
/// the selected kinds again.
pub fn on_policy_change(engine: &Arc<Engine>) {
    for gvk in selected_kinds(engine) {
        match engine.template_source(&gvk) {
            Some(source) => {
                for t in source.store.metas() {
                    engine.queues.detect.add(TemplateKey { gvk: gvk.clone(), namespace: t.namespace, name: t.name });
                }
            }
            None => start_following(engine, gvk),
        }
    }
}

/// A policy went: every template it claimed, of any kind followed, is looked at again, to be
/// released or claimed by another policy.
pub fn on_policy_deleted(engine: &Arc<Engine>, policy: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) {
    let Some(labels) = &policy.labels else { return };
    let claims: Vec<(&str, &String)> =
        claim_metadata::LABELS.iter().filter_map(|l| labels.get(*l).map(|id| (*l, id))).collect();
    if claims.is_empty() {
        return;
    }
    let sources: Vec<(GroupVersionKind, TemplateSource)> = engine
        .templates
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (gvk, source) in sources {
        for t in source.store.metas() {
            let claimed = claims.iter().any(|(label, id)| t.label(label) == Some(id.as_str()));
            if claimed {
                engine.queues.detect.add(TemplateKey { gvk: gvk.clone(), namespace: t.namespace, name: t.name });
            }
        }
    }
}

pub fn template_key<K: Resource>(gvk: &GroupVersionKind, obj: &K) -> TemplateKey {
    TemplateKey { gvk: gvk.clone(), namespace: obj.namespace(), name: obj.name_any() }
}

/// The binding a template's changes concern.
pub fn binding_key_of(key: &TemplateKey) -> BindingKey {
    BindingKey { namespace: key.namespace.clone(), name: names::binding_name(&key.gvk.kind, &key.name) }
}

/// Starts a watcher on the templates of `gvk` (once); unknown kinds are retried, as a CRD may
/// be created after the policy that selects its resources.
pub fn start_following(engine: &Arc<Engine>, gvk: GroupVersionKind) {
    if !engine.starting.lock().unwrap_or_else(|e| e.into_inner()).insert(gvk.clone()) {
        return;
    }
    let engine2 = engine.clone();
    engine.spawn(tokio::spawn(async move {
        let engine = engine2;
        let mut delay = std::time::Duration::from_millis(200);
        let (resource, caps) = loop {
            match pinned_kind(&engine.client, &gvk).await {
                Ok(found) => break found,
                Err(e) => {
                    tracing::debug!(kind = ?gvk, error = %e, "detector: kind not served yet");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(std::time::Duration::from_secs(10));
                }
            }
        };
        let namespaced = caps.scope == kube::discovery::Scope::Namespaced;
        let weak = Arc::downgrade(&engine);
        let kind = gvk.clone();
        // The kind's source is registered under the lock the detector reads it with, so the
        // watcher's first events (queued for the detector as soon as its list arrives, possibly
        // on another thread) cannot be reconciled before their template can be found: such a
        // template would be dropped as gone and not looked at again until it changed.
        let mut templates = engine.templates.lock().unwrap_or_else(|e| e.into_inner());
        let (store, task) =
            follow_dynamic_compact(engine.client.clone(), &resource, watcher::Config::default(), move |obj, _| {
                if let Some(engine) = weak.upgrade() {
                    let key = template_key(&kind, obj);
                    engine.queues.binding.add(binding_key_of(&key));
                    engine.queues.detect.add(key);
                }
            });
        templates.insert(gvk.clone(), TemplateSource { resource, namespaced, store });
        drop(templates);
        engine.spawn(task);
    }));
}

pub async fn reconcile(engine: &Arc<Engine>, key: &TemplateKey) -> Result<(), ReconcileError> {
    let Some(template) = engine.template(key) else {
        return Ok(());
    };
    if template.meta().deletion_timestamp.is_some() {
        return Ok(());
    }
    if key.namespace.as_deref().is_some_and(names::is_reserved_namespace) || key.gvk.group.ends_with("karmada.io") {
        return Ok(());
    }
    let Some(decision) = find_claim(engine, key, &template, preemption_enabled(engine)) else {
        return Ok(claim_metadata::release(engine, key, &template).await?);
    };
    let claim = &decision.claim;
    let Some(policy_id) = claim.permanent_id.clone() else {
        return Ok(label_policy(engine, claim).await?);
    };
    if let Some(missing) = missing_dependent_override(engine, claim) {
        tracing::info!(policy = %policy_display(claim), %missing, "waiting for dependent overrides present");
        return Err(ReconcileError::WaitingForDependents(format!(
            "waiting for dependent overrides: {missing} of policy({}) does not exist",
            policy_display(claim)
        )));
    }
    let claimed = claim_template(engine, key, &template, claim, &policy_id).await;
    if let (Some(challenger), Some(holder)) = (&decision.preemptor, &decision.preempted) {
        let (challenger, holder) = (contender(challenger), contender(holder));
        let reference = template_reference(key, &template);
        match &claimed {
            Ok(()) => {
                let message = preemption::succeeded_message(&challenger, &holder);
                events::normal_template(engine, reference, preemption::SUCCEEDED_REASON, &message).await;
            }
            Err(e) => {
                let message = preemption::failed_message(&challenger, &holder, &e.to_string());
                events::warn_template(engine, reference, preemption::FAILED_REASON, &message).await;
            }
        }
    }
    claimed?;
    ensure_binding(engine, key, &template, claim, &policy_id).await
}

/// Whether the plane runs with the `PropagationPolicyPreemption` feature gate on.
fn preemption_enabled(engine: &Engine) -> bool {
    engine.config.features.propagation_policy_preemption
}

/// The first of the policy's `dependentOverrides` that does not exist: an OverridePolicy in
/// the PropagationPolicy's namespace, or a ClusterOverridePolicy for a
/// ClusterPropagationPolicy. Upstream propagates nothing for the policy until all exist.
fn missing_dependent_override(engine: &Engine, claim: &Claim) -> Option<String> {
    let wanted = claim.spec.dependent_overrides.as_deref().unwrap_or_default();
    wanted.iter().find_map(|name| {
        let exists = match &claim.namespace {
            Some(ns) => engine
                .caches
                .override_policies
                .state()
                .iter()
                .any(|o| o.namespace().as_deref() == Some(ns) && &o.name_any() == name),
            None => engine.caches.cluster_override_policies.state().iter().any(|o| &o.name_any() == name),
        };
        (!exists).then(|| match &claim.namespace {
            Some(ns) => format!("OverridePolicy({ns}/{name})"),
            None => format!("ClusterOverridePolicy({name})"),
        })
    })
}

/// `ns/name` of a PropagationPolicy, `name` of a ClusterPropagationPolicy, as upstream's
/// messages name them.
fn policy_display(claim: &Claim) -> String {
    claim.namespace.as_ref().map_or(claim.name.clone(), |ns| format!("{ns}/{}", claim.name))
}

/// The template as an Event's involved object.
fn template_reference(key: &TemplateKey, template: &DynamicObject) -> k8s_openapi::api::core::v1::ObjectReference {
    k8s_openapi::api::core::v1::ObjectReference {
        api_version: Some(key.gvk.api_version()),
        kind: Some(key.gvk.kind.clone()),
        namespace: key.namespace.clone(),
        name: Some(key.name.clone()),
        uid: template.metadata.uid.clone(),
        ..Default::default()
    }
}

/// What the detector decided for a template: the policy that claims it, and the one it took
/// the template from by preemption.
struct Decision {
    claim: Claim,
    preempted: Option<Candidate<Claim>>,
    preemptor: Option<Candidate<Claim>>,
}

/// Upstream's order: the policy that claimed the template keeps it while it still matches
/// (a PropagationPolicy's claim first, then a ClusterPropagationPolicy's) unless a policy may
/// preempt it; otherwise the best matching PropagationPolicy, then ClusterPropagationPolicy.
fn find_claim(engine: &Engine, key: &TemplateKey, template: &DynamicObject, preemption: bool) -> Option<Decision> {
    let empty = BTreeMap::new();
    let api_version = key.gvk.api_version();
    let identity = TemplateIdentity {
        api_version: &api_version,
        kind: &key.gvk.kind,
        namespace: key.namespace.as_deref(),
        name: &key.name,
        labels: template.metadata.labels.as_ref().unwrap_or(&empty),
    };
    let annotations = template.metadata.annotations.clone().unwrap_or_default();
    let mut namespaced = vec![];
    if let Some(ns) = &key.namespace {
        for p in engine.caches.propagation_policies.state() {
            if p.namespace().as_deref() != Some(ns) || p.metadata.deletion_timestamp.is_some() {
                continue;
            }
            if let Some(ip) = policy_priority(&p.spec.resource_selectors, &identity) {
                namespaced.push(Candidate {
                    explicit_priority: p.spec.priority.unwrap_or(0),
                    implicit_priority: ip,
                    name: p.name_any(),
                    policy: claim_of(Some(ns.clone()), &p.metadata, &p.spec, names::PP_PERMANENT_ID_LABEL),
                });
            }
        }
    }
    let mut cluster_wide = vec![];
    for p in engine.caches.cluster_propagation_policies.state() {
        if p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        if let Some(ip) = policy_priority(&p.spec.0.resource_selectors, &identity) {
            cluster_wide.push(Candidate {
                explicit_priority: p.spec.0.priority.unwrap_or(0),
                implicit_priority: ip,
                name: p.name_any(),
                policy: claim_of(None, &p.metadata, &p.spec.0, names::CPP_PERMANENT_ID_LABEL),
            });
        }
    }
    let claimed_pp = annotations.get(names::PP_NAME_ANNOTATION);
    let claimed_cpp = annotations.get(names::CPP_NAME_ANNOTATION);
    let holder = namespaced
        .iter()
        .find(|c| Some(&c.name) == claimed_pp)
        .or_else(|| cluster_wide.iter().find(|c| Some(&c.name) == claimed_cpp))
        .cloned();
    if let Some(holder) = holder {
        let challenger = preemption.then(|| preemptor(&namespaced, &cluster_wide, &holder)).flatten();
        return Some(match challenger {
            Some(p) => Decision { claim: p.policy.clone(), preempted: Some(holder), preemptor: Some(p) },
            None => Decision { claim: holder.policy, preempted: None, preemptor: None },
        });
    }
    let claim = best(namespaced).or_else(|| best(cluster_wide))?.policy;
    Some(Decision { claim, preempted: None, preemptor: None })
}

/// The policy that takes the template from `holder`: a PropagationPolicy before a
/// ClusterPropagationPolicy (the first may still take it from the second), each the best of
/// its kind.
fn preemptor(
    namespaced: &[Candidate<Claim>],
    cluster_wide: &[Candidate<Claim>],
    holder: &Candidate<Claim>,
) -> Option<Candidate<Claim>> {
    let held = contender(holder);
    let able = |c: &&Candidate<Claim>| preemption::may_preempt(&contender(c), &held);
    best(namespaced.iter().filter(able).cloned().collect())
        .or_else(|| best(cluster_wide.iter().filter(able).cloned().collect()))
}

fn contender(c: &Candidate<Claim>) -> preemption::Contender<'_> {
    preemption::Contender {
        namespace: c.policy.namespace.as_deref(),
        name: &c.name,
        explicit_priority: c.explicit_priority,
        preemption: c.policy.spec.preemption,
        names_template: c.implicit_priority == ImplicitPriority::MatchName,
    }
}

fn claim_of(
    namespace: Option<String>,
    meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    spec: &PropagationSpec,
    id_label: &str,
) -> Claim {
    Claim {
        namespace,
        name: meta.name.clone().unwrap_or_default(),
        uid: meta.uid.clone().unwrap_or_default(),
        permanent_id: meta.labels.as_ref().and_then(|l| l.get(id_label)).cloned(),
        spec: spec.clone(),
    }
}

/// Gives a policy its permanent id; the policy's change event brings the template back.
async fn label_policy(engine: &Engine, claim: &Claim) -> Result<(), kube::Error> {
    let (label, resource) = match &claim.namespace {
        Some(_) => (names::PP_PERMANENT_ID_LABEL, ApiResourceOf::Pp),
        None => (names::CPP_PERMANENT_ID_LABEL, ApiResourceOf::Cpp),
    };
    let api = resource.api(engine, claim.namespace.as_deref());
    // The uid makes the patch fail if the policy was replaced by another of the same name.
    let merge = json!({"metadata": {"uid": claim.uid, "labels": {label: new_uid()}}});
    api.patch(&claim.name, &PatchParams::default(), &Patch::Merge(&merge)).await?;
    Ok(())
}

enum ApiResourceOf {
    Pp,
    Cpp,
}

impl ApiResourceOf {
    fn api(&self, engine: &Engine, namespace: Option<&str>) -> Api<DynamicObject> {
        use karmadactl_karmada_api::policy::{ClusterPropagationPolicy, PropagationPolicy};
        match (self, namespace) {
            (Self::Pp, Some(ns)) => Api::namespaced_with(
                engine.client.clone(),
                ns,
                &kube::api::ApiResource::erase::<PropagationPolicy>(&()),
            ),
            _ => Api::all_with(engine.client.clone(), &kube::api::ApiResource::erase::<ClusterPropagationPolicy>(&())),
        }
    }
}

/// Marks the template with the claiming policy's id and name, as upstream's detector does.
async fn claim_template(
    engine: &Engine,
    key: &TemplateKey,
    template: &DynamicObject,
    claim: &Claim,
    policy_id: &str,
) -> Result<(), kube::Error> {
    let labels = template.metadata.labels.clone().unwrap_or_default();
    let annotations = template.metadata.annotations.clone().unwrap_or_default();
    let (id_label, wanted_annotations): (&str, Vec<(&str, &str)>) = match &claim.namespace {
        Some(ns) => (
            names::PP_PERMANENT_ID_LABEL,
            vec![(names::PP_NAME_ANNOTATION, claim.name.as_str()), (names::PP_NAMESPACE_ANNOTATION, ns.as_str())],
        ),
        None => (names::CPP_PERMANENT_ID_LABEL, vec![(names::CPP_NAME_ANNOTATION, claim.name.as_str())]),
    };
    // What an earlier claim by the other kind of policy left goes in the same patch.
    let own_keys: Vec<&str> = std::iter::once(id_label).chain(wanted_annotations.iter().map(|(k, _)| *k)).collect();
    let stale = claim_metadata::removal(&labels, &annotations, &own_keys);
    let ok = labels.get(id_label).map(String::as_str) == Some(policy_id)
        && wanted_annotations.iter().all(|(k, v)| annotations.get(*k).map(String::as_str) == Some(*v));
    if ok && stale.is_none() {
        return Ok(());
    }
    let source = engine.template_source(&key.gvk).ok_or_else(|| not_served(&key.gvk))?;
    let api: Api<DynamicObject> = match &key.namespace {
        Some(ns) => Api::namespaced_with(engine.client.clone(), ns, &source.resource),
        None => Api::all_with(engine.client.clone(), &source.resource),
    };
    let annotations: serde_json::Map<String, Value> =
        wanted_annotations.into_iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
    let mut patch = stale.unwrap_or_else(|| json!({"metadata": {"labels": {}, "annotations": {}}}));
    patch["metadata"]["uid"] = json!(template.metadata.uid);
    patch["metadata"]["labels"][id_label] = json!(policy_id);
    for (k, v) in annotations {
        patch["metadata"]["annotations"][k] = v;
    }
    api.patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
    Ok(())
}

pub(super) fn not_served(gvk: &GroupVersionKind) -> kube::Error {
    kube::Error::Discovery(kube::error::DiscoveryError::MissingKind(gvk.kind.clone()))
}

/// Creates or updates the binding from the template and its policy; the scheduler's fields
/// (`clusters`) and the binding's own id are kept.
async fn ensure_binding(
    engine: &Engine,
    key: &TemplateKey,
    template: &DynamicObject,
    claim: &Claim,
    policy_id: &str,
) -> Result<(), ReconcileError> {
    let binding_key = binding_key_of(key);
    let interpreted = match interpreted::replicas(engine, &interpreted::object_value(&key.gvk, template)).await {
        Ok(interpreted) => interpreted,
        Err(e) => {
            // Upstream's detector says so on the template; the key is retried (a webhook may
            // answer next time) or waits for the customization to change.
            let reference = template_reference(key, template);
            let message = format!("Apply policy({}) failed: {e}", policy_display(claim));
            events::warn_template(engine, reference, "ApplyPolicyFailed", &message).await;
            return Err(e.into());
        }
    };
    let (replicas, requirements) = (interpreted.replicas, interpreted.requirements);
    let template_uid = template.metadata.uid.clone().unwrap_or_default();
    let found = engine.binding_or_own_create(&binding_key);
    let only_created = found.as_ref().is_some_and(|(_, created)| *created);
    let existing = found.map(|(b, _)| b);
    if let Some(b) = &existing {
        let owner_uid = b.meta().owner_references.as_ref().and_then(|o| o.first()).map(|o| o.uid.clone());
        if owner_uid.as_deref() != Some(template_uid.as_str()) {
            // A binding of an earlier template with this name; the garbage collector removes
            // it, and its deletion brings the template back here.
            return Ok(());
        }
    }
    let spec = ResourceBindingSpec {
        resource: ObjectReference {
            api_version: key.gvk.api_version(),
            kind: key.gvk.kind.clone(),
            namespace: key.namespace.clone(),
            name: key.name.clone(),
            uid: Some(template_uid.clone()),
            resource_version: None,
        },
        propagate_deps: claim.spec.propagate_deps,
        replica_requirements: requirements,
        replicas: (replicas > 0).then_some(replicas),
        clusters: existing.as_ref().and_then(|b| b.spec().clusters.clone()),
        placement: claim.spec.placement.clone(),
        scheduler_name: claim.spec.scheduler_name.clone(),
        failover: claim.spec.failover.clone(),
        conflict_resolution: claim.spec.conflict_resolution,
        suspension: claim.spec.suspension.clone().map(Into::into),
        preserve_resources_on_deletion: claim.spec.preserve_resources_on_deletion,
        // Upstream names groups for ResourceBindings only, and only with the gate on (an
        // existing binding's groups go when the gate is off).
        workload_affinity_groups: match (&key.namespace, engine.config.features.workload_affinity) {
            (Some(_), true) => claim.spec.placement.as_ref().and_then(|p| {
                workload_affinity::groups(p, template.metadata.labels.as_ref().unwrap_or(&BTreeMap::new()))
            }),
            _ => None,
        },
        ..existing.as_ref().map(|b| b.spec().clone()).unwrap_or_default()
    };
    let (policy_label, mut annotations) = match &claim.namespace {
        Some(ns) => (
            names::PP_PERMANENT_ID_LABEL,
            BTreeMap::from([
                (names::PP_NAME_ANNOTATION.to_string(), claim.name.clone()),
                (names::PP_NAMESPACE_ANNOTATION.to_string(), ns.clone()),
            ]),
        ),
        None => (
            names::CPP_PERMANENT_ID_LABEL,
            BTreeMap::from([(names::CPP_NAME_ANNOTATION.to_string(), claim.name.clone())]),
        ),
    };
    let api = binding_key.api(&engine.client);
    match existing {
        Some(b) => {
            let mut labels = b.meta().labels.clone().unwrap_or_default();
            let mut existing_annotations = b.meta().annotations.clone().unwrap_or_default();
            let own_keys: Vec<&str> =
                std::iter::once(policy_label).chain(annotations.keys().map(String::as_str)).collect();
            let stale = claim_metadata::removal(&labels, &existing_annotations, &own_keys);
            let same_policy = labels.get(policy_label).map(String::as_str) == Some(policy_id)
                && annotations.iter().all(|(k, v)| existing_annotations.get(k) == Some(v));
            if *b.spec() == spec && same_policy && stale.is_none() {
                return Ok(());
            }
            // The claim's keys are this policy's alone: an earlier policy's go, ours win.
            labels.retain(|k, _| !claim_metadata::LABELS.contains(&k.as_str()));
            labels.insert(policy_label.to_string(), policy_id.to_string());
            existing_annotations.retain(|k, _| !claim_metadata::ANNOTATIONS.contains(&k.as_str()));
            existing_annotations.extend(std::mem::take(&mut annotations));
            let mut obj = b.to_json();
            obj["spec"] = serde_json::to_value(&spec).unwrap_or(Value::Null);
            obj["metadata"]["labels"] = json!(labels);
            obj["metadata"]["annotations"] = json!(existing_annotations);
            let obj: DynamicObject = serde_json::from_value(obj).map_err(kube::Error::SerdeError)?;
            match api.replace(&binding_key.name, &PostParams::default(), &obj).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 && only_created => {
                    // Created and gone before the cache saw either: the retry creates it.
                    engine.forget_written(&binding_key);
                    return Err(kube::Error::Api(e).into());
                }
                Err(e) => return Err(e.into()),
            }
        }
        None => {
            let owner = json!({
                "apiVersion": key.gvk.api_version(),
                "kind": key.gvk.kind,
                "name": key.name,
                "uid": template_uid,
                "controller": true,
                "blockOwnerDeletion": true,
            });
            let resource = super::bindings::binding_resource(binding_key.namespace.is_some());
            let obj = json!({
                "apiVersion": resource.api_version,
                "kind": resource.kind,
                "metadata": {
                    "name": binding_key.name,
                    "namespace": binding_key.namespace,
                    "labels": {policy_label: policy_id, binding_key.id_label(): new_uid()},
                    "annotations": annotations,
                    "ownerReferences": [owner],
                    "finalizers": [names::BINDING_FINALIZER],
                },
                "spec": spec,
            });
            let obj: DynamicObject = serde_json::from_value(obj).map_err(kube::Error::SerdeError)?;
            // AlreadyExists is retried, not taken as success: the binding was created moments
            // ago and its event has not reached the cache, so this change to the template or
            // policy is not in it yet. What this create returns stands in for the binding
            // until the cache shows it, so the template's next pass does not create it again.
            let created = api.create(&PostParams::default(), &obj).await?;
            engine.remember_binding(&binding_key, created);
        }
    }
    Ok(())
}

/// Bindings whose template is of a kind nobody follows yet (after a restart, or a binding made
/// by hand) still need their template's kind followed.
pub fn follow_binding_kinds(engine: &Arc<Engine>, binding: &AnyBinding) {
    let r = &binding.spec().resource;
    let gvk = gvk_of(&r.api_version, &r.kind);
    if engine.template_source(&gvk).is_none() {
        start_following(engine, gvk);
    }
}
