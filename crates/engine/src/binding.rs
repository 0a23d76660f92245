//! The binding controller (upstream's `pkg/controllers/binding`, for ResourceBindings and
//! ClusterResourceBindings alike): turns a scheduled binding into one Work per target cluster in
//! `karmada-es-<cluster>`, with the template pruned of server fields, the cluster's replica
//! share, and that cluster's overrides; removes the Works of clusters no longer targeted or
//! being removed; and, when the binding goes, its Works before its finalizer.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::placement::ReplicaSchedulingType;
use karmadactl_karmada_api::policy::propagation::ConflictResolution;
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, DynamicObject, Patch, PatchParams, PostParams};
use kube::runtime::reflector::ObjectRef;
use serde_json::{Value, json};

use super::bindings::AnyBinding;
use super::context::{BindingKey, Engine, TemplateKey, WorkKey};
use super::dependencies_distributor;
use super::detector::gvk_of;
use super::error::ReconcileError;
use super::interpreted;
use super::names;
use super::overrides::{self, OverrideSource};
use super::state_preservation;
use karmadactl_apimachinery::new_uid;
use karmadactl_interpreter::Operation;

pub async fn reconcile(engine: &Arc<Engine>, key: &BindingKey) -> Result<(), ReconcileError> {
    let Some(binding) = engine.binding(key) else {
        return Ok(());
    };
    let Some(id) = binding.permanent_id().map(str::to_string) else {
        return Ok(());
    };
    let works = works_of(engine, key, &id);
    if binding.meta().deletion_timestamp.is_some() {
        if binding.spec().propagate_deps == Some(true) {
            dependencies_distributor::reconcile(engine, key, Some(&binding), None).await?;
        }
        return Ok(finish_deletion(engine, key, &binding, works).await?);
    }
    let r = &binding.spec().resource;
    let template_key =
        TemplateKey { gvk: gvk_of(&r.api_version, &r.kind), namespace: r.namespace.clone(), name: r.name.clone() };
    let Some(template) = engine.template(&template_key) else {
        return Ok(());
    };
    if r.uid.as_deref().is_some_and(|u| Some(u) != template.metadata.uid.as_deref()) {
        return Ok(());
    }
    // What names this version of the template for the interpreter's memo of revisions.
    let template_version = match (template.metadata.uid.as_deref(), template.metadata.resource_version.as_deref()) {
        (Some(uid), Some(rv)) if !uid.is_empty() && !rv.is_empty() => Some(format!("{uid}/{rv}")),
        _ => None,
    };
    let template = interpreted::object_value(&template_key.gvk, &template);
    let divided = binding
        .spec()
        .placement
        .as_ref()
        .and_then(|p| p.replica_scheduling.as_ref())
        .and_then(|r| r.replica_scheduling_type)
        == Some(ReplicaSchedulingType::Divided);
    let targets = binding.spec().clusters.clone().unwrap_or_default();
    let mut wanted: HashSet<String> = HashSet::new();
    let mut failures = vec![];
    for target in &targets {
        // A cluster being removed (unjoin, unregister) gets no Work, and the one it has is
        // deleted below: re-creating what the removal deletes would never let it finish.
        let Some(cluster) = engine.caches.clusters.get(&ObjectRef::new(&target.name)) else {
            continue;
        };
        if cluster.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let namespace = wellknown::execution_space(&target.name);
        wanted.insert(namespace.clone());
        let mut manifest = prune(&template);
        if divided
            && binding.spec().replicas.unwrap_or(0) > 0
            && interpreted::enabled(engine, &manifest, Operation::ReviseReplica)
        {
            let replicas = i64::from(target.replicas.unwrap_or(0));
            let revised = match &template_version {
                Some(version) => engine.interpreter.revise_replica_of(&manifest, version, replicas).await,
                None => engine.interpreter.revise_replica(&manifest, replicas).await,
            };
            match revised {
                Ok(revised) => manifest = revised,
                Err(e) => {
                    failures.push(format!("cluster {}: {e}", target.name));
                    continue;
                }
            }
        }
        let applied = match apply_overrides(engine, &mut manifest, &cluster) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("cluster {}: {e}", target.name));
                continue;
            }
        };
        if engine.config.features.stateful_failover_injection
            && let Some(labels) = state_preservation::labels_to_inject(binding.spec(), &target.name, targets.len())
        {
            for (k, v) in labels {
                manifest["metadata"]["labels"][k] = json!(v);
            }
        }
        let existing = works.iter().find(|w| w.namespace().as_deref() == Some(namespace.as_str()));
        let work_id =
            existing.and_then(|w| w.labels().get(names::WORK_PERMANENT_ID_LABEL).cloned()).unwrap_or_else(new_uid);
        let work_name = names::work_name(&r.kind, &r.name, r.namespace.as_deref().unwrap_or(""));
        mark_manifest(&mut manifest, &binding, &template, &work_id, &work_name, &namespace);
        let mut annotations = binding_annotations(key);
        if let Some(a) = applied.namespaced {
            annotations.insert(names::APPLIED_OVERRIDES_ANNOTATION.into(), a);
        }
        if let Some(a) = applied.cluster {
            annotations.insert(names::APPLIED_CLUSTER_OVERRIDES_ANNOTATION.into(), a);
        }
        let labels = BTreeMap::from([
            (key.id_label().to_string(), id.clone()),
            (names::WORK_PERMANENT_ID_LABEL.to_string(), work_id),
        ]);
        let spec = json!({
            "workload": {"manifests": [manifest]},
            "preserveResourcesOnDeletion": binding.spec().preserve_resources_on_deletion,
            "suspendDispatching": suspended(&binding, &target.name),
        });
        ensure_work(engine, &namespace, &work_name, labels, annotations, spec, existing.map(|w| w.as_ref())).await?;
    }
    // A cluster being evicted from keeps its Work as it was, the old copy serving until the
    // eviction task ends (never for a `Directly` eviction): upstream's
    // ObtainBindingSpecExistingClusters. A cluster being removed keeps nothing, as above.
    for cluster in binding.spec().clusters_keeping_works() {
        let removing = engine
            .caches
            .clusters
            .get(&ObjectRef::new(cluster))
            .is_none_or(|c| c.metadata.deletion_timestamp.is_some());
        if !removing {
            wanted.insert(wellknown::execution_space(cluster));
        }
    }
    for w in &works {
        let ns = w.namespace().unwrap_or_default();
        if !wanted.contains(&ns) && w.metadata.deletion_timestamp.is_none() {
            delete_work(engine, &ns, &w.name_any(), w.metadata.uid.clone()).await?;
        }
    }
    if binding.spec().propagate_deps.is_some() {
        dependencies_distributor::reconcile(engine, key, Some(&binding), Some(&template)).await?;
    }
    if !failures.is_empty() {
        tracing::warn!(binding = %key.display(), failures = ?failures, "some clusters got no Work");
    }
    Ok(())
}

