//! FederatedHPA end to end on a plane with two simulated members: bad specs are refused as
//! upstream's webhook refuses them (422), a Divided Deployment scales up when the simulated
//! CPU usage of its pods in the members rises (template replicas and the members' split, the
//! FHPA's conditions and current metrics), stays up through the scale-down stabilization
//! window when usage falls, and comes down to minReplicas after it; a Pods metric and a second
//! FHPA over the same pods are refused in the ScalingActive condition.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::fleet::{Fleet, policy};

/// The simulator's knob: percent of its CPU request each pod of the workload uses.
const CPU: &str = "simulation.karmadactl.io/cpu-utilization";

/// The scale-down window the FHPA asks for.
const WINDOW: Duration = Duration::from_secs(6);
/// The controller's sync period in this test (`--horizontal-pod-autoscaler-sync-period`).
const SYNC_PERIOD: Duration = Duration::from_secs(1);

fn deployment(cpu_percent: u32) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  annotations: {{{CPU}: '{cpu_percent}'}}
spec:
  replicas: 2
  selector:
    matchLabels: {{app: web}}
  template:
    metadata:
      labels: {{app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources:
          requests: {{cpu: 200m}}
"
    )
}

const FHPA: &str = "apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata:
  name: web
  namespace: default
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 50}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 6
";

fn fhpa(fleet: &Fleet) -> Value {
    fleet.get("karmada-apiserver", &["federatedhpa", "web", "-n", "default"]).expect("the FederatedHPA")
}

fn template_replicas(fleet: &Fleet) -> i64 {
    let d = fleet.get("karmada-apiserver", &["deployment", "web", "-n", "default"]).expect("the template");
    d["spec"]["replicas"].as_i64().unwrap_or(1)
}

fn condition(status: &Value, type_: &str) -> Value {
    let found = status["conditions"].as_array().into_iter().flatten().find(|c| c["type"] == type_);
    found.cloned().unwrap_or(Value::Null)
}

fn set_usage(fleet: &Fleet, percent: u32) {
    let annotation = format!("{CPU}={percent}");
    fleet.plane(&["annotate", "deployment", "web", "-n", "default", "--overwrite", &annotation]);
}

