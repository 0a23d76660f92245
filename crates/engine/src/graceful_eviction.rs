//! The graceful eviction controller (upstream's RB/CRB graceful eviction controllers, run with
//! the `GracefulEviction` gate): a binding's `spec.gracefulEvictionTasks` keep the evicted
//! cluster's Work; this ends each task when its copy may go — the user said so
//! (`suppressDeletion: false`), its grace period passed, or the binding was scheduled again
//! and every target cluster reports the workload healthy. Ending a task lets the binding
//! controller delete the old Work.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_karmada_api::wellknown;
use karmadactl_karmada_api::work::Work;
use karmadactl_karmada_api::work::binding::TargetCluster;
use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use karmadactl_karmada_api::work::eviction::GracefulEvictionTask;
use karmadactl_karmada_api::work::health::ResourceHealth;
use kube::api::{Patch, PatchParams};
use serde_json::json;

use super::bindings::AnyBinding;
use super::context::{BindingKey, Engine};
use super::events;

/// Upstream's reasons for the event recorded when a task ends.
pub const EVICT_SUCCEED: &str = "EvictWorkloadFromClusterSucceed";
pub const EVICT_FAILED: &str = "EvictWorkloadFromClusterFailed";

/// What a task is judged against (upstream's `assessmentOption`).
pub struct Assessment<'a> {
    /// `--graceful-eviction-timeout`, for tasks without a grace period of their own.
    pub timeout: Duration,
    pub schedule_result: &'a [TargetCluster],
    pub observed_status: &'a [AggregatedStatusItem],
    /// The scheduler has seen the binding's current generation, so its result and the
    /// status are not left over from before the eviction.
    pub has_scheduled: bool,
}

/// Upstream's `assessEvictionTasks`: the tasks to keep (new ones stamped with `now`) and the
/// clusters whose tasks end.
pub fn assess_tasks(
    tasks: &[GracefulEvictionTask],
    now: jiff::Timestamp,
    opt: &Assessment,
) -> (Vec<GracefulEvictionTask>, Vec<String>) {
    let mut kept = vec![];
    let mut ended = vec![];
    for task in tasks {
        if task.creation_timestamp.is_none() {
            kept.push(GracefulEvictionTask { creation_timestamp: Some(Time(now)), ..task.clone() });
            continue;
        }
        if keeps(task, now, opt) {
            kept.push(task.clone());
        } else {
            ended.push(task.from_cluster.clone());
        }
    }
    (kept, ended)
}

/// Upstream's `assessSingleTask`, for a task with a creation time.
fn keeps(task: &GracefulEvictionTask, now: jiff::Timestamp, opt: &Assessment) -> bool {
    if let Some(suppress) = task.suppress_deletion {
        // `false` is the user confirming the old copy may go.
        return suppress;
    }
    if deadline(task, opt.timeout).is_some_and(|d| now > d) {
        return false;
    }
    !(opt.has_scheduled && all_healthy(opt.schedule_result, opt.observed_status))
}

/// When the task's grace period ends.
fn deadline(task: &GracefulEvictionTask, timeout: Duration) -> Option<jiff::Timestamp> {
    let created = task.creation_timestamp.as_ref()?.0;
    let timeout = match task.grace_period_seconds {
        Some(s) => jiff::SignedDuration::from_secs(i64::from(s)),
        None => jiff::SignedDuration::try_from(timeout).unwrap_or(jiff::SignedDuration::MAX),
    };
    created.checked_add(timeout).ok()
}

/// Every target cluster reports the workload Healthy (a cluster without status has not
/// applied it yet).
fn all_healthy(targets: &[TargetCluster], observed: &[AggregatedStatusItem]) -> bool {
    targets.iter().all(|t| {
        observed.iter().find(|s| s.cluster_name == t.name).is_some_and(|s| s.health == Some(ResourceHealth::Healthy))
    })
}

/// Upstream's `nextRetry`: how long until the earliest grace period of the kept tasks ends
/// (`None` when only user-controlled tasks are left, which a change to the binding wakes).
pub fn next_retry(tasks: &[GracefulEvictionTask], timeout: Duration, now: jiff::Timestamp) -> Option<Duration> {
    tasks
        .iter()
        .filter(|t| t.suppress_deletion.is_none())
        .filter_map(|t| deadline(t, timeout))
        .map(|d| Duration::try_from(d.duration_since(now)).unwrap_or(Duration::ZERO))
        .min()
}

