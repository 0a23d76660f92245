//! Admission's check of a customization: each script compiles in the sandbox and defines its
//! operation's function.

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
    let vm = Vm::default();
    let mut problems = Vec::new();
    for operation in Operation::ALL {
        let Some(rule) = rule_of(&customization.spec.customizations, operation) else { continue };
        if rule.lua_script.is_empty() {
            continue;
        }
        if let Err(e) = vm.check(&rule.lua_script, operation.lua_function()) {
            problems.push((format!("spec.customizations.{}.luaScript", operation.rule_field()), e));
        }
    }
    problems
}
