//! ResourceBindings and ClusterResourceBindings as one: the controllers treat both alike and
//! write them through the same JSON paths.

use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Api, ApiResource, DynamicObject, Patch, PatchParams};
use kube::runtime::reflector::ObjectRef;
use kube::{Client, ResourceExt};

use karmadactl_apimachinery::create_merge_patch;
use karmadactl_karmada_api::work::binding::{ResourceBindingSpec, TargetCluster};
use karmadactl_karmada_api::work::binding_status::ResourceBindingStatus;
use karmadactl_karmada_api::work::{ClusterResourceBinding, ResourceBinding};
use serde_json::{Value, json};

use super::context::{BindingKey, Engine};
use super::names;

#[derive(Clone)]
pub enum AnyBinding {
    Namespaced(Arc<ResourceBinding>),
    Cluster(Arc<ClusterResourceBinding>),
}

impl AnyBinding {
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Self::Namespaced(b) => &b.metadata,
            Self::Cluster(b) => &b.metadata,
        }
    }

    pub fn spec(&self) -> &ResourceBindingSpec {
        match self {
            Self::Namespaced(b) => &b.spec,
            Self::Cluster(b) => &b.spec.0,
        }
    }

    pub fn status(&self) -> Option<&ResourceBindingStatus> {
        match self {
            Self::Namespaced(b) => b.status.as_ref(),
            Self::Cluster(b) => b.status.as_ref(),
        }
    }

    pub fn key(&self) -> BindingKey {
        match self {
            Self::Namespaced(b) => BindingKey { namespace: b.namespace(), name: b.name_any() },
            Self::Cluster(b) => BindingKey { namespace: None, name: b.name_any() },
        }
    }

    /// The binding's own permanent id, which its Works carry.
    pub fn permanent_id(&self) -> Option<&str> {
        self.meta().labels.as_ref()?.get(self.key().id_label()).map(String::as_str)
    }

    pub fn to_json(&self) -> Value {
        match self {
            Self::Namespaced(b) => serde_json::to_value(b.as_ref()),
            Self::Cluster(b) => serde_json::to_value(b.as_ref()),
        }
        .unwrap_or(Value::Null)
    }
}

impl BindingKey {
    pub fn id_label(&self) -> &'static str {
        if self.namespace.is_some() { names::RB_PERMANENT_ID_LABEL } else { names::CRB_PERMANENT_ID_LABEL }
    }

    pub fn api(&self, client: &Client) -> Api<DynamicObject> {
        match &self.namespace {
            Some(ns) => Api::namespaced_with(client.clone(), ns, &binding_resource(true)),
            None => Api::all_with(client.clone(), &binding_resource(false)),
        }
    }

    /// `ns/name` or `name`, for messages.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}/{}", self.name),
            None => self.name.clone(),
        }
    }
}

pub fn binding_resource(namespaced: bool) -> ApiResource {
    if namespaced {
        ApiResource::erase::<ResourceBinding>(&())
    } else {
        ApiResource::erase::<ClusterResourceBinding>(&())
    }
}

impl Engine {
    pub fn binding(&self, key: &BindingKey) -> Option<AnyBinding> {
        match &key.namespace {
            Some(ns) => self.caches.bindings.get(&ObjectRef::new(&key.name).within(ns)).map(AnyBinding::Namespaced),
            None => self.caches.cluster_bindings.get(&ObjectRef::new(&key.name)).map(AnyBinding::Cluster),
        }
    }

    pub fn all_bindings(&self) -> Vec<AnyBinding> {
        let mut all: Vec<AnyBinding> = self.caches.bindings.state().into_iter().map(AnyBinding::Namespaced).collect();
        all.extend(self.caches.cluster_bindings.state().into_iter().map(AnyBinding::Cluster));
        all
    }
}

