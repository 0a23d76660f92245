//! Resources the Karmada profile serves as built-ins rather than CRDs: `Cluster`, which upstream
//! serves from karmada-aggregated-apiserver (cluster-scoped, with `/status` and `/proxy`, which
//! the API server forwards to the member).

use std::sync::Arc;

use super::resources::{NameRule, PrinterColumn, ResourceDef, Source, Subresource, VERBS_ALL};
use super::validation::CrdValidator;

/// The Cluster resource, validated, pruned and defaulted by the schema of the Rust type.
pub(crate) fn cluster_def() -> ResourceDef {
    let schema = karmadactl_karmada_api::cluster::openapi_schema();
    // The schema is generated from our own types and checked by tests, so failing to compile it
    // is a build defect, not an input error.
    let validator = CrdValidator::new(&schema).expect("the Cluster schema compiles");
    let column = |name: &str, type_: &str, path: &str, priority: i32| PrinterColumn {
        name: name.to_string(),
        type_: type_.to_string(),
        format: String::new(),
        description: String::new(),
        json_path: path.to_string(),
        priority,
    };
    ResourceDef {
        group: "cluster.karmada.io".into(),
        version: "v1alpha1".into(),
        kind: "Cluster".into(),
        list_kind: "ClusterList".into(),
        plural: "clusters".into(),
        singular: "cluster".into(),
        short_names: Vec::new(),
        categories: Vec::new(),
        namespaced: false,
        verbs: VERBS_ALL.iter().map(|v| v.to_string()).collect(),
        subresources: vec![Subresource::Status, Subresource::Proxy],
        // The table itself comes from the Cluster printer (READY falls back to Unknown, which a
        // JSONPath column cannot express); these describe the same columns for OpenAPI readers.
        printer_columns: vec![
            column("VERSION", "string", ".status.kubernetesVersion", 0),
            column("MODE", "string", ".spec.syncMode", 0),
            column("READY", "string", ".status.conditions[?(@.type==\"Ready\")].status", 0),
            column("AGE", "date", ".metadata.creationTimestamp", 0),
        ],
        source: Source::Builtin,
        name_rule: NameRule::ClusterName,
        schema: Some(Arc::new(schema)),
        validator: Some(Arc::new(validator)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::validation::prepare;
    use serde_json::json;

    #[test]
    fn clusters_are_validated_and_pruned_by_the_type_schema() {
        let def = cluster_def();
        let mut ok = json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
            "metadata": {"name": "member1"}, "spec": {"syncMode": "Push", "apiEndpoint": "https://1.2.3.4:6443", "bogus": 1}});
        let prepared = prepare(&def, &mut ok, None, None);
        assert!(prepared.errors.is_empty(), "{:?}", prepared.errors);
        assert_eq!(prepared.unknown, ["spec.bogus"]);
        assert!(ok["spec"].get("bogus").is_none());

        let mut bad = json!({"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
            "metadata": {"name": "member1"}, "spec": {"syncMode": "Sideways"}});
        let prepared = prepare(&def, &mut bad, None, None);
        assert!(prepared.errors.iter().any(|e| e.path == "spec.syncMode"), "{:?}", prepared.errors);
        assert_eq!(def.name_rule.validate(&"a".repeat(49)).len(), 1);
        assert!(def.name_rule.validate(&"a".repeat(48)).is_empty());
    }
}
