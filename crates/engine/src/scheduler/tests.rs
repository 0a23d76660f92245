//! Scheduler decisions on small fleets, each asserted exactly.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::core::v1::Taint;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use karmadactl_karmada_api::cluster::{Cluster, ClusterSpec, ClusterStatus, ClusterSyncMode, ResourceSummary};
use karmadactl_karmada_api::policy::placement::Placement;
use karmadactl_karmada_api::work::binding::TargetCluster;
use karmadactl_karmada_api::work::replicas::ReplicaRequirements;
use serde_json::json;

use super::{AssignmentMode, ScheduleError, ScheduleInput, ScheduleResult, WorkloadPeers, schedule};

fn cluster(name: &str) -> Cluster {
    Cluster::new(
        name,
        ClusterSpec {
            id: None,
            sync_mode: ClusterSyncMode::Push,
            api_endpoint: None,
            secret_ref: None,
            impersonator_secret_ref: None,
            insecure_skip_tls_verification: None,
            proxy_url: None,
            proxy_header: None,
            provider: None,
            region: None,
            zone: None,
            zones: None,
            taints: None,
            resource_models: None,
        },
    )
}

fn labeled(mut c: Cluster, labels: &[(&str, &str)]) -> Cluster {
    c.metadata.labels = Some(labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect());
    c
}

fn located(mut c: Cluster, provider: &str, region: &str, zone: &str) -> Cluster {
    let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
    c.spec.provider = some(provider);
    c.spec.region = some(region);
    c.spec.zone = some(zone);
    c
}

fn tainted(mut c: Cluster, key: &str, value: &str, effect: &str) -> Cluster {
    let taint = Taint {
        key: key.into(),
        value: (!value.is_empty()).then(|| value.to_string()),
        effect: effect.into(),
        time_added: None,
    };
    c.spec.taints.get_or_insert_with(Vec::new).push(taint);
    c
}

fn quantities(list: &[(&str, &str)]) -> Option<BTreeMap<String, Quantity>> {
    Some(list.iter().map(|(k, v)| (k.to_string(), Quantity(v.to_string()))).collect())
}

/// A resource summary: what the nodes offer, what running pods hold and what pending pods ask.
fn summary(
    mut c: Cluster,
    allocatable: &[(&str, &str)],
    allocated: &[(&str, &str)],
    allocating: &[(&str, &str)],
) -> Cluster {
    c.status = Some(ClusterStatus {
        resource_summary: Some(ResourceSummary {
            allocatable: quantities(allocatable),
            allocated: quantities(allocated),
            allocating: quantities(allocating),
            allocatable_modelings: None,
        }),
        ..ClusterStatus::default()
    });
    c
}

/// Room for `cpus` one-CPU replicas (and plenty of pods).
fn cpus(c: Cluster, cpus: &str) -> Cluster {
    summary(c, &[("pods", "110"), ("cpu", cpus), ("memory", "64Gi")], &[], &[])
}

fn one_cpu() -> ReplicaRequirements {
    ReplicaRequirements { resource_request: quantities(&[("cpu", "1")]), ..ReplicaRequirements::default() }
}

fn placement(value: serde_json::Value) -> Placement {
    serde_json::from_value(value).expect("a valid placement")
}

fn previous(list: &[(&str, i32)]) -> Vec<TargetCluster> {
    list.iter().map(|(n, r)| TargetCluster { name: n.to_string(), replicas: Some(*r), components: None }).collect()
}

fn run_with(
    placement: &Placement,
    replicas: i32,
    requirements: Option<&ReplicaRequirements>,
    clusters: &[Cluster],
    previous: &[TargetCluster],
) -> Result<ScheduleResult, ScheduleError> {
    run_in(AssignmentMode::Steady, placement, replicas, requirements, clusters, previous)
}

fn run_in(
    mode: AssignmentMode,
    placement: &Placement,
    replicas: i32,
    requirements: Option<&ReplicaRequirements>,
    clusters: &[Cluster],
    previous: &[TargetCluster],
) -> Result<ScheduleResult, ScheduleError> {
    let clusters: Vec<Arc<Cluster>> = clusters.iter().cloned().map(Arc::new).collect();
    schedule(&ScheduleInput {
        placement,
        replicas,
        replica_requirements: requirements,
        clusters: &clusters,
        previous,
        evicting: &[],
        mode,
        peers: &WorkloadPeers::default(),
    })
}

fn run(placement: &Placement, replicas: i32, clusters: &[Cluster]) -> Result<ScheduleResult, ScheduleError> {
    run_with(placement, replicas, None, clusters, &[])
}

