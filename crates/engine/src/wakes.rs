//! Which change wakes which controller: every kind the plane's engine watches, and the queues an
//! event on it feeds. [`run`](super::run) follows each kind with the function named here, so
//! this table and the code below are the whole of it.
//!
//! | Watched | Wakes |
//! |---|---|
//! | Cluster, when what placement depends on changes | `schedule` and `binding`: every binding; `execute`: the Works in its execution space; `namespace_sync`: every namespace |
//! | PropagationPolicy, ClusterPropagationPolicy | `detect`: the templates policies may claim ([`detector::on_policy_change`]), and those a deleted one claimed |
//! | OverridePolicy, ClusterOverridePolicy | `binding`: every binding; `detect`: the templates policies may claim, when a policy has `dependentOverrides` |
//! | ResourceBinding, ClusterResourceBinding | `schedule`, `binding` and `binding_status`: that binding (and the detector follows its kind); `graceful_eviction`: that binding, when it has eviction tasks; `application_failover`: that binding, when it has application failover |
//! | Work | `execute`: that Work; `binding_status`: its binding, and `binding` too when the Work is deleted; `namespace_sync`: the namespace a deleted namespace-sync Work held |
//! | Namespace | `namespace_sync`: that namespace |
//! | WorkloadRebalancer | its own queue in `workload_rebalancer`: that rebalancer, and again when its TTL runs out |
//!
//! Objects in members wake `execute` and `work_status` through the execution controller's
//! member watchers (`execution::members`); a Pull member's agent wakes only `execute` (`agent`).

use std::collections::HashMap;
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
    for w in engine.caches.works.state() {
        if w.namespace().as_deref() == Some(es.as_str()) {
            engine.queues.execute.add(WorkKey { namespace: es.clone(), name: w.name_any() });
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

pub(super) fn on_resource_binding(engine: &Arc<Engine>, b: &ResourceBinding, deleted: bool) {
    let b = AnyBinding::Namespaced(Arc::new(b.clone()));
    engine.binding_cached(&b.key(), b.meta(), deleted);
    on_binding(engine, &b);
}

pub(super) fn on_cluster_resource_binding(engine: &Arc<Engine>, b: &ClusterResourceBinding, deleted: bool) {
    let b = AnyBinding::Cluster(Arc::new(b.clone()));
    engine.binding_cached(&b.key(), b.meta(), deleted);
    on_binding(engine, &b);
}

/// A binding changed (or is looked at for the first time, when the engine starts).
pub(super) fn on_binding(engine: &Arc<Engine>, b: &AnyBinding) {
    detector::follow_binding_kinds(engine, b);
    let key = b.key();
    engine.queues.schedule.add(key.clone());
    engine.queues.binding.add(key.clone());
    if engine.config.features.graceful_eviction
        && b.spec().graceful_eviction_tasks.as_ref().is_some_and(|t| !t.is_empty())
    {
        engine.queues.graceful_eviction.add(key.clone());
    }
    if b.spec().failover.as_ref().is_some_and(|f| f.application.is_some()) {
        engine.queues.application_failover.add(key.clone());
    }
    engine.queues.binding_status.add(key);
}

pub(super) fn on_work(engine: &Arc<Engine>, w: &Work, deleted: bool) {
    let key = WorkKey { namespace: w.namespace().unwrap_or_default(), name: w.name_any() };
    engine.queues.execute.add(key);
    if let Some(b) = binding_of_work(w) {
        if deleted {
            engine.queues.binding.add(b.clone());
        }
        engine.queues.binding_status.add(b);
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
