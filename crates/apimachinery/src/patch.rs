//! JSON patch (RFC 6902) and JSON merge patch (RFC 7386) with kube-apiserver's status codes.
//!
//! Codes follow the patch handler with the default `fieldValidation=Warn`: a body that does not
//! decode as a patch is 400 (`error decoding patch: ...`); more than 10000 operations is 413;
//! a decodable JSON patch whose operations fail (failed `test`, missing path, unknown `op`, or
//! `copy` operations past the copy budget) is 422 Invalid with kube's generic message; a merge
//! patch of `null` is 400 `Invalid JSON Patch`.

use json_patch::PatchOperation;
use serde_json::{Map, Value};

use super::json_bounds::{self, MAX_DEPTH};
use super::status::{ApiError, StatusReason};

/// kube-apiserver's cap on operations in one JSON patch.
pub const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// What `NewGenericServerResponse(422, ...)` says; kube drops the underlying error text.
const UNPROCESSABLE_MSG: &str = "the server rejected our request due to an error in our request";

fn decode_error(detail: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("error decoding patch: {detail}"))
}

/// Go's name for a JSON value's type in `json: cannot unmarshal <kind> into ...` errors.
fn go_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn unprocessable() -> ApiError {
    ApiError {
        code: 422,
        reason: StatusReason::Invalid,
        message: UNPROCESSABLE_MSG.to_string(),
        details: Some(Box::default()),
    }
}

/// Checks the shape Go's strict decode into `[]jsonPatchOp{op, path, from string; value any}`
/// checks, with its messages, and returns the operations.
fn decode_json_patch(patch: &[u8]) -> Result<Vec<Value>, ApiError> {
    let doc: Value = serde_json::from_slice(patch).map_err(decode_error)?;
    let ops = match doc {
        // Go decodes `null` into a nil slice: a patch with no operations.
        Value::Null => return Ok(Vec::new()),
        Value::Array(ops) => ops,
        other => {
            return Err(decode_error(format!(
                "json: cannot unmarshal {} into Go value of type []handlers.jsonPatchOp",
                go_kind(&other)
            )));
        }
    };
    for op in &ops {
        match op {
            Value::Null => {}
            Value::Object(fields) => {
                for name in ["op", "path", "from"] {
                    if let Some(v) = fields.get(name).filter(|v| !v.is_string() && !v.is_null()) {
                        return Err(decode_error(format!(
                            "json: cannot unmarshal {} into Go struct field jsonPatchOp.{name} of type string",
                            go_kind(v)
                        )));
                    }
                }
            }
            other => {
                return Err(decode_error(format!(
                    "json: cannot unmarshal {} into Go value of type handlers.jsonPatchOp",
                    go_kind(other)
                )));
            }
        }
    }
    Ok(ops)
}

/// kube-apiserver's default cap on the bytes `copy` operations of one JSON patch may add (its
/// `JSONPatchMaxCopyBytes`, which follows the request body limit).
pub const DEFAULT_MAX_COPY_BYTES: usize = 3 * 1024 * 1024;

/// Applies an RFC 6902 JSON patch to a copy of `original`, with kube's default copy budget.
pub fn apply_json_patch(original: &Value, patch: &[u8]) -> Result<Value, ApiError> {
    apply_json_patch_within(original, patch, DEFAULT_MAX_COPY_BYTES)
}

/// Applies an RFC 6902 JSON patch to a copy of `original`, one operation at a time.
///
/// As evanphx/json-patch does with `AccumulatedCopySizeLimit`, the JSON size of every copied
/// value counts against `max_copy_bytes`, checked before the copy is made: without it a few
/// dozen `copy` operations doubling the document exhaust memory. An operation that would nest
/// the document deeper than [`MAX_DEPTH`] is refused the same way, before it runs. Both answer
/// what any failing operation answers (422).
pub fn apply_json_patch_within(original: &Value, patch: &[u8], max_copy_bytes: usize) -> Result<Value, ApiError> {
    let ops = decode_json_patch(patch)?;
    if ops.len() > MAX_JSON_PATCH_OPERATIONS {
        return Err(ApiError::request_entity_too_large_msg(&format!(
            "The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {}",
            ops.len()
        )));
    }
    // Upstream decodes operations lazily, so a malformed operation fails at apply time: 422.
    let ops: json_patch::Patch = serde_json::from_value(Value::Array(ops)).map_err(|_| unprocessable())?;
    let mut doc = original.clone();
    let mut copied = 0usize;
    for op in &ops.0 {
        check_growth(&doc, op, max_copy_bytes, &mut copied)?;
        // `patch_unsafe` on our own copy: the all-or-nothing `patch` can hit an `unreachable!`
        // while undoing some operation sequences, and a failed patch discards the copy anyway.
        json_patch::patch_unsafe(&mut doc, std::slice::from_ref(op)).map_err(|_| unprocessable())?;
    }
    Ok(doc)
}

