//! AggregateStatus: upstream's `aggregatestatus_test.go` cases as facts (every kind of the
//! table), and the engine's former aggregation case.

use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::{Value, json};

use crate::native::aggregate_status;

fn item(cluster: &str, status: Option<Value>) -> AggregatedStatusItem {
    AggregatedStatusItem { cluster_name: cluster.into(), status, ..Default::default() }
}

fn template(api_version: &str, kind: &str, generation: i64, status: Value) -> Value {
    json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x", "namespace": "ns", "generation": generation},
           "spec": {}, "status": status})
}

#[test]
fn member_statuses_add_up_and_generation_waits_for_every_member() {
    let d = template("apps/v1", "Deployment", 3, json!({"replicas": 9, "unavailableReplicas": 1, "collisionCount": 1}));
    let a = json!({"replicas": 1, "readyReplicas": 1, "observedGeneration": 2, "generation": 2, "resourceTemplateGeneration": 3});
    let b = json!({"replicas": 1, "readyReplicas": 0, "observedGeneration": 1, "generation": 2, "resourceTemplateGeneration": 3});
    let s = aggregate_status(&d, &[item("a", Some(a.clone())), item("b", Some(b))]).unwrap()["status"].clone();
    assert_eq!(s, json!({"replicas": 2, "readyReplicas": 1, "collisionCount": 1}), "zero counters are left out");
    let s = aggregate_status(&d, &[item("a", Some(a.clone())), item("b", Some(a.clone()))]).unwrap()["status"].clone();
    assert_eq!(s["readyReplicas"], 2);
    assert_eq!(s["observedGeneration"], 3);
    let s = aggregate_status(&d, &[item("a", Some(a.clone())), item("b", None)]).unwrap()["status"].clone();
    assert!(s.get("observedGeneration").is_none(), "a member not yet reported holds it back");
    let stale = json!({"replicas": 1, "observedGeneration": 2, "generation": 2, "resourceTemplateGeneration": 2});
    let s = aggregate_status(&d, &[item("a", Some(stale))]).unwrap()["status"].clone();
    assert!(s.get("observedGeneration").is_none(), "a member made from an older template holds it back");
}

#[test]
fn an_unchanged_aggregate_leaves_the_template_as_it_is() {
    let d = template(
        "apps/v1",
        "Deployment",
        1,
        json!({"replicas": 2, "observedGeneration": 1, "conditions": [{"type": "x"}]}),
    );
    let m = json!({"replicas": 2, "observedGeneration": 1, "generation": 1, "resourceTemplateGeneration": 1});
    assert_eq!(aggregate_status(&d, &[item("a", Some(m))]).unwrap(), d);
    // With no members at all every member has (vacuously) caught up, as upstream counts it.
    let fresh = template("apps/v1", "Deployment", 4, json!({}));
    assert_eq!(aggregate_status(&fresh, &[]).unwrap()["status"], json!({"observedGeneration": 4}));
}

#[test]
fn replica_sets_daemon_sets_and_stateful_sets_sum_their_counters() {
    let m = |extra: Value| {
        let mut s = json!({"observedGeneration": 1, "generation": 1, "resourceTemplateGeneration": 1});
        s.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        s
    };
    let rs = template("apps/v1", "ReplicaSet", 1, json!({}));
    let items =
        [item("a", Some(m(json!({"replicas": 1, "readyReplicas": 1})))), item("b", Some(m(json!({"replicas": 0}))))];
    assert_eq!(
        aggregate_status(&rs, &items).unwrap()["status"],
        json!({"replicas": 1, "readyReplicas": 1, "observedGeneration": 1})
    );
    let ds = template("apps/v1", "DaemonSet", 1, json!({}));
    let items = [
        item("a", Some(m(json!({"desiredNumberScheduled": 2, "numberReady": 2, "numberAvailable": 2})))),
        item("b", Some(m(json!({"desiredNumberScheduled": 1, "numberReady": 0, "numberUnavailable": 1})))),
    ];
    assert_eq!(
        aggregate_status(&ds, &items).unwrap()["status"],
        json!({"currentNumberScheduled": 0, "numberMisscheduled": 0, "desiredNumberScheduled": 3, "numberReady": 2,
               "numberAvailable": 2, "numberUnavailable": 1, "observedGeneration": 1})
    );
    let sts = template("apps/v1", "StatefulSet", 1, json!({}));
    let items = [
        item("a", Some(m(json!({"replicas": 2, "readyReplicas": 2, "currentReplicas": 2})))),
        item("b", Some(m(json!({"replicas": 1})))),
    ];
    assert_eq!(
        aggregate_status(&sts, &items).unwrap()["status"],
        json!({"replicas": 3, "availableReplicas": 0, "readyReplicas": 2, "currentReplicas": 2, "observedGeneration": 1})
    );
}

