//! The application failover controllers (upstream's `pkg/controllers/applicationfailover`,
//! for ResourceBindings and ClusterResourceBindings alike): a binding whose policy sets
//! `failover.application` has its workload's health watched per cluster (the interpreter's
//! verdict in `status.aggregatedStatus`), and a cluster where it stays `Unhealthy` for
//! `decisionConditions.tolerationSeconds` is evicted: taken out of `spec.clusters` into a
//! graceful eviction task with reason `ApplicationFailure`. The scheduler then keeps that
//! cluster out (its ClusterEviction filter) and places the replicas elsewhere; the graceful
//! eviction controller removes the old copy as the task's purge mode says.

mod decision;

use std::sync::Arc;
use std::time::{Duration, Instant};

use karmadactl_interpreter::{Operation, Target};
use karmadactl_karmada_api::work::eviction::{PRODUCER_CRB_APPLICATION_FAILOVER, PRODUCER_RB_APPLICATION_FAILOVER};
use kube::api::{Patch, PatchParams};
use serde_json::json;

pub use decision::UnhealthySince;

use super::bindings::AnyBinding;
use super::context::{BindingKey, Engine};
use super::error::ReconcileError;
use super::events;
use super::graceful_eviction::EVICT_FAILED;

pub async fn reconcile(engine: &Arc<Engine>, since: &UnhealthySince, key: &BindingKey) -> Result<(), ReconcileError> {
    let Some(binding) = engine.binding(key) else {
        since.forget(key);
        return Ok(());
    };
    if !watched(engine, &binding) {
        since.forget(key);
        return Ok(());
    }
    let spec = binding.spec();
    let Some(behavior) = spec.failover.as_ref().and_then(|f| f.application.as_ref()) else {
        return Ok(());
    };
    let items = binding.status().and_then(|s| s.aggregated_status.as_deref()).unwrap_or_default();
    let seconds = behavior.decision_conditions.toleration_seconds.unwrap_or(decision::DEFAULT_TOLERATION_SECONDS);
    let toleration = Duration::from_secs(u64::try_from(seconds).unwrap_or(0));
    let (unhealthy, others) = decision::split_by_health(items, spec);
    let (failed, next) = since.detect(key, &unhealthy, toleration, Instant::now());
    let mut targeted: Vec<String> = spec.clusters.iter().flatten().map(|t| t.name.clone()).collect();
    if !failed.is_empty() {
        let producer = producer(key);
        let mut evicted = spec.clone();
        for cluster in &failed {
            let options =
                decision::task_options(behavior, items, cluster, producer, &targeted, &engine.config.features);
            match options {
                Ok(options) => {
                    evicted.graceful_evict_cluster(cluster, options);
                }
                // Upstream retries the binding; what fails here fails the same way until the
                // binding (its status, or the policy) changes, which queues it again.
                Err(e) => {
                    tracing::warn!(binding = %key.display(), cluster, error = %e, "cannot evict the failed application");
                    return Ok(());
                }
            }
        }
        let patch = json!({
            "metadata": {"resourceVersion": binding.meta().resource_version},
            "spec": {"clusters": evicted.clusters, "gracefulEvictionTasks": evicted.graceful_eviction_tasks},
        });
        match key.api(&engine.client).patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await {
            Ok(written) => engine.remember_binding(key, written),
            Err(e) => {
                for cluster in &failed {
                    evict_failed_event(engine, key, &binding, cluster).await;
                }
                return Err(e.into());
            }
        }
        targeted.retain(|c| !failed.contains(c));
    }
    since.keep_only(key, &targeted, &others);
    if let Some(next) = next {
        engine.queues.application_failover.add_after(key.clone(), next);
    }
    Ok(())
}

/// Whether the controller watches the binding (upstream's `bindingFilter`): it sets
/// application failover, has reported status, its kind's health is interpreted, and (for a
/// ResourceBinding) its dependencies are propagated, which upstream's policy validation demands
/// with application failover.
fn watched(engine: &Engine, binding: &AnyBinding) -> bool {
    let spec = binding.spec();
    if spec.failover.as_ref().and_then(|f| f.application.as_ref()).is_none() {
        return false;
    }
    if binding.status().and_then(|s| s.aggregated_status.as_ref()).is_none_or(Vec::is_empty) {
        return false;
    }
    let target = Target::new(spec.resource.api_version.clone(), spec.resource.kind.clone());
    if engine.interpreter.source(&target, Operation::InterpretHealth).is_none() {
        return false;
    }
    binding.meta().namespace.is_none() || spec.propagate_deps == Some(true)
}

/// The producer recorded in the task: upstream's controller names.
fn producer(key: &BindingKey) -> &'static str {
    if key.namespace.is_some() { PRODUCER_RB_APPLICATION_FAILOVER } else { PRODUCER_CRB_APPLICATION_FAILOVER }
}

/// Upstream's `EmitClusterEvictionEventFor(Cluster)ResourceBinding` on a failed write, recorded
/// by the controller (upstream records nothing when the write succeeds).
async fn evict_failed_event(engine: &Engine, key: &BindingKey, binding: &AnyBinding, cluster: &str) {
    let message = format!("Evict from cluster {cluster} failed.");
    events::record_binding(engine, binding, events::WARNING, producer(key), EVICT_FAILED, &message).await;
}
