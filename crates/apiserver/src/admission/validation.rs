//! Object validation before storage, in kube-apiserver's order: the body must decode into its
//! kind (400), strict field validation refuses unknown and duplicate fields (400), then metadata
//! rules and the kind's own checks (or the CRD's schema) must pass (422 Invalid). Unknown
//! fields are dropped otherwise, with a warning under `fieldValidation=Warn`. Karmada's
//! override policies, federated resource quotas, FederatedHPAs, CronFederatedHPAs and
//! interpreter webhook configurations also get the checks upstream's karmada-webhook makes.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use karmadactl_apimachinery::{ApiError, Cause, CauseType, NameRule, validate_object_meta};
use karmadactl_karmada_api::policy::OverrideSpec;
use serde::Deserialize;
use serde_json::Value;

use crate::registry::validation::{cron_federated_hpa, federated_hpa, interpreter_webhook, override_policy, quota};
use crate::registry::{self, FieldError, FieldErrorKind, ResourceDef};

use crate::admission::FieldValidation;
use crate::state::ApiState;

pub fn validate(
    _state: &ApiState,
    def: &ResourceDef,
    obj: &mut Value,
    raw: Option<&[u8]>,
    old: Option<&Value>,
    mode: FieldValidation,
) -> Result<Vec<String>, ApiError> {
    let aside = set_aside_stored_managed_fields(obj, old);
    let outcome = validate_rest(def, obj, raw, old, mode);
    if let (Some(entries), Some(Value::Object(meta))) = (aside, obj.get_mut("metadata")) {
        meta.insert("managedFields".into(), entries);
    }
    outcome
}

/// Takes `metadata.managedFields` out of `obj` when they are the stored object's, which this
/// server wrote and checked itself: on an object written often they are most of its metadata,
/// and decoding them into their type again on every update was a measurable part of its cost.
fn set_aside_stored_managed_fields(obj: &mut Value, old: Option<&Value>) -> Option<Value> {
    let stored = old?.get("metadata")?.get("managedFields")?;
    let meta = obj.get_mut("metadata")?.as_object_mut()?;
    if meta.get("managedFields") != Some(stored) {
        return None;
    }
    meta.remove("managedFields")
}

fn validate_rest(
    def: &ResourceDef,
    obj: &mut Value,
    raw: Option<&[u8]>,
    old: Option<&Value>,
    mode: FieldValidation,
) -> Result<Vec<String>, ApiError> {
    let name = obj.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
    let prepared = registry::prepare(def, obj, raw, old);
    if let Some(e) = &prepared.decode_error {
        return Err(ApiError::bad_request(format!(
            "{kind} in version \"{version}\" cannot be handled as a {kind}: {msg}",
            kind = def.kind,
            version = def.version,
            msg = e.message()
        )));
    }
    if mode == FieldValidation::Strict
        && let Some(msg) = prepared.strict_error()
    {
        return Err(ApiError::bad_request(msg));
    }
    // Decoded from a reference: a copy of the metadata (managedFields and all) per write is
    // measurable on the paths that write most.
    let meta = ObjectMeta::deserialize(obj.get("metadata").unwrap_or(&Value::Null))
        .map_err(|e| ApiError::bad_request(format!("metadata is malformed: {e}")))?;
    let mut causes = validate_object_meta(&meta, def.namespaced, name_rule(def.name_rule));
    causes.extend(prepared.errors.iter().map(to_cause));
    if def.group == "apiextensions.k8s.io" && def.plural == "customresourcedefinitions" {
        match serde_json::from_value(obj.clone()) {
            Ok(crd) => causes.extend(registry::validate_crd(&crd).iter().map(to_cause)),
            Err(e) => {
                return Err(ApiError::bad_request(format!("the CustomResourceDefinition cannot be decoded: {e}")));
            }
        }
    }
    if prepared.errors.is_empty() {
        causes.extend(karmada_policy_causes(def, obj));
    }
    if !causes.is_empty() {
        return Err(ApiError::invalid(&def.group, &def.kind, &name, causes));
    }
    Ok(if mode == FieldValidation::Warn { prepared.warnings() } else { Vec::new() })
}

/// The checks upstream's karmada-webhook makes on policies and interpreter webhook
/// configurations, for kinds whose schema passed.
fn karmada_policy_causes(def: &ResourceDef, obj: &Value) -> Vec<Cause> {
    if def.group == "config.karmada.io" && def.kind == karmadactl_karmada_api::config::webhook::KIND {
        // As for policies below: a shape the schema let through but that does not decode has
        // nothing more to check.
        let webhooks = obj.get("webhooks").cloned().unwrap_or(Value::Array(Vec::new()));
        return serde_json::from_value(webhooks).map(|w: Vec<_>| interpreter_webhook::validate(&w)).unwrap_or_default();
    }
    if def.group == federated_hpa::GROUP && def.kind == federated_hpa::KIND {
        return federated_hpa::validate(obj).iter().map(to_cause).collect();
    }
    if def.group == "policy.karmada.io" && def.kind == "FederatedResourceQuota" {
        return quota::federated_resource_quota(obj).iter().map(to_cause).collect();
    }
    if def.group == "autoscaling.karmada.io" && def.kind == "CronFederatedHPA" {
        return cron_federated_hpa::validate(obj).iter().map(to_cause).collect();
    }
    if def.group != "policy.karmada.io" || !matches!(def.kind.as_str(), "OverridePolicy" | "ClusterOverridePolicy") {
        return Vec::new();
    }
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    // The schema has already checked the shape, so a spec that still does not decode (null,
    // absent) has nothing to check.
    match serde_json::from_value::<OverrideSpec>(spec) {
        Ok(spec) => override_policy::validate(&spec),
        Err(_) => Vec::new(),
    }
}

fn name_rule(rule: registry::NameRule) -> NameRule {
    match rule {
        registry::NameRule::Dns1123Subdomain => NameRule::DnsSubdomain,
        registry::NameRule::Dns1123Label => NameRule::DnsLabel,
        registry::NameRule::ClusterName => NameRule::ClusterName,
        registry::NameRule::Dns1035Label => NameRule::Dns1035Label,
        // kube checks only that such names are usable as a URL path segment.
        registry::NameRule::PathSegment | registry::NameRule::Any => NameRule::PathSegment,
    }
}

pub(crate) fn to_cause(e: &FieldError) -> Cause {
    let full = e.message();
    let message =
        if e.path.is_empty() { full } else { full.strip_prefix(&format!("{}: ", e.path)).unwrap_or(&full).to_string() };
    let cause_type = match e.kind {
        FieldErrorKind::Required => CauseType::Required,
        FieldErrorKind::Invalid => CauseType::Invalid,
        FieldErrorKind::NotSupported => CauseType::NotSupported,
        FieldErrorKind::Duplicate => CauseType::Duplicate,
        FieldErrorKind::TooLong => CauseType::TooLong,
        FieldErrorKind::TooMany => CauseType::TooMany,
        FieldErrorKind::Forbidden => CauseType::Forbidden,
        FieldErrorKind::TypeMismatch => CauseType::TypeInvalid,
    };
    Cause { cause_type: Some(cause_type), message, field: e.path.clone() }
}
