//! The NoExecute taint manager (upstream's `taint-manager`, run with `--enable-taint-manager`
//! and the `Failover` gate): a binding scheduled to a cluster with NoExecute taints it does not
//! tolerate is evicted from it — the cluster leaves `spec.clusters` for a graceful eviction
//! task, so the scheduler places its replicas elsewhere and the graceful eviction controller
//! decides when the old copy goes. A toleration with `tolerationSeconds` delays that until the
//! seconds have passed since the taint was added. Nothing is evicted unless
//! `--enable-no-execute-taint-eviction` is set.
//!
//! As upstream: each cluster with NoExecute taints is looked at on every change and every 10
//! seconds, queueing its bindings (now, or when their toleration ends); three eviction workers
//! each pause `1 / --resource-eviction-rate` seconds after each binding they handle, so a
//! failed cluster's bindings move at a bounded pace rather than all at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Taint, Toleration};
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::failover::{FailoverBehavior, PurgeMode};
use karmadactl_karmada_api::work::eviction::{EvictionOptions, PRODUCER_TAINT_MANAGER, REASON_TAINT_UNTOLERATED};
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::reflector::{ObjectRef, Store};
use serde_json::json;
use tokio::task::JoinHandle;

use super::bindings::AnyBinding;
use super::config::TaintEvictionPurgeMode;
use super::context::{BindingKey, Engine, follow};
use super::error::ReconcileError;
use super::events;
use super::graceful_eviction::EVICT_FAILED;
use super::queue::Queue;
use super::scheduler::tolerates;

/// Upstream's `ClusterTaintEvictionRetryFrequency`.
const CLUSTER_RESYNC: Duration = Duration::from_secs(10);
/// Upstream's `ConcurrentReconciles` of the eviction workers.
const EVICTION_WORKERS: usize = 3;
/// Upstream's pause when the rate is 0 (`maxEvictionDelay`).
const MAX_EVICTION_DELAY: Duration = Duration::from_secs(1800);
/// The component events are recorded as.
const TAINT_MANAGER_NAME: &str = "taint-manager";

/// One binding on one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct EvictionKey {
    cluster: String,
    binding: BindingKey,
}

struct TaintManager {
    clusters: Store<Cluster>,
    cluster_queue: Arc<Queue<String>>,
    evictions: Arc<Queue<EvictionKey>>,
    /// When each delayed eviction key is due, so a cluster looked at every 10 seconds does not
    /// start a timer per binding each time (upstream's delaying queue keeps the earliest).
    due: Mutex<HashMap<EvictionKey, Instant>>,
}

impl TaintManager {
    fn add_after(&self, key: EvictionKey, after: Duration) {
        let at = Instant::now() + after;
        {
            let mut due = self.due.lock().unwrap_or_else(|e| e.into_inner());
            due.retain(|_, t| *t > Instant::now());
            if due.get(&key).is_some_and(|t| *t <= at) {
                return;
            }
            due.insert(key.clone(), at);
        }
        self.evictions.add_after(key, after);
    }
}

/// Starts the taint manager's follower and workers, which end with the engine.
pub(crate) fn start(engine: &Arc<Engine>) -> Vec<JoinHandle<()>> {
    let cluster_queue: Arc<Queue<String>> = Queue::new();
    let q = cluster_queue.clone();
    let (clusters, t) = follow(Api::<Cluster>::all(engine.client.clone()), move |c: &Cluster, deleted| {
        if !deleted && !no_execute_taints(c).is_empty() {
            q.add(c.name_any());
        }
    });
    engine.spawn(t);
    let manager = Arc::new(TaintManager { clusters, cluster_queue, evictions: Queue::new(), due: Mutex::default() });
    let pace = pace(engine.config.failover.resource_eviction_rate);
    let mut workers = vec![];
    let (m, weak) = (manager.clone(), Arc::downgrade(engine));
    workers.push(tokio::spawn(async move {
        if m.clusters.wait_until_ready().await.is_err() {
            return;
        }
        let queue = m.cluster_queue.clone();
        queue
            .serve(
                move |name: String| {
                    let (engine, m) = (weak.upgrade()?, m.clone());
                    Some(async move { sync_cluster(&engine, &m, &name) })
                },
                super::error::policy,
            )
            .await
    }));
    for _ in 0..EVICTION_WORKERS {
        let (m, weak): (Arc<TaintManager>, Weak<Engine>) = (manager.clone(), Arc::downgrade(engine));
        let pacer = Arc::new(Mutex::new(Pacer::new(pace, Instant::now())));
        workers.push(tokio::spawn(async move {
            let queue = m.evictions.clone();
            queue
                .serve(
                    move |key: EvictionKey| {
                        let (engine, m) = (weak.upgrade()?, m.clone());
                        let pacer = pacer.clone();
                        Some(async move {
                            let result = sync_eviction(&engine, &m, &key).await;
                            if result.is_ok() {
                                let due = pacer.lock().unwrap_or_else(|e| e.into_inner()).due(Instant::now());
                                if let Some(at) = due {
                                    tokio::time::sleep_until(at.into()).await;
                                }
                            }
                            result
                        })
                    },
                    super::error::policy,
                )
                .await
        }));
    }
    workers
}

