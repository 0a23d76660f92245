//! One execution of a rule (upstream's `ScalingJob`): set the workload template's replicas
//! through its scale subresource, or merge-patch a FederatedHPA's `minReplicas` and
//! `maxReplicas`; nothing is written when the target already has what the rule sets. The
//! result is an error message for the failed history and the Warning event.

use karmadactl_karmada_api::autoscaling::cron_federated_hpa::{
    API_VERSION, CronFederatedHPA, CronFederatedHPARule, FEDERATED_HPA_KIND,
};
use kube::ResourceExt;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams};
use serde_json::{Map, Value, json};

use crate::context::Engine;

/// Tries at a write that keeps meeting a newer object (client-go's `DefaultRetry`).
const CONFLICT_ATTEMPTS: usize = 5;

/// Applies `rule` to the object's scale target.
pub async fn apply(engine: &Engine, cron: &CronFederatedHPA, rule: &CronFederatedHPARule) -> Result<(), String> {
    let target = &cron.spec.scale_target_ref;
    let namespace = cron.namespace().unwrap_or_default();
    if target.api_version == API_VERSION {
        if target.kind != FEDERATED_HPA_KIND {
            return Err(format!(
                "CronFederatedHPA({namespace}/{}) do not support scale target {}/{}",
                cron.name_any(),
                target.api_version,
                target.kind
            ));
        }
        // A FederatedHPA that changed between the read and the write is read again.
        let mut attempt = 0;
        return loop {
            attempt += 1;
            match scale_federated_hpa(engine, &namespace, &target.name, rule).await {
                Err(kube::Error::Api(e)) if e.code == 409 && attempt < CONFLICT_ATTEMPTS => continue,
                done => break done.map_err(message),
            }
        };
    }
    let Some(replicas) = rule.target_replicas else {
        return Err(format!("targetReplicas cannot be nil if you want to scale {}", target.kind));
    };
    scale_workload(engine, &namespace, &target.api_version, &target.kind, &target.name, replicas).await
}

/// The API's own words for a failure (`deployments.apps "web" not found`), as upstream records
/// `err.Error()`.
fn message(e: kube::Error) -> String {
    match e {
        kube::Error::Api(s) => s.message,
        other => other.to_string(),
    }
}

/// Sets `spec.minReplicas`/`spec.maxReplicas` where the rule names them and they differ. The
/// FederatedHPA is read and patched as JSON: only these two fields matter here.
async fn scale_federated_hpa(
    engine: &Engine,
    namespace: &str,
    name: &str,
    rule: &CronFederatedHPARule,
) -> Result<(), kube::Error> {
    let gvk = GroupVersionKind::gvk("autoscaling.karmada.io", "v1alpha1", FEDERATED_HPA_KIND);
    let resource = ApiResource::from_gvk_with_plural(&gvk, "federatedhpas");
    let api: Api<DynamicObject> = Api::namespaced_with(engine.client.clone(), namespace, &resource);
    let fhpa = api.get(name).await?;
    let spec = &fhpa.data["spec"];
    let mut patch = Map::new();
    for (field, want) in [("minReplicas", rule.target_min_replicas), ("maxReplicas", rule.target_max_replicas)] {
        if let Some(want) = want
            && spec[field].as_i64() != Some(i64::from(want))
        {
            patch.insert(field.into(), json!(want));
        }
    }
    if patch.is_empty() {
        return Ok(());
    }
    // The resourceVersion read makes the patch fail with a conflict if the FederatedHPA
    // changed in between, as upstream's read-then-update does.
    let body = json!({"metadata": {"resourceVersion": fhpa.resource_version()}, "spec": Value::Object(patch)});
    api.patch(name, &PatchParams::default(), &Patch::Merge(body)).await.map(drop)
}

/// Sets a workload's replicas through its scale subresource when they differ.
async fn scale_workload(
    engine: &Engine,
    namespace: &str,
    api_version: &str,
    kind: &str,
    name: &str,
    replicas: i32,
) -> Result<(), String> {
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    let gvk = GroupVersionKind::gvk(group, version, kind);
    let (resource, _) = kube::discovery::pinned_kind(&engine.client, &gvk).await.map_err(|e| match e {
        kube::Error::Discovery(_) => format!("no matches for kind \"{kind}\" in version \"{api_version}\""),
        other => message(other),
    })?;
    let api: Api<DynamicObject> = Api::namespaced_with(engine.client.clone(), namespace, &resource);
    let scale = api.get_scale(name).await.map_err(message)?;
    if scale.spec.and_then(|s| s.replicas) == Some(replicas) {
        return Ok(());
    }
    let body = json!({"spec": {"replicas": replicas}});
    api.patch_scale(name, &PatchParams::default(), &Patch::Merge(&body)).await.map(drop).map_err(message)
}
