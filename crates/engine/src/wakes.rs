//! Which change wakes which controller: every kind the plane's engine watches, and the queues an
//! event on it feeds. [`run`](super::run) follows each kind with the function named here, so
//! this table and the code below are the whole of it.
//!
//! | Watched | Wakes |
//! |---|---|
//! | Cluster, when what placement depends on changes | `schedule` and `binding`: every binding; `execute`: the Works in its execution space; `namespace_sync`: every namespace |
//! | PropagationPolicy, ClusterPropagationPolicy | `detect`: the templates policies may claim ([`detector::on_policy_change`]), and those a deleted one claimed |
//! | OverridePolicy, ClusterOverridePolicy | `binding`: every binding; `detect`: the templates policies may claim, when a policy has `dependentOverrides` |
//! | ResourceBinding, ClusterResourceBinding | `schedule` and `binding`: that binding, when its generation, deletion, labels or annotations changed (not for status writes); `binding_status`: that binding (and the detector follows its kind); `graceful_eviction`: that binding, when it has eviction tasks; `application_failover`: that binding, when it has application failover |
//! | Work | `execute`: that Work; `binding_status`: its binding, and `binding` too when the Work is deleted; `namespace_sync`: the namespace a deleted namespace-sync Work held |
//! | Namespace | `namespace_sync`: that namespace |
//! | WorkloadRebalancer | its own queue in `workload_rebalancer`: that rebalancer, and again when its TTL runs out |
//!
//! Objects in members wake `execute` and `work_status` through the execution controller's
//! member watchers (`execution::members`); a Pull member's agent wakes only `execute` (`agent`).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use k8s_openapi::api::core::v1::Namespace;
use kube::ResourceExt;

use super::bindings::AnyBinding;
use super::context::{BindingKey, Engine, WorkKey};
use super::{detector, execution, names};
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::{ClusterResourceBinding, ResourceBinding, Work};

/// Clusters wake the controllers only when something placement and overrides depend on
/// changes: the status probes that change nothing of it do not wake every binding.
#[derive(Default)]
pub(super) struct ClusterWakes {
    fingerprints: Mutex<HashMap<String, String>>,
}

impl ClusterWakes {
    pub(super) fn on_cluster(&self, engine: &Arc<Engine>, c: &Cluster, deleted: bool) {
        let name = c.name_any();
        let print = if deleted { String::new() } else { fingerprint(c) };
        let changed = self.fingerprints.lock().unwrap_or_else(|e| e.into_inner()).insert(name.clone(), print.clone())
            != Some(print);
        if deleted {
            engine.members.forget(&name);
        }
        if changed {
            on_fleet_change(engine, &name);
        }
    }
}

/// What of a Cluster placement and overrides depend on.
fn fingerprint(c: &Cluster) -> String {
    let ready = execution::is_ready(c);
    serde_json::json!([c.labels(), c.spec, c.metadata.deletion_timestamp, ready, c.uid()]).to_string()
}

pub(crate) fn on_fleet_change(engine: &Arc<Engine>, cluster: &str) {
    for b in engine.all_bindings() {
        let key = b.key();
        engine.queues.schedule.add(key.clone());
        engine.queues.binding.add(key);
    }
    let es = wellknown::execution_space(cluster);
    for w in engine.caches.works.metas() {
        if w.namespace.as_deref() == Some(es.as_str()) {
            engine.queues.execute.add(WorkKey { namespace: es.clone(), name: w.name });
        }
    }
    for n in engine.caches.namespaces.state() {
        engine.queues.namespace_sync.add(n.name_any());
    }
}

/// PropagationPolicies and ClusterPropagationPolicies alike. A deleted policy's templates are
/// looked at whatever their kind: when no policy selects that kind any more, nothing else
/// would release them.
pub(super) fn on_propagation_policy<K: kube::Resource>(engine: &Arc<Engine>, policy: &K, deleted: bool) {
    if deleted {
        detector::on_policy_deleted(engine, policy.meta());
    }
    detector::on_policy_change(engine);
}

/// OverridePolicies and ClusterOverridePolicies alike: every binding is rendered again, and
/// when a propagation policy names overrides in its `dependentOverrides`, the templates
/// waiting for them are looked at again.
pub(super) fn on_override_policy<K>(engine: &Arc<Engine>, _: &K, _deleted: bool) {
    for b in engine.all_bindings() {
        engine.queues.binding.add(b.key());
    }
    let depends = |d: &Option<Vec<String>>| d.as_ref().is_some_and(|d| !d.is_empty());
    if engine.caches.propagation_policies.state().iter().any(|p| depends(&p.spec.dependent_overrides))
        || engine.caches.cluster_propagation_policies.state().iter().any(|p| depends(&p.spec.0.dependent_overrides))
    {
        detector::on_policy_change(engine);
    }
}

/// Bindings wake the scheduler and the binding controller only when what those read changes:
/// the spec (its generation), the deletion, labels or annotations. A status write (the binding
/// status controller's aggregation, the scheduler's own condition) wakes neither, as upstream's
/// binding controller filters with `GenerationChangedPredicate` and its scheduler ignores
/// updates of an unchanged generation; without this every status write rendered the binding's
/// Works again.
///
/// The binding status controller is woken by a binding only when it is first seen or its
/// template reference changes, as upstream's (`rb_status_controller`'s predicate); otherwise
/// by its Works' status changes and deletions ([`on_work`]). A new schedule alone rewrote the
/// aggregated status with nothing to report yet for the new clusters.
#[derive(Default)]
pub(super) struct BindingWakes {
    seen: Mutex<HashMap<BindingKey, (u64, u64)>>,
}

