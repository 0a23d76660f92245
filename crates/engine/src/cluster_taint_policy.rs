//! The ClusterTaintPolicy controller (upstream's cluster-taint-policy-controller, run with the
//! `Failover` gate): a Cluster whose status conditions change, or every Cluster a
//! ClusterTaintPolicy targets when its spec changes, gets the policies' taints added when
//! their `addOnConditions` match and removed when their `removeOnConditions` match, the
//! policies taken in creation order.
//!
//! It lives in the engine, beside the taint manager that acts on the NoExecute taints it sets,
//! because it selects clusters with the same `util.ClusterMatches` the scheduler and the
//! override manager use. It follows Clusters and ClusterTaintPolicies itself: it reacts to
//! condition changes, which the engine's other controllers ignore.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use k8s_openapi::api::core::v1::{ObjectReference, Taint};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use karmadactl_karmada_api::cluster::Cluster;
use karmadactl_karmada_api::policy::taint::{ClusterTaintPolicy, MATCH_IN, MATCH_NOT_IN, MatchCondition, PolicyTaint};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::reflector::{ObjectRef, Store};
use kube::{Resource, ResourceExt};
use serde_json::json;
use tokio::task::JoinHandle;

use super::context::{Engine, follow};
use super::error::ReconcileError;
use super::events;
use super::overrides::cluster_matches;
use super::queue::Queue;

/// The component events are recorded as.
const CONTROLLER_NAME: &str = "cluster-taint-policy-controller";
pub const TAINT_CLUSTER_SUCCEED: &str = "TaintClusterSucceed";
pub const TAINT_CLUSTER_FAILED: &str = "TaintClusterFailed";

/// What the controller follows, apart from the engine.
struct Controller {
    clusters: Store<Cluster>,
    policies: Store<ClusterTaintPolicy>,
}

/// Starts the controller's followers and its worker, which end with the engine.
pub(crate) fn start(engine: &Arc<Engine>) -> JoinHandle<()> {
    let queue: Arc<Queue<String>> = Queue::new();
    // A Cluster is looked at when first seen and whenever its conditions change, as upstream's
    // predicate: a probe that reports the same conditions, or a user's own taint edit, does
    // not make the policies run again.
    let seen: Mutex<HashMap<String, Option<Vec<Condition>>>> = Mutex::default();
    let q = queue.clone();
    let (clusters, t) = follow(Api::<Cluster>::all(engine.client.clone()), move |c: &Cluster, deleted| {
        let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
        if deleted {
            seen.remove(&c.name_any());
            return;
        }
        let conditions = c.status.as_ref().and_then(|s| s.conditions.clone());
        if seen.insert(c.name_any(), conditions.clone()) != Some(conditions) {
            q.add(c.name_any());
        }
    });
    engine.spawn(t);
    // A policy's new or changed spec looks at every cluster it targets.
    let specs: Mutex<HashMap<String, String>> = Mutex::default();
    let q = queue.clone();
    let cluster_store = clusters.clone();
    let (policies, t) = follow(Api::<ClusterTaintPolicy>::all(engine.client.clone()), move |p, deleted| {
        let mut specs = specs.lock().unwrap_or_else(|e| e.into_inner());
        if deleted {
            specs.remove(&p.name_any());
            return;
        }
        let spec = serde_json::to_string(&p.spec).unwrap_or_default();
        if specs.insert(p.name_any(), spec.clone()) == Some(spec) {
            return;
        }
        for c in cluster_store.state() {
            if p.spec.target_clusters.as_ref().is_none_or(|a| cluster_matches(&c, a)) {
                q.add(c.name_any());
            }
        }
    });
    engine.spawn(t);
    let controller = Arc::new(Controller { clusters, policies });
    let weak: Weak<Engine> = Arc::downgrade(engine);
    tokio::spawn(async move {
        if controller.clusters.wait_until_ready().await.is_err()
            || controller.policies.wait_until_ready().await.is_err()
        {
            return;
        }
        queue
            .serve(
                move |name: String| {
                    let engine = weak.upgrade()?;
                    let controller = controller.clone();
                    Some(async move { reconcile(&engine, &controller, &name).await })
                },
                super::error::policy,
            )
            .await
    })
}

