//! The dashboard in a real browser: headless Chromium, driven through chromedriver, against a
//! plane with three simulated members. It logs in with a one-time link, sees the members
//! Ready, creates a Deployment and a weighted policy from the page, watches the placement
//! appear without a reload, cordons a member from the page and sees the next workload avoid
//! it, and is shown the 403 when a read-only user tries the same. Each view's screenshot is
//! taken every run; with `UPDATE_GENERATED=1` they are written to docs/dashboard/ (README shows
//! them), otherwise to a temp dir, so a test run leaves the tree as it was.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::common::fleet::Fleet;
use crate::common::webdriver::Browser;

/// Where screenshots go: docs/dashboard/ when regenerating committed files.
fn shots(temp: &tempfile::TempDir) -> PathBuf {
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/dashboard")
    } else {
        temp.path().to_path_buf()
    }
}

fn policy(name: &str) -> String {
    format!(
        "apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: {name}
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: {name}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2, member3]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - targetCluster: {{clusterNames: [member1]}}
            weight: 1
          - targetCluster: {{clusterNames: [member2]}}
            weight: 1
          - targetCluster: {{clusterNames: [member3]}}
            weight: 1
"
    )
}

/// `{member: replicas}` of a workload's row in the Workloads view.
fn placement(b: &Browser, workload: &str) -> Value {
    b.script(
        "const row = document.querySelector(`tr[data-workload='${arguments[0]}']`);
         if (!row) return null;
         const out = {};
         for (const m of row.querySelectorAll('[data-member]')) out[m.dataset.member] = Number(m.dataset.replicas);
         return out;",
        json!([workload]),
    )
}

/// Creates a Deployment and its weighted policy from the page, as a user would type them.
fn create_from_page(b: &Browser, name: &str, replicas: &str) {
    b.goto_hash("workloads");
    b.type_into("#wl-name", name);
    b.type_into("#wl-replicas", replicas);
    b.click("#wl-create");
    b.wait_text("[aria-labelledby=create-deployment] [role=status]", &format!("deployment.apps/{name} created"));
    b.goto_hash("policies");
    b.type_into("#policy-yaml", &policy(name));
    b.click("#policy-preview");
    b.wait_text("#policy-result", &format!("Dry run (nothing saved): PropagationPolicy {name}"));
    b.click("#policy-apply");
    b.wait_text("#policy-result", &format!("Applied: PropagationPolicy {name}"));
}

trait Views {
    fn goto_hash(&self, view: &str);
}

impl Views for Browser {
    /// Switches view by the page's own navigation (no reload).
    fn goto_hash(&self, view: &str) {
        self.click(&format!("nav a[href='#/{view}']"));
        self.wait(&format!("the {view} view"), |b| {
            let shown = b.script("return document.getElementById('main').dataset.view;", json!([]));
            if shown == view { Ok(()) } else { Err(shown.to_string()) }
        });
    }
}

