//! The object a TokenRequest binds its token to (`spec.boundObjectRef`): a Pod or Secret in the
//! service account's namespace, or a Node. It must exist (and have the UID the request names);
//! the token then carries its name and UID and stops authenticating once the object is gone
//! or replaced. Messages as kube-apiserver's TokenREST.

use karmadactl_apimachinery::ApiError;
use serde_json::Value;

use crate::auth::authn::BoundObject;

use crate::state::ApiState;
use crate::storage::store_access;

/// Resolves `spec.boundObjectRef` of a TokenRequest for service account `ns/sa_name`.
pub async fn resolve(state: &ApiState, ns: &str, sa_name: &str, spec: &Value) -> Result<Option<BoundObject>, ApiError> {
    let Some(r) = spec.get("boundObjectRef").filter(|r| !r.is_null()) else { return Ok(None) };
    let field = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default();
    let (api_version, kind, name, want_uid) = (field("apiVersion"), field("kind"), field("name"), field("uid"));
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let (plural, namespace) = match (group, kind) {
        ("", "Pod") => ("pods", Some(ns)),
        ("", "Secret") => ("secrets", Some(ns)),
        ("", "Node") => ("nodes", None),
        _ => {
            return Err(ApiError::bad_request(format!(
                "cannot bind token to object of type {group}/{version}, Kind={kind}"
            )));
        }
    };
    let Some((obj, _)) = store_access::get(state, "", plural, namespace, name).await? else {
        return Err(ApiError::not_found("", plural, name));
    };
    if kind == "Pod" && obj.pointer("/spec/serviceAccountName").and_then(Value::as_str).unwrap_or_default() != sa_name {
        return Err(ApiError::bad_request(format!(
            "cannot bind token for serviceaccount {sa_name:?} to pod running with different serviceaccount name."
        )));
    }
    let uid = obj.pointer("/metadata/uid").and_then(Value::as_str).unwrap_or_default().to_string();
    if !want_uid.is_empty() && want_uid != uid {
        return Err(ApiError::conflict(
            "",
            kind,
            name,
            &format!(
                "the UID in the bound object reference ({want_uid}) does not match the UID in record. The object might have been deleted and then recreated"
            ),
        ));
    }
    let name = name.to_string();
    Ok(Some(match kind {
        "Pod" => BoundObject::Pod { name, uid },
        "Secret" => BoundObject::Secret { name, uid },
        _ => BoundObject::Node { name, uid },
    }))
}