#[test]
fn a_federated_hpa_scales_a_divided_deployment_on_members_cpu() {
    let fleet = Fleet::with_plane_flags(
        2,
        &["--horizontal-pod-autoscaler-sync-period=1s", "--horizontal-pod-autoscaler-cpu-initialization-period=0s"],
    );

    // Upstream's webhook checks, with kube's messages.
    let bad = json!({
        "apiVersion": "autoscaling.karmada.io/v1alpha1", "kind": "FederatedHPA",
        "metadata": {"name": "bad", "namespace": "default"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": ""},
                 "minReplicas": 0, "maxReplicas": 0,
                 "behavior": {"scaleUp": {"selectPolicy": "Fastest"}}},
    });
    let (code, body) = fleet.post("/apis/autoscaling.karmada.io/v1alpha1/namespaces/default/federatedhpas", &bad);
    assert_eq!(code, 422, "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    for part in [
        r#"FederatedHPA.autoscaling.karmada.io "bad" is invalid"#,
        "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
        "spec.maxReplicas: Invalid value: 0: must be greater than 0",
        "spec.scaleTargetRef.name: Required value",
        r#"spec.behavior.scaleUp.selectPolicy: Unsupported value: "Fastest": supported values: "Disabled", "Max", "Min""#,
    ] {
        assert!(message.contains(part), "{message}");
    }

    // Pods using exactly the target: nothing to do. The webhook's defaults are filled in.
    fleet.apply(&deployment(50));
    let placement = "    clusterAffinity:
      clusterNames: [member1, member2]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - targetCluster: {clusterNames: [member1]}
          weight: 1
        - targetCluster: {clusterNames: [member2]}
          weight: 1
";
    fleet.apply(&policy("web", "web", placement));
    fleet.wait_replicas("web", &[("member1", Some(1)), ("member2", Some(1))]);
    fleet.apply(FHPA);
    let steady = fleet.wait("the FHPA's first sync", || {
        let f = fhpa(&fleet);
        let s = &f["status"];
        if condition(s, "ScalingActive")["status"] == "True" { Ok(f) } else { Err(f.to_string()) }
    });
    let behavior = &steady["spec"]["behavior"];
    assert_eq!(behavior["scaleDown"]["stabilizationWindowSeconds"], 6);
    assert_eq!(behavior["scaleUp"]["policies"][0], json!({"type": "Pods", "value": 4, "periodSeconds": 15}));
    let status = &steady["status"];
    assert_eq!((status["currentReplicas"].as_i64(), status["desiredReplicas"].as_i64()), (Some(2), Some(2)));
    assert_eq!(
        status["currentMetrics"],
        json!([{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 50, "averageValue": "100m"}}}])
    );
    assert_eq!(
        condition(status, "ScalingActive")["message"],
        "the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)"
    );
    assert_eq!(template_replicas(&fleet), 2);

    // Usage rises to 90 %: 1.8 times the target, so up to the maximum, within the scale-up
    // policies, and the members share the new count.
    set_usage(&fleet, 90);
    let up = fleet.wait("scaled up to maxReplicas", || {
        let f = fhpa(&fleet);
        let at_max = template_replicas(&fleet) == 10 && f["status"]["currentReplicas"] == 10;
        let limited = condition(&f["status"], "ScalingLimited")["reason"] == "TooManyReplicas";
        if at_max && limited { Ok(f) } else { Err(f["status"].to_string()) }
    });
    let status = &up["status"];
    assert_eq!(status["currentMetrics"][0]["resource"]["current"]["averageUtilization"], 90);
    assert_eq!(status["currentMetrics"][0]["resource"]["current"]["averageValue"], "180m");
    assert_eq!(condition(status, "ScalingLimited")["status"], "True");
    assert_eq!(
        condition(status, "ScalingLimited")["message"],
        "the desired replica count is more than the maximum replica count"
    );
    assert!(status["lastScaleTime"].is_string(), "{status}");
    fleet.wait_replicas("web", &[("member1", Some(5)), ("member2", Some(5))]);
    let events = fleet.k_ok(
        "karmada-apiserver",
        &["get", "events", "-n", "default", "--field-selector", "involvedObject.kind=FederatedHPA", "-o", "json"],
    );
    let events: Value = serde_json::from_str(&events).unwrap();
    let rescaled = events["items"].as_array().into_iter().flatten().find(|e| e["reason"] == "SuccessfulRescale");
    let message = rescaled.map(|e| e["message"].as_str().unwrap_or_default().to_string()).unwrap_or_default();
    assert!(
        message.starts_with("New size: ")
            && message.ends_with("reason: cpu resource utilization (percentage of request) above target"),
        "{events}"
    );

    // Usage falls to 10 %: the window keeps the recent high recommendation first.
    let lowered = Instant::now();
    set_usage(&fleet, 10);
    let held = fleet.wait("the scale-down held by the stabilization window", || {
        let f = fhpa(&fleet);
        let able = condition(&f["status"], "AbleToScale");
        if able["reason"] == "ScaleDownStabilized" { Ok(f) } else { Err(f["status"].to_string()) }
    });
    assert_eq!(template_replicas(&fleet), 10, "{held}");
    assert_eq!(held["status"]["desiredReplicas"], 10);
    fleet.wait("scaled down to minReplicas", || {
        let r = template_replicas(&fleet);
        if r == 2 { Ok(()) } else { Err(format!("{r} replicas")) }
    });
    // The window runs from the last high recommendation, made at most one sync period before
    // the usage fell.
    let earliest = WINDOW - SYNC_PERIOD;
    assert!(lowered.elapsed() >= earliest, "scaled down {:?} after usage fell, within the window", lowered.elapsed());
    fleet.wait_replicas("web", &[("member1", Some(1)), ("member2", Some(1))]);
    // At 2 replicas 10 % still asks for fewer, which minReplicas refuses.
    fleet.wait("held at minReplicas", || {
        let s = fhpa(&fleet)["status"].clone();
        let limited = condition(&s, "ScalingLimited");
        let at_min = s["currentReplicas"] == 2 && limited["reason"] == "TooFewReplicas" && limited["status"] == "True";
        if at_min { Ok(()) } else { Err(s.to_string()) }
    });

    // A Pods metric needs custom metrics, which the plane does not collect: the FHPA says so
    // in ScalingActive rather than ignoring it.
    let pods_metric = r#"{"spec":{"metrics":[{"type":"Pods","pods":{"metric":{"name":"requests"},"target":{"type":"AverageValue","averageValue":"10"}}}]}}"#;
    fleet.plane(&["patch", "federatedhpa", "web", "-n", "default", "--type=merge", "-p", pods_metric]);
    let inactive = fleet.wait("the Pods metric refused in the status", || {
        let s = fhpa(&fleet)["status"].clone();
        let active = condition(&s, "ScalingActive");
        if active["status"] == "False" { Ok(active) } else { Err(s.to_string()) }
    });
    assert_eq!(inactive["reason"], "FailedGetPodsMetric");
    assert_eq!(
        inactive["message"],
        "the HPA was unable to compute the replica count: Pods metrics are not supported: they need custom or external metrics, which this control plane does not collect from members"
    );
    assert_eq!(template_replicas(&fleet), 2);

    // A second FHPA on the same pods: neither may scale them.
    fleet.apply(&FHPA.replace("name: web\n  namespace", "name: web-twin\n  namespace"));
    let ambiguous = fleet.wait("both FHPAs refusing the shared pods", || {
        let s = fhpa(&fleet)["status"].clone();
        let active = condition(&s, "ScalingActive");
        if active["reason"] == "AmbiguousSelector" { Ok(active) } else { Err(s.to_string()) }
    });
    assert_eq!(
        ambiguous["message"],
        "pods by selector app=web are controlled by multiple HPAs: [default/web default/web-twin]"
    );
}