/// The decision as `(cluster, replicas)` pairs.
fn split(result: Result<ScheduleResult, ScheduleError>) -> Vec<(String, Option<i32>)> {
    result.expect("a placement").clusters.into_iter().map(|t| (t.name, t.replicas)).collect()
}

fn expect(list: &[(&str, i32)]) -> Vec<(String, Option<i32>)> {
    list.iter().map(|(n, r)| (n.to_string(), Some(*r))).collect()
}

fn message(result: Result<ScheduleResult, ScheduleError>) -> String {
    result.expect_err("no placement").message
}

fn abc() -> Vec<Cluster> {
    vec![cluster("a"), cluster("b"), cluster("c")]
}

fn weighted(rules: serde_json::Value) -> Placement {
    placement(json!({"replicaScheduling": {
        "replicaSchedulingType": "Divided",
        "replicaDivisionPreference": "Weighted",
        "weightPreference": {"staticWeightList": rules}
    }}))
}

fn by_name(names: &[&str], weight: i64) -> serde_json::Value {
    json!({"targetCluster": {"clusterNames": names}, "weight": weight})
}

fn dynamic() -> Placement {
    placement(json!({"replicaScheduling": {
        "replicaSchedulingType": "Divided",
        "replicaDivisionPreference": "Weighted",
        "weightPreference": {"dynamicWeight": "AvailableReplicas"}
    }}))
}

fn aggregated() -> Placement {
    placement(json!({"replicaScheduling": {
        "replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"
    }}))
}

// --- filters ---

#[test]
fn no_affinity_selects_every_cluster_and_duplicates_by_default() {
    assert_eq!(split(run(&Placement::default(), 3, &abc())), expect(&[("a", 3), ("b", 3), ("c", 3)]));
}

#[test]
fn cluster_names_select_only_the_named_clusters() {
    let p = placement(json!({"clusterAffinity": {"clusterNames": ["c", "a", "missing"]}}));
    assert_eq!(split(run(&p, 2, &abc())), expect(&[("a", 2), ("c", 2)]));
}

#[test]
fn label_selector_matches_labels_and_expressions() {
    let clusters = vec![
        labeled(cluster("a"), &[("env", "prod"), ("tier", "gold")]),
        labeled(cluster("b"), &[("env", "prod"), ("tier", "silver")]),
        labeled(cluster("c"), &[("env", "dev"), ("tier", "gold")]),
        cluster("d"),
    ];
    let p = placement(json!({"clusterAffinity": {"labelSelector": {
        "matchLabels": {"env": "prod"},
        "matchExpressions": [{"key": "tier", "operator": "In", "values": ["gold", "bronze"]}]
    }}}));
    assert_eq!(split(run(&p, 1, &clusters)), expect(&[("a", 1)]));
}

#[test]
fn exclude_wins_over_cluster_names() {
    let p = placement(json!({"clusterAffinity": {"clusterNames": ["a", "b"], "exclude": ["b"]}}));
    assert_eq!(split(run(&p, 1, &abc())), expect(&[("a", 1)]));
    let p = placement(json!({"clusterAffinity": {"exclude": ["a"]}}));
    assert_eq!(split(run(&p, 1, &abc())), expect(&[("b", 1), ("c", 1)]));
}

#[test]
fn field_selector_matches_provider_region_and_zone() {
    let clusters = vec![
        located(cluster("a"), "aws", "us-east", "us-east-1a"),
        located(cluster("b"), "gcp", "us-east", "us-east-1b"),
        located(cluster("c"), "aws", "eu-west", "eu-west-1a"),
        cluster("d"),
    ];
    let p = placement(json!({"clusterAffinity": {"fieldSelector": {"matchExpressions": [
        {"key": "region", "operator": "In", "values": ["us-east", "ap-south"]},
        {"key": "provider", "operator": "NotIn", "values": ["gcp"]}
    ]}}}));
    assert_eq!(split(run(&p, 1, &clusters)), expect(&[("a", 1)]));
    let p = placement(json!({"clusterAffinity": {"fieldSelector": {"matchExpressions": [
        {"key": "zone", "operator": "In", "values": ["us-east-1b", "eu-west-1a"]}
    ]}}}));
    assert_eq!(split(run(&p, 1, &clusters)), expect(&[("b", 1), ("c", 1)]));
    // NotIn matches a cluster without the field, as a label requirement does.
    let p = placement(json!({"clusterAffinity": {"fieldSelector": {"matchExpressions": [
        {"key": "provider", "operator": "NotIn", "values": ["aws"]}
    ]}}}));
    assert_eq!(split(run(&p, 1, &clusters)), expect(&[("b", 1), ("d", 1)]));
}

