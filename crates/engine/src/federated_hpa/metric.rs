//! One metric of an FHPA turned into a replica proposal and its `currentMetrics` entry:
//! Resource and ContainerResource metrics through the [`super::calculator`]; the kinds that
//! need custom or external metrics are refused with kube's reason for a metric it cannot read.

use k8s_openapi::api::autoscaling::v2::{
    ContainerResourceMetricStatus, MetricSpec, MetricStatus, MetricValueStatus, ResourceMetricStatus,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

use super::calculator::{Calculator, Target};
use super::members::{self, Resource};

/// One metric's outcome.
pub struct Computed {
    pub replicas: i32,
    pub name: String,
    pub status: MetricStatus,
}

/// One metric that could not be computed: the ScalingActive reason and the error.
pub struct Invalid {
    pub reason: &'static str,
    pub error: String,
}

pub fn compute_metric(
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

pub fn non_empty(statuses: Vec<MetricStatus>) -> Option<Vec<MetricStatus>> {
    let kept: Vec<MetricStatus> = statuses.into_iter().filter(|s| !s.type_.is_empty()).collect();
    (!kept.is_empty()).then_some(kept)
}
