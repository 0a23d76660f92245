//! `metrics.k8s.io/v1beta1` of a simulated member, answered as metrics-server answers it:
//! PodMetrics of running pods and NodeMetrics of nodes, get and list only, label selectors and
//! the `metadata.name`/`metadata.namespace` field selectors. The figures are simulated (see
//! [`crate::config::SimulatedMetrics`]): nothing is measured. A pod's usage may be set by the
//! model's utilization annotations on the pod or up its controllers ([`Annotated`]). Served only when the server was
//! started with a model, and then listed in discovery as metrics-server's APIService lists it
//! (after every built-in group, as its low group priority places it).

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::response::Response;
use karmadactl_apimachinery::quantity::Quantity;
use karmadactl_apimachinery::{ApiError, FieldSelector, LabelSelector};
use serde_json::{Value, json};

use crate::config::{SimulatedMetrics, Utilization};
use crate::filters::dispatch::{Call, json_response};
use crate::state::ApiState;
use crate::storage::{object, store_access};

pub const GROUP: &str = "metrics.k8s.io";
const VERSION: &str = "v1beta1";
const GROUP_VERSION: &str = "metrics.k8s.io/v1beta1";
/// metrics-server's default resolution, reported as each sample's window.
const WINDOW: &str = "15s";

/// The model when this server serves metrics.
pub fn model(state: &ApiState) -> Option<SimulatedMetrics> {
    state.config.simulated_metrics
}

/// The group's entry in `GET /apis`.
pub fn group_entry() -> Value {
    let gv = json!({"groupVersion": GROUP_VERSION, "version": VERSION});
    json!({"name": GROUP, "versions": [gv], "preferredVersion": gv})
}

/// `GET /apis/metrics.k8s.io`.
pub fn group_document() -> Value {
    let mut doc = group_entry();
    doc["kind"] = json!("APIGroup");
    doc["apiVersion"] = json!("v1");
    doc
}

const RESOURCES: [(&str, &str, bool); 2] = [("nodes", "NodeMetrics", false), ("pods", "PodMetrics", true)];

/// `GET /apis/metrics.k8s.io/v1beta1`.
pub fn resource_list() -> Value {
    let resources: Vec<Value> = RESOURCES
        .iter()
        .map(|(name, kind, namespaced)| {
            json!({"name": name, "singularName": "", "namespaced": namespaced, "kind": kind, "verbs": ["get", "list"]})
        })
        .collect();
    json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": GROUP_VERSION, "resources": resources})
}

/// The group's item in aggregated discovery (`apidiscovery.k8s.io/v2`).
pub fn aggregated_item() -> Value {
    let resources: Vec<Value> = RESOURCES
        .iter()
        .map(|(name, kind, namespaced)| {
            json!({"resource": name, "responseKind": {"group": "", "version": "", "kind": kind},
                   "scope": if *namespaced { "Namespaced" } else { "Cluster" }, "singularResource": "",
                   "verbs": ["get", "list"]})
        })
        .collect();
    json!({"metadata": {"name": GROUP, "creationTimestamp": null},
           "versions": [{"version": VERSION, "resources": resources, "freshness": "Current"}]})
}