#[test]
fn deleting_cluster_is_never_chosen() {
    let mut deleting = cluster("b");
    deleting.metadata.deletion_timestamp = Some(Time(Default::default()));
    let clusters = vec![cluster("a"), deleting];
    assert_eq!(split(run(&Placement::default(), 1, &clusters)), expect(&[("a", 1)]));
    // Counted among all clusters but with no reason, as upstream reports it.
    let p = placement(json!({"clusterAffinity": {"clusterNames": ["b"]}}));
    assert_eq!(
        message(run(&p, 1, &clusters)),
        "0/2 clusters are available: 1 cluster(s) did not match the placement cluster affinity constraint."
    );
}

#[test]
fn no_schedule_taint_blocks_new_clusters_but_keeps_scheduled_ones() {
    let clusters = vec![cluster("a"), tainted(cluster("b"), "maintenance", "", "NoSchedule")];
    assert_eq!(split(run(&Placement::default(), 2, &clusters)), expect(&[("a", 2)]));
    let kept = run_with(&Placement::default(), 2, None, &clusters, &previous(&[("b", 2)]));
    assert_eq!(split(kept), expect(&[("a", 2), ("b", 2)]));
    // PreferNoSchedule never blocks.
    let soft = vec![tainted(cluster("a"), "busy", "", "PreferNoSchedule")];
    assert_eq!(split(run(&Placement::default(), 1, &soft)), expect(&[("a", 1)]));
}

#[test]
fn no_execute_taint_keeps_scheduled_clusters_for_the_taint_manager() {
    let clusters = vec![cluster("a"), tainted(cluster("b"), "cluster.karmada.io/not-ready", "", "NoExecute")];
    let result = run_with(&Placement::default(), 2, None, &clusters, &previous(&[("a", 2), ("b", 2)]));
    assert_eq!(split(result), expect(&[("a", 2), ("b", 2)]));
    assert_eq!(split(run(&Placement::default(), 2, &clusters)), expect(&[("a", 2)]));
}

#[test]
fn clusters_being_evicted_from_are_filtered_out() {
    let clusters = [cluster("a"), cluster("b"), cluster("c")];
    let p = placement(json!({"replicaScheduling": {
        "replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted"
    }}));
    let kept = &previous(&[("a", 2), ("c", 2)]);
    let input = |evicting| {
        let clusters: Vec<Arc<Cluster>> = clusters.iter().cloned().map(Arc::new).collect();
        schedule(&ScheduleInput {
            placement: &p,
            replicas: 6,
            replica_requirements: None,
            clusters: &clusters,
            previous: kept,
            evicting,
            mode: AssignmentMode::Steady,
            peers: &WorkloadPeers::default(),
        })
    };
    let moved = input(&["b"]).unwrap();
    assert!(moved.clusters.iter().all(|t| t.name != "b"), "{moved:?}");
    assert_eq!(moved.clusters.iter().map(|t| t.replicas.unwrap()).sum::<i32>(), 6);
    let all = ["a", "b", "c"];
    assert_eq!(message(input(&all)), "0/3 clusters are available: 3 cluster(s) is in the process of eviction.");
}

#[test]
fn tolerations_follow_kubernetes_matching() {
    let clusters = vec![
        tainted(cluster("a"), "dedicated", "gpu", "NoSchedule"),
        tainted(cluster("b"), "dedicated", "cpu", "NoSchedule"),
        tainted(cluster("c"), "other", "", "NoExecute"),
    ];
    let equal = placement(json!({"clusterTolerations": [
        {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}
    ]}));
    assert_eq!(split(run(&equal, 1, &clusters)), expect(&[("a", 1)]));
    let exists = placement(json!({"clusterTolerations": [{"key": "dedicated", "operator": "Exists"}]}));
    assert_eq!(split(run(&exists, 1, &clusters)), expect(&[("a", 1), ("b", 1)]));
    let wrong_effect =
        placement(json!({"clusterTolerations": [{"key": "other", "operator": "Exists", "effect": "NoSchedule"}]}));
    assert!(run(&wrong_effect, 1, &clusters).is_err());
    let everything = placement(json!({"clusterTolerations": [{"operator": "Exists"}]}));
    assert_eq!(split(run(&everything, 1, &clusters)), expect(&[("a", 1), ("b", 1), ("c", 1)]));
}

