use serde_json::{Value, json};

use super::*;
use crate::strategic::schema_for;

fn ctx<'a>(manager: &'a str) -> Context<'a> {
    Context {
        manager,
        api_version: "apps/v1",
        subresource: "",
        shape: Shape::builtin(schema_for("apps", "Deployment")),
        status_separate: true,
        now: "2026-01-01T00:00:00Z",
    }
}

fn deployment(replicas: i64, env: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
            "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx", "env": env,
                "ports": [{"containerPort": 80}]}]}}}
    })
}

fn fields(obj: &Value, i: usize) -> &Value {
    &obj["metadata"]["managedFields"][i]["fieldsV1"]
}

#[test]
fn fields_v1_round_trips_with_kube_keys() {
    let obj = deployment(1, json!([{"name": "A", "value": "1"}]));
    let set = fields_of(&ctx("m").tracked(&obj), ctx("m").shape, Mode::Apply);
    let v1 = set.to_fields_v1();
    let c = &v1["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"nginx\"}"];
    assert_eq!(c["."], json!({}));
    assert_eq!(c["f:env"]["k:{\"name\":\"A\"}"]["f:value"], json!({}));
    assert_eq!(c["f:ports"]["k:{\"containerPort\":80,\"protocol\":\"TCP\"}"]["f:containerPort"], json!({}));
    assert_eq!(v1["f:spec"]["f:selector"], json!({}), "label selectors of workloads are atomic");
    assert!(v1["f:metadata"].get("f:name").is_none(), "the server owns the name");
    assert_eq!(Set::from_fields_v1(&v1), set);
}

#[test]
fn update_mode_marks_maps_themselves() {
    let c = ctx("kubectl-create");
    let mut obj = deployment(1, json!([]));
    record_update(None, &mut obj, &c);
    let entry = &obj["metadata"]["managedFields"][0];
    assert_eq!(entry["operation"], "Update");
    assert_eq!(entry["manager"], "kubectl-create");
    assert_eq!(fields(&obj, 0)["f:metadata"]["f:labels"]["."], json!({}));
    assert!(fields(&obj, 0)["f:spec"].get(".").is_none());
}

#[test]
fn conflicting_apply_names_owner_and_path() {
    let a = apply(None, &deployment(1, json!([])), &ctx("a"), false).unwrap();
    let err = apply(Some(&a), &deployment(3, json!([])), &ctx("b"), false).unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(path_string(&err[0].path), ".spec.replicas");
    let status = conflict_error(&err);
    assert_eq!(status.code, 409);
    assert_eq!(status.message, "Apply failed with 1 conflict: conflict with \"a\": .spec.replicas");

    // The same value is shared, not a conflict.
    let shared = apply(Some(&a), &deployment(1, json!([])), &ctx("b"), false).unwrap();
    assert_eq!(shared["metadata"]["managedFields"].as_array().unwrap().len(), 2);

    let forced = apply(Some(&a), &deployment(3, json!([])), &ctx("b"), true).unwrap();
    assert_eq!(forced["spec"]["replicas"], 3);
    let entries = forced["metadata"]["managedFields"].as_array().unwrap();
    let owner_a = entries.iter().find(|e| e["manager"] == "a").unwrap();
    assert!(owner_a["fieldsV1"]["f:spec"].get("f:replicas").is_none());
    let owner_b = entries.iter().find(|e| e["manager"] == "b").unwrap();
    assert_eq!(owner_b["fieldsV1"]["f:spec"]["f:replicas"], json!({}));
}