pub async fn reconcile(engine: &Arc<Engine>, key: &BindingKey) -> Result<(), kube::Error> {
    let Some(binding) = engine.binding(key) else {
        return Ok(());
    };
    let spec = binding.spec();
    let tasks = spec.graceful_eviction_tasks.as_deref().unwrap_or_default();
    if binding.meta().deletion_timestamp.is_some() || tasks.is_empty() {
        return Ok(());
    }
    let timeout = engine.config.failover.graceful_eviction_timeout;
    let status = binding.status();
    let scheduled = status.is_some_and(|s| s.scheduler_observed_generation == binding.meta().generation);
    let current = scheduled && works_current(engine, key, &binding);
    let opt = Assessment {
        timeout,
        schedule_result: spec.clusters.as_deref().unwrap_or_default(),
        observed_status: status.and_then(|s| s.aggregated_status.as_deref()).unwrap_or_default(),
        has_scheduled: current,
    };
    let now = jiff::Timestamp::now();
    let (kept, ended) = assess_tasks(tasks, now, &opt);
    if kept != tasks {
        // The resourceVersion makes this a compare-and-swap, as upstream's optimistic lock.
        let value = if kept.is_empty() { serde_json::Value::Null } else { json!(kept) };
        let patch = json!({
            "metadata": {"resourceVersion": binding.meta().resource_version},
            "spec": {"gracefulEvictionTasks": value},
        });
        let result = key.api(&engine.client).patch(&key.name, &PatchParams::default(), &Patch::Merge(&patch)).await;
        record_ended(engine, &binding, &ended, result.is_ok()).await;
        engine.remember_binding(key, result?);
    }
    if let Some(mut after) = next_retry(&kept, timeout, jiff::Timestamp::now()) {
        // A second late rather than early: the deadline is compared in whole seconds.
        after += Duration::from_secs(1);
        if scheduled && !current {
            // The Works catch up without the binding changing: look again soon.
            after = after.min(Duration::from_secs(1));
        }
        engine.queues.graceful_eviction.add_after(key.clone(), after);
    }
    Ok(())
}

/// Whether the aggregated status can speak for the current schedule: every target cluster's
/// Work carries its assigned replicas and was applied at its current generation. Upstream
/// trusts the status once the scheduler has seen the binding; here the controllers run close
/// enough together that the status would often still describe the Works from before the
/// eviction (healthy, with the old replicas) and end the task before a new copy started.
fn works_current(engine: &Engine, key: &BindingKey, binding: &AnyBinding) -> bool {
    let Some(id) = binding.permanent_id() else {
        return false;
    };
    let works = engine.work_index.of_binding(&engine.caches.works, key.id_label(), id);
    binding.spec().clusters.iter().flatten().all(|target| {
        let namespace = wellknown::execution_space(&target.name);
        works.iter().any(|w| {
            w.metadata.namespace.as_deref() == Some(namespace.as_str())
                && w.metadata.deletion_timestamp.is_none()
                && applied_now(w)
                && carries_replicas(w, target.replicas)
        }) && status_counts_replicas(binding, &target.name, target.replicas)
    })
}

/// The status collected from the cluster counts the replicas the schedule gave it (for kinds
/// whose status has `replicas`). A Work is applied as soon as the member accepts it, while the
/// status collected last may still describe the copy from before the change (healthy, with
/// the old replicas) and would end the task before the new replicas were up.
fn status_counts_replicas(binding: &AnyBinding, cluster: &str, replicas: Option<i32>) -> bool {
    let Some(want) = replicas else {
        return true;
    };
    let items = binding.status().and_then(|s| s.aggregated_status.as_deref()).unwrap_or_default();
    let counted = items
        .iter()
        .find(|i| i.cluster_name == cluster)
        .and_then(|i| i.status.as_ref())
        .and_then(|s| s.get("replicas"))
        .and_then(serde_json::Value::as_i64);
    counted.is_none_or(|have| have == i64::from(want))
}

/// The Work's `Applied` condition is True for its current generation.
fn applied_now(work: &Work) -> bool {
    let conditions = work.status.as_ref().and_then(|s| s.conditions.as_deref()).unwrap_or_default();
    conditions
        .iter()
        .any(|c| c.type_ == "Applied" && c.status == "True" && c.observed_generation == work.metadata.generation)
}

/// The workload in the Work has the replicas the schedule gave its cluster (kinds without
/// `spec.replicas` always do).
fn carries_replicas(work: &Work, replicas: Option<i32>) -> bool {
    let manifest = work.spec.workload.as_ref().and_then(|w| w.manifests.as_ref()?.first());
    match (manifest.and_then(|m| m["spec"]["replicas"].as_i64()), replicas) {
        (Some(have), Some(want)) => have == i64::from(want),
        _ => true,
    }
}

