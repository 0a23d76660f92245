//! The customization rules in the order upstream's command lists them, with the script each
//! reads from a customization's `spec.customizations` and the short guide `--edit --show-doc`
//! puts above each rule.

use karmadactl_interpreter::Operation;
use serde_json::{Value, json};

/// The rules in upstream's order (`--check` lines, `--edit` sections, `--operation` choices).
pub const ORDER: [Operation; 8] = [
    Operation::Retain,
    Operation::InterpretReplica,
    Operation::InterpretComponent,
    Operation::ReviseReplica,
    Operation::InterpretStatus,
    Operation::AggregateStatus,
    Operation::InterpretHealth,
    Operation::InterpretDependency,
];

/// The operation names joined as the usage error lists them.
pub fn names(separator: &str) -> String {
    ORDER.iter().map(|op| op.name()).collect::<Vec<_>>().join(separator)
}

/// The script of `operation` in a customization object, `None` when the rule is not set.
pub fn script(customization: &Value, operation: Operation) -> Option<&str> {
    customization["spec"]["customizations"][operation.rule_field()]["luaScript"].as_str().filter(|s| !s.is_empty())
}

/// Sets (or, with an empty script, removes) the script of `operation` in a customization.
pub fn set_script(customization: &mut Value, operation: Operation, script: &str) {
    if !customization["spec"].is_object() {
        customization["spec"] = json!({});
    }
    if !customization["spec"]["customizations"].is_object() {
        customization["spec"]["customizations"] = json!({});
    }
    let Some(rules) = customization["spec"]["customizations"].as_object_mut() else { return };
    if script.is_empty() {
        rules.remove(operation.rule_field());
    } else {
        rules.insert(operation.rule_field().into(), json!({ "luaScript": script }));
    }
}

/// What a rule is for and the function its script defines.
pub fn guide(operation: Operation) -> &'static str {
    match operation {
        Operation::Retain => {
            "Keeps values a member cluster set at run time when the desired manifest is applied again.\n\
             Define this function and return the object to apply:\n\
             function Retain(desiredObj, observedObj)\n  \
               desiredObj.spec.fieldFoo = observedObj.spec.fieldFoo\n  \
               return desiredObj\n\
             end"
        }
        Operation::InterpretReplica => {
            "Tells how many replicas the resource asks for and what one replica needs.\n\
             Define this function and return the replica count and the requirements:\n\
             function GetReplicas(desiredObj)\n  \
               local requirement = {}\n  \
               requirement.nodeClaim = {}\n  \
               requirement.nodeClaim.nodeSelector = desiredObj.spec.template.spec.nodeSelector\n  \
               requirement.resourceRequest = desiredObj.spec.template.spec.containers[1].resources.limits\n  \
               return desiredObj.spec.replicas, requirement\n\
             end"
        }
        Operation::InterpretComponent => {
            "Lists the components of a workload made of several pod templates, with their replicas.\n\
             Define this function and return a list of components:\n\
             function GetComponents(desiredObj)\n  \
               local components = {}\n  \
               table.insert(components, {name = \"main\", replicas = desiredObj.spec.main.replicas})\n  \
               return components\n\
             end"
        }
        Operation::ReviseReplica => {
            "Writes the replicas assigned to one cluster into the manifest sent there.\n\
             Define this function and return the revised object:\n\
             function ReviseReplica(desiredObj, desiredReplica)\n  \
               desiredObj.spec.replicas = desiredReplica\n  \
               return desiredObj\n\
             end"
        }
        Operation::InterpretStatus => {
            "Picks the part of a member's object that is reported back as its status.\n\
             Define this function and return the status to keep:\n\
             function ReflectStatus(observedObj)\n  \
               local status = {}\n  \
               status.readyReplicas = observedObj.status.readyReplicas\n  \
               return status\n\
             end"
        }
        Operation::AggregateStatus => {
            "Adds up the statuses reported by member clusters into the resource template's status.\n\
             Define this function and return the object with its status filled in:\n\
             function AggregateStatus(desiredObj, statusItems)\n  \
               local ready = 0\n  \
               for i = 1, #statusItems do\n    \
                 ready = ready + (statusItems[i].status.readyReplicas or 0)\n  \
               end\n  \
               desiredObj.status = {readyReplicas = ready}\n  \
               return desiredObj\n\
             end"
        }
        Operation::InterpretHealth => {
            "Judges whether a member's copy of the resource is healthy.\n\
             Define this function and return true or false:\n\
             function InterpretHealth(observedObj)\n  \
               return observedObj.status.readyReplicas == observedObj.spec.replicas\n\
             end"
        }
        Operation::InterpretDependency => {
            "Names the objects the resource needs beside it in every cluster it goes to.\n\
             Define this function and return a list of references:\n\
             function GetDependencies(desiredObj)\n  \
               local dependencies = {}\n  \
               local sa = desiredObj.spec.template.spec.serviceAccountName\n  \
               if sa ~= nil and sa ~= \"default\" then\n    \
                 table.insert(dependencies, {apiVersion = \"v1\", kind = \"ServiceAccount\", name = sa,\n      \
                   namespace = desiredObj.metadata.namespace})\n  \
               end\n  \
               return dependencies\n\
             end"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_is_listed_once() {
        for op in Operation::ALL {
            assert_eq!(ORDER.iter().filter(|o| **o == op).count(), 1, "{op}");
        }
    }

    #[test]
    fn scripts_are_set_read_and_removed_by_rule_field() {
        let mut c = json!({"kind": "ResourceInterpreterCustomization"});
        set_script(&mut c, Operation::InterpretHealth, "function InterpretHealth(o) return true end");
        assert_eq!(
            c["spec"]["customizations"]["healthInterpretation"]["luaScript"],
            "function InterpretHealth(o) return true end"
        );
        assert!(script(&c, Operation::InterpretHealth).is_some());
        set_script(&mut c, Operation::InterpretHealth, "");
        assert_eq!(c["spec"]["customizations"], json!({}));
        assert_eq!(script(&c, Operation::InterpretHealth), None);
    }
}
