//! `-o name`: `kind.group/name` lines, as kubectl's NamePrinter writes them.

use serde_json::Value;

use super::OutputError;

/// The `-o name` text of one object: the kind lower-cased (not pluralised), then `.group`
/// unless the group is core: `configmap/demo`, `deployment.apps/nginx`,
/// `cluster.cluster.karmada.io/member1`. No newline.
pub fn resource_name(kind: &str, group: &str, name: &str) -> String {
    let kind = kind.to_lowercase();
    if group.is_empty() { format!("{kind}/{name}") } else { format!("{kind}.{group}/{name}") }
}

/// The API group of an `apiVersion`: `apps` for `apps/v1`, empty for the core `v1`.
pub fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

/// The `-o name` text of an object read as JSON (`apiVersion`, `kind`, `metadata.name`).
/// Without a kind this is kubectl's error `missing kind for resource with name <name>`.
pub fn object_name(object: &Value) -> Result<String, OutputError> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
    let name = text(object.pointer("/metadata/name"));
    let kind = text(object.get("kind"));
    if kind.is_empty() {
        return Err(OutputError::MissingKind { name });
    }
    let api_version = text(object.get("apiVersion"));
    Ok(resource_name(&kind, group_of(&api_version), &name))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn core_kinds_have_no_group() {
        assert_eq!(resource_name("ConfigMap", "", "demo"), "configmap/demo");
    }

    #[test]
    fn grouped_kinds_are_lowercase_kind_dot_group() {
        assert_eq!(resource_name("Deployment", "apps", "nginx"), "deployment.apps/nginx");
        assert_eq!(
            resource_name("PropagationPolicy", "policy.karmada.io", "p"),
            "propagationpolicy.policy.karmada.io/p"
        );
    }

    #[test]
    fn group_comes_from_api_version() {
        assert_eq!(group_of("v1"), "");
        assert_eq!(group_of("apps/v1"), "apps");
        assert_eq!(group_of("cluster.karmada.io/v1alpha1"), "cluster.karmada.io");
    }

    #[test]
    fn object_name_reads_the_object() {
        let obj = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}});
        assert_eq!(object_name(&obj).expect("has a kind"), "deployment.apps/web");
        let err = object_name(&json!({"metadata": {"name": "x"}})).expect_err("no kind");
        assert_eq!(err.to_string(), "missing kind for resource with name x");
    }
}
