//! Turning a live member object into a resource template, and the policy that pins it to its
//! cluster, as upstream's `promote` builds them.

use serde_json::{Map, Value, json};

use karmadactl_engine::names::{CONFLICT_RESOLUTION_ANNOTATION, generated_policy_name};

/// Metadata the member's API server owns; the plane assigns its own.
const SERVER_FIELDS: &[&str] = &[
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "generation",
    "managedFields",
    "resourceVersion",
    "selfLink",
    "uid",
    "ownerReferences",
    "finalizers",
];

/// The template for `object`: server fields and status gone, kind-specific leftovers of the
/// member's controllers pruned, and conflict resolution Overwrite so that the execution
/// controller adopts the live object instead of refusing it.
pub fn template(mut object: Value) -> Value {
    if let Some(m) = object.as_object_mut() {
        m.remove("status");
    }
    let meta = object["metadata"].as_object_mut();
    if let Some(meta) = meta {
        for f in SERVER_FIELDS {
            meta.remove(*f);
        }
    }
    prune_kind_specific(&mut object);
    let meta = object["metadata"].as_object_mut().expect("objects have metadata");
    let annotations = meta.entry("annotations").or_insert(Value::Null);
    // Some servers write `annotations: null` for none.
    if !annotations.is_object() {
        *annotations = Value::Object(Map::new());
    }
    if let Some(a) = annotations.as_object_mut() {
        a.entry(CONFLICT_RESOLUTION_ANNOTATION).or_insert_with(|| "overwrite".into());
    }
    object
}

fn remove_annotations(object: &mut Value, keys: &[&str]) {
    if let Some(a) = object["metadata"]["annotations"].as_object_mut() {
        for k in keys {
            a.remove(*k);
        }
    }
}

fn prune_kind_specific(object: &mut Value) {
    let name = object["metadata"]["name"].as_str().unwrap_or_default().to_string();
    match object["kind"].as_str().unwrap_or_default() {
        "Deployment" => remove_annotations(
            object,
            &["deployment.kubernetes.io/revision", "deployment.kubernetes.io/revision-history"],
        ),
        "Job" if object["spec"]["manualSelector"] != Value::Bool(true) => {
            if let Some(spec) = object["spec"].as_object_mut() {
                spec.remove("selector");
            }
            if let Some(labels) = object["spec"]["template"]["metadata"]["labels"].as_object_mut() {
                labels
                    .retain(|k, _| k != "controller-uid" && k != "job-name" && !k.starts_with("batch.kubernetes.io/"));
            }
        }
        "ServiceAccount" => {
            let prefix = format!("{name}-token-");
            if let Some(secrets) = object["secrets"].as_array_mut() {
                secrets.retain(|s| !s["name"].as_str().is_some_and(|n| n.starts_with(&prefix)));
            }
        }
        "Service" if object["spec"]["clusterIP"] != "None" => {
            if let Some(spec) = object["spec"].as_object_mut() {
                spec.remove("clusterIP");
                spec.remove("clusterIPs");
            }
        }
        "Secret" if object["type"] == "kubernetes.io/service-account-token" => {
            if let Some(m) = object.as_object_mut() {
                m.remove("data");
            }
            remove_annotations(object, &["kubernetes.io/service-account.uid"]);
        }
        "PersistentVolumeClaim" => remove_annotations(object, &["volume.kubernetes.io/selected-node"]),
        _ => {}
    }
}

/// What the policy selects: the template's identity as the plane serves it.
pub struct Selected<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    /// Empty for cluster-scoped objects, which get a ClusterPropagationPolicy.
    pub namespace: &'a str,
}

/// The policy's name: `--policy-name`, else upstream's generated one.
pub fn policy_name(explicit: Option<&str>, s: &Selected<'_>) -> String {
    match explicit.filter(|p| !p.is_empty()) {
        Some(p) => p.to_string(),
        None => generated_policy_name(s.namespace, s.name, &gvk_string(s.api_version, s.kind)),
    }
}

