//! The execution controller for Push members: applies each Work's manifests to its cluster
//! with server-side apply, refuses to take over objects Karmada does not manage unless the
//! conflict resolution says Overwrite, reports the outcome in the Work's `Applied` condition,
//! and removes what it applied when the Work goes.

pub mod members;
pub mod work_status;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use karmadactl_interpreter::{Operation, Source, Target};
use karmadactl_karmada_api::cluster::{Cluster, ClusterSyncMode};
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use kube::api::{Api, DeleteParams, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams};
use kube::runtime::reflector::ObjectRef;
use kube::{Client, ResourceExt};
use serde_json::{Value, json};

use super::bindings::set_condition;
use super::context::{Engine, Scope, WorkKey};
use super::detector::gvk_of;
use super::error::ReconcileError;
use super::names;

/// What was last applied for each Work, so that the Work's own status updates do not apply
/// it again.
#[derive(Default)]
pub struct Applied {
    done: Mutex<HashMap<WorkKey, (String, Option<i64>)>>,
}

impl Applied {
    /// Whether the Work's current generation was applied to its member without an error.
    pub fn succeeded(&self, key: &WorkKey, work: &Work) -> bool {
        let stamp = (work.uid().unwrap_or_default(), work.metadata.generation);
        self.done.lock().unwrap_or_else(|e| e.into_inner()).get(key).is_some_and(|s| *s == stamp)
    }

    /// The member copy changed behind the engine's back (deleted): apply again.
    pub fn forget(&self, key: &WorkKey) {
        self.done.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }
}

impl Engine {
    pub fn work(&self, key: &WorkKey) -> Option<Arc<Work>> {
        self.caches.works.get(&ObjectRef::new(&key.name).within(&key.namespace))
    }
}

pub async fn reconcile(engine: &Arc<Engine>, key: &WorkKey) -> Result<(), ReconcileError> {
    let Some(work) = engine.work(key) else {
        engine.applied.done.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
        return Ok(());
    };
    let Some(cluster_name) = names::cluster_of_execution_space(&key.namespace) else {
        return Ok(());
    };
    let cluster = engine.caches.clusters.get(&ObjectRef::new(cluster_name));
    if work.metadata.deletion_timestamp.is_some() {
        return delete(engine, key, &work, cluster.as_deref()).await;
    }
    let Some(cluster) = cluster else {
        return Ok(());
    };
    if !executes_for(engine, &cluster) || cluster.metadata.deletion_timestamp.is_some() {
        return Ok(());
    }
    if work.spec.suspend_dispatching == Some(true) {
        return Ok(());
    }
    // The finalizer is what lets this controller remove the member copies later; a Work made
    // by hand (not by the binding controller) gets it before anything is applied.
    if !work.finalizers().iter().any(|f| f == wellknown::EXECUTION_CONTROLLER_FINALIZER) {
        return add_finalizer(engine, key, &work).await;
    }
    let stamp = (work.uid().unwrap_or_default(), work.metadata.generation);
    let already = engine.applied.done.lock().unwrap_or_else(|e| e.into_inner()).get(key).is_some_and(|s| *s == stamp);
    if already {
        return Ok(());
    }
    let client = match engine.members.client_for(engine, cluster_name, Some(&cluster)).await {
        Ok(c) => c,
        Err(e) => {
            write_failed(engine, key, &work, &format!("cannot reach cluster {cluster_name}: {e}")).await;
            return Err(ReconcileError::Unreachable(e));
        }
    };
    let work_id = work_id(&work);
    let manifests = work.spec.workload.as_ref().and_then(|w| w.manifests.as_deref()).unwrap_or_default();
    let mut outcome = Ok(());
    for manifest in manifests {
        let manifest = &*identify(manifest, &work_id, key);
        let gvk =
            gvk_of(manifest["apiVersion"].as_str().unwrap_or_default(), manifest["kind"].as_str().unwrap_or_default());
        let resource = match engine.members.resource(engine, &gvk).await {
            Ok(r) => r,
            Err(e) => {
                outcome = Err(ReconcileError::NotServed(e));
                break;
            }
        };
        engine.members.watch(engine, cluster_name, &gvk, &resource.0);
        let name = manifest["metadata"]["name"].as_str().unwrap_or_default();
        let listed = engine.members.listed(cluster_name, &gvk, manifest["metadata"]["namespace"].as_str(), name).await;
        if let Err(e) = apply_one(engine, &client, &resource, manifest, &work_id, cluster_name, listed).await {
            outcome = Err(e);
            break;
        }
    }
    match &outcome {
        Ok(()) => {
            engine.applied.done.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone(), stamp);
        }
        Err(e) => write_failed(engine, key, &work, &e.to_string()).await,
    }
    // The status is read after every apply (one that changed nothing in the member brings no
    // event), gathered with what the member reports next: its pods starting, then ready.
    engine.queues.work_status.add_batched(key.clone(), members::MEMBER_STATUS_BATCH);
    outcome
}