/// The Works this binding made: those carrying its permanent id.
fn works_of(engine: &Engine, key: &BindingKey, id: &str) -> Vec<Arc<Work>> {
    engine.work_index.of_binding(&engine.caches.works, key.id_label(), id)
}

async fn finish_deletion(
    engine: &Engine,
    key: &BindingKey,
    binding: &AnyBinding,
    works: Vec<Arc<Work>>,
) -> Result<(), kube::Error> {
    for w in &works {
        if w.metadata.deletion_timestamp.is_none() {
            delete_work(engine, &w.namespace().unwrap_or_default(), &w.name_any(), w.metadata.uid.clone()).await?;
        }
    }
    if !works.is_empty() {
        // Each Work's deletion event brings the binding back here.
        return Ok(());
    }
    let finalizers = binding.meta().finalizers.clone().unwrap_or_default();
    let Some(index) = finalizers.iter().position(|f| f == names::BINDING_FINALIZER) else {
        return Ok(());
    };
    let patch = json!([
        {"op": "test", "path": format!("/metadata/finalizers/{index}"), "value": names::BINDING_FINALIZER},
        {"op": "remove", "path": format!("/metadata/finalizers/{index}")},
    ]);
    let patch: json_patch::Patch = serde_json::from_value(patch).map_err(kube::Error::SerdeError)?;
    match key.api(&engine.client).patch(&key.name, &PatchParams::default(), &Patch::<()>::Json(patch)).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e),
    }
}

