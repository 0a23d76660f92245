//! The default resource interpreter for built-in workload kinds (upstream's
//! `pkg/resourceinterpreter/default/native`): how many replicas a template asks for and what
//! each needs, how a cluster's share is written back into the manifest, which status fields
//! are reflected from members, and how they add up on the template.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use serde_json::{Map, Value, json};

use karmadactl_apimachinery::quantity;
use karmadactl_karmada_api::work::replicas::{NodeClaim, ReplicaRequirements};

/// Where a kind keeps its replicas and pod template.
fn replica_paths(api_version: &str, kind: &str) -> Option<(&'static str, &'static [&'static str])> {
    match (api_version, kind) {
        ("apps/v1", "Deployment" | "StatefulSet" | "ReplicaSet") => Some(("replicas", &["template", "spec"])),
        ("batch/v1", "Job") => Some(("parallelism", &["template", "spec"])),
        _ => None,
    }
}

/// The template's replicas (0 when the kind has none) and what one replica needs, from its
/// kind, `spec` and namespace (the parts it needs, so the template is not copied whole).
pub fn replicas_and_requirements(
    api_version: &str,
    kind: &str,
    spec: &Value,
    namespace: Option<&str>,
) -> (i32, Option<ReplicaRequirements>) {
    let Some((field, template_path)) = replica_paths(api_version, kind) else {
        return (0, None);
    };
    let replicas = spec[field].as_i64().map_or(1, |r| r.clamp(0, i64::from(i32::MAX)) as i32);
    let mut pod_spec = spec;
    for part in template_path {
        pod_spec = &pod_spec[*part];
    }
    (replicas, requirements(pod_spec, namespace))
}

/// Per-replica requests: the containers' requests summed, or the largest init container's
/// when that is larger, as the Kubernetes scheduler counts them.
fn requirements(pod_spec: &Value, namespace: Option<&str>) -> Option<ReplicaRequirements> {
    let mut total: BTreeMap<String, quantity::Quantity> = BTreeMap::new();
    for c in pod_spec["containers"].as_array().into_iter().flatten() {
        for (name, q) in requests(c) {
            let sum = match total.get(&name) {
                Some(t) => t.plus(q),
                None => q,
            };
            total.insert(name, sum);
        }
    }
    for c in pod_spec["initContainers"].as_array().into_iter().flatten() {
        for (name, q) in requests(c) {
            if total.get(&name).is_none_or(|t| q.millis() > t.millis()) {
                total.insert(name, q);
            }
        }
    }
    let node_selector: Option<BTreeMap<String, String>> =
        pod_spec.get("nodeSelector").and_then(|v| serde_json::from_value(v.clone()).ok());
    let tolerations = pod_spec.get("tolerations").and_then(|v| serde_json::from_value(v.clone()).ok());
    let hard_node_affinity = pod_spec
        .pointer("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution")
        .and_then(|v| serde_json::from_value(v.clone()).ok());
    let node_claim = (node_selector.is_some() || tolerations.is_some() || hard_node_affinity.is_some())
        .then_some(NodeClaim { hard_node_affinity, node_selector, tolerations });
    if total.is_empty() && node_claim.is_none() {
        return None;
    }
    Some(ReplicaRequirements {
        node_claim,
        resource_request: (!total.is_empty())
            .then(|| total.into_iter().map(|(k, v)| (k, Quantity(v.to_string()))).collect()),
        namespace: namespace.map(Into::into),
        priority_class_name: pod_spec["priorityClassName"].as_str().map(Into::into),
    })
}

fn requests(container: &Value) -> Vec<(String, quantity::Quantity)> {
    let Some(map) = container.pointer("/resources/requests").and_then(Value::as_object) else {
        return vec![];
    };
    map.iter()
        .filter_map(|(k, v)| v.as_str().and_then(|s| quantity::Quantity::parse(s).ok()).map(|q| (k.clone(), q)))
        .collect()
}

/// Writes one cluster's share into a manifest (Divided scheduling only).
pub fn revise_replicas(manifest: &mut Value, replicas: i32) {
    let api_version = manifest["apiVersion"].as_str().unwrap_or_default().to_string();
    let kind = manifest["kind"].as_str().unwrap_or_default().to_string();
    let Some((field, _)) = replica_paths(&api_version, &kind) else {
        return;
    };
    if let Some(spec) = manifest.get_mut("spec").and_then(Value::as_object_mut) {
        spec.insert(field.into(), json!(replicas));
        if kind == "Job" && spec.contains_key("completions") {
            spec.insert("completions".into(), json!(replicas));
        }
    }
}

/// The status fields of each kind that members report and the plane adds up.
fn summed_fields(api_version: &str, kind: &str) -> &'static [&'static str] {
    match (api_version, kind) {
        ("apps/v1", "Deployment") => {
            &["replicas", "updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas"]
        }
        ("apps/v1", "StatefulSet") => {
            &["replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"]
        }
        ("apps/v1", "ReplicaSet") => &["replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas"],
        ("apps/v1", "DaemonSet") => &[
            "currentNumberScheduled",
            "desiredNumberScheduled",
            "numberAvailable",
            "numberMisscheduled",
            "numberReady",
            "updatedNumberScheduled",
            "numberUnavailable",
        ],
        ("batch/v1", "Job") => &["active", "succeeded", "failed", "ready"],
        _ => &[],
    }
}