/// Starts the member watchers every Work will need, before the first apply. An apply waits
/// for its member's first list; with the Works queued one member after another (see
/// `context::drive`), the members would otherwise be listed one after another too, each list
/// holding up every apply in flight.
pub fn start_watchers(engine: &Arc<Engine>) {
    let mut wanted: HashMap<String, Vec<GroupVersionKind>> = HashMap::new();
    // One Work decoded at a time: all of them decoded at once would take a multiple of the cache.
    engine.caches.works.for_each(|work| {
        let Some(cluster) = work.metadata.namespace.as_deref().and_then(names::cluster_of_execution_space) else {
            return;
        };
        let kinds = wanted.entry(cluster.to_string()).or_default();
        for m in work.spec.workload.as_ref().and_then(|w| w.manifests.as_ref()).into_iter().flatten() {
            let gvk = gvk_of(m["apiVersion"].as_str().unwrap_or_default(), m["kind"].as_str().unwrap_or_default());
            if !kinds.contains(&gvk) {
                kinds.push(gvk);
            }
        }
    });
    for (name, kinds) in wanted {
        let Some(cluster) = engine.caches.clusters.get(&ObjectRef::new(&name)) else {
            continue;
        };
        if !executes_for(engine, &cluster) || cluster.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let engine = engine.clone();
        tokio::spawn(async move {
            if engine.members.client_for(&engine, &name, Some(&cluster)).await.is_err() {
                return;
            }
            for gvk in kinds {
                if let Ok(resource) = engine.members.resource(&engine, &gvk).await {
                    engine.members.watch(&engine, &name, &gvk, &resource.0);
                }
            }
        });
    }
}

fn member_api(
    client: &Client,
    resource: &(kube::api::ApiResource, bool),
    namespace: Option<&str>,
) -> Api<DynamicObject> {
    match member_namespace(client, resource, namespace) {
        Some(ns) => Api::namespaced_with(client.clone(), ns, &resource.0),
        None => Api::all_with(client.clone(), &resource.0),
    }
}

/// The namespace a manifest lands in: its own, else the client's default for a namespaced
/// kind; none for a cluster-scoped kind.
fn member_namespace<'a>(
    client: &'a Client,
    resource: &(kube::api::ApiResource, bool),
    namespace: Option<&'a str>,
) -> Option<&'a str> {
    match (resource.1, namespace) {
        (true, Some(ns)) => Some(ns),
        (true, None) => Some(client.default_namespace()),
        (false, _) => None,
    }
}

/// The id member copies carry: the permanent id the binding controller gave the Work, else
/// (a Work made by hand) its uid, which no other Work can have either.
pub(super) fn work_id(work: &Work) -> String {
    work.labels()
        .get(names::WORK_PERMANENT_ID_LABEL)
        .cloned()
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| work.uid().unwrap_or_default())
}

/// The manifest with the labels and annotations that tie its member copy to this Work. The
/// binding controller sets them already, so the manifest is copied only for a Work made by
/// hand (or by an older version).
fn identify<'a>(manifest: &'a Value, work_id: &str, key: &WorkKey) -> Cow<'a, Value> {
    let meta = &manifest["metadata"];
    let marked = meta["labels"][wellknown::LABEL_KARMADA_MANAGED] == "true"
        && meta["labels"][names::WORK_PERMANENT_ID_LABEL] == work_id
        && meta["annotations"][names::WORK_NAME_ANNOTATION] == key.name.as_str()
        && meta["annotations"][names::WORK_NAMESPACE_ANNOTATION] == key.namespace.as_str();
    if marked {
        return Cow::Borrowed(manifest);
    }
    let mut m = manifest.clone();
    let meta = &mut m["metadata"];
    if !meta["labels"].is_object() {
        meta["labels"] = json!({});
    }
    meta["labels"][wellknown::LABEL_KARMADA_MANAGED] = json!("true");
    meta["labels"][names::WORK_PERMANENT_ID_LABEL] = json!(work_id);
    if !meta["annotations"].is_object() {
        meta["annotations"] = json!({});
    }
    meta["annotations"][names::WORK_NAME_ANNOTATION] = json!(key.name);
    meta["annotations"][names::WORK_NAMESPACE_ANNOTATION] = json!(key.namespace);
    Cow::Owned(m)
}

