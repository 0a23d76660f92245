//! WorkloadRebalancer end to end on a `local up` playground: a Divided workload that stayed on
//! one member while the other was cordoned is spread again only when a rebalancer asks, the
//! rebalancer records each workload's result, and one with a TTL removes itself.

use serde_json::Value;

use crate::common::fleet::Fleet;
use crate::common::fleet::deployment;

const DYNAMIC: &str = "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: default
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    name: web
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        dynamicWeight: AvailableReplicas
";

fn rebalancer(name: &str, workloads: &[&str], ttl: Option<i64>) -> String {
    let mut m = format!(
        "apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: {name}
spec:
  workloads:
"
    );
    for w in workloads {
        m.push_str(&format!("  - {{apiVersion: apps/v1, kind: Deployment, namespace: default, name: {w}}}\n"));
    }
    if let Some(ttl) = ttl {
        m.push_str(&format!("  ttlSecondsAfterFinished: {ttl}\n"));
    }
    m
}

/// The pods a member's summary counts as allocated, once it reports room for pods at all.
fn allocated_pods(fleet: &Fleet, cluster: &str) -> Option<String> {
    let c = fleet.get("karmada-apiserver", &["cluster", cluster])?;
    let summary = &c["status"]["resourceSummary"];
    summary["allocatable"]["pods"].as_str()?;
    Some(summary["allocated"]["pods"].as_str().unwrap_or("0").to_string())
}

fn binding(fleet: &Fleet) -> Value {
    fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]).expect("web's binding")
}

#[test]
fn a_rebalancer_schedules_its_workloads_afresh_and_reports_each() {
    let fleet = Fleet::up(2);
    let cordon = fleet.karmadactl(&["cordon", "member2"]);
    assert_eq!(cordon.code, 0, "cordon: {}", cordon.stderr);
    fleet.apply(&deployment("web", 4, ""));
    fleet.apply(DYNAMIC);
    fleet.wait_replicas("web", &[("member1", Some(4)), ("member2", None)]);

    // member2 is schedulable again; the replicas stay where they run (Steady mode) until a
    // rebalancer asks. Both members' summaries count what runs before it does, so the fresh
    // division sees equal room on both.
    let uncordon = fleet.karmadactl(&["uncordon", "member2"]);
    assert_eq!(uncordon.code, 0, "uncordon: {}", uncordon.stderr);
    fleet.wait("member1 reports web's 4 pods, member2 none", || {
        let seen = (allocated_pods(&fleet, "member1"), allocated_pods(&fleet, "member2"));
        if seen == (Some("4".into()), Some("0".into())) { Ok(()) } else { Err(format!("{seen:?}")) }
    });
    assert_eq!(binding(&fleet)["spec"].get("rescheduleTriggeredAt"), None);

    // Bad input is refused by the CRD's schema and creates nothing.
    let bad = fleet.home.path().join("bad-rebalancer.yaml");
    std::fs::write(&bad, "apiVersion: apps.karmada.io/v1alpha1\nkind: WorkloadRebalancer\nmetadata:\n  name: bad\nspec:\n  workloads: []\n").unwrap();
    let refused = fleet.k("karmada-apiserver", &["create", "-f", bad.to_str().unwrap()]);
    assert_ne!(refused.code, 0);
    for part in [r#"The WorkloadRebalancer "bad" is invalid"#, "spec.workloads in body should have at least 1 items"] {
        assert!(refused.stderr.contains(part), "{}", refused.stderr);
    }
    assert!(fleet.get("karmada-apiserver", &["workloadrebalancer", "bad"]).is_none());

    // One workload with a binding, one without.
    fleet.apply(&rebalancer("spread-web", &["web", "ghost"], None));
    let done = fleet.wait("the rebalancer finished", || {
        let r = fleet.get("karmada-apiserver", &["workloadrebalancer", "spread-web"]).ok_or("absent")?;
        if r["status"]["finishTime"].is_string() { Ok(r) } else { Err(r["status"].to_string()) }
    });
    let workload = |name: &str| serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "default", "name": name});
    assert_eq!(
        done["status"]["observedWorkloads"],
        serde_json::json!([
            {"workload": workload("ghost"), "result": "Failed", "reason": "ReferencedBindingNotFound"},
            {"workload": workload("web"), "result": "Successful"},
        ])
    );
    assert_eq!(done["status"]["observedGeneration"], 1);
    let created = done["metadata"]["creationTimestamp"].clone();
    assert_eq!(binding(&fleet)["spec"]["rescheduleTriggeredAt"], created);

    // The binding is divided afresh over both members, and its last schedule follows the
    // trigger, so it is not scheduled afresh again.
    fleet.wait_replicas("web", &[("member1", Some(2)), ("member2", Some(2))]);
    fleet.wait("lastScheduledTime after the trigger", || {
        let b = binding(&fleet);
        let last = b["status"]["lastScheduledTime"].as_str().unwrap_or("").to_string();
        if last.as_str() >= created.as_str().unwrap() { Ok(()) } else { Err(b["status"].to_string()) }
    });
    let targets: Vec<(String, i64)> = binding(&fleet)["spec"]["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap().to_string(), c["replicas"].as_i64().unwrap()))
        .collect();
    assert_eq!(targets, [("member1".to_string(), 2), ("member2".to_string(), 2)]);
    // The rebalancer without a TTL stays.
    assert!(fleet.get("karmada-apiserver", &["workloadrebalancer", "spread-web"]).is_some());

    // With a TTL, the rebalancer removes itself once finished; the binding keeps the newer
    // trigger and the division, already fresh, stays (once the summaries count the pods where
    // they now run, the room on both members is equal again).
    fleet.wait("both members report 2 of web's pods", || {
        let seen = (allocated_pods(&fleet, "member1"), allocated_pods(&fleet, "member2"));
        if seen == (Some("2".into()), Some("2".into())) { Ok(()) } else { Err(format!("{seen:?}")) }
    });
    fleet.apply(&rebalancer("once", &["web"], Some(1)));
    fleet.wait("the rebalancer with a TTL is deleted", || {
        match fleet.get("karmada-apiserver", &["workloadrebalancer", "once"]) {
            None => Ok(()),
            Some(r) => Err(r["status"].to_string()),
        }
    });
    let triggered = binding(&fleet)["spec"]["rescheduleTriggeredAt"].as_str().unwrap().to_string();
    assert!(triggered.as_str() >= created.as_str().unwrap(), "{triggered} < {created}");
    fleet.wait_replicas("web", &[("member1", Some(2)), ("member2", Some(2))]);
}
