//! Application failover end to end: a plane with `StatefulFailoverInjection` on, three
//! simulated members, and a member's copy of a workload kept unhealthy with the simulator's
//! readiness knob. After `tolerationSeconds` the copy's cluster is evicted with reason
//! `ApplicationFailure`, the replicas go to the other members, and the old copy is removed,
//! kept or replaced as the purge mode says.

use serde_json::Value;

use crate::common::fleet::{Fleet, deployment, policy};

const KNOB: &str = "simulation.karmadactl.io/pods-ready";

/// A policy for one Deployment with application failover (`placement` indented under
/// `placement`, `failover` under `application`).
fn failover_policy(name: &str, placement: &str, failover: &str) -> String {
    let placement = format!(
        "{placement}  propagateDeps: true
  failover:
    application:
      decisionConditions:
        tolerationSeconds: 2
{failover}      statePreservation:
        rules:
        - aliasLabelName: failover.example/replicas
          jsonPath: \"{{.replicas}}\"
"
    );
    policy(name, name, &placement)
}

fn fleet() -> Fleet {
    Fleet::with_plane_flags(3, &["--feature-gates", "StatefulFailoverInjection=true"])
}

fn binding(fleet: &Fleet, name: &str) -> Value {
    fleet.get("karmada-apiserver", &["resourcebinding", &format!("{name}-deployment")]).expect("the binding exists")
}

/// The binding's target clusters and their replicas.
fn targets(rb: &Value) -> Vec<(String, i64)> {
    rb["spec"]["clusters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (c["name"].as_str().unwrap().to_string(), c["replicas"].as_i64().unwrap_or(0)))
        .collect()
}

/// Whether every aggregated status item of the clusters named reports `health`.
fn health_is(rb: &Value, clusters: &[&str], health: &str) -> bool {
    let items = rb["status"]["aggregatedStatus"].as_array().cloned().unwrap_or_default();
    clusters.iter().all(|c| items.iter().any(|i| i["clusterName"] == *c && i["health"] == health))
}

fn wait_healthy(fleet: &Fleet, name: &str, clusters: &[&str]) {
    fleet.wait(&format!("{name} healthy on {clusters:?}"), || {
        let rb = binding(fleet, name);
        if health_is(&rb, clusters, "Healthy") { Ok(()) } else { Err(rb["status"].to_string()) }
    });
}

/// Keeps the member's copy of the Deployment unready, as a failing readiness probe would.
fn break_copy(fleet: &Fleet, member: &str, name: &str) {
    fleet.k_ok(member, &["annotate", "deployment", name, "-n", "default", &format!("{KNOB}=false")]);
}

/// Watches the binding from now on: the first eviction task it gets. A task may be over (and
/// gone) before a poll would see it, so every version of the binding is looked at.
fn watch_eviction_task(fleet: &Fleet, name: &str) -> impl FnOnce() -> Value {
    let binding = format!("{name}-deployment");
    let versions = watch(fleet, "karmada-apiserver", "resourcebindings", &binding, "{.spec.gracefulEvictionTasks}");
    move || loop {
        let line = versions.recv_timeout(std::time::Duration::from_secs(60)).expect("an eviction task within 60 s");
        if let Ok(Value::Array(tasks)) = serde_json::from_str::<Value>(&line)
            && let Some(first) = tasks.into_iter().next()
        {
            return first;
        }
    }
}

/// `template` (a JSONPath) of every version of the named object in `default`, one line each,
/// from a watch started now; the watch ends with the test's servers.
fn watch(
    fleet: &Fleet,
    context: &str,
    resource: &str,
    name: &str,
    template: &str,
) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let output = format!("jsonpath={template}{{\"\\n\"}}");
    let selector = format!("metadata.name={name}");
    let args = ["get", resource, "-n", "default", "--field-selector", &selector, "--watch", "-o", &output];
    let mut child = fleet
        .k_command(context, &args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("kubectl runs");
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    });
    rx
}