/// Answers a resource request in `metrics.k8s.io` (the caller checked the group and the model).
pub async fn serve(state: &ApiState, call: &Call, model: SimulatedMetrics) -> Result<Response, ApiError> {
    let info = &call.info;
    let known = RESOURCES
        .iter()
        .any(|(name, _, namespaced)| *name == info.resource && (*namespaced || info.namespace.is_empty()));
    if info.api_version != VERSION || !known || !info.subresource.is_empty() {
        return Err(crate::handlers::nonresource::not_found_path());
    }
    let qualified = format!("{}.{GROUP}", info.resource);
    let filter = Selectors::from_call(call)?;
    let body = match (info.resource.as_str(), info.verb.as_str()) {
        ("pods", "get") => {
            let pod = running_pod(state, &info.namespace, &info.name).await?;
            let set = Annotated::new(model).of(state, &pod).await?;
            let mut item = pod_metrics(&pod, model, set).ok_or_else(|| {
                ApiError::not_found(GROUP, "podmetrics", &format!("{}/{}", info.namespace, info.name))
            })?;
            typed(&mut item, "PodMetrics");
            item
        }
        ("pods", "list") => {
            let ns = Some(info.namespace.as_str()).filter(|n| !n.is_empty());
            let pods = running_pods(state, ns).await?;
            let mut annotated = Annotated::new(model);
            let mut items = Vec::new();
            for pod in pods.iter().filter(|p| filter.matches(p)) {
                let set = annotated.of(state, pod).await?;
                items.extend(pod_metrics(pod, model, set));
            }
            list("PodMetricsList", items)
        }
        ("nodes", "get") => {
            let (node, _) = store_access::get(state, "", "nodes", None, &info.name)
                .await?
                .ok_or_else(|| ApiError::not_found("", "nodes", &info.name))?;
            let pods = with_utilization(state, model, running_pods(state, None).await?).await?;
            let mut item = node_metrics(&node, &pods, model);
            typed(&mut item, "NodeMetrics");
            item
        }
        ("nodes", "list") => {
            let (nodes, _) = store_access::list_all(state, &store_access::prefix("", "nodes", None)).await?;
            let pods = with_utilization(state, model, running_pods(state, None).await?).await?;
            let items = nodes.iter().filter(|n| filter.matches(n)).map(|n| node_metrics(n, &pods, model)).collect();
            list("NodeMetricsList", items)
        }
        (_, verb) => return Err(ApiError::method_not_supported(&qualified, verb)),
    };
    Ok(json_response(StatusCode::OK, &body))
}

fn typed(item: &mut Value, kind: &str) {
    if let Value::Object(m) = item {
        let mut out = serde_json::Map::new();
        out.insert("kind".into(), json!(kind));
        out.insert("apiVersion".into(), json!(GROUP_VERSION));
        out.append(m);
        *m = out;
    }
}

fn list(kind: &str, items: Vec<Value>) -> Value {
    json!({"kind": kind, "apiVersion": GROUP_VERSION, "metadata": {}, "items": items})
}

/// metrics-server knows only running pods: its pod informer watches `status.phase=Running`,
/// so any other pod is "not found" to it.
fn is_running(pod: &Value) -> bool {
    pod["status"]["phase"] == "Running" && !object::marked_for_deletion(pod)
}

async fn running_pod(state: &ApiState, namespace: &str, name: &str) -> Result<Value, ApiError> {
    match store_access::get(state, "", "pods", Some(namespace), name).await? {
        Some((pod, _)) if is_running(&pod) => Ok(pod),
        _ => Err(ApiError::not_found("", "pods", name)),
    }
}

async fn running_pods(state: &ApiState, namespace: Option<&str>) -> Result<Vec<Value>, ApiError> {
    let (pods, _) = store_access::list_all(state, &store_access::prefix("", "pods", namespace)).await?;
    Ok(pods.into_iter().filter(is_running).collect())
}

/// The list's label selector and metrics-server's field selector, which matches only
/// `metadata.name` and `metadata.namespace` (any other field reads as empty).
struct Selectors {
    labels: Option<LabelSelector>,
    fields: Option<FieldSelector>,
}

impl Selectors {
    fn from_call(call: &Call) -> Result<Self, ApiError> {
        let param = |name| call.param(name).filter(|s| !s.trim().is_empty());
        let bad = |e: &dyn std::fmt::Display| ApiError::bad_request(e.to_string());
        let labels = param("labelSelector").map(LabelSelector::parse).transpose().map_err(|e| bad(&e))?;
        let fields = param("fieldSelector").map(FieldSelector::parse).transpose().map_err(|e| bad(&e))?;
        Ok(Self { labels, fields })
    }