#[test]
fn the_dashboard_shows_the_fleet_and_changes_it_as_the_logged_in_user() {
    let browser = Browser::start();
    let temp = tempfile::tempdir().unwrap();
    let shots = || shots(&temp);
    let fleet = Fleet::up(3);
    let link = fleet.karmadactl(&["dashboard", "-o", "json"]);
    assert_eq!(link.code, 0, "{}", link.stderr);
    let link: Value = serde_json::from_str(&link.stdout).unwrap();
    let b = &browser;

    // Log in with the one-time link; the code is gone from the address bar at once.
    b.goto(link["url"].as_str().unwrap());
    b.wait_text("#who", "Logged in as");
    let address = b.script("return location.href;", json!([]));
    assert!(!address.as_str().unwrap().contains("code="), "{address}");
    b.wait_text("#count-ready", "3/3");
    for member in ["member1", "member2", "member3"] {
        b.wait_text(&format!("tr[data-cluster={member}]"), "Ready");
        // Simulated members say so wherever they are named.
        b.wait_text(&format!("tr[data-cluster={member}]"), &format!("{member} (simulated)"));
    }
    // Marks this page load: still there later means nothing reloaded the page.
    b.script("window.loadedOnce = true;", json!([]));
    b.screenshot(&shots().join("overview.png"));

    // A Deployment and a weighted policy from the page; the placement appears live.
    create_from_page(b, "web", "3");
    b.goto_hash("workloads");
    let spread = b.wait("web placed on all three members", |b| {
        let p = placement(b, "default/web");
        let all = ["member1", "member2", "member3"].iter().all(|m| p[*m].as_i64() == Some(1));
        if all { Ok(p) } else { Err(p.to_string()) }
    });
    assert_eq!(spread, json!({"member1": 1, "member2": 1, "member3": 1}));
    b.screenshot(&shots().join("workloads.png"));

    // Cordon member3 from the page: the same taint `karmadactl cordon` adds.
    b.goto_hash("clusters");
    b.click("section[data-cluster=member3] button[data-action=cordon]");
    b.wait_text("section[data-cluster=member3] h2", "(cordoned)");
    let taints = fleet.plane(&["get", "cluster", "member3", "-o", "jsonpath={.spec.taints}"]);
    assert!(taints.contains("cluster.karmada.io/unschedulable") && taints.contains("NoSchedule"), "{taints}");
    b.screenshot(&shots().join("clusters.png"));

    // A taint added and removed from the page, as `karmadactl taint` would.
    b.type_into("#taint-key-member2", "dedicated");
    b.type_into("#taint-value-member2", "gpu");
    b.click("section[data-cluster=member2] button[data-action=add-taint]");
    b.wait_text("section[data-cluster=member2] table", "dedicated");
    let taints = fleet.plane(&["get", "cluster", "member2", "-o", "jsonpath={.spec.taints}"]);
    assert!(taints.contains("\"key\":\"dedicated\"") && taints.contains("\"value\":\"gpu\""), "{taints}");
    b.click("section[data-cluster=member2] button[data-action=remove-taint]");
    b.wait_text("section[data-cluster=member2]", "No taints.");
    let taints = fleet.plane(&["get", "cluster", "member2", "-o", "jsonpath={.spec.taints}"]);
    assert!(!taints.contains("dedicated"), "{taints}");

    // An override policy for the next workload: the Workloads view names it per member.
    fleet.apply(
        "apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: api-tier, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: api}]
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders:
      labelsOverrider: [{operator: add, value: {tier: gold}}]
",
    );

    // The next workload avoids the cordoned member.
    create_from_page(b, "api", "4");
    b.screenshot(&shots().join("policies.png"));
    b.goto_hash("workloads");
    let avoided = b.wait("api placed on member1 and member2 only", |b| {
        let p = placement(b, "default/api");
        let ok =
            p["member1"].as_i64().unwrap_or(0) + p["member2"].as_i64().unwrap_or(0) == 4 && p.get("member3").is_none();
        if ok { Ok(p) } else { Err(p.to_string()) }
    });
    assert_eq!(avoided, json!({"member1": 2, "member2": 2}));
    let applied = b.wait_text("tr[data-workload='default/api'] [data-overrides=member1]", "OverridePolicy");
    assert!(applied.contains("api-tier"), "{applied}");
    assert!(b.text("tr[data-workload='default/api'] [data-overrides=member2]").is_none());
    assert_eq!(b.script("return window.loadedOnce === true;", json!([])), true, "the page reloaded");

    // Deleting a policy asks first; cancelling keeps it.
    b.goto_hash("policies");
    b.click("tr[data-policy='PropagationPolicy/default/web'] button.danger");
    b.wait_text("dialog[open]", "Delete PropagationPolicy default/web?");
    b.click("dialog[open] button[value=cancel]");
    b.wait("the dialog to close", |b| if b.text("dialog").is_none() { Ok(()) } else { Err("open".into()) });
    assert!(fleet.get("karmada-apiserver", &["propagationpolicy", "web", "-n", "default"]).is_some());
    b.click("tr[data-policy='PropagationPolicy/default/web'] button.danger");
    b.click("dialog[open] #confirm-delete");
    b.wait("the web policy's row to go", |b| {
        if b.text("tr[data-policy='PropagationPolicy/default/web']").is_none() {
            Ok(())
        } else {
            Err("still listed".into())
        }
    });
    assert!(fleet.get("karmada-apiserver", &["propagationpolicy", "web", "-n", "default"]).is_none());

    b.goto_hash("bindings");
    b.wait_text("tr[data-binding='default/api-deployment']", "member1 (simulated) (2)");
    b.screenshot(&shots().join("bindings.png"));
    // The plane's controllers record no Events yet; one written now appears live.
    b.goto_hash("events");
    b.wait_text("main", "No events.");
    fleet.apply(
        "apiVersion: v1\nkind: Event\nmetadata:\n  name: web.placed\n  namespace: default\ninvolvedObject:\n  apiVersion: apps/v1\n  kind: Deployment\n  name: web\n  namespace: default\nreason: ScheduleBindingSucceed\nmessage: Binding has been scheduled successfully.\ntype: Normal\ncount: 1\nlastTimestamp: \"2026-01-01T00:00:00Z\"\nsource:\n  component: karmada-scheduler\n",
    );
    b.wait_text("main table", "ScheduleBindingSucceed");
    b.screenshot(&shots().join("events.png"));

    // A read-only user (a service account token pasted into the login form) is refused.
    fleet.apply(
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: viewer\n  namespace: default\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: fleet-viewer\nrules:\n- apiGroups: [cluster.karmada.io, policy.karmada.io, work.karmada.io, apps, \"\"]\n  resources: [\"*\"]\n  verbs: [get, list, watch]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: fleet-viewer\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: fleet-viewer\nsubjects:\n- kind: ServiceAccount\n  name: viewer\n  namespace: default\n",
    );
    let token = fleet.plane(&["create", "token", "viewer", "-n", "default"]);
    b.click("#logout");
    b.wait_text("main h1", "Log in");
    b.type_into("#token", token.trim());
    b.click("main form button[type=submit]");
    b.wait_text("#who", "system:serviceaccount:default:viewer");
    b.goto_hash("clusters");
    b.click("section[data-cluster=member1] button[data-action=cordon]");
    let refusal = b.wait_text("section[data-cluster=member1] .result", "403");
    assert!(refusal.contains("cannot patch resource \"clusters\""), "{refusal}");
    b.screenshot(&shots().join("forbidden.png"));
    let taints = fleet.plane(&["get", "cluster", "member1", "-o", "jsonpath={.spec.taints}"]);
    assert!(!taints.contains("unschedulable"), "the refused cordon changed member1: {taints}");

    // The pasted token is checked on every request: without its ServiceAccount the session
    // ends, and the page asks for a login again.
    fleet.plane(&["delete", "serviceaccount", "viewer", "-n", "default"]);
    b.wait("the ended session to show the login form", |b| {
        match b.text("main") {
            Some(t) if t.contains("Your session has ended") => Ok(()),
            other => {
                // Switching views makes new requests, as a user moving around would.
                b.script("location.hash = location.hash === '#/overview' ? '#/clusters' : '#/overview';", json!([]));
                Err(format!("{other:?}"))
            }
        }
    });
    assert_eq!(b.script("return document.getElementById('nav').hidden;", json!([])), true);
}
