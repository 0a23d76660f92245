//! Rule sets: `ResourceInterpreterCustomization` objects merged per target kind, as upstream's
//! configmanager merges them. Objects are taken in name order; for each operation the first
//! object with a rule wins, except that a later object's script fills a rule whose script is
//! empty; dependency rules are all kept and their answers united.

mod validate;

use std::collections::HashMap;
use std::sync::Arc;

use karmadactl_karmada_api::config::customization::{
    CustomizationRules, LuaScriptRule, ResourceInterpreterCustomizationSpec,
};
use serde_json::Value;

use crate::{Operation, Target};

pub use validate::{check_script, conflict, validate};

/// A customization object: its name and spec.
#[derive(Clone, Debug, PartialEq)]
pub struct Customization {
    /// `metadata.name`.
    pub name: String,
    /// The target and its scripts.
    pub spec: ResourceInterpreterCustomizationSpec,
}

impl Customization {
    /// The customization in a JSON or YAML-decoded object, or why it is not one.
    pub fn from_object(object: &Value) -> Result<Self, String> {
        let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
        let spec = serde_json::from_value(object.get("spec").cloned().unwrap_or(Value::Null))
            .map_err(|e| format!("ResourceInterpreterCustomization {name:?}: {e}"))?;
        Ok(Self { name, spec })
    }
}

/// One script and the customization it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The customization's name.
    pub source: String,
    /// The Lua source.
    pub script: Arc<str>,
}

/// The merged rules of one target.
#[derive(Clone, Debug, Default)]
struct Accessor {
    /// Per operation other than InterpretDependency: the winning rule (its script may be empty).
    rules: HashMap<Operation, Rule>,
    /// Every dependency rule, in name order.
    dependencies: Vec<Rule>,
}

/// Merged customizations, keyed by target.
#[derive(Clone, Debug, Default)]
pub struct RuleSet {
    targets: HashMap<Target, Accessor>,
}

/// The rule of `operation` in `rules`.
pub(crate) fn rule_of(rules: &CustomizationRules, operation: Operation) -> Option<&LuaScriptRule> {
    match operation {
        Operation::InterpretReplica => rules.replica_resource.as_ref(),
        Operation::InterpretComponent => rules.component_resource.as_ref(),
        Operation::ReviseReplica => rules.replica_revision.as_ref(),
        Operation::Retain => rules.retention.as_ref(),
        Operation::AggregateStatus => rules.status_aggregation.as_ref(),
        Operation::InterpretStatus => rules.status_reflection.as_ref(),
        Operation::InterpretHealth => rules.health_interpretation.as_ref(),
        Operation::InterpretDependency => rules.dependency_interpretation.as_ref(),
    }
}

impl RuleSet {
    /// The set made from `customizations`, merged as upstream's `LoadConfig` merges them.
    pub fn new(mut customizations: Vec<Customization>) -> Self {
        customizations.sort_by(|a, b| a.name.cmp(&b.name));
        let mut targets: HashMap<Target, Accessor> = HashMap::new();
        for c in customizations {
            let target = Target::new(c.spec.target.api_version.clone(), c.spec.target.kind.clone());
            let accessor = targets.entry(target).or_default();
            for operation in Operation::ALL {
                let Some(rule) = rule_of(&c.spec.customizations, operation) else { continue };
                let rule = Rule { source: c.name.clone(), script: rule.lua_script.as_str().into() };
                if operation == Operation::InterpretDependency {
                    accessor.dependencies.push(rule);
                    continue;
                }
                match accessor.rules.get_mut(&operation) {
                    None => {
                        accessor.rules.insert(operation, rule);
                    }
                    Some(existing) if existing.script.is_empty() && !rule.script.is_empty() => *existing = rule,
                    Some(_) => {}
                }
            }
        }
        Self { targets }
    }

    /// The set made from customization objects (JSON), or the first that is not one.
    pub fn from_objects(objects: &[Value]) -> Result<Self, String> {
        let customizations = objects.iter().map(Customization::from_object).collect::<Result<Vec<_>, _>>()?;
        Ok(Self::new(customizations))
    }

    /// The set made from a YAML stream of customization objects (documents separated by
    /// `---`), or why it is not one.
    pub fn from_yaml(text: &str) -> Result<Self, String> {
        let documents: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| e.to_string())?;
        let objects: Vec<Value> = documents.into_iter().filter(|d| !d.is_null()).collect();
        Self::from_objects(&objects)
    }

    /// The rules answering `operation` for `target`: one rule, or every dependency rule; empty
    /// when the set does not interpret it.
    pub fn rules(&self, target: &Target, operation: Operation) -> Vec<&Rule> {
        let Some(accessor) = self.targets.get(target) else { return Vec::new() };
        if operation == Operation::InterpretDependency {
            return accessor.dependencies.iter().filter(|r| !r.script.is_empty()).collect();
        }
        accessor.rules.get(&operation).filter(|r| !r.script.is_empty()).into_iter().collect()
    }

    /// Whether the set has no target at all.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }
}

#[cfg(test)]
mod tests;
