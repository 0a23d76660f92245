//! Bounds on the JSON values a request makes the server build (patch and apply results): their
//! encoded size and nesting depth, measured without materialising the encoding and without
//! recursion, so an oversized or overdeep result is refused before it is copied or stored.

use std::io;

use serde_json::Value;

use super::status::ApiError;

/// The deepest nesting of objects and arrays a patch or apply may produce. serde_json refuses
/// documents nested 128 levels deep, and managedFields mirror an object's structure a few levels
/// further down, so a stored object must stay well below that to be readable again.
pub const MAX_DEPTH: usize = 100;

/// How many levels of objects and arrays `v` nests: 0 for a scalar, 1 for `{}` or `[1]`.
pub fn depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 0usize)];
    while let Some((v, level)) = stack.pop() {
        let children: &mut dyn Iterator<Item = &Value> = match v {
            Value::Object(m) => &mut m.values(),
            Value::Array(a) => &mut a.iter(),
            _ => continue,
        };
        deepest = deepest.max(level + 1);
        for c in children.filter(|c| c.is_object() || c.is_array()) {
            stack.push((c, level + 1));
        }
    }
    deepest
}

/// The length of `v`'s compact JSON encoding, or None as soon as it would exceed `limit`.
/// `v` must already be known to nest at most [`MAX_DEPTH`] levels (the encoder recurses).
pub(crate) fn encoded_len_within(v: &Value, limit: usize) -> Option<usize> {
    let mut counter = Counter { count: 0, limit };
    serde_json::to_writer(&mut counter, v).ok().map(|()| counter.count)
}

/// Refuses a patch or apply result nesting deeper than [`MAX_DEPTH`] (400) or encoding to more
/// than `max_bytes` (413), the same bound the request body itself has.
pub fn check_result(v: &Value, max_bytes: usize) -> Result<(), ApiError> {
    if depth(v) > MAX_DEPTH {
        return Err(ApiError::bad_request(format!("the resulting object nests deeper than {MAX_DEPTH} levels")));
    }
    if encoded_len_within(v, max_bytes).is_none() {
        return Err(ApiError::request_entity_too_large_msg(&format!(
            "the resulting object would be larger than the limit of {max_bytes} bytes"
        )));
    }
    Ok(())
}

/// A writer that only counts, and fails once past its limit so encoding stops early.
struct Counter {
    count: usize,
    limit: usize,
}

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.count = self.count.saturating_add(buf.len());
        if self.count > self.limit {
            return Err(io::Error::other("limit exceeded"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn nested(levels: usize) -> Value {
        (0..levels).fold(json!(1), |inner, _| json!({ "a": inner }))
    }

    #[test]
    fn depth_counts_containers() {
        assert_eq!(depth(&json!(1)), 0);
        assert_eq!(depth(&json!({})), 1);
        assert_eq!(depth(&json!([[], {"a": [1]}])), 3);
        assert_eq!(depth(&nested(500)), 500);
    }

    #[test]
    fn the_deepest_allowed_result_reads_back_with_room_for_managed_fields() {
        // managedFields add metadata.managedFields[i].fieldsV1 above a mirror of the object.
        let text = nested(MAX_DEPTH + 4).to_string();
        assert!(serde_json::from_str::<Value>(&text).is_ok());
    }

    #[test]
    fn encoded_len_stops_at_the_limit() {
        let v = json!({"k": "x".repeat(100)});
        let exact = v.to_string().len();
        assert_eq!(encoded_len_within(&v, exact), Some(exact));
        assert_eq!(encoded_len_within(&v, exact - 1), None);
    }

    #[test]
    fn check_result_answers_413_and_400() {
        let big = json!({"k": "x".repeat(2000)});
        let err = check_result(&big, 1000).unwrap_err();
        assert_eq!((err.code, err.reason.as_str()), (413, "RequestEntityTooLarge"));
        assert_eq!(
            err.message,
            "Request entity too large: the resulting object would be larger than the limit of 1000 bytes"
        );
        let err = check_result(&nested(MAX_DEPTH + 1), 1 << 20).unwrap_err();
        assert_eq!((err.code, err.message.as_str()), (400, "the resulting object nests deeper than 100 levels"));
        assert!(check_result(&nested(MAX_DEPTH), 1 << 20).is_ok());
    }
}