#[test]
fn reapply_removes_dropped_fields_nobody_else_owns() {
    let env = json!([{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]);
    let first = apply(None, &deployment(1, env), &ctx("a"), false).unwrap();
    let mut second = deployment(2, json!([{"name": "A", "value": "1"}]));
    second["metadata"]["labels"] = json!({"tier": "web"});
    let out = apply(Some(&first), &second, &ctx("a"), false).unwrap();
    assert_eq!(out["metadata"]["labels"], json!({"tier": "web"}));
    assert_eq!(out["spec"]["replicas"], 2);
    assert_eq!(out["spec"]["template"]["spec"]["containers"][0]["env"], json!([{"name": "A", "value": "1"}]));
}

#[test]
fn dropped_field_owned_by_another_manager_stays() {
    let first = apply(None, &deployment(1, json!([])), &ctx("a"), false).unwrap();
    let both = apply(Some(&first), &deployment(1, json!([])), &ctx("b"), false).unwrap();
    let mut without = deployment(1, json!([]));
    without["metadata"].as_object_mut().unwrap().remove("labels");
    let out = apply(Some(&both), &without, &ctx("a"), false).unwrap();
    assert_eq!(out["metadata"]["labels"], json!({"app": "web"}));
}

#[test]
fn update_takes_changed_fields_from_other_managers() {
    let a = apply(None, &deployment(1, json!([])), &ctx("a"), false).unwrap();
    let mut scaled = a.clone();
    scaled["spec"]["replicas"] = json!(5);
    record_update(Some(&a), &mut scaled, &ctx("kubectl-scale"));
    let entries = scaled["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1]["manager"], "kubectl-scale");
    assert_eq!(entries[1]["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
    assert!(entries[0]["fieldsV1"]["f:spec"].get("f:replicas").is_none());

    // A write that changes nothing keeps the entries as they are.
    let mut again = scaled.clone();
    record_update(Some(&scaled), &mut again, &Context { now: "2030-01-01T00:00:00Z", ..ctx("other") });
    assert_eq!(again["metadata"]["managedFields"], scaled["metadata"]["managedFields"]);
}

#[test]
fn crd_schema_keys_lists() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "items": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["id"],
            "items": {"type": "object"}},
        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}}});
    let c = Context { shape: Shape::Openapi(&schema), api_version: "example.com/v1", ..ctx("a") };
    let obj = json!({"spec": {"items": [{"id": 1, "x": "y"}], "tags": ["a"]}});
    let v1 = fields_of(&obj, c.shape, Mode::Apply).to_fields_v1();
    assert_eq!(v1["f:spec"]["f:items"]["k:{\"id\":1}"]["f:x"], json!({}));
    assert_eq!(v1["f:spec"]["f:tags"]["v:\"a\""], json!({}));
}

#[test]
fn manager_from_user_agent() {
    assert_eq!(manager_name(None, Some("kubectl-edit/v1.33.0 (linux/amd64) kubernetes/abc")), "kubectl-edit");
    assert_eq!(manager_name(Some("flux"), Some("kubectl/v1.33.0")), "flux");
}

#[test]
fn dropping_a_map_node_keeps_fields_still_applied() {
    let c = Context { api_version: "v1", shape: Shape::Unknown, status_separate: false, ..ctx("kubectl") };
    let first =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "1", "b": "2"}});
    let mut live = apply(None, &first, &c, false).unwrap();
    // As after kubectl's client-side-apply migration: the map node itself is owned too.
    live["metadata"]["managedFields"][0]["fieldsV1"] = json!({"f:data": {".": {}, "f:a": {}, "f:b": {}}});
    let second = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "9"}});
    let out = apply(Some(&live), &second, &c, false).unwrap();
    assert_eq!(out["data"], json!({"a": "9"}));
}

#[test]
fn schemaless_crd_objects_stay_granular() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "x-kubernetes-preserve-unknown-fields": true}}});
    let obj = json!({"spec": {"a": {"b": 1}, "list": [1, 2]}});
    let v1 = fields_of(&obj, Shape::Openapi(&schema), Mode::Apply).to_fields_v1();
    assert_eq!(v1, json!({"f:spec": {"f:a": {"f:b": {}}, "f:list": {}}}));
}

#[test]
fn several_conflicts_are_listed_by_manager() {
    let mut a = deployment(1, json!([{"name": "A", "value": "1"}]));
    a = apply(None, &a, &ctx("a"), false).unwrap();
    let b = deployment(2, json!([{"name": "A", "value": "2"}]));
    let err = apply(Some(&a), &b, &ctx("b"), false).unwrap_err();
    assert_eq!(
        conflict_error(&err).message,
        "Apply failed with 2 conflicts: conflicts with \"a\":\n- .spec.replicas\n\
         - .spec.template.spec.containers[name=\"nginx\"].env[name=\"A\"].value"
    );
    let causes = &conflict_error(&err).details.unwrap().causes;
    assert_eq!(causes[0].field, ".spec.replicas");
    assert_eq!(causes[0].message, "conflict with \"a\"");
}

#[test]
fn finalizers_are_a_set_for_every_kind() {
    let obj = json!({"metadata": {"finalizers": ["a/b"]}});
    let builtin = fields_of(&obj, Shape::builtin(schema_for("", "ConfigMap")), Mode::Apply).to_fields_v1();
    assert_eq!(builtin, json!({"f:metadata": {"f:finalizers": {"v:\"a/b\"": {}}}}));
    let schema =
        json!({"type": "object", "properties": {"apiVersion": {"type": "string"}, "metadata": {"type": "object"}}});
    let crd = fields_of(&obj, Shape::Openapi(&schema), Mode::Apply).to_fields_v1();
    assert_eq!(crd, builtin);
}