/// What a member's copy reports, kept in the Work: its summed status fields, its
/// observedGeneration and generation, and the template generation it was made from.
pub fn reflect_status(member_object: &Value) -> Option<Value> {
    let api_version = member_object["apiVersion"].as_str().unwrap_or_default();
    let kind = member_object["kind"].as_str().unwrap_or_default();
    let status = member_object.get("status")?.as_object()?;
    let fields = summed_fields(api_version, kind);
    let mut out = Map::new();
    if fields.is_empty() {
        out = status.clone();
    } else {
        for f in fields {
            if let Some(v) = status.get(*f) {
                out.insert((*f).into(), v.clone());
            }
        }
        if let Some(g) = status.get("observedGeneration") {
            out.insert("observedGeneration".into(), g.clone());
        }
    }
    if let Some(g) = member_object["metadata"]["generation"].as_i64() {
        out.insert("generation".into(), json!(g));
    }
    if let Some(g) = member_object
        .pointer("/metadata/annotations/resourcetemplate.karmada.io~1generation")
        .and_then(Value::as_str)
        .and_then(|g| g.parse::<i64>().ok())
    {
        out.insert("resourceTemplateGeneration".into(), json!(g));
    }
    Some(Value::Object(out))
}

/// The template's status from its members' reflected statuses, for kinds whose status adds
/// up; `None` for other kinds. observedGeneration is the template's generation only once
/// every member has caught up with it. The template comes as the parts this needs (kind,
/// generation, current status), so it is not copied whole.
pub fn aggregate_status(
    api_version: &str,
    kind: &str,
    generation: i64,
    current: Option<&Value>,
    members: &[Option<&Value>],
) -> Option<Value> {
    let fields = summed_fields(api_version, kind);
    if fields.is_empty() {
        return None;
    }
    let mut sums: BTreeMap<&str, i64> = BTreeMap::new();
    let mut caught_up = !members.is_empty();
    for status in members {
        let Some(status) = status else {
            caught_up = false;
            continue;
        };
        for f in fields {
            if let Some(n) = status[*f].as_i64() {
                *sums.entry(*f).or_insert(0) += n;
            }
        }
        let member_current = status["observedGeneration"].as_i64().is_some()
            && status["observedGeneration"] == status["generation"]
            && status["resourceTemplateGeneration"].as_i64() == Some(generation);
        caught_up &= member_current;
    }
    let mut out = current.and_then(Value::as_object).cloned().unwrap_or_default();
    for f in fields {
        match sums.get(f) {
            Some(n) => out.insert((*f).into(), json!(n)),
            None => out.remove(*f),
        };
    }
    if caught_up {
        out.insert("observedGeneration".into(), json!(generation));
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployment(replicas: Option<i64>) -> Value {
        let mut d = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "nginx", "namespace": "default", "generation": 3},
            "spec": {"template": {"spec": {"containers": [
                {"name": "a", "image": "nginx", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}},
                {"name": "b", "image": "side", "resources": {"requests": {"cpu": "50m"}}}
            ]}}}
        });
        if let Some(r) = replicas {
            d["spec"]["replicas"] = json!(r);
        }
        d
    }

    fn replicas_and_requirements(object: &Value) -> (i32, Option<ReplicaRequirements>) {
        super::replicas_and_requirements(
            object["apiVersion"].as_str().unwrap_or_default(),
            object["kind"].as_str().unwrap_or_default(),
            &object["spec"],
            object["metadata"]["namespace"].as_str(),
        )
    }

    #[test]
    fn replicas_default_to_one_and_requests_add_up() {
        let (r, req) = replicas_and_requirements(&deployment(None));
        assert_eq!(r, 1);
        let req = req.expect("requirements");
        let rr = req.resource_request.expect("requests");
        assert_eq!(rr["cpu"].0, "150m");
        assert_eq!(rr["memory"].0, "64Mi");
        assert_eq!(req.namespace.as_deref(), Some("default"));
        assert_eq!(replicas_and_requirements(&deployment(Some(6))).0, 6);
    }

    #[test]
    fn kinds_without_replicas_have_none() {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
        assert_eq!(replicas_and_requirements(&cm), (0, None));
    }

    #[test]
    fn revising_sets_the_share() {
        let mut d = deployment(Some(6));
        revise_replicas(&mut d, 4);
        assert_eq!(d["spec"]["replicas"], 4);
        let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {}});
        revise_replicas(&mut cm, 4);
        assert_eq!(cm, json!({"apiVersion": "v1", "kind": "ConfigMap", "data": {}}));
    }

    #[test]
    fn member_statuses_add_up_and_generation_waits_for_every_member() {
        let status = json!({"replicas": 9, "unavailableReplicas": 1, "collisionCount": 1});
        let aggregate_status =
            |members: &[Option<&Value>]| aggregate_status("apps/v1", "Deployment", 3, Some(&status), members);
        let a = json!({"replicas": 1, "readyReplicas": 1, "observedGeneration": 2, "generation": 2, "resourceTemplateGeneration": 3});
        let b = json!({"replicas": 1, "readyReplicas": 0, "observedGeneration": 1, "generation": 2, "resourceTemplateGeneration": 3});
        let s = aggregate_status(&[Some(&a), Some(&b)]).expect("deployment status");
        assert_eq!(s["replicas"], 2);
        assert_eq!(s["readyReplicas"], 1);
        assert!(s.get("unavailableReplicas").is_none(), "a summed field no member reports goes");
        assert_eq!(s["collisionCount"], 1, "fields that are not summed stay");
        assert!(s.get("observedGeneration").is_none());
        let s = aggregate_status(&[Some(&a), Some(&a)]).expect("deployment status");
        assert_eq!(s["readyReplicas"], 2);
        assert_eq!(s["observedGeneration"], 3);
        let s = aggregate_status(&[Some(&a), None]).expect("deployment status");
        assert!(s.get("observedGeneration").is_none());
        assert_eq!(super::aggregate_status("v1", "ConfigMap", 3, None, &[Some(&a)]), None);
    }

    #[test]
    fn reflected_status_keeps_summed_fields_and_generations() {
        let member = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"generation": 2, "annotations": {"resourcetemplate.karmada.io/generation": "3"}},
            "status": {"replicas": 2, "readyReplicas": 2, "observedGeneration": 2, "conditions": []}
        });
        assert_eq!(
            reflect_status(&member),
            Some(
                json!({"replicas": 2, "readyReplicas": 2, "observedGeneration": 2, "generation": 2, "resourceTemplateGeneration": 3})
            )
        );
    }
}
