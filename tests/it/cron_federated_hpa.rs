//! CronFederatedHPA end to end on a plane with two simulated members, its engine clock started
//! a minute before 09:00 in Shanghai: a rule `0 9 * * *` (Asia/Shanghai) scales a Divided
//! Deployment at that instant and the members get the new split; another sets a
//! FederatedHPA's min/max; a suspended rule never fires; a rule whose target is missing
//! records a failed execution and a Warning event; the status shows each rule's history and
//! next execution time as upstream's controller fills it. Bad objects are refused with 422.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::fleet::{Fleet, deployment, policy};

/// The engine's clock at plane start: 08:59 in Shanghai (00:59 UTC), so 09:00 comes a minute
/// after the plane starts, after the fleet is up and the objects are in place.
const CLOCK_START: &str = "2026-03-10T08:59:00+08:00";
/// From the clock's start to the fire time.
const LEAD: Duration = Duration::from_secs(60);
/// 09:00 in Shanghai that day, and the day after.
const FIRE: &str = "2026-03-10T01:00:00Z";
const NEXT_DAY: &str = "2026-03-11T01:00:00Z";

const CRONS: &str = "/apis/autoscaling.karmada.io/v1alpha1/namespaces/default/cronfederatedhpas";

fn cron(name: &str, target: &str, rules: &str) -> String {
    format!(
        "apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata:
  name: {name}
  namespace: default
spec:
  scaleTargetRef: {target}
  rules:
{rules}"
    )
}

const FEDERATED_HPA: &str = "apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata:
  name: web
  namespace: default
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 4
";

fn history(fleet: &Fleet, name: &str, rule: &str) -> Value {
    let c = fleet.get("karmada-apiserver", &["cronfederatedhpa", name, "-n", "default"]).expect("the object");
    let histories = c["status"]["executionHistories"].as_array().cloned().unwrap_or_default();
    histories.into_iter().find(|h| h["ruleName"] == rule).unwrap_or(Value::Null)
}