/// Go's `GroupVersionKind.String()`: `apps/v1, Kind=Deployment`, `/v1, Kind=Namespace`.
pub(crate) fn gvk_string(api_version: &str, kind: &str) -> String {
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    format!("{group}/{version}, Kind={kind}")
}

/// The PropagationPolicy (namespaced object) or ClusterPropagationPolicy that keeps the
/// promoted object where it is, leaving it in place should the template be deleted.
pub fn policy(name: &str, s: &Selected<'_>, cluster: &str, dependencies: bool) -> Value {
    let spec = json!({
        "resourceSelectors": [{"apiVersion": s.api_version, "kind": s.kind, "name": s.name}],
        "placement": {"clusterAffinity": {"clusterNames": [cluster]}},
        "conflictResolution": "Overwrite",
        "preserveResourcesOnDeletion": true,
        "propagateDeps": dependencies,
    });
    if s.namespace.is_empty() {
        json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "ClusterPropagationPolicy",
               "metadata": {"name": name}, "spec": spec})
    } else {
        json!({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
               "metadata": {"name": name, "namespace": s.namespace}, "spec": spec})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_drops_server_fields_and_asks_for_overwrite() {
        let live = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default", "uid": "u", "resourceVersion": "7",
                         "generation": 2, "creationTimestamp": "2026-01-01T00:00:00Z", "managedFields": [],
                         "annotations": {"deployment.kubernetes.io/revision": "1", "keep": "me"},
                         "labels": {"app": "web"}},
            "spec": {"replicas": 2},
            "status": {"replicas": 2}
        });
        let t = template(live);
        assert_eq!(
            t["metadata"],
            json!({"name": "web", "namespace": "default", "labels": {"app": "web"},
                   "annotations": {"keep": "me", "work.karmada.io/conflict-resolution": "overwrite"}})
        );
        assert!(t.get("status").is_none());
        assert_eq!(t["spec"]["replicas"], 2);
    }

    #[test]
    fn null_annotations_become_the_overwrite_annotation() {
        let live = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "annotations": null}});
        assert_eq!(
            template(live)["metadata"]["annotations"],
            json!({"work.karmada.io/conflict-resolution": "overwrite"})
        );
    }

    #[test]
    fn an_existing_conflict_annotation_is_kept() {
        let live = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c", "annotations": {"work.karmada.io/conflict-resolution": "abort"}}});
        assert_eq!(template(live)["metadata"]["annotations"]["work.karmada.io/conflict-resolution"], "abort");
    }

    #[test]
    fn services_lose_their_cluster_ip_unless_headless() {
        let svc = |ip: &str| {
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
                                    "spec": {"clusterIP": ip, "clusterIPs": [ip]}})
        };
        assert!(template(svc("10.0.0.1"))["spec"].get("clusterIP").is_none());
        assert_eq!(template(svc("None"))["spec"]["clusterIP"], "None");
    }

    #[test]
    fn policies_follow_upstream_names_and_scope() {
        let ns = Selected { api_version: "apps/v1", kind: "Deployment", name: "nginx", namespace: "default" };
        assert_eq!(policy_name(None, &ns), "nginx-6d7f8d5f5b");
        assert_eq!(policy_name(Some("mine"), &ns), "mine");
        let p = policy("nginx-6d7f8d5f5b", &ns, "member1", false);
        assert_eq!(p["kind"], "PropagationPolicy");
        assert_eq!(p["metadata"]["namespace"], "default");
        assert_eq!(
            p["spec"]["resourceSelectors"],
            json!([{"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"}])
        );
        assert_eq!(p["spec"]["placement"]["clusterAffinity"]["clusterNames"], json!(["member1"]));
        let cs = Selected { api_version: "v1", kind: "Namespace", name: "my-ns", namespace: "" };
        assert_eq!(policy_name(None, &cs), "my-ns-646d6c6947");
        let p = policy("my-ns-646d6c6947", &cs, "member1", true);
        assert_eq!(p["kind"], "ClusterPropagationPolicy");
        assert!(p["metadata"].get("namespace").is_none());
        assert_eq!(p["spec"]["propagateDeps"], true);
    }
}