async fn delete_work(engine: &Engine, namespace: &str, name: &str, uid: Option<String>) -> Result<(), kube::Error> {
    let api: Api<Work> = Api::namespaced(engine.client.clone(), namespace);
    let params = DeleteParams {
        preconditions: uid.map(|uid| kube::api::Preconditions { uid: Some(uid), resource_version: None }),
        ..Default::default()
    };
    match api.delete(name, &params).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
        Err(e) => Err(e),
    }
}

fn apply_overrides(
    engine: &Engine,
    manifest: &mut Value,
    cluster: &Cluster,
) -> Result<overrides::AppliedOverrides, overrides::OverrideError> {
    let cops = engine.caches.cluster_override_policies.state();
    let namespace = manifest["metadata"]["namespace"].as_str().map(str::to_string);
    let ops: Vec<_> = engine
        .caches
        .override_policies
        .state()
        .into_iter()
        .filter(|p| namespace.is_some() && p.namespace() == namespace)
        .collect();
    if cops.is_empty() && ops.is_empty() {
        return Ok(overrides::AppliedOverrides::default());
    }
    let cluster_sources: Vec<OverrideSource<'_>> = cops
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .map(|p| OverrideSource { namespace: None, name: p.metadata.name.as_deref().unwrap_or(""), spec: &p.spec.0 })
        .collect();
    let namespaced_sources: Vec<OverrideSource<'_>> = ops
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .map(|p| OverrideSource {
            namespace: p.metadata.namespace.as_deref(),
            name: p.metadata.name.as_deref().unwrap_or(""),
            spec: &p.spec,
        })
        .collect();
    overrides::apply(manifest, cluster, &cluster_sources, &namespaced_sources)
}

/// The template as a member should receive it: no server-set metadata, no status, and none of
/// the fields a member's API server assigns itself.
pub fn prune(template: &Value) -> Value {
    let mut m = template.clone();
    if let Some(obj) = m.as_object_mut() {
        obj.remove("status");
    }
    if let Some(meta) = m.get_mut("metadata").and_then(Value::as_object_mut) {
        for f in [
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "managedFields",
            "ownerReferences",
            "finalizers",
            "selfLink",
            "generateName",
        ] {
            meta.remove(f);
        }
        if let Some(a) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            a.remove("kubectl.kubernetes.io/last-applied-configuration");
            a.remove("deployment.kubernetes.io/revision");
        }
    }
    let kind = m["kind"].as_str().unwrap_or_default().to_string();
    match kind.as_str() {
        "Service" => {
            if let Some(spec) = m.get_mut("spec").and_then(Value::as_object_mut)
                && spec.get("type").and_then(Value::as_str) != Some("ExternalName")
            {
                spec.remove("clusterIP");
                spec.remove("clusterIPs");
            }
        }
        "Job" => {
            // A Job's selector and the labels naming its controller uid are the plane's own.
            if let Some(spec) = m.get_mut("spec").and_then(Value::as_object_mut) {
                spec.remove("selector");
            }
            for path in ["/spec/template/metadata/labels"] {
                if let Some(labels) = m.pointer_mut(path).and_then(Value::as_object_mut) {
                    for k in [
                        "controller-uid",
                        "batch.kubernetes.io/controller-uid",
                        "job-name",
                        "batch.kubernetes.io/job-name",
                    ] {
                        labels.remove(k);
                    }
                }
            }
        }
        "Pod" => {
            if let Some(spec) = m.get_mut("spec").and_then(Value::as_object_mut) {
                spec.remove("nodeName");
            }
        }
        _ => {}
    }
    m
}

