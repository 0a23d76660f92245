//! `commandOverrider` and `argsOverrider`: append values to, or remove values from, the command
//! or args of the containers with a given name, in the workload kinds upstream knows.

use serde_json::Value;

use karmadactl_karmada_api::policy::overrides::{CommandArgsOverrider, OverriderOperator};

/// Which container list field an overrider changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Command,
    Args,
}

impl Target {
    fn field(self) -> &'static str {
        match self {
            Self::Command => "command",
            Self::Args => "args",
        }
    }
}

/// Applies each overrider in order.
pub fn apply(manifest: &mut Value, target: Target, overriders: &[CommandArgsOverrider]) -> Result<(), String> {
    let containers_path = match manifest.get("kind").and_then(Value::as_str).unwrap_or("") {
        "Pod" => "/spec/containers",
        "ReplicaSet" | "Deployment" | "DaemonSet" | "StatefulSet" | "Job" => "/spec/template/spec/containers",
        _ => return Ok(()),
    };
    let field = target.field();
    for o in overriders {
        let Some(Value::Array(containers)) = manifest.pointer_mut(containers_path) else { return Ok(()) };
        for (i, container) in containers.iter_mut().enumerate() {
            if container.get("name").and_then(Value::as_str) != Some(o.container_name.as_str()) {
                continue;
            }
            let current = match container.get(field) {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items.clone(),
                Some(_) => {
                    return Err(format!("{field} overrider: {containers_path}/{i}/{field} is not a list"));
                }
            };
            let values = o.value.as_deref().unwrap_or_default();
            let new: Vec<Value> = match o.operator {
                OverriderOperator::Add => {
                    current.into_iter().chain(values.iter().cloned().map(Value::String)).collect()
                }
                OverriderOperator::Remove => {
                    current.into_iter().filter(|v| !v.as_str().is_some_and(|s| values.iter().any(|x| x == s))).collect()
                }
                // Not an operator for lists; upstream leaves the list as it is.
                OverriderOperator::Replace => current,
            };
            // As upstream, a container without the field gets it even when nothing was added.
            container[field] = Value::Array(new);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overriders(v: Value) -> Vec<CommandArgsOverrider> {
        serde_json::from_value(v).unwrap()
    }

    fn deployment() -> Value {
        json!({"kind": "Deployment", "spec": {"template": {"spec": {"containers": [
            {"name": "web", "image": "nginx", "command": ["nginx", "-g", "daemon off;"], "args": ["--a", "--b"]},
            {"name": "side", "image": "busybox"}
        ]}}}})
    }

    #[test]
    fn add_appends_to_the_named_container() {
        let mut m = deployment();
        apply(
            &mut m,
            Target::Command,
            &overriders(json!([{"containerName": "web", "operator": "add", "value": ["-x"]}])),
        )
        .unwrap();
        apply(
            &mut m,
            Target::Args,
            &overriders(json!([{"containerName": "side", "operator": "add", "value": ["--v=2"]}])),
        )
        .unwrap();
        let containers = &m["spec"]["template"]["spec"]["containers"];
        assert_eq!(containers[0]["command"], json!(["nginx", "-g", "daemon off;", "-x"]));
        assert_eq!(containers[0]["args"], json!(["--a", "--b"]));
        assert_eq!(containers[1]["args"], json!(["--v=2"]));
        assert!(containers[1].get("command").is_none());
    }

    #[test]
    fn remove_deletes_every_listed_value() {
        let mut m = deployment();
        apply(
            &mut m,
            Target::Args,
            &overriders(json!([{"containerName": "web", "operator": "remove", "value": ["--a", "--zzz"]}])),
        )
        .unwrap();
        apply(
            &mut m,
            Target::Command,
            &overriders(json!([{"containerName": "side", "operator": "remove", "value": ["x"]}])),
        )
        .unwrap();
        let containers = &m["spec"]["template"]["spec"]["containers"];
        assert_eq!(containers[0]["args"], json!(["--b"]));
        assert_eq!(containers[1]["command"], json!([]));
    }

    #[test]
    fn pods_and_unknown_kinds() {
        let mut pod = json!({"kind": "Pod", "spec": {"containers": [{"name": "a", "args": ["x"]}]}});
        apply(&mut pod, Target::Args, &overriders(json!([{"containerName": "a", "operator": "add", "value": ["y"]}])))
            .unwrap();
        assert_eq!(pod["spec"]["containers"][0]["args"], json!(["x", "y"]));
        let mut cj = json!({"kind": "CronJob", "spec": {}});
        apply(&mut cj, Target::Args, &overriders(json!([{"containerName": "a", "operator": "add", "value": ["y"]}])))
            .unwrap();
        assert_eq!(cj, json!({"kind": "CronJob", "spec": {}}));
    }

    #[test]
    fn a_non_list_field_is_an_error() {
        let mut pod = json!({"kind": "Pod", "spec": {"containers": [{"name": "a", "command": "sh"}]}});
        let err = apply(
            &mut pod,
            Target::Command,
            &overriders(json!([{"containerName": "a", "operator": "add", "value": ["y"]}])),
        )
        .unwrap_err();
        assert_eq!(err, "command overrider: /spec/containers/0/command is not a list");
    }
}
