//! FederatedResourceQuota end to end on a plane with two simulated members: bad specs are
//! refused as upstream's webhook refuses them, `overall` refuses templates (and scales) that
//! would take the namespace past it with kube's quota message and lets through those that fit,
//! static assignments become ResourceQuotas in the named members and go when dropped, and the
//! members' quota status comes back aggregated.

use serde_json::{Value, json};

use crate::common::fleet::Fleet;
use crate::common::raw_api::send;

fn quota(member2_cpu: Option<&str>) -> String {
    let mut m = "apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata:
  name: team
  namespace: default
spec:
  overall: {cpu: '2', pods: '10'}
  staticAssignments:
  - clusterName: member1
    hard: {cpu: '1', pods: '4'}
"
    .to_string();
    if let Some(cpu) = member2_cpu {
        m.push_str(&format!("  - clusterName: member2\n    hard: {{cpu: '{cpu}', pods: '4'}}\n"));
    }
    m
}

/// A Deployment in `default` whose every replica requests half a core.
fn deployment(name: &str, replicas: i64) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "500m"}}}]},
            },
        },
    })
}

const TO_MEMBER1: &str = "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: fits
  namespace: default
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, name: fits}
  placement:
    clusterAffinity:
      clusterNames: [member1]
";

const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/default/deployments";

fn member_quota(fleet: &Fleet, member: &str) -> Option<Value> {
    fleet.get(member, &["resourcequota", "team", "-n", "default"])
}

fn quota_status(fleet: &Fleet) -> Value {
    let q = fleet.get("karmada-apiserver", &["federatedresourcequota", "team", "-n", "default"]).expect("the quota");
    q["status"].clone()
}

