//! Admission's checks of a customization: each script compiles in the sandbox and defines its
//! operation's function, and no other customization of the same target has a script for the
//! same operation (dependency rules excepted), as upstream's webhook refuses.

use serde_json::Value;

use super::{Customization, rule_of};
use crate::Operation;
use crate::lua::Vm;

/// The problems of a customization object, as (field path, message) pairs; empty when it is
/// fine.
pub fn validate(object: &Value) -> Vec<(String, String)> {
    let customization = match Customization::from_object(object) {
        Ok(c) => c,
        Err(e) => return vec![("spec".into(), e)],
    };
    let mut problems = Vec::new();
    for operation in Operation::ALL {
        let Some(rule) = rule_of(&customization.spec.customizations, operation) else { continue };
        if rule.lua_script.is_empty() {
            continue;
        }
        if let Err(e) = check_script(operation, &rule.lua_script) {
            problems.push((format!("spec.customizations.{}.luaScript", operation.rule_field()), e));
        }
    }
    problems
}

/// Whether one rule's script compiles in the sandbox and defines `operation`'s function
/// (`karmadactl interpret --check` and `--edit` check each rule with it).
pub fn check_script(operation: Operation, script: &str) -> Result<(), String> {
    Vm::default().check(script, operation.lua_function())
}

/// Upstream's conflict check: the first existing customization (other than the object itself,
/// by name) of the same target with a script for an operation the object also scripts, as
/// upstream's message names it.
pub fn conflict(object: &Value, existing: &[Value]) -> Option<String> {
    let new = Customization::from_object(object).ok()?;
    for old in existing.iter().filter_map(|o| Customization::from_object(o).ok()) {
        if old.name == new.name || old.spec.target != new.spec.target {
            continue;
        }
        for operation in Operation::ALL.into_iter().filter(|op| *op != Operation::InterpretDependency) {
            let scripted = |c: &Customization| {
                rule_of(&c.spec.customizations, operation).is_some_and(|r| !r.lua_script.is_empty())
            };
            if scripted(&old) && scripted(&new) {
                return Some(format!(
                    "conflicting with InterpreterOperation({operation}) of existing ResourceInterpreterCustomization({})",
                    old.name
                ));
            }
        }
    }
    None
}
