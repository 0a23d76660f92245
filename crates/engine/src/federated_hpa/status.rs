//! The FederatedHPA's status as kube's HPA controller keeps it: conditions that keep their
//! transition time while their status stays, the replicas and metrics of the last sync, and
//! the events upstream records, on the FHPA.

use k8s_openapi::api::autoscaling::v2::{HorizontalPodAutoscalerCondition, HorizontalPodAutoscalerStatus};
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_karmada_api::autoscaling::federated_hpa::FederatedHPA;
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams};
use serde_json::{Value, json};

use crate::context::Engine;
use crate::events;

/// The component named on the events, as upstream's controller names itself.
const COMPONENT: &str = "federatedHPA-controller";

pub const ABLE_TO_SCALE: &str = "AbleToScale";
pub const SCALING_ACTIVE: &str = "ScalingActive";
pub const SCALING_LIMITED: &str = "ScalingLimited";

/// kube's `setCondition`: a condition's transition time moves only when its status changes.
pub fn set_condition(status: &mut HorizontalPodAutoscalerStatus, type_: &str, ok: bool, reason: &str, message: &str) {
    let value = if ok { "True" } else { "False" };
    let conditions = status.conditions.get_or_insert_with(Vec::new);
    let now = Time(jiff::Timestamp::now());
    match conditions.iter_mut().find(|c| c.type_ == type_) {
        Some(c) => {
            if c.status != value {
                c.last_transition_time = Some(now);
            }
            c.status = value.into();
            c.reason = Some(reason.into());
            c.message = Some(message.into());
        }
        None => conditions.push(HorizontalPodAutoscalerCondition {
            type_: type_.into(),
            status: value.into(),
            reason: Some(reason.into()),
            message: Some(message.into()),
            last_transition_time: Some(now),
        }),
    }
}

/// Writes the status when it differs from what the FHPA holds.
pub async fn write(engine: &Engine, fhpa: &FederatedHPA, status: &HorizontalPodAutoscalerStatus) {
    if fhpa.status.as_ref() == Some(status) {
        return;
    }
    let mut value = serde_json::to_value(status).unwrap_or_default();
    // A merge patch keeps what it does not mention: metrics gone must be said to be gone.
    if status.current_metrics.is_none() {
        value["currentMetrics"] = Value::Null;
    }
    let api: Api<FederatedHPA> = Api::namespaced(engine.client.clone(), &fhpa.namespace().unwrap_or_default());
    let patch = Patch::Merge(json!({"status": value}));
    if let Err(e) = api.patch_status(&fhpa.name_any(), &PatchParams::default(), &patch).await {
        tracing::debug!(fhpa = %fhpa.name_any(), error = %e, "could not write the FederatedHPA's status");
    }
}

/// An event on the FHPA.
pub async fn event(engine: &Engine, fhpa: &FederatedHPA, warning: bool, reason: &str, message: &str) {
    let target = ObjectReference {
        api_version: Some("autoscaling.karmada.io/v1alpha1".into()),
        kind: Some("FederatedHPA".into()),
        name: Some(fhpa.name_any()),
        namespace: fhpa.namespace(),
        uid: fhpa.uid(),
        ..Default::default()
    };
    let type_ = if warning { events::WARNING } else { events::NORMAL };
    events::record(engine, target, type_, COMPONENT, reason, message).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_keeps_its_transition_time_while_its_status_stays() {
        let mut s = HorizontalPodAutoscalerStatus::default();
        set_condition(&mut s, ABLE_TO_SCALE, true, "SucceededGetScale", "got it");
        // Dated long ago, so a change of time is seen without waiting.
        let first = Some(Time(jiff::Timestamp::UNIX_EPOCH));
        s.conditions.as_mut().unwrap()[0].last_transition_time = first.clone();
        set_condition(&mut s, ABLE_TO_SCALE, true, "ReadyForNewScale", "same status");
        let c = &s.conditions.as_ref().unwrap()[0];
        assert_eq!((c.last_transition_time.clone(), c.reason.as_deref()), (first.clone(), Some("ReadyForNewScale")));
        set_condition(&mut s, ABLE_TO_SCALE, false, "FailedUpdateScale", "now false");
        let c = &s.conditions.as_ref().unwrap()[0];
        assert_ne!(c.last_transition_time, first);
        set_condition(&mut s, SCALING_ACTIVE, true, "ValidMetricFound", "m");
        assert_eq!(s.conditions.as_ref().unwrap().len(), 2);
    }
}
