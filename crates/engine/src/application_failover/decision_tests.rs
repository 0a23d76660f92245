//! The application failover rules: health split, toleration and eviction task options.

use std::collections::BTreeMap;

use karmadactl_karmada_api::policy::failover::{DecisionConditions, StatePreservation, StatePreservationRule};
use karmadactl_karmada_api::work::eviction::GracefulEvictionTask;
use serde_json::json;

use super::*;

fn item(cluster: &str, health: Option<ResourceHealth>) -> AggregatedStatusItem {
    AggregatedStatusItem {
        cluster_name: cluster.into(),
        health,
        status: Some(json!({"replicas": 2})),
        ..Default::default()
    }
}

fn key() -> BindingKey {
    BindingKey { namespace: Some("default".into()), name: "web-deployment".into() }
}

#[test]
fn unhealthy_clusters_being_evicted_are_left_out_and_unreported_ones_are_in_neither_list() {
    let spec = ResourceBindingSpec {
        graceful_eviction_tasks: Some(vec![GracefulEvictionTask { from_cluster: "m4".into(), ..Default::default() }]),
        ..Default::default()
    };
    let items = [
        item("m1", Some(ResourceHealth::Unhealthy)),
        item("m2", Some(ResourceHealth::Healthy)),
        item("m3", Some(ResourceHealth::Unknown)),
        item("m4", Some(ResourceHealth::Unhealthy)),
        item("m5", None),
    ];
    let (unhealthy, others) = split_by_health(&items, &spec);
    assert_eq!(unhealthy, ["m1"]);
    assert_eq!(others, ["m2", "m3"]);
}

#[test]
fn a_cluster_fails_once_unhealthy_for_the_whole_toleration() {
    let t = UnhealthySince::default();
    let start = Instant::now();
    let toleration = Duration::from_secs(10);
    let unhealthy = vec!["m1".to_string()];
    assert_eq!(t.detect(&key(), &unhealthy, toleration, start), (vec![], Some(toleration)));
    // Seen again later: the first sighting counts.
    let later = start + Duration::from_secs(4);
    assert_eq!(t.detect(&key(), &unhealthy, toleration, later), (vec![], Some(Duration::from_secs(6))));
    let both = vec!["m1".to_string(), "m2".to_string()];
    let (expired, next) = t.detect(&key(), &both, toleration, start + toleration);
    assert_eq!(expired, ["m1"]);
    // m2 is first seen now: its whole toleration is ahead.
    assert_eq!(next, Some(toleration));
    let (expired, next) = t.detect(&key(), &both, toleration, start + toleration + Duration::from_secs(3));
    assert_eq!(expired, ["m1"]);
    assert_eq!(next, Some(Duration::from_secs(7)));
}

#[test]
fn healthy_again_or_no_longer_targeted_starts_the_toleration_over() {
    let t = UnhealthySince::default();
    let start = Instant::now();
    let toleration = Duration::from_secs(10);
    let clusters = vec!["m1".to_string(), "m2".to_string()];
    t.detect(&key(), &clusters, toleration, start);
    // m1 healthy again, m2 no longer a target.
    t.keep_only(&key(), &["m1".to_string()], &["m1".to_string()]);
    let (expired, next) = t.detect(&key(), &clusters, toleration, start + toleration);
    assert!(expired.is_empty());
    assert_eq!(next, Some(toleration));
    t.forget(&key());
    assert_eq!(t.detect(&key(), &clusters[..1], Duration::ZERO, start).0, ["m1"]);
}

fn behavior(mode: Option<PurgeMode>, grace: Option<i32>, rules: &[(&str, &str)]) -> ApplicationFailoverBehavior {
    ApplicationFailoverBehavior {
        decision_conditions: DecisionConditions { toleration_seconds: Some(5) },
        purge_mode: mode,
        grace_period_seconds: grace,
        state_preservation: (!rules.is_empty()).then(|| StatePreservation {
            rules: rules
                .iter()
                .map(|(l, p)| StatePreservationRule { alias_label_name: l.to_string(), json_path: p.to_string() })
                .collect(),
        }),
    }
}

fn gates(graceful: bool, injection: bool) -> FeatureGates {
    FeatureGates { graceful_eviction: graceful, stateful_failover_injection: injection, ..Default::default() }
}

#[test]
fn task_options_follow_the_purge_mode() {
    let items = [item("m1", Some(ResourceHealth::Unhealthy))];
    let before = vec!["m1".to_string(), "m2".to_string()];
    let graceful =
        task_options(&behavior(None, Some(30), &[]), &items, "m1", "p", &before, &gates(true, false)).unwrap();
    assert_eq!(graceful.purge_mode, Some(PurgeMode::Gracefully));
    assert_eq!(graceful.grace_period_seconds, Some(30));
    assert_eq!((graceful.reason.as_str(), graceful.producer.as_str()), ("ApplicationFailure", "p"));
    assert_eq!(graceful.suppress_deletion, None);
    let never =
        task_options(&behavior(Some(PurgeMode::Never), None, &[]), &items, "m1", "p", &before, &gates(true, false))
            .unwrap();
    assert_eq!((never.suppress_deletion, never.grace_period_seconds), (Some(true), None));
    let directly =
        task_options(&behavior(Some(PurgeMode::Directly), None, &[]), &items, "m1", "p", &before, &gates(true, false))
            .unwrap();
    assert_eq!((directly.purge_mode, directly.suppress_deletion), (Some(PurgeMode::Directly), None));
    let err = task_options(&behavior(None, Some(30), &[]), &items, "m1", "p", &before, &gates(false, false));
    assert_eq!(err.unwrap_err(), "GracefulEviction featureGate must be enabled when purgeMode is Gracefully");
}

#[test]
fn state_is_preserved_only_with_the_gate_and_a_collected_status() {
    let items = [item("m1", Some(ResourceHealth::Unhealthy)), item("m2", None)];
    let before = vec!["m1".to_string(), "m2".to_string()];
    let b = behavior(Some(PurgeMode::Directly), None, &[("failover.example/replicas", "{.replicas}")]);
    let off = task_options(&b, &items, "m1", "p", &before, &gates(true, false)).unwrap();
    assert_eq!((off.preserved_label_state, off.clusters_before_failover), (None, None));
    let on = task_options(&b, &items, "m1", "p", &before, &gates(true, true)).unwrap();
    assert_eq!(
        on.preserved_label_state,
        Some(BTreeMap::from([("failover.example/replicas".to_string(), "2".to_string())]))
    );
    assert_eq!(on.clusters_before_failover, Some(before.clone()));
    let mut no_status = items.clone();
    no_status[0].status = None;
    assert_eq!(
        task_options(&b, &no_status, "m1", "p", &before, &gates(true, true)).unwrap_err(),
        "the application status has not yet been collected from Cluster(m1)"
    );
    let bad = behavior(Some(PurgeMode::Directly), None, &[("x", "{.nothing}")]);
    assert!(task_options(&bad, &items, "m1", "p", &before, &gates(true, true)).is_err());
}