#[test]
fn rules_fire_at_their_time_in_their_zone() {
    // The plane's clock starts at CLOCK_START after this instant, so 09:00 comes no sooner
    // than LEAD from here.
    let before_start = Instant::now();
    let fleet = Fleet::with_plane_flags(2, &["--engine-clock-start", CLOCK_START]);
    let halves = "    clusterAffinity:\n      clusterNames: [member1, member2]\n    replicaScheduling:\n      replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        staticWeightList:\n        - targetCluster: {clusterNames: [member1]}\n          weight: 1\n        - targetCluster: {clusterNames: [member2]}\n          weight: 1\n";
    fleet.apply(&deployment("web", 2, ""));
    fleet.apply(&policy("web", "web", halves));
    fleet.apply(FEDERATED_HPA);
    let shanghai = "Asia/Shanghai";
    fleet.apply(&cron(
        "web",
        "{apiVersion: apps/v1, kind: Deployment, name: web}",
        &format!(
            "  - {{name: morning, schedule: '0 9 * * *', timeZone: {shanghai}, targetReplicas: 6}}
  - {{name: paused, schedule: '* * * * *', timeZone: {shanghai}, targetReplicas: 1, suspend: true}}
"
        ),
    ));
    fleet.apply(&cron(
        "bounds",
        "{apiVersion: autoscaling.karmada.io/v1alpha1, kind: FederatedHPA, name: web}",
        &format!("  - {{name: widen, schedule: '0 9 * * *', timeZone: {shanghai}, targetMinReplicas: 3, targetMaxReplicas: 8}}\n"),
    ));
    fleet.apply(&cron(
        "ghost",
        "{apiVersion: apps/v1, kind: Deployment, name: ghost}",
        &format!("  - {{name: morning, schedule: '0 9 * * *', timeZone: {shanghai}, targetReplicas: 2}}\n"),
    ));

    // Before 09:00: each active rule waits for it, the suspended one has no next time.
    let morning = fleet.wait("the morning rule's next execution time", || {
        let h = history(&fleet, "web", "morning");
        if h["nextExecutionTime"].is_string() { Ok(h) } else { Err(h.to_string()) }
    });
    assert_eq!(
        morning,
        json!({"ruleName": "morning", "nextExecutionTime": FIRE}),
        "the fleet took longer to come up than the clock's lead"
    );
    assert_eq!(history(&fleet, "web", "paused"), json!({"ruleName": "paused"}));
    fleet.wait_replicas("web", &[("member1", Some(1)), ("member2", Some(1))]);

    // At 09:00 Shanghai the template goes to 6 replicas and the members to 3 each. The wait
    // starts shortly before, so a fleet that came up quickly does not spend the whole
    // convergence budget waiting for the clock.
    let early = LEAD.saturating_sub(Duration::from_secs(5));
    std::thread::sleep(early.saturating_sub(before_start.elapsed()));
    fleet.wait_replicas("web", &[("member1", Some(3)), ("member2", Some(3))]);
    let template = fleet.get("karmada-apiserver", &["deployment", "web", "-n", "default"]).unwrap();
    assert_eq!(template["spec"]["replicas"], 6);
    let morning = fleet.wait("the morning run recorded", || {
        let h = history(&fleet, "web", "morning");
        if h["successfulExecutions"].is_array() { Ok(h) } else { Err(h.to_string()) }
    });
    assert_eq!(morning["nextExecutionTime"], NEXT_DAY, "{morning}");
    let run = &morning["successfulExecutions"][0];
    assert_eq!((&run["scheduleTime"], &run["appliedReplicas"]), (&json!(FIRE), &json!(6)), "{morning}");
    assert!(run["executionTime"].as_str().unwrap().starts_with("2026-03-10T01:00:0"), "{morning}");
    assert!(morning["failedExecutions"].is_null(), "{morning}");

    // The FederatedHPA got the rule's bounds, recorded as applied.
    let bounds = fleet.wait("the widen run recorded", || {
        let h = history(&fleet, "bounds", "widen");
        if h["successfulExecutions"].is_array() { Ok(h) } else { Err(h.to_string()) }
    });
    assert_eq!(bounds["successfulExecutions"][0]["appliedMinReplicas"], 3, "{bounds}");
    assert_eq!(bounds["successfulExecutions"][0]["appliedMaxReplicas"], 8, "{bounds}");
    assert!(bounds["successfulExecutions"][0]["appliedReplicas"].is_null(), "{bounds}");
    let fhpa = fleet.get("karmada-apiserver", &["federatedhpa", "web", "-n", "default"]).unwrap();
    assert_eq!((&fhpa["spec"]["minReplicas"], &fhpa["spec"]["maxReplicas"]), (&json!(3), &json!(8)));

    // A missing target: a failed execution with the API's message, and a Warning event.
    let ghost = fleet.wait("the ghost run recorded", || {
        let h = history(&fleet, "ghost", "morning");
        if h["failedExecutions"].is_array() { Ok(h) } else { Err(h.to_string()) }
    });
    assert_eq!(ghost["failedExecutions"][0]["message"], r#"deployments.apps "ghost" not found"#, "{ghost}");
    assert_eq!(ghost["nextExecutionTime"], NEXT_DAY);
    let events =
        fleet.plane(&["get", "events", "-n", "default", "--field-selector", "involvedObject.name=ghost", "-o", "json"]);
    let events: Value = serde_json::from_str(&events).unwrap();
    let warning = &events["items"][0];
    assert_eq!((&warning["type"], &warning["reason"]), (&json!("Warning"), &json!("ScaleFailed")), "{events}");
    assert_eq!(warning["source"]["component"], "cronfederatedhpa-controller");

    // The suspended rule (every minute) never ran.
    assert_eq!(history(&fleet, "web", "paused"), json!({"ruleName": "paused"}));

    // Resuming it gives it a timer and a next execution time: the next whole minute.
    fleet.apply(&cron(
        "web",
        "{apiVersion: apps/v1, kind: Deployment, name: web}",
        &format!("  - {{name: paused, schedule: '* * * * *', timeZone: {shanghai}, targetReplicas: 1}}\n"),
    ));
    let resumed = fleet.wait("the resumed rule's next time, the deleted rule's history gone", || {
        let c = fleet.get("karmada-apiserver", &["cronfederatedhpa", "web", "-n", "default"]).unwrap();
        let h = &c["status"]["executionHistories"];
        if h.as_array().map(Vec::len) == Some(1) && h[0]["nextExecutionTime"].is_string() {
            Ok(h[0].clone())
        } else {
            Err(h.to_string())
        }
    });
    assert_eq!(resumed["ruleName"], "paused");
    assert!(resumed["nextExecutionTime"].as_str().unwrap().starts_with("2026-03-10T01:0"), "{resumed}");
}

#[test]
fn bad_cron_federated_hpas_are_refused() {
    let fleet = Fleet::up_with(0, &[], &[]);
    let object = |target: Value, rules: Value| {
        json!({"apiVersion": "autoscaling.karmada.io/v1alpha1", "kind": "CronFederatedHPA",
            "metadata": {"name": "bad", "namespace": "default"},
            "spec": {"scaleTargetRef": target, "rules": rules}})
    };
    let deploy = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
    let (code, body) = fleet.post(
        CRONS,
        &object(
            deploy,
            json!([
                {"name": "a", "schedule": "0 25 * * *", "targetReplicas": 1},
                {"name": "a", "schedule": "0 9 * * *", "timeZone": "Asia/Atlantis", "targetReplicas": 1},
                {"name": "b", "schedule": "@every 1h"},
            ]),
        ),
    );
    assert_eq!(code, 422, "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    for part in [
        r#"CronFederatedHPA.autoscaling.karmada.io "bad" is invalid"#,
        r#"spec.rules[0].schedule: Invalid value: "0 25 * * *": invalid cron format: end of range (25) above maximum (23): 25"#,
        r#"spec.rules[1].name: Duplicate value: "a""#,
        r#"spec.rules[1].timeZone: Invalid value: "Asia/Atlantis": unknown time zone Asia/Atlantis"#,
        r#"spec.rules[2].schedule: Invalid value: "@every 1h": invalid cron format: unrecognized descriptor: @every 1h"#,
        r#"spec.rules[2].targetReplicas: Invalid value: "": targetReplicas cannot be nil if you want to scale Deployment"#,
    ] {
        assert!(message.contains(part), "{message}");
    }

    let fhpa = json!({"apiVersion": "autoscaling.karmada.io/v1alpha1", "kind": "FederatedHPA", "name": "web"});
    let (code, body) = fleet.post(
        CRONS,
        &object(fhpa, json!([{"name": "a", "schedule": "0 9 * * *", "targetMinReplicas": 5, "targetMaxReplicas": 2}])),
    );
    assert_eq!(code, 422, "{body}");
    assert!(
        body["message"].as_str().unwrap_or_default().contains(
            r#"spec.rules[0].targetMinReplicas: Invalid value: "": targetMaxReplicas should be larger than or equal to targetMinReplicas"#
        ),
        "{body}"
    );
    let other = json!({"apiVersion": "autoscaling.karmada.io/v1alpha1", "kind": "Remedy", "name": "web"});
    let (code, body) = fleet.post(CRONS, &object(other, json!([])));
    assert_eq!(code, 422, "{body}");
    assert!(body["message"].as_str().unwrap_or_default().contains("only support FederatedHPA"), "{body}");

    // The upstream CRD's own bounds still hold: a rule name of at most 32 characters.
    let long = "x".repeat(33);
    let deploy = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
    let (code, body) = fleet
        .post(CRONS, &object(deploy.clone(), json!([{"name": long, "schedule": "0 9 * * *", "targetReplicas": 1}])));
    assert_eq!(code, 422, "{body}");

    // A valid one is stored.
    let (code, body) = fleet.post(
        CRONS,
        &object(
            deploy,
            json!([{"name": "ok", "schedule": "30 8 * * MON-FRI", "timeZone": "Europe/Berlin", "targetReplicas": 0}]),
        ),
    );
    assert_eq!(code, 201, "{body}");
}
