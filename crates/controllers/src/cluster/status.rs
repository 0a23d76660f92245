//! What a probe's findings mean for a Cluster's status, as karmada's cluster status controller
//! computes it: the Ready condition (and when it may change), the node summary and the resource
//! summary (allocatable from nodes, allocated from scheduled pods, allocating from pending ones).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as K8sQuantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};

use karmadactl_apimachinery::quantity::Quantity;
use karmadactl_karmada_api::cluster::{NodeSummary, ResourceSummary};

pub const READY: &str = "Ready";
pub const COMPLETE_API_ENABLEMENTS: &str = "CompleteAPIEnablements";

/// How a probe went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    /// `/readyz` (or `/healthz`) answered ok.
    Healthy,
    /// The member answered, but not ok.
    Unhealthy(String),
    /// The member could not be reached, or refused our credentials.
    Unreachable(String),
    /// The Cluster cannot be probed as configured (no endpoint, secret missing or incomplete).
    Misconfigured(String),
}

impl Health {
    /// The Ready condition this finding stands for: status, reason, message.
    fn condition(&self) -> (&'static str, &'static str, String) {
        match self {
            Health::Healthy => ("True", "ClusterReady", "cluster is healthy and ready to accept workloads".into()),
            Health::Unhealthy(why) => (
                "False",
                "ClusterNotReady",
                format!("cluster is reachable but health endpoint responded without ok: {why}"),
            ),
            Health::Unreachable(why) => ("False", "ClusterNotReachable", format!("cluster is not reachable: {why}")),
            Health::Misconfigured(why) => ("Unknown", "ClusterStatusUnknown", why.clone()),
        }
    }
}

/// Remembers when the member started failing, so one failed probe does not flip Ready: a
/// failure must last the failure threshold (karmada's `--cluster-failure-threshold`).
#[derive(Debug, Default)]
pub struct Debounce {
    failing_since: Option<Instant>,
}

impl Debounce {
    /// The Ready condition to write, or `None` to keep the current one for now.
    pub fn ready(
        &mut self,
        current: Option<&Condition>,
        health: &Health,
        now: Instant,
        threshold: Duration,
        generation: Option<i64>,
    ) -> Option<Condition> {
        let (status, reason, message) = health.condition();
        if status == "True" {
            self.failing_since = None;
        } else {
            let since = *self.failing_since.get_or_insert(now);
            // A member that was fine keeps its condition until the failure has lasted.
            if current.is_some_and(|c| c.status == "True") && now.duration_since(since) < threshold {
                return None;
            }
        }
        Some(condition(current, READY, status, reason, &message, generation))
    }
}

/// A condition with `lastTransitionTime` carried over when the status did not change.
pub fn condition(
    current: Option<&Condition>,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    generation: Option<i64>,
) -> Condition {
    let last_transition_time = match current {
        Some(c) if c.status == status => c.last_transition_time.clone(),
        _ => Time(jiff::Timestamp::now().round(jiff::Unit::Second).unwrap_or_else(|_| jiff::Timestamp::now())),
    };
    Condition {
        type_: type_.to_string(),
        status: status.to_string(),
        reason: reason.to_string(),
        message: message.to_string(),
        last_transition_time,
        observed_generation: generation,
    }
}

pub fn node_summary(nodes: &[Node]) -> NodeSummary {
    let ready = nodes.iter().filter(|n| node_ready(n)).count();
    NodeSummary { total_num: Some(nodes.len() as i32), ready_num: Some(ready as i32) }
}

