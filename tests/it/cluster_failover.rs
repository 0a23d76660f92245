//! Cluster failover end to end: a plane with the `Failover` gate and NoExecute eviction on,
//! three simulated members, a ClusterTaintPolicy that taints a NotReady cluster NoExecute, and
//! a Divided Deployment whose policy tolerates that taint for two seconds. One member is
//! stopped: its share moves to the other two, the old Work is kept until the new copies are
//! healthy, and when the member comes back its copy goes and nothing moves again. With the
//! `Directly` purge mode the old Work goes at once instead.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::fleet::Fleet;

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

#[test]
fn a_stopped_member_s_share_moves_and_stays_moved_when_it_returns() {
    let (fleet, before) = failover_fleet(&[], Some("Gracefully"));
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

    // The taint manager evicts after the two tolerated seconds. While the eviction task is
    // there, member2's Work must stay, untouched: each poll reads the Work before the binding,
    // so a task seen after the Work went would be a Work removed too early.
    let mut seen_kept = false;
    let mut task_seen: Option<Value> = None;
    let after = fleet.wait("member2's share moved to member1 and member3, ready, the eviction over", || {
        let work = deployment_work(&fleet, "member2");
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]).unwrap();
        let tasks = rb["spec"]["gracefulEvictionTasks"].as_array().cloned().unwrap_or_default();
        if let Some(task) = tasks.iter().find(|t| t["fromCluster"] == "member2") {
            let kept = work.as_ref().is_some_and(|w| w["metadata"]["deletionTimestamp"].is_null());
            assert!(kept, "member2's Work removed while its eviction task is still there: {work:?}");
            seen_kept = true;
            task_seen = Some(task.clone());
            return Err(format!("eviction task still there: {task}"));
        }
        let a = assignment(&rb);
        if a.contains_key("member2") || a.values().sum::<i64>() != 6 {
            return Err(format!("{a:?}"));
        }
        for m in ["member1", "member3"] {
            ready(&fleet, m)?;
        }
        if task_seen.is_none() {
            return Err("no eviction task seen yet".into());
        }
        Ok(a)
    });
    assert!(seen_kept, "the old Work was seen kept during the eviction");
    let task = task_seen.unwrap();
    assert_eq!(task["reason"], "TaintUntolerated");
    assert_eq!(task["producer"], "TaintManager");
    assert_eq!(task["purgeMode"], "Gracefully");
    assert_eq!(task["replicas"], before["member2"]);
    assert_eq!(
        task["message"],
        "evicted from member2: taint cluster.karmada.io/not-ready:NoExecute tolerated for 2s only"
    );
    assert!(task["creationTimestamp"].is_string(), "{task}");
    assert_eq!(after.keys().collect::<Vec<_>>(), ["member1", "member3"]);
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
    assert!(deployment_work(&fleet, "member2").is_none(), "no Work for member2 left");

    // Nothing flaps: the assignment and the members' copies stay as they were.
    for _ in 0..5 {
        std::thread::sleep(std::time::Duration::from_millis(500));
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]).unwrap();
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
    fleet.stop_member("member2");

    // While the task is there and the new copies are not yet ready, member2's Work is already
    // going (it waits only for member2 to come back to remove the copy).
    fleet.wait("member2's Work deleted while its Directly eviction task is there", || {
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]).unwrap();
        let tasks = rb["spec"]["gracefulEvictionTasks"].as_array().cloned().unwrap_or_default();
        let Some(task) = tasks.iter().find(|t| t["fromCluster"] == "member2") else {
            return Err(format!("no task yet: {}", rb["spec"]));
        };
        assert_eq!(task["purgeMode"], "Directly", "{task}");
        match deployment_work(&fleet, "member2") {
            Some(w) if w["metadata"]["deletionTimestamp"].is_null() => Err("member2's Work still kept".into()),
            _ => Ok(()),
        }
    });
    let after = fleet.wait("the share on member1 and member3, ready", || {
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]).unwrap();
        let a = assignment(&rb);
        if a.contains_key("member2") || a.values().sum::<i64>() != 6 {
            return Err(format!("{a:?}"));
        }
        ready(&fleet, "member1")?;
        ready(&fleet, "member3")?;
        Ok(a)
    });
    fleet.start_member("member2", &["--pod-ready-delay", "4s"]);
    fleet.wait("member2's copy removed", || match fleet.get("member2", &["deployment", "web", "-n", "default"]) {
        Some(_) => Err("web still in member2".into()),
        None => Ok(()),
    });
    let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment", "-n", "default"]).unwrap();
    assert_eq!(assignment(&rb), after);
}
