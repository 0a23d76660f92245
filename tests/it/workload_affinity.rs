//! Workload affinity and anti-affinity groups (the `WorkloadAffinity` gate) on a plane with two
//! simulated members: workloads of one affinity group land together, workloads of one
//! anti-affinity group apart, and one that has nowhere left to go is refused with upstream's
//! reason and placed nowhere.

use serde_json::Value;

use crate::common;
use crate::policy_lifecycle::{GatedFleet, pp};

/// Deployment `name` with the group label `labels` (", key: value").
fn deployment(name: &str, labels: &str) -> String {
    crate::common::fleet::deployment(name, 1, labels)
}

/// Placement lines (under `placement`) for one cluster of `clusters` per workload, with
/// `terms` as the `workloadAffinity`.
fn one_cluster_with(terms: &str) -> String {
    format!(
        "    spreadConstraints: [{{spreadByField: cluster, maxGroups: 1, minGroups: 1}}]
    workloadAffinity: {terms}
"
    )
}

/// The members Deployment `name` runs in.
fn placed(fleet: &GatedFleet, name: &str) -> Vec<&'static str> {
    ["member1", "member2"].into_iter().filter(|m| fleet.replicas(m, name).is_some()).collect()
}

fn binding(fleet: &GatedFleet, name: &str) -> Value {
    fleet.get(&["resourcebinding", &format!("{name}-deployment"), "-n", "default"]).expect("the binding")
}

#[test]
fn affinity_groups_land_together_and_anti_affinity_groups_apart() {
    let fleet = GatedFleet::up(&["--feature-gates", "WorkloadAffinity=true"], &["member1", "member2"]);
    let affinity = one_cluster_with("{affinity: {groupByLabelKey: app.group}}");
    let anti = one_cluster_with("{antiAffinity: {groupByLabelKey: ha.group}}");

    // The first of a group goes where its own policy says: nothing holds it back.
    fleet.apply(&deployment("web-a", ", app.group: web"));
    fleet.apply(&pp("web-a", "web-a", "member2", &affinity));
    fleet.wait_replicas("web-a", &[("member1", None), ("member2", Some(1))]);
    assert_eq!(
        binding(&fleet, "web-a")["spec"]["workloadAffinityGroups"],
        serde_json::json!({"affinityGroup": "app.group=web"})
    );

    // Its peer could go to either member (and alone would take member1, the first by name);
    // the group takes it to member2.
    fleet.apply(&deployment("web-b", ", app.group: web"));
    fleet.apply(&pp("web-b", "web-b", "member1, member2", &affinity));
    fleet.wait_replicas("web-b", &[("member1", None), ("member2", Some(1))]);

    // A workload of another affinity group is not bound by this one.
    fleet.apply(&deployment("api", ", app.group: api"));
    fleet.apply(&pp("api", "api", "member1, member2", &affinity));
    fleet.wait_replicas("api", &[("member1", Some(1)), ("member2", None)]);

    // Anti-affinity: the second of the group avoids the member the first is on.
    fleet.apply(&deployment("db-a", ", ha.group: db"));
    fleet.apply(&pp("db-a", "db-a", "member1", &anti));
    fleet.wait_replicas("db-a", &[("member1", Some(1)), ("member2", None)]);
    fleet.apply(&deployment("db-b", ", ha.group: db"));
    fleet.apply(&pp("db-b", "db-b", "member1, member2", &anti));
    fleet.wait_replicas("db-b", &[("member1", None), ("member2", Some(1))]);
    assert_eq!(
        binding(&fleet, "db-b")["spec"]["workloadAffinityGroups"],
        serde_json::json!({"antiAffinityGroup": "ha.group=db"})
    );

    // A third has no member left: it is refused with upstream's reason and placed nowhere.
    fleet.apply(&deployment("db-c", ", ha.group: db"));
    fleet.apply(&pp("db-c", "db-c", "member1, member2", &anti));
    let (b, scheduled) = common::eventually("db-c refused", || {
        let b = binding(&fleet, "db-c");
        let scheduled = b["status"]["conditions"].as_array()?.iter().find(|c| c["type"] == "Scheduled")?.clone();
        (scheduled["status"] == "False").then_some((b, scheduled))
    });
    assert_eq!(scheduled["reason"], "NoClusterFit");
    assert_eq!(
        scheduled["message"],
        "0/2 clusters are available: 2 cluster already has workload with the same anti-affinity group."
    );
    assert!(b["spec"]["clusters"].as_array().is_none_or(Vec::is_empty), "{b}");
    assert!(placed(&fleet, "db-c").is_empty());

    // Nothing else moved.
    assert_eq!(placed(&fleet, "web-a"), ["member2"]);
    assert_eq!(placed(&fleet, "web-b"), ["member2"]);
    assert_eq!(placed(&fleet, "db-a"), ["member1"]);
    assert_eq!(placed(&fleet, "db-b"), ["member2"]);
}
