//! Cluster failover end to end: a plane with the `Failover` gate and NoExecute eviction on,
//! three simulated members, a ClusterTaintPolicy that taints a NotReady cluster NoExecute, and
//! a Divided Deployment whose policy tolerates that taint for two seconds. One member is
//! stopped: its share moves to the other two, the old Work is kept until the new copies are
//! healthy, and when the member comes back its copy goes and nothing moves again. With the
//! `Directly` purge mode the old Work goes at once instead.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::fleet::{Fleet, Watch, revision};

const NOT_READY: &str = "cluster.karmada.io/not-ready";

const TAINT_POLICY: &str = "apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: not-ready-no-execute
spec:
  addOnConditions:
  - conditionType: Ready
    operator: In
    statusValues: [\"False\", \"Unknown\"]
  removeOnConditions:
  - conditionType: Ready
    operator: In
    statusValues: [\"True\"]
  taints:
  - key: cluster.karmada.io/not-ready
    effect: NoExecute
";

const WORKLOAD: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 6
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
---
apiVersion: policy.karmada.io/v1alpha1
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
      clusterNames: [member1, member2, member3]
    clusterTolerations:
    - key: cluster.karmada.io/not-ready
      operator: Exists
      effect: NoExecute
      tolerationSeconds: 2
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        dynamicWeight: AvailableReplicas
";

/// `spec.clusters` of the binding as name → replicas.
fn assignment(rb: &Value) -> BTreeMap<String, i64> {
    rb["spec"]["clusters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| (t["name"].as_str().unwrap().to_string(), t["replicas"].as_i64().unwrap_or(0)))
        .collect()
}

/// Ready replicas of the Deployment in a member, when every one of its replicas is ready.
fn ready(fleet: &Fleet, member: &str) -> Result<i64, String> {
    let d = fleet.get(member, &["deployment", "web", "-n", "default"]).ok_or(format!("no web in {member}"))?;
    let (want, got) = (d["spec"]["replicas"].as_i64().unwrap_or(1), d["status"]["readyReplicas"].as_i64().unwrap_or(0));
    if want == got { Ok(got) } else { Err(format!("{member}: {got}/{want} ready")) }
}

/// The Work that carries the Deployment to `member`, if any.
fn deployment_work(fleet: &Fleet, member: &str) -> Option<Value> {
    let works = fleet.get("karmada-apiserver", &["works", "-n", &format!("karmada-es-{member}")])?;
    works["items"]
        .as_array()?
        .iter()
        .find(|w| w["spec"]["workload"]["manifests"][0]["metadata"]["name"] == "web")
        .cloned()
}

fn no_execute_taints(fleet: &Fleet, cluster: &str) -> Vec<Value> {
    let c = fleet.get("karmada-apiserver", &["cluster", cluster]).expect("the cluster exists");
    c["spec"]["taints"].as_array().into_iter().flatten().filter(|t| t["effect"] == "NoExecute").cloned().collect()
}

/// A fleet with failover on (and `extra` plane flags), the taint policy and the workload
/// (whose policy says `policy_purge_mode`, if anything), once web runs ready on all three
/// members: returns its assignment.
fn failover_fleet(extra: &[&str], policy_purge_mode: Option<&str>) -> (Fleet, BTreeMap<String, i64>) {
    let mut serve = vec![
        "--feature-gates",
        "Failover=true",
        "--enable-no-execute-taint-eviction",
        "--resource-eviction-rate",
        "100",
        "--cluster-status-update-frequency",
        "200ms",
        "--cluster-failure-threshold",
        "1s",
    ];
    serve.extend_from_slice(extra);
    // New replicas take a while to turn ready, so the eviction's middle can be seen.
    let fleet = Fleet::up_with(3, &serve, &["--pod-ready-delay", "4s"]);
    fleet.apply(TAINT_POLICY);
    let workload = match policy_purge_mode {
        Some(mode) => WORKLOAD.to_string() + &format!("  failover:\n    cluster:\n      purgeMode: {mode}\n"),
        None => WORKLOAD.to_string(),
    };
    fleet.apply(&workload);
    let before = fleet.wait("web divided over the three members and ready", || {
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]);
        let a = rb.as_ref().map(assignment).unwrap_or_default();
        if a.len() != 3 || a.values().sum::<i64>() != 6 {
            return Err(format!("{a:?}"));
        }
        for m in ["member1", "member2", "member3"] {
            ready(&fleet, m)?;
        }
        Ok(a)
    });
    assert!(before.values().all(|r| *r > 0), "every member holds a share: {before:?}");
    for m in ["member1", "member2", "member3"] {
        assert!(no_execute_taints(&fleet, m).is_empty(), "a Ready {m} carries no NoExecute taint");
    }
    (fleet, before)
}

/// The eviction task from `cluster` as the binding's watch saw it first, and the revision
/// of the first binding version after it without the task (`None` while it is there).
fn eviction_task(bindings: &Watch, cluster: &str) -> Option<(Value, Option<u64>)> {
    let events = bindings.events();
    let task_of = |rb: &Value| {
        let tasks = rb["spec"]["gracefulEvictionTasks"].as_array().cloned().unwrap_or_default();
        tasks.into_iter().find(|t| t["fromCluster"] == cluster)
    };
    let first = events.iter().position(|e| task_of(&e["object"]).is_some())?;
    let task = task_of(&events[first]["object"]).unwrap();
    let end = events[first..].iter().find(|e| task_of(&e["object"]).is_none()).map(|e| revision(&e["object"]));
    Some((task, end))
}

/// The revision at which the Work carrying the Deployment was marked for deletion (or went).
fn work_deleted_at(works: &Watch) -> Option<u64> {
    works.events().iter().find_map(|e| {
        let w = &e["object"];
        let web = w["spec"]["workload"]["manifests"][0]["metadata"]["name"] == "web";
        (web && (e["type"] == "DELETED" || w["metadata"]["deletionTimestamp"].is_string())).then(|| revision(w))
    })
}

fn binding(fleet: &Fleet) -> Value {
    fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]).expect("the binding")
}

