//! Go's field order for the typed objects `create`'s generators build. kubectl encodes them
//! with their Go structs, so `-o json` with `--dry-run=client` and the last-applied annotation
//! `--save-config` writes list fields in declaration order (`kind` before `apiVersion`), not
//! sorted as for objects the server returns.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// The fields of every struct the generators fill, in an order consistent with each Go
/// struct's declaration order (a field only meets the fields of its own struct).
const ORDER: &[&str] = &[
    "kind",
    "apiVersion",
    "apiGroup",
    "metadata",
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
    "spec",
    "value",
    "globalDefault",
    "description",
    "preemptionPolicy",
    "immutable",
    "data",
    "stringData",
    "binaryData",
    "secrets",
    "imagePullSecrets",
    "automountServiceAccountToken",
    "verbs",
    "apiGroups",
    "ingressClassName",
    "defaultBackend",
    "tls",
    "rules",
    "aggregationRule",
    "subjects",
    "roleRef",
    "schedule",
    "timeZone",
    "startingDeadlineSeconds",
    "concurrencyPolicy",
    "suspend",
    "jobTemplate",
    "replicas",
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "backoffLimit",
    "volumes",
    "initContainers",
    "containers",
    "image",
    "command",
    "args",
    "workingDir",
    "ports",
    "hostPort",
    "containerPort",
    "protocol",
    "appProtocol",
    "port",
    "targetPort",
    "nodePort",
    "envFrom",
    "env",
    "resources",
    "resourceNames",
    "nonResourceURLs",
    "volumeMounts",
    "minAvailable",
    "selector",
    "matchLabels",
    "matchExpressions",
    "maxUnavailable",
    "manualSelector",
    "template",
    "clusterIP",
    "clusterIPs",
    "type",
    "externalIPs",
    "sessionAffinity",
    "loadBalancerIP",
    "loadBalancerSourceRanges",
    "externalName",
    "strategy",
    "minReadySeconds",
    "revisionHistoryLimit",
    "successfulJobsHistoryLimit",
    "failedJobsHistoryLimit",
    "ttlSecondsAfterFinished",
    "restartPolicy",
    "disruptionsAllowed",
    "currentHealthy",
    "desiredHealthy",
    "expectedPods",
    "path",
    "pathType",
    "backend",
    "audiences",
    "expirationSeconds",
    "boundObjectRef",
    "token",
    "expirationTimestamp",
];

/// Structs whose order contradicts the list above, by the field that holds them.
const OVERRIDES: &[(&str, &[&str])] = &[
    ("roleRef", &["apiGroup", "kind", "name"]),
    ("ownerReferences", &["apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"]),
];

/// A JSON value that serializes its maps in Go's field order.
pub struct Typed<'a>(pub &'a Value);

struct Field<'a> {
    parent: &'a str,
    value: &'a Value,
}

fn rank(parent: &str, key: &str) -> (usize, usize) {
    if let Some((_, order)) = OVERRIDES.iter().find(|(p, _)| *p == parent) {
        return (order.iter().position(|k| *k == key).unwrap_or(order.len()), 0);
    }
    match key {
        "status" => (usize::MAX, 0),
        _ => (ORDER.iter().position(|k| *k == key).unwrap_or(ORDER.len()), 0),
    }
}

impl Serialize for Typed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Field { parent: "", value: self.0 }.serialize(serializer)
    }
}

impl Serialize for Field<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                // Labels, annotations, data and quota limits are Go maps: encoding/json sorts their keys.
                let go_map = matches!(
                    self.parent,
                    "labels"
                        | "annotations"
                        | "data"
                        | "binaryData"
                        | "stringData"
                        | "matchLabels"
                        | "selector"
                        | "hard"
                ) && !map.contains_key("matchLabels");
                if !go_map {
                    keys.sort_by_key(|k| (rank(self.parent, k), k.as_str()));
                }
                let mut out = serializer.serialize_map(Some(keys.len()))?;
                for k in keys {
                    out.serialize_entry(k, &Field { parent: k, value: &map[k] })?;
                }
                out.end()
            }
            Value::Array(items) => {
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    out.serialize_element(&Field { parent: self.parent, value: item })?;
                }
                out.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn typed_objects_keep_go_field_order() {
        let object = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": {"name": "b", "creationTimestamp": null, "labels": {"z": "1", "a": "2"}},
            "roleRef": {"name": "r", "kind": "Role", "apiGroup": "rbac.authorization.k8s.io"},
            "subjects": [{"namespace": "n", "name": "u", "kind": "User", "apiGroup": "rbac.authorization.k8s.io"}]});
        assert_eq!(
            crate::output::to_compact_go_json(&Typed(&object)),
            "{\"kind\":\"RoleBinding\",\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"metadata\":{\"name\":\"b\",\"creationTimestamp\":null,\"labels\":{\"a\":\"2\",\"z\":\"1\"}},\"subjects\":[{\"kind\":\"User\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"u\",\"namespace\":\"n\"}],\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Role\",\"name\":\"r\"}}\n"
        );
    }
}