/// Upstream's `EmitClusterEvictionEventFor(Cluster)ResourceBinding`, on the binding and its
/// template.
async fn record_ended(engine: &Engine, binding: &AnyBinding, clusters: &[String], ok: bool) {
    let component = match binding {
        AnyBinding::Namespaced(_) => "resource-binding-graceful-eviction-controller",
        AnyBinding::Cluster(_) => "cluster-resource-binding-graceful-eviction-controller",
    };
    for cluster in clusters {
        if ok {
            let message = format!("Evict from cluster {cluster} succeed.");
            events::record_binding(engine, binding, events::NORMAL, component, EVICT_SUCCEED, &message).await;
        } else {
            let message = format!("Evict from cluster {cluster} failed.");
            events::record_binding(engine, binding, events::WARNING, component, EVICT_FAILED, &message).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_karmada_api::work::eviction::{PRODUCER_TAINT_MANAGER, REASON_TAINT_UNTOLERATED};

    fn at(secs: i64) -> jiff::Timestamp {
        jiff::Timestamp::from_second(1_700_000_000 + secs).unwrap()
    }

    fn task(cluster: &str, created: Option<i64>) -> GracefulEvictionTask {
        GracefulEvictionTask {
            from_cluster: cluster.into(),
            reason: REASON_TAINT_UNTOLERATED.into(),
            producer: PRODUCER_TAINT_MANAGER.into(),
            creation_timestamp: created.map(|s| Time(at(s))),
            ..Default::default()
        }
    }

    fn target(name: &str) -> TargetCluster {
        TargetCluster { name: name.into(), replicas: Some(3), ..Default::default() }
    }

    fn status(name: &str, health: ResourceHealth) -> AggregatedStatusItem {
        AggregatedStatusItem {
            cluster_name: name.into(),
            status: None,
            applied: Some(true),
            applied_message: None,
            health: Some(health),
        }
    }

    fn opt<'a>(targets: &'a [TargetCluster], observed: &'a [AggregatedStatusItem], scheduled: bool) -> Assessment<'a> {
        Assessment {
            timeout: Duration::from_secs(600),
            schedule_result: targets,
            observed_status: observed,
            has_scheduled: scheduled,
        }
    }

    #[test]
    fn a_new_task_is_stamped_and_kept() {
        let (kept, ended) = assess_tasks(&[task("m2", None)], at(5), &opt(&[], &[], true));
        assert_eq!(kept[0].creation_timestamp, Some(Time(at(5))));
        assert!(ended.is_empty());
    }

    #[test]
    fn a_task_ends_when_the_new_copies_are_healthy_and_not_before() {
        let targets = [target("m1"), target("m3")];
        let healthy = [status("m1", ResourceHealth::Healthy), status("m3", ResourceHealth::Healthy)];
        let one_pending = [status("m1", ResourceHealth::Healthy), status("m3", ResourceHealth::Unknown)];
        let tasks = [task("m2", Some(0))];
        assert_eq!(assess_tasks(&tasks, at(10), &opt(&targets, &healthy, true)).1, vec!["m2"]);
        assert!(assess_tasks(&tasks, at(10), &opt(&targets, &one_pending, true)).1.is_empty());
        assert!(assess_tasks(&tasks, at(10), &opt(&targets, &healthy[..1], true)).1.is_empty());
        // Not scheduled since the eviction: the status may be from before it.
        assert!(assess_tasks(&tasks, at(10), &opt(&targets, &healthy, false)).1.is_empty());
    }

    #[test]
    fn a_task_ends_after_its_grace_period_or_the_default_timeout() {
        let o = opt(&[], &[], false);
        let own = GracefulEvictionTask { grace_period_seconds: Some(30), ..task("m2", Some(0)) };
        assert!(assess_tasks(std::slice::from_ref(&own), at(30), &o).1.is_empty());
        assert_eq!(assess_tasks(std::slice::from_ref(&own), at(31), &o).1, vec!["m2"]);
        let default = task("m2", Some(0));
        assert!(assess_tasks(std::slice::from_ref(&default), at(600), &o).1.is_empty());
        assert_eq!(assess_tasks(&[default], at(601), &o).1, vec!["m2"]);
    }

    #[test]
    fn suppress_deletion_decides_alone() {
        let targets = [target("m1")];
        let healthy = [status("m1", ResourceHealth::Healthy)];
        let keep = GracefulEvictionTask { suppress_deletion: Some(true), ..task("m2", Some(0)) };
        let drop = GracefulEvictionTask { suppress_deletion: Some(false), ..task("m3", Some(0)) };
        let (kept, ended) = assess_tasks(&[keep.clone(), drop], at(10_000), &opt(&targets, &healthy, true));
        assert_eq!((kept, ended), (vec![keep], vec!["m3".to_string()]));
    }

    #[test]
    fn the_next_retry_is_the_earliest_deadline_of_tasks_not_held_by_the_user() {
        let t = Duration::from_secs(600);
        let short = GracefulEvictionTask { grace_period_seconds: Some(60), ..task("m1", Some(0)) };
        let held = GracefulEvictionTask { suppress_deletion: Some(true), ..task("m2", Some(0)) };
        assert_eq!(next_retry(&[task("m3", Some(0)), short], t, at(20)), Some(Duration::from_secs(40)));
        assert_eq!(next_retry(std::slice::from_ref(&held), t, at(20)), None);
        assert_eq!(next_retry(&[task("m3", Some(0))], t, at(700)), Some(Duration::ZERO));
    }
}
