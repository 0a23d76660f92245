//! The FederatedHPA controller (upstream's `pkg/controllers/federatedhpa`, itself kube's
//! podautoscaler adapted): every sync period each FederatedHPA's scale target (a template in
//! the plane) is read, the pods of the members its ResourceBinding schedules it to and their
//! `metrics.k8s.io` samples are gathered ([`members`]), the replica calculator turns each
//! Resource or ContainerResource metric into a count ([`calculator`]), the behavior's
//! windows and policies temper it ([`behavior`]), and the template's `spec.replicas` is
//! written; the scheduler then divides the new count among the members. Status and events
//! are kube's ([`status`]).
//!
//! Pods, Object and External metrics need custom metrics from the members, which the plane
//! does not aggregate: such a metric is reported invalid in the ScalingActive condition, as
//! kube reports a metric it cannot read, never skipped silently.

mod behavior;
mod calculator;
mod members;
mod status;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use k8s_openapi::api::autoscaling::v2::{
    ContainerResourceMetricStatus, HPAScalingRules, HorizontalPodAutoscalerStatus, MetricSpec, MetricStatus,
    MetricValueStatus, ResourceMetricStatus,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, Time};
use karmadactl_karmada_api::autoscaling::federated_hpa::FederatedHPA;
use karmadactl_karmada_api::cluster::Cluster;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, GroupVersionKind, Patch, PatchParams};
use kube::runtime::reflector::ObjectRef;
use serde_json::json;
use tokio::sync::Notify;

use self::behavior::{Bounds, History, Policy, Rules, Select};
use self::calculator::{Calculator, Target};
use self::members::Resource;
use self::status::{ABLE_TO_SCALE, SCALING_ACTIVE, SCALING_LIMITED, set_condition};
use crate::context::{Engine, follow};
use crate::names;

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
        // By uid: a FederatedHPA deleted and made again starts afresh, as in kube.
        let mut histories: HashMap<String, History> = HashMap::new();
        loop {
            let Some(engine) = weak.upgrade() else { return };
            let all = store.state();
            histories.retain(|uid, _| all.iter().any(|f| f.uid().as_deref() == Some(uid.as_str())));
            for fhpa in all.iter().filter(|f| f.metadata.deletion_timestamp.is_none()) {
                reconcile(&engine, fhpa, histories.entry(fhpa.uid().unwrap_or_default()).or_default()).await;
            }
            drop(engine);
            let _ = tokio::time::timeout(period, wake.notified()).await;
        }
    })
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