/// Refuses `op` before it runs if it would copy more than the budget left, or nest the
/// document deeper than [`MAX_DEPTH`].
fn check_growth(doc: &Value, op: &PatchOperation, max_copy_bytes: usize, copied: &mut usize) -> Result<(), ApiError> {
    let (path, value) = match op {
        PatchOperation::Add(o) => (&o.path, Some(&o.value)),
        PatchOperation::Replace(o) => (&o.path, Some(&o.value)),
        PatchOperation::Move(o) => (&o.path, doc.pointer(o.from.as_str())),
        PatchOperation::Copy(o) => {
            let source = doc.pointer(o.from.as_str());
            if let Some(source) = source {
                // Depth first: the encoder that measures the size recurses.
                if json_bounds::depth(source) + o.path.count() > MAX_DEPTH {
                    return Err(unprocessable());
                }
                let budget = max_copy_bytes.saturating_sub(*copied);
                *copied += json_bounds::encoded_len_within(source, budget).ok_or_else(unprocessable)?;
            }
            (&o.path, source)
        }
        PatchOperation::Remove(_) | PatchOperation::Test(_) => return Ok(()),
    };
    match value {
        Some(v) if json_bounds::depth(v) + path.count() > MAX_DEPTH => Err(unprocessable()),
        _ => Ok(()),
    }
}

/// The JSON merge patch that turns `old` into `new` (kubectl's and client-go's
/// `CreateMergePatch`): changed and added fields, `null` for removed ones; arrays and scalars
/// are replaced whole. Two equal documents give `{}`.
pub fn create_merge_patch(old: &Value, new: &Value) -> Value {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            let mut patch = Map::new();
            for (k, v) in n {
                match o.get(k) {
                    Some(ov) if ov == v => {}
                    Some(ov @ Value::Object(_)) if v.is_object() => {
                        patch.insert(k.clone(), create_merge_patch(ov, v));
                    }
                    _ => {
                        patch.insert(k.clone(), v.clone());
                    }
                }
            }
            for k in o.keys().filter(|k| !n.contains_key(*k)) {
                patch.insert(k.clone(), Value::Null);
            }
            Value::Object(patch)
        }
        _ => new.clone(),
    }
}

/// Applies an RFC 7386 merge patch to a copy of `original`; the patch must be a JSON object.
pub fn apply_merge_patch(original: &Value, patch: &[u8]) -> Result<Value, ApiError> {
    let patch: Value = serde_json::from_slice(patch).map_err(decode_error)?;
    let patch = match patch {
        Value::Object(p) => p,
        Value::Null => return Err(ApiError::bad_request("Invalid JSON Patch")),
        other => {
            return Err(decode_error(format!(
                "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                go_kind(&other)
            )));
        }
    };
    let mut doc = match original {
        Value::Object(o) => o.clone(),
        // Objects are always JSON objects; anything else is replaced as RFC 7386 says.
        _ => Map::new(),
    };
    merge_docs(&mut doc, patch);
    Ok(Value::Object(doc))
}

/// evanphx/json-patch's mergeDocs (what kube runs): `null` deletes; a value landing where there
/// was nothing (or null, or a non-object) has its nested object nulls pruned; two objects merge.
fn merge_docs(doc: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (k, v) in patch {
        if v.is_null() {
            doc.remove(&k);
            continue;
        }
        match doc.get_mut(&k) {
            Some(Value::Object(cur)) => {
                if let Value::Object(p) = v {
                    merge_docs(cur, p);
                } else {
                    // An object replaced by a non-object is taken verbatim (no pruning) upstream.
                    doc.insert(k, v);
                }
            }
            _ => {
                let mut v = v;
                prune_nulls(&mut v);
                doc.insert(k, v);
            }
        }
    }
}

/// Removes null-valued keys from objects at any depth; nulls inside arrays stay, as upstream.
fn prune_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(prune_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(prune_nulls),
        _ => {}
    }
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;
