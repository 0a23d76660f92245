//! InterpretDependency for built-in kinds (upstream's `dependencies.go`,
//! `helper.GetDependenciesFromPodTemplate`, `lifted.VisitPod*Names` and
//! `validation.VerifyDependencies`): the ConfigMaps, Secrets, ServiceAccount and
//! PersistentVolumeClaims a pod template refers to, an Ingress's TLS Secrets, and the derived
//! Service and EndpointSlices of a ServiceImport.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use karmadactl_apimachinery::{Cause, FieldPath, aggregate, go_quote, validate_label_selector};
use karmadactl_karmada_api::config::dependency::DependentObjectReference;
use serde_json::Value;

use super::{Gvk, fields};
use crate::Target;

/// The kinds with a dependency handler.
pub const KINDS: &[Gvk] = &[
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("batch/v1", "Job"),
    ("batch/v1", "CronJob"),
    ("v1", "Pod"),
    ("apps/v1", "DaemonSet"),
    ("apps/v1", "StatefulSet"),
    ("networking.k8s.io/v1", "Ingress"),
    ("multicluster.x-k8s.io/v1alpha1", "ServiceImport"),
];

/// Volume sources that name a Secret, and where (`VisitPodSecretNames`).
const SECRET_VOLUMES: &[(&str, &str)] = &[
    ("azureFile", "/secretName"),
    ("cephfs", "/secretRef/name"),
    ("cinder", "/secretRef/name"),
    ("flexVolume", "/secretRef/name"),
    ("rbd", "/secretRef/name"),
    ("secret", "/secretName"),
    ("scaleIO", "/secretRef/name"),
    ("iscsi", "/secretRef/name"),
    ("storageos", "/secretRef/name"),
    ("csi", "/nodePublishSecretRef/name"),
];

/// The dependencies of `object`, `None` for a kind without a handler.
pub fn dependencies(object: &Value) -> Option<Vec<DependentObjectReference>> {
    let target = Target::of(object);
    let namespace = fields::string(object, "/metadata/namespace");
    let spec = &object["spec"];
    let pod_spec = match (target.api_version.as_str(), target.kind.as_str()) {
        ("apps/v1", "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet") | ("batch/v1", "Job") => {
            &spec["template"]["spec"]
        }
        ("batch/v1", "CronJob") => &spec["jobTemplate"]["spec"]["template"]["spec"],
        ("v1", "Pod") => spec,
        ("networking.k8s.io/v1", "Ingress") => {
            // Every TLS entry names a Secret; an entry without one fails verification.
            let tls = fields::list(object, "/spec/tls");
            return Some(tls.iter().map(|t| core("Secret", namespace, fields::string(t, "/secretName"))).collect());
        }
        ("multicluster.x-k8s.io/v1alpha1", "ServiceImport") => {
            return Some(service_import(namespace, fields::string(object, "/metadata/name")));
        }
        _ => return None,
    };
    let mut deps = of_pod_spec(pod_spec, namespace);
    if target.kind == "StatefulSet" {
        // Claims made from volumeClaimTemplates are the member's StatefulSet's to create.
        let templates: BTreeSet<&str> =
            fields::list(spec, "/volumeClaimTemplates").iter().map(|t| fields::string(t, "/metadata/name")).collect();
        deps.retain(|d| d.kind != "PersistentVolumeClaim" || !templates.contains(d.name.as_str()));
    }
    Some(deps)
}

fn core(kind: &str, namespace: &str, name: &str) -> DependentObjectReference {
    DependentObjectReference {
        api_version: "v1".into(),
        kind: kind.into(),
        namespace: namespace.into(),
        name: name.into(),
        label_selector: None,
    }
}

