//! Validation of built-in kinds: typed decoding (for type errors with paths) plus the checks
//! kube-apiserver runs per kind.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde::Deserialize;
use serde_json::Value;

use super::field::{FieldError, json_type_name};
use super::workloads::{self, Workload};
use super::{core, crd_def, csr, discovery, pods, quota, rbac};
use crate::registry::builtin::{self, DecodeFailure};
use crate::registry::resources::ResourceDef;

/// Validates a built-in object: it must decode into its k8s-openapi type (a wrong type gives one
/// `TypeMismatch` naming the field) and pass the kind's checks. Kinds without a typed decoder
/// (custom resources, natively registered extras) pass.
pub fn validate_builtin(def: &ResourceDef, obj: &Value) -> Result<(), Vec<FieldError>> {
    let Some(decoded) = decode(def, obj).map_err(|e| vec![e])? else { return Ok(()) };
    let errs = kind_checks(def, obj, &decoded);
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// Round-trips a built-in object through its k8s-openapi type: None for kinds without a typed
/// decoder, the wrong-type error when it does not decode.
pub(crate) fn decode(def: &ResourceDef, obj: &Value) -> Result<Option<Value>, FieldError> {
    match builtin::roundtrip(&def.group, &def.version, &def.kind, obj) {
        None => Ok(None),
        Some(Err(failure)) => Err(decode_error(def, obj, &failure)),
        Some(Ok(decoded)) => Ok(Some(decoded)),
    }
}

/// The checks kube runs per kind on an object that decoded (`decoded` is its round trip).
/// metadata (including `def.name_rule`) is apimachinery's to check.
pub(crate) fn kind_checks(def: &ResourceDef, obj: &Value, decoded: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    match (def.group.as_str(), def.kind.as_str()) {
        ("", "ConfigMap") => core::config_map(obj, &mut errs),
        ("", "Secret") => core::secret(obj, &mut errs),
        ("", "Service") => core::service(obj, &mut errs),
        ("", "Pod") => pods::pod_spec(&spec, "spec", &mut errs),
        ("", "ResourceQuota") => quota::resource_quota(obj, &mut errs),
        ("discovery.k8s.io", "EndpointSlice") => discovery::endpoint_slice(obj, &mut errs),
        ("apps", "Deployment") => workloads::workload(Workload::Deployment, obj, &mut errs),
        ("apps", "ReplicaSet") => workloads::workload(Workload::ReplicaSet, obj, &mut errs),
        ("apps", "StatefulSet") => workloads::workload(Workload::StatefulSet, obj, &mut errs),
        ("apps", "DaemonSet") => workloads::workload(Workload::DaemonSet, obj, &mut errs),
        ("batch", "Job") => workloads::job_spec(&spec, "spec", &mut errs),
        ("batch", "CronJob") => workloads::cron_job(obj, &mut errs),
        ("rbac.authorization.k8s.io", "Role") => rbac::role(obj, true, &mut errs),
        ("rbac.authorization.k8s.io", "ClusterRole") => rbac::role(obj, false, &mut errs),
        ("rbac.authorization.k8s.io", "RoleBinding") => rbac::binding(obj, true, &mut errs),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding") => rbac::binding(obj, false, &mut errs),
        ("certificates.k8s.io", "CertificateSigningRequest") => csr::csr(obj, &mut errs),
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            // The round trip just succeeded, so this decode cannot fail in practice.
            if let Ok(crd) = CustomResourceDefinition::deserialize(decoded) {
                errs.extend(crd_def::validate_crd(&crd));
            }
        }
        _ => {}
    }
    errs
}