    fn matches(&self, obj: &Value) -> bool {
        let labels_match = self.labels.as_ref().is_none_or(|l| l.matches(&object::labels(obj)));
        let fields_match = self.fields.as_ref().is_none_or(|f| {
            f.matches(&|field: &str| match field {
                "metadata.name" | "metadata.namespace" => {
                    object::meta_str(obj, field.trim_start_matches("metadata.")).map(str::to_string)
                }
                _ => None,
            })
        });
        labels_match && fields_match
    }
}

/// A quantity in whole units of `scale` nano-units (nanocores: 1; bytes: 10⁹), rounded up;
/// None when unset or unreadable.
fn amount(resources: &Value, name: &str, per_unit: i128) -> Option<u64> {
    let q = Quantity::parse(resources.get(name)?.as_str()?).ok()?;
    let n = q.nanos().max(0);
    u64::try_from(n / per_unit + i128::from(n % per_unit != 0)).ok()
}

const BYTE: i128 = 1_000_000_000;

/// Controllers looked up above one pod: its ReplicaSet and that one's Deployment, say.
const OWNER_DEPTH: usize = 2;

/// Finds the utilization annotations of pods, on the pod or up its controllers, remembering
/// each controller's answer for the rest of one request.
struct Annotated {
    model: SimulatedMetrics,
    seen: BTreeMap<(String, String, String), (Utilization, Option<Value>)>,
}

impl Annotated {
    fn new(model: SimulatedMetrics) -> Self {
        Self { model, seen: BTreeMap::new() }
    }

    /// The pod's own values, each unset one taken from the nearest controller that sets it.
    async fn of(&mut self, state: &ApiState, pod: &Value) -> Result<Utilization, ApiError> {
        let namespace = object::meta_str(pod, "namespace").unwrap_or_default().to_string();
        let mut set = self.read(pod);
        let mut owner = controller_of(pod);
        for _ in 0..OWNER_DEPTH {
            if set.0.is_some() && set.1.is_some() {
                break;
            }
            let Some((kind, name)) = owner else { break };
            let key = (namespace.clone(), kind.clone(), name.clone());
            if !self.seen.contains_key(&key) {
                let found = match workload_resource(&kind) {
                    Some((group, plural)) => store_access::get(state, group, plural, Some(&namespace), &name).await?,
                    None => None,
                };
                let entry = found.map_or(((None, None), None), |(o, _)| (self.read(&o), Some(o)));
                self.seen.insert(key.clone(), entry);
            }
            let (values, object) = &self.seen[&key];
            set = (set.0.or(values.0), set.1.or(values.1));
            owner = object.as_ref().and_then(controller_of);
        }
        Ok(set)
    }

    fn read(&self, obj: &Value) -> Utilization {
        let (cpu, memory) = self.model.utilization_annotations;
        let get = |name: &str| {
            obj.pointer("/metadata/annotations")
                .and_then(|a| a.get(name))
                .and_then(Value::as_str)
                .and_then(self.model.parse_utilization)
        };
        (get(cpu), get(memory))
    }
}

/// The (kind, name) of the object's controller, from its ownerReferences.
fn controller_of(obj: &Value) -> Option<(String, String)> {
    let refs = obj.pointer("/metadata/ownerReferences")?.as_array()?;
    let c = refs.iter().find(|r| r["controller"] == true)?;
    Some((c["kind"].as_str()?.to_string(), c["name"].as_str()?.to_string()))
}

/// Where the workload kinds that control pods are stored: (group, resource).
fn workload_resource(kind: &str) -> Option<(&'static str, &'static str)> {
    Some(match kind {
        "ReplicaSet" => ("apps", "replicasets"),
        "Deployment" => ("apps", "deployments"),
        "StatefulSet" => ("apps", "statefulsets"),
        "DaemonSet" => ("apps", "daemonsets"),
        "Job" => ("batch", "jobs"),
        "CronJob" => ("batch", "cronjobs"),
        _ => return None,
    })
}