#[test]
fn a_federated_quota_splits_into_members_and_refuses_what_exceeds_overall() {
    let fleet = Fleet::up(2);

    // Upstream's webhook checks: assignments within overall, resources named in overall.
    let bad = json!({
        "apiVersion": "policy.karmada.io/v1alpha1", "kind": "FederatedResourceQuota",
        "metadata": {"name": "bad", "namespace": "default"},
        "spec": {"overall": {"cpu": "1"}, "staticAssignments": [
            {"clusterName": "member1", "hard": {"cpu": "2", "pods": "1"}}]},
    });
    let (code, body) = fleet.post("/apis/policy.karmada.io/v1alpha1/namespaces/default/federatedresourcequotas", &bad);
    assert_eq!(code, 422, "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    for part in [
        r#"FederatedResourceQuota.policy.karmada.io "bad" is invalid"#,
        r#"spec.overall[cpu]: Invalid value: "1": overall is less than assignments"#,
        r#"spec.staticAssignments[0].hard[pods]: Invalid value: "pods": assignment resourceName is not exist in overall"#,
    ] {
        assert!(message.contains(part), "{message}");
    }

    // Each static assignment becomes a ResourceQuota in its member, which reports its limits.
    fleet.apply(&quota(Some("1")));
    for member in ["member1", "member2"] {
        let q = fleet.wait(&format!("the quota's ResourceQuota in {member}"), || {
            let q = member_quota(&fleet, member).ok_or("absent")?;
            if q["status"]["hard"].is_object() { Ok(q) } else { Err(q.to_string()) }
        });
        assert_eq!(q["spec"]["hard"], json!({"cpu": "1", "pods": "4"}));
        assert_eq!(q["status"]["hard"], json!({"cpu": "1", "pods": "4"}));
    }
    let table = fleet.k_ok("member1", &["get", "resourcequota", "team", "-n", "default"]);
    let header: Vec<&str> = table.lines().next().unwrap_or_default().split_whitespace().collect();
    assert_eq!(header, ["NAME", "AGE", "REQUEST", "LIMIT"], "{table}");
    assert!(table.contains("cpu: 0/1, pods: 0/4"), "{table}");

    // A template that fits is stored, and its pods show up in the member's usage and the sums.
    let (code, body) = fleet.post(DEPLOYMENTS, &deployment("fits", 2));
    assert_eq!(code, 201, "{body}");
    fleet.apply(TO_MEMBER1);
    // Each member's quota reports through its own Work, whose status is written at the end of
    // a one-second window: both members have reported once both entries are there.
    let status = fleet.wait("member1's two pods counted in the quota's status", || {
        let s = quota_status(&fleet);
        let reported = s["aggregatedStatus"].as_array().map_or(0, Vec::len);
        if s["overallUsed"]["pods"] == "2" && reported == 2 { Ok(s) } else { Err(s.to_string()) }
    });
    assert_eq!(status["overall"], json!({"cpu": "2", "pods": "10"}));
    assert_eq!(
        status["aggregatedStatus"],
        json!([
            {"clusterName": "member1", "hard": {"cpu": "1", "pods": "4"}, "used": {"pods": "2"}},
            {"clusterName": "member2", "hard": {"cpu": "1", "pods": "4"}, "used": {"pods": "0"}},
        ])
    );

    // One that would take the namespace past overall is refused as kube's quota refuses.
    let (code, body) = fleet.post(DEPLOYMENTS, &deployment("big", 3));
    assert_eq!(code, 403, "{body}");
    assert_eq!(body["reason"], "Forbidden");
    assert_eq!(
        body["message"],
        r#"deployments.apps "big" is forbidden: exceeded quota: team, requested: cpu=1500m, used: cpu=1, limited: cpu=2"#
    );
    assert!(fleet.get("karmada-apiserver", &["deployment", "big", "-n", "default"]).is_none());

    // Scaling counts too; usage follows the templates as they change.
    let scale = fleet.k("karmada-apiserver", &["scale", "deployment", "fits", "-n", "default", "--replicas=5"]);
    assert_ne!(scale.code, 0);
    assert!(
        scale.stderr.contains("exceeded quota: team, requested: cpu=1500m, used: cpu=1, limited: cpu=2"),
        "{}",
        scale.stderr
    );
    fleet.k_ok("karmada-apiserver", &["scale", "deployment", "fits", "-n", "default", "--replicas=1"]);
    let (code, body) = fleet.post(DEPLOYMENTS, &deployment("big", 3));
    assert_eq!(code, 201, "exactly overall fits: {body}");
    let patch = fleet
        .k("karmada-apiserver", &["patch", "deployment", "big", "-n", "default", "-p", r#"{"spec":{"replicas":4}}"#]);
    assert_ne!(patch.code, 0);
    assert!(
        patch.stderr.contains(r#"deployments.apps "big" is forbidden: exceeded quota: team, requested: cpu=500m, used: cpu=2, limited: cpu=2"#),
        "{}",
        patch.stderr
    );

    // A dropped assignment takes its ResourceQuota away; the other stays. A Work that only
    // copies the quota's labels is not the quota's and is left alone.
    fleet.apply(LOOKALIKE);
    fleet.apply(&quota(None));
    fleet.wait("member2's ResourceQuota removed", || match member_quota(&fleet, "member2") {
        None => Ok(()),
        Some(q) => Err(q["metadata"].to_string()),
    });
    assert!(member_quota(&fleet, "member1").is_some());
    fleet.wait("only member1 aggregated", || {
        let s = quota_status(&fleet);
        let clusters: Vec<&str> =
            s["aggregatedStatus"].as_array().into_iter().flatten().filter_map(|c| c["clusterName"].as_str()).collect();
        if clusters == ["member1"] { Ok(()) } else { Err(s.to_string()) }
    });

    // Deleting the federated quota removes what it made.
    fleet.plane(&["delete", "federatedresourcequota", "team", "-n", "default"]);
    fleet.wait("member1's ResourceQuota removed", || match member_quota(&fleet, "member1") {
        None => Ok(()),
        Some(q) => Err(q["metadata"].to_string()),
    });
    let lookalike = fleet.get("karmada-apiserver", &["work", "lookalike", "-n", "karmada-es-member2"]);
    assert!(lookalike.is_some_and(|w| w["metadata"]["deletionTimestamp"].is_null()), "the lookalike Work was deleted");
}

/// A Work in member2's execution namespace with the quota's labels but not its name.
const LOOKALIKE: &str = "apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata:
  name: lookalike
  namespace: karmada-es-member2
  labels:
    federatedresourcequota.karmada.io/namespace: default
    federatedresourcequota.karmada.io/name: team
spec:
  workload:
    manifests:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: lookalike, namespace: default}}
";

/// Writes that race: sixteen templates of half a core each, sent at once against an `overall`
/// of two cores. Each check sums what is stored, so without the check and the write holding the
/// namespace together, several would see the same usage and pass; exactly four may.
#[test]
fn concurrent_templates_cannot_overrun_overall_together() {
    let fleet = Fleet::up(1);
    fleet.apply(
        "apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: team, namespace: default}
spec:
  overall: {cpu: '2'}
",
    );
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
    let codes: Vec<u16> = runtime.block_on(async {
        let client = fleet.plane_client().await;
        let sends = (0..16).map(|i| {
            let client = client.clone();
            tokio::spawn(async move {
                let body = serde_json::to_vec(&deployment(&format!("race-{i}"), 1)).unwrap();
                send(&client, http::Method::POST, DEPLOYMENTS, "application/json", body).await.0
            })
        });
        futures::future::join_all(sends).await.into_iter().map(|r| r.unwrap()).collect()
    });
    let created = codes.iter().filter(|c| **c == 201).count();
    let refused = codes.iter().filter(|c| **c == 403).count();
    assert_eq!((created, refused), (4, 12), "answers: {codes:?}");
    let stored = fleet.k_ok("karmada-apiserver", &["get", "deployments", "-n", "default", "-o", "name"]);
    assert_eq!(stored.lines().filter(|l| l.contains("race-")).count(), 4, "{stored}");
}
