//! Talking to a cluster for init and deinit: server-side apply of rendered objects (field
//! manager `karmadactl`, so a second run converges), waiting for workloads the way upstream
//! does, and explaining a workload that did not become ready.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Event, Pod};
use kube::api::{Api, ApiResource, DynamicObject, ListParams, Patch, PatchParams};
use kube::{Client, ResourceExt};
use serde_json::Value;

/// The field manager of everything init writes.
pub const FIELD_MANAGER: &str = "karmadactl";

/// Errors talking to a cluster; each names the object.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    #[error("cannot apply {object}: {source}")]
    Apply {
        object: String,
        #[source]
        source: kube::Error,
    },
    #[error("cannot read {what}: {source}")]
    Read {
        what: String,
        #[source]
        source: kube::Error,
    },
    #[error("{object} has a kind init does not know how to apply")]
    UnknownKind { object: String },
}

/// The API resource of the kinds init and deinit handle.
pub fn api_resource(api_version: &str, kind: &str) -> Option<(ApiResource, bool)> {
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let (plural, namespaced) = match kind {
        "Namespace" => ("namespaces", false),
        "Secret" => ("secrets", true),
        "Service" => ("services", true),
        "ConfigMap" => ("configmaps", true),
        "Deployment" => ("deployments", true),
        "StatefulSet" => ("statefulsets", true),
        "Job" => ("jobs", true),
        "PersistentVolumeClaim" => ("persistentvolumeclaims", true),
        "CustomResourceDefinition" => ("customresourcedefinitions", false),
        "MutatingWebhookConfiguration" => ("mutatingwebhookconfigurations", false),
        "ValidatingWebhookConfiguration" => ("validatingwebhookconfigurations", false),
        "APIService" => ("apiservices", false),
        "ClusterRole" => ("clusterroles", false),
        "ClusterRoleBinding" => ("clusterrolebindings", false),
        "Role" => ("roles", true),
        "RoleBinding" => ("rolebindings", true),
        _ => return None,
    };
    let ar = ApiResource {
        group: group.into(),
        version: version.into(),
        api_version: api_version.into(),
        kind: kind.into(),
        plural: plural.into(),
    };
    Some((ar, namespaced))
}

/// A dynamic API handle for `obj`'s kind and namespace.
pub fn api_for(client: &Client, obj: &Value) -> Result<Api<DynamicObject>, ApplyError> {
    let api_version = obj["apiVersion"].as_str().unwrap_or_default();
    let kind = obj["kind"].as_str().unwrap_or_default();
    let (ar, namespaced) = api_resource(api_version, kind)
        .ok_or_else(|| ApplyError::UnknownKind { object: super::plan::object_line(obj) })?;
    Ok(match (namespaced, obj["metadata"]["namespace"].as_str()) {
        (true, Some(ns)) => Api::namespaced_with(client.clone(), ns, &ar),
        _ => Api::all_with(client.clone(), &ar),
    })
}

/// Server-side applies `obj` (forcing, so init owns its fields even after a manual edit).
pub async fn apply(client: &Client, obj: &Value) -> Result<(), ApplyError> {
    let api = api_for(client, obj)?;
    let name = obj["metadata"]["name"].as_str().unwrap_or_default();
    let params = PatchParams::apply(FIELD_MANAGER).force();
    api.patch(name, &params, &Patch::Apply(obj))
        .await
        .map_err(|source| ApplyError::Apply { object: super::plan::object_line(obj), source })?;
    Ok(())
}

/// Upstream's readiness rule for a Deployment or StatefulSet: the controller has seen the
/// latest generation, every replica is updated, and the updated ones are available (ready for
/// a StatefulSet).
pub fn workload_ready(obj: &Value) -> bool {
    let status = &obj["status"];
    let int = |v: &Value| v.as_i64().unwrap_or(0);
    let wanted = obj["spec"]["replicas"].as_i64().unwrap_or(1);
    let available = if obj["kind"] == "StatefulSet" { &status["readyReplicas"] } else { &status["availableReplicas"] };
    int(&status["observedGeneration"]) >= int(&obj["metadata"]["generation"])
        && int(&status["updatedReplicas"]) >= wanted
        && int(available) >= int(&status["updatedReplicas"])
}

