//! FederatedHPA: kube's HorizontalPodAutoscaler for a template in the plane, fed by the metrics
//! of the template's pods in every member it is scheduled to. Spec and status are kube's
//! `autoscaling/v2` ones (upstream embeds them), so the k8s-openapi types are reused.

use k8s_openapi::api::autoscaling::v2::{
    CrossVersionObjectReference, HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerStatus, MetricSpec,
};
use kube_derive::CustomResource;
use serde::{Deserialize, Serialize};

/// The group of FederatedHPA.
pub const GROUP: &str = "autoscaling.karmada.io";
/// The kind.
pub const KIND: &str = "FederatedHPA";
/// Upstream's default target when an FHPA names no metric: 80 % of the CPU request.
pub const DEFAULT_CPU_UTILIZATION: i32 = 80;

/// What to scale, between which bounds, on which metrics and how fast.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[kube(
    group = "autoscaling.karmada.io",
    version = "v1alpha1",
    kind = "FederatedHPA",
    plural = "federatedhpas",
    namespaced,
    status = "HorizontalPodAutoscalerStatus",
    derive = "PartialEq",
    schema = "disabled"
)]
#[serde(rename_all = "camelCase")]
pub struct FederatedHPASpec {
    /// The template scaled: a Deployment or StatefulSet (anything with `spec.replicas`) in
    /// the FHPA's namespace.
    pub scale_target_ref: CrossVersionObjectReference,
    /// The lower bound (upstream's webhook defaults it to 1; scale to zero is not supported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_replicas: Option<i32>,
    /// The upper bound.
    pub max_replicas: i32,
    /// What to scale on; the webhook defaults it to 80 % CPU.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricSpec>,
    /// How fast to scale each way; the webhook fills what is left out with kube's defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behavior: Option<HorizontalPodAutoscalerBehavior>,
}