/// Words a decode failure like Go's encoding/json, which is what kube-apiserver reports:
/// `json: cannot unmarshal string into Go struct field Deployment.spec.replicas of type int32`.
fn decode_error(def: &ResourceDef, obj: &Value, failure: &DecodeFailure) -> FieldError {
    let actual = obj.pointer(&failure.pointer).unwrap_or(&Value::Null);
    let Some(rest) = failure.message.strip_prefix("invalid type: ") else {
        return FieldError::invalid(&failure.path, actual, &failure.message);
    };
    let expected = rest.rsplit_once(", expected ").map_or("", |(_, e)| e);
    let target = if failure.path.is_empty() {
        format!("Go value of type {}", go_type(expected))
    } else {
        format!("Go struct field {}.{} of type {}", def.kind, failure.path, go_type(expected))
    };
    let detail = format!("json: cannot unmarshal {} into {target}", go_json_kind(actual));
    FieldError::type_mismatch(&failure.path, json_type_name(actual), detail)
}

/// Go's name for the JSON value it could not store.
fn go_json_kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(n) => format!("number {n}"),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
    }
}

/// Maps serde's "expected ..." wording to the Go type kube would name.
fn go_type(expected: &str) -> String {
    match expected {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" => {
            let (sign, bits) = expected.split_at(1);
            format!("{}int{bits}", if sign == "u" { "u" } else { "" })
        }
        "f32" | "f64" => "float64".into(),
        "a boolean" => "bool".into(),
        "a string" | "a borrowed string" => "string".into(),
        "a sequence" => "[]interface {}".into(),
        "a map" => "map[string]string".into(),
        "Quantity" => "resource.Quantity".into(),
        "IntOrString" => "intstr.IntOrString".into(),
        s if s.starts_with(|c: char| c.is_ascii_uppercase()) && !s.contains(' ') => format!("v1.{s}"),
        s => s.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use serde_json::json;

    fn validate(plural: &str, group: &str, obj: Value) -> Result<(), Vec<String>> {
        let reg = Registry::builtin();
        let def = reg.lookup(group, "v1", plural).unwrap();
        validate_builtin(&def, &obj).map_err(|e| e.iter().map(FieldError::message).collect())
    }

    fn deployment() -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "web", "image": "nginx", "resources": {"limits": {"cpu": 1}}}]}}}})
    }

    #[test]
    fn valid_deployment_passes() {
        validate("deployments", "apps", deployment()).unwrap();
    }

    #[test]
    fn wrong_type_names_the_field() {
        let mut d = deployment();
        d["spec"]["replicas"] = json!("two");
        let reg = Registry::builtin();
        let def = reg.lookup("apps", "v1", "deployments").unwrap();
        let errs = validate_builtin(&def, &d).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].path, "spec.replicas");
        assert_eq!(errs[0].kind, super::super::FieldErrorKind::TypeMismatch);
        assert_eq!(
            errs[0].message(),
            "spec.replicas: Invalid value: \"string\": json: cannot unmarshal string into Go struct field \
             Deployment.spec.replicas of type int32"
        );
    }

    #[test]
    fn selector_mismatch() {
        let mut d = deployment();
        d["spec"]["selector"]["matchLabels"]["app"] = json!("other");
        let errs = validate("deployments", "apps", d).unwrap_err();
        assert!(errs[0].starts_with("spec.template.metadata.labels: Invalid value: "), "{errs:?}");
        validate("namespaces", "", json!({"metadata": {"name": "a.b"}})).unwrap();
        validate("configmaps", "", json!({"metadata": {"name": "a.b"}, "data": {"k": "v"}})).unwrap();
    }

    #[test]
    fn other_kinds_dispatch() {
        let errs = validate(
            "roles",
            "rbac.authorization.k8s.io",
            json!({"rules": [{"apiGroups": [""], "resources": ["pods"]}]}),
        )
        .unwrap_err();
        assert_eq!(errs, ["rules[0].verbs: Required value: verbs must contain at least one value"]);
        let errs = validate("secrets", "", json!({"data": {"k": "not base64!"}})).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].starts_with("data.k: Invalid value"), "{errs:?}");
        let errs = validate(
            "customresourcedefinitions",
            "apiextensions.k8s.io",
            json!({"metadata": {"name": "x"},
            "spec": {"group": "", "names": {"plural": "", "kind": ""}, "scope": "Namespaced", "versions": []}}),
        )
        .unwrap_err();
        assert!(!errs.is_empty());
    }
}
