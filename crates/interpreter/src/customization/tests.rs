//! Rule sets merge as upstream's configmanager merges, admission's check names the field, and
//! the facade asks the sources in upstream's order.

#[path = "../../tests/support/block_on.rs"]
mod block_on;
use block_on::block_on;

use serde_json::{Value, json};

use super::{RuleSet, conflict, validate};
use crate::{Interpreter, Operation, Source, Target};

fn customization(name: &str, kind: &str, rules: Value) -> Value {
    json!({
        "apiVersion": "config.karmada.io/v1alpha1",
        "kind": "ResourceInterpreterCustomization",
        "metadata": {"name": name},
        "spec": {"target": {"apiVersion": "example.io/v1", "kind": kind}, "customizations": rules}
    })
}

fn health_rule(answer: bool) -> Value {
    json!({"luaScript": format!("function InterpretHealth(obj) return {answer} end")})
}

#[test]
fn the_first_by_name_wins_and_a_later_one_fills_an_empty_script() {
    let set = RuleSet::from_objects(&[
        customization("b", "Thing", json!({"healthInterpretation": health_rule(false), "replicaResource": {"luaScript": "function GetReplicas(o) return 2 end"}})),
        customization("a", "Thing", json!({"healthInterpretation": health_rule(true), "replicaResource": {"luaScript": ""}})),
        customization("c", "Other", json!({"healthInterpretation": health_rule(false)})),
    ])
    .unwrap();
    let thing = Target::new("example.io/v1", "Thing");
    let health = set.rules(&thing, Operation::InterpretHealth);
    assert_eq!(health.iter().map(|r| r.source.as_str()).collect::<Vec<_>>(), ["a"]);
    assert!(health[0].script.contains("return true"));
    let replicas = set.rules(&thing, Operation::InterpretReplica);
    assert_eq!(replicas.iter().map(|r| r.source.as_str()).collect::<Vec<_>>(), ["b"]);
    assert!(set.rules(&thing, Operation::Retain).is_empty());
    assert!(set.rules(&Target::new("example.io/v2", "Thing"), Operation::InterpretHealth).is_empty());
}

#[test]
fn every_dependency_rule_counts_and_answers_are_united_and_sorted() {
    let dep = |names: &str| {
        json!({"dependencyInterpretation": {"luaScript": format!(
            "function GetDependencies(obj) local out = {{}} for _, n in ipairs({{{names}}}) do \
             table.insert(out, {{apiVersion = 'v1', kind = 'ConfigMap', namespace = 'ns', name = n}}) end return out end"
        )}})
    };
    let set = RuleSet::from_objects(&[
        customization("x", "Thing", dep("'b', 'a'")),
        customization("y", "Thing", dep("'c', 'a'")),
    ])
    .unwrap();
    let interpreter = Interpreter::new();
    interpreter.set_customizations(set);
    let object = json!({"apiVersion": "example.io/v1", "kind": "Thing", "metadata": {"name": "t"}});
    let deps = block_on(interpreter.dependencies(&object)).unwrap();
    assert_eq!(deps.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);

    let bad = json!({"dependencyInterpretation": {"luaScript": "function GetDependencies(obj) return {{kind = 'ConfigMap'}} end"}});
    interpreter.set_customizations(RuleSet::from_objects(&[customization("z", "Thing", bad)]).unwrap());
    let err = block_on(interpreter.dependencies(&object)).unwrap_err().to_string();
    assert!(err.starts_with("InterpretDependency by configurable interpreter (ResourceInterpreterCustomization z) returned an invalid result: [dependencies[0].apiVersion: Invalid value: \"\": missing required apiVersion, dependencies[0]: Invalid value:"), "{err}");
}

#[test]
fn a_dependency_with_an_invalid_selector_is_refused() {
    let script = "function GetDependencies(obj) return {{apiVersion = 'v1', kind = 'Secret', labelSelector = \
                  {matchExpressions = {{key = 'app', operator = 'Near', values = {'x'}}}}}} end";
    let interpreter = Interpreter::new();
    let rules = json!({"dependencyInterpretation": {"luaScript": script}});
    interpreter.set_customizations(RuleSet::from_objects(&[customization("sel", "Thing", rules)]).unwrap());
    let object = json!({"apiVersion": "example.io/v1", "kind": "Thing"});
    let err = block_on(interpreter.dependencies(&object)).unwrap_err().to_string();
    assert!(
        err.ends_with(
            "returned an invalid result: dependencies[0].labelSelector.matchExpressions[0].operator: Invalid value: \"Near\": not a valid selector operator"
        ),
        "{err}"
    );
}

