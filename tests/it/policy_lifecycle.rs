//! What happens to the templates a propagation policy claims over the policy's life, on a
//! playground with simulated members: deleting the policy releases them (and another matching
//! policy then claims them), a policy with `dependentOverrides` waits for those
//! OverridePolicies, and (with the feature gate) a higher-priority policy preempts.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::common;
use crate::common::fleet::Fleet;
use crate::common::plane::Plane;

const PP_ID: &str = "propagationpolicy.karmada.io/permanent-id";
const PP_NAME: &str = "propagationpolicy.karmada.io/name";
const PP_NAMESPACE: &str = "propagationpolicy.karmada.io/namespace";
const CPP_ID: &str = "clusterpropagationpolicy.karmada.io/permanent-id";
const CPP_NAME: &str = "clusterpropagationpolicy.karmada.io/name";

fn deployment(name: &str, replicas: i64) -> String {
    crate::common::fleet::deployment(name, replicas, "")
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

pub(crate) fn pp(name: &str, target: &str, clusters: &str, extra: &str) -> String {
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
    // Without the PropagationPolicyPreemption gate (off by default), preemption: Always does
    // nothing: the claim stays with its policy.
    fleet.apply(&pp("grabby", "shared", "member2", "  priority: 9\n  preemption: Always\n"));
    // A claim stays with its policy: the new, lower-priority one takes only what is free.
    fleet.apply(&pp("everything", "", "member2", "  priority: 1\n"));
    wait_claimed_by(&fleet, "solo", "everything");
    fleet.wait_replicas("solo", &[("member1", None), ("member2", Some(2))]);
    wait_claimed_by(&fleet, "shared", "preferred");
    assert_eq!(fleet.replicas("member1", "shared"), Some(3));
    fleet.plane(&["delete", "propagationpolicy", "grabby", "-n", "default"]);
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

/// A plane started with `controlplane serve` flags of the test's choosing (`local up` takes
/// none), with simulated members joined to it; everything stops when dropped.
pub(crate) struct GatedFleet {
    pub(crate) plane: Plane,
    home: tempfile::TempDir,
    members: Vec<(String, PathBuf)>,
}

impl GatedFleet {
    pub(crate) fn up(flags: &[&str], members: &[&str]) -> Self {
        let plane = Plane::start_with(flags);
        let mut fleet = GatedFleet { plane, home: tempfile::tempdir().expect("temp dir"), members: vec![] };
        for name in members {
            let dir = fleet.home.path().join(name);
            let started =
                fleet.cli(&["local", "member", "start", name, "--data-dir", dir.to_str().unwrap(), "-o", "json"]);
            assert_eq!(started.code, 0, "local member start {name}: {}", started.stderr);
            let v: Value = serde_json::from_str(&started.stdout).expect("member start prints JSON");
            let kubeconfig = PathBuf::from(v["kubeconfig"].as_str().expect("a kubeconfig"));
            fleet.members.push((name.to_string(), kubeconfig.clone()));
            let plane = fleet.plane.kubeconfig.to_str().unwrap().to_string();
            let join = fleet.cli(&[
                "join",
                name,
                "--kubeconfig",
                &plane,
                "--cluster-kubeconfig",
                kubeconfig.to_str().unwrap(),
            ]);
            assert_eq!(join.code, 0, "join {name}: {}", join.stderr);
        }
        fleet
    }

    fn cli(&self, args: &[&str]) -> common::Run {
        let mut cmd = common::karmadactl(self.home.path());
        cmd.args(args);
        common::run(cmd)
    }

    pub(crate) fn apply(&self, manifest: &str) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let file = self.plane.file(&format!("manifest-{}.yaml", N.fetch_add(1, Ordering::Relaxed)), manifest);
        self.plane.kubectl_ok(&["apply", "-f", file.to_str().unwrap()]);
    }

    pub(crate) fn get(&self, args: &[&str]) -> Option<Value> {
        let mut all = vec!["get"];
        all.extend_from_slice(args);
        all.extend(["-o", "json", "--ignore-not-found"]);
        let out = self.plane.kubectl_ok(&all);
        (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
    }

    /// `spec.replicas` of Deployment `name` in a member, `None` when absent.
    pub(crate) fn replicas(&self, member: &str, name: &str) -> Option<i64> {
        let kubeconfig = &self.members.iter().find(|(m, _)| m == member).expect("a member").1;
        let mut cmd = Command::new(common::kubectl_binary("1.33"));
        cmd.arg("--kubeconfig").arg(kubeconfig).arg("--cache-dir").arg(self.home.path().join("cache"));
        cmd.args(["get", "deployment", name, "-n", "default", "-o", "json", "--ignore-not-found"]);
        let out = common::run(cmd);
        assert_eq!(out.code, 0, "{}", out.stderr);
        (!out.stdout.trim().is_empty()).then(|| {
            let d: Value = serde_json::from_str(&out.stdout).expect("JSON");
            d["spec"]["replicas"].as_i64().unwrap_or(1)
        })
    }

    pub(crate) fn wait_replicas(&self, name: &str, want: &[(&str, Option<i64>)]) {
        common::eventually(&format!("deployment {name} spread as {want:?}"), || {
            let seen: Vec<(&str, Option<i64>)> = want.iter().map(|(m, _)| (*m, self.replicas(m, name))).collect();
            (seen == want).then_some(())
        });
    }

    /// The claim of template `name`: (annotation key of the policy name, policy name).
    fn claimed_by(&self, name: &str) -> Option<(String, String)> {
        let t = self.get(&["deployment", name, "-n", "default"])?;
        let a = &t["metadata"]["annotations"];
        if let Some(p) = a[PP_NAME].as_str() {
            return Some((PP_NAME.into(), p.into()));
        }
        a[CPP_NAME].as_str().map(|c| (CPP_NAME.into(), c.into()))
    }

    /// Waits until the template and its binding carry exactly one policy's claim, `policy`'s
    /// (`key` says which kind: a PropagationPolicy's three keys, a cluster one's two).
    fn wait_claimed_by(&self, name: &str, key: &str, policy: &str) {
        let keys = if key == PP_NAME { 3 } else { 2 };
        common::eventually(&format!("{name} claimed by {policy}"), || {
            let t = self.get(&["deployment", name, "-n", "default"])?;
            let b = self.get(&["resourcebinding", &format!("{name}-deployment"), "-n", "default"])?;
            let ok = |o: &Value| o["metadata"]["annotations"][key] == policy && claim_of(o).len() == keys;
            (ok(&t) && ok(&b)).then_some(())
        });
    }

    /// The PreemptPolicySucceed Event on template `name`: (message, count).
    fn preempted(&self, name: &str) -> Option<(String, i64)> {
        let events = self.get(&["events", "-n", "default"])?;
        events["items"].as_array()?.iter().find_map(|e| {
            (e["involvedObject"]["name"] == name && e["reason"] == "PreemptPolicySucceed")
                .then(|| (e["message"].as_str().unwrap_or_default().to_string(), e["count"].as_i64().unwrap_or(0)))
        })
    }
}

impl Drop for GatedFleet {
    fn drop(&mut self) {
        for (name, _) in self.members.clone() {
            let dir = self.home.path().join(&name);
            let _ = self.cli(&["local", "member", "stop", &name, "--data-dir", dir.to_str().unwrap()]);
        }
    }
}

#[test]
fn with_the_gate_a_higher_priority_policy_preempts_as_upstream_rules() {
    let fleet = GatedFleet::up(&["--feature-gates", "PropagationPolicyPreemption=true"], &["member1", "member2"]);
    let cpp = |name: &str, target: &str, cluster: &str, extra: &str| {
        policy("ClusterPropagationPolicy", name, target, cluster, extra)
    };

    // A ClusterPropagationPolicy claims the template first.
    fleet.apply(&deployment("app", 2));
    fleet.apply(&cpp("cluster-low", "app", "member1", "  priority: 50\n"));
    fleet.wait_claimed_by("app", CPP_NAME, "cluster-low");
    fleet.wait_replicas("app", &[("member1", Some(2)), ("member2", None)]);

    // Without preemption, a PropagationPolicy leaves the claim where it is, whatever its
    // priority; nor does a preempting one whose selector does not name the template.
    fleet.apply(&pp("polite", "app", "member2", "  priority: 100\n"));
    fleet.apply(&pp("by-kind", "", "member2", "  priority: 90\n  preemption: Always\n"));
    // A PropagationPolicy with preemption takes it from any ClusterPropagationPolicy, even with
    // a lower priority.
    fleet.apply(&pp("takes-over", "app", "member2", "  priority: 1\n  preemption: Always\n"));
    fleet.wait_claimed_by("app", PP_NAME, "takes-over");
    fleet.wait_replicas("app", &[("member1", None), ("member2", Some(2))]);
    assert_eq!(
        fleet.preempted("app"),
        Some((
            "Propagation policy(default/takes-over) preempted cluster propagation policy(cluster-low) successfully"
                .into(),
            1
        ))
    );

    fleet.plane.kubectl_ok(&["delete", "propagationpolicy", "polite", "by-kind", "-n", "default"]);

    // Between PropagationPolicies only a higher priority preempts: an equal one does not.
    fleet.apply(&pp("equal", "app", "member1", "  priority: 1\n  preemption: Always\n"));
    fleet.apply(&pp("highest", "app", "member1", "  priority: 7\n  preemption: Always\n"));
    fleet.wait_claimed_by("app", PP_NAME, "highest");
    fleet.wait_replicas("app", &[("member1", Some(2)), ("member2", None)]);
    // One Event per template and reason, counted: exactly two preemptions happened.
    assert_eq!(
        fleet.preempted("app"),
        Some((
            "Propagation policy(default/highest) preempted propagation policy(default/takes-over) successfully".into(),
            2
        ))
    );
    assert_eq!(fleet.claimed_by("app"), Some((PP_NAME.into(), "highest".into())));

    // A ClusterPropagationPolicy preempts only a lower-priority ClusterPropagationPolicy.
    fleet.apply(&deployment("infra", 1));
    fleet.apply(&cpp("infra-low", "infra", "member1", "  priority: 1\n"));
    fleet.wait_claimed_by("infra", CPP_NAME, "infra-low");
    fleet.apply(&cpp("infra-high", "infra", "member2", "  priority: 2\n  preemption: Always\n"));
    fleet.wait_claimed_by("infra", CPP_NAME, "infra-high");
    fleet.wait_replicas("infra", &[("member1", None), ("member2", Some(1))]);
    assert_eq!(
        fleet.preempted("infra"),
        Some((
            "Cluster propagation policy(infra-high) preempted cluster propagation policy(infra-low) successfully"
                .into(),
            1
        ))
    );
    // …and never a PropagationPolicy's claim.
    fleet.apply(&cpp("cluster-top", "app", "member2", "  priority: 1000\n  preemption: Always\n"));
    fleet.apply(&deployment("barrier", 1));
    fleet.apply(&cpp("barrier", "barrier", "member2", ""));
    fleet.wait_replicas("barrier", &[("member2", Some(1))]);
    assert_eq!(fleet.claimed_by("app"), Some((PP_NAME.into(), "highest".into())));
    assert_eq!(fleet.replicas("member1", "app"), Some(2));
}

#[test]
fn a_burst_of_templates_gets_one_binding_create_each() {
    // Claiming a template changes it, and that change looks at the template again, often
    // before the binding just created has reached the engine's cache: the engine takes what
    // its create returned as the binding until then, instead of creating it again (409).
    const N: usize = 150;
    let plane = Plane::start();
    plane.create(&pp("all", "", "member1", ""));
    let templates: String = (0..N).map(|i| format!("{}---\n", deployment(&format!("burst{i}"), 1))).collect();
    plane.create(&templates);
    common::eventually("a binding per template", || {
        let out = plane.kubectl_ok(&["get", "resourcebindings", "-n", "default", "-o", "name"]);
        (out.lines().count() == N).then_some(())
    });
    let metrics = plane.kubectl_ok(&["get", "--raw", "/metrics"]);
    let creates = |code: &str| -> f64 {
        let key = format!(
            "apiserver_request_total{{code=\"{code}\",resource=\"resourcebindings\",subresource=\"\",verb=\"create\"}} "
        );
        metrics.lines().find_map(|l| l.strip_prefix(key.as_str())).and_then(|v| v.trim().parse().ok()).unwrap_or(0.0)
    };
    assert_eq!(creates("201"), N as f64, "{metrics}");
    assert_eq!(creates("409"), 0.0, "no binding created twice\n{metrics}");
}