/// What a sync found wrong before any metric was computed: the condition to set and the
/// event to record.
struct Stop {
    condition: (&'static str, &'static str, String),
    event: (&'static str, String),
}

/// The target, its binding's ready clusters and the replicas they run.
struct ScaleTarget {
    object: DynamicObject,
    /// Where the target is written.
    api: Api<DynamicObject>,
    replicas: i32,
    selector: Option<String>,
    clusters: Vec<String>,
    member_replicas: i32,
}

async fn read_target(engine: &Engine, fhpa: &FederatedHPA) -> Result<ScaleTarget, Stop> {
    let namespace = fhpa.namespace().unwrap_or_default();
    let r = &fhpa.spec.scale_target_ref;
    let api_version = r.api_version.clone().unwrap_or_default();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", &api_version));
    let scale_stop = |e: String| Stop {
        condition: ("FailedGetScale", "the HPA controller was unable to get the target's current scale", e.clone()),
        event: ("FailedGetScale", e),
    };
    let gvk = GroupVersionKind::gvk(group, version, &r.kind);
    let (resource, _) = kube::discovery::pinned_kind(&engine.client, &gvk)
        .await
        .map_err(|e| scale_stop(format!("unable to determine resource for scale target reference: {e}")))?;
    let api: Api<DynamicObject> = Api::namespaced_with(engine.client.clone(), &namespace, &resource);
    let object = api.get(&r.name).await.map_err(|e| {
        let e = match e {
            kube::Error::Api(s) => s.message,
            other => other.to_string(),
        };
        Stop {
            condition: (
                "FailedGetScaleTargetRef",
                "the HPA controller was unable to get the target reference object",
                e.clone(),
            ),
            event: ("FailedGetScaleTargetRef", e),
        }
    })?;
    let binding_name = names::binding_name(&r.kind, &r.name);
    let binding = engine.caches.bindings.get(&ObjectRef::new(&binding_name).within(&namespace)).ok_or_else(|| {
        let e = format!("resourcebindings.work.karmada.io \"{binding_name}\" not found");
        Stop {
            condition: (
                "FailedGetBinding",
                "the HPA controller was unable to get the binding by scaleTargetRef",
                e.clone(),
            ),
            event: ("FailedGetBindings", e),
        }
    })?;
    let scheduled = binding.spec.clusters.clone().unwrap_or_default();
    if scheduled.is_empty() {
        let e = "binding has no schedulable clusters".to_string();
        return Err(Stop {
            condition: (
                "FailedGetTargetClusters",
                "the HPA controller was unable to get the target clusters from binding",
                e.clone(),
            ),
            event: ("FailedGetTargetClusters", e),
        });
    }
    let clusters_state = engine.caches.clusters.state();
    let ready = |name: &str| clusters_state.iter().find(|c| c.name_any() == name).is_some_and(|c| cluster_ready(c));
    let clusters: Vec<String> = scheduled.iter().filter(|c| ready(&c.name)).map(|c| c.name.clone()).collect();
    let member_replicas = scheduled.iter().filter(|c| ready(&c.name)).map(|c| c.replicas.unwrap_or(0)).sum();
    let replicas = object.data["spec"]["replicas"].as_i64().map_or(1, |r| i32::try_from(r).unwrap_or(i32::MAX));
    let selector = serde_json::from_value::<LabelSelector>(object.data["spec"]["selector"].clone())
        .ok()
        .and_then(|s| members::selector_query(&s));
    Ok(ScaleTarget { object, api, replicas, selector, clusters, member_replicas })
}

fn cluster_ready(c: &Cluster) -> bool {
    c.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .into_iter()
        .flatten()
        .any(|c| c.type_ == "Ready" && c.status == "True")
}

/// One metric's outcome.
struct Computed {
    replicas: i32,
    name: String,
    status: MetricStatus,
}

/// One metric that could not be computed: the ScalingActive reason and the error.
struct Invalid {
    reason: &'static str,
    error: String,
}

fn compute_metric(
    calc: &Calculator,
    spec: &MetricSpec,
    current: i32,
    observed: &members::Observed,
    calibration: f64,
) -> Result<Computed, Invalid> {
    let (resource, target, container_source) = match spec.type_.as_str() {
        "Resource" => {
            let Some(r) = &spec.resource else { return Err(invalid_spec("Resource")) };
            (Resource { name: r.name.clone(), container: None }, &r.target, false)
        }
        "ContainerResource" => {
            let Some(r) = &spec.container_resource else { return Err(invalid_spec("ContainerResource")) };
            (Resource { name: r.name.clone(), container: Some(r.container.clone()) }, &r.target, true)
        }
        other => {
            let reason = match other {
                "Pods" => "FailedGetPodsMetric",
                "Object" => "FailedGetObjectMetric",
                "External" => "FailedGetExternalMetric",
                _ => "InvalidMetricSourceType",
            };
            return Err(Invalid {
                reason,
                error: format!(
                    "{other} metrics are not supported: they need custom or external metrics, which this control plane does not collect from members"
                ),
            });
        }
    };
    let goal = match (target.type_.as_str(), target.average_utilization, &target.average_value) {
        ("Utilization", Some(u), _) => Target::Utilization(u),
        ("AverageValue", _, Some(v)) => {
            let q = karmadactl_apimachinery::quantity::Quantity::parse(&v.0).map_err(|e| Invalid {
                reason: failed_get(container_source),
                error: format!("invalid target averageValue {}: {e}", v.0),
            })?;
            Target::AverageValue(i64::try_from(q.millis()).unwrap_or(i64::MAX))
        }
        _ => {
            return Err(Invalid {
                reason: failed_get(container_source),
                error: "invalid resource metric source: neither a utilization target nor a value target was set".into(),
            });
        }
    };
    let proposal = calc
        .resource_replicas(
            current,
            goal,
            resource.name == "cpu",
            &observed.pods(&resource),
            observed.samples(&resource),
            calibration,
        )
        .map_err(|e| Invalid {
            reason: failed_get(container_source),
            error: format!(
                "failed to get {} utilization: unable to get metrics for resource {}: {e}",
                resource.name, resource.name
            ),
        })?;
    let current_value = MetricValueStatus {
        average_utilization: proposal.utilization,
        average_value: Some(Quantity(milli_quantity(proposal.average))),
        value: None,
    };
    let describe = if container_source { "container resource" } else { "resource" };
    let name = match goal {
        Target::Utilization(_) => format!("{} {describe} utilization (percentage of request)", resource.name),
        Target::AverageValue(_) => format!("{} {describe}", resource.name),
    };
    let status = if let Some(container) = resource.container {
        MetricStatus {
            type_: "ContainerResource".into(),
            container_resource: Some(ContainerResourceMetricStatus {
                name: resource.name,
                container,
                current: current_value,
            }),
            ..Default::default()
        }
    } else {
        MetricStatus {
            type_: "Resource".into(),
            resource: Some(ResourceMetricStatus { name: resource.name, current: current_value }),
            ..Default::default()
        }
    };
    Ok(Computed { replicas: proposal.replicas, name, status })
}

fn failed_get(container: bool) -> &'static str {
    if container { "FailedGetContainerResourceMetric" } else { "FailedGetResourceMetric" }
}

