//! The FederatedHPA controller (upstream's `pkg/controllers/federatedhpa`, itself kube's
//! podautoscaler adapted): every sync period each FederatedHPA's scale target (a template in
//! the plane) is read with its binding ([`target`]), the pods of the members its ResourceBinding schedules it to and their
//! `metrics.k8s.io` samples are gathered ([`members`]), the replica calculator turns each
//! Resource or ContainerResource metric into a count ([`metric`], [`calculator`]), the behavior's
//! windows and policies temper it ([`behavior`]), and the template's `spec.replicas` is
//! written; the scheduler then divides the new count among the members. Status and events
//! are kube's ([`status`]).
//!
//! Pods, Object and External metrics need custom metrics from the members, which the plane
//! does not aggregate: such a metric is reported invalid in the ScalingActive condition, as
//! kube reports a metric it cannot read, never skipped silently. Two FHPAs whose targets'
//! selectors match the same pods both stop with kube's `AmbiguousSelector`.

mod behavior;
mod calculator;
mod members;
mod metric;
mod status;
mod target;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use k8s_openapi::api::autoscaling::v2::{HPAScalingRules, HorizontalPodAutoscalerStatus, MetricStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_apimachinery::LabelSelector as LabelQuery;
use karmadactl_karmada_api::autoscaling::federated_hpa::FederatedHPA;
use kube::ResourceExt;
use kube::api::Api;
use tokio::sync::Notify;

use self::behavior::{Bounds, History, Policy, Rules, Select};
use self::calculator::Calculator;
use self::status::{ABLE_TO_SCALE, SCALING_ACTIVE, SCALING_LIMITED, set_condition};
use crate::context::{Engine, follow};

/// Starts the FHPA watch and the sync loop; runs until the engine goes.
pub(crate) fn start(engine: &Arc<Engine>) -> tokio::task::JoinHandle<()> {
    let wake = Arc::new(Notify::new());
    let w = wake.clone();
    // A new or edited FHPA is synced at once; the status writes of a sync are not changes.
    let (store, task) = follow(Api::<FederatedHPA>::all(engine.client.clone()), move |f: &FederatedHPA, deleted| {
        let observed = f.status.as_ref().and_then(|s| s.observed_generation);
        if !deleted && observed != f.metadata.generation {
            w.notify_one();
        }
    });
    engine.spawn(task);
    let weak = Arc::downgrade(engine);
    let period = engine.config.hpa.sync_period;
    tokio::spawn(async move {
        if store.wait_until_ready().await.is_err() {
            return;
        }
        let mut known = Known::default();
        loop {
            let Some(engine) = weak.upgrade() else { return };
            let all = store.state();
            known.keep(&all);
            for fhpa in all.iter().filter(|f| f.metadata.deletion_timestamp.is_none()) {
                reconcile(&engine, fhpa, &mut known).await;
            }
            drop(engine);
            let _ = tokio::time::timeout(period, wake.notified()).await;
        }
    })
}

/// What the controller remembers of each FHPA between syncs, by uid (one deleted and made
/// again under its name starts afresh, as in kube).
#[derive(Default)]
struct Known {
    histories: HashMap<String, History>,
    /// The selector each FHPA's target had at its last sync, with its namespace and name:
    /// kube's and upstream's `hpaSelectors`, to find pods two FHPAs would scale.
    selectors: Selectors,
}

impl Known {
    fn keep(&mut self, all: &[Arc<FederatedHPA>]) {
        let live = |uid: &String| all.iter().any(|f| f.uid().as_deref() == Some(uid.as_str()));
        self.histories.retain(|uid, _| live(uid));
        self.selectors.retain(|uid, _| live(uid));
    }
}

/// The scale-up and scale-down rules, the webhook's defaults filling what is left out.
fn rules(fhpa: &FederatedHPA, downscale_window: Duration) -> (Rules, Rules) {
    let behavior = fhpa.spec.behavior.as_ref();
    let up = merge(behavior.and_then(|b| b.scale_up.as_ref()), Rules::default_up());
    let down = merge(behavior.and_then(|b| b.scale_down.as_ref()), Rules::default_down(downscale_window));
    (up, down)
}

fn merge(given: Option<&HPAScalingRules>, mut rules: Rules) -> Rules {
    let Some(g) = given else { return rules };
    if let Some(w) = g.stabilization_window_seconds {
        rules.stabilization_window = Duration::from_secs(u64::try_from(w).unwrap_or(0));
    }
    rules.select = match g.select_policy.as_deref() {
        Some("Min") => Select::Min,
        Some("Disabled") => Select::Disabled,
        Some("Max") => Select::Max,
        _ => rules.select,
    };
    if let Some(policies) = g.policies.as_ref().filter(|p| !p.is_empty()) {
        rules.policies = policies
            .iter()
            .map(|p| Policy {
                pods: p.type_ == "Pods",
                value: p.value,
                period: Duration::from_secs(u64::try_from(p.period_seconds).unwrap_or(0)),
            })
            .collect();
    }
    rules
}

/// One sync of one FHPA (kube's `reconcileAutoscaler`).
async fn reconcile(engine: &Arc<Engine>, fhpa: &FederatedHPA, known: &mut Known) {
    let uid = fhpa.uid().unwrap_or_default();
    let mut history = known.histories.remove(&uid).unwrap_or_default();
    sync(engine, fhpa, &mut history, &mut known.selectors).await;
    known.histories.insert(uid, history);
}

/// The last selector of each FHPA's target, by the FHPA's uid: (namespace, name, selector).
type Selectors = HashMap<String, (String, String, LabelQuery)>;

/// The FHPAs (`namespace/name`, sorted) whose selectors match any of the pods.
fn selecting(selectors: &Selectors, namespace: &str, observed: &members::Observed) -> Vec<String> {
    let labels: Vec<_> = observed.labels().collect();
    let mut found: Vec<String> = selectors
        .values()
        .filter(|(ns, _, sel)| ns == namespace && labels.iter().any(|l| sel.matches(l)))
        .map(|(ns, name, _)| format!("{ns}/{name}"))
        .collect();
    found.sort();
    found
}

async fn sync(engine: &Arc<Engine>, fhpa: &FederatedHPA, history: &mut History, selectors: &mut Selectors) {
    let mut st: HorizontalPodAutoscalerStatus = fhpa.status.clone().unwrap_or_default();
    st.observed_generation = fhpa.metadata.generation;
    let target = match target::read_target(engine, fhpa).await {
        Ok(t) => t,
        Err(stop) => {
            let (reason, prefix, error) = &stop.condition;
            set_condition(&mut st, ABLE_TO_SCALE, false, reason, &format!("{prefix}: {error}"));
            status::event(engine, fhpa, true, stop.event.0, &stop.event.1).await;
            status::write(engine, fhpa, &st).await;
            return;
        }
    };
    set_condition(
        &mut st,
        ABLE_TO_SCALE,
        true,
        "SucceededGetScale",
        "the HPA controller was able to get the target's current scale",
    );
    let current = target.replicas;
    let now = Instant::now();
    history.start(current, now);
    let min = fhpa.spec.min_replicas.unwrap_or(1);
    let max = fhpa.spec.max_replicas;
    let mut statuses: Vec<MetricStatus> = Vec::new();
    let mut reason = String::new();
    let desired;
    let mut rescale = true;
    if current == 0 && min != 0 {
        desired = 0;
        rescale = false;
        set_condition(
            &mut st,
            SCALING_ACTIVE,
            false,
            "ScalingDisabled",
            "scaling is disabled since the replica count of the target is zero",
        );
    } else if current > max {
        reason = "Current number of replicas above Spec.MaxReplicas".into();
        desired = max;
    } else if current < min {
        reason = "Current number of replicas below Spec.MinReplicas".into();
        desired = min;
    } else {
        let Some(selector) = target.selector.as_deref() else {
            status::event(engine, fhpa, true, "SelectorRequired", "selector is required").await;
            set_condition(
                &mut st,
                SCALING_ACTIVE,
                false,
                "InvalidSelector",
                "the HPA target's scale is missing a selector",
            );
            st.current_replicas = Some(current);
            status::write(engine, fhpa, &st).await;
            return;
        };
        let namespace = fhpa.namespace().unwrap_or_default();
        let observed = members::observe(engine, &target.clusters, &namespace, selector).await;
        for (cluster, error) in &observed.failed {
            // Left out as upstream leaves it out, but said: its pods count as absent.
            let message = format!("cluster {cluster} left out of this sync: {error}");
            status::event(engine, fhpa, true, "FailedGetMemberPods", &message).await;
        }
        if let Ok(query) = LabelQuery::parse(selector) {
            selectors.insert(fhpa.uid().unwrap_or_default(), (namespace.clone(), fhpa.name_any(), query));
        }
        let selecting = selecting(selectors, &namespace, &observed);
        if selecting.len() > 1 {
            // Two FHPAs would fight over these pods: neither scales them (kube's rule).
            let message =
                format!("pods by selector {selector} are controlled by multiple HPAs: [{}]", selecting.join(" "));
            status::event(engine, fhpa, true, "AmbiguousSelector", &message).await;
            set_condition(&mut st, SCALING_ACTIVE, false, "AmbiguousSelector", &message);
            status::event(engine, fhpa, true, "FailedComputeMetricsReplicas", &message).await;
            st.current_replicas = Some(current);
            status::write(engine, fhpa, &st).await;
            return;
        }
        let calibration = if target.member_replicas > 0 && current > 0 {
            f64::from(target.member_replicas) / f64::from(current)
        } else {
            1.0
        };
        let cfg = &engine.config.hpa;
        let calc = Calculator {
            tolerance: cfg.tolerance,
            cpu_initialization_period: cfg.cpu_initialization_period,
            initial_readiness_delay: cfg.initial_readiness_delay,
            now: SystemTime::now(),
        };
        let mut best: Option<(i32, String)> = None;
        let mut invalid: Vec<metric::Invalid> = Vec::new();
        for spec in &fhpa.spec.metrics {
            match metric::compute_metric(&calc, spec, current, &observed, calibration) {
                Ok(c) => {
                    statuses.push(c.status);
                    if best.as_ref().is_none_or(|(r, _)| c.replicas > *r) {
                        best = Some((c.replicas, c.name));
                    }
                }
                Err(e) => {
                    status::event(engine, fhpa, true, e.reason, &e.error).await;
                    statuses.push(MetricStatus { type_: String::new(), ..Default::default() });
                    invalid.push(e);
                }
            }
        }
        let total = fhpa.spec.metrics.len();
        let metric_replicas = best.as_ref().map_or(0, |(r, _)| *r);
        if !invalid.is_empty() && (invalid.len() >= total || metric_replicas < current) {
            let first = &invalid[0];
            set_condition(
                &mut st,
                SCALING_ACTIVE,
                false,
                first.reason,
                &format!("the HPA was unable to compute the replica count: {}", first.error),
            );
            let message =
                format!("invalid metrics ({} invalid out of {total}), first error is: {}", invalid.len(), first.error);
            status::event(engine, fhpa, true, "FailedComputeMetricsReplicas", &message).await;
            st.current_replicas = Some(current);
            st.current_metrics = metric::non_empty(statuses);
            status::write(engine, fhpa, &st).await;
            return;
        }
        let (metric_replicas, metric_name) = best.unwrap_or((0, String::new()));
        set_condition(
            &mut st,
            SCALING_ACTIVE,
            true,
            "ValidMetricFound",
            &format!("the HPA was able to successfully calculate a replica count from {metric_name}"),
        );
        let mut wanted = metric_replicas;
        if wanted > current {
            reason = format!("{metric_name} above target");
        } else if wanted < current {
            reason = "All metrics below target".into();
        }
        wanted = wanted.max(0);
        let (up, down) = rules(fhpa, cfg.downscale_stabilization);
        let n = history.normalize(&up, &down, Bounds { min, max, current }, wanted, now);
        set_condition(&mut st, ABLE_TO_SCALE, true, n.able.0, n.able.1);
        set_condition(&mut st, SCALING_LIMITED, n.limited.0, n.limited.1, n.limited.2);
        desired = n.replicas;
        rescale = desired != current;
    }
    if rescale {
        match target::scale(&target, desired).await {
            Ok(()) => {
                set_condition(
                    &mut st,
                    ABLE_TO_SCALE,
                    true,
                    "SucceededRescale",
                    &format!("the HPA controller was able to update the target scale to {desired}"),
                );
                status::event(
                    engine,
                    fhpa,
                    false,
                    "SuccessfulRescale",
                    &format!("New size: {desired}; reason: {reason}"),
                )
                .await;
                let (up, down) = rules(fhpa, engine.config.hpa.downscale_stabilization);
                history.record_scale(&up, &down, current, desired, now);
                st.last_scale_time = Some(Time(jiff::Timestamp::now()));
            }
            Err(e) => {
                status::event(
                    engine,
                    fhpa,
                    true,
                    "FailedRescale",
                    &format!("New size: {desired}; reason: {reason}; error: {e}"),
                )
                .await;
                set_condition(
                    &mut st,
                    ABLE_TO_SCALE,
                    false,
                    "FailedUpdateScale",
                    &format!("the HPA controller was unable to update the target scale: {e}"),
                );
                st.current_replicas = Some(current);
                st.current_metrics = metric::non_empty(statuses);
                status::write(engine, fhpa, &st).await;
                return;
            }
        }
    }
    st.current_replicas = Some(current);
    st.desired_replicas = if rescale { desired } else { current };
    st.current_metrics = metric::non_empty(statuses);
    status::write(engine, fhpa, &st).await;
}
