//! What happens to the templates a propagation policy claims over the policy's life, on a
//! `local up` playground with simulated members: deleting the policy releases them (and
//! another matching policy then claims them), a policy with `dependentOverrides` waits for
//! those OverridePolicies, and (with the feature gate) a higher-priority policy preempts.

use serde_json::Value;

use crate::common::fleet::Fleet;

const PP_ID: &str = "propagationpolicy.karmada.io/permanent-id";
const PP_NAME: &str = "propagationpolicy.karmada.io/name";
const PP_NAMESPACE: &str = "propagationpolicy.karmada.io/namespace";
const CPP_ID: &str = "clusterpropagationpolicy.karmada.io/permanent-id";
const CPP_NAME: &str = "clusterpropagationpolicy.karmada.io/name";

pub(crate) fn deployment(name: &str, replicas: i64) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  namespace: default
  labels: {{app: {name}}}
spec:
  replicas: {replicas}
  selector:
    matchLabels: {{app: {name}}}
  template:
    metadata:
      labels: {{app: {name}}}
    spec:
      containers:
      - name: {name}
        image: nginx
"
    )
}

/// A (Cluster)PropagationPolicy selecting Deployment `target` (by name, or every Deployment
/// when `target` is empty) with `extra` spec lines, placing it on `clusters`.
fn policy(kind: &str, name: &str, target: &str, clusters: &str, extra: &str) -> String {
    let namespace = if kind == "PropagationPolicy" { "\n  namespace: default" } else { "" };
    let selector_ns = if kind == "PropagationPolicy" { "" } else { "\n    namespace: default" };
    let by_name = if target.is_empty() { String::new() } else { format!("\n    name: {target}") };
    format!(
        "apiVersion: policy.karmada.io/v1alpha1
kind: {kind}
metadata:
  name: {name}{namespace}
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment{selector_ns}{by_name}
  placement:
    clusterAffinity:
      clusterNames: [{clusters}]
{extra}"
    )
}

fn pp(name: &str, target: &str, clusters: &str, extra: &str) -> String {
    policy("PropagationPolicy", name, target, clusters, extra)
}

/// The claim keys an object carries: (label or annotation key, value).
fn claim_of(o: &Value) -> Vec<(String, String)> {
    let mut keys = vec![];
    for (field, names) in [("labels", [PP_ID, CPP_ID].as_slice()), ("annotations", &[PP_NAME, PP_NAMESPACE, CPP_NAME])]
    {
        for k in names {
            if let Some(v) = o["metadata"][field][*k].as_str() {
                keys.push((k.to_string(), v.to_string()));
            }
        }
    }
    keys
}

fn template(fleet: &Fleet, name: &str) -> Value {
    fleet.get("karmada-apiserver", &["deployment", name, "-n", "default"]).expect("the template")
}

fn binding(fleet: &Fleet, name: &str) -> Option<Value> {
    fleet.get("karmada-apiserver", &["resourcebinding", &format!("{name}-deployment"), "-n", "default"])
}

/// Waits until the template and its binding are claimed by the PropagationPolicy `policy`.
fn wait_claimed_by(fleet: &Fleet, name: &str, policy: &str) {
    fleet.wait(&format!("{name} claimed by {policy}"), || {
        let t = template(fleet, name);
        let b = binding(fleet, name).ok_or("no binding")?;
        let ok =
            |o: &Value| o["metadata"]["annotations"][PP_NAME] == policy && o["metadata"]["labels"][PP_ID].is_string();
        if ok(&t) && ok(&b) { Ok(()) } else { Err(format!("{:?} / {:?}", claim_of(&t), claim_of(&b))) }
    });
}

