//! Reading the scale target's pods and their samples from the members it is scheduled to:
//! the pods by the workload's selector, and `metrics.k8s.io` PodMetrics by the same selector,
//! as upstream's controller reads each member's pods and its metrics adapter the members'
//! metrics. A member that does not answer in time is left out (upstream skips it too) and
//! named in the result, so the controller can say in an event whose pods were not counted.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use k8s_openapi::api::core::v1::Pod as KubePod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use karmadactl_apimachinery::duration::GoDuration;
use karmadactl_apimachinery::quantity::Quantity;
use kube::ResourceExt;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, ListParams};
use serde_json::Value;

use super::calculator::{Phase, Pod, Sample};
use crate::context::Engine;

/// How long one member may take to list its pods and their metrics.
const MEMBER_TIMEOUT: Duration = Duration::from_secs(10);
/// Most pods read from one member for one FHPA; more is refused rather than read unbounded.
pub const MAX_PODS_PER_MEMBER: u32 = 5000;

/// Which resource a metric reads, and from which container (ContainerResource) if one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Resource {
    pub name: String,
    pub container: Option<String>,
}

/// What the members answered: each pod's JSON and PodMetrics, keyed `cluster/name`.
#[derive(Default)]
pub struct Observed {
    pods: BTreeMap<String, KubePod>,
    metrics: BTreeMap<String, Value>,
    /// Members left out, with why.
    pub failed: Vec<(String, String)>,
}

impl Observed {
    /// The calculator's view of the pods for one resource.
    pub fn pods(&self, resource: &Resource) -> BTreeMap<String, Pod> {
        self.pods.iter().map(|(k, p)| (k.clone(), pod(p, resource))).collect()
    }

    /// The pods' labels, to see which FHPAs select them.
    pub fn labels(&self) -> impl Iterator<Item = BTreeMap<String, String>> + '_ {
        self.pods.values().map(|p| p.labels().clone())
    }

    /// The samples of one resource (pods whose PodMetrics lack it have none).
    pub fn samples(&self, resource: &Resource) -> BTreeMap<String, Sample> {
        self.metrics.iter().filter_map(|(k, m)| Some((k.clone(), sample(m, resource)?))).collect()
    }
}

/// Lists the pods and PodMetrics matching `selector` in `namespace` of every cluster.
pub async fn observe(engine: &Arc<Engine>, clusters: &[String], namespace: &str, selector: &str) -> Observed {
    let reads = clusters.iter().map(|c| async move {
        let read = tokio::time::timeout(MEMBER_TIMEOUT, read_member(engine, c, namespace, selector)).await;
        (c.clone(), read.unwrap_or_else(|_| Err(format!("no answer within {}s", MEMBER_TIMEOUT.as_secs()))))
    });
    let mut observed = Observed::default();
    for (cluster, read) in futures::future::join_all(reads).await {
        match read {
            Ok((pods, metrics)) => {
                for p in pods {
                    observed.pods.insert(format!("{cluster}/{}", p.name_any()), p);
                }
                for m in metrics {
                    observed
                        .metrics
                        .insert(format!("{cluster}/{}", m.name_any()), serde_json::to_value(&m).unwrap_or_default());
                }
            }
            Err(e) => {
                tracing::debug!(cluster = %cluster, error = %e, "FederatedHPA: member left out of this sync");
                observed.failed.push((cluster, e));
            }
        }
    }
    observed
}

async fn read_member(
    engine: &Arc<Engine>,
    cluster: &str,
    namespace: &str,
    selector: &str,
) -> Result<(Vec<KubePod>, Vec<DynamicObject>), String> {
    let c = engine.caches.clusters.state().into_iter().find(|c| c.name_any() == cluster);
    let client = engine.members.client_for(engine, cluster, c.as_deref()).await?;
    let params = ListParams::default().labels(selector).limit(MAX_PODS_PER_MEMBER);
    let pods = Api::<KubePod>::namespaced(client.clone(), namespace).list(&params).await.map_err(|e| e.to_string())?;
    if pods.metadata.continue_.as_deref().is_some_and(|c| !c.is_empty()) {
        return Err(format!("more than {MAX_PODS_PER_MEMBER} pods match the selector"));
    }
    let resource =
        ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk("metrics.k8s.io", "v1beta1", "PodMetrics"), "pods");
    let metrics = Api::<DynamicObject>::namespaced_with(client, namespace, &resource)
        .list(&params)
        .await
        .map_err(|e| format!("unable to fetch metrics from resource metrics API: {e}"))?;
    Ok((pods.items, metrics.items))
}

fn millis(q: &Value) -> Option<i64> {
    let q = Quantity::parse(q.as_str()?).ok()?;
    i64::try_from(q.millis()).ok()
}