fn label(fleet: &Fleet, member: &str, name: &str, key: &str) -> Option<String> {
    let d = fleet.get(member, &["deployment", name, "-n", "default"])?;
    d["metadata"]["labels"][key].as_str().map(String::from)
}

#[test]
fn an_unhealthy_copy_moves_and_the_old_one_goes_once_the_new_ones_are_healthy() {
    let fleet = fleet();
    fleet.apply(&deployment("web", 6, ""));
    fleet.apply(&failover_policy(
        "web",
        "    clusterAffinity:
      clusterNames: [member1, member2, member3]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        dynamicWeight: AvailableReplicas
",
        "      purgeMode: Gracefully\n      gracePeriodSeconds: 600\n",
    ));
    fleet.wait_replicas("web", &[("member1", Some(2)), ("member2", Some(2)), ("member3", Some(2))]);
    wait_healthy(&fleet, "web", &["member1", "member2", "member3"]);
    // Healthy everywhere: nothing is evicted.
    assert!(binding(&fleet, "web")["spec"]["gracefulEvictionTasks"].is_null());

    let first_task = watch_eviction_task(&fleet, "web");
    break_copy(&fleet, "member2", "web");
    let task = first_task();
    assert_eq!(task["fromCluster"], "member2");
    assert_eq!(task["reason"], "ApplicationFailure");
    assert_eq!(task["producer"], "resource-binding-application-failover-controller");
    assert_eq!(task["purgeMode"], "Gracefully");
    assert_eq!(task["gracePeriodSeconds"], 600);
    assert_eq!(task["replicas"], 2);
    assert!(task["suppressDeletion"].is_null());
    // The state read from member2's status, and where the application ran before.
    assert_eq!(task["preservedLabelState"]["failover.example/replicas"], "2");
    assert_eq!(task["clustersBeforeFailover"], serde_json::json!(["member1", "member2", "member3"]));

    // Its replicas go to the two others by their room left (each keeps its 2); member2 keeps
    // its copy until they are healthy.
    let placed = fleet.wait("web's 6 replicas on member1 and member3", || {
        let t = targets(&binding(&fleet, "web"));
        match t.as_slice() {
            [(a, x), (b, y)] if a == "member1" && b == "member3" && x + y == 6 && *x >= 2 && *y >= 2 => Ok(t),
            _ => Err(format!("{t:?}")),
        }
    });
    fleet.wait_replicas("web", &[("member1", Some(placed[0].1)), ("member3", Some(placed[1].1))]);
    fleet.wait("member2's copy removed", || {
        let rb = binding(&fleet, "web");
        match fleet.replicas("member2", "web") {
            None => Ok(rb),
            Some(n) => Err(format!("member2 still has {n} replicas; binding {}", rb["spec"])),
        }
    });
    let rb = binding(&fleet, "web");
    assert!(health_is(&rb, &["member1", "member3"], "Healthy"), "{}", rb["status"]);
    assert!(rb["spec"]["gracefulEvictionTasks"].as_array().is_none_or(Vec::is_empty), "{}", rb["spec"]);
    // Spread over two clusters: upstream injects preserved state only into a single new one.
    assert_eq!(label(&fleet, "member1", "web", "failover.example/replicas"), None);
    assert_eq!(label(&fleet, "member3", "web", "failover.example/replicas"), None);
    // member2 is not chosen again: the task is over, but the placement stays.
    assert_eq!(targets(&binding(&fleet, "web")), placed);
}

