//! Retain for built-in kinds (upstream's `retain.go` and `lifted/retain.go`): the fields a
//! member's own control plane sets, carried from the member's copy (`observed`) into the
//! manifest Karmada applies (`desired`) so an update does not clear them.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::{Gvk, fields, invalid};
use crate::{InterpretError, Operation, Target};

/// The kinds with a retain handler.
pub const KINDS: &[Gvk] = &[
    ("apps/v1", "Deployment"),
    ("v1", "Pod"),
    ("v1", "Service"),
    ("v1", "ServiceAccount"),
    ("v1", "PersistentVolumeClaim"),
    ("v1", "PersistentVolume"),
    ("batch/v1", "Job"),
    ("v1", "Secret"),
];

/// The label asking that a workload's member-side replica count be kept (e.g. under an HPA).
const RETAIN_REPLICAS_LABEL: &str = "resourcetemplate.karmada.io/retain-replicas";

/// `desired` with `observed`'s member-side fields, `None` for a kind without a handler.
pub fn retain(desired: &Value, observed: &Value) -> Option<Result<Value, InterpretError>> {
    let target = Target::of(desired);
    let mut out = desired.clone();
    match (target.api_version.as_str(), target.kind.as_str()) {
        ("apps/v1", "Deployment") => {
            if let Err(e) = retain_replicas(&mut out, observed) {
                return Some(Err(e));
            }
        }
        ("v1", "Pod") => retain_pod(&mut out, observed),
        ("v1", "Service") => retain_service(&mut out, observed),
        ("v1", "ServiceAccount") => {
            merge_by_name(&mut out, observed, "secrets");
            merge_by_name(&mut out, observed, "imagePullSecrets");
        }
        ("v1", "PersistentVolumeClaim") => {
            // The bound volume is chosen by the member and cannot change.
            copy_if(&mut out, observed, "/spec", "volumeName", |v| v.as_str().is_some_and(|s| !s.is_empty()));
        }
        ("v1", "PersistentVolume") => copy_if(&mut out, observed, "/spec", "claimRef", |_| true),
        ("batch/v1", "Job") => {
            // The member's Job controller generated the selector and the template labels.
            copy_if(&mut out, observed, "/spec/selector", "matchLabels", Value::is_object);
            copy_if(&mut out, observed, "/spec/template/metadata", "labels", Value::is_object);
        }
        ("v1", "Secret") => {
            // A service-account token is minted by the member's controller manager.
            if fields::string(desired, "/type") == "kubernetes.io/service-account-token" {
                copy_if(&mut out, observed, "", "data", Value::is_object);
            }
        }
        _ => return None,
    }
    Some(Ok(out))
}

/// Copies `observed`'s `parent/key` into `out` when `keep` accepts it, creating the parent.
fn copy_if(out: &mut Value, observed: &Value, parent: &str, key: &str, keep: impl Fn(&Value) -> bool) {
    let Some(value) = observed.pointer(&format!("{parent}/{key}")).filter(|v| keep(v)) else {
        return;
    };
    if let Some(map) = ensure_object(out, parent) {
        map.insert(key.into(), value.clone());
    }
}

/// The object at `pointer`, created (as upstream's `SetNestedField` does) where missing.
fn ensure_object<'a>(out: &'a mut Value, pointer: &str) -> Option<&'a mut Map<String, Value>> {
    let mut current = out;
    for part in pointer.split('/').filter(|p| !p.is_empty()) {
        let map = current.as_object_mut()?;
        let next = map.entry(part.to_string()).or_insert_with(|| Value::Object(Map::new()));
        if !next.is_object() {
            *next = Value::Object(Map::new());
        }
        current = next;
    }
    current.as_object_mut()
}

/// A workload labelled to retain replicas keeps the member's `spec.replicas`, which the
/// member must have.
fn retain_replicas(out: &mut Value, observed: &Value) -> Result<(), InterpretError> {
    if fields::string(out, &format!("/metadata/labels/{}", RETAIN_REPLICAS_LABEL.replace('/', "~1"))) != "true" {
        return Ok(());
    }
    let Some(replicas) = observed.pointer("/spec/replicas").filter(|v| v.is_i64()) else {
        let message = format!(
            "failed to get spec.replicas from {} {}/{}",
            fields::string(observed, "/kind"),
            fields::string(observed, "/metadata/namespace"),
            fields::string(observed, "/metadata/name")
        );
        return Err(invalid(Operation::Retain, message));
    };
    if let Some(spec) = ensure_object(out, "/spec") {
        spec.insert("replicas".into(), replicas.clone());
    }
    Ok(())
}

/// A pod keeps the member's node, service account, volumes and each container's volume
/// mounts (the member injects the service-account token volume).
fn retain_pod(out: &mut Value, observed: &Value) {
    let Some(spec) = ensure_object(out, "/spec") else {
        return;
    };
    for key in ["nodeName", "serviceAccountName", "volumes"] {
        // The typed copy upstream makes clears what the member lacks.
        match observed.pointer(&format!("/spec/{key}")).filter(|v| !is_empty(v)) {
            Some(v) => spec.insert(key.into(), v.clone()),
            None => spec.remove(key),
        };
    }
    for list in ["containers", "initContainers"] {
        let Some(desired) = spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for member in fields::list(observed, &format!("/spec/{list}")) {
            let Some(container) = desired.iter_mut().find(|c| c["name"] == member["name"]) else {
                continue;
            };
            if let Some(c) = container.as_object_mut() {
                match member.get("volumeMounts").filter(|v| !is_empty(v)) {
                    Some(v) => c.insert("volumeMounts".into(), v.clone()),
                    None => c.remove("volumeMounts"),
                };
            }
        }
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// A service keeps the cluster IP(s) and health-check node port the member allocated.
/// `clusterIPs` is kept too: the API server rejects an update whose `clusterIPs` disagrees
/// with the allocated `clusterIP`.
fn retain_service(out: &mut Value, observed: &Value) {
    copy_if(out, observed, "/spec", "healthCheckNodePort", |v| v.as_i64().is_some_and(|p| p > 0));
    copy_if(out, observed, "/spec", "clusterIP", |v| v.as_str().is_some_and(|s| !s.is_empty()));
    copy_if(out, observed, "/spec", "clusterIPs", |v| v.as_array().is_some_and(|a| !a.is_empty()));
}

/// A service account keeps the member's entries of `field` (secrets the member's token
/// controller added) after the desired ones, each name once.
fn merge_by_name(out: &mut Value, observed: &Value, field: &str) {
    let mut merged: Vec<Value> = fields::list(out, &format!("/{field}")).to_vec();
    let mut names: BTreeSet<String> = merged.iter().map(|s| fields::string(s, "/name").to_string()).collect();
    for secret in fields::list(observed, &format!("/{field}")) {
        if names.insert(fields::string(secret, "/name").to_string()) {
            merged.push(secret.clone());
        }
    }
    if let Some(map) = out.as_object_mut() {
        // Upstream writes an empty merge back as null, which is the field left out.
        if merged.is_empty() {
            map.remove(field);
        } else {
            map.insert(field.into(), Value::Array(merged));
        }
    }
}

#[cfg(test)]
#[path = "retain_tests.rs"]
mod tests;
