//! Request bodies: JSON, YAML or protobuf objects, checked for the kind and version the URL names.

use karmadactl_apimachinery::ApiError;
use serde_json::Value;

use crate::protobuf;
use crate::registry::{ResourceDef, Source};

use crate::filters::dispatch::Call;

/// The object in a create or update body. A body that names another kind or version is a 400,
/// as kube-apiserver answers; a missing apiVersion/kind is filled from the URL.
pub fn decode_object(call: &Call, def: &ResourceDef) -> Result<Value, ApiError> {
    let mut obj = decode_bytes(call.content_type(), &call.body, matches!(def.source, Source::Builtin))?;
    if !obj.is_object() {
        return Err(ApiError::bad_request("the request body must be a JSON object"));
    }
    super::identity::ensure_type(def, &mut obj)?;
    Ok(obj)
}

/// Decodes a body by its Content-Type: JSON, YAML, or (for built-in kinds only, as kube answers
/// 415 to protobuf for custom resources) Kubernetes protobuf.
pub fn decode_bytes(content_type: &str, body: &[u8], builtin: bool) -> Result<Value, ApiError> {
    let ct = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match ct.as_str() {
        "" | "application/json" | "*/*" => serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request(format!("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml: {e}"))),
        "application/yaml" | "application/x-yaml" | "text/yaml" => {
            let text = std::str::from_utf8(body).map_err(|_| ApiError::bad_request("the request body is not UTF-8"))?;
            karmadactl_apimachinery::from_yaml(text).map_err(|e| ApiError::bad_request(format!("error converting YAML to JSON: {e}")))
        }
        protobuf::MEDIA_TYPE if builtin => protobuf::decode_request(body),
        other => Err(ApiError::unsupported_media_type(other, &["application/json", "application/yaml"])),
    }
}
