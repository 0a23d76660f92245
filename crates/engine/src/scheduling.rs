//! The scheduling controller: runs the scheduler for a binding whose placement, replicas or
//! fleet changed, and writes the chosen clusters to `spec.clusters` and the outcome to the
//! `Scheduled` condition (with an Event on failure, worded as upstream's). With the
//! `WorkloadAffinity` gate, a binding's workload affinity peers' placements are read here and
//! given to the scheduler, and the peers are scheduled again when the binding moves.

use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::work::binding::TargetCluster;
use kube::api::{Patch, PatchParams};
use serde_json::json;

use super::bindings::{self, AnyBinding, set_condition};
use super::context::{BindingKey, Engine};
use super::events;
use super::scheduler::{self, AssignmentMode, ScheduleInput};
use super::workload_affinity;

pub async fn reconcile(engine: &Arc<Engine>, key: &BindingKey) -> Result<(), kube::Error> {
    let Some(binding) = engine.binding(key) else {
        return Ok(());
    };
    if binding.meta().deletion_timestamp.is_some() {
        return Ok(());
    }
    let spec = binding.spec();
    let clusters = engine.caches.clusters.state();
    let previous = spec.clusters.clone().unwrap_or_default();
    let Some(placement) = spec.placement.as_ref() else {
        return evict_deleting(engine, key, &binding, &clusters, &previous).await;
    };
    if spec.suspension.as_ref().and_then(|s| s.scheduling).unwrap_or(false) {
        return evict_deleting(engine, key, &binding, &clusters, &previous).await;
    }
    let evicting: Vec<&str> = spec.graceful_eviction_tasks.iter().flatten().map(|t| t.from_cluster.as_str()).collect();
    let groups = match (&key.namespace, &spec.workload_affinity_groups) {
        (Some(_), Some(groups)) if engine.config.features.workload_affinity => Some(groups),
        _ => None,
    };
    // Held until this binding's decision is written (see GROUP_SCHEDULING).
    let _turn = match groups {
        Some(_) => Some(workload_affinity::GROUP_SCHEDULING.lock().await),
        None => None,
    };
    let (peers, peer_keys) = groups.map(|g| workload_affinity::peers(engine, key, g)).unwrap_or_default();
    let input = ScheduleInput {
        placement,
        replicas: spec.replicas.unwrap_or(0),
        replica_requirements: spec.replica_requirements.as_ref(),
        clusters: &clusters,
        previous: &previous,
        mode: AssignmentMode::of(
            spec.reschedule_triggered_at.as_ref().map(|t| t.0),
            binding.status().and_then(|s| s.last_scheduled_time.as_ref()).map(|t| t.0),
        ),
        evicting: &evicting,
        peers: &peers,
    };
    let generation = binding.meta().generation;
    match scheduler::schedule(&input) {
        Ok(result) => {
            let mut generation = generation;
            if result.clusters != previous {
                let patch = json!({
                    "metadata": {"resourceVersion": binding.meta().resource_version},
                    "spec": {"clusters": result.clusters},
                });
                let written =
                    key.api(&engine.client).patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
                generation = written.metadata.generation;
                engine.remember_binding(key, written);
                // A peer that found no fit beside (or apart from) this binding's old clusters
                // may fit now; upstream leaves it to its periodic retry of unschedulable ones.
                for peer in peer_keys {
                    engine.queues.schedule.add(peer);
                }
            }
            let affinity = result.observed_affinity_name.clone();
            bindings::update_status(engine, key, |status| {
                let mut conditions = status.conditions.take().unwrap_or_default();
                let mut changed = set_condition(
                    &mut conditions,
                    "Scheduled",
                    true,
                    "Success",
                    "Binding has been scheduled successfully.",
                    None,
                );
                status.conditions = Some(conditions);
                if status.scheduler_observed_generation != generation {
                    status.scheduler_observed_generation = generation;
                    status.last_scheduled_time = Some(Time(jiff::Timestamp::now()));
                    changed = true;
                }
                if status.scheduler_observing_affinity_name != affinity {
                    status.scheduler_observing_affinity_name = affinity.clone();
                    changed = true;
                }
                changed
            })
            .await?;
        }
        Err(e) => {
            evict_deleting(engine, key, &binding, &clusters, &previous).await?;
            let mut first = false;
            bindings::update_status(engine, key, |status| {
                let mut conditions = status.conditions.take().unwrap_or_default();
                let changed = set_condition(&mut conditions, "Scheduled", false, "NoClusterFit", &e.message, None);
                status.conditions = Some(conditions);
                first = changed;
                changed
            })
            .await?;
            if first {
                events::warn_binding(engine, &binding, "ScheduleBindingFailed", &e.message).await;
            }
        }
    }
    Ok(())
}

/// Takes clusters being removed out of `spec.clusters` when the binding is not scheduled
/// again (no fit, suspended, no placement): upstream's taint manager evicts a binding from a
/// terminating cluster whether or not it fits elsewhere, and the cluster controller releases a
/// Cluster only once no binding lists it. The resourceVersion makes this a compare-and-swap.
async fn evict_deleting(
    engine: &Arc<Engine>,
    key: &BindingKey,
    binding: &AnyBinding,
    clusters: &[Arc<Cluster>],
    previous: &[TargetCluster],
) -> Result<(), kube::Error> {
    let deleting = |name: &str| {
        clusters.iter().any(|c| c.metadata.name.as_deref() == Some(name) && c.metadata.deletion_timestamp.is_some())
    };
    let rest: Vec<&TargetCluster> = previous.iter().filter(|t| !deleting(&t.name)).collect();
    if rest.len() == previous.len() {
        return Ok(());
    }
    let patch = json!({
        "metadata": {"resourceVersion": binding.meta().resource_version},
        "spec": {"clusters": rest},
    });
    let written = key.api(&engine.client).patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
    engine.remember_binding(key, written);
    Ok(())
}
