//! The `v1 List` kubectl wraps several objects in for `-o json` and `-o yaml`.

use serde::Serialize;

/// `{"apiVersion":"v1","items":[…],"kind":"List","metadata":{"resourceVersion":""}}`, fields
/// in that (sorted) order, as kubectl prints a list of objects.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct List<T> {
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    pub items: Vec<T>,
    kind: &'static str,
    metadata: ListMeta,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct ListMeta {
    #[serde(rename = "resourceVersion")]
    resource_version: &'static str,
}

impl<T> List<T> {
    pub fn new(items: Vec<T>) -> Self {
        Self { api_version: "v1", items, kind: "List", metadata: ListMeta { resource_version: "" } }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::output::{to_json, to_yaml};

    #[test]
    fn json_list_matches_kubectls_shape() {
        let list = List::new(vec![json!({"kind": "ConfigMap"})]);
        assert_eq!(
            to_json(&list).expect("serializable"),
            "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"kind\": \"ConfigMap\"\n        }\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
        );
    }

    #[test]
    fn empty_list_keeps_an_empty_items_array() {
        let list: List<serde_json::Value> = List::new(vec![]);
        assert_eq!(
            to_yaml(&list).expect("serializable"),
            "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
    }
}