/// Upstream's dynamic rate limiter: the pause after each binding handled.
fn pace(rate: f32) -> Duration {
    if rate > 0.0 {
        Duration::try_from_secs_f64(1.0 / f64::from(rate)).unwrap_or(MAX_EVICTION_DELAY).min(MAX_EVICTION_DELAY)
    } else {
        MAX_EVICTION_DELAY
    }
}

/// The timer's resolution: tokio sleeps whole milliseconds.
const TIMER_TICK: Duration = Duration::from_millis(1);

/// Spaces one worker's evictions `pace` apart on average. Sleeping `pace` after each binding
/// would sleep at least a timer tick, capping a worker at 1,000 bindings a second whatever
/// `--resource-eviction-rate` asks; the pacer sleeps once the pauses owed add up to a tick.
struct Pacer {
    pace: Duration,
    /// When the next binding may start.
    next: Instant,
}

impl Pacer {
    fn new(pace: Duration, now: Instant) -> Self {
        Self { pace, next: now }
    }

    /// Counts one binding handled at `now`; when the worker must wait before the next one.
    fn due(&mut self, now: Instant) -> Option<Instant> {
        // Idle time is not saved up: after a quiet spell the worker starts at the pace again.
        self.next = self.next.max(now) + self.pace;
        (self.next.duration_since(now) >= TIMER_TICK).then_some(self.next)
    }
}

fn no_execute_taints(cluster: &Cluster) -> Vec<Taint> {
    cluster.spec.taints.iter().flatten().filter(|t| t.effect == "NoExecute").cloned().collect()
}

/// Upstream's `syncCluster`: queues each binding scheduled to the cluster for when it is due.
fn sync_cluster(engine: &Engine, m: &TaintManager, name: &str) -> Result<(), ReconcileError> {
    let Some(cluster) = m.clusters.get(&ObjectRef::new(name)) else {
        return Ok(());
    };
    let taints = no_execute_taints(&cluster);
    if !engine.config.failover.enable_no_execute_taint_eviction || taints.is_empty() {
        return Ok(());
    }
    let now = jiff::Timestamp::now();
    for b in engine.all_bindings() {
        if !b.spec().target_contains(name) {
            continue;
        }
        let key = EvictionKey { cluster: name.into(), binding: b.key() };
        match decide(&taints, tolerations(&b), now) {
            Decision::Evict(_) => m.evictions.add(key),
            Decision::After(d) => m.add_after(key, d),
            Decision::Tolerated => {}
        }
    }
    m.cluster_queue.add_after(name.into(), CLUSTER_RESYNC);
    Ok(())
}

fn tolerations(b: &AnyBinding) -> &[Toleration] {
    b.spec().placement.as_ref().and_then(|p| p.cluster_tolerations.as_deref()).unwrap_or_default()
}

/// What to do with a binding on a cluster with NoExecute taints.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Evict now; the text says why.
    Evict(String),
    /// Tolerated for this long yet.
    After(Duration),
    /// Tolerated for good.
    Tolerated,
}