async fn reconcile(engine: &Engine, controller: &Controller, name: &str) -> Result<(), ReconcileError> {
    let Some(cluster) = controller.clusters.get(&ObjectRef::new(name)) else {
        return Ok(());
    };
    let mut policies = controller.policies.state();
    // Creation order, so conflicting policies always end the same way rather than flapping.
    policies.sort_by(|a, b| {
        let created = |p: &ClusterTaintPolicy| p.metadata.creation_timestamp.as_ref().map(|t| t.0);
        created(a).cmp(&created(b)).then_with(|| a.name_any().cmp(&b.name_any()))
    });
    let current = cluster.spec.taints.clone().unwrap_or_default();
    let wanted = taints_after_policies(&cluster, &policies, jiff::Timestamp::now());
    if wanted == current {
        return Ok(());
    }
    let patch = json!({
        "metadata": {"resourceVersion": cluster.metadata.resource_version},
        "spec": {"taints": wanted},
    });
    let api: Api<Cluster> = Api::all(engine.client.clone());
    match api.patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await {
        Ok(_) => {
            let message = format!("Update Cluster({name}) with taints({}) succeed", taints_message(&wanted));
            record(engine, &cluster, events::NORMAL, TAINT_CLUSTER_SUCCEED, &message).await;
            Ok(())
        }
        Err(e) => {
            record(engine, &cluster, events::WARNING, TAINT_CLUSTER_FAILED, &e.to_string()).await;
            Err(e.into())
        }
    }
}

async fn record(engine: &Engine, cluster: &Cluster, type_: &str, reason: &str, message: &str) {
    let target = ObjectReference {
        api_version: Some(Cluster::api_version(&()).into_owned()),
        kind: Some(Cluster::kind(&()).into_owned()),
        name: cluster.metadata.name.clone(),
        uid: cluster.metadata.uid.clone(),
        ..Default::default()
    };
    events::record(engine, target, type_, CONTROLLER_NAME, reason, message).await;
}

/// The cluster's taints once every policy that targets it has been applied in order: a
/// policy's taints are added when its `addOnConditions` match, then removed when its
/// `removeOnConditions` match.
pub fn taints_after_policies(
    cluster: &Cluster,
    policies: &[Arc<ClusterTaintPolicy>],
    now: jiff::Timestamp,
) -> Vec<Taint> {
    let conditions = cluster.status.as_ref().and_then(|s| s.conditions.as_deref()).unwrap_or_default();
    let mut taints = cluster.spec.taints.clone().unwrap_or_default();
    for policy in policies {
        if policy.spec.target_clusters.as_ref().is_some_and(|a| !cluster_matches(cluster, a)) {
            continue;
        }
        if conditions_match(conditions, &policy.spec.add_on_conditions) {
            add_taints(&mut taints, &policy.spec.taints, now);
        }
        if conditions_match(conditions, &policy.spec.remove_on_conditions) {
            remove_taints(&mut taints, &policy.spec.taints);
        }
    }
    taints
}

/// Upstream's `conditionMatches`: every match condition holds (ANDed); none never matches.
/// A condition type the cluster does not report matches neither `In` nor `NotIn`; an unknown
/// operator matches nothing.
pub fn conditions_match(conditions: &[Condition], wanted: &[MatchCondition]) -> bool {
    if wanted.is_empty() {
        return false;
    }
    wanted.iter().all(|m| {
        let mut matched = false;
        for c in conditions.iter().filter(|c| c.type_ == m.condition_type) {
            let listed = m.status_values.contains(&c.status);
            matched = match m.operator.as_str() {
                MATCH_IN => matched || listed,
                MATCH_NOT_IN => !listed,
                _ => return false,
            };
        }
        matched
    })
}

fn same_taint(t: &Taint, p: &PolicyTaint) -> bool {
    t.key == p.key && t.effect == p.effect
}

/// Adds each taint the cluster lacks (by key and effect), stamped with `now`.
fn add_taints(taints: &mut Vec<Taint>, add: &[PolicyTaint], now: jiff::Timestamp) {
    for p in add {
        if !taints.iter().any(|t| same_taint(t, p)) {
            taints.push(Taint {
                key: p.key.clone(),
                effect: p.effect.clone(),
                value: Some(p.value.clone()).filter(|v| !v.is_empty()),
                time_added: Some(Time(now)),
            });
        }
    }
}

/// Removes the first taint of each key and effect.
fn remove_taints(taints: &mut Vec<Taint>, remove: &[PolicyTaint]) {
    for p in remove {
        if let Some(i) = taints.iter().position(|t| same_taint(t, p)) {
            taints.remove(i);
        }
    }
}

