//! Garbage collection by ownerReferences, driven by the real kubectl 1.32's
//! `delete --cascade=background|foreground|orphan`: which objects remain, which references
//! are dropped, and that nothing is deleted without a uid-matching reference to a deleted owner.

use std::time::{Duration, Instant};

use crate::common::plane::Plane;
use serde_json::{Value, json};

/// How long the collector may take to converge before a test gives up.
const CONVERGE: Duration = Duration::from_secs(15);

/// The object as JSON, or `None` when it does not exist.
fn get(plane: &Plane, kind: &str, name: &str) -> Option<Value> {
    let out = plane.kubectl_ok(&["get", kind, name, "-n", "default", "-o", "json", "--ignore-not-found"]);
    (!out.trim().is_empty()).then(|| serde_json::from_str(&out).expect("kubectl prints JSON"))
}

fn uid(plane: &Plane, kind: &str, name: &str) -> String {
    let obj = get(plane, kind, name).unwrap_or_else(|| panic!("{kind}/{name} exists"));
    obj["metadata"]["uid"].as_str().expect("a uid").to_string()
}

/// Creates a ConfigMap or Secret owned by the ConfigMaps `owners` (name, uid, blockOwnerDeletion).
fn create(plane: &Plane, kind: &str, name: &str, owners: &[(&str, &str, bool)], finalizers: &[&str]) {
    let refs: Vec<Value> = owners
        .iter()
        .map(|(n, u, b)| json!({"apiVersion": "v1", "kind": "ConfigMap", "name": n, "uid": u, "blockOwnerDeletion": b}))
        .collect();
    let obj = json!({
        "apiVersion": "v1",
        "kind": kind,
        "metadata": {"name": name, "namespace": "default", "ownerReferences": refs, "finalizers": finalizers},
    });
    plane.create(&obj.to_string());
}