/// Waits until web is on member1 and member3 only, all of it, ready: returns the assignment.
fn moved_off_member2(fleet: &Fleet, bindings: &Watch) -> BTreeMap<String, i64> {
    fleet.wait("member2's share moved to member1 and member3, ready, the eviction over", || {
        match eviction_task(bindings, "member2") {
            Some((_, Some(_))) => {}
            seen => return Err(format!("eviction task not seen ended: {seen:?}")),
        }
        let a = assignment(&binding(fleet));
        if a.contains_key("member2") || a.values().sum::<i64>() != 6 {
            return Err(format!("{a:?}"));
        }
        ready(fleet, "member1")?;
        ready(fleet, "member3")?;
        Ok(a)
    })
}

#[test]
fn a_stopped_member_s_share_moves_and_stays_moved_when_it_returns() {
    let (fleet, before) = failover_fleet(&[], Some("Gracefully"));
    // Every version of the binding and of member2's Works is kept: the eviction task may
    // live for less than one poll (a Deployment is healthy once its replicas are updated).
    let bindings = fleet.watch("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]);
    let works = fleet.watch("karmada-apiserver", &["works", "-n", "karmada-es-member2"]);
    fleet.stop_member("member2");

    // The policy taints the NotReady cluster and says so on it.
    fleet.wait("member2 tainted not-ready:NoExecute", || {
        let taints = no_execute_taints(&fleet, "member2");
        let ok = taints.iter().any(|t| t["key"] == NOT_READY && t["timeAdded"].is_string());
        if ok { Ok(()) } else { Err(format!("{taints:?}")) }
    });
    let events = fleet.plane(&["get", "events", "-n", "default", "--field-selector", "involvedObject.name=member2"]);
    assert!(events.contains("TaintClusterSucceed"), "{events}");
    assert!(events.contains("{Key:cluster.karmada.io/not-ready,Effect:NoExecute}"), "{events}");

    // The taint manager evicts after the two tolerated seconds; the task ends once the new
    // copies are healthy, and only then does member2's Work go.
    let after = moved_off_member2(&fleet, &bindings);
    let (task, ended) = eviction_task(&bindings, "member2").unwrap();
    let deleted = fleet
        .wait("member2's Work marked for deletion", || work_deleted_at(&works).ok_or_else(|| "not yet".to_string()));
    assert!(deleted > ended.unwrap(), "member2's Work went at {deleted}, before its eviction task ended at {ended:?}");
    assert_eq!(task["reason"], "TaintUntolerated");
    assert_eq!(task["producer"], "TaintManager");
    assert_eq!(task["purgeMode"], "Gracefully");
    assert_eq!(task["replicas"], before["member2"]);
    assert_eq!(
        task["message"],
        "evicted from member2: taint cluster.karmada.io/not-ready:NoExecute tolerated for 2s only"
    );
    assert_eq!(after.keys().collect::<Vec<_>>(), ["member1", "member3"]);
    let stamped = bindings.events().iter().find_map(|e| {
        let tasks = e["object"]["spec"]["gracefulEvictionTasks"].as_array().cloned().unwrap_or_default();
        tasks.into_iter().find(|t| t["fromCluster"] == "member2" && t["creationTimestamp"].is_string())
    });
    assert!(stamped.is_some(), "the graceful eviction controller stamps the task's creation time");
    // The eviction's end is recorded on the binding.
    let events =
        fleet.plane(&["get", "events", "-n", "default", "--field-selector", "involvedObject.name=web-deployment"]);
    assert!(events.contains("Evict from cluster member2 succeed."), "{events}");

    // member2 comes back on its old port: the policy removes its taint, and its old copy goes.
    fleet.start_member("member2", &["--pod-ready-delay", "4s"]);
    fleet.wait("member2 untainted and its copy removed", || {
        let taints = no_execute_taints(&fleet, "member2");
        if !taints.is_empty() {
            return Err(format!("taints {taints:?}"));
        }
        match fleet.get("member2", &["deployment", "web", "-n", "default"]) {
            Some(d) => Err(format!("web still in member2: {}", d["spec"]["replicas"])),
            None => Ok(()),
        }
    });
    fleet.wait("no Work for member2 left", || match deployment_work(&fleet, "member2") {
        Some(w) => Err(format!("{}", w["metadata"])),
        None => Ok(()),
    });

    // Nothing flaps: the assignment and the members' copies stay as they were.
    for _ in 0..5 {
        std::thread::sleep(std::time::Duration::from_millis(500));
        let rb = binding(&fleet);
        assert_eq!(assignment(&rb), after, "the assignment stays");
        assert!(rb["spec"]["gracefulEvictionTasks"].as_array().is_none_or(|t| t.is_empty()), "{rb}");
        assert_eq!(fleet.replicas("member2", "web"), None, "member2 gets no copy back");
        assert_eq!(fleet.replicas("member1", "web"), after.get("member1").copied());
        assert_eq!(fleet.replicas("member3", "web"), after.get("member3").copied());
    }
}

#[test]
fn a_direct_eviction_removes_the_old_work_at_once() {
    // The flag decides, as the policy sets no purge mode of its own.
    let (fleet, _) = failover_fleet(&["--no-execute-taint-eviction-purge-mode", "Directly"], None);
    let bindings = fleet.watch("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]);
    let works = fleet.watch("karmada-apiserver", &["works", "-n", "karmada-es-member2"]);
    fleet.stop_member("member2");

    let after = moved_off_member2(&fleet, &bindings);
    let (task, ended) = eviction_task(&bindings, "member2").unwrap();
    assert_eq!(task["purgeMode"], "Directly", "{task}");
    // member2's Work went while the task was there, not waiting for the new copies; its copy
    // waits only for member2 to come back.
    let deleted = fleet
        .wait("member2's Work marked for deletion", || work_deleted_at(&works).ok_or_else(|| "not yet".to_string()));
    assert!(deleted < ended.unwrap(), "member2's Work went at {deleted}, after its eviction task ended at {ended:?}");

    fleet.start_member("member2", &["--pod-ready-delay", "4s"]);
    fleet.wait("member2's copy removed", || match fleet.get("member2", &["deployment", "web", "-n", "default"]) {
        Some(_) => Err("web still in member2".into()),
        None => Ok(()),
    });
    assert_eq!(assignment(&binding(&fleet)), after);
}