#[test]
fn conflict_with_an_updater_names_its_version_and_time() {
    let mut obj = deployment(1, json!([]));
    record_update(None, &mut obj, &ctx("kubectl-edit"));
    let time = obj["metadata"]["managedFields"][0]["time"].as_str().unwrap().to_string();
    let err = apply(Some(&obj), &deployment(3, json!([])), &ctx("b"), false).unwrap_err();
    assert_eq!(
        conflict_error(&err).message,
        format!("Apply failed with 1 conflict: conflict with \"kubectl-edit\" using apps/v1 at {time}: .spec.replicas")
    );
}

/// A create keeps what the configuration sets (nulls aside) and records it all as the
/// applier's; applying the same configuration again changes nothing.
#[test]
fn create_then_the_same_apply_is_a_no_op() {
    let mut config = deployment(2, json!([{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]));
    config["spec"]["paused"] = Value::Null;
    config["metadata"]["annotations"] = json!({"note": "x"});
    let created = apply(None, &config, &ctx("m"), false).unwrap();
    let entries = created["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["manager"], "m");
    assert_eq!(entries[0]["operation"], "Apply");
    assert_eq!(entries[0]["time"], "2026-01-01T00:00:00Z");
    assert!(created["spec"].get("paused").is_none(), "a null is not stored");
    assert_eq!(created["spec"]["template"], config["spec"]["template"]);
    assert_eq!(created["metadata"]["annotations"], json!({"note": "x"}));
    assert_eq!(created["apiVersion"], "apps/v1");
    assert_eq!(fields(&created, 0)["f:metadata"]["f:annotations"]["f:note"], json!({}));

    let mut later = ctx("m");
    later.now = "2026-02-02T00:00:00Z";
    let again = apply(Some(&created), &config, &later, false).unwrap();
    assert_eq!(again, created);
}

#[test]
fn set_relations() {
    let obj = deployment(1, json!([{"name": "A", "value": "1"}]));
    let all = fields_of(&ctx("m").tracked(&obj), ctx("m").shape, Mode::Apply);
    let replicas = Set::from_fields_v1(&json!({"f:spec": {"f:replicas": {}}}));
    let labels = Set::from_fields_v1(&json!({"f:metadata": {"f:labels": {"f:other": {}}}}));
    assert!(all.includes(&replicas) && all.intersects(&replicas));
    assert!(!all.includes(&labels) && !all.intersects(&labels));
    assert!(!replicas.includes(&all) && replicas.intersects(&all));
    assert!(replicas.includes(&Set::new()) && !replicas.intersects(&Set::new()));
}

#[test]
fn repeated_updates_move_only_the_fields_they_change() {
    let a = apply(None, &deployment(1, json!([])), &ctx("a"), false).unwrap();
    let mut scaled = a.clone();
    scaled["spec"]["replicas"] = json!(5);
    record_update(Some(&a), &mut scaled, &ctx("kubectl-scale"));
    let mut rescaled = scaled.clone();
    rescaled["spec"]["replicas"] = json!(6);
    let later = Context { now: "2030-01-01T00:00:00Z", ..ctx("kubectl-scale") };
    record_update(Some(&scaled), &mut rescaled, &later);
    let before = scaled["metadata"]["managedFields"].as_array().unwrap();
    let after = rescaled["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(after[0], before[0], "the applier's entry is not touched");
    assert_eq!(after[1]["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
    assert_eq!(after[1]["time"], "2030-01-01T00:00:00Z");

    // Taking a field the applier owns re-encodes the applier's entry without it.
    let mut relabelled = rescaled.clone();
    relabelled["metadata"]["labels"]["app"] = json!("other");
    record_update(Some(&rescaled), &mut relabelled, &later);
    let entries = relabelled["metadata"]["managedFields"].as_array().unwrap();
    let applier = entries.iter().find(|e| e["manager"] == "a").unwrap();
    assert!(applier["fieldsV1"]["f:metadata"]["f:labels"].get("f:app").is_none());
    assert!(applier["fieldsV1"]["f:spec"].get("f:selector").is_some());
    assert_eq!(
        entries.iter().find(|e| e["manager"] == "kubectl-scale").unwrap()["fieldsV1"]["f:metadata"]["f:labels"],
        json!({"f:app": {}})
    );
}
