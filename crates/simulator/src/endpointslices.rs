//! The EndpointSlice controller: every Service with a selector gets EndpointSlices listing the
//! pods it selects that have an address, as kube-controller-manager's endpointslice controller
//! keeps them (labels `kubernetes.io/service-name` and `endpointslice.kubernetes.io/managed-by`,
//! a controller ownerReference to the Service, at most 100 endpoints per slice).
//!
//! Pod and Service changes only mark Services dirty; a pass runs once changes stop arriving for
//! a moment, so a Deployment scaling by fifty pods is a few slice writes, not fifty.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{Pod, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{DeleteParams, Patch, PatchParams, PostParams, Preconditions};
use kube::runtime::reflector::{self, Store};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Api, ResourceExt};
use serde_json::{Value, json};
use tokio::sync::Notify;

use super::{Sim, owned};

pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";
pub const LABEL_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";
/// kube-controller-manager's value of [`LABEL_MANAGED_BY`]: the only slices this touches.
pub const MANAGED_BY: &str = "endpointslice-controller.k8s.io";
/// kube-controller-manager's default `--max-endpoints-per-slice`.
const MAX_ENDPOINTS_PER_SLICE: usize = 100;
/// How long a pass waits after a change for more to arrive.
const COALESCE: Duration = Duration::from_millis(200);

type Key = (String, String);