#[test]
fn load_balancer_points_are_merged_deduplicated_and_sorted() {
    let svc = |t: &str| json!({"apiVersion": "v1", "kind": "Service", "spec": {"type": t}, "status": {}});
    let items = [
        item(
            "a",
            Some(json!({"loadBalancer": {"ingress": [{"ip": "8.8.8.8", "ports": [{"port": 80, "protocol": "TCP"}]}]}})),
        ),
        item("b", Some(json!({"loadBalancer": {"ingress": [{"hostname": "b.example"}, {"ip": "1.1.1.1"}]}}))),
        item(
            "c",
            Some(
                json!({"loadBalancer": {"ingress": [{"ip": "8.8.8.8", "ports": [{"port": 53, "protocol": "UDP"}, {"port": 80, "protocol": "TCP"}]}]}}),
            ),
        ),
        item("d", None),
    ];
    let out = aggregate_status(&svc("LoadBalancer"), &items).unwrap();
    assert_eq!(
        out["status"],
        json!({"loadBalancer": {"ingress": [
            {"hostname": "b.example"},
            {"ip": "1.1.1.1"},
            {"ip": "8.8.8.8", "ports": [{"port": 53, "protocol": "UDP"}, {"port": 80, "protocol": "TCP"}]}
        ]}})
    );
    assert_eq!(
        aggregate_status(&svc("ClusterIP"), &items).unwrap(),
        svc("ClusterIP"),
        "only a load balancer aggregates"
    );
    let ing = json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "spec": {}});
    let out = aggregate_status(&ing, &items[1..2]).unwrap();
    assert_eq!(out["status"], json!({"loadBalancer": {"ingress": [{"hostname": "b.example"}, {"ip": "1.1.1.1"}]}}));
    assert_eq!(aggregate_status(&ing, &[]).unwrap()["status"], json!({"loadBalancer": {}}));
}

#[test]
fn pod_phases_reduce_to_the_worst_and_container_states_are_listed() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "spec": {}, "status": {"phase": "Unknown", "hostIP": "x"}});
    let running = json!({"phase": "Running", "containerStatuses": [{"name": "a", "ready": true, "restartCount": 3, "state": {"running": {}}}]});
    let out =
        aggregate_status(&pod, &[item("a", Some(running.clone())), item("b", Some(json!({"phase": "Succeeded"})))])
            .unwrap();
    assert_eq!(
        out["status"],
        json!({"phase": "Running", "containerStatuses": [
            {"name": "", "state": {"running": {}}, "lastState": {}, "ready": true, "restartCount": 0, "image": "", "imageID": ""}
        ]})
    );
    let out = aggregate_status(&pod, &[item("a", Some(running.clone())), item("b", None)]).unwrap();
    assert_eq!(out["status"]["phase"], "Pending", "a member not yet reported counts as pending");
    let out = aggregate_status(&pod, &[item("a", Some(running)), item("b", Some(json!({"phase": "Failed"})))]).unwrap();
    assert_eq!(out["status"]["phase"], "Failed");
    assert_eq!(aggregate_status(&pod, &[]).unwrap(), pod, "nothing reported changes nothing");
}

#[test]
fn volume_and_claim_phases_follow_upstreams_order() {
    let pv = json!({"apiVersion": "v1", "kind": "PersistentVolume", "spec": {}});
    let phase = |p: &str| Some(json!({"phase": p}));
    let out = aggregate_status(&pv, &[item("a", phase("Bound")), item("b", phase("Available"))]).unwrap();
    assert_eq!(out["status"], json!({"phase": "Available"}));
    let out = aggregate_status(&pv, &[item("a", phase("Released")), item("b", phase("Bound"))]).unwrap();
    assert_eq!(out["status"], json!({"phase": "Bound"}));
    let out = aggregate_status(&pv, &[item("a", phase("Bound")), item("b", None)]).unwrap();
    assert_eq!(out["status"], json!({"phase": "Pending"}));

    let pvc = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "spec": {}});
    let out = aggregate_status(&pvc, &[item("a", phase("Bound")), item("b", phase("Bound"))]).unwrap();
    assert_eq!(out["status"], json!({"phase": "Bound"}));
    let out = aggregate_status(&pvc, &[item("a", phase("Pending")), item("b", phase("Bound"))]).unwrap();
    assert_eq!(out["status"], json!({"phase": "Pending"}));
    let out = aggregate_status(&pvc, &[item("a", phase("Lost")), item("b", phase("Pending"))]).unwrap();
    assert_eq!(out["status"], json!({"phase": "Lost"}));
}

