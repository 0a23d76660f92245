//! Types whose JSON form is not their protobuf structure: times, durations, quantities,
//! int-or-string, raw embedded JSON, and Go slice types wrapped in a message.

use std::collections::HashMap;

use serde_json::Value;

use super::ProtobufError;
use super::schema::Schema;
use super::wire::{Reader, WireValue};

const TIME: &str = "apimachinery.pkg.apis.meta.v1.Time";
const MICRO_TIME: &str = "apimachinery.pkg.apis.meta.v1.MicroTime";
const DURATION: &str = "apimachinery.pkg.apis.meta.v1.Duration";
const FIELDS_V1: &str = "apimachinery.pkg.apis.meta.v1.FieldsV1";
const QUANTITY: &str = "apimachinery.pkg.api.resource.Quantity";
const INT_OR_STRING: &str = "apimachinery.pkg.util.intstr.IntOrString";
const RAW_EXTENSION: &str = "apimachinery.pkg.runtime.RawExtension";

/// The JSON form of a special type; `None` when `name` is an ordinary message.
pub(super) fn decode(schema: &Schema, name: &str, bytes: &[u8], depth: usize) -> Result<Option<Value>, ProtobufError> {
    let is_special =
        matches!(name, TIME | MICRO_TIME | DURATION | FIELDS_V1 | QUANTITY | INT_OR_STRING | RAW_EXTENSION)
            || name.ends_with(".ExtraValue");
    if !is_special {
        return Ok(None);
    }
    let f = Fields::read(schema, name, bytes)?;
    Ok(Some(match name {
        // Go writes a zero Time as an empty message and reads it back as zero, which is `null` in
        // JSON. kube keeps only the seconds of a Time.
        TIME if bytes.is_empty() => Value::Null,
        TIME => Value::String(rfc3339(f.int("seconds")?.unwrap_or(0), None)?),
        MICRO_TIME if bytes.is_empty() => Value::Null,
        MICRO_TIME => Value::String(rfc3339(f.int("seconds")?.unwrap_or(0), Some(f.int("nanos")?.unwrap_or(0)))?),
        DURATION => {
            Value::String(karmadactl_apimachinery::duration::format_go_duration(f.int("duration")?.unwrap_or(0)))
        }
        QUANTITY => match f.bytes("string")? {
            Some(s) if !s.is_empty() => Value::String(String::from_utf8_lossy(s).into_owned()),
            _ => Value::String("0".into()),
        },
        // Type 1 is intstr.String; anything else reads as the integer, as in Go.
        INT_OR_STRING if f.int("type")? == Some(1) => {
            Value::String(String::from_utf8_lossy(f.bytes("strVal")?.unwrap_or_default()).into_owned())
        }
        INT_OR_STRING => Value::from(f.int("intVal")?.unwrap_or(0) as i32),
        FIELDS_V1 | RAW_EXTENSION => match f.bytes("raw")? {
            None | Some([]) => Value::Null,
            Some(raw) if raw.starts_with(&super::MAGIC) => super::decode_nested(raw, depth + 1)?,
            Some(raw) => serde_json::from_slice(raw)
                .map_err(|e| ProtobufError::InvalidValue(format!("{name}: the embedded JSON is invalid: {e}")))?,
        },
        _ => Value::Array(f.strings(schema, name, bytes, "items")?),
    }))
}

/// The last value of each known field of a message, by JSON name.
pub(super) struct Fields<'a> {
    name: String,
    values: HashMap<&'a str, WireValue<'a>>,
}

impl<'a> Fields<'a> {
    pub(super) fn read(schema: &'a Schema, name: &str, bytes: &'a [u8]) -> Result<Self, ProtobufError> {
        let msg = schema.message(name)?;
        let mut values = HashMap::new();
        for field in Reader::new(bytes) {
            let (number, wire) = field?;
            if let Some(f) = msg.fields.get(&number) {
                values.insert(f.json.as_str(), wire);
            }
        }
        Ok(Fields { name: name.to_string(), values })
    }

    fn wrong(&self, field: &str, got: WireValue<'_>, want: &'static str) -> ProtobufError {
        ProtobufError::WireType { at: format!("{} field {field}", self.name), got: got.name(), want }
    }

    pub(super) fn int(&self, field: &str) -> Result<Option<i64>, ProtobufError> {
        match self.values.get(field) {
            None => Ok(None),
            Some(WireValue::Varint(v)) => Ok(Some(*v as i64)),
            Some(other) => Err(self.wrong(field, *other, "varint")),
        }
    }

    pub(super) fn bytes(&self, field: &str) -> Result<Option<&'a [u8]>, ProtobufError> {
        match self.values.get(field) {
            None => Ok(None),
            Some(WireValue::Bytes(b)) => Ok(Some(b)),
            Some(other) => Err(self.wrong(field, *other, "length-delimited")),
        }
    }

    /// Every value of a repeated string field, in order.
    fn strings(&self, schema: &Schema, name: &str, bytes: &[u8], field: &str) -> Result<Vec<Value>, ProtobufError> {
        let tag = schema.message(name)?.tag(field);
        let mut out = Vec::new();
        for item in Reader::new(bytes) {
            match item? {
                (n, WireValue::Bytes(b)) if Some(n) == tag => {
                    out.push(Value::String(String::from_utf8_lossy(b).into_owned()));
                }
                (n, other) if Some(n) == tag => return Err(self.wrong(field, other, "length-delimited")),
                _ => {}
            }
        }
        Ok(out)
    }
}

/// RFC 3339 in UTC as Go's Time (`2006-01-02T15:04:05Z`) or, with nanoseconds, MicroTime
/// (`2006-01-02T15:04:05.000000Z`) marshals it.
fn rfc3339(seconds: i64, nanos: Option<i64>) -> Result<String, ProtobufError> {
    let out_of_range = || ProtobufError::InvalidValue(format!("time {seconds}s is out of range"));
    let total = i128::from(seconds) * 1_000_000_000 + i128::from(nanos.unwrap_or(0));
    let ts = jiff::Timestamp::from_nanosecond(total).map_err(|_| out_of_range())?;
    let dt = jiff::tz::Offset::UTC.to_datetime(ts);
    // Go refuses to marshal years outside 0..=9999 as JSON.
    if dt.year() < 0 {
        return Err(out_of_range());
    }
    let date = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second()
    );
    Ok(match nanos {
        None => format!("{date}Z"),
        Some(_) => format!("{date}.{:06}Z", dt.subsec_nanosecond() / 1000),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_times_like_go() {
        assert_eq!(rfc3339(0, None).unwrap(), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_700_000_000, None).unwrap(), "2023-11-14T22:13:20Z");
        assert_eq!(rfc3339(1_700_000_000, Some(123_456_789)).unwrap(), "2023-11-14T22:13:20.123456Z");
        assert_eq!(rfc3339(-62_135_596_800, None).unwrap(), "0001-01-01T00:00:00Z");
        assert!(rfc3339(i64::MAX, None).is_err());
        assert!(rfc3339(-70_000_000_000, None).is_err());
    }
}
