//! The PropagationPolicy (namespaced objects) or ClusterPropagationPolicy (cluster-scoped
//! ones) `apply -C/--all-clusters` generates for each object, as upstream builds it: named by
//! `GeneratePolicyName`, selecting exactly that object, placed on the named clusters or (with
//! an empty cluster affinity) on all of them.
//!
//! Upstream hands kubectl a typed Go object, so its last-applied configuration is that
//! struct's JSON: fields in struct order, `creationTimestamp: null`, no empty annotations.
//! The types below keep that order.

use serde::Serialize;
use serde_json::Value;

use karmadactl_engine::names::generated_policy_name;

/// Where the generated policies place their object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// `--all-clusters`: every member.
    All,
    /// `-C c1,c2`.
    Clusters(Vec<String>),
}

#[derive(Serialize)]
struct Policy<'a> {
    kind: &'static str,
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    metadata: Meta<'a>,
    spec: Spec<'a>,
}

#[derive(Serialize)]
struct Meta<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    namespace: &'a str,
    #[serde(rename = "creationTimestamp")]
    creation_timestamp: Option<()>,
}

#[derive(Serialize)]
struct Spec<'a> {
    #[serde(rename = "resourceSelectors")]
    resource_selectors: [Selector<'a>; 1],
    placement: PlacementSpec<'a>,
}

#[derive(Serialize)]
struct Selector<'a> {
    #[serde(rename = "apiVersion")]
    api_version: &'a str,
    kind: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    namespace: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
}

#[derive(Serialize)]
struct PlacementSpec<'a> {
    #[serde(rename = "clusterAffinity")]
    cluster_affinity: Affinity<'a>,
}

#[derive(Serialize)]
struct Affinity<'a> {
    #[serde(rename = "clusterNames", skip_serializing_if = "<[String]>::is_empty")]
    cluster_names: &'a [String],
}

/// The generated policy for the object `api_version`/`kind` `namespace`/`name` (namespace
/// empty for cluster-scoped objects), as JSON text in upstream's field order.
pub fn generate(api_version: &str, kind: &str, namespace: &str, name: &str, placement: &Placement) -> String {
    let gvk = crate::cmd::promote::prepare::gvk_string(api_version, kind);
    let policy_name = generated_policy_name(namespace, name, &gvk);
    let cluster_names: &[String] = match placement {
        Placement::All => &[],
        Placement::Clusters(c) => c,
    };
    let policy = Policy {
        kind: if namespace.is_empty() { "ClusterPropagationPolicy" } else { "PropagationPolicy" },
        api_version: "policy.karmada.io/v1alpha1",
        metadata: Meta { name: &policy_name, namespace, creation_timestamp: None },
        spec: Spec {
            resource_selectors: [Selector { api_version, kind, namespace, name }],
            placement: PlacementSpec { cluster_affinity: Affinity { cluster_names } },
        },
    };
    crate::output::to_compact_go_json(&policy)
}

/// The generated policy as an object to send.
pub fn as_object(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaced_objects_get_a_propagation_policy_in_struct_order() {
        let text = generate("apps/v1", "Deployment", "default", "nginx", &Placement::All);
        assert_eq!(
            text,
            concat!(
                r#"{"kind":"PropagationPolicy","apiVersion":"policy.karmada.io/v1alpha1","metadata":{"name":"nginx-6d7f8d5f5b","namespace":"default","creationTimestamp":null},"spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"nginx"}],"placement":{"clusterAffinity":{}}}}"#,
                "\n"
            )
        );
    }

    #[test]
    fn cluster_scoped_objects_get_a_cluster_policy_on_the_named_clusters() {
        let clusters = Placement::Clusters(vec!["member1".into(), "member2".into()]);
        let policy = as_object(&generate("v1", "Namespace", "", "my-ns", &clusters));
        assert_eq!(policy["kind"], "ClusterPropagationPolicy");
        assert_eq!(policy["metadata"]["name"], "my-ns-646d6c6947");
        assert!(policy["metadata"].get("namespace").is_none());
        assert_eq!(
            policy["spec"]["placement"]["clusterAffinity"]["clusterNames"],
            serde_json::json!(["member1", "member2"])
        );
        assert_eq!(
            policy["spec"]["resourceSelectors"][0],
            serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "name": "my-ns"})
        );
    }
}
