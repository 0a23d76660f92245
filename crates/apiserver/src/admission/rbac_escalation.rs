//! RBAC escalation prevention on writes of Roles, ClusterRoles and their bindings, as
//! kube-apiserver's policy-based RBAC storage (pkg/registry/rbac/*/policybased): nobody grants
//! a permission they do not hold unless they may `escalate` the role or `bind` the role they
//! reference; and a binding's roleRef never changes.

use k8s_openapi::api::rbac::v1::{PolicyRule, RoleRef};
use karmadactl_apimachinery::{ApiError, BadValue, Cause, go_quote};
use serde_json::Value;

use crate::auth::authn::PRIVILEGED_GROUP;
use crate::auth::rbac::{confirm_no_escalation, full_authority};
use crate::auth::{Attributes, authorize};
use crate::registry::ResourceDef;

use crate::filters::dispatch::Call;
use crate::state::ApiState;
use crate::storage::object;
use crate::storage::store_access;

use karmadactl_karmada_api::wellknown::RBAC_GROUP;

/// Checks a create (`old` is `None`) or update of an RBAC object, after validation. Anything
/// else passes.
pub async fn check(
    state: &ApiState,
    def: &ResourceDef,
    call: &Call,
    old: Option<&Value>,
    new: &Value,
) -> Result<(), ApiError> {
    if def.group != RBAC_GROUP {
        return Ok(());
    }
    let binding = matches!(def.plural.as_str(), "rolebindings" | "clusterrolebindings");
    if binding && let Some(old) = old {
        check_role_ref_unchanged(def, old, new)?;
    }
    // kube's `EscalationAllowed`: the API server's own loopback identity and other members of
    // system:masters may do anything anyway.
    if call.user.in_group(PRIVILEGED_GROUP) {
        return Ok(());
    }
    // Writes that only let the garbage collector finish its work need no permissions.
    if old.is_some_and(|old| only_gc_fields_differ(old, new)) {
        return Ok(());
    }
    match def.plural.as_str() {
        "roles" | "clusterroles" => check_role(state, def, call, old, new),
        "rolebindings" | "clusterrolebindings" => check_binding(state, def, call, new).await,
        _ => Ok(()),
    }
}

fn check_role(
    state: &ApiState,
    def: &ResourceDef,
    call: &Call,
    old: Option<&Value>,
    new: &Value,
) -> Result<(), ApiError> {
    let snapshot = state.rbac();
    // As kube's `RoleEscalationAuthorized`: the name is the URL's, so `escalate` limited to
    // some resourceNames never covers a POST to the collection.
    let escalate =
        Attributes::resource(&call.user, "escalate", RBAC_GROUP, &def.plural, &call.info.namespace, &call.info.name);
    if authorize(&snapshot, &escalate).is_allowed() {
        return Ok(());
    }
    let name = object::meta_str(new, "name").unwrap_or_default();
    let rules: Vec<PolicyRule> = decode(new.get("rules"))?;
    confirm_no_escalation(&snapshot, &call.user, &call.info.namespace, &rules)
        .map_err(|why| ApiError::forbidden_message(&def.group, &def.plural, name, &why))?;
    // An aggregation rule can gather anything (and keep a role from being tightened).
    let aggregates = |obj: &Value| obj.get("aggregationRule").is_some_and(|a| !a.is_null());
    if def.plural == "clusterroles"
        && (aggregates(new) || old.is_some_and(aggregates))
        && confirm_no_escalation(&snapshot, &call.user, "", &full_authority()).is_err()
    {
        return Err(ApiError::forbidden_message(
            &def.group,
            &def.plural,
            name,
            "must have cluster-admin privileges to use the aggregationRule",
        ));
    }
    Ok(())
}

async fn check_binding(state: &ApiState, def: &ResourceDef, call: &Call, new: &Value) -> Result<(), ApiError> {
    let role_ref: RoleRef = decode(new.get("roleRef"))?;
    // A RoleBinding grants in its namespace, a ClusterRoleBinding everywhere.
    let namespace = if def.plural == "rolebindings" { call.info.namespace.as_str() } else { "" };
    let role_plural = match role_ref.kind.as_str() {
        "Role" => "roles",
        "ClusterRole" => "clusterroles",
        other => return Err(ApiError::internal(&format!("unsupported role reference kind: {}", go_quote(other)))),
    };
    let snapshot = state.rbac();
    let bind = Attributes::resource(&call.user, "bind", &role_ref.api_group, role_plural, namespace, &role_ref.name);
    if authorize(&snapshot, &bind).is_allowed() {
        return Ok(());
    }
    let role_ns = (role_plural == "roles").then_some(namespace);
    let Some((role, _)) = store_access::get(state, RBAC_GROUP, role_plural, role_ns, &role_ref.name).await? else {
        return Err(ApiError::not_found(RBAC_GROUP, role_plural, &role_ref.name));
    };
    let rules: Vec<PolicyRule> = decode(role.get("rules"))?;
    confirm_no_escalation(&snapshot, &call.user, namespace, &rules).map_err(|why| {
        ApiError::forbidden_message(&def.group, &def.plural, object::meta_str(new, "name").unwrap_or_default(), &why)
    })
}

/// kube's `ValidateRoleBindingUpdate`: `roleRef: Invalid value: rbac.RoleRef{…}: cannot change roleRef`.
fn check_role_ref_unchanged(def: &ResourceDef, old: &Value, new: &Value) -> Result<(), ApiError> {
    if old.get("roleRef") == new.get("roleRef") {
        return Ok(());
    }
    let role_ref: RoleRef = decode(new.get("roleRef"))?;
    // Go prints the internal struct with `%#v`.
    let shown = format!(
        "rbac.RoleRef{{APIGroup:{}, Kind:{}, Name:{}}}",
        go_quote(&role_ref.api_group),
        go_quote(&role_ref.kind),
        go_quote(&role_ref.name)
    );
    Err(ApiError::invalid(
        &def.group,
        &def.kind,
        object::meta_str(new, "name").unwrap_or_default(),
        vec![Cause::invalid("roleRef", BadValue::Json(shown), "cannot change roleRef")],
    ))
}

/// kube's `IsOnlyMutatingGCFields`: equal once ownerReferences, finalizers and managedFields
/// (and what the server fills) are taken from the old object.
fn only_gc_fields_differ(old: &Value, new: &Value) -> bool {
    let strip = |obj: &Value| {
        let mut obj = obj.clone();
        if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            for field in ["ownerReferences", "finalizers", "managedFields", "selfLink", "resourceVersion"] {
                meta.remove(field);
            }
        }
        obj
    };
    strip(old) == strip(new)
}

/// A validated field as its type; absent or null is the type's default.
fn decode<T: serde::de::DeserializeOwned + Default>(field: Option<&Value>) -> Result<T, ApiError> {
    match field {
        None | Some(Value::Null) => Ok(T::default()),
        Some(v) => serde_json::from_value(v.clone())
            .map_err(|e| ApiError::internal(&format!("the validated object cannot be decoded: {e}"))),
    }
}