#[test]
fn deleting_a_policy_releases_its_templates_and_another_policy_claims_them() {
    let fleet = Fleet::up(2);

    // The only policy selecting Deployments goes: its template is released all the same.
    fleet.apply(&deployment("solo", 2));
    fleet.apply(&pp("solo", "solo", "member1", ""));
    fleet.wait_replicas("solo", &[("member1", Some(2)), ("member2", None)]);
    wait_claimed_by(&fleet, "solo", "solo");
    let binding_uid = binding(&fleet, "solo").unwrap()["metadata"]["uid"].clone();
    fleet.plane(&["delete", "propagationpolicy", "solo", "-n", "default"]);
    fleet.wait("solo released from the template and its binding", || {
        let t = template(&fleet, "solo");
        let b = binding(&fleet, "solo").ok_or("the binding went")?;
        let (ct, cb) = (claim_of(&t), claim_of(&b));
        if ct.is_empty() && cb.is_empty() { Ok(()) } else { Err(format!("{ct:?} / {cb:?}")) }
    });
    // Upstream keeps the binding (the same one) and what runs in the members.
    assert_eq!(binding(&fleet, "solo").unwrap()["metadata"]["uid"], binding_uid);
    assert_eq!(fleet.replicas("member1", "solo"), Some(2));
    assert_eq!(fleet.replicas("member2", "solo"), None);
    let claimed = fleet.plane(&["get", "deployments", "-n", "default", "-l", PP_ID, "-o", "name"]);
    assert!(!claimed.contains("deployment.apps/solo"), "{claimed}");

    // Two policies match; the higher-priority one claims. When it goes, the other claims the
    // template and its placement applies.
    fleet.apply(&deployment("shared", 3));
    fleet.apply(&pp("preferred", "shared", "member1", "  priority: 5\n"));
    fleet.wait_replicas("shared", &[("member1", Some(3)), ("member2", None)]);
    wait_claimed_by(&fleet, "shared", "preferred");
    // A claim stays with its policy: the new, lower-priority one takes only what is free.
    fleet.apply(&pp("everything", "", "member2", "  priority: 1\n"));
    wait_claimed_by(&fleet, "solo", "everything");
    fleet.wait_replicas("solo", &[("member1", None), ("member2", Some(2))]);
    wait_claimed_by(&fleet, "shared", "preferred");
    fleet.plane(&["delete", "propagationpolicy", "preferred", "-n", "default"]);
    wait_claimed_by(&fleet, "shared", "everything");
    fleet.wait_replicas("shared", &[("member1", None), ("member2", Some(3))]);

    // A ClusterPropagationPolicy's claim is released from a namespaced template as well.
    fleet.plane(&["delete", "propagationpolicy", "everything", "-n", "default"]);
    fleet.apply(&policy("ClusterPropagationPolicy", "cluster-wide", "shared", "member1", ""));
    fleet.wait("shared claimed by the cluster policy", || {
        let t = template(&fleet, "shared");
        let c = claim_of(&t);
        if t["metadata"]["annotations"][CPP_NAME] == "cluster-wide" && c.len() == 2 {
            Ok(())
        } else {
            Err(format!("{c:?}"))
        }
    });
    fleet.wait_replicas("shared", &[("member1", Some(3)), ("member2", None)]);
    fleet.plane(&["delete", "clusterpropagationpolicy", "cluster-wide"]);
    fleet.wait("shared released by the cluster policy", || {
        let (t, b) = (claim_of(&template(&fleet, "shared")), claim_of(&binding(&fleet, "shared").unwrap()));
        if t.is_empty() && b.is_empty() { Ok(()) } else { Err(format!("{t:?} / {b:?}")) }
    });
    assert_eq!(fleet.replicas("member1", "shared"), Some(3));
}

#[test]
fn dependent_overrides_hold_propagation_until_they_all_exist() {
    let fleet = Fleet::up(2);
    let op = |name: &str, label: &str| {
        format!(
            "apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: {name}
  namespace: default
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    name: held
  overrideRules:
  - targetCluster: {{clusterNames: [member1]}}
    overriders:
      labelsOverrider:
      - operator: add
        value: {{{label}: 'yes'}}
"
        )
    };
    fleet.apply(&deployment("held", 2));
    fleet.apply(&pp("held", "held", "member1", "  dependentOverrides: [first, second]\n"));
    // A workload propagated after the policy shows the detector has looked at it: the held
    // template is neither claimed nor bound, and no member has it.
    let barrier = |name: &str| {
        fleet.apply(&deployment(name, 1));
        fleet.apply(&pp(name, name, "member2", ""));
        fleet.wait_replicas(name, &[("member2", Some(1))]);
        assert_eq!(claim_of(&template(&fleet, "held")), vec![], "held is claimed before its overrides exist");
        assert!(binding(&fleet, "held").is_none(), "held is bound before its overrides exist");
        assert_eq!(fleet.replicas("member1", "held"), None);
    };
    barrier("barrier-one");

    // One of the two is not enough.
    fleet.apply(&op("first", "first"));
    barrier("barrier-two");

    // With both, the template propagates with both overrides applied.
    fleet.apply(&op("second", "second"));
    fleet.wait_replicas("held", &[("member1", Some(2)), ("member2", None)]);
    wait_claimed_by(&fleet, "held", "held");
    fleet.wait("both overrides applied", || {
        let d = fleet.get("member1", &["deployment", "held"]).ok_or("absent")?;
        let l = &d["metadata"]["labels"];
        if l["first"] == "yes" && l["second"] == "yes" { Ok(()) } else { Err(l.to_string()) }
    });
}