#[test]
fn budgets_and_autoscalers_sum_their_counts() {
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "spec": {}, "status": {"observedGeneration": 1}});
    let items = [
        item(
            "a",
            Some(json!({"currentHealthy": 2, "desiredHealthy": 1, "disruptionsAllowed": 1, "expectedPods": 2,
                               "disruptedPods": {"p1": "2024-01-01T00:00:00Z"}})),
        ),
        item("b", Some(json!({"currentHealthy": 1, "desiredHealthy": 1, "disruptionsAllowed": 0, "expectedPods": 1}))),
    ];
    assert_eq!(
        aggregate_status(&pdb, &items).unwrap()["status"],
        json!({"currentHealthy": 3, "desiredHealthy": 2, "disruptionsAllowed": 1, "expectedPods": 3,
               "disruptedPods": {"a/p1": "2024-01-01T00:00:00Z"}})
    );
    let hpa = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "spec": {}});
    let items = [
        item("a", Some(json!({"currentReplicas": 2, "desiredReplicas": 3}))),
        item("b", Some(json!({"desiredReplicas": 1}))),
    ];
    assert_eq!(aggregate_status(&hpa, &items).unwrap()["status"], json!({"currentReplicas": 2, "desiredReplicas": 4}));
}

#[test]
fn cron_jobs_list_active_jobs_and_the_latest_times() {
    let cj = json!({"apiVersion": "batch/v1", "kind": "CronJob", "spec": {}, "status": {}});
    let items = [
        item(
            "a",
            Some(
                json!({"active": [{"name": "j1"}], "lastScheduleTime": "2024-01-01T00:00:00Z", "lastSuccessfulTime": "2024-01-01T00:05:00Z"}),
            ),
        ),
        item("b", Some(json!({"active": [{"name": "j2"}], "lastScheduleTime": "2024-01-02T00:00:00Z"}))),
    ];
    assert_eq!(
        aggregate_status(&cj, &items).unwrap()["status"],
        json!({"active": [{"name": "j1"}, {"name": "j2"}], "lastScheduleTime": "2024-01-02T00:00:00Z",
               "lastSuccessfulTime": "2024-01-01T00:05:00Z"})
    );
}

#[test]
fn jobs_add_up_and_say_how_members_ended() {
    let job = json!({"apiVersion": "batch/v1", "kind": "Job", "spec": {}, "status": {}});
    let complete = |start: &str, end: &str| {
        json!({"succeeded": 1, "startTime": start, "completionTime": end, "conditions": [
            {"type": "Complete", "status": "True"}, {"type": "SuccessCriteriaMet", "status": "True"}]})
    };
    let items = [
        item("a", Some(complete("2024-01-01T00:00:02Z", "2024-01-01T00:01:00Z"))),
        item("b", Some(complete("2024-01-01T00:00:01Z", "2024-01-01T00:02:00Z"))),
    ];
    let s = aggregate_status(&job, &items).unwrap()["status"].clone();
    assert_eq!(s["succeeded"], 2);
    assert_eq!(s["startTime"], "2024-01-01T00:00:01Z", "the earliest start");
    assert_eq!(s["completionTime"], "2024-01-01T00:02:00Z", "the latest completion");
    let kinds: Vec<(&str, &str, &str)> = s["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["type"].as_str().unwrap(), c["reason"].as_str().unwrap(), c["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Complete", "Completed", "Job completed"),
            ("SuccessCriteriaMet", "CompletionsReached", "All member clusters have met success criteria")
        ]
    );
    let t = s["conditions"][0]["lastTransitionTime"].as_str().unwrap();
    assert!(t.len() == 20 && t.ends_with('Z') && t.as_bytes()[10] == b'T', "RFC 3339 time: {t}");

    let failed = json!({"failed": 3, "active": 1, "conditions": [{"type": "Failed", "status": "True"}]});
    let items = [item("m1", Some(failed.clone())), item("m2", Some(failed)), item("m3", Some(json!({"active": 2})))];
    let s = aggregate_status(&job, &items).unwrap()["status"].clone();
    assert_eq!((s["failed"].clone(), s["active"].clone()), (json!(6), json!(4)));
    assert_eq!(s["conditions"].as_array().unwrap().len(), 1);
    assert_eq!(s["conditions"][0]["message"], "Job executed failed in member clusters m1,m2");
    assert!(s.get("startTime").is_none() && s.get("completionTime").is_none());

    let finished = json!({"apiVersion": "batch/v1", "kind": "Job", "status": {"conditions": [{"type": "Complete", "status": "True"}]}});
    assert_eq!(aggregate_status(&finished, &items).unwrap(), finished, "a finished Job is never aggregated again");
    let s = aggregate_status(&job, &[]).unwrap();
    assert!(s["status"].get("conditions").is_none(), "no members is not a completed Job");
}

#[test]
fn bad_items_and_unknown_kinds_are_refused() {
    let d = template("apps/v1", "Deployment", 1, json!({}));
    let err = aggregate_status(&d, &[item("m1", Some(json!([1])))]).unwrap_err().to_string();
    assert_eq!(err, "AggregateStatus: the status reported by cluster m1 is not an object");
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap"});
    let err = aggregate_status(&cm, &[]).unwrap_err().to_string();
    assert_eq!(err, r#"AggregateStatus: default AggregateStatus interpreter for "/v1, Kind=ConfigMap" not found"#);
}