impl BindingWakes {
    pub(super) fn on_resource_binding(&self, engine: &Arc<Engine>, b: &ResourceBinding, deleted: bool) {
        self.on_any(engine, AnyBinding::Namespaced(Arc::new(b.clone())), deleted);
    }

    pub(super) fn on_cluster_resource_binding(&self, engine: &Arc<Engine>, b: &ClusterResourceBinding, deleted: bool) {
        self.on_any(engine, AnyBinding::Cluster(Arc::new(b.clone())), deleted);
    }

    fn on_any(&self, engine: &Arc<Engine>, b: AnyBinding, deleted: bool) {
        let key = b.key();
        engine.binding_cached(&key, b.meta(), deleted);
        let (spec_changed, template_changed) = {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if deleted {
                seen.remove(&key);
                (true, false)
            } else {
                let marks = (spec_mark(b.meta()), template_mark(&b.spec().resource));
                match seen.insert(key, marks) {
                    Some(before) => (before.0 != marks.0, before.1 != marks.1),
                    None => (true, true),
                }
            }
        };
        wake_binding(engine, &b, spec_changed, template_changed);
    }
}

/// What of a binding's metadata the scheduler and the binding controller depend on.
fn spec_mark(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (meta.generation, meta.deletion_timestamp.is_some(), &meta.labels, &meta.annotations).hash(&mut h);
    h.finish()
}

/// Which template the binding stands for, and at which version.
fn template_mark(r: &karmadactl_karmada_api::work::binding::ObjectReference) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    (&r.api_version, &r.kind, &r.namespace, &r.name, &r.uid, &r.resource_version).hash(&mut h);
    h.finish()
}

/// A binding is looked at for the first time, when the engine starts.
pub(super) fn on_binding(engine: &Arc<Engine>, b: &AnyBinding) {
    wake_binding(engine, b, true, true);
}

fn wake_binding(engine: &Arc<Engine>, b: &AnyBinding, spec_changed: bool, template_changed: bool) {
    detector::follow_binding_kinds(engine, b);
    let key = b.key();
    if spec_changed {
        engine.queues.schedule.add(key.clone());
        engine.queues.binding.add(key.clone());
    }
    if engine.config.features.graceful_eviction
        && b.spec().graceful_eviction_tasks.as_ref().is_some_and(|t| !t.is_empty())
    {
        engine.queues.graceful_eviction.add(key.clone());
    }
    if b.spec().failover.as_ref().is_some_and(|f| f.application.is_some()) {
        engine.queues.application_failover.add(key.clone());
    }
    if template_changed {
        engine.queues.binding_status.add(key);
    }
}

pub(super) fn on_work(engine: &Arc<Engine>, w: &Work, deleted: bool) {
    let key = WorkKey { namespace: w.namespace().unwrap_or_default(), name: w.name_any() };
    engine.queues.execute.add(key);
    crate::federated_quota::on_work(engine, w);
    if super::mcs::concerns_work(w) {
        engine.mcs_wake.notify_one();
    }
    if let Some(b) = binding_of_work(w) {
        if deleted {
            engine.queues.binding.add(b.clone());
        }
        // A new Work has nothing to report yet (upstream's status controller ignores creates);
        // its first status, a later change or its deletion is what the binding shows.
        if deleted || w.status.is_some() {
            engine.queues.binding_status.add(b);
        }
    } else if deleted
        && w.labels().contains_key(names::NAMESPACE_SYNC_LABEL)
        && let Some(ns) = w
            .spec
            .workload
            .as_ref()
            .and_then(|m| m.manifests.as_ref()?.first()?["metadata"]["name"].as_str().map(String::from))
    {
        engine.queues.namespace_sync.add(ns);
    }
}

/// The binding a Work belongs to, from the annotations the binding controller sets.
fn binding_of_work(w: &Work) -> Option<BindingKey> {
    let a = w.annotations();
    if let Some(name) = a.get(names::RB_NAME_ANNOTATION) {
        return Some(BindingKey { namespace: a.get(names::RB_NAMESPACE_ANNOTATION).cloned(), name: name.clone() });
    }
    a.get(names::CRB_NAME_ANNOTATION).map(|name| BindingKey { namespace: None, name: name.clone() })
}

pub(super) fn on_namespace(engine: &Arc<Engine>, n: &Namespace, _deleted: bool) {
    engine.queues.namespace_sync.add(n.name_any());
}

#[cfg(test)]
mod tests {
    use super::spec_mark;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, Time};

    #[test]
    fn only_what_the_scheduler_and_binding_controller_read_changes_the_mark() {
        let meta = ObjectMeta {
            generation: Some(3),
            resource_version: Some("10".into()),
            labels: Some([("a".to_string(), "1".to_string())].into()),
            ..Default::default()
        };
        // A status write: a new resourceVersion and managed fields, the same generation.
        let status_write = ObjectMeta { resource_version: Some("11".into()), ..meta.clone() };
        assert_eq!(spec_mark(&meta), spec_mark(&status_write));
        let spec_write = ObjectMeta { generation: Some(4), ..meta.clone() };
        assert_ne!(spec_mark(&meta), spec_mark(&spec_write));
        let deleting = ObjectMeta { deletion_timestamp: Some(Time(jiff::Timestamp::UNIX_EPOCH)), ..meta.clone() };
        assert_ne!(spec_mark(&meta), spec_mark(&deleting));
        let relabelled = ObjectMeta { labels: Some([("a".to_string(), "2".to_string())].into()), ..meta.clone() };
        assert_ne!(spec_mark(&meta), spec_mark(&relabelled));
        let annotated = ObjectMeta { annotations: Some([("n".to_string(), "x".to_string())].into()), ..meta.clone() };
        assert_ne!(spec_mark(&meta), spec_mark(&annotated));
    }
}