#[test]
fn user_customizations_come_before_third_party_ones_and_native_comes_last() {
    let thing = Target::new("example.io/v1", "Thing");
    let third_party = RuleSet::from_objects(&[customization(
        "shipped",
        "Thing",
        json!({"healthInterpretation": health_rule(false)}),
    )])
    .unwrap();
    let interpreter = Interpreter::new().with_third_party(third_party);
    assert_eq!(interpreter.source(&thing, Operation::InterpretHealth), Some(Source::ThirdParty("shipped".into())));
    assert_eq!(interpreter.source(&thing, Operation::InterpretReplica), None);
    assert_eq!(interpreter.source(&thing, Operation::InterpretStatus), Some(Source::Native));
    let object = json!({"apiVersion": "example.io/v1", "kind": "Thing"});
    assert!(!block_on(interpreter.interpret_health(&object)).unwrap());

    interpreter.set_customizations(
        RuleSet::from_objects(&[customization("mine", "Thing", json!({"healthInterpretation": health_rule(true)}))])
            .unwrap(),
    );
    assert_eq!(interpreter.source(&thing, Operation::InterpretHealth), Some(Source::Customization("mine".into())));
    assert!(block_on(interpreter.interpret_health(&object)).unwrap());

    // A malformed object leaves the current set in place.
    let broken = json!({"metadata": {"name": "broken"}, "spec": {"target": "not an object"}});
    let err = interpreter.set_customization_objects(&[broken]).unwrap_err();
    assert!(err.starts_with("ResourceInterpreterCustomization \"broken\": invalid type"), "{err}");
    assert_eq!(interpreter.source(&thing, Operation::InterpretHealth), Some(Source::Customization("mine".into())));

    // Deleting the user's customizations hands the kind back to the shipped one.
    interpreter.set_customization_objects(&[]).unwrap();
    assert_eq!(interpreter.source(&thing, Operation::InterpretHealth), Some(Source::ThirdParty("shipped".into())));
}

#[test]
fn validation_names_the_field_and_the_lua_error() {
    let object = customization(
        "v",
        "Thing",
        json!({
            "replicaResource": {"luaScript": "function GetReplicas(obj) return 1"},
            "healthInterpretation": {"luaScript": "function Healthy(obj) return true end"},
            "retention": {"luaScript": "function Retain(desired, observed) return desired end"}
        }),
    );
    let problems = validate(&object);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(problems[0].0, "spec.customizations.replicaResource.luaScript");
    assert!(problems[0].1.contains("'end' expected"), "{}", problems[0].1);
    assert_eq!(
        problems[1],
        ("spec.customizations.healthInterpretation.luaScript".into(), "not found function InterpretHealth".into())
    );
    assert!(
        validate(&customization(
            "ok",
            "Thing",
            json!({"retention": {"luaScript": "function Retain(d, o) return d end"}})
        ))
        .is_empty()
    );
    let spinning = customization("spin", "Thing", json!({"retention": {"luaScript": "while true do end"}}));
    assert!(validate(&spinning)[0].1.contains("instruction budget"));
}

#[test]
fn a_second_script_for_the_same_target_and_operation_conflicts() {
    let existing = [
        customization(
            "old",
            "Thing",
            json!({"healthInterpretation": health_rule(true), "dependencyInterpretation": {"luaScript": "x"}}),
        ),
        customization("elsewhere", "Other", json!({"retention": {"luaScript": "x"}})),
    ];
    let new = customization("new", "Thing", json!({"healthInterpretation": health_rule(false)}));
    assert_eq!(
        conflict(&new, &existing).as_deref(),
        Some(
            "conflicting with InterpreterOperation(InterpretHealth) of existing ResourceInterpreterCustomization(old)"
        )
    );
    // Dependency rules may be many; another target, or the object itself on update, is no conflict.
    let deps = customization(
        "new",
        "Thing",
        json!({"dependencyInterpretation": {"luaScript": "y"}, "retention": {"luaScript": "x"}}),
    );
    assert_eq!(conflict(&deps, &existing), None);
    let update = customization("old", "Thing", json!({"healthInterpretation": health_rule(false)}));
    assert_eq!(conflict(&update, &existing), None);
}