/// Lets `change` edit the binding's status and sends what it changed as a merge patch of the
/// status subresource, as upstream's scheduler does (`GenMergePatch`). Each controller owns its
/// own status fields (the scheduler `schedulerObservedGeneration`, the status controller
/// `aggregatedStatus`), so a patch of those alone needs no resourceVersion and cannot conflict
/// with another controller's write; `conditions` is one list the controllers share and a merge
/// patch replaces lists whole, so a change to it carries the resourceVersion it was read at and
/// is retried on a fresh read after a conflict. `change` starts from the newest copy the engine
/// has (its cache, or what its own last write of this binding returned, which the cache may not
/// show yet); returning false means nothing to write.
pub async fn update_status(
    engine: &Engine,
    key: &BindingKey,
    mut change: impl FnMut(&mut ResourceBindingStatus) -> bool,
) -> Result<(), kube::Error> {
    // Most calls find nothing to change: that is decided on the cached status, without a copy
    // of the whole binding, unless the engine's own newer write is the copy that counts.
    if let Some(b) = engine.binding(key)
        && !engine.wrote_newer(key, b.meta())
    {
        let mut status = b.status().cloned().unwrap_or_default();
        if !change(&mut status) {
            return Ok(());
        }
    }
    let api = key.api(&engine.client);
    let mut next = engine.newest_binding(key);
    let mut conflict = None;
    for _ in 0..5 {
        let obj = match next.take() {
            Some(o) => o,
            None => match api.get_opt(&key.name).await? {
                Some(o) => o,
                None => return Ok(()),
            },
        };
        let mut status: ResourceBindingStatus =
            obj.data.get("status").and_then(|s| serde_json::from_value(s.clone()).ok()).unwrap_or_default();
        let before = serde_json::to_value(&status).unwrap_or(Value::Null);
        if !change(&mut status) {
            return Ok(());
        }
        let after = serde_json::to_value(&status).unwrap_or(Value::Null);
        let diff = create_merge_patch(&before, &after);
        if diff.as_object().is_some_and(|d| d.is_empty()) {
            return Ok(());
        }
        let mut metadata = json!({});
        if let Some(uid) = &obj.metadata.uid {
            metadata["uid"] = json!(uid);
        }
        if diff.get("conditions").is_some() {
            metadata["resourceVersion"] = json!(obj.metadata.resource_version);
        }
        let patch = json!({"metadata": metadata, "status": diff});
        match api.patch_status(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await {
            Ok(written) => {
                engine.remember_binding(key, written);
                return Ok(());
            }
            Err(kube::Error::Api(e)) if e.code == 409 => conflict = Some(kube::Error::Api(e)),
            Err(e) => return Err(e),
        }
    }
    // Still conflicting after five fresh reads: the controller's queue retries it.
    conflict.map_or(Ok(()), Err)
}

fn version_of(meta: &ObjectMeta) -> u64 {
    meta.resource_version.as_deref().and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// Whether a write the engine made is newer than `cached`, the same object's copy in the cache.
fn ahead_of(written: &DynamicObject, cached: &ObjectMeta) -> bool {
    written.metadata.uid == cached.uid && version_of(&written.metadata) > version_of(cached)
}

impl Engine {
    /// Records what a write of this binding returned, while the cache has not caught up with it:
    /// only writes the cache has not seen are kept, so this holds a handful of bindings rather
    /// than a decoded copy of every binding ever written.
    pub fn remember_binding(&self, key: &BindingKey, written: DynamicObject) {
        let mut w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        // Checked under the lock: the binding follower updates the cache before it calls
        // `binding_cached`, so a write the cache gets after this check is dropped there.
        if self.binding(key).is_some_and(|b| !ahead_of(&written, b.meta())) {
            w.remove(key);
            return;
        }
        if w.len() > 10_000 {
            w.clear();
        }
        w.insert(key.clone(), written);
    }

    /// The binding follower saw `meta` (`deleted` when the binding went): a write of it the
    /// cache now holds, or one of an object that is gone, is forgotten.
    pub fn binding_cached(&self, key: &BindingKey, meta: &ObjectMeta, deleted: bool) {
        let mut w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        if w.get(key).is_some_and(|written| deleted || !ahead_of(written, meta)) {
            w.remove(key);
        }
    }

    /// The cached binding, or (true) the engine's own create of it while the cache does not
    /// hold it yet: the create's event is on its way, and a second look at the template
    /// meanwhile must not create it again (that answered 409 and was retried after a backoff).
    pub fn binding_or_own_create(&self, key: &BindingKey) -> Option<(AnyBinding, bool)> {
        if let Some(b) = self.binding(key) {
            return Some((b, false));
        }
        let value = {
            let w = self.written.lock().unwrap_or_else(|e| e.into_inner());
            w.get(key).and_then(|o| serde_json::to_value(o).ok())
        };
        let Some(value) = value else {
            // The cache takes an object in before the record of the write goes, so a record
            // gone since the first look means the cache holds the binding now.
            return self.binding(key).map(|b| (b, false));
        };
        let created = match key.namespace {
            Some(_) => AnyBinding::Namespaced(Arc::new(serde_json::from_value(value).ok()?)),
            None => AnyBinding::Cluster(Arc::new(serde_json::from_value(value).ok()?)),
        };
        Some((created, true))
    }

    /// Drops the engine's record of its last write of the binding (the binding turned out to
    /// be gone before the cache saw it).
    pub fn forget_written(&self, key: &BindingKey) {
        self.written.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }

    /// Whether the engine's own last write of the binding is newer than the cached `meta`.
    fn wrote_newer(&self, key: &BindingKey, cached: &ObjectMeta) -> bool {
        self.written.lock().unwrap_or_else(|e| e.into_inner()).get(key).is_some_and(|w| ahead_of(w, cached))
    }

    /// The binding's `spec.clusters` as the engine last knows them: from its own write the
    /// cache does not show yet, else from the cache.
    pub(crate) fn newest_targets(&self, cached: &AnyBinding) -> Vec<TargetCluster> {
        let w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        match w.get(&cached.key()) {
            Some(written) if ahead_of(written, cached.meta()) => {
                serde_json::from_value(written.data["spec"]["clusters"].clone()).unwrap_or_default()
            }
            _ => cached.spec().clusters.clone().unwrap_or_default(),
        }
    }

    /// The newer of the cached binding and the engine's own last write of it.
    fn newest_binding(&self, key: &BindingKey) -> Option<DynamicObject> {
        let cached = self.binding(key)?;
        {
            let mut w = self.written.lock().unwrap_or_else(|e| e.into_inner());
            match w.get(key) {
                Some(written) if ahead_of(written, cached.meta()) => return Some(written.clone()),
                Some(_) => {
                    w.remove(key);
                }
                None => {}
            }
        }
        serde_json::from_value(cached.to_json()).ok()
    }
}

/// Sets (or adds) the condition of `type_`; false when it already said the same. As
/// apimachinery's `SetStatusCondition`, a new generation alone is a change: the condition then
/// says which generation it speaks for.
pub fn set_condition(
    conditions: &mut Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>,
    type_: &str,
    ok: bool,
    reason: &str,
    message: &str,
    generation: Option<i64>,
) -> bool {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
    let status = if ok { "True" } else { "False" };
    if let Some(c) = conditions.iter_mut().find(|c| c.type_ == type_) {
        if c.status == status && c.reason == reason && c.message == message && c.observed_generation == generation {
            return false;
        }
        if c.status != status {
            c.last_transition_time = Time(jiff::Timestamp::now());
        }
        c.status = status.into();
        c.reason = reason.into();
        c.message = message.into();
        c.observed_generation = generation;
        return true;
    }
    conditions.push(Condition {
        type_: type_.into(),
        status: status.into(),
        reason: reason.into(),
        message: message.into(),
        last_transition_time: Time(jiff::Timestamp::now()),
        observed_generation: generation,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::set_condition;

    #[test]
    fn a_condition_follows_the_generation_even_when_it_says_the_same() {
        let mut conditions = vec![];
        assert!(set_condition(&mut conditions, "Applied", true, "AppliedSuccessful", "ok", Some(1)));
        assert!(!set_condition(&mut conditions, "Applied", true, "AppliedSuccessful", "ok", Some(1)));
        let first = conditions[0].last_transition_time.clone();
        assert!(set_condition(&mut conditions, "Applied", true, "AppliedSuccessful", "ok", Some(2)));
        assert_eq!(conditions[0].observed_generation, Some(2));
        // The status did not change, so neither did its transition time.
        assert_eq!(conditions[0].last_transition_time, first);
        assert_eq!(conditions.len(), 1);
    }
}