#[test]
fn error_message_counts_sorted_reasons() {
    let clusters =
        vec![tainted(cluster("a"), "cluster.karmada.io/unschedulable", "", "NoSchedule"), cluster("b"), cluster("c")];
    let p = placement(json!({"clusterAffinity": {"clusterNames": ["a"]}}));
    assert_eq!(
        message(run(&p, 1, &clusters)),
        "0/3 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/unschedulable:NoSchedule}, \
         2 cluster(s) did not match the placement cluster affinity constraint."
    );
    let valued = vec![tainted(cluster("a"), "dedicated", "gpu", "NoExecute")];
    assert_eq!(
        message(run(&Placement::default(), 1, &valued)),
        "0/1 clusters are available: 1 cluster(s) had untolerated taint {dedicated=gpu:NoExecute}."
    );
    assert_eq!(message(run(&Placement::default(), 1, &[])), "0/0 clusters are available: .");
}

// --- clusterAffinities ---

#[test]
fn cluster_affinities_fall_back_in_order_and_report_the_term_used() {
    let clusters = vec![tainted(cluster("a"), "down", "", "NoSchedule"), cluster("b"), cluster("c")];
    let p = placement(json!({"clusterAffinities": [
        {"affinityName": "primary", "clusterNames": ["a"]},
        {"affinityName": "backup", "clusterNames": ["b", "c"]},
        {"affinityName": "last", "clusterNames": ["c"]}
    ]}));
    let result = run(&p, 2, &clusters).expect("the backup term schedules");
    assert_eq!(result.observed_affinity_name.as_deref(), Some("backup"));
    assert_eq!(result.clusters, previous(&[("b", 2), ("c", 2)]));

    let healthy = abc();
    let result = run(&p, 2, &healthy).expect("the primary term schedules");
    assert_eq!(result.observed_affinity_name.as_deref(), Some("primary"));
    assert_eq!(result.clusters, previous(&[("a", 2)]));
}

#[test]
fn cluster_affinities_that_all_fail_return_the_first_error() {
    let p = placement(json!({"clusterAffinities": [
        {"affinityName": "one", "clusterNames": ["x"]},
        {"affinityName": "two", "clusterNames": ["y"]}
    ]}));
    assert_eq!(
        message(run(&p, 1, &abc())),
        "0/3 clusters are available: 3 cluster(s) did not match the placement cluster affinity constraint."
    );
}

#[test]
fn plain_cluster_affinity_reports_no_affinity_name() {
    let p = placement(json!({"clusterAffinity": {"clusterNames": ["a"]}}));
    assert_eq!(run(&p, 1, &abc()).expect("scheduled").observed_affinity_name, None);
}

// --- division ---

#[test]
fn zero_replicas_send_the_whole_object_to_every_cluster() {
    let result = run(&weighted(json!([by_name(&["a"], 1)])), 0, &abc()).expect("scheduled");
    let none = |n: &str| TargetCluster { name: n.into(), replicas: None, components: None };
    assert_eq!(result.clusters, vec![none("a"), none("b"), none("c")]);
}

#[test]
fn duplicated_gives_every_cluster_all_replicas() {
    let p = placement(json!({"replicaScheduling": {"replicaSchedulingType": "Duplicated"}}));
    assert_eq!(split(run(&p, 5, &abc())), expect(&[("a", 5), ("b", 5), ("c", 5)]));
}

#[test]
fn static_weights_divide_proportionally() {
    let p = weighted(json!([by_name(&["a"], 2), by_name(&["b"], 1)]));
    assert_eq!(split(run(&p, 6, &abc())), expect(&[("a", 4), ("b", 2)]));
}

#[test]
fn static_weight_remainders_go_to_the_heaviest_then_previous_then_name() {
    let p = weighted(json!([by_name(&["a"], 2), by_name(&["b"], 1)]));
    assert_eq!(split(run(&p, 5, &abc())), expect(&[("a", 4), ("b", 1)]));

    let equal = weighted(json!([by_name(&["a", "b", "c"], 1)]));
    assert_eq!(split(run(&equal, 7, &abc())), expect(&[("a", 3), ("b", 2), ("c", 2)]));
    // The cluster that held the extra replica keeps it.
    let kept = run_with(&equal, 7, None, &abc(), &previous(&[("a", 2), ("b", 2), ("c", 3)]));
    assert_eq!(split(kept), expect(&[("a", 2), ("b", 2), ("c", 3)]));
    // Fewer replicas than clusters: the first by name get one each.
    assert_eq!(split(run(&equal, 2, &abc())), expect(&[("a", 1), ("b", 1)]));
}

