//! What happens to an object between decoding and storing: namespace lifecycle checks,
//! create-time defaults the server owns, and validation (metadata, the kind's schema, and
//! unknown or duplicate fields per `fieldValidation`).
//!
//! Its submodules hold the rules of one kind each: certificate requests (`csr_admission`,
//! `csr_strategy`), federated quotas' `overall` on templates (`federated_quota`), RBAC escalation and the RBAC generator (`rbac_escalation`,
//! `rbac_generator_admission`), token binding (`token_binding`) and schema validation
//! (`validation`).

pub mod csr_admission;
pub mod csr_strategy;
pub mod federated_quota;
pub mod interpreter_customization;
pub mod rbac_escalation;
pub mod rbac_generator_admission;
pub mod token_binding;
pub mod validation;

use axum::http::HeaderValue;
use axum::response::Response;
use karmadactl_apimachinery::ApiError;
use serde_json::{Value, json};

use crate::registry::validation::federated_hpa;
use crate::registry::{ResourceDef, Source};

use crate::state::ApiState;
use crate::storage::store_access;

/// Refuses content for a namespace that does not exist or is being deleted.
pub async fn check_namespace_accepts_content(state: &ApiState, namespace: &str) -> Result<(), ApiError> {
    if state.namespaces.known_active(namespace) {
        return Ok(());
    }
    match store_access::get(state, "", "namespaces", None, namespace).await? {
        None => Err(ApiError::not_found("", "namespaces", namespace)),
        Some((ns, _)) if crate::storage::object::marked_for_deletion(&ns) => Err(ApiError::forbidden_message(
            "",
            "namespaces",
            namespace,
            &format!("unable to create new content in namespace {namespace} because it is being terminated"),
        )),
        Some(_) => Ok(()),
    }
}

/// Create-time rules of kube's strategies: status starts empty where status is a subresource,
/// pods start Pending, namespaces start Active with the `kubernetes` finalizer, Secrets default
/// to Opaque.
pub fn prepare_for_create(def: &ResourceDef, obj: &mut Value) {
    if def.subresource("status").is_some() {
        match def.source {
            Source::Builtin => obj["status"] = json!({}),
            Source::Crd { .. } => {
                if let Value::Object(m) = obj {
                    m.remove("status");
                }
            }
        }
    }
    match (def.group.as_str(), def.plural.as_str()) {
        ("", "namespaces") => {
            if obj.get("spec").and_then(|s| s.get("finalizers")).is_none() {
                obj["spec"]["finalizers"] = json!(["kubernetes"]);
            }
            obj["status"] = json!({"phase": "Active"});
        }
        // kubectl shows the phase as the pod's STATUS until the kubelet reports.
        ("", "pods") => obj["status"] = json!({"phase": "Pending"}),
        ("batch", "jobs") => crate::registry::defaults::job_selector(obj),
        ("", "secrets") if obj.get("type").and_then(Value::as_str).is_none_or(str::is_empty) => {
            obj["type"] = json!("Opaque");
        }
        _ => {}
    }
}

/// The CertificateSigningRequest resource: (group, plural).
pub const CSR: (&str, &str) = ("certificates.k8s.io", "certificatesigningrequests");

/// Records who asks for a certificate, as kube's CSR strategy does: `spec.username`, `uid`,
/// `groups` and `extra` come from the authenticated requester, whatever the body said, so an
/// approver can trust them.
pub fn record_csr_requester(def: &ResourceDef, obj: &mut Value, user: &crate::auth::UserInfo) {
    if (def.group.as_str(), def.plural.as_str()) != CSR {
        return;
    }
    let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) else { return };
    for field in ["username", "uid", "groups", "extra"] {
        spec.remove(field);
    }
    spec.insert("username".into(), json!(user.name));
    if !user.uid.is_empty() {
        spec.insert("uid".into(), json!(user.uid));
    }
    if !user.groups.is_empty() {
        spec.insert("groups".into(), json!(user.groups));
    }
    if !user.extra.is_empty() {
        spec.insert("extra".into(), json!(user.extra));
    }
}

