//! What makes a written object the one the request addressed: its apiVersion and kind, its
//! namespace and its name, checked (and filled in where kube fills them in) before any write, so
//! no write path stores an object that is not the request's.

use karmadactl_apimachinery::ApiError;
use serde_json::Value;

use crate::registry::ResourceDef;

use crate::filters::dispatch::Call;
use crate::storage::object;

/// kube's EnsureObjectNamespaceMatchesRequestNamespace: an empty namespace takes the request's,
/// a cluster-scoped object has none, and any other namespace than the request's is refused.
pub(super) fn ensure_namespace(def: &ResourceDef, call: &Call, obj: &mut Value) -> Result<(), ApiError> {
    let want = super::namespace_of(def, call);
    let meta = object::meta_mut(obj);
    match (want, meta.get("namespace").and_then(Value::as_str)) {
        (Some(want), Some(have)) if !have.is_empty() && have != want => Err(ApiError::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        )),
        (Some(want), _) => {
            meta.insert("namespace".into(), Value::String(want.to_string()));
            Ok(())
        }
        (None, _) => {
            meta.remove("namespace");
            Ok(())
        }
    }
}

/// kube's checkName for a patched object: it must still carry the URL's name.
pub(super) fn check_name(obj: &Value, name: &str) -> Result<(), ApiError> {
    match object::meta_str(obj, "name").unwrap_or("") {
        "" => Err(ApiError::bad_request(format!(
            "the name of the object ({name} based on URL) was undeterminable: name must be provided"
        ))),
        have if have != name => Err(ApiError::bad_request(format!(
            "the name of the object ({have}) does not match the name on the URL ({name})"
        ))),
        _ => Ok(()),
    }
}

/// The apiVersion and kind of a decoded or patched object: absent ones are the resource's (as
/// kube's decoder defaults them), different ones are refused.
pub(super) fn ensure_type(def: &ResourceDef, obj: &mut Value) -> Result<(), ApiError> {
    let want_version = super::api_version(def);
    match obj.get("apiVersion").and_then(Value::as_str) {
        None | Some("") => obj["apiVersion"] = Value::String(want_version),
        Some(v) if v == want_version => {}
        Some(v) => {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({v}) does not match the expected API version ({want_version})"
            )));
        }
    }
    match obj.get("kind").and_then(Value::as_str) {
        None | Some("") => obj["kind"] = Value::String(def.kind.clone()),
        Some(k) if k == def.kind => {}
        Some(k) => {
            return Err(ApiError::bad_request(format!(
                "the kind in the data ({k}) does not match the expected kind ({})",
                def.kind
            )));
        }
    }
    Ok(())
}

/// The last check before the store: the object is of the resource's type and carries the
/// namespace and name it is stored under. Every path above ensures this; a failure here is a
/// server bug, answered as one rather than stored.
pub(super) fn check_storable(def: &ResourceDef, ns: Option<&str>, name: &str, obj: &Value) -> Result<(), ApiError> {
    let kind_ok = obj.get("kind").and_then(Value::as_str) == Some(def.kind.as_str())
        && obj.get("apiVersion").and_then(Value::as_str) == Some(super::api_version(def).as_str());
    let name_ok = object::meta_str(obj, "name") == Some(name);
    let ns_ok = object::meta_str(obj, "namespace").filter(|n| !n.is_empty()) == ns;
    if kind_ok && name_ok && ns_ok {
        return Ok(());
    }
    Err(ApiError::internal(&format!(
        "refusing to store {} {name:?}: its apiVersion, kind, name or namespace differ from the request",
        super::qualified(def)
    )))
}