/// Upstream's `GenerateTaintsMessage`.
pub fn taints_message(taints: &[Taint]) -> String {
    if taints.is_empty() {
        return "cluster now does not have taints".into();
    }
    let one = |t: &Taint| match t.value.as_deref().filter(|v| !v.is_empty()) {
        Some(v) => format!("{{Key:{},Value:{v},Effect:{}}}", t.key, t.effect),
        None => format!("{{Key:{},Effect:{}}}", t.key, t.effect),
    };
    taints.iter().map(one).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use karmadactl_karmada_api::cluster::{ClusterSpec, ClusterStatus};
    use karmadactl_karmada_api::policy::taint::ClusterTaintPolicySpec;

    fn condition(type_: &str, status: &str) -> Condition {
        Condition {
            type_: type_.into(),
            status: status.into(),
            reason: "R".into(),
            message: String::new(),
            last_transition_time: Time(jiff::Timestamp::UNIX_EPOCH),
            observed_generation: None,
        }
    }

    fn wanted(type_: &str, op: &str, values: &[&str]) -> MatchCondition {
        MatchCondition {
            condition_type: type_.into(),
            operator: op.into(),
            status_values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    fn cluster(name: &str, ready: &str, taints: &[(&str, &str)]) -> Cluster {
        let mut c = Cluster::new(name, serde_json::from_value::<ClusterSpec>(json!({"syncMode": "Push"})).unwrap());
        c.spec.taints = Some(
            taints
                .iter()
                .map(|(k, e)| Taint { key: k.to_string(), effect: e.to_string(), ..Default::default() })
                .collect(),
        );
        c.status = Some(ClusterStatus { conditions: Some(vec![condition("Ready", ready)]), ..Default::default() });
        c
    }

    fn not_ready_policy(name: &str, targets: Option<Vec<&str>>) -> Arc<ClusterTaintPolicy> {
        let spec = ClusterTaintPolicySpec {
            target_clusters: targets.map(|names| serde_json::from_value(json!({"clusterNames": names})).unwrap()),
            add_on_conditions: vec![wanted("Ready", MATCH_NOT_IN, &["True"])],
            remove_on_conditions: vec![wanted("Ready", MATCH_IN, &["True"])],
            taints: vec![PolicyTaint {
                key: "cluster.karmada.io/not-ready".into(),
                effect: "NoExecute".into(),
                value: String::new(),
            }],
        };
        Arc::new(ClusterTaintPolicy::new(name, spec))
    }

    #[test]
    fn in_and_not_in_match_as_upstream() {
        let ready = [condition("Ready", "True")];
        let down = [condition("Ready", "Unknown")];
        assert!(conditions_match(&ready, &[wanted("Ready", MATCH_IN, &["True"])]));
        assert!(!conditions_match(&down, &[wanted("Ready", MATCH_IN, &["True"])]));
        assert!(conditions_match(&down, &[wanted("Ready", MATCH_NOT_IN, &["True"])]));
        assert!(conditions_match(&down, &[wanted("Ready", MATCH_IN, &["False", "Unknown"])]));
        // An unreported condition type matches neither operator; no conditions never match.
        assert!(!conditions_match(&ready, &[wanted("Other", MATCH_NOT_IN, &["True"])]));
        assert!(!conditions_match(&ready, &[]));
        // ANDed, and an unknown operator matches nothing.
        let both = [wanted("Ready", MATCH_IN, &["True"]), wanted("Ready", MATCH_NOT_IN, &["True"])];
        assert!(!conditions_match(&ready, &both));
        assert!(!conditions_match(&ready, &[wanted("Ready", "Exists", &["True"])]));
    }

    #[test]
    fn a_policy_adds_its_taint_once_and_removes_it_when_the_cluster_recovers() {
        let now = jiff::Timestamp::from_second(1_700_000_000).unwrap();
        let policies = [not_ready_policy("p", None)];
        let down = cluster("m2", "Unknown", &[("cluster.karmada.io/unreachable", "NoSchedule")]);
        let tainted = taints_after_policies(&down, &policies, now);
        assert_eq!(tainted.len(), 2);
        assert_eq!(
            (tainted[1].key.as_str(), tainted[1].effect.as_str()),
            ("cluster.karmada.io/not-ready", "NoExecute")
        );
        assert_eq!(tainted[1].time_added, Some(Time(now)));
        // Already there: kept as it was, its time unchanged.
        let mut again = down.clone();
        again.spec.taints = Some(tainted.clone());
        assert_eq!(taints_after_policies(&again, &policies, now + jiff::SignedDuration::from_secs(9)), tainted);
        let mut recovered = again.clone();
        recovered.status =
            Some(ClusterStatus { conditions: Some(vec![condition("Ready", "True")]), ..Default::default() });
        assert_eq!(taints_after_policies(&recovered, &policies, now).len(), 1);
    }

    #[test]
    fn clusters_a_policy_does_not_target_keep_their_taints() {
        let policies = [not_ready_policy("p", Some(vec!["m1"]))];
        let down = cluster("m2", "False", &[]);
        assert!(taints_after_policies(&down, &policies, jiff::Timestamp::now()).is_empty());
    }

    #[test]
    fn the_event_message_lists_taints_as_upstream() {
        let taints = [
            Taint { key: "a".into(), effect: "NoExecute".into(), ..Default::default() },
            Taint { key: "b".into(), effect: "NoSchedule".into(), value: Some("v".into()), ..Default::default() },
        ];
        assert_eq!(taints_message(&taints), "{Key:a,Effect:NoExecute},{Key:b,Value:v,Effect:NoSchedule}");
        assert_eq!(taints_message(&[]), "cluster now does not have taints");
    }
}