pub async fn run(sim: Arc<Sim>, pod_changes: impl futures::Stream<Item = Arc<Pod>> + Send + 'static) {
    let dirty: Arc<Mutex<HashSet<Key>>> = Arc::default();
    let wake = Arc::new(Notify::new());
    let client = &sim.client;
    let managed = watcher::Config::default().labels(&format!("{LABEL_MANAGED_BY}={MANAGED_BY}"));
    let (services, t1) = cache(Api::<Service>::all(client.clone()), watcher::Config::default(), &dirty, &wake, |s| {
        vec![(s.namespace().unwrap_or_default(), s.name_any())]
    });
    // A pod change marks every Service of its namespace (a label change may take it out of
    // one): the key with an empty name. Pods come from the simulation's shared pod cache.
    let pods = sim.pods.store();
    let t2 = tokio::spawn({
        let (dirty, wake) = (dirty.clone(), wake.clone());
        async move {
            let mut changes = std::pin::pin!(pod_changes);
            while let Some(p) = changes.next().await {
                dirty.lock().expect("not poisoned").insert((p.namespace().unwrap_or_default(), String::new()));
                wake.notify_one();
            }
        }
    });
    let (slices, t3) = cache(Api::<EndpointSlice>::all(client.clone()), managed, &dirty, &wake, |s| {
        s.labels().get(LABEL_SERVICE_NAME).map(|n| (s.namespace().unwrap_or_default(), n.clone())).into_iter().collect()
    });
    // The watch tasks go when this one is stopped (the plane aborts what `spawn` returned).
    let _watches = AbortOnDrop(vec![t1, t2, t3]);
    let _ = services.wait_until_ready().await;
    let _ = pods.wait_until_ready().await;
    let _ = slices.wait_until_ready().await;
    // Everything once at the start, then what changed.
    for s in services.state() {
        dirty.lock().expect("not poisoned").insert((s.namespace().unwrap_or_default(), s.name_any()));
    }
    loop {
        let keys: HashSet<Key> = {
            let marked: Vec<Key> = dirty.lock().expect("not poisoned").drain().collect();
            let namespaces: HashSet<&str> =
                marked.iter().filter(|(_, n)| n.is_empty()).map(|(ns, _)| ns.as_str()).collect();
            let mut keys: HashSet<Key> = marked.iter().filter(|(_, n)| !n.is_empty()).cloned().collect();
            for s in services.state() {
                let ns = s.namespace().unwrap_or_default();
                if namespaces.contains(ns.as_str()) {
                    keys.insert((ns, s.name_any()));
                }
            }
            keys
        };
        for key in keys {
            if let Err(e) = reconcile(&sim, &services, &pods, &slices, &key).await {
                tracing::debug!(service = ?key, error = %e, "simulated endpointslice controller retries");
                dirty.lock().expect("not poisoned").insert(key);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        if dirty.lock().expect("not poisoned").is_empty() {
            wake.notified().await;
        }
        tokio::time::sleep(COALESCE).await;
    }
}

/// Aborts the tasks it holds when dropped.
struct AbortOnDrop(Vec<tokio::task::JoinHandle<()>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        for t in &self.0 {
            t.abort();
        }
    }
}

/// A cache of one kind; each change marks the keys `mark` names and wakes the loop.
fn cache<K>(
    api: Api<K>,
    config: watcher::Config,
    dirty: &Arc<Mutex<HashSet<Key>>>,
    wake: &Arc<Notify>,
    mark: fn(&K) -> Vec<Key>,
) -> (Store<K>, tokio::task::JoinHandle<()>)
where
    K: kube::Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned + std::fmt::Debug + Send + Sync + 'static,
{
    let (reader, writer) = reflector::store();
    let (dirty, wake) = (dirty.clone(), wake.clone());
    let stream = watcher(api, config).default_backoff().reflect(writer).touched_objects();
    let task = tokio::spawn(async move {
        let mut stream = std::pin::pin!(stream);
        while let Some(item) = stream.next().await {
            if let Ok(obj) = item {
                let keys = mark(&obj);
                if !keys.is_empty() {
                    dirty.lock().expect("not poisoned").extend(keys);
                    wake.notify_one();
                }
            }
        }
    });
    (reader, task)
}

async fn reconcile(
    sim: &Sim,
    services: &Store<Service>,
    pods: &Store<Pod>,
    slices: &Store<EndpointSlice>,
    (ns, name): &Key,
) -> Result<(), kube::Error> {
    let api: Api<EndpointSlice> = Api::namespaced(sim.client.clone(), ns);
    let mut existing: Vec<Arc<EndpointSlice>> = slices
        .state()
        .into_iter()
        .filter(|s| s.namespace().as_deref() == Some(ns) && s.labels().get(LABEL_SERVICE_NAME) == Some(name))
        .collect();
    existing.sort_by_key(|s| s.name_any());
    let service = services.state().into_iter().find(|s| s.namespace().as_deref() == Some(ns) && s.name_any() == *name);
    let selector = service.as_ref().and_then(|s| s.spec.as_ref()).and_then(|s| s.selector.clone());
    // A Service that is gone leaves its slices to the garbage collector (they name it as
    // their owner).
    let Some(service) = service else { return Ok(()) };
    let uid = service.uid().unwrap_or_default();
    let Some(selector) = selector.filter(|s| !s.is_empty()) else {
        // Without a selector the Service's slices are someone else's to write.
        for s in existing.iter().filter(|s| owned::controlled_by(&s.metadata, &uid)) {
            delete(&api, s).await?;
        }
        return Ok(());
    };
    let mut selected: Vec<Arc<Pod>> = pods
        .state()
        .into_iter()
        .filter(|p| p.namespace().as_deref() == Some(ns) && p.metadata.deletion_timestamp.is_none())
        .filter(|p| selector.iter().all(|(k, v)| p.labels().get(k) == Some(v)))
        .filter(|p| !pod_ip(p).is_empty())
        .collect();
    selected.sort_by_key(|p| p.name_any());
    let ports = slice_ports(&service, selected.first().map(|p| p.as_ref()));
    let endpoints: Vec<Value> = selected.iter().map(|p| endpoint(p)).collect();
    let chunks: Vec<&[Value]> =
        if endpoints.is_empty() { vec![&[]] } else { endpoints.chunks(MAX_ENDPOINTS_PER_SLICE).collect() };
    let mut labels: BTreeMap<String, String> = service.labels().clone();
    labels.insert(LABEL_SERVICE_NAME.into(), name.clone());
    labels.insert(LABEL_MANAGED_BY.into(), MANAGED_BY.into());
    for (i, chunk) in chunks.iter().enumerate() {
        let body = json!({"addressType": "IPv4", "endpoints": chunk, "ports": ports});
        match existing.get(i) {
            Some(s) if same(s, &body, &labels) => {}
            Some(s) => {
                let patch = json!({"metadata": {"labels": labels}, "endpoints": chunk, "ports": ports});
                api.patch(&s.name_any(), &PatchParams::default(), &Patch::Merge(&patch)).await?;
            }
            None => {
                let mut slice = body.clone();
                slice["apiVersion"] = json!("discovery.k8s.io/v1");
                slice["kind"] = json!("EndpointSlice");
                slice["metadata"] = json!({
                    "generateName": format!("{name}-"),
                    "namespace": ns,
                    "labels": labels,
                    "ownerReferences": [owned::controller_ref(service.as_ref())],
                });
                let slice: EndpointSlice = serde_json::from_value(slice).map_err(kube::Error::SerdeError)?;
                api.create(&PostParams::default(), &slice).await?;
            }
        }
    }
    for s in existing.iter().skip(chunks.len()).filter(|s| owned::controlled_by(&s.metadata, &uid)) {
        delete(&api, s).await?;
    }
    Ok(())
}

async fn delete(api: &Api<EndpointSlice>, slice: &EndpointSlice) -> Result<(), kube::Error> {
    let dp = DeleteParams {
        preconditions: Some(Preconditions { uid: slice.uid(), resource_version: None }),
        ..Default::default()
    };
    match api.delete(&slice.name_any(), &dp).await {
        Ok(_) => Ok(()),
        Err(kube::Error::Api(e)) if e.code == 404 || e.code == 409 => Ok(()),
        Err(e) => Err(e),
    }
}

fn same(slice: &EndpointSlice, body: &Value, labels: &BTreeMap<String, String>) -> bool {
    let current = serde_json::to_value(slice).unwrap_or_default();
    let norm = |v: Option<&Value>| match v {
        None | Some(Value::Null) => json!([]),
        Some(v) => v.clone(),
    };
    norm(current.get("endpoints")) == norm(body.get("endpoints"))
        && norm(current.get("ports")) == norm(body.get("ports"))
        && slice.labels() == labels
}

fn pod_ip(pod: &Pod) -> &str {
    pod.status.as_ref().and_then(|s| s.pod_ip.as_deref()).unwrap_or("")
}

/// One pod as an endpoint, with readiness as kube reports it.
fn endpoint(pod: &Pod) -> Value {
    let ready = owned::pod_ready(pod);
    let mut e = json!({
        "addresses": [pod_ip(pod)],
        "conditions": {"ready": ready, "serving": ready, "terminating": false},
        "targetRef": {"kind": "Pod", "namespace": pod.namespace(), "name": pod.name_any(), "uid": pod.uid()},
    });
    if let Some(node) = pod.spec.as_ref().and_then(|s| s.node_name.as_ref()) {
        e["nodeName"] = json!(node);
    }
    e
}

/// The Service's ports with their target ports, named ones looked up in a selected pod.
fn slice_ports(service: &Service, pod: Option<&Pod>) -> Vec<Value> {
    use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
    let ports = service.spec.as_ref().and_then(|s| s.ports.clone()).unwrap_or_default();
    ports
        .iter()
        .filter_map(|p| {
            let number = match &p.target_port {
                None => p.port,
                Some(IntOrString::Int(0)) => p.port,
                Some(IntOrString::Int(n)) => *n,
                Some(IntOrString::String(named)) => pod
                    .and_then(|pod| pod.spec.as_ref())
                    .into_iter()
                    .flat_map(|s| s.containers.iter())
                    .flat_map(|c| c.ports.iter().flatten())
                    .find(|cp| cp.name.as_deref() == Some(named.as_str()))
                    .map(|cp| cp.container_port)?,
            };
            Some(json!({
                "name": p.name.clone().unwrap_or_default(),
                "port": number,
                "protocol": p.protocol.clone().unwrap_or_else(|| "TCP".into()),
            }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_resolve_target_ports_as_kube_does() {
        let service: Service = serde_json::from_value(json!({"metadata": {"name": "web"}, "spec": {"ports": [
            {"name": "a", "port": 80},
            {"name": "b", "port": 81, "targetPort": 8081, "protocol": "UDP"},
            {"name": "c", "port": 82, "targetPort": "metrics"},
            {"name": "d", "port": 83, "targetPort": "missing"},
        ]}}))
        .unwrap();
        let pod: Pod = serde_json::from_value(json!({"metadata": {"name": "p"}, "spec": {"containers": [
            {"name": "x", "ports": [{"name": "metrics", "containerPort": 9090}]}]}}))
        .unwrap();
        let ports = slice_ports(&service, Some(&pod));
        assert_eq!(
            ports,
            vec![
                json!({"name": "a", "port": 80, "protocol": "TCP"}),
                json!({"name": "b", "port": 8081, "protocol": "UDP"}),
                json!({"name": "c", "port": 9090, "protocol": "TCP"}),
            ]
        );
    }
}
