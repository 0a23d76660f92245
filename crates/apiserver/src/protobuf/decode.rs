//! Schema-driven decoding of one protobuf message into the JSON Kubernetes would serialise.

use base64::Engine;
use serde_json::{Map, Value};

use super::schema::{Field, Kind, Scalar, Schema};
use super::wire::{Reader, WireValue};
use super::{ProtobufError, special};

/// Deeper nesting than any built-in type needs; bounds recursion on hostile input.
pub(super) const MAX_DEPTH: usize = 64;

/// Decodes `bytes` as the message `name`.
pub(super) fn message(schema: &Schema, name: &str, bytes: &[u8], depth: usize) -> Result<Value, ProtobufError> {
    if depth > MAX_DEPTH {
        return Err(ProtobufError::TooDeep(MAX_DEPTH));
    }
    if let Some(value) = special::decode(schema, name, bytes, depth)? {
        return Ok(value);
    }
    let msg = schema.message(name)?;
    let mut obj = Map::new();
    for field in Reader::new(bytes) {
        let (number, wire) = field?;
        // Unknown numbers are skipped, as kube skips fields newer than itself.
        let Some(f) = msg.fields.get(&number) else { continue };
        let at = || format!("{name} field {number}");
        match &f.kind {
            Kind::Map(key, value) => {
                let WireValue::Bytes(entry) = wire else { return Err(wire_type(at(), wire, "length-delimited")) };
                let (k, v) = map_entry(schema, *key, value, entry, depth, &at())?;
                let target = obj.entry(f.json.clone()).or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(m) = target {
                    m.insert(k, v);
                }
            }
            Kind::Scalar(s) if f.repeated => {
                let target = obj.entry(f.json.clone()).or_insert_with(|| Value::Array(Vec::new()));
                let Value::Array(items) = target else { continue };
                match (wire, s) {
                    // Packed encoding of numeric repeated fields; Go writes them unpacked, but
                    // both are valid protobuf.
                    (WireValue::Bytes(packed), Scalar::Bool | Scalar::Int32 | Scalar::Int64 | Scalar::Uint32) => {
                        let mut r = Reader::new(packed);
                        while !r.is_empty() {
                            items.push(scalar(*s, WireValue::Varint(r.varint()?), &at())?);
                        }
                    }
                    (WireValue::Bytes(packed), Scalar::Double) => {
                        if packed.len() % 8 != 0 {
                            return Err(ProtobufError::Truncated);
                        }
                        for chunk in packed.chunks_exact(8) {
                            let mut b = [0u8; 8];
                            b.copy_from_slice(chunk);
                            items.push(scalar(*s, WireValue::Fixed64(u64::from_le_bytes(b)), &at())?);
                        }
                    }
                    _ => items.push(scalar(*s, wire, &at())?),
                }
            }
            Kind::Scalar(s) => {
                let v = scalar(*s, wire, &at())?;
                // Go's non-pointer strings and byte slices are always written, empty or not, and
                // are `omitempty` in JSON: an empty one means unset.
                if v.as_str().is_some_and(str::is_empty) {
                    obj.remove(&f.json);
                } else {
                    obj.insert(f.json.clone(), v);
                }
            }
            Kind::Message(inner) => {
                let WireValue::Bytes(b) = wire else { return Err(wire_type(at(), wire, "length-delimited")) };
                let v = message(schema, inner, b, depth + 1)?;
                put_message(&mut obj, f, v);
            }
        }
    }
    Ok(Value::Object(obj))
}

/// Stores a decoded embedded message: appended, inlined (Go embedded struct) or set.
fn put_message(obj: &mut Map<String, Value>, f: &Field, v: Value) {
    if f.repeated {
        if let Value::Array(items) = obj.entry(f.json.clone()).or_insert_with(|| Value::Array(Vec::new())) {
            items.push(v);
        }
    } else if f.json.is_empty() {
        if let Value::Object(inner) = v {
            obj.extend(inner);
        }
    } else {
        obj.insert(f.json.clone(), v);
    }
}

/// One map entry: key 1 and value 2, either possibly absent (then the zero value).
fn map_entry(
    schema: &Schema,
    key: Scalar,
    value: &Kind,
    entry: &[u8],
    depth: usize,
    at: &str,
) -> Result<(String, Value), ProtobufError> {
    let mut k = String::new();
    let mut v = None;
    for field in Reader::new(entry) {
        match field? {
            (1, wire) => {
                k = match scalar(key, wire, at)? {
                    Value::String(s) => s,
                    other => other.to_string(),
                }
            }
            (2, wire) => {
                v = Some(match value {
                    Kind::Scalar(s) => scalar(*s, wire, at)?,
                    Kind::Message(name) => {
                        let WireValue::Bytes(b) = wire else {
                            return Err(wire_type(at.to_string(), wire, "length-delimited"));
                        };
                        message(schema, name, b, depth + 1)?
                    }
                    Kind::Map(..) => return Err(ProtobufError::Schema(format!("{at}: maps of maps"))),
                });
            }
            _ => {}
        }
    }
    let v = match (v, value) {
        (Some(v), _) => v,
        (None, Kind::Message(name)) => message(schema, name, &[], depth + 1)?,
        (None, Kind::Scalar(s)) => zero(*s),
        (None, Kind::Map(..)) => Value::Null,
    };
    Ok((k, v))
}

fn zero(s: Scalar) -> Value {
    match s {
        Scalar::String | Scalar::Bytes => Value::String(String::new()),
        Scalar::Bool => Value::Bool(false),
        Scalar::Int32 | Scalar::Int64 | Scalar::Uint32 => Value::from(0),
        Scalar::Double => Value::from(0.0),
    }
}

fn wire_type(at: String, got: WireValue<'_>, want: &'static str) -> ProtobufError {
    ProtobufError::WireType { at, got: got.name(), want }
}

/// One scalar value in its JSON form; `bytes` become standard base64 as in Kubernetes JSON.
pub(super) fn scalar(s: Scalar, wire: WireValue<'_>, at: &str) -> Result<Value, ProtobufError> {
    Ok(match (s, wire) {
        // Go does not check strings for UTF-8 when unmarshalling, and its JSON encoder replaces
        // invalid sequences with U+FFFD; do the same rather than fail.
        (Scalar::String, WireValue::Bytes(b)) => Value::String(String::from_utf8_lossy(b).into_owned()),
        (Scalar::Bytes, WireValue::Bytes(b)) => Value::String(base64::engine::general_purpose::STANDARD.encode(b)),
        (Scalar::Bool, WireValue::Varint(v)) => Value::Bool(v != 0),
        // int32 values are sign-extended to 64 bits on the wire; truncation recovers them.
        (Scalar::Int32, WireValue::Varint(v)) => Value::from(v as i32),
        (Scalar::Int64, WireValue::Varint(v)) => Value::from(v as i64),
        (Scalar::Uint32, WireValue::Varint(v)) => Value::from(v as u32),
        (Scalar::Double, WireValue::Fixed64(bits)) => {
            let f = f64::from_bits(bits);
            serde_json::Number::from_f64(f)
                .map(Value::Number)
                .ok_or_else(|| ProtobufError::InvalidValue(format!("{at}: {f} has no JSON form")))?
        }
        (s, wire) => {
            let want = match s {
                Scalar::String | Scalar::Bytes => "length-delimited",
                Scalar::Double => "fixed64",
                _ => "varint",
            };
            return Err(wire_type(at.to_string(), wire, want));
        }
    })
}