#[test]
fn a_directly_purged_copy_passes_its_state_on_and_purge_mode_never_keeps_the_old_copy() {
    let fleet = fleet();
    // One cluster at a time: member1, or member2 when member1 cannot be chosen.
    let one_cluster = "    clusterAffinities:
    - affinityName: first
      clusterNames: [member1]
    - affinityName: second
      clusterNames: [member2]
";
    fleet.apply(&deployment("db", 2, ""));
    fleet.apply(&failover_policy("db", one_cluster, "      purgeMode: Directly\n"));
    fleet.apply(&deployment("cache", 1, ""));
    fleet.apply(&failover_policy("cache", one_cluster, "      purgeMode: Never\n"));
    fleet.wait_replicas("db", &[("member1", Some(2)), ("member2", None), ("member3", None)]);
    fleet.wait_replicas("cache", &[("member1", Some(1)), ("member2", None), ("member3", None)]);
    wait_healthy(&fleet, "db", &["member1"]);
    wait_healthy(&fleet, "cache", &["member1"]);
    // The first copy carries no preserved state.
    assert_eq!(label(&fleet, "member1", "db", "failover.example/replicas"), None);

    // Directly: the old copy goes at once, and the new cluster's copy carries the state. The
    // label lasts as long as the eviction task, which goes once the new copy is healthy, so
    // member2's copies are watched from before the failover and every version is seen.
    let labels_in_member2 =
        watch(&fleet, "member2", "deployments", "db", "{.metadata.labels.failover\\.example/replicas}");
    let first_task = watch_eviction_task(&fleet, "db");
    break_copy(&fleet, "member1", "db");
    let task = first_task();
    assert_eq!((task["fromCluster"].as_str(), task["purgeMode"].as_str()), (Some("member1"), Some("Directly")));
    assert_eq!(task["reason"], "ApplicationFailure");
    assert_eq!(task["preservedLabelState"]["failover.example/replicas"], "2");
    fleet.wait_replicas("db", &[("member1", None), ("member2", Some(2)), ("member3", None)]);
    let first = labels_in_member2.recv_timeout(std::time::Duration::from_secs(60)).expect("member2's copy was seen");
    assert_eq!(first, "2", "member2's copy was created with the preserved state");

    // Never: the old copy stays, even once the new one is healthy.
    let first_task = watch_eviction_task(&fleet, "cache");
    break_copy(&fleet, "member1", "cache");
    let task = first_task();
    assert_eq!((task["fromCluster"].as_str(), task["purgeMode"].as_str()), (Some("member1"), Some("Never")));
    assert_eq!(task["suppressDeletion"], true);
    // The second affinity term takes it: member2.
    let new = fleet.wait("cache scheduled to another member", || match targets(&binding(&fleet, "cache")).as_slice() {
        [(name, 1)] if name != "member1" => Ok(name.clone()),
        other => Err(format!("{other:?}")),
    });
    let other = if new == "member2" { "member3" } else { "member2" };
    fleet.wait_replicas("cache", &[("member1", Some(1)), (new.as_str(), Some(1)), (other, None)]);
    wait_healthy(&fleet, "cache", &[new.as_str()]);
    let rb = binding(&fleet, "cache");
    assert_eq!(targets(&rb), [(new.clone(), 1)]);
    assert_eq!(rb["spec"]["gracefulEvictionTasks"].as_array().map(Vec::len), Some(1), "{}", rb["spec"]);
    assert_eq!(fleet.replicas("member1", "cache"), Some(1));
    // Not Directly: the new copy gets no injected state.
    assert_eq!(label(&fleet, &new, "cache", "failover.example/replicas"), None);

    // The kept copy is still held unready (the plane's applies left the knob alone); without
    // the knob its pod turns Ready again.
    let ready = |fleet: &Fleet| {
        let d = fleet.get("member1", &["deployment", "cache", "-n", "default"]).expect("member1 keeps cache");
        (d["metadata"]["annotations"][KNOB].as_str().map(String::from), d["status"]["readyReplicas"].as_i64())
    };
    assert_eq!(ready(&fleet), (Some("false".to_string()), Some(0)));
    fleet.k_ok("member1", &["annotate", "deployment", "cache", "-n", "default", &format!("{KNOB}-")]);
    fleet.wait("member1's cache Ready again", || match ready(&fleet) {
        (None, Some(1)) => Ok(()),
        other => Err(format!("{other:?}")),
    });
}