/// Labels and annotations that tie the member object to its Work, binding and template.
fn mark_manifest(
    manifest: &mut Value,
    binding: &AnyBinding,
    template: &Value,
    work_id: &str,
    work_name: &str,
    work_namespace: &str,
) {
    let key = binding.key();
    let meta = &mut manifest["metadata"];
    let labels = meta["labels"].as_object().cloned().unwrap_or_default();
    let mut labels = labels;
    labels.insert(wellknown::LABEL_KARMADA_MANAGED.into(), json!("true"));
    labels.insert(names::WORK_PERMANENT_ID_LABEL.into(), json!(work_id));
    if let Some(id) = binding.permanent_id() {
        labels.insert(key.id_label().into(), json!(id));
    }
    meta["labels"] = Value::Object(labels);
    let mut annotations = meta["annotations"].as_object().cloned().unwrap_or_default();
    annotations.insert(names::WORK_NAME_ANNOTATION.into(), json!(work_name));
    annotations.insert(names::WORK_NAMESPACE_ANNOTATION.into(), json!(work_namespace));
    if let Some(uid) = template["metadata"]["uid"].as_str() {
        annotations.insert(names::TEMPLATE_UID_ANNOTATION.into(), json!(uid));
    }
    if let Some(g) = template["metadata"]["generation"].as_i64() {
        annotations.insert(names::TEMPLATE_GENERATION_ANNOTATION.into(), json!(g.to_string()));
    }
    if !annotations.contains_key(names::CONFLICT_RESOLUTION_ANNOTATION) {
        let value = match binding.spec().conflict_resolution {
            Some(ConflictResolution::Overwrite) => "overwrite",
            _ => "abort",
        };
        annotations.insert(names::CONFLICT_RESOLUTION_ANNOTATION.into(), json!(value));
    }
    for (k, v) in binding_annotations(&key) {
        annotations.insert(k, json!(v));
    }
    meta["annotations"] = Value::Object(annotations);
}

fn binding_annotations(key: &BindingKey) -> BTreeMap<String, String> {
    match &key.namespace {
        Some(ns) => BTreeMap::from([
            (names::RB_NAME_ANNOTATION.to_string(), key.name.clone()),
            (names::RB_NAMESPACE_ANNOTATION.to_string(), ns.clone()),
        ]),
        None => BTreeMap::from([(names::CRB_NAME_ANNOTATION.to_string(), key.name.clone())]),
    }
}

fn suspended(binding: &AnyBinding, cluster: &str) -> Option<bool> {
    let s = binding.spec().suspension.as_ref()?;
    if s.dispatching == Some(true) {
        return Some(true);
    }
    let on = s.dispatching_on_clusters.as_ref()?;
    on.cluster_names.as_ref().is_some_and(|names| names.iter().any(|n| n == cluster)).then_some(true)
}

/// Creates the Work or updates it when what the binding wants differs from what it holds.
pub async fn ensure_work(
    engine: &Engine,
    namespace: &str,
    name: &str,
    labels: BTreeMap<String, String>,
    annotations: BTreeMap<String, String>,
    spec: Value,
    existing: Option<&Work>,
) -> Result<(), kube::Error> {
    let api: Api<DynamicObject> =
        Api::namespaced_with(engine.client.clone(), namespace, &kube::api::ApiResource::erase::<Work>(&()));
    if let Some(w) = existing {
        return update_work(engine, &api, w, labels, annotations, spec).await;
    }
    let obj = json!({
        "apiVersion": "work.karmada.io/v1alpha1",
        "kind": "Work",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": labels,
            "annotations": annotations,
            "finalizers": [wellknown::EXECUTION_CONTROLLER_FINALIZER],
        },
        "spec": spec,
    });
    let obj: DynamicObject = serde_json::from_value(obj).map_err(kube::Error::SerdeError)?;
    // An AlreadyExists answer is an error to retry, never success: the Work exists though the
    // cache has not shown it yet (most often this controller created it moments ago and a
    // policy change brought the binding back before the create's event arrived), and what it
    // holds may be what the binding wanted then. The retry finds it in the cache and compares,
    // as upstream's create-or-update does on its next attempt.
    api.create(&PostParams::default(), &obj).await.map(|_| ())
}