#[test]
fn static_weight_takes_the_largest_matching_rule_and_skips_unweighted_clusters() {
    let clusters = vec![labeled(cluster("a"), &[("big", "yes")]), cluster("b"), cluster("c")];
    let p = weighted(json!([
        by_name(&["a", "b"], 1),
        {"targetCluster": {"labelSelector": {"matchLabels": {"big": "yes"}}}, "weight": 3}
    ]));
    assert_eq!(split(run(&p, 8, &clusters)), expect(&[("a", 6), ("b", 2)]));
}

#[test]
fn all_zero_weights_mean_equal_weights() {
    let p = weighted(json!([by_name(&["elsewhere"], 4)]));
    assert_eq!(split(run(&p, 4, &abc())), expect(&[("a", 2), ("b", 1), ("c", 1)]));
    // Divided without a preference or weights: the webhook's Weighted, weighing all equally.
    let p = placement(json!({"replicaScheduling": {"replicaSchedulingType": "Divided"}}));
    assert_eq!(split(run(&p, 6, &abc())), expect(&[("a", 2), ("b", 2), ("c", 2)]));
}

#[test]
fn dynamic_weights_follow_available_replicas() {
    let clusters = vec![cpus(cluster("a"), "4"), cpus(cluster("b"), "2"), cluster("c")];
    let req = one_cpu();
    assert_eq!(split(run_with(&dynamic(), 6, Some(&req), &clusters, &[])), expect(&[("a", 4), ("b", 2)]));
    assert_eq!(split(run_with(&dynamic(), 3, Some(&req), &clusters, &[])), expect(&[("a", 2), ("b", 1)]));
}

#[test]
fn dynamic_weights_fail_when_the_fleet_is_too_small() {
    let clusters = vec![cpus(cluster("a"), "4"), cpus(cluster("b"), "2"), cluster("c")];
    assert_eq!(
        message(run_with(&dynamic(), 7, Some(&one_cpu()), &clusters, &[])),
        "failed to assign replicas: failed to scale up: Clusters available replicas 6 are not enough to schedule."
    );
}

#[test]
fn dynamic_scale_up_adds_to_the_previous_assignment() {
    let clusters = vec![cpus(cluster("a"), "4"), cpus(cluster("b"), "2")];
    let result = run_with(&dynamic(), 6, Some(&one_cpu()), &clusters, &previous(&[("a", 1), ("b", 2)]));
    // 3 new replicas weighted 4:2 → 2 and 1, added to the 1 and 2 already there.
    assert_eq!(split(result), expect(&[("a", 3), ("b", 3)]));
}

#[test]
fn dynamic_scale_down_shrinks_in_proportion_and_keeps_equal_counts() {
    let clusters = vec![cpus(cluster("a"), "1"), cpus(cluster("b"), "1")];
    let result = run_with(&dynamic(), 3, Some(&one_cpu()), &clusters, &previous(&[("a", 4), ("b", 2)]));
    assert_eq!(split(result), expect(&[("a", 2), ("b", 1)]));
    let same = run_with(&dynamic(), 6, Some(&one_cpu()), &clusters, &previous(&[("a", 4), ("b", 2)]));
    assert_eq!(split(same), expect(&[("a", 4), ("b", 2)]));
}

#[test]
fn fresh_mode_divides_every_replica_anew_counting_what_runs_as_room() {
    use AssignmentMode::{Fresh, Steady};
    // b runs all 6; a has room for 4, b for 2 more.
    let clusters = vec![cpus(cluster("a"), "4"), cpus(cluster("b"), "2")];
    let before = previous(&[("b", 6)]);
    let req = one_cpu();
    let steady = run_in(Steady, &dynamic(), 6, Some(&req), &clusters, &before);
    assert_eq!(split(steady), expect(&[("b", 6)]));
    // Rooms 4 and 2 + 6: 6 replicas weighted 4:8.
    let fresh = run_in(Fresh, &dynamic(), 6, Some(&req), &clusters, &before);
    assert_eq!(split(fresh), expect(&[("a", 2), ("b", 4)]));

    // Aggregated: b's 5 replicas stay in Steady mode; Fresh picks the roomiest cluster, a
    // (10 against b's 5 + 5; equal rooms go by name).
    let clusters = vec![cpus(cluster("a"), "10"), cpus(cluster("b"), "5")];
    let before = previous(&[("b", 5)]);
    assert_eq!(split(run_in(Steady, &aggregated(), 5, Some(&req), &clusters, &before)), expect(&[("b", 5)]));
    assert_eq!(split(run_in(Fresh, &aggregated(), 5, Some(&req), &clusters, &before)), expect(&[("a", 5)]));

    // Static weights and Duplicated do not depend on the mode.
    let w = weighted(json!([by_name(&["a"], 1), by_name(&["b"], 1)]));
    for mode in [Steady, Fresh] {
        assert_eq!(split(run_in(mode, &w, 4, None, &clusters, &before)), expect(&[("a", 2), ("b", 2)]));
    }
    // Too little room, counted afresh, fails with upstream's step name.
    let err = run_in(Fresh, &dynamic(), 21, Some(&req), &clusters, &before);
    assert_eq!(
        message(err),
        "failed to assign replicas: failed to do fresh scale: Clusters available replicas 20 are not enough to schedule."
    );
}