/// Upstream's `GetMatchingTolerations` and `GetMinTolerationTime`: a taint no toleration
/// tolerates evicts at once; otherwise the earliest end of a tolerating toleration's seconds,
/// counted from its taint's `timeAdded`, is when the binding goes (never, without seconds).
pub fn decide(taints: &[Taint], tolerations: &[Toleration], now: jiff::Timestamp) -> Decision {
    let mut used = vec![];
    for taint in taints {
        match tolerations.iter().find(|t| tolerates(t, taint)) {
            Some(t) => used.push(t),
            None => return Decision::Evict(format!("taint {} not tolerated", taint_text(taint))),
        }
    }
    let mut earliest: Option<(jiff::Timestamp, &Taint, i64)> = None;
    for toleration in used {
        let Some(seconds) = toleration.toleration_seconds else { continue };
        for taint in taints.iter().filter(|t| tolerates(toleration, t)) {
            let Some(added) = &taint.time_added else { continue };
            let Ok(at) = added.0.checked_add(jiff::SignedDuration::from_secs(seconds)) else { continue };
            if earliest.is_none_or(|(e, _, _)| at < e) {
                earliest = Some((at, taint, seconds));
            }
        }
    }
    match earliest {
        None => Decision::Tolerated,
        Some((at, taint, seconds)) if at <= now => {
            Decision::Evict(format!("taint {} tolerated for {seconds}s only", taint_text(taint)))
        }
        Some((at, _, _)) => Decision::After(Duration::try_from(at.duration_since(now)).unwrap_or(Duration::ZERO)),
    }
}

/// `key:effect`, or `key=value:effect`.
fn taint_text(taint: &Taint) -> String {
    match taint.value.as_deref().filter(|v| !v.is_empty()) {
        Some(v) => format!("{}={v}:{}", taint.key, taint.effect),
        None => format!("{}:{}", taint.key, taint.effect),
    }
}

/// Upstream's `getPurgeMode`: the policy's `failover.cluster.purgeMode` (Gracefully when it
/// sets none), else the flag.
pub fn purge_mode(failover: Option<&FailoverBehavior>, flag: TaintEvictionPurgeMode) -> PurgeMode {
    if let Some(cluster) = failover.and_then(|f| f.cluster.as_ref()) {
        return cluster.purge_mode.unwrap_or(PurgeMode::Gracefully);
    }
    match flag {
        TaintEvictionPurgeMode::Directly => PurgeMode::Directly,
        TaintEvictionPurgeMode::Gracefully => PurgeMode::Gracefully,
    }
}