fn pod(p: &KubePod, resource: &Resource) -> Pod {
    let status = p.status.clone().unwrap_or_default();
    let phase = match status.phase.as_deref() {
        Some("Pending") => Phase::Pending,
        Some("Running") => Phase::Running,
        Some("Succeeded") => Phase::Succeeded,
        Some("Failed") => Phase::Failed,
        _ => Phase::Unknown,
    };
    let ready = status.conditions.iter().flatten().find(|c| c.type_ == "Ready").map(|c| {
        let changed = c.last_transition_time.as_ref().map_or(SystemTime::UNIX_EPOCH, |t| SystemTime::from(t.0));
        (c.status == "True", changed)
    });
    let containers = p.spec.as_ref().map(|s| s.containers.as_slice()).unwrap_or_default();
    let mut request = Ok(0i64);
    for c in containers.iter().filter(|c| resource.container.as_ref().is_none_or(|n| *n == c.name)) {
        let asked = c.resources.as_ref().and_then(|r| r.requests.as_ref()).and_then(|r| r.get(&resource.name));
        match asked.and_then(|q| millis(&Value::String(q.0.clone()))) {
            Some(m) => request = request.map(|sum| sum.saturating_add(m)),
            None => {
                request = Err(c.name.clone());
                break;
            }
        }
    }
    Pod {
        phase,
        deleting: p.metadata.deletion_timestamp.is_some(),
        ready,
        start_time: status.start_time.map(|t| SystemTime::from(t.0)),
        request,
    }
}

fn sample(m: &Value, resource: &Resource) -> Option<Sample> {
    let containers = m["containers"].as_array()?;
    let mut value = 0i64;
    let mut found = false;
    for c in containers {
        if resource.container.as_ref().is_some_and(|n| c["name"].as_str() != Some(n)) {
            continue;
        }
        // kube's metrics client leaves a pod out when a container lacks the resource.
        value = value.saturating_add(millis(&c["usage"][&resource.name])?);
        found = true;
    }
    if !found {
        return None;
    }
    let timestamp = m["timestamp"].as_str().and_then(|t| jiff::Timestamp::from_str(t).ok()).map(SystemTime::from)?;
    let window = m["window"].as_str().and_then(|w| GoDuration::from_str(w).ok()).map_or(Duration::ZERO, |d| d.0);
    Some(Sample { value, timestamp, window })
}

/// A label selector as a list's `labelSelector` query; None when it selects nothing usable
/// (no terms at all: every pod of the namespace, which kube refuses for an HPA too).
pub fn selector_query(selector: &LabelSelector) -> Option<String> {
    let mut terms: Vec<String> = selector.match_labels.iter().flatten().map(|(k, v)| format!("{k}={v}")).collect();
    for e in selector.match_expressions.iter().flatten() {
        let values = e.values.clone().unwrap_or_default().join(",");
        terms.push(match e.operator.as_str() {
            "In" => format!("{} in ({values})", e.key),
            "NotIn" => format!("{} notin ({values})", e.key),
            "Exists" => e.key.clone(),
            "DoesNotExist" => format!("!{}", e.key),
            _ => return None,
        });
    }
    (!terms.is_empty()).then(|| terms.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement;

    #[test]
    fn selectors_become_list_queries_and_an_empty_one_none() {
        let s = LabelSelector {
            match_labels: Some([("app".to_string(), "web".to_string())].into()),
            match_expressions: Some(vec![
                LabelSelectorRequirement {
                    key: "tier".into(),
                    operator: "In".into(),
                    values: Some(vec!["a".into(), "b".into()]),
                },
                LabelSelectorRequirement { key: "canary".into(), operator: "DoesNotExist".into(), values: None },
            ]),
        };
        assert_eq!(selector_query(&s).as_deref(), Some("app=web,tier in (a,b),!canary"));
        assert_eq!(selector_query(&LabelSelector::default()), None);
        let odd = LabelSelector {
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "k".into(),
                operator: "Near".into(),
                values: None,
            }]),
            ..Default::default()
        };
        assert_eq!(selector_query(&odd), None);
    }

    #[test]
    fn pods_and_samples_are_read_per_resource_and_container() {
        let p: KubePod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "web-1"},
            "spec": {"containers": [
                {"name": "app", "resources": {"requests": {"cpu": "200m", "memory": "64Mi"}}},
                {"name": "side", "resources": {"requests": {"memory": "16Mi"}}},
            ]},
            "status": {"phase": "Running", "startTime": "2026-01-01T00:00:00Z",
                       "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:05Z"}]},
        }))
        .unwrap();
        let cpu = Resource { name: "cpu".into(), container: None };
        let app_cpu = Resource { name: "cpu".into(), container: Some("app".into()) };
        assert_eq!(pod(&p, &cpu).request, Err("side".into()), "a container without a CPU request");
        assert_eq!(pod(&p, &app_cpu).request, Ok(200));
        let read = pod(&p, &Resource { name: "memory".into(), container: None });
        assert_eq!(read.request, Ok(80 * 1024 * 1024 * 1000));
        assert_eq!((read.phase, read.ready.map(|r| r.0)), (Phase::Running, Some(true)));
        let m = serde_json::json!({"timestamp": "2026-01-01T00:01:00Z", "window": "15s", "containers": [
            {"name": "app", "usage": {"cpu": "150m", "memory": "10Mi"}},
            {"name": "side", "usage": {"cpu": "5m", "memory": "1Mi"}},
        ]});
        let s = sample(&m, &cpu).unwrap();
        assert_eq!((s.value, s.window), (155, Duration::from_secs(15)));
        assert_eq!(sample(&m, &app_cpu).unwrap().value, 150);
        assert!(sample(&m, &Resource { name: "gpu".into(), container: None }).is_none());
    }
}