#[test]
fn fresh_mode_only_after_a_trigger_later_than_the_last_schedule() {
    let t = |s: i64| Some(jiff::Timestamp::from_second(s).unwrap());
    assert_eq!(AssignmentMode::of(t(10), t(9)), AssignmentMode::Fresh);
    assert_eq!(AssignmentMode::of(t(10), t(10)), AssignmentMode::Steady);
    assert_eq!(AssignmentMode::of(t(10), t(11)), AssignmentMode::Steady);
    // Never scheduled: the first schedule comes first.
    assert_eq!(AssignmentMode::of(t(10), None), AssignmentMode::Steady);
    assert_eq!(AssignmentMode::of(None, t(10)), AssignmentMode::Steady);
}

#[test]
fn aggregated_uses_as_few_clusters_as_possible() {
    let clusters = vec![cpus(cluster("a"), "10"), cpus(cluster("b"), "5"), cpus(cluster("c"), "3")];
    let req = one_cpu();
    assert_eq!(split(run_with(&aggregated(), 8, Some(&req), &clusters, &[])), expect(&[("a", 8)]));
    assert_eq!(split(run_with(&aggregated(), 12, Some(&req), &clusters, &[])), expect(&[("a", 8), ("b", 4)]));
    // New replicas join the cluster already running some, when it has room.
    let result = run_with(&aggregated(), 5, Some(&req), &clusters, &previous(&[("b", 2)]));
    assert_eq!(split(result), expect(&[("b", 5)]));
}

#[test]
fn estimates_subtract_allocated_and_allocating_for_every_resource() {
    let req = ReplicaRequirements {
        resource_request: quantities(&[("cpu", "500m"), ("memory", "1Gi")]),
        ..ReplicaRequirements::default()
    };
    let clusters = vec![
        // cpu (8 − 2 − 1) / 0.5 = 10 and memory (16 − 4 − 2) Gi / 1Gi = 10, but only
        // 110 − 100 − 5 = 5 pod slots are free.
        summary(
            cluster("a"),
            &[("pods", "110"), ("cpu", "8"), ("memory", "16Gi")],
            &[("pods", "100"), ("cpu", "2"), ("memory", "4Gi")],
            &[("pods", "5"), ("cpu", "1"), ("memory", "2Gi")],
        ),
        // memory is the limit: 3Gi / 1Gi = 3.
        summary(cluster("b"), &[("pods", "110"), ("cpu", "8"), ("memory", "3Gi")], &[], &[]),
        // No memory reported: nothing fits.
        summary(cluster("c"), &[("pods", "110"), ("cpu", "8")], &[], &[]),
        // No summary: nothing fits.
        cluster("d"),
    ];
    assert_eq!(split(run_with(&dynamic(), 8, Some(&req), &clusters, &[])), expect(&[("a", 5), ("b", 3)]));
    assert_eq!(
        message(run_with(&dynamic(), 9, Some(&req), &clusters, &[])),
        "failed to assign replicas: failed to scale up: Clusters available replicas 8 are not enough to schedule."
    );
    // Without requests only pod slots count: 5, 110, 110 and 0; the two remainders go to the
    // heaviest, b and c.
    assert_eq!(split(run_with(&dynamic(), 8, None, &clusters, &[])), expect(&[("b", 4), ("c", 4)]));
}

// --- spread constraints ---

fn regions() -> Vec<Cluster> {
    vec![
        cpus(located(cluster("a"), "aws", "r1", "z1"), "8"),
        cpus(located(cluster("b"), "aws", "r1", "z2"), "2"),
        cpus(located(cluster("c"), "gcp", "r2", "z3"), "6"),
        cpus(located(cluster("d"), "gcp", "r3", "z4"), "1"),
    ]
}

