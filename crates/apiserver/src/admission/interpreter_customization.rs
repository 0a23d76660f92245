//! Admission of ResourceInterpreterCustomizations, as upstream's karmada-webhook admits them:
//! every script compiles in the interpreter's sandbox and defines its operation's function, and
//! no other customization of the same target already scripts the same operation (dependency
//! rules may be many). Refusals are 422s naming the field, so `kubectl apply` shows which rule
//! is wrong before anything is stored.

use karmadactl_apimachinery::{ApiError, Cause, CauseType};
use karmadactl_interpreter::customization::{conflict, validate};
use karmadactl_karmada_api::config::customization::{API_VERSION, KIND};
use serde_json::Value;

use crate::registry::ResourceDef;
use crate::state::ApiState;
use crate::storage::store_access::{list_all, prefix};

/// Refuses a customization whose scripts do not load or that conflicts with a stored one.
pub async fn check(state: &ApiState, def: &ResourceDef, new: &Value) -> Result<(), ApiError> {
    let group = API_VERSION.split_once('/').map_or("", |(g, _)| g);
    if def.group != group || def.kind != KIND {
        return Ok(());
    }
    let name = new.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
    let mut causes: Vec<Cause> = validate(new)
        .into_iter()
        .map(|(field, message)| Cause {
            cause_type: Some(CauseType::Invalid),
            message: format!("Invalid value: {message}"),
            field,
        })
        .collect();
    if causes.is_empty() {
        let (existing, _) = list_all(state, &prefix(&def.group, &def.plural, None)).await?;
        if let Some(message) = conflict(new, &existing) {
            causes.push(Cause::forbidden("spec.customizations", &message));
        }
    }
    if causes.is_empty() { Ok(()) } else { Err(ApiError::invalid(&def.group, &def.kind, name, causes)) }
}
