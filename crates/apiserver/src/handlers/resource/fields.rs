//! Which fields a field selector may name for each resource, and their values.

use serde_json::Value;

use crate::registry::ResourceDef;

/// The value of a selectable field, or `None` when the resource does not support it (kube
/// answers 400 `field label not supported`).
pub fn value(def: &ResourceDef, obj: &Value, field: &str) -> Option<String> {
    let meta = |f: &str| obj.get("metadata").and_then(|m| m.get(f)).and_then(Value::as_str).unwrap_or("").to_string();
    match field {
        "metadata.name" => return Some(meta("name")),
        "metadata.namespace" => return Some(meta("namespace")),
        _ => {}
    }
    let path: &[&str] = match (def.group.as_str(), def.plural.as_str(), field) {
        ("", "secrets", "type") => &["type"],
        ("", "pods", "spec.nodeName") => &["spec", "nodeName"],
        ("", "pods", "spec.restartPolicy") => &["spec", "restartPolicy"],
        ("", "pods", "spec.schedulerName") => &["spec", "schedulerName"],
        ("", "pods", "spec.serviceAccountName") => &["spec", "serviceAccountName"],
        ("", "pods", "status.phase") => &["status", "phase"],
        ("", "pods", "status.podIP") => &["status", "podIP"],
        ("", "nodes", "spec.unschedulable") => &["spec", "unschedulable"],
        ("", "namespaces", "status.phase") => &["status", "phase"],
        ("", "events", "involvedObject.kind") => &["involvedObject", "kind"],
        ("", "events", "involvedObject.namespace") => &["involvedObject", "namespace"],
        ("", "events", "involvedObject.name") => &["involvedObject", "name"],
        ("", "events", "involvedObject.uid") => &["involvedObject", "uid"],
        ("", "events", "involvedObject.apiVersion") => &["involvedObject", "apiVersion"],
        ("", "events", "involvedObject.resourceVersion") => &["involvedObject", "resourceVersion"],
        ("", "events", "involvedObject.fieldPath") => &["involvedObject", "fieldPath"],
        ("", "events", "reason") => &["reason"],
        ("", "events", "source") => &["source", "component"],
        ("", "events", "type") => &["type"],
        ("batch", "jobs", "status.successful") => &["status", "succeeded"],
        ("certificates.k8s.io", "certificatesigningrequests", "spec.signerName") => &["spec", "signerName"],
        _ => return None,
    };
    let mut cur = obj;
    for p in path {
        match cur.get(*p) {
            Some(v) => cur = v,
            None => return Some(String::new()),
        }
    }
    Some(match cur {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    })
}