#[test]
fn spread_by_region_takes_the_fewest_roomiest_regions() {
    let p = placement(json!({"spreadConstraints": [
        {"spreadByField": "region", "minGroups": 2, "maxGroups": 3},
        {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 3}
    ]}));
    // r1 (room 10) and r2 (6): the best of each, then the best left, b.
    assert_eq!(split(run_with(&p, 1, Some(&one_cpu()), &regions(), &[])), expect(&[("a", 1), ("b", 1), ("c", 1)]));
    let p = placement(json!({"spreadConstraints": [
        {"spreadByField": "region", "minGroups": 2, "maxGroups": 2},
        {"spreadByField": "cluster", "minGroups": 1, "maxGroups": 2}
    ]}));
    assert_eq!(split(run_with(&p, 1, Some(&one_cpu()), &regions(), &[])), expect(&[("a", 1), ("c", 1)]));
}

#[test]
fn spread_by_region_adds_regions_until_the_cluster_minimum_is_met() {
    let p = placement(json!({"spreadConstraints": [
        {"spreadByField": "region", "minGroups": 1, "maxGroups": 3},
        {"spreadByField": "cluster", "minGroups": 3, "maxGroups": 3}
    ]}));
    // r1 alone has two clusters; r1 and r2 have three.
    assert_eq!(split(run_with(&p, 1, Some(&one_cpu()), &regions(), &[])), expect(&[("a", 1), ("b", 1), ("c", 1)]));
}

#[test]
fn spread_fails_clearly_when_there_are_too_few_groups() {
    let p = placement(json!({"spreadConstraints": [
        {"spreadByField": "region", "minGroups": 4, "maxGroups": 4},
        {"spreadByField": "cluster", "minGroups": 1}
    ]}));
    assert_eq!(
        message(run(&p, 1, &regions())),
        "failed to select clusters: the number of feasible region is less than spreadConstraint.MinGroups"
    );
    let p = placement(json!({"spreadConstraints": [{"spreadByField": "cluster", "minGroups": 5}]}));
    assert_eq!(
        message(run(&p, 1, &regions())),
        "failed to select clusters: the number of feasible clusters is less than spreadConstraint.MinGroups"
    );
}

#[test]
fn spread_by_field_filters_clusters_without_the_field() {
    let clusters = vec![located(cluster("a"), "", "r1", ""), cluster("b")];
    let p = placement(json!({"spreadConstraints": [
        {"spreadByField": "region", "minGroups": 1},
        {"spreadByField": "cluster", "minGroups": 1}
    ]}));
    assert_eq!(split(run(&p, 1, &clusters)), expect(&[("a", 1)]));
    let p = placement(json!({"spreadConstraints": [{"spreadByField": "provider", "minGroups": 1}]}));
    assert_eq!(
        message(run(&p, 1, &clusters)),
        "0/2 clusters are available: 2 cluster(s) didn't have provider property."
    );
}

#[test]
fn spread_by_cluster_swaps_in_roomier_clusters_when_capacity_matters() {
    let p = placement(json!({
        "spreadConstraints": [{"spreadByField": "cluster", "minGroups": 1, "maxGroups": 2}],
        "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"}
    }));
    let clusters = vec![cpus(cluster("a"), "3"), cpus(cluster("b"), "5"), cpus(cluster("c"), "4")];
    // Previously on a and c: they rank first, but 3 + 4 < 9, so a (the weaker) gives way to b.
    let result = run_with(&p, 9, Some(&one_cpu()), &clusters, &previous(&[("a", 1), ("c", 1)]));
    assert_eq!(split(result), expect(&[("b", 5), ("c", 4)]));
    assert_eq!(
        message(run_with(&p, 10, Some(&one_cpu()), &clusters, &[])),
        "failed to select clusters: no enough resource when selecting 2 clusters"
    );
    // Duplicated ignores capacity and takes the two best-ranked.
    let dup = placement(json!({"spreadConstraints": [{"spreadByField": "cluster", "maxGroups": 2}]}));
    assert_eq!(split(run_with(&dup, 9, Some(&one_cpu()), &clusters, &[])), expect(&[("b", 9), ("c", 9)]));
}