/// The pods with their set utilization, for a node's sum.
async fn with_utilization(
    state: &ApiState,
    model: SimulatedMetrics,
    pods: Vec<Value>,
) -> Result<Vec<(Value, Utilization)>, ApiError> {
    let mut annotated = Annotated::new(model);
    let mut out = Vec::with_capacity(pods.len());
    for pod in pods {
        let set = annotated.of(state, &pod).await?;
        out.push((pod, set));
    }
    Ok(out)
}

/// Each container's (name, CPU nanocores, memory bytes) by the model.
fn container_usages(pod: &Value, model: SimulatedMetrics, set: Utilization) -> Vec<(String, u64, u64)> {
    let uid = object::meta_str(pod, "uid").unwrap_or_default();
    let containers = pod["spec"]["containers"].as_array().map(Vec::as_slice).unwrap_or_default();
    containers
        .iter()
        .map(|c| {
            let name = c["name"].as_str().unwrap_or_default().to_string();
            let r = &c["resources"];
            let of = |kind: &str| (amount(&r[kind], "cpu", 1), amount(&r[kind], "memory", BYTE));
            let (cpu, memory) = (model.container)(&format!("{uid}/{name}"), of("requests"), of("limits"), set);
            (name, cpu, memory)
        })
        .collect()
}

fn usage(cpu: u64, memory: u64) -> Value {
    // Canonical forms, as metrics-server builds them: nanocores scaled, memory as BinarySI.
    let cpu = Quantity::parse(&format!("{cpu}n")).map(|q| q.to_string()).unwrap_or_default();
    let memory = Quantity::parse(&format!("{}Ki", memory / 1024)).map(|q| q.to_string()).unwrap_or_default();
    json!({"cpu": cpu, "memory": memory})
}

fn sample_meta(obj: &Value, namespaced: bool) -> Value {
    let mut meta = serde_json::Map::new();
    meta.insert("name".into(), json!(object::meta_str(obj, "name").unwrap_or_default()));
    if namespaced {
        meta.insert("namespace".into(), json!(object::meta_str(obj, "namespace").unwrap_or_default()));
    }
    meta.insert("creationTimestamp".into(), json!(object::now_rfc3339()));
    let labels: BTreeMap<String, String> = object::labels(obj);
    if !labels.is_empty() {
        meta.insert("labels".into(), json!(labels));
    }
    Value::Object(meta)
}

/// A running pod's sample; None for a pod without containers (metrics-server has no sample).
fn pod_metrics(pod: &Value, model: SimulatedMetrics, set: Utilization) -> Option<Value> {
    let containers: Vec<Value> = container_usages(pod, model, set)
        .into_iter()
        .map(|(name, cpu, memory)| json!({"name": name, "usage": usage(cpu, memory)}))
        .collect();
    if containers.is_empty() {
        return None;
    }
    Some(json!({"metadata": sample_meta(pod, true), "timestamp": object::now_rfc3339(), "window": WINDOW,
                "containers": containers}))
}

fn node_metrics(node: &Value, running: &[(Value, Utilization)], model: SimulatedMetrics) -> Value {
    let name = object::meta_str(node, "name").unwrap_or_default();
    let pods = running
        .iter()
        .filter(|(p, _)| p["spec"]["nodeName"] == name)
        .flat_map(|(p, set)| container_usages(p, model, *set))
        .fold((0u64, 0u64), |(cpu, memory), (_, c, m)| (cpu.saturating_add(c), memory.saturating_add(m)));
    let (cpu, memory) = (model.node)(name, pods);
    json!({"metadata": sample_meta(node, false), "timestamp": object::now_rfc3339(), "window": WINDOW,
           "usage": usage(cpu, memory)})
}
