//! What the operations hand scripts and make of their answers, where upstream's conversion
//! has rules of its own: empty fields, status items, replica counts.

use karmadactl_karmada_api::work::binding_status::AggregatedStatusItem;
use serde_json::json;

use super::super::{CallError, Vm};

#[test]
fn retain_keeps_the_references_empty_fields_and_drops_new_ones() {
    let desired = json!({"kind": "Thing", "spec": {"selector": {}, "ports": []}});
    let observed = json!({"kind": "Thing", "status": {"conditions": []}, "metadata": {"annotations": {}}});
    let script = "function Retain(desired, observed) desired.status = observed.status \
                  desired.metadata = observed.metadata desired.extra = {} return desired end";
    let retained = Vm::default().retain(script, &desired, &observed).unwrap();
    assert_eq!(
        retained,
        json!({"kind": "Thing", "spec": {"selector": {}, "ports": []}, "status": {"conditions": []}, "metadata": {"annotations": {}}})
    );
}

#[test]
fn aggregate_status_gets_nil_for_no_items_and_go_shaped_items_otherwise() {
    let script = "function AggregateStatus(obj, items) \
                  if items == nil then obj.status = {seen = 'nil'} return obj end \
                  obj.status = {count = #items, first = items[1] and items[1].clusterName or 'none', \
                  applied = items[1] and tostring(items[1].applied) or 'none'} return obj end";
    let object = json!({"kind": "Thing"});
    let vm = Vm::default();
    assert_eq!(vm.aggregate_status(script, &object, None).unwrap()["status"], json!({"seen": "nil"}));
    assert_eq!(
        vm.aggregate_status(script, &object, Some(&[])).unwrap()["status"],
        json!({"count": 0, "first": "none", "applied": "none"})
    );
    // applied: false is left out, as Go's omitempty leaves it out.
    let items = [AggregatedStatusItem { cluster_name: "m1".into(), applied: Some(false), ..Default::default() }];
    assert_eq!(
        vm.aggregate_status(script, &object, Some(&items)).unwrap()["status"],
        json!({"count": 1, "first": "m1", "applied": "nil"})
    );
}

#[test]
fn replicas_truncate_like_go_and_requirements_accept_numbers_as_quantities() {
    let vm = Vm::default();
    let object = json!({"kind": "Thing"});
    let script = "function GetReplicas(obj) return 2.9, {resourceRequest = {cpu = 1, memory = '1Gi'}} end";
    let r = vm.get_replicas(script, &object).unwrap();
    assert_eq!(r.replicas, 2);
    let requests = r.requirements.unwrap().resource_request.unwrap();
    assert_eq!((requests["cpu"].0.as_str(), requests["memory"].0.as_str()), ("1", "1Gi"));
    let script = "function GetReplicas(obj) return 1, 'lots' end";
    assert_eq!(
        vm.get_replicas(script, &object),
        Err(CallError::Result("expect the returned requires type is table but got string".into()))
    );
}

#[test]
fn components_and_dependencies_decode_as_go_decodes_them() {
    let vm = Vm::default();
    let object = json!({"kind": "Thing"});
    let script = "function GetComponents(obj) return {{name = 'a', replicas = 2}, {replicas = 1}} end";
    let components = vm.get_components(script, &object).unwrap();
    assert_eq!(components.iter().map(|c| (c.name.as_str(), c.replicas)).collect::<Vec<_>>(), [("a", 2), ("", 1)]);
    assert_eq!(vm.get_components("function GetComponents(obj) return nil end", &object), Ok(vec![]));
    let script = "function GetComponents(obj) return {{name = 'a', replicas = 1.5}} end";
    assert!(
        matches!(vm.get_components(script, &object), Err(CallError::Result(m)) if m.contains("invalid type: floating point `1.5`"))
    );
    let script = "function GetDependencies(obj) return {} end";
    assert_eq!(vm.get_dependencies(script, &object), Ok(vec![]));
    let script = "function GetDependencies(obj) return nil end";
    assert_eq!(
        vm.get_dependencies(script, &object),
        Err(CallError::Result("expect the returned requires type is table but got nil".into()))
    );
}
