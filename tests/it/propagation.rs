//! The reconcile engine end to end, as the seed scenarios walk through it: a `local up`
//! playground (the embedded plane and simulated members joined in Push mode, plus one
//! registered in Pull mode with the built-in agent), real kubectl applying templates and
//! policies to the plane, and the member clusters' own API servers checked for what arrived.

use crate::common;
use crate::common::fleet::{Fleet, deployment, policy};

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(common::karmada_fixtures().join("samples").join(rel)).expect("fixture")
}

#[test]
fn names_labels_status_and_deletion() {
    let fleet = Fleet::up(3);

    // By cluster names; Duplicated (no replicaScheduling) gives each cluster every replica.
    fleet.apply(&deployment("nginx", 1, ""));
    fleet.apply(&policy("nginx", "nginx", "    clusterAffinity:\n      clusterNames: [member1, member2]\n"));
    fleet.wait_replicas("nginx", &[("member1", Some(1)), ("member2", Some(1)), ("member3", None)]);

    // The template is claimed, bound and scheduled as upstream records it.
    let template = fleet.get("karmada-apiserver", &["deployment", "nginx"]).unwrap();
    assert!(template["metadata"]["labels"]["propagationpolicy.karmada.io/permanent-id"].is_string());
    assert_eq!(template["metadata"]["annotations"]["propagationpolicy.karmada.io/name"], "nginx");
    let rb = fleet.get("karmada-apiserver", &["resourcebinding", "nginx-deployment"]).unwrap();
    let targets: Vec<&str> =
        rb["spec"]["clusters"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(targets, ["member1", "member2"]);
    let work = fleet.get("karmada-apiserver", &["work", "nginx-687f7fb96f", "-n", "karmada-es-member1"]).unwrap();
    assert_eq!(work["spec"]["workload"]["manifests"][0]["kind"], "Deployment");
    let member = fleet.get("member1", &["deployment", "nginx"]).unwrap();
    assert_eq!(member["metadata"]["labels"]["karmada.io/managed"], "true");

    // The plane shows the fleet: READY 2/1, summed from both members.
    fleet.wait("template READY 2/1", || {
        let out = fleet.plane(&["get", "deployment", "nginx", "--no-headers"]);
        if out.split_whitespace().nth(1) == Some("2/1") { Ok(()) } else { Err(out) }
    });
    let rb = fleet.get("karmada-apiserver", &["resourcebinding", "nginx-deployment"]).unwrap();
    let conditions = rb["status"]["conditions"].as_array().unwrap();
    for t in ["Scheduled", "FullyApplied"] {
        assert!(conditions.iter().any(|c| c["type"] == t && c["status"] == "True"), "{t} in {conditions:?}");
    }

    // By cluster labels, set with kubectl.
    fleet.plane(&["label", "cluster", "member3", "env=prod"]);
    fleet.apply(&deployment("web", 2, ""));
    fleet.apply(&policy(
        "web",
        "web",
        "    clusterAffinity:\n      labelSelector:\n        matchLabels: {env: prod}\n",
    ));
    fleet.wait_replicas("web", &[("member1", None), ("member2", None), ("member3", Some(2))]);

    // propagateDeps: the ConfigMap the workload refers to follows it, and only there.
    fleet.plane(&["create", "configmap", "app-config", "--from-literal=mode=fleet"]);
    fleet.apply(&deployment("app", 1, "").replace(
        "        image: nginx\n",
        "        image: nginx\n        envFrom: [{configMapRef: {name: app-config}}]\n",
    ));
    fleet.apply(&format!(
        "{}  propagateDeps: true\n",
        policy("app", "app", "    clusterAffinity:\n      clusterNames: [member2]\n")
    ));
    fleet.wait("app-config in member2", || {
        let cm = fleet.get("member2", &["configmap", "app-config"]);
        match cm {
            Some(cm) if cm["data"]["mode"] == "fleet" => Ok(()),
            other => Err(format!("{other:?}")),
        }
    });
    assert_eq!(fleet.replicas("member2", "app"), Some(1));
    assert!(fleet.get("member1", &["configmap", "app-config"]).is_none());

    // A template change reaches the members.
    fleet.plane(&["set", "image", "deployment/nginx", "nginx=nginx:1.27"]);
    fleet.wait("new image in member2", || {
        let d = fleet.get("member2", &["deployment", "nginx"]).unwrap();
        let image = d["spec"]["template"]["spec"]["containers"][0]["image"].clone();
        if image == "nginx:1.27" { Ok(()) } else { Err(image.to_string()) }
    });
    // The engine rewrote the Work from its cache, which holds no managedFields: the Work still
    // records who set the fields the rewrite left alone (its finalizer, set at creation).
    let work = fleet
        .get("karmada-apiserver", &["work", "nginx-687f7fb96f", "-n", "karmada-es-member2", "--show-managed-fields"])
        .unwrap();
    assert_eq!(
        work["spec"]["workload"]["manifests"][0]["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.27"
    );
    let entries = work["metadata"]["managedFields"].as_array().expect("managedFields");
    assert!(
        entries.iter().any(|e| e["fieldsV1"]["f:metadata"].get("f:finalizers").is_some()),
        "no manager owns the finalizers any more: {entries:?}"
    );

    // Deleting the template removes it from every member, and its binding and Works go too.
    fleet.plane(&["delete", "deployment", "nginx"]);
    fleet.wait_replicas("nginx", &[("member1", None), ("member2", None), ("member3", None)]);
    fleet.wait("binding and works gone", || {
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", "nginx-deployment"]);
        let works = fleet.plane(&["get", "works", "-A", "--no-headers"]);
        if rb.is_none() && !works.contains("nginx-") { Ok(()) } else { Err(works) }
    });
    // The other workload is untouched.
    assert_eq!(fleet.replicas("member3", "web"), Some(2));

    // Deleting a policy releases its templates: the claim goes from the template and its
    // binding, and what runs in the members stays where it is.
    fleet.plane(&["delete", "propagationpolicy", "web"]);
    fleet.wait("web released", || {
        let t = fleet.get("karmada-apiserver", &["deployment", "web"]).unwrap();
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment"]).unwrap();
        let claimed = |o: &serde_json::Value| {
            o["metadata"]["labels"].get("propagationpolicy.karmada.io/permanent-id").is_some()
                || o["metadata"]["annotations"].get("propagationpolicy.karmada.io/name").is_some()
                || o["metadata"]["annotations"].get("propagationpolicy.karmada.io/namespace").is_some()
        };
        if claimed(&t) || claimed(&rb) { Err(format!("{}\n{}", t["metadata"], rb["metadata"])) } else { Ok(()) }
    });
    assert_eq!(fleet.replicas("member3", "web"), Some(2));
    let unclaimed =
        fleet.plane(&["get", "deployment", "-l", "propagationpolicy.karmada.io/permanent-id", "-o", "name"]);
    assert!(!unclaimed.contains("deployment.apps/web"), "{unclaimed}");
    // Another policy then claims it, and its placement applies.
    fleet.apply(&policy("web-again", "web", "    clusterAffinity:\n      clusterNames: [member1]\n"));
    fleet.wait_replicas("web", &[("member1", Some(2)), ("member2", None), ("member3", None)]);
    let t = fleet.get("karmada-apiserver", &["deployment", "web"]).unwrap();
    assert_eq!(t["metadata"]["annotations"]["propagationpolicy.karmada.io/name"], "web-again");
    let rb = fleet.get("karmada-apiserver", &["resourcebinding", "web-deployment"]).unwrap();
    assert_eq!(rb["metadata"]["annotations"]["propagationpolicy.karmada.io/name"], "web-again");
}

/// Waits until the Work's `Applied` condition says it refused to take over an object Karmada
/// does not manage.
fn wait_refused(fleet: &Fleet, namespace: &str, work: &str) {
    fleet.wait("the Work refuses to take over", || {
        let w = fleet.get("karmada-apiserver", &["work", work, "-n", namespace]);
        let applied = w
            .as_ref()
            .and_then(|w| w["status"]["conditions"].as_array()?.iter().find(|c| c["type"] == "Applied").cloned());
        match applied {
            Some(c)
                if c["status"] == "False" && c["message"].as_str().unwrap_or("").contains("not managed by Karmada") =>
            {
                Ok(())
            }
            other => Err(format!("{other:?}")),
        }
    });
}

#[test]
fn divided_weights_and_rebalancing_when_a_member_leaves() {
    let fleet = Fleet::up(3);
    let weighted = |weights: &[(&str, i64)]| {
        let mut p = String::from(
            "    clusterAffinity:\n      clusterNames: [member1, member2, member3]\n    replicaScheduling:\n      replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        staticWeightList:\n",
        );
        for (c, w) in weights {
            p.push_str(&format!("        - targetCluster: {{clusterNames: [{c}]}}\n          weight: {w}\n"));
        }
        p
    };
    // Static weights 2:1 on 6 replicas: 4 and 2 (member3 has no weight).
    fleet.apply(&deployment("nginx", 6, ""));
    fleet.apply(&policy("nginx", "nginx", &weighted(&[("member1", 2), ("member2", 1)])));
    fleet.wait_replicas("nginx", &[("member1", Some(4)), ("member2", Some(2)), ("member3", None)]);

    // Scaling the template divides the new count.
    fleet.plane(&["scale", "deployment", "nginx", "--replicas", "9"]);
    fleet.wait_replicas("nginx", &[("member1", Some(6)), ("member2", Some(3)), ("member3", None)]);
    fleet.wait("template READY 9/9", || {
        let out = fleet.plane(&["get", "deployment", "nginx", "--no-headers"]);
        if out.split_whitespace().nth(1) == Some("9/9") { Ok(()) } else { Err(out) }
    });

    // An object that already exists in a member and is not Karmada's is left alone (Abort,
    // the default) until the policy says Overwrite; then it is adopted in place.
    fleet.k_ok("member1", &["create", "deployment", "existing", "--image=busybox"]);
    let uid = fleet.get("member1", &["deployment", "existing"]).unwrap()["metadata"]["uid"].clone();
    fleet.apply(&deployment("existing", 1, ""));
    fleet.apply(&policy("existing", "existing", "    clusterAffinity:\n      clusterNames: [member1]\n"));
    let work = "existing-6f7b4f59bd";
    wait_refused(&fleet, "karmada-es-member1", work);
    let member = fleet.get("member1", &["deployment", "existing"]).unwrap();
    assert_eq!(member["spec"]["template"]["spec"]["containers"][0]["image"], "busybox");
    assert!(member["metadata"]["labels"].get("karmada.io/managed").is_none());
    fleet.plane(&[
        "patch",
        "pp",
        "existing",
        "--type=merge",
        "-p",
        r#"{"spec":{"conflictResolution":"Overwrite","preserveResourcesOnDeletion":true}}"#,
    ]);
    fleet.wait("adopted in place", || {
        let m = fleet.get("member1", &["deployment", "existing"]).unwrap();
        let ok = m["metadata"]["labels"]["karmada.io/managed"] == "true"
            && m["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx";
        if ok { Ok(()) } else { Err(m["metadata"].to_string()) }
    });
    assert_eq!(fleet.get("member1", &["deployment", "existing"]).unwrap()["metadata"]["uid"], uid);

    // A refused Work is not retried on its own but waits for a change: the member object it
    // conflicted with going away is one, and the Work applies then.
    fleet.k_ok("member2", &["create", "deployment", "blocker", "--image=busybox"]);
    fleet.apply(&deployment("blocker", 1, ""));
    fleet.apply(&policy("blocker", "blocker", "    clusterAffinity:\n      clusterNames: [member2]\n"));
    let blocked = fleet.wait("the blocker's Work", || {
        let works = fleet.names("karmada-apiserver", &["works", "-n", "karmada-es-member2"]);
        works.into_iter().find(|w| w.starts_with("blocker-")).ok_or_else(|| "no Work yet".to_string())
    });
    wait_refused(&fleet, "karmada-es-member2", &blocked);
    let member = fleet.get("member2", &["deployment", "blocker"]).unwrap();
    assert_eq!(member["spec"]["template"]["spec"]["containers"][0]["image"], "busybox");
    fleet.k_ok("member2", &["delete", "deployment", "blocker"]);
    fleet.wait("applied once the blocker is gone", || {
        let m = fleet.get("member2", &["deployment", "blocker"]).ok_or("not in member2")?;
        let ok = m["metadata"]["labels"]["karmada.io/managed"] == "true"
            && m["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx";
        if ok { Ok(()) } else { Err(m["metadata"].to_string()) }
    });
    // preserveResourcesOnDeletion: deleting the template leaves the member's copy.
    fleet.plane(&["delete", "deployment", "existing"]);
    fleet.wait("Work gone", || {
        let w = fleet.get("karmada-apiserver", &["work", work, "-n", "karmada-es-member1"]);
        if w.is_none() { Ok(()) } else { Err("still there".into()) }
    });
    assert_eq!(fleet.get("member1", &["deployment", "existing"]).unwrap()["metadata"]["uid"], uid);

    // Equal weights over three members; when one leaves, its replicas move to the others, and
    // what the plane put in it is removed before unjoin returns: a binding pinned to it no
    // longer lists it either.
    fleet.apply(&deployment("spread", 6, ""));
    fleet.apply(&policy("spread", "spread", &weighted(&[("member1", 1), ("member2", 1), ("member3", 1)])));
    fleet.apply(&deployment("pinned", 1, ""));
    fleet.apply(&policy("pinned", "pinned", "    clusterAffinity:\n      clusterNames: [member3]\n"));
    fleet.wait_replicas("spread", &[("member1", Some(2)), ("member2", Some(2)), ("member3", Some(2))]);
    fleet.wait_replicas("pinned", &[("member1", None), ("member2", None), ("member3", Some(1))]);
    let unjoin = fleet.karmadactl(&[
        "unjoin",
        "member3",
        "--cluster-kubeconfig",
        fleet.kubeconfig.to_str().unwrap(),
        "--cluster-context",
        "member3",
    ]);
    assert_eq!(unjoin.code, 0, "unjoin:\n{}\n{}", unjoin.stdout, unjoin.stderr);
    assert!(fleet.get("karmada-apiserver", &["cluster", "member3"]).is_none());
    for name in ["spread", "pinned"] {
        assert_eq!(fleet.replicas("member3", name), None, "{name} is removed from member3");
    }
    let targets = |binding: &str| {
        let rb = fleet.get("karmada-apiserver", &["resourcebinding", binding]).unwrap();
        let clusters = rb["spec"]["clusters"].as_array().cloned().unwrap_or_default();
        clusters.iter().map(|c| (c["name"].as_str().unwrap().to_string(), c["replicas"].as_i64())).collect::<Vec<_>>()
    };
    assert_eq!(targets("spread-deployment"), [("member1".to_string(), Some(3)), ("member2".to_string(), Some(3))]);
    assert_eq!(targets("pinned-deployment"), []);
    assert!(fleet.names("karmada-apiserver", &["works", "-n", "karmada-es-member3"]).is_empty());
    fleet.wait_replicas("spread", &[("member1", Some(3)), ("member2", Some(3))]);
    // Nothing the plane propagated is left in member3, whose own API server keeps running.
    assert_eq!(fleet.names("member3", &["deployments", "-n", "default"]), Vec::<String>::new());
}

#[test]
fn overrides_taints_and_the_guestbook_crd() {
    let fleet = Fleet::up(3);

    // The nginx sample: Divided 1:1 over member1 and member2, with label and annotation overrides.
    fleet.apply(&fixture("nginx/deployment.yaml"));
    fleet.apply(&fixture("nginx/propagationpolicy.yaml"));
    fleet.apply(&fixture("nginx/overridepolicy.yaml"));
    fleet.wait_replicas("nginx", &[("member1", Some(1)), ("member2", Some(1)), ("member3", None)]);
    fleet.wait("overrides applied per cluster", || {
        let m1 = fleet.get("member1", &["deployment", "nginx"]).unwrap();
        let m2 = fleet.get("member2", &["deployment", "nginx"]).unwrap();
        let ok = m1["metadata"]["annotations"]["env"] == "skoala-stage"
            && m2["metadata"]["labels"]["env"] == "skoala-dev"
            && m1["metadata"]["labels"].get("env").is_none();
        if ok { Ok(()) } else { Err(format!("{} / {}", m1["metadata"], m2["metadata"])) }
    });

    // An image tag override for one cluster only, by ClusterOverridePolicy.
    fleet.apply(&deployment("tagged", 1, ""));
    fleet.apply(&policy("tagged", "tagged", "    clusterAffinity:\n      clusterNames: [member1, member2]\n"));
    fleet.apply(
        "apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata:
  name: tag-member2
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    name: tagged
  overrideRules:
  - targetCluster: {clusterNames: [member2]}
    overriders:
      imageOverrider:
      - component: Tag
        operator: replace
        value: '1.25'
",
    );
    fleet.wait("image tag overridden on member2 only", || {
        let image = |m: &str| {
            fleet
                .get(m, &["deployment", "tagged"])
                .map(|d| d["spec"]["template"]["spec"]["containers"][0]["image"].clone())
        };
        let (a, b) = (image("member1"), image("member2"));
        if a == Some("nginx".into()) && b == Some("nginx:1.25".into()) { Ok(()) } else { Err(format!("{a:?} {b:?}")) }
    });

    // Cordoning adds the NoSchedule taint: new placements stay away unless tolerated, and
    // what already runs there stays.
    let cordon = fleet.karmadactl(&["cordon", "member2"]);
    assert_eq!(cordon.code, 0, "cordon:\n{}\n{}", cordon.stdout, cordon.stderr);
    assert_eq!(cordon.stdout.trim(), "member2 cluster cordoned");
    let all = "    clusterAffinity:\n      clusterNames: [member1, member2, member3]\n";
    fleet.apply(&deployment("avoid", 1, ""));
    fleet.apply(&policy("avoid", "avoid", all));
    fleet.apply(&deployment("tolerate", 1, ""));
    fleet.apply(&policy(
        "tolerate",
        "tolerate",
        &format!("{all}    clusterTolerations:\n    - {{key: cluster.karmada.io/unschedulable, operator: Exists, effect: NoSchedule}}\n"),
    ));
    fleet.wait_replicas("avoid", &[("member1", Some(1)), ("member2", None), ("member3", Some(1))]);
    fleet.wait_replicas("tolerate", &[("member1", Some(1)), ("member2", Some(1)), ("member3", Some(1))]);
    assert_eq!(fleet.replicas("member2", "tagged"), Some(1), "a cordoned cluster keeps what runs there");

    // The guestbook sample: the CRD goes to member1 by a ClusterPropagationPolicy, then a
    // Guestbook by a PropagationPolicy, with the sample's plaintext override.
    fleet.apply(&fixture("guestbook/guestbooks-crd.yaml"));
    fleet.apply(&fixture("guestbook/guestbooks-clusterpropagationpolicy.yaml"));
    fleet.wait("guestbook CRD in member1", || {
        fleet.get("member1", &["crd", "guestbooks.webapp.my.domain"]).map(|_| ()).ok_or_else(|| "absent".into())
    });
    fleet.apply(&fixture("guestbook/guestbook.yaml").replace("metadata:\n", "metadata:\n  namespace: default\n"));
    fleet.apply(
        &fixture("guestbook/guestbooks-propagationpolicy.yaml")
            .replace("metadata:\n", "metadata:\n  namespace: default\n"),
    );
    fleet.apply(
        &fixture("guestbook/guestbooks-overridepolicy.yaml")
            .replace("metadata:\n", "metadata:\n  namespace: default\n"),
    );
    fleet.wait("guestbook in member1 with size 4", || {
        let g = fleet.get("member1", &["guestbook", "guestbook-sample"]);
        match g {
            Some(g) if g["spec"]["size"] == 4 => Ok(()),
            other => Err(format!("{other:?}")),
        }
    });
    assert!(fleet.get("member2", &["crd", "guestbooks.webapp.my.domain"]).is_none());
}

#[test]
fn push_and_pull_members_in_one_fleet() {
    let fleet = Fleet::up(2);
    fleet.register_pull("member3");
    let cluster = fleet.get("karmada-apiserver", &["cluster", "member3"]).expect("the agent registered member3");
    assert_eq!(cluster["spec"]["syncMode"], "Pull");

    // Divided 1:2 between a Push member and the Pull member.
    fleet.apply(&deployment("mixed", 6, ""));
    fleet.apply(&policy(
        "mixed",
        "mixed",
        "    clusterAffinity:\n      clusterNames: [member1, member3]\n    replicaScheduling:\n      replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n      weightPreference:\n        staticWeightList:\n        - targetCluster: {clusterNames: [member1]}\n          weight: 1\n        - targetCluster: {clusterNames: [member3]}\n          weight: 2\n",
    ));
    fleet.wait_replicas("mixed", &[("member1", Some(2)), ("member2", None), ("member3", Some(4))]);

    // An image override for the Pull member only.
    fleet.apply(
        "apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: mixed
  namespace: default
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    name: mixed
  overrideRules:
  - targetCluster: {clusterNames: [member3]}
    overriders:
      imageOverrider:
      - component: Tag
        operator: replace
        value: '1.27'
",
    );
    let image = |member: &str| {
        fleet
            .get(member, &["deployment", "mixed", "-n", "default"])
            .map(|d| d["spec"]["template"]["spec"]["containers"][0]["image"].as_str().unwrap_or_default().to_string())
    };
    fleet.wait("member3 runs the overridden image", || match image("member3") {
        Some(i) if i == "nginx:1.27" => Ok(()),
        other => Err(format!("{other:?}")),
    });
    assert_eq!(image("member1").as_deref(), Some("nginx"));

    // The plane's template sums what both kinds of member report.
    fleet.wait("the template shows 6 ready replicas", || {
        let d = fleet.get("karmada-apiserver", &["deployment", "mixed", "-n", "default"]).unwrap();
        if d["status"]["readyReplicas"] == 6 { Ok(()) } else { Err(d["status"].to_string()) }
    });

    // Deleting the template removes it from the Pull member too.
    fleet.plane(&["delete", "deployment", "mixed", "-n", "default"]);
    fleet.wait_replicas("mixed", &[("member1", None), ("member3", None)]);
}
