//! Strategic merge patch (`application/strategic-merge-patch+json`) as kube-apiserver applies
//! it: JSON merge patch, except that lists with a merge strategy merge item by item (by merge
//! key), and the directives `$patch`, `$retainKeys`, `$deleteFromPrimitiveList/<field>` and
//! `$setElementOrder/<field>` steer the merge. Which lists merge, and by which key, comes from
//! the table in [`keys`].

mod errors;
pub mod keys;
mod merge;
mod order;
mod three_way;

use serde_json::Value;

use super::status::ApiError;
pub use errors::SmpError;
pub use keys::{FieldMeta, Strategy, TypeSchema, lookup, schema_for};
pub use three_way::three_way_patch;

/// Applies a strategic merge patch to a copy of `original`, merging lists as `schema` says
/// (None: no list merges, as for a type without patch metadata).
///
/// A body that is not JSON, or not a JSON object, is 400; `null` changes nothing (Go decodes it
/// into a nil map). Failures of the merge itself are 400, or 422 where kube-apiserver says so.
pub fn apply_strategic_merge_patch(
    original: &Value,
    patch: &[u8],
    schema: Option<&'static TypeSchema>,
) -> Result<Value, ApiError> {
    let patch: Value = serde_json::from_slice(patch).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let patch = match patch {
        Value::Object(p) => p,
        Value::Null => return Ok(original.clone()),
        other => {
            return Err(ApiError::bad_request(format!(
                "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                json_kind(&other)
            )));
        }
    };
    let original = match original {
        Value::Object(o) => o.clone(),
        _ => return Err(SmpError::bad_json_doc().into()),
    };
    Ok(Value::Object(merge::merge_map(original, patch, schema)?))
}

/// The JSON kind as Go's decoder names it in type errors.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests;