fn invalid_spec(kind: &str) -> Invalid {
    Invalid { reason: "InvalidMetricSourceType", error: format!("the {kind} metric source is not set") }
}

/// Milli-units as a canonical quantity (kube's `NewMilliQuantity(v, DecimalSI)`).
fn milli_quantity(m: i64) -> String {
    if m % 1000 == 0 { (m / 1000).to_string() } else { format!("{m}m") }
}

/// One sync of one FHPA (kube's `reconcileAutoscaler`).
async fn reconcile(engine: &Arc<Engine>, fhpa: &FederatedHPA, history: &mut History) {
    let mut st: HorizontalPodAutoscalerStatus = fhpa.status.clone().unwrap_or_default();
    st.observed_generation = fhpa.metadata.generation;
    let target = match read_target(engine, fhpa).await {
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
        let observed =
            members::observe(engine, &target.clusters, &fhpa.namespace().unwrap_or_default(), selector).await;
        for (cluster, error) in &observed.failed {
            // Left out as upstream leaves it out, but said: its pods count as absent.
            let message = format!("cluster {cluster} left out of this sync: {error}");
            status::event(engine, fhpa, true, "FailedGetMemberPods", &message).await;
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
        let mut invalid: Vec<Invalid> = Vec::new();
        for spec in &fhpa.spec.metrics {
            match compute_metric(&calc, spec, current, &observed, calibration) {
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
            st.current_metrics = non_empty(statuses);
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
        match scale(&target, desired).await {
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
                st.current_metrics = non_empty(statuses);
                status::write(engine, fhpa, &st).await;
                return;
            }
        }
    }
    st.current_replicas = Some(current);
    st.desired_replicas = if rescale { desired } else { current };
    st.current_metrics = non_empty(statuses);
    status::write(engine, fhpa, &st).await;
}

fn non_empty(statuses: Vec<MetricStatus>) -> Option<Vec<MetricStatus>> {
    let kept: Vec<MetricStatus> = statuses.into_iter().filter(|s| !s.type_.is_empty()).collect();
    (!kept.is_empty()).then_some(kept)
}

/// Writes the template's `spec.replicas`, guarded by the version read, as the scale
/// subresource's update is.
async fn scale(target: &ScaleTarget, replicas: i32) -> Result<(), String> {
    let object = &target.object;
    let patch = json!({"metadata": {"resourceVersion": object.resource_version()}, "spec": {"replicas": replicas}});
    target.api.patch(&object.name_any(), &PatchParams::default(), &Patch::Merge(patch)).await.map(drop).map_err(|e| {
        match e {
            kube::Error::Api(s) => s.message,
            other => other.to_string(),
        }
    })
}