/// What a pod spec refers to, by kind (ConfigMaps, Secrets, ServiceAccount, claims), each
/// name once and in order.
fn of_pod_spec(pod_spec: &Value, namespace: &str) -> Vec<DependentObjectReference> {
    let mut names: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut add = |kind: &'static str, name: Option<&str>| {
        if let Some(n) = name.filter(|n| !n.is_empty()) {
            names.entry(kind).or_default().insert(n.to_string());
        }
    };
    for s in fields::list(pod_spec, "/imagePullSecrets") {
        add("Secret", s["name"].as_str());
    }
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        for c in fields::list(pod_spec, &format!("/{list}")) {
            for e in fields::list(c, "/envFrom") {
                add("ConfigMap", e.pointer("/configMapRef/name").and_then(Value::as_str));
                add("Secret", e.pointer("/secretRef/name").and_then(Value::as_str));
            }
            for e in fields::list(c, "/env") {
                add("ConfigMap", e.pointer("/valueFrom/configMapKeyRef/name").and_then(Value::as_str));
                add("Secret", e.pointer("/valueFrom/secretKeyRef/name").and_then(Value::as_str));
            }
        }
    }
    for v in fields::list(pod_spec, "/volumes") {
        for s in fields::list(v, "/projected/sources") {
            add("ConfigMap", s.pointer("/configMap/name").and_then(Value::as_str));
            add("Secret", s.pointer("/secret/name").and_then(Value::as_str));
        }
        add("ConfigMap", v.pointer("/configMap/name").and_then(Value::as_str));
        for (source, path) in SECRET_VOLUMES {
            add("Secret", v.get(*source).and_then(|s| s.pointer(path)).and_then(Value::as_str));
        }
        add("PersistentVolumeClaim", v.pointer("/persistentVolumeClaim/claimName").and_then(Value::as_str));
    }
    let sa = fields::string(pod_spec, "/serviceAccountName");
    add("ServiceAccount", (sa != "default").then_some(sa));
    let mut out = Vec::new();
    for kind in ["ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim"] {
        for name in names.get(kind).into_iter().flatten() {
            out.push(core(kind, namespace, name));
        }
    }
    out
}

/// A ServiceImport needs its derived Service and that Service's EndpointSlices.
fn service_import(namespace: &str, name: &str) -> Vec<DependentObjectReference> {
    let derived = format!("derived-{name}");
    let selector = LabelSelector {
        match_labels: Some(BTreeMap::from([("kubernetes.io/service-name".to_string(), derived.clone())])),
        match_expressions: None,
    };
    vec![
        core("Service", namespace, &derived),
        DependentObjectReference {
            api_version: "discovery.k8s.io/v1".into(),
            kind: "EndpointSlice".into(),
            namespace: namespace.into(),
            name: String::new(),
            label_selector: Some(selector),
        },
    ]
}

/// `VerifyDependencies`: each dependency has an apiVersion, a kind, a name or a label
/// selector, and a valid selector; the message lists every problem as upstream's does.
pub fn verify_dependencies(deps: &[DependentObjectReference]) -> Result<(), String> {
    let mut causes = Vec::new();
    for (i, d) in deps.iter().enumerate() {
        let path = FieldPath::new("dependencies").index(i);
        if d.api_version.is_empty() {
            causes.push(Cause::invalid(path.child("apiVersion"), "", "missing required apiVersion"));
        }
        if d.kind.is_empty() {
            causes.push(Cause::invalid(path.child("kind"), "", "missing required kind"));
        }
        if d.name.is_empty() && d.label_selector.is_none() {
            let detail = "dependency can not leave name and labelSelector all empty";
            causes.push(Cause::invalid(&path, karmadactl_apimachinery::BadValue::Json(go_struct(d)), detail));
        }
        if let Some(selector) = &d.label_selector {
            causes.extend(validate_label_selector(selector, &path.child("labelSelector")));
        }
    }
    if causes.is_empty() { Ok(()) } else { Err(aggregate(&causes)) }
}

/// The dependency as Go's `%#v` prints it (the selector is always nil where this is used).
fn go_struct(d: &DependentObjectReference) -> String {
    format!(
        "v1alpha1.DependentObjectReference{{APIVersion:{}, Kind:{}, Namespace:{}, Name:{}, LabelSelector:(*v1.LabelSelector)(nil)}}",
        go_quote(&d.api_version),
        go_quote(&d.kind),
        go_quote(&d.namespace),
        go_quote(&d.name)
    )
}

#[cfg(test)]
#[path = "dependencies_tests.rs"]
mod tests;