/// Upstream's `syncBindingEviction`: evicts the binding from the cluster if it is due, or
/// queues it again for when it is.
async fn sync_eviction(engine: &Engine, m: &TaintManager, key: &EvictionKey) -> Result<(), ReconcileError> {
    let Some(binding) = engine.binding(&key.binding) else {
        return Ok(());
    };
    if binding.meta().deletion_timestamp.is_some() || !binding.spec().target_contains(&key.cluster) {
        return Ok(());
    }
    let Some(cluster) = m.clusters.get(&ObjectRef::new(&key.cluster)) else {
        return Ok(());
    };
    let taints = no_execute_taints(&cluster);
    if !engine.config.failover.enable_no_execute_taint_eviction || taints.is_empty() {
        return Ok(());
    }
    let why = match decide(&taints, tolerations(&binding), jiff::Timestamp::now()) {
        Decision::Evict(why) => why,
        Decision::After(d) => {
            m.add_after(key.clone(), d);
            return Ok(());
        }
        Decision::Tolerated => return Ok(()),
    };
    let mut spec = binding.spec().clone();
    let mode = purge_mode(spec.failover.as_ref(), engine.config.failover.no_execute_taint_eviction_purge_mode);
    spec.graceful_evict_cluster(
        &key.cluster,
        EvictionOptions {
            purge_mode: Some(mode),
            producer: PRODUCER_TAINT_MANAGER.into(),
            reason: REASON_TAINT_UNTOLERATED.into(),
            message: Some(format!("evicted from {}: {why}", key.cluster)),
            ..Default::default()
        },
    );
    // The version read makes this a compare-and-swap, as upstream's Update.
    let patch = json!({
        "metadata": {"resourceVersion": binding.meta().resource_version},
        "spec": {"clusters": spec.clusters, "gracefulEvictionTasks": spec.graceful_eviction_tasks},
    });
    let api = key.binding.api(&engine.client);
    match api.patch(&key.binding.name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(written) => {
            engine.remember_binding(&key.binding, written);
            Ok(())
        }
        Err(e) => {
            let message = format!("Evict from cluster {} failed.", key.cluster);
            events::record_binding(engine, &binding, events::WARNING, TAINT_MANAGER_NAME, EVICT_FAILED, &message).await;
            Err(e.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
    use karmadactl_karmada_api::policy::failover::ClusterFailoverBehavior;

    fn at(secs: i64) -> jiff::Timestamp {
        jiff::Timestamp::from_second(1_700_000_000 + secs).unwrap()
    }

    #[test]
    fn the_pacer_keeps_rates_above_a_timer_tick() {
        // 10,000 a second: ten bindings handled back to back owe one tick, and sleep once.
        let start = Instant::now();
        let mut p = Pacer::new(pace(10_000.0), start);
        let sleeps: Vec<Option<Instant>> = (0..20).map(|_| p.due(start)).collect();
        assert_eq!(sleeps.iter().filter(|s| s.is_some()).count(), 11);
        assert_eq!(sleeps[8], None);
        assert_eq!(sleeps[9], Some(start + Duration::from_millis(1)));
        assert_eq!(sleeps[19], Some(start + Duration::from_millis(2)));
        // Slower than a tick (2 a second): every binding waits its full pause.
        let mut p = Pacer::new(pace(2.0), start);
        assert_eq!(p.due(start), Some(start + Duration::from_millis(500)));
        assert_eq!(p.due(start), Some(start + Duration::from_millis(1000)));
        // A quiet spell is not saved up as credit.
        let later = start + Duration::from_secs(60);
        assert_eq!(p.due(later), Some(later + Duration::from_millis(500)));
    }

    fn taint(key: &str, added: i64) -> Taint {
        Taint { key: key.into(), effect: "NoExecute".into(), time_added: Some(Time(at(added))), value: None }
    }

    fn toleration(key: &str, seconds: Option<i64>) -> Toleration {
        Toleration {
            key: Some(key.into()),
            operator: Some("Exists".into()),
            effect: Some("NoExecute".into()),
            toleration_seconds: seconds,
            value: None,
        }
    }

    const NOT_READY: &str = "cluster.karmada.io/not-ready";
    const UNREACHABLE: &str = "cluster.karmada.io/unreachable";

    #[test]
    fn an_untolerated_taint_evicts_at_once() {
        let d = decide(&[taint(NOT_READY, 0)], &[toleration(UNREACHABLE, Some(300))], at(1));
        assert_eq!(d, Decision::Evict("taint cluster.karmada.io/not-ready:NoExecute not tolerated".into()));
        assert!(matches!(decide(&[taint(NOT_READY, 0)], &[], at(1)), Decision::Evict(_)));
    }

    #[test]
    fn toleration_seconds_count_from_the_taint_and_the_earliest_end_wins() {
        let taints = [taint(NOT_READY, 0), taint(UNREACHABLE, 10)];
        let tols = [toleration(NOT_READY, Some(60)), toleration(UNREACHABLE, Some(30))];
        // not-ready ends at 60, unreachable at 40.
        assert_eq!(decide(&taints, &tols, at(15)), Decision::After(Duration::from_secs(25)));
        assert_eq!(
            decide(&taints, &tols, at(40)),
            Decision::Evict("taint cluster.karmada.io/unreachable:NoExecute tolerated for 30s only".into())
        );
    }

    #[test]
    fn a_toleration_without_seconds_tolerates_for_good() {
        assert_eq!(decide(&[taint(NOT_READY, 0)], &[toleration(NOT_READY, None)], at(99_999)), Decision::Tolerated);
    }

    #[test]
    fn the_policy_purge_mode_wins_over_the_flag() {
        let flag = TaintEvictionPurgeMode::Directly;
        assert_eq!(purge_mode(None, flag), PurgeMode::Directly);
        assert_eq!(purge_mode(None, TaintEvictionPurgeMode::Gracefully), PurgeMode::Gracefully);
        let unset = FailoverBehavior { cluster: Some(ClusterFailoverBehavior::default()), ..Default::default() };
        assert_eq!(purge_mode(Some(&unset), flag), PurgeMode::Gracefully);
        let never = FailoverBehavior {
            cluster: Some(ClusterFailoverBehavior { purge_mode: Some(PurgeMode::Never), ..Default::default() }),
            ..Default::default()
        };
        assert_eq!(purge_mode(Some(&never), flag), PurgeMode::Never);
    }

    #[test]
    fn the_pace_follows_the_rate() {
        assert_eq!(pace(0.5), Duration::from_secs(2));
        assert_eq!(pace(100.0), Duration::from_millis(10));
        assert_eq!(pace(0.0), MAX_EVICTION_DELAY);
    }
}