/// Rules applied on every write (create and update), as kube's strategies do: a Secret's
/// `stringData` is merged into `data` (base64) and never stored.
pub fn prepare_for_write(def: &ResourceDef, obj: &mut Value) {
    if matches!(def.source, Source::Builtin) {
        crate::registry::defaults::apply(&def.group, &def.kind, obj);
    }
    if def.group.is_empty()
        && def.plural == "secrets"
        && let Some(Value::Object(string_data)) = obj.as_object_mut().and_then(|m| m.remove("stringData"))
    {
        use base64::Engine;
        for (k, v) in string_data {
            let text = v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
            obj["data"][k] = Value::String(base64::engine::general_purpose::STANDARD.encode(text.as_bytes()));
        }
    }
}

/// Admission that depends on who writes or on other stored objects, run after validation on
/// every create (`old` is `None`) and update: RBAC escalation prevention, the certificate
/// plugins, the interpreter customizations' checks, and federated quotas. Hold what it returns
/// until the write is stored (a checked quota's namespace lock).
pub async fn check_requester(
    state: &ApiState,
    def: &ResourceDef,
    call: &crate::filters::dispatch::Call,
    old: Option<&Value>,
    new: &Value,
) -> Result<federated_quota::Admitted, ApiError> {
    crate::admission::rbac_escalation::check(state, def, call, old, new).await?;
    crate::admission::csr_admission::check(state, def, call, old, new)?;
    crate::admission::interpreter_customization::check(state, def, new).await?;
    if call.info.subresource.is_empty() {
        return crate::admission::federated_quota::check(state, def, old, new).await;
    }
    Ok(None)
}

/// Validates an object about to be stored. Returns the warnings to send (unknown fields under
/// `fieldValidation=Warn`, the default) or the 400/422 error. `old` is the stored object an
/// update replaces.
pub fn validate(
    state: &ApiState,
    def: &ResourceDef,
    obj: &mut Value,
    raw: Option<&[u8]>,
    old: Option<&Value>,
    field_validation: Option<&str>,
) -> Result<Vec<String>, ApiError> {
    let mode = match field_validation.unwrap_or("Warn") {
        "Strict" => FieldValidation::Strict,
        "Ignore" => FieldValidation::Ignore,
        "" | "Warn" => FieldValidation::Warn,
        other => {
            return Err(ApiError::bad_request(format!(
                "fieldValidation must be one of \"Ignore\", \"Strict\" or \"Warn\", got {other:?}"
            )));
        }
    };
    prepare_for_write(def, obj);
    if def.group == federated_hpa::GROUP && def.kind == federated_hpa::KIND {
        // Upstream's mutating webhook, before its validating one.
        federated_hpa::default(obj);
    }
    let mut warnings = crate::admission::validation::validate(state, def, obj, raw, old, mode)?;
    if let Some(w) = stored_only_warning(def) {
        warnings.push(w);
    }
    Ok(warnings)
}

/// Kinds the embedded plane keeps as data without acting on them, so a user applying
/// Karmada's install manifests is told instead of assuming the webhooks run.
fn stored_only_warning(def: &ResourceDef) -> Option<String> {
    match (def.group.as_str(), def.kind.as_str()) {
        ("admissionregistration.k8s.io", kind) => Some(format!(
            "{kind} is stored, but this control plane does not call admission webhooks; it validates Karmada's kinds itself"
        )),
        ("apiregistration.k8s.io", _) => {
            Some("APIService is stored, but this control plane does not proxy aggregated APIs".to_string())
        }
        _ => None,
    }
}

/// `fieldValidation` query parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValidation {
    Strict,
    Warn,
    Ignore,
}

/// Adds `Warning: 299 - "<text>"` headers, which kubectl prints as `Warning: <text>`.
pub fn with_warnings(mut resp: Response, warnings: &[String]) -> Response {
    for w in warnings {
        let quoted = w.replace('\\', "\\\\").replace('"', "\\\"");
        if let Ok(v) = HeaderValue::from_str(&format!("299 - \"{quoted}\"")) {
            resp.headers_mut().append("warning", v);
        }
    }
    resp
}
