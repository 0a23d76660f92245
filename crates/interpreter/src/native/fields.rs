//! Reading and writing manifest fields as upstream's typed Go structs see them: a missing or
//! mistyped number is zero, and a zero `omitempty` field is left out when written back.

use serde_json::{Map, Value, json};

/// The annotation on a member's copy naming the template generation it was made from.
pub const TEMPLATE_GENERATION_ANNOTATION: &str = "resourcetemplate.karmada.io/generation";

/// The integer at `pointer`, zero when missing (Go's zero value).
pub fn int(value: &Value, pointer: &str) -> i64 {
    value.pointer(pointer).and_then(Value::as_i64).unwrap_or(0)
}

/// The string at `pointer`, empty when missing.
pub fn string<'a>(value: &'a Value, pointer: &str) -> &'a str {
    value.pointer(pointer).and_then(Value::as_str).unwrap_or_default()
}

/// The array at `pointer`, empty when missing.
pub fn list<'a>(value: &'a Value, pointer: &str) -> &'a [Value] {
    value.pointer(pointer).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Writes an `omitempty` integer: zero removes the field.
pub fn put_count(map: &mut Map<String, Value>, key: &str, n: i64) {
    if n == 0 {
        map.remove(key);
    } else {
        map.insert(key.into(), json!(n));
    }
}

/// The template generation a member's copy was made from, as upstream parses its annotation:
/// a non-numeric value is an error (Go's `strconv.ParseInt` wording), a missing one is 0.
pub fn template_generation(object: &Value) -> Result<i64, String> {
    let key = TEMPLATE_GENERATION_ANNOTATION.replace('/', "~1");
    let text = string(object, &format!("/metadata/annotations/{key}"));
    // apimachinery's string-to-int64 conversion reads an empty string as 0, so an object
    // without the annotation (a Work written by hand, say) reflects generation 0.
    if text.is_empty() {
        return Ok(0);
    }
    text.parse::<i64>().map_err(|_| format!("strconv.ParseInt: parsing {text:?}: invalid syntax"))
}

/// The object's `metadata.generation`.
pub fn generation(object: &Value) -> i64 {
    int(object, "/metadata/generation")
}

/// The object with `.status` replaced.
pub fn with_status(object: &Value, status: Map<String, Value>) -> Value {
    let mut out = object.clone();
    if let Some(map) = out.as_object_mut() {
        map.insert("status".into(), Value::Object(status));
    }
    out
}