fn node_ready(node: &Node) -> bool {
    node.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

/// Allocatable from the nodes; allocated from pods bound to a node and allocating from pods
/// waiting for one, both counting requests of running (non-terminal) pods plus one `pods` each.
pub fn resource_summary(nodes: &[Node], pods: &[Pod]) -> ResourceSummary {
    let mut allocatable = Sums::default();
    for node in nodes {
        if let Some(res) = node.status.as_ref().and_then(|s| s.allocatable.as_ref()) {
            allocatable.add_all(res);
        }
    }
    let mut allocated = Sums::default();
    let mut allocating = Sums::default();
    for pod in pods.iter().filter(|p| !terminal(p)) {
        let target = if pod.spec.as_ref().and_then(|s| s.node_name.as_ref()).is_some_and(|n| !n.is_empty()) {
            &mut allocated
        } else {
            &mut allocating
        };
        target.add_all(&pod_requests(pod));
        target.add("pods", Quantity::from_units(1));
    }
    ResourceSummary {
        allocatable: Some(allocatable.into_map()),
        allocating: Some(allocating.into_map()),
        allocated: Some(allocated.into_map()),
        allocatable_modelings: None,
    }
}

fn terminal(pod: &Pod) -> bool {
    matches!(pod.status.as_ref().and_then(|s| s.phase.as_deref()), Some("Succeeded" | "Failed"))
}

/// A pod's effective requests: the sum over containers, or the largest init container request
/// when that is larger, plus the pod overhead (as the scheduler counts).
fn pod_requests(pod: &Pod) -> BTreeMap<String, K8sQuantity> {
    let Some(spec) = pod.spec.as_ref() else { return BTreeMap::new() };
    let requests = |c: &k8s_openapi::api::core::v1::Container| {
        c.resources.as_ref().and_then(|r| r.requests.clone()).unwrap_or_default()
    };
    let mut sum = Sums::default();
    for c in &spec.containers {
        sum.add_all(&requests(c));
    }
    for c in spec.init_containers.iter().flatten() {
        for (name, q) in requests(c) {
            let Ok(init) = Quantity::parse(&q.0) else { continue };
            let current = sum.0.get(&name).copied().unwrap_or_default();
            if init.millis() > current.millis() {
                sum.0.insert(name, init);
            }
        }
    }
    if let Some(overhead) = spec.overhead.as_ref() {
        sum.add_all(overhead);
    }
    sum.into_map()
}

#[derive(Default)]
struct Sums(BTreeMap<String, Quantity>);

impl Sums {
    fn add(&mut self, name: &str, q: Quantity) {
        let entry = self.0.entry(name.to_string()).or_default();
        *entry = entry.plus(q);
    }

    fn add_all(&mut self, resources: &BTreeMap<String, K8sQuantity>) {
        for (name, q) in resources {
            // An unparsable quantity cannot be counted; the API server validates them, so
            // this only skips what a member's own validation let through.
            if let Ok(q) = Quantity::parse(&q.0) {
                self.add(name, q);
            }
        }
    }

    fn into_map(self) -> BTreeMap<String, K8sQuantity> {
        self.0.into_iter().map(|(k, v)| (k, K8sQuantity(v.to_string()))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(ready: bool, cpu: &str, mem: &str) -> Node {
        serde_json::from_value(json!({
            "metadata": {"name": "n"},
            "status": {
                "allocatable": {"cpu": cpu, "memory": mem, "pods": "110"},
                "conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }}],
            }
        }))
        .unwrap()
    }

    fn pod(node: Option<&str>, phase: &str, cpu: &str) -> Pod {
        serde_json::from_value(json!({
            "metadata": {"name": "p"},
            "spec": {"nodeName": node, "containers": [{"name": "c", "resources": {"requests": {"cpu": cpu, "memory": "64Mi"}}}]},
            "status": {"phase": phase},
        }))
        .unwrap()
    }

    #[test]
    fn summaries_add_up_nodes_and_pods() {
        let nodes = [node(true, "8", "32Gi"), node(false, "4", "16Gi")];
        assert_eq!(node_summary(&nodes), NodeSummary { total_num: Some(2), ready_num: Some(1) });
        let pods = [
            pod(Some("n1"), "Running", "500m"),
            pod(Some("n1"), "Running", "250m"),
            pod(None, "Pending", "1"),
            pod(Some("n1"), "Succeeded", "2"),
        ];
        let s = resource_summary(&nodes, &pods);
        let get = |m: &Option<BTreeMap<String, K8sQuantity>>, k: &str| m.as_ref().unwrap()[k].0.clone();
        assert_eq!(get(&s.allocatable, "cpu"), "12");
        assert_eq!(get(&s.allocatable, "memory"), "48Gi");
        assert_eq!(get(&s.allocatable, "pods"), "220");
        assert_eq!(get(&s.allocated, "cpu"), "750m");
        assert_eq!(get(&s.allocated, "memory"), "128Mi");
        assert_eq!(get(&s.allocated, "pods"), "2");
        assert_eq!(get(&s.allocating, "cpu"), "1");
        assert_eq!(get(&s.allocating, "pods"), "1");
    }

    #[test]
    fn a_ready_member_stays_ready_until_failures_last_the_threshold() {
        let mut d = Debounce::default();
        let start = Instant::now();
        let threshold = Duration::from_secs(30);
        let ready = d.ready(None, &Health::Healthy, start, threshold, Some(1)).unwrap();
        assert_eq!((ready.status.as_str(), ready.reason.as_str()), ("True", "ClusterReady"));
        let down = Health::Unreachable("connection refused".into());
        assert!(d.ready(Some(&ready), &down, start, threshold, Some(1)).is_none());
        assert!(d.ready(Some(&ready), &down, start + Duration::from_secs(29), threshold, Some(1)).is_none());
        let not_ready = d.ready(Some(&ready), &down, start + Duration::from_secs(30), threshold, Some(1)).unwrap();
        assert_eq!((not_ready.status.as_str(), not_ready.reason.as_str()), ("False", "ClusterNotReachable"));
        assert!(not_ready.message.contains("connection refused"));
        // Back: True at once, and a new failure starts a new count.
        let back = d.ready(Some(&not_ready), &Health::Healthy, start + Duration::from_secs(31), threshold, Some(1));
        assert_eq!(back.unwrap().status, "True");
    }

    #[test]
    fn a_member_never_seen_ready_reports_failures_at_once() {
        let mut d = Debounce::default();
        let c = d.ready(None, &Health::Unhealthy("500".into()), Instant::now(), Duration::from_secs(30), None).unwrap();
        assert_eq!((c.status.as_str(), c.reason.as_str()), ("False", "ClusterNotReady"));
        let c = d
            .ready(None, &Health::Misconfigured("secret missing".into()), Instant::now(), Duration::from_secs(30), None)
            .unwrap();
        assert_eq!(c.status, "Unknown");
    }

    #[test]
    fn the_transition_time_moves_only_with_the_status() {
        let first = condition(None, READY, "True", "ClusterReady", "m", None);
        let mut old = first.clone();
        old.last_transition_time = Time(jiff::Timestamp::UNIX_EPOCH);
        let same = condition(Some(&old), READY, "True", "ClusterReady", "m2", None);
        assert_eq!(same.last_transition_time, old.last_transition_time);
        let changed = condition(Some(&old), READY, "False", "ClusterNotReady", "m", None);
        assert_ne!(changed.last_transition_time, old.last_transition_time);
    }
}