/// Brings an existing Work to `spec` and the given labels and annotations, if it differs.
async fn update_work(
    engine: &Engine,
    api: &Api<DynamicObject>,
    w: &Work,
    labels: BTreeMap<String, String>,
    annotations: BTreeMap<String, String>,
    spec: Value,
) -> Result<(), kube::Error> {
    let (namespace, name) = (w.namespace().unwrap_or_default(), w.name_any());
    if w.metadata.deletion_timestamp.is_some() {
        // A Work on its way out is replaced once it is gone.
        engine.queues.execute.add(WorkKey { namespace, name });
        return Ok(());
    }
    let same_spec = same_ignoring_nulls(&serde_json::to_value(&w.spec).map_err(kube::Error::SerdeError)?, &spec);
    let have_labels = labels.iter().all(|(k, v)| w.labels().get(k) == Some(v));
    let have_annotations = annotations.iter().all(|(k, v)| w.annotations().get(k) == Some(v));
    if same_spec && have_labels && have_annotations {
        return Ok(());
    }
    let mut obj = serde_json::to_value(w).map_err(kube::Error::SerdeError)?;
    obj["spec"] = spec;
    for (k, v) in &labels {
        obj["metadata"]["labels"][k] = json!(v);
    }
    for (k, v) in &annotations {
        obj["metadata"]["annotations"][k] = json!(v);
    }
    let obj: DynamicObject = serde_json::from_value(obj).map_err(kube::Error::SerdeError)?;
    api.replace(&name, &PostParams::default(), &obj).await?;
    Ok(())
}

/// Whether two values are equal when null members of objects are left out, so that a spec
/// read back from the server compares equal to the one built here. Compares in place: every
/// binding is checked against its Works after a restart.
fn same_ignoring_nulls(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let covers = |x: &serde_json::Map<String, Value>, y: &serde_json::Map<String, Value>| {
                x.iter().all(|(k, v)| v.is_null() || y.get(k).is_some_and(|w| same_ignoring_nulls(v, w)))
            };
            // Keys both hold were compared above; a key only `y` holds must be null there.
            covers(x, y) && y.iter().all(|(k, v)| v.is_null() || x.get(k).is_some_and(|w| !w.is_null()))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_ignoring_nulls(v, w))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_drops_server_fields_and_status() {
        let t = json!({
            "apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "s", "namespace": "d", "uid": "u", "resourceVersion": "5", "generation": 1,
                         "creationTimestamp": "x", "managedFields": [], "labels": {"a": "b"},
                         "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}", "keep": "1"}},
            "spec": {"clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1"], "ports": [{"port": 80}]},
            "status": {"loadBalancer": {}}
        });
        assert_eq!(
            prune(&t),
            json!({
                "apiVersion": "v1", "kind": "Service",
                "metadata": {"name": "s", "namespace": "d", "labels": {"a": "b"}, "annotations": {"keep": "1"}},
                "spec": {"ports": [{"port": 80}]}
            })
        );
    }

    #[test]
    fn comparison_ignores_nulls_only() {
        let a = json!({"a": null, "b": [{"c": null, "d": 1}]});
        assert!(same_ignoring_nulls(&a, &json!({"b": [{"d": 1}]})));
        assert!(same_ignoring_nulls(&json!({"b": [{"d": 1}]}), &a));
        assert!(!same_ignoring_nulls(&a, &json!({"b": [{"d": 2}]})));
        assert!(!same_ignoring_nulls(&a, &json!({"a": 1, "b": [{"d": 1}]})));
        assert!(!same_ignoring_nulls(&json!({"a": 1, "b": [{"d": 1}]}), &a));
        assert!(!same_ignoring_nulls(&a, &json!({"b": [{"d": 1}, {}]})));
        assert!(!same_ignoring_nulls(&json!({"x": {}}), &json!({"x": []})));
    }
}