/// Polls until `done` holds for the current state, or panics saying what was awaited.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + CONVERGE;
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn owner_uids(obj: &Value) -> Vec<String> {
    obj["metadata"]["ownerReferences"]
        .as_array()
        .map(|refs| refs.iter().filter_map(|r| r["uid"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

#[test]
fn background_deletes_only_dependents_whose_owners_are_all_gone() {
    let plane = Plane::start();
    create(&plane, "ConfigMap", "owner", &[], &[]);
    create(&plane, "ConfigMap", "other", &[], &[]);
    let owner = uid(&plane, "configmap", "owner");
    let other = uid(&plane, "configmap", "other");
    create(&plane, "ConfigMap", "child", &[("owner", &owner, true)], &[]);
    create(&plane, "Secret", "child-secret", &[("owner", &owner, false)], &[]);
    create(&plane, "ConfigMap", "shared", &[("owner", &owner, false), ("other", &other, false)], &[]);
    // Same owner name, a uid that never existed: no proof its owner is gone.
    create(&plane, "ConfigMap", "stranger", &[("owner", "00000000-0000-0000-0000-000000000000", false)], &[]);

    let out = plane.kubectl_ok(&["delete", "configmap", "owner", "--cascade=background"]);
    assert_eq!(out.trim(), "configmap \"owner\" deleted");
    assert!(get(&plane, "configmap", "owner").is_none(), "a background delete removes the owner at once");
    wait_for("the owner's dependents to go", || {
        get(&plane, "configmap", "child").is_none() && get(&plane, "secret", "child-secret").is_none()
    });
    wait_for("the shared dependent to lose only the deleted owner", || {
        get(&plane, "configmap", "shared").is_some_and(|o| owner_uids(&o) == vec![other.clone()])
    });
    let stranger = get(&plane, "configmap", "stranger").expect("a dependent with a non-matching uid is kept");
    assert_eq!(owner_uids(&stranger), vec!["00000000-0000-0000-0000-000000000000".to_string()]);

    plane.kubectl_ok(&["delete", "configmap", "other"]);
    wait_for("the shared dependent to go with its last owner", || get(&plane, "configmap", "shared").is_none());
    assert!(get(&plane, "configmap", "stranger").is_some(), "the stranger is never collected");
}

#[test]
fn foreground_keeps_the_owner_until_blocking_dependents_are_gone() {
    let mut plane = Plane::start();
    create(&plane, "ConfigMap", "owner", &[], &[]);
    let owner = uid(&plane, "configmap", "owner");
    create(&plane, "ConfigMap", "blocker", &[("owner", &owner, true)], &["example.com/hold"]);
    create(&plane, "Secret", "loose", &[("owner", &owner, false)], &[]);

    plane.kubectl_ok(&["delete", "configmap", "owner", "--cascade=foreground", "--wait=false"]);
    wait_for("the non-blocked dependents to go and the blocker to be marked", || {
        get(&plane, "secret", "loose").is_none()
            && get(&plane, "configmap", "blocker").is_some_and(|b| b["metadata"]["deletionTimestamp"].is_string())
    });
    let held = get(&plane, "configmap", "owner").expect("the owner stays while a blocking dependent exists");
    assert!(held["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(held["metadata"]["finalizers"], json!(["foregroundDeletion"]));

    // The pending deletion is stored state: a restarted plane finishes it.
    plane.restart();
    let held = get(&plane, "configmap", "owner").expect("still waiting after the restart");
    assert_eq!(held["metadata"]["finalizers"], json!(["foregroundDeletion"]));
    plane.kubectl_ok(&[
        "patch",
        "configmap",
        "blocker",
        "--type=json",
        "-p",
        r#"[{"op":"remove","path":"/metadata/finalizers"}]"#,
    ]);
    wait_for("the blocker and then the owner to go", || {
        get(&plane, "configmap", "blocker").is_none() && get(&plane, "configmap", "owner").is_none()
    });
}

#[test]
fn orphan_keeps_dependents_without_their_reference() {
    let plane = Plane::start();
    create(&plane, "ConfigMap", "owner", &[], &[]);
    create(&plane, "ConfigMap", "keeper", &[], &[]);
    let owner = uid(&plane, "configmap", "owner");
    let keeper = uid(&plane, "configmap", "keeper");
    create(&plane, "ConfigMap", "child", &[("owner", &owner, true)], &[]);
    create(&plane, "Secret", "child-secret", &[("owner", &owner, false), ("keeper", &keeper, false)], &[]);

    let out = plane.kubectl_ok(&["delete", "configmap", "owner", "--cascade=orphan"]);
    assert_eq!(out.trim(), "configmap \"owner\" deleted");
    wait_for("the orphaning owner to go", || get(&plane, "configmap", "owner").is_none());
    let child = get(&plane, "configmap", "child").expect("an orphaned dependent stays");
    assert!(owner_uids(&child).is_empty(), "the reference to the deleted owner is gone: {child}");
    let secret = get(&plane, "secret", "child-secret").expect("an orphaned dependent stays");
    assert_eq!(owner_uids(&secret), vec![keeper]);

    let bad = plane.kubectl_run(&[
        "delete",
        "--raw",
        "/api/v1/namespaces/default/configmaps/keeper?propagationPolicy=Sideways",
    ]);
    assert_ne!(bad.code, 0);
    assert!(bad.stderr.contains(r#"Unsupported value: "Sideways""#), "{}", bad.stderr);
    assert!(get(&plane, "configmap", "keeper").is_some(), "a rejected delete deletes nothing");
}

#[test]
fn dependents_of_an_owner_deleted_before_a_restart_are_collected_after_it() {
    let mut plane = Plane::start();
    create(&plane, "ConfigMap", "owner", &[], &[]);
    let owner = uid(&plane, "configmap", "owner");
    // The dependent's own finalizer keeps it, with its reference, across the restart.
    create(&plane, "ConfigMap", "child", &[("owner", &owner, false)], &["example.com/hold"]);
    plane.kubectl_ok(&["delete", "configmap", "owner"]);
    wait_for("the dependent to be marked for deletion", || {
        get(&plane, "configmap", "child").is_some_and(|c| c["metadata"]["deletionTimestamp"].is_string())
    });
    plane.restart();
    // Recreating the owner's name gives a new uid; the old reference still proves nothing alive.
    create(&plane, "ConfigMap", "owner", &[], &[]);
    let new_owner = uid(&plane, "configmap", "owner");
    assert_ne!(new_owner, owner);
    create(&plane, "Secret", "late", &[("owner", &owner, false)], &[]);
    wait_for("a dependent of the owner deleted before the restart to go", || get(&plane, "secret", "late").is_none());
    assert!(get(&plane, "configmap", "owner").is_some(), "the recreated owner is never touched");
}

/// After a restart the collector rebuilds its graph from the store a page at a time: a
/// dependent listed pages after its owner (1,100 other ConfigMaps sort between them) is still
/// known, and collected when the owner goes.
#[test]
fn dependents_pages_apart_from_their_owner_are_collected_after_a_restart() {
    let mut plane = Plane::start();
    let fillers: Vec<Value> = (0..1100)
        .map(|i| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("m-filler-{i:04}"), "namespace": "default"}}))
        .collect();
    plane.create(&json!({"apiVersion": "v1", "kind": "List", "items": fillers}).to_string());
    create(&plane, "ConfigMap", "a-owner", &[], &[]);
    let owner = uid(&plane, "configmap", "a-owner");
    create(&plane, "ConfigMap", "a-child", &[("a-owner", &owner, false)], &[]);
    create(&plane, "ConfigMap", "z-child", &[("a-owner", &owner, false)], &[]);
    plane.restart();
    plane.kubectl_ok(&["delete", "configmap", "a-owner"]);
    wait_for("both dependents to go", || {
        get(&plane, "configmap", "a-child").is_none() && get(&plane, "configmap", "z-child").is_none()
    });
    assert!(get(&plane, "configmap", "m-filler-0000").is_some(), "objects without owners stay");
}