#[test]
fn spread_by_provider_and_zone_group_by_those_fields() {
    let p = placement(json!({"spreadConstraints": [
        {"spreadByField": "provider", "minGroups": 2, "maxGroups": 2},
        {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 2}
    ]}));
    // aws (room 10) and gcp (7): the best of each.
    assert_eq!(split(run_with(&p, 1, Some(&one_cpu()), &regions(), &[])), expect(&[("a", 1), ("c", 1)]));
    let p = placement(json!({"spreadConstraints": [
        {"spreadByField": "zone", "minGroups": 3, "maxGroups": 3},
        {"spreadByField": "cluster", "minGroups": 3, "maxGroups": 3}
    ]}));
    // z1 (8), z3 (6), z2 (2); z4 (1) is left out.
    assert_eq!(split(run_with(&p, 1, Some(&one_cpu()), &regions(), &[])), expect(&[("a", 1), ("b", 1), ("c", 1)]));
}

#[test]
fn spread_by_label_groups_by_label_value() {
    let clusters = vec![
        cpus(labeled(cluster("a"), &[("team", "x")]), "1"),
        cpus(labeled(cluster("b"), &[("team", "y")]), "5"),
        cpus(labeled(cluster("c"), &[("team", "y")]), "4"),
        cpus(cluster("d"), "9"),
    ];
    let p = placement(json!({"spreadConstraints": [
        {"spreadByLabel": "team", "minGroups": 2, "maxGroups": 2},
        {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 2}
    ]}));
    assert_eq!(split(run(&p, 1, &clusters)), expect(&[("a", 1), ("b", 1)]));
}

#[test]
fn static_weights_ignore_spread_constraints() {
    let p = placement(json!({
        "spreadConstraints": [{"spreadByField": "cluster", "maxGroups": 1}],
        "replicaScheduling": {
            "replicaSchedulingType": "Divided",
            "replicaDivisionPreference": "Weighted",
            "weightPreference": {"staticWeightList": [by_name(&["a", "b"], 1)]}
        }
    }));
    assert_eq!(split(run(&p, 4, &abc())), expect(&[("a", 2), ("b", 2)]));
}

// --- determinism ---

#[test]
fn the_same_input_in_any_order_gives_the_same_result() {
    let clusters = regions();
    let mut reversed = clusters.clone();
    reversed.reverse();
    for p in [
        weighted(json!([by_name(&["a", "b", "c", "d"], 1)])),
        dynamic(),
        aggregated(),
        placement(json!({"spreadConstraints": [
            {"spreadByField": "region", "minGroups": 2, "maxGroups": 2},
            {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 3}
        ]})),
    ] {
        let req = one_cpu();
        let first = run_with(&p, 7, Some(&req), &clusters, &[]).expect("scheduled");
        assert_eq!(run_with(&p, 7, Some(&req), &clusters, &[]).expect("scheduled"), first);
        assert_eq!(run_with(&p, 7, Some(&req), &reversed, &[]).expect("scheduled"), first);
        let names: Vec<&str> = first.clusters.iter().map(|t| t.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }
}

#[test]
fn workload_peers_narrow_the_clusters_and_explain_a_refusal() {
    let clusters: Vec<Arc<Cluster>> = [cluster("a"), cluster("b"), cluster("c")].into_iter().map(Arc::new).collect();
    let p = Placement::default();
    let with = |peers: &WorkloadPeers, previous: &[TargetCluster]| {
        schedule(&ScheduleInput {
            placement: &p,
            replicas: 0,
            replica_requirements: None,
            clusters: &clusters,
            previous,
            evicting: &[],
            mode: AssignmentMode::Steady,
            peers,
        })
    };
    let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect();
    let whole = |list: &[&str]| list.iter().map(|n| (n.to_string(), None)).collect::<Vec<_>>();

    let together = WorkloadPeers { affinity: vec![names(&["b", "c"]), names(&["c"])], ..Default::default() };
    assert_eq!(split(with(&together, &[])), whole(&["c"]));

    let apart = WorkloadPeers { anti_affinity: names(&["a", "b", "c"]), ..Default::default() };
    assert_eq!(
        message(with(&apart, &[])),
        "0/3 clusters are available: 3 cluster already has workload with the same anti-affinity group."
    );
    // A cluster the binding already uses stays; the others are still kept out.
    assert_eq!(split(with(&apart, &previous(&[("a", 1)]))), whole(&["a"]));

    let nowhere = WorkloadPeers { affinity: vec![names(&["a", "c"]), names(&["c"])], anti_affinity: names(&["c"]) };
    assert_eq!(
        message(with(&nowhere, &[])),
        "0/3 clusters are available: 1 cluster already has workload with the same anti-affinity group, \
         2 ResourceBinding with the same affinity group does not target this cluster."
    );
}