async fn add_finalizer(engine: &Engine, key: &WorkKey, work: &Work) -> Result<(), ReconcileError> {
    let mut marked = work.clone();
    marked.metadata.finalizers.get_or_insert_with(Vec::new).push(wellknown::EXECUTION_CONTROLLER_FINALIZER.into());
    let api: Api<Work> = Api::namespaced(engine.client.clone(), &key.namespace);
    match api.replace(&key.name, &PostParams::default(), &marked).await {
        // The update comes back through the watch and is applied then.
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Whether a member object carries this Work's id, the proof that Karmada put it there.
pub(super) fn owned_by(obj: &DynamicObject, work_id: &str) -> bool {
    !work_id.is_empty() && obj.labels().get(names::WORK_PERMANENT_ID_LABEL).map(String::as_str) == Some(work_id)
}

async fn apply_one(
    engine: &Engine,
    client: &Client,
    resource: &(kube::api::ApiResource, bool),
    manifest: &Value,
    work_id: &str,
    cluster: &str,
    listed: Option<Option<Arc<DynamicObject>>>,
) -> Result<(), ReconcileError> {
    let name = manifest["metadata"]["name"].as_str().unwrap_or_default();
    let namespace = manifest["metadata"]["namespace"].as_str();
    let kind = manifest["kind"].as_str().unwrap_or_default();
    let api = member_api(client, resource, namespace);
    // The member watcher's view decides without reading the object again. An object created
    // in the member after the watcher's last event is as invisible to it as to a read just
    // before the apply.
    let existing = match listed {
        Some(o) => o,
        None => api
            .get_opt(name)
            .await
            .map_err(|source| ReconcileError::Member { doing: Some(format!("reading {kind} {name}")), source })?
            .map(Arc::new),
    };
    let adopting = existing.as_ref().is_some_and(|obj| !owned_by(obj, work_id));
    if let Some(obj) = &existing
        && !owned_by(obj, work_id)
        && obj.labels().get(wellknown::LABEL_KARMADA_MANAGED).map(String::as_str) != Some("true")
    {
        let resolution =
            manifest["metadata"]["annotations"][names::CONFLICT_RESOLUTION_ANNOTATION].as_str().unwrap_or("abort");
        if resolution != "overwrite" {
            let at = namespace.map(|ns| format!("{ns}/{name}")).unwrap_or_else(|| name.to_string());
            return Err(ReconcileError::Conflict(format!(
                "the resource (kind={kind}, {at}) already exists in cluster {cluster} and is not managed by Karmada; \
                 set conflictResolution: Overwrite in the policy (or the annotation {}: overwrite) to take it over",
                names::CONFLICT_RESOLUTION_ANNOTATION
            )));
        }
    }
    if let (true, Some(current)) = (adopting, existing.as_ref()) {
        // Taking an object over makes the template its whole desired state, as upstream's
        // update does; server-side apply would keep what other managers set (a second
        // container, say). Later changes are applies again.
        let mut desired = retained(engine, manifest, current).await?;
        desired["metadata"]["resourceVersion"] = json!(current.metadata.resource_version);
        let desired: DynamicObject =
            serde_json::from_value(desired).map_err(|e| ReconcileError::InvalidManifest(e.to_string()))?;
        let params = PostParams { field_manager: Some(names::EXECUTION_FIELD_MANAGER.into()), ..Default::default() };
        return api
            .replace(name, &params, &desired)
            .await
            .map(|_| ())
            .map_err(|source| ReconcileError::MemberRefused { doing: format!("taking over {kind} {name}"), source });
    }
    // A server-side apply leaves what other managers own alone, so the built-in kinds need no
    // retention on this path; a customization's or webhook's Retain still decides which of the
    // member's values the apply keeps.
    let manifest = match &existing {
        Some(current)
            if engine
                .interpreter
                .source(&Target::of(manifest), Operation::Retain)
                .is_some_and(|s| s != Source::Native) =>
        {
            Cow::Owned(retained(engine, manifest, current).await?)
        }
        _ => Cow::Borrowed(manifest),
    };
    server_side_apply(client, resource, namespace, name, &manifest)
        .await
        .map_err(|source| ReconcileError::MemberRefused { doing: format!("applying {kind} {name}"), source })
}

/// Server-side applies `manifest` as the execution controller, forcing conflicts. The member's
/// answer is checked but not decoded: the engine sees the object through its member watcher,
/// and decoding the returned copy (managedFields and all) into a `DynamicObject` cost the plane
/// more than sending the apply.
async fn server_side_apply(
    client: &Client,
    resource: &(kube::api::ApiResource, bool),
    namespace: Option<&str>,
    name: &str,
    manifest: &Value,
) -> Result<(), kube::Error> {
    let url = <DynamicObject as kube::Resource>::url_path(&resource.0, member_namespace(client, resource, namespace));
    let params = PatchParams::apply(names::EXECUTION_FIELD_MANAGER).force();
    let mut request = kube::core::Request::new(url)
        .patch(name, &params, &Patch::Apply(manifest))
        .map_err(kube::Error::BuildRequest)?;
    request.extensions_mut().insert("patch");
    client.request::<serde::de::IgnoredAny>(request).await.map(|_| ())
}

/// Writes a failed apply into the Work's `Applied` condition at once. A successful one is
/// written by the work status controller together with the member's report of the objects
/// (see [`Applied::succeeded`]): one write instead of two.
async fn write_failed(engine: &Engine, key: &WorkKey, work: &Work, message: &str) {
    let mut conditions = work.status.as_ref().and_then(|s| s.conditions.clone()).unwrap_or_default();
    if !set_condition(&mut conditions, "Applied", false, "AppliedFailed", message, work.metadata.generation) {
        return;
    }
    let api: Api<Work> = Api::namespaced(engine.client.clone(), &key.namespace);
    let patch = json!({"status": {"conditions": conditions}});
    if let Err(e) = api.patch_status(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        tracing::debug!(work = %key.name, error = %e, "could not write the Work's Applied condition");
    }
}

/// A Work is going: remove from the member what this Work put there (unless it preserves
/// resources), then release the Work. A ready cluster is cleaned even while it is being
/// removed (unjoin, unregister), as upstream's execution controller does; a cluster that is
/// gone, or not ready while being removed, cannot be cleaned and does not hold the Work. A
/// Push cluster that is only not ready (stopped, cut off) holds it, as upstream's: the Work is
/// retried until the cluster is back and its copy removed, so a member that returns after a
/// failover does not keep running what moved away. A ready Pull cluster's
/// Works are its agent's to clean: were the plane to release one first, the agent would never
/// remove the copy.
async fn delete(
    engine: &Arc<Engine>,
    key: &WorkKey,
    work: &Work,
    cluster: Option<&Cluster>,
) -> Result<(), ReconcileError> {
    let finalizers = work.metadata.finalizers.clone().unwrap_or_default();
    let Some(index) = finalizers.iter().position(|f| f == wellknown::EXECUTION_CONTROLLER_FINALIZER) else {
        return Ok(());
    };
    if let (Scope::Plane, Some(c)) = (&engine.scope, cluster)
        && c.spec.sync_mode == ClusterSyncMode::Pull
        && is_ready(c)
    {
        return Ok(());
    }
    if let (Scope::Plane, Some(c)) = (&engine.scope, cluster)
        && c.spec.sync_mode == ClusterSyncMode::Push
        && !is_ready(c)
        && c.metadata.deletion_timestamp.is_none()
    {
        return Err(ReconcileError::Unreachable(format!("cluster({}) not ready", c.name_any())));
    }
    let reachable = match &engine.scope {
        Scope::Plane => cluster.is_some_and(|c| c.spec.sync_mode == ClusterSyncMode::Push && is_ready(c)),
        // The agent runs beside its member: it can always clean up, even while its Cluster
        // is being removed (unregister deletes the Works first for this reason).
        Scope::Agent { cluster: own } => names::cluster_of_execution_space(&key.namespace) == Some(own.as_str()),
    };
    if reachable && work.spec.preserve_resources_on_deletion != Some(true) {
        let cluster_name = names::cluster_of_execution_space(&key.namespace).unwrap_or_default();
        let client =
            engine.members.client_for(engine, cluster_name, cluster).await.map_err(ReconcileError::Unreachable)?;
        let work_id = work_id(work);
        for manifest in work.spec.workload.as_ref().and_then(|w| w.manifests.clone()).unwrap_or_default() {
            let gvk: GroupVersionKind = gvk_of(
                manifest["apiVersion"].as_str().unwrap_or_default(),
                manifest["kind"].as_str().unwrap_or_default(),
            );
            let resource = engine.members.resource(engine, &gvk).await.map_err(ReconcileError::NotServed)?;
            let name = manifest["metadata"]["name"].as_str().unwrap_or_default();
            let api = member_api(&client, &resource, manifest["metadata"]["namespace"].as_str());
            let found = api.get_opt(name).await.map_err(|source| ReconcileError::Member { doing: None, source });
            let Some(obj) = found? else {
                continue;
            };
            if !owned_by(&obj, &work_id) {
                continue;
            }
            let params = DeleteParams {
                preconditions: obj.uid().map(|uid| kube::api::Preconditions { uid: Some(uid), resource_version: None }),
                ..DeleteParams::background()
            };
            match api.delete(name, &params).await {
                Ok(_) => {}
                Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => {}
                Err(source) => {
                    let doing = Some(format!("deleting {} {name}", gvk.kind));
                    return Err(ReconcileError::Member { doing, source });
                }
            }
        }
    }
    release(engine, key, work, index).await
}

/// Drops the execution finalizer with an update guarded by the resourceVersion: an agent's
/// role may update Works but not patch them, as upstream's agent Role grants.
async fn release(engine: &Engine, key: &WorkKey, work: &Work, index: usize) -> Result<(), ReconcileError> {
    let mut released = work.clone();
    if let Some(f) = released.metadata.finalizers.as_mut() {
        f.remove(index);
    }
    let api: Api<Work> = Api::namespaced(engine.client.clone(), &key.namespace);
    match api.replace(&key.name, &PostParams::default(), &released).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 => Ok(()),
        // A newer version arrives through the watch and is handled again.
        Err(e) => Err(e.into()),
    }
}

/// Whether this engine applies the Works of `cluster`: the plane applies to Push members, an
/// agent to its own Pull member.
fn executes_for(engine: &Engine, cluster: &Cluster) -> bool {
    match &engine.scope {
        Scope::Plane => cluster.spec.sync_mode == ClusterSyncMode::Push,
        Scope::Agent { cluster: own } => {
            cluster.spec.sync_mode == ClusterSyncMode::Pull && cluster.metadata.name.as_deref() == Some(own.as_str())
        }
    }
}

pub fn is_ready(cluster: &Cluster) -> bool {
    cluster
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

/// The manifest with the member's values kept where the interpreter's Retain says (upstream's
/// execution controller retains before every update); the manifest as it is for a kind
/// nobody interprets.
async fn retained(engine: &Engine, manifest: &Value, current: &DynamicObject) -> Result<Value, ReconcileError> {
    if engine.interpreter.source(&Target::of(manifest), Operation::Retain).is_none() {
        return Ok(manifest.clone());
    }
    let observed = serde_json::to_value(current).unwrap_or(Value::Null);
    Ok(engine.interpreter.retain(manifest, &observed).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identify_copies_only_a_manifest_that_lacks_the_work_marks() {
        let key = WorkKey { namespace: "karmada-es-m1".into(), name: "nginx-687f7fb96f".into() };
        let bare = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}});
        let marked = identify(&bare, "id-1", &key);
        assert!(matches!(marked, Cow::Owned(_)));
        let meta = &marked["metadata"];
        assert_eq!(meta["labels"][wellknown::LABEL_KARMADA_MANAGED], "true");
        assert_eq!(meta["labels"][names::WORK_PERMANENT_ID_LABEL], "id-1");
        assert_eq!(meta["annotations"][names::WORK_NAME_ANNOTATION], "nginx-687f7fb96f");
        assert_eq!(meta["annotations"][names::WORK_NAMESPACE_ANNOTATION], "karmada-es-m1");

        let again = identify(&marked, "id-1", &key);
        assert!(matches!(again, Cow::Borrowed(_)));
        assert_eq!(*again, *marked);
        // Another Work's id is not this Work's mark.
        let other = identify(&marked, "id-2", &key);
        assert_eq!(other["metadata"]["labels"][names::WORK_PERMANENT_ID_LABEL], "id-2");
    }
}