/// Polls every second until `obj`'s workload is ready; `false` on timeout (`None` waits forever).
pub async fn wait_ready(client: &Client, obj: &Value, timeout: Option<Duration>) -> Result<bool, ApplyError> {
    let api = api_for(client, obj)?;
    let name = obj["metadata"]["name"].as_str().unwrap_or_default();
    let start = Instant::now();
    loop {
        let current = api
            .get_opt(name)
            .await
            .map_err(|source| ApplyError::Read { what: super::plan::object_line(obj), source })?;
        if let Some(current) = current {
            let value = serde_json::to_value(&current).unwrap_or_default();
            if workload_ready(&value) {
                return Ok(true);
            }
        }
        if timeout.is_some_and(|t| start.elapsed() >= t) {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Why a workload is not ready: its first pod that is not ready, with its phase and last
/// events, or that it has no pods at all.
pub async fn explain_not_ready(client: &Client, namespace: &str, app: &str) -> String {
    let pods: Api<Pod> = Api::namespaced(client.clone(), namespace);
    let list = match pods.list(&ListParams::default().labels(&format!("app={app}"))).await {
        Ok(l) => l,
        Err(e) => return format!("its pods could not be listed: {e}"),
    };
    let ready = |p: &Pod| {
        p.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
    };
    let Some(pod) = list.items.iter().find(|p| !ready(p)) else {
        return if list.items.is_empty() {
            format!("no pod with label app={app} exists in namespace {namespace}")
        } else {
            "its pods are ready but the workload's status has not caught up".into()
        };
    };
    let name = pod.name_any();
    let phase = pod.status.as_ref().and_then(|s| s.phase.clone()).unwrap_or_else(|| "Unknown".into());
    let mut text = format!("pod {namespace}/{name} is {phase} and not ready");
    let events: Api<Event> = Api::namespaced(client.clone(), namespace);
    let params = ListParams::default().fields(&format!("involvedObject.name={name}"));
    if let Ok(mut list) = events.list(&params).await {
        list.items.sort_by_key(|e| e.last_timestamp.clone().map(|t| t.0));
        let last: Vec<String> = list
            .items
            .iter()
            .rev()
            .take(5)
            .rev()
            .map(|e| {
                format!(
                    "  {} {}: {}",
                    e.type_.clone().unwrap_or_default(),
                    e.reason.clone().unwrap_or_default(),
                    e.message.clone().unwrap_or_default()
                )
            })
            .collect();
        if last.is_empty() {
            text.push_str("; it has no events");
        } else {
            text.push_str("; its last events:\n");
            text.push_str(&last.join("\n"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment(generation: i64, status: Value) -> Value {
        json!({"kind": "Deployment", "metadata": {"generation": generation}, "spec": {"replicas": 2}, "status": status})
    }

    #[test]
    fn ready_means_observed_updated_and_available() {
        let ready = json!({"observedGeneration": 3, "updatedReplicas": 2, "availableReplicas": 2});
        assert!(workload_ready(&deployment(3, ready.clone())));
        assert!(!workload_ready(&deployment(4, ready)), "a newer generation is not observed yet");
        let rolling = json!({"observedGeneration": 3, "updatedReplicas": 1, "availableReplicas": 2});
        assert!(!workload_ready(&deployment(3, rolling)));
        let unavailable = json!({"observedGeneration": 3, "updatedReplicas": 2, "availableReplicas": 1});
        assert!(!workload_ready(&deployment(3, unavailable)));
        let sts = json!({"kind": "StatefulSet", "metadata": {"generation": 1}, "spec": {"replicas": 1},
                         "status": {"observedGeneration": 1, "updatedReplicas": 1, "readyReplicas": 1}});
        assert!(workload_ready(&sts), "a StatefulSet counts ready replicas");
    }

    #[test]
    fn every_rendered_kind_has_a_resource() {
        for (v, k) in [("v1", "Secret"), ("apps/v1", "StatefulSet"), ("apiregistration.k8s.io/v1", "APIService")] {
            let (ar, _) = api_resource(v, k).unwrap();
            assert_eq!(ar.api_version, v);
        }
        assert!(api_resource("v1", "Pod").is_none());
    }
}
